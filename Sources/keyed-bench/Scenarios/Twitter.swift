import Foundation
import KeyedCodable

// twitter: twitter.json, a search result of 100 statuses with their users, entities and
// retweeted statuses; mostly strings, many of them non-ASCII.

/// The synthesized model: one struct per object of the document, keys through `CodingKeys`.
struct TwitterSynthesized: DocumentModel, Equatable {
  struct Metadata: Codable, Equatable {
    var resultType: String
    var isoLanguageCode: String

    enum CodingKeys: String, CodingKey {
      case resultType = "result_type"
      case isoLanguageCode = "iso_language_code"
    }
  }

  /// A link in a text, with where it sits in the text.
  struct URLEntity: Codable, Equatable {
    var url: String
    var expandedURL: String
    var displayURL: String
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
      case url
      case expandedURL = "expanded_url"
      case displayURL = "display_url"
      case indices
    }
  }

  struct URLList: Codable, Equatable {
    var urls: [URLEntity]
  }

  /// The links in a user's profile URL and description.
  struct UserEntities: Codable, Equatable {
    var url: URLList?
    var description: URLList
  }

  struct User: Codable, Equatable {
    var id: Int
    var idStr: String
    var name: String
    var screenName: String
    var location: String
    var description: String
    var url: String?
    var entities: UserEntities
    var protected: Bool
    var followersCount: Int
    var friendsCount: Int
    var listedCount: Int
    var createdAt: String
    var favouritesCount: Int
    var utcOffset: Int?
    var timeZone: String?
    var geoEnabled: Bool
    var verified: Bool
    var statusesCount: Int
    var lang: String
    var contributorsEnabled: Bool
    var isTranslator: Bool
    var isTranslationEnabled: Bool
    var profileBackgroundColor: String
    var profileBackgroundImageURL: String
    var profileBackgroundImageURLHTTPS: String
    var profileBackgroundTile: Bool
    var profileImageURL: String
    var profileImageURLHTTPS: String
    var profileBannerURL: String?
    var profileLinkColor: String
    var profileSidebarBorderColor: String
    var profileSidebarFillColor: String
    var profileTextColor: String
    var profileUseBackgroundImage: Bool
    var defaultProfile: Bool
    var defaultProfileImage: Bool
    var following: Bool
    var followRequestSent: Bool
    var notifications: Bool

    enum CodingKeys: String, CodingKey {
      case id
      case idStr = "id_str"
      case name
      case screenName = "screen_name"
      case location, description, url, entities, protected
      case followersCount = "followers_count"
      case friendsCount = "friends_count"
      case listedCount = "listed_count"
      case createdAt = "created_at"
      case favouritesCount = "favourites_count"
      case utcOffset = "utc_offset"
      case timeZone = "time_zone"
      case geoEnabled = "geo_enabled"
      case verified
      case statusesCount = "statuses_count"
      case lang
      case contributorsEnabled = "contributors_enabled"
      case isTranslator = "is_translator"
      case isTranslationEnabled = "is_translation_enabled"
      case profileBackgroundColor = "profile_background_color"
      case profileBackgroundImageURL = "profile_background_image_url"
      case profileBackgroundImageURLHTTPS = "profile_background_image_url_https"
      case profileBackgroundTile = "profile_background_tile"
      case profileImageURL = "profile_image_url"
      case profileImageURLHTTPS = "profile_image_url_https"
      case profileBannerURL = "profile_banner_url"
      case profileLinkColor = "profile_link_color"
      case profileSidebarBorderColor = "profile_sidebar_border_color"
      case profileSidebarFillColor = "profile_sidebar_fill_color"
      case profileTextColor = "profile_text_color"
      case profileUseBackgroundImage = "profile_use_background_image"
      case defaultProfile = "default_profile"
      case defaultProfileImage = "default_profile_image"
      case following
      case followRequestSent = "follow_request_sent"
      case notifications
    }
  }

  /// A hashtag or a cashtag (`symbols`), with where it sits in the text.
  struct Hashtag: Codable, Equatable {
    var text: String
    var indices: [Int]
  }

  struct UserMention: Codable, Equatable {
    var screenName: String
    var name: String
    var id: Int
    var idStr: String
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
      case screenName = "screen_name"
      case name, id
      case idStr = "id_str"
      case indices
    }
  }

  struct Size: Codable, Equatable {
    var w: Int
    var h: Int
    var resize: String
  }

  struct Sizes: Codable, Equatable {
    var medium: Size
    var small: Size
    var thumb: Size
    var large: Size
  }

  struct Media: Codable, Equatable {
    var id: Int
    var idStr: String
    var indices: [Int]
    var mediaURL: String
    var mediaURLHTTPS: String
    var url: String
    var displayURL: String
    var expandedURL: String
    var type: String
    var sizes: Sizes
    var sourceStatusID: Int?
    var sourceStatusIDStr: String?

    enum CodingKeys: String, CodingKey {
      case id
      case idStr = "id_str"
      case indices
      case mediaURL = "media_url"
      case mediaURLHTTPS = "media_url_https"
      case url
      case displayURL = "display_url"
      case expandedURL = "expanded_url"
      case type, sizes
      case sourceStatusID = "source_status_id"
      case sourceStatusIDStr = "source_status_id_str"
    }
  }

  struct Entities: Codable, Equatable {
    var hashtags: [Hashtag]
    var symbols: [Hashtag]
    var urls: [URLEntity]
    var userMentions: [UserMention]
    var media: [Media]?

    enum CodingKeys: String, CodingKey {
      case hashtags, symbols, urls
      case userMentions = "user_mentions"
      case media
    }
  }

  /// A GeoJSON point (`geo`, `coordinates`); `null` throughout this document.
  struct Point: Codable, Equatable {
    var type: String
    var coordinates: [Double]
  }

  /// A named place; `null` throughout this document.
  struct Place: Codable, Equatable {
    var id: String
    var name: String
    var fullName: String
    var country: String
    var countryCode: String
    var placeType: String
    var url: String

    enum CodingKeys: String, CodingKey {
      case id, name
      case fullName = "full_name"
      case country
      case countryCode = "country_code"
      case placeType = "place_type"
      case url
    }
  }

  struct Status: Codable, Equatable {
    var metadata: Metadata
    var createdAt: String
    var id: Int
    var idStr: String
    var text: String
    var source: String
    var truncated: Bool
    var inReplyToStatusID: Int?
    var inReplyToStatusIDStr: String?
    var inReplyToUserID: Int?
    var inReplyToUserIDStr: String?
    var inReplyToScreenName: String?
    var user: User
    var geo: Point?
    var coordinates: Point?
    var place: Place?
    var contributors: [Int]?
    var retweetedStatus: Indirect<Status>?
    var retweetCount: Int
    var favoriteCount: Int
    var entities: Entities
    var favorited: Bool
    var retweeted: Bool
    var possiblySensitive: Bool?
    var lang: String

    enum CodingKeys: String, CodingKey {
      case metadata
      case createdAt = "created_at"
      case id
      case idStr = "id_str"
      case text, source, truncated
      case inReplyToStatusID = "in_reply_to_status_id"
      case inReplyToStatusIDStr = "in_reply_to_status_id_str"
      case inReplyToUserID = "in_reply_to_user_id"
      case inReplyToUserIDStr = "in_reply_to_user_id_str"
      case inReplyToScreenName = "in_reply_to_screen_name"
      case user, geo, coordinates, place, contributors
      case retweetedStatus = "retweeted_status"
      case retweetCount = "retweet_count"
      case favoriteCount = "favorite_count"
      case entities, favorited, retweeted
      case possiblySensitive = "possibly_sensitive"
      case lang
    }
  }

  struct SearchMetadata: Codable, Equatable {
    var completedIn: Double
    var maxID: Int
    var maxIDStr: String
    var nextResults: String
    var query: String
    var refreshURL: String
    var count: Int
    var sinceID: Int
    var sinceIDStr: String

    enum CodingKeys: String, CodingKey {
      case completedIn = "completed_in"
      case maxID = "max_id"
      case maxIDStr = "max_id_str"
      case nextResults = "next_results"
      case query
      case refreshURL = "refresh_url"
      case count
      case sinceID = "since_id"
      case sinceIDStr = "since_id_str"
    }
  }

  var statuses: [Status]
  var searchMetadata: SearchMetadata

  enum CodingKeys: String, CodingKey {
    case statuses
    case searchMetadata = "search_metadata"
  }

  var objectCount: Int { statuses.count }
  var values: TwitterSynthesized { self }
}

/// The Keyedable model: the same data with fewer types. Key paths flatten a status's
/// `metadata` and `entities`, a user's `entities`, a medium's `sizes` and the document's
/// `search_metadata` into the objects that hold them.
struct TwitterKeyed: DocumentModel, Keyedable {
  struct URLEntity: Codable, Keyedable {
    var url = ""
    var expandedURL = ""
    var displayURL = ""
    var indices: [Int] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try url <-> map["url"]
      try expandedURL <-> map["expanded_url"]
      try displayURL <-> map["display_url"]
      try indices <-> map["indices"]
    }

    var normalized: TwitterSynthesized.URLEntity {
      TwitterSynthesized.URLEntity(
        url: url, expandedURL: expandedURL, displayURL: displayURL, indices: indices)
    }
  }

  struct User: Codable, Keyedable {
    var id = 0
    var idStr = ""
    var name = ""
    var screenName = ""
    var location = ""
    var description = ""
    var url: String?
    /// The links of the profile URL, `entities.url.urls`; absent when the user has no URL.
    var urlLinks: [URLEntity]?
    /// The links of the description, `entities.description.urls`.
    var descriptionLinks: [URLEntity] = []
    var protected = false
    var followersCount = 0
    var friendsCount = 0
    var listedCount = 0
    var createdAt = ""
    var favouritesCount = 0
    var utcOffset: Int?
    var timeZone: String?
    var geoEnabled = false
    var verified = false
    var statusesCount = 0
    var lang = ""
    var contributorsEnabled = false
    var isTranslator = false
    var isTranslationEnabled = false
    var profileBackgroundColor = ""
    var profileBackgroundImageURL = ""
    var profileBackgroundImageURLHTTPS = ""
    var profileBackgroundTile = false
    var profileImageURL = ""
    var profileImageURLHTTPS = ""
    var profileBannerURL: String?
    var profileLinkColor = ""
    var profileSidebarBorderColor = ""
    var profileSidebarFillColor = ""
    var profileTextColor = ""
    var profileUseBackgroundImage = false
    var defaultProfile = false
    var defaultProfileImage = false
    var following = false
    var followRequestSent = false
    var notifications = false

    init() {}

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try idStr <-> map["id_str"]
      try name <-> map["name"]
      try screenName <-> map["screen_name"]
      try location <-> map["location"]
      try description <-> map["description"]
      try url <-> map["url"]
      try urlLinks <-> map["entities.url.urls"]
      try descriptionLinks <-> map["entities.description.urls"]
      try protected <-> map["protected"]
      try followersCount <-> map["followers_count"]
      try friendsCount <-> map["friends_count"]
      try listedCount <-> map["listed_count"]
      try createdAt <-> map["created_at"]
      try favouritesCount <-> map["favourites_count"]
      try utcOffset <-> map["utc_offset"]
      try timeZone <-> map["time_zone"]
      try geoEnabled <-> map["geo_enabled"]
      try verified <-> map["verified"]
      try statusesCount <-> map["statuses_count"]
      try lang <-> map["lang"]
      try contributorsEnabled <-> map["contributors_enabled"]
      try isTranslator <-> map["is_translator"]
      try isTranslationEnabled <-> map["is_translation_enabled"]
      try profileBackgroundColor <-> map["profile_background_color"]
      try profileBackgroundImageURL <-> map["profile_background_image_url"]
      try profileBackgroundImageURLHTTPS <-> map["profile_background_image_url_https"]
      try profileBackgroundTile <-> map["profile_background_tile"]
      try profileImageURL <-> map["profile_image_url"]
      try profileImageURLHTTPS <-> map["profile_image_url_https"]
      try profileBannerURL <-> map["profile_banner_url"]
      try profileLinkColor <-> map["profile_link_color"]
      try profileSidebarBorderColor <-> map["profile_sidebar_border_color"]
      try profileSidebarFillColor <-> map["profile_sidebar_fill_color"]
      try profileTextColor <-> map["profile_text_color"]
      try profileUseBackgroundImage <-> map["profile_use_background_image"]
      try defaultProfile <-> map["default_profile"]
      try defaultProfileImage <-> map["default_profile_image"]
      try following <-> map["following"]
      try followRequestSent <-> map["follow_request_sent"]
      try notifications <-> map["notifications"]
    }

    var normalized: TwitterSynthesized.User {
      TwitterSynthesized.User(
        id: id, idStr: idStr, name: name, screenName: screenName, location: location,
        description: description, url: url,
        entities: TwitterSynthesized.UserEntities(
          url: urlLinks.map { TwitterSynthesized.URLList(urls: $0.map(\.normalized)) },
          description: TwitterSynthesized.URLList(urls: descriptionLinks.map(\.normalized))),
        protected: protected, followersCount: followersCount, friendsCount: friendsCount,
        listedCount: listedCount, createdAt: createdAt, favouritesCount: favouritesCount,
        utcOffset: utcOffset, timeZone: timeZone, geoEnabled: geoEnabled, verified: verified,
        statusesCount: statusesCount, lang: lang, contributorsEnabled: contributorsEnabled,
        isTranslator: isTranslator, isTranslationEnabled: isTranslationEnabled,
        profileBackgroundColor: profileBackgroundColor,
        profileBackgroundImageURL: profileBackgroundImageURL,
        profileBackgroundImageURLHTTPS: profileBackgroundImageURLHTTPS,
        profileBackgroundTile: profileBackgroundTile, profileImageURL: profileImageURL,
        profileImageURLHTTPS: profileImageURLHTTPS, profileBannerURL: profileBannerURL,
        profileLinkColor: profileLinkColor, profileSidebarBorderColor: profileSidebarBorderColor,
        profileSidebarFillColor: profileSidebarFillColor, profileTextColor: profileTextColor,
        profileUseBackgroundImage: profileUseBackgroundImage, defaultProfile: defaultProfile,
        defaultProfileImage: defaultProfileImage, following: following,
        followRequestSent: followRequestSent, notifications: notifications)
    }
  }

  /// A hashtag or a cashtag (`symbols`), with where it sits in the text.
  struct Hashtag: Codable, Keyedable {
    var text = ""
    var indices: [Int] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try text <-> map["text"]
      try indices <-> map["indices"]
    }

    var normalized: TwitterSynthesized.Hashtag {
      TwitterSynthesized.Hashtag(text: text, indices: indices)
    }
  }

  struct UserMention: Codable, Keyedable {
    var screenName = ""
    var name = ""
    var id = 0
    var idStr = ""
    var indices: [Int] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try screenName <-> map["screen_name"]
      try name <-> map["name"]
      try id <-> map["id"]
      try idStr <-> map["id_str"]
      try indices <-> map["indices"]
    }

    var normalized: TwitterSynthesized.UserMention {
      TwitterSynthesized.UserMention(
        screenName: screenName, name: name, id: id, idStr: idStr, indices: indices)
    }
  }

  struct Size: Codable, Keyedable {
    var w = 0
    var h = 0
    var resize = ""

    init() {}

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try w <-> map["w"]
      try h <-> map["h"]
      try resize <-> map["resize"]
    }

    var normalized: TwitterSynthesized.Size {
      TwitterSynthesized.Size(w: w, h: h, resize: resize)
    }
  }

  struct Media: Codable, Keyedable {
    var id = 0
    var idStr = ""
    var indices: [Int] = []
    var mediaURL = ""
    var mediaURLHTTPS = ""
    var url = ""
    var displayURL = ""
    var expandedURL = ""
    var type = ""
    var medium = Size()
    var small = Size()
    var thumb = Size()
    var large = Size()
    var sourceStatusID: Int?
    var sourceStatusIDStr: String?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try idStr <-> map["id_str"]
      try indices <-> map["indices"]
      try mediaURL <-> map["media_url"]
      try mediaURLHTTPS <-> map["media_url_https"]
      try url <-> map["url"]
      try displayURL <-> map["display_url"]
      try expandedURL <-> map["expanded_url"]
      try type <-> map["type"]
      try medium <-> map["sizes.medium"]
      try small <-> map["sizes.small"]
      try thumb <-> map["sizes.thumb"]
      try large <-> map["sizes.large"]
      try sourceStatusID <-> map["source_status_id"]
      try sourceStatusIDStr <-> map["source_status_id_str"]
    }

    var normalized: TwitterSynthesized.Media {
      TwitterSynthesized.Media(
        id: id, idStr: idStr, indices: indices, mediaURL: mediaURL, mediaURLHTTPS: mediaURLHTTPS,
        url: url, displayURL: displayURL, expandedURL: expandedURL, type: type,
        sizes: TwitterSynthesized.Sizes(
          medium: medium.normalized, small: small.normalized, thumb: thumb.normalized,
          large: large.normalized),
        sourceStatusID: sourceStatusID, sourceStatusIDStr: sourceStatusIDStr)
    }
  }

  /// A GeoJSON point (`geo`, `coordinates`); `null` throughout this document.
  struct Point: Codable, Keyedable {
    var type = ""
    var coordinates: [Double] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try type <-> map["type"]
      try coordinates <-> map["coordinates"]
    }

    var normalized: TwitterSynthesized.Point {
      TwitterSynthesized.Point(type: type, coordinates: coordinates)
    }
  }

  /// A named place; `null` throughout this document.
  struct Place: Codable, Keyedable {
    var id = ""
    var name = ""
    var fullName = ""
    var country = ""
    var countryCode = ""
    var placeType = ""
    var url = ""

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try name <-> map["name"]
      try fullName <-> map["full_name"]
      try country <-> map["country"]
      try countryCode <-> map["country_code"]
      try placeType <-> map["place_type"]
      try url <-> map["url"]
    }

    var normalized: TwitterSynthesized.Place {
      TwitterSynthesized.Place(
        id: id, name: name, fullName: fullName, country: country, countryCode: countryCode,
        placeType: placeType, url: url)
    }
  }

  struct Status: Codable, Keyedable {
    var resultType = ""
    var isoLanguageCode = ""
    var createdAt = ""
    var id = 0
    var idStr = ""
    var text = ""
    var source = ""
    var truncated = false
    var inReplyToStatusID: Int?
    var inReplyToStatusIDStr: String?
    var inReplyToUserID: Int?
    var inReplyToUserIDStr: String?
    var inReplyToScreenName: String?
    var user = User()
    var geo: Point?
    var coordinates: Point?
    var place: Place?
    var contributors: [Int]?
    var retweetedStatus: Indirect<Status>?
    var retweetCount = 0
    var favoriteCount = 0
    var hashtags: [Hashtag] = []
    var symbols: [Hashtag] = []
    var urls: [URLEntity] = []
    var userMentions: [UserMention] = []
    var media: [Media]?
    var favorited = false
    var retweeted = false
    var possiblySensitive: Bool?
    var lang = ""

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try resultType <-> map["metadata.result_type"]
      try isoLanguageCode <-> map["metadata.iso_language_code"]
      try createdAt <-> map["created_at"]
      try id <-> map["id"]
      try idStr <-> map["id_str"]
      try text <-> map["text"]
      try source <-> map["source"]
      try truncated <-> map["truncated"]
      try inReplyToStatusID <-> map["in_reply_to_status_id"]
      try inReplyToStatusIDStr <-> map["in_reply_to_status_id_str"]
      try inReplyToUserID <-> map["in_reply_to_user_id"]
      try inReplyToUserIDStr <-> map["in_reply_to_user_id_str"]
      try inReplyToScreenName <-> map["in_reply_to_screen_name"]
      try user <-> map["user"]
      try geo <-> map["geo"]
      try coordinates <-> map["coordinates"]
      try place <-> map["place"]
      try contributors <-> map["contributors"]
      try retweetedStatus <-> map["retweeted_status"]
      try retweetCount <-> map["retweet_count"]
      try favoriteCount <-> map["favorite_count"]
      try hashtags <-> map["entities.hashtags"]
      try symbols <-> map["entities.symbols"]
      try urls <-> map["entities.urls"]
      try userMentions <-> map["entities.user_mentions"]
      try media <-> map["entities.media"]
      try favorited <-> map["favorited"]
      try retweeted <-> map["retweeted"]
      try possiblySensitive <-> map["possibly_sensitive"]
      try lang <-> map["lang"]
    }

    var normalized: TwitterSynthesized.Status {
      TwitterSynthesized.Status(
        metadata: TwitterSynthesized.Metadata(
          resultType: resultType, isoLanguageCode: isoLanguageCode),
        createdAt: createdAt, id: id, idStr: idStr, text: text, source: source,
        truncated: truncated, inReplyToStatusID: inReplyToStatusID,
        inReplyToStatusIDStr: inReplyToStatusIDStr, inReplyToUserID: inReplyToUserID,
        inReplyToUserIDStr: inReplyToUserIDStr, inReplyToScreenName: inReplyToScreenName,
        user: user.normalized, geo: geo?.normalized,
        coordinates: coordinates?.normalized, place: place?.normalized,
        contributors: contributors,
        retweetedStatus: retweetedStatus.map { Indirect($0.value.normalized) },
        retweetCount: retweetCount, favoriteCount: favoriteCount,
        entities: TwitterSynthesized.Entities(
          hashtags: hashtags.map(\.normalized), symbols: symbols.map(\.normalized),
          urls: urls.map(\.normalized), userMentions: userMentions.map(\.normalized),
          media: media?.map(\.normalized)),
        favorited: favorited, retweeted: retweeted, possiblySensitive: possiblySensitive,
        lang: lang)
    }
  }

  var statuses: [Status] = []
  var completedIn = 0.0
  var maxID = 0
  var maxIDStr = ""
  var nextResults = ""
  var query = ""
  var refreshURL = ""
  var count = 0
  var sinceID = 0
  var sinceIDStr = ""

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try statuses <-> map["statuses"]
    try completedIn <-> map["search_metadata.completed_in"]
    try maxID <-> map["search_metadata.max_id"]
    try maxIDStr <-> map["search_metadata.max_id_str"]
    try nextResults <-> map["search_metadata.next_results"]
    try query <-> map["search_metadata.query"]
    try refreshURL <-> map["search_metadata.refresh_url"]
    try count <-> map["search_metadata.count"]
    try sinceID <-> map["search_metadata.since_id"]
    try sinceIDStr <-> map["search_metadata.since_id_str"]
  }

  var objectCount: Int { statuses.count }

  var values: TwitterSynthesized {
    TwitterSynthesized(
      statuses: statuses.map(\.normalized),
      searchMetadata: TwitterSynthesized.SearchMetadata(
        completedIn: completedIn, maxID: maxID, maxIDStr: maxIDStr, nextResults: nextResults,
        query: query, refreshURL: refreshURL, count: count, sinceID: sinceID,
        sinceIDStr: sinceIDStr))
  }
}

/// The twitter scenario: twitter.json, 100 statuses; time per object is per status.
func twitterScenario() throws -> Scenario {
  try documentScenario(
    id: "twitter", title: "twitter.json: 100 statuses, users, entities, retweets",
    file: "twitter.json", synthesized: TwitterSynthesized.self, keyed: TwitterKeyed.self)
}
