import Foundation
import KeyedCodable

// One model, two screens (stories 1, 3 and 5 of "Context and configuration"): the same `User`
// decodes for a search list, where a configuration shortens the biography and keeps the first
// interests, and for a full profile with no limits. A search result hands the configuration to
// each user; a user hands a configuration of their own to each videogame.

/// How much of a user a screen shows.
public struct UserConfiguration: Sendable, Equatable {
  /// The longest biography shown, in characters; `nil` for no limit.
  public var biographyMaxLength: Int?
  /// The most interests shown; `nil` for no limit.
  public var maxInterests: Int?
  /// What the user's videogames show, handed down to them.
  public var videogames: VideogameConfiguration?

  public init(
    biographyMaxLength: Int? = nil, maxInterests: Int? = nil,
    videogames: VideogameConfiguration? = nil
  ) {
    self.biographyMaxLength = biographyMaxLength
    self.maxInterests = maxInterests
    self.videogames = videogames
  }

  /// The search list: short biographies, three interests, no ratings.
  public static let searchList = UserConfiguration(
    biographyMaxLength: 20, maxInterests: 2, videogames: VideogameConfiguration(showsRatings: false)
  )
}

/// What a videogame shows.
public struct VideogameConfiguration: Sendable, Equatable {
  /// Whether the personal rating is read.
  public var showsRatings: Bool

  public init(showsRatings: Bool) {
    self.showsRatings = showsRatings
  }
}

/// A user of the videogame service.
public struct User: Codable, Keyedable, Equatable {
  public var userId: Int?
  public var username: String?
  public var avatarURL: URL?
  public var biography: String?
  public var interests: [String]?
  public var videogames: [Videogame]?

  public init() {}

  public mutating func map(map: KeyMap) throws {
    try userId <-> map["userId"]
    try username <-> map["username"]
    try avatarURL <-> map["avatarURL"]
    try biography <-> map["biography"]
    try interests <-> map["interests"]
    let configuration = map.configuration(UserConfiguration.self)
    if let videogames = configuration?.videogames {
      try self.videogames <-> map["videogames"].configured(with: videogames)
    } else {
      try self.videogames <-> map["videogames"]
    }
    if map.type.isDecoding, let configuration {
      // At most `limit` characters, the ellipsis included.
      if let limit = configuration.biographyMaxLength, limit > 0, let text = biography,
        text.count > limit
      {
        biography = String(text.prefix(limit - 1)) + "…"
      }
      if let limit = configuration.maxInterests {
        interests = interests.map { Array($0.prefix(limit)) }
      }
    }
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

/// A videogame a user plays.
public struct Videogame: Codable, Keyedable, Equatable {
  public var videogameId: Int?
  public var title: String?
  public var developer: String?
  public var publisher: String?
  public var personalRating: Int?
  public var hoursPlayed: Int?

  public init() {}

  public mutating func map(map: KeyMap) throws {
    try videogameId <-> map["videogameId"]
    try title <-> map["title"]
    try developer <-> map["developer"]
    try publisher <-> map["publisher"]
    if map.configuration(VideogameConfiguration.self)?.showsRatings ?? true {
      try personalRating <-> map["personalRating"]
    }
    try hoursPlayed <-> map["hoursPlayed"]
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

/// A page of search results, which shows its users with the search list's configuration.
public struct UserSearch: Codable, Keyedable, Equatable {
  public var resultCount = 0
  public var totalPages = 0
  public var resultsPerPage = 0
  public var currentPage = 0
  public var users: [User] = []

  public init() {}

  public mutating func map(map: KeyMap) throws {
    try resultCount <-> map["resultCount"]
    try totalPages <-> map["totalPages"]
    try resultsPerPage <-> map["resultsPerPage"]
    try currentPage <-> map["currentPage"]
    try users <-> map["users"].configured(with: UserConfiguration.searchList)
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension Example {
  /// A user, the way the seed article shows it.
  public static let userJSON = """
    {
      "userId": 1,
      "username": "AndyIbanez",
      "avatarURL": "https://pbs.twimg.com/profile_images/1403463750406098947/-gU-Ofaa_400x400.jpg",
      "biography": "iOS Developer writing nifty apps. I was born and raised in La Paz, Bolivia many moons ago.",
      "interests": ["Programming", "Pullip", "The Legend of Zelda"],
      "videogames": [
        {
          "videogameId": 1, "title": "The Legend of Zelda: Ocarina of Time",
          "publisher": "Nintendo", "developer": "Nintendo", "personalRating": 10, "hoursPlayed": 900
        },
        {
          "videogameId": 2, "title": "The Legend of Zelda: Majora's Mask",
          "publisher": "Nintendo", "developer": "Nintendo", "personalRating": 10, "hoursPlayed": 800
        }
      ]
    }
    """

  /// A page of search results holding that user.
  public static var userSearchJSON: String {
    """
    {"resultCount": 1, "totalPages": 1, "currentPage": 1, "resultsPerPage": 5, "users": [\(userJSON)]}
    """
  }

  /// One model, two screens.
  public static var profiles: Example {
    Example(name: "Context: one model, two screens", json: userJSON) {
      let decoder = JSONDecoder()
      let profile = try decoder.decode(User.self, from: Data(userJSON.utf8))
      let listed = try decoder.decode(
        User.self, from: Data(userJSON.utf8), with: .configuration(UserConfiguration.searchList))
      let search = try decoder.decode(UserSearch.self, from: Data(userSearchJSON.utf8))
      return Output(
        decoded: [
          "profile biography = \(profile.biography ?? "nil")",
          "profile interests = \(profile.interests ?? [])",
          "list biography = \(listed.biography ?? "nil")",
          "list interests = \(listed.interests ?? [])",
          "list ratings = \(listed.videogames?.map { $0.personalRating.map(String.init) ?? "nil" } ?? [])",
          "search users[0].biography = \(search.users.first?.biography ?? "nil")",
        ], encoded: nil)
    }
  }
}
