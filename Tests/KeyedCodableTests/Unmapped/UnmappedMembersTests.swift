import Foundation
import KeyedCodable
import Testing

/// `map.unmapped` keeps the members no mapping reads and writes them back (issue 22), on both
/// coders.
@Suite(.bothCoders) struct UnmappedMembersTests {
  // MARK: - Models

  struct Settings: Codable, Keyedable, Equatable {
    var theme = ""
    var extra: [String: JSONValue] = [:]

    mutating func map(map: KeyMap) throws {
      try theme <-> map["display.theme"]
      try extra <-> map.unmapped
    }
  }

  struct FullSettings: Codable, Keyedable, Equatable {
    var id = 0
    var theme = ""
    var extra: [String: JSONValue] = [:]
    var displayExtra: [String: JSONValue] = [:]

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try theme <-> map["display.theme"]
      try displayExtra <-> map.unmapped(at: "display")
      try extra <-> map.unmapped
    }
  }

  static let document = """
    {"id":7,"display":{"theme":"dark","size":2,"fonts":["Menlo","Fira"]},"version":3,\
    "tags":["a","b"],"nested":{"x":null,"y":true},"name":"Ada"}
    """

  // MARK: - Round trips

  @Test func theMappedObjectKeepsWhatNoMappingReads() throws {
    let settings = try decode(Settings.self, from: Self.document)
    #expect(settings.theme == "dark")
    #expect(
      settings.extra == [
        "id": 7, "version": 3, "tags": ["a", "b"], "nested": ["x": nil, "y": true], "name": "Ada",
      ])
    try expectEncoded(
      settings,
      #"{"id":7,"display":{"theme":"dark"},"version":3,"tags":["a","b"],"nested":{"x":null,"y":true},"name":"Ada"}"#
    )
  }

  @Test func aNestedObjectAndTheMappedOneRoundTripTheWholeDocument() throws {
    let settings = try decode(FullSettings.self, from: Self.document)
    #expect(settings.id == 7)
    #expect(settings.displayExtra == ["size": 2, "fonts": ["Menlo", "Fira"]])
    #expect(settings.extra.keys.sorted() == ["name", "nested", "tags", "version"])
    try expectEncoded(settings, Self.document)
    // Again, following the plan the first decode made.
    #expect(try decode(FullSettings.self, from: Self.document) == settings)
    #expect(try decode(FullSettings.self, from: try encodeJSON(settings)) == settings)
  }

  @Test func noObjectGivesNoMembers() throws {
    struct Model: Codable, Keyedable, Equatable {
      var theme: String?
      var displayExtra: [String: JSONValue] = ["stale": 1]
      var extra: [String: JSONValue] = ["stale": 1]
      mutating func map(map: KeyMap) throws {
        try theme <-> map["display.theme"]
        try displayExtra <-> map.unmapped(at: "display")
        try extra <-> map.unmapped
      }
    }
    let model = try decode(Model.self, from: #"{"display":null}"#)
    #expect(model.displayExtra == [:])
    #expect(model.extra == [:])
    #expect(try decode(Model.self, from: "{}") == Model(theme: nil, displayExtra: [:], extra: [:]))
    // Nothing to write opens no object.
    try expectEncoded(model, "{}")
  }

  @Test func anObjectThatIsNotOneThrowsWithItsPath() {
    struct Model: Codable, Keyedable {
      var extra: [String: JSONValue] = [:]
      mutating func map(map: KeyMap) throws {
        try extra <-> map.unmapped(at: "display")
      }
    }
    expectError("typeMismatch", at: ["display"]) {
      try decode(Model.self, from: #"{"display":5}"#)
    }
  }

  @Test func aKeyWithCustomDelimitersReadsItsFirstMember() throws {
    struct Build: Codable, Keyedable, Equatable {
      var status = ""
      var rest: [String: JSONValue] = [:]
      var versionRest: [String: JSONValue] = [:]
      mutating func map(map: KeyMap) throws {
        try status <-> map["builds/v1.2/status", KeyOptions(delimiter: "/")]
        try versionRest <-> map.unmapped(at: "builds/v1.2", KeyOptions(delimiter: "/"))
        try rest <-> map.unmapped
      }
    }
    let json = #"{"builds":{"v1.2":{"status":"ok","time":12}},"owner":"ci"}"#
    let build = try decode(Build.self, from: json)
    #expect(build.status == "ok")
    #expect(build.versionRest == ["time": 12])
    #expect(build.rest == ["owner": "ci"])
    try expectEncoded(build, json)
  }

  @Test func aLossyKeyReadsTheMemberWithoutItsMarker() throws {
    struct Feed: Codable, Keyedable, Equatable {
      var posts: [Int] = []
      var rest: [String: JSONValue] = [:]
      mutating func map(map: KeyMap) throws {
        try posts <-> map["feed.* posts"]
        try rest <-> map.unmapped(at: "feed")
      }
    }
    let feed = try decode(Feed.self, from: #"{"feed":{"posts":[1,"x",3],"cursor":"c9"}}"#)
    #expect(feed.posts == [1, 3])
    #expect(feed.rest == ["cursor": "c9"])
    try expectEncoded(feed, #"{"feed":{"posts":[1,3],"cursor":"c9"}}"#)
  }

  // MARK: - Flat values

  struct GeoPoint: Codable, Equatable {
    var lat: Double
    var lon: Double
  }

  struct Place: Codable, Keyedable, Equatable {
    var name = ""
    var position: GeoPoint?
    var extra: [String: JSONValue] = [:]
    mutating func map(map: KeyMap) throws {
      try name <-> map["name"]
      try position <-> map[""]
      try extra <-> map.unmapped
    }
  }

  @Test func aSynthesizedFlatValueReadsItsMembers() throws {
    let json = #"{"name":"Harbor","lat":59.5,"lon":10.75,"rating":4,"open":true}"#
    for _ in 0..<3 {
      let place = try decode(Place.self, from: json)
      #expect(place.position == GeoPoint(lat: 59.5, lon: 10.75))
      #expect(place.extra == ["rating": 4, "open": true])
      try expectEncoded(place, json)
    }
  }

  struct Paging: Codable, Keyedable, Equatable {
    var next: String?
    var total = 0
    mutating func map(map: KeyMap) throws {
      try next <-> map["next"]
      try total <-> map["meta.total"]
    }
  }

  struct Page: Codable, Keyedable, Equatable {
    var items: [Int] = []
    var paging = Paging()
    var extra: JSONValue = [:]
    mutating func map(map: KeyMap) throws {
      try items <-> map["items"]
      try paging <-> map[""]
      try extra <-> map.unmapped
    }
  }

  @Test func aKeyedableFlatValueReadsItsMembers() throws {
    let json = #"{"items":[1,2],"next":"p2","meta":{"total":2},"etag":"w/1","ttl":60}"#
    for _ in 0..<3 {
      let page = try decode(Page.self, from: json)
      #expect(page.paging == Paging(next: "p2", total: 2))
      #expect(page.extra == ["etag": "w/1", "ttl": 60])
      try expectEncoded(page, json)
    }
  }

  // MARK: - Other models

  @Test func aNestedModelKeepsItsOwnUnmappedMembers() throws {
    struct User: Codable, Keyedable, Equatable {
      var login = ""
      var rest: [String: JSONValue] = [:]
      mutating func map(map: KeyMap) throws {
        try login <-> map["login"]
        try rest <-> map.unmapped
      }
    }
    struct Envelope: Codable, Keyedable, Equatable {
      var users: [User] = []
      mutating func map(map: KeyMap) throws {
        try users <-> map["data.users"]
      }
    }
    let json = #"{"data":{"users":[{"login":"ada","admin":true},{"login":"bob","age":41}]}}"#
    let envelope = try decode(Envelope.self, from: json)
    #expect(envelope.users.map(\.rest) == [["admin": true], ["age": 41]])
    try expectEncoded(envelope, json)
  }

  @Test func aModelWithoutUnmappedStillDropsWhatItDoesNotMap() throws {
    struct Plain: Codable, Keyedable, Equatable {
      var theme = ""
      mutating func map(map: KeyMap) throws {
        try theme <-> map["display.theme"]
      }
    }
    let plain = try decode(Plain.self, from: Self.document)
    try expectEncoded(plain, #"{"display":{"theme":"dark"}}"#)
  }

  @Test func repeatedNamesKeepTheFirst() throws {
    let settings = try decode(Settings.self, from: #"{"a":1,"display":{"theme":"t"},"a":2}"#)
    #expect(settings.extra == ["a": 1])
  }

  // MARK: - Directions

  @Test func decodeOnlyKeepsButDoesNotWrite() throws {
    struct Model: Codable, Keyedable, Equatable {
      var id = 0
      var extra: [String: JSONValue] = [:]
      mutating func map(map: KeyMap) throws {
        try id <-> map["id"]
        try extra <<- map.unmapped
      }
    }
    let model = try decode(Model.self, from: #"{"id":1,"note":"n"}"#)
    #expect(model.extra == ["note": "n"])
    try expectEncoded(model, #"{"id":1}"#)
  }

  @Test func encodeOnlyWritesButDoesNotDecode() throws {
    struct Model: Codable, Keyedable, Equatable {
      var id = 0
      var extra: [String: JSONValue] = ["source": "app"]
      mutating func map(map: KeyMap) throws {
        try id <-> map["id"]
        try extra ->> map.unmapped
      }
    }
    let model = try decode(Model.self, from: #"{"id":1,"note":"n"}"#)
    #expect(model.extra == ["source": "app"])
    try expectEncoded(model, #"{"id":1,"source":"app"}"#)
  }

  @Test func encodeOnlyMappingsReadTheirMembersWhenDecoding() throws {
    struct Model: Codable, Keyedable, Equatable {
      var name = ""
      var extra: [String: JSONValue] = [:]
      mutating func map(map: KeyMap) throws {
        try name <-> map["name"]
        try name.count ->> map["meta.length"]
        try extra <-> map.unmapped
      }
    }
    let json = #"{"name":"Ada","meta":{"length":3},"kind":"user"}"#
    for _ in 0..<2 {
      let model = try decode(Model.self, from: json)
      #expect(model.extra == ["kind": "user"])
      try expectEncoded(model, json)
    }
  }

  // MARK: - Conflicts and order

  @Test func aKeptMemberAlsoWrittenByAMappingThrowsWithItsPath() throws {
    var settings = FullSettings()
    settings.extra = ["id": 9]
    expectError("invalidValue", at: ["id"]) { try encodeJSON(settings) }
    settings.extra = ["display": ["theme": "light"]]
    expectError("invalidValue", at: ["display"]) { try encodeJSON(settings) }
    settings.extra = [:]
    settings.displayExtra = ["theme": "light"]
    expectError("invalidValue", at: ["display", "theme"]) { try encodeJSON(settings) }
    do {
      _ = try encodeJSON(settings)
    } catch {
      #expect(
        message(of: error)
          == #"Member "theme" kept by map.unmapped(at: "display") is also written by a mapping; "#
          + "one would overwrite the other. Remove it from the unmapped members, or stop mapping it."
      )
    }
  }

  @Test func aMappingAfterUnmappedThatReadsItsObjectThrows() throws {
    struct Misordered: Codable, Keyedable {
      var extra: [String: JSONValue] = [:]
      var id = 0
      mutating func map(map: KeyMap) throws {
        try extra <-> map.unmapped
        try id <-> map["id"]
      }
    }
    for _ in 0..<2 {
      expectError("dataCorrupted", at: []) { try decode(Misordered.self, from: #"{"id":1}"#) }
      expectError("invalidValue", at: []) { try encodeJSON(Misordered()) }
    }
    do {
      _ = try decode(Misordered.self, from: #"{"id":1}"#)
    } catch {
      #expect(message(of: error).hasPrefix("map.unmapped in Misordered is followed by map[\"id\"]"))
    }
  }

  @Test func aMappingAfterUnmappedOfAnotherObjectIsFine() throws {
    struct Model: Codable, Keyedable, Equatable {
      var extra: [String: JSONValue] = [:]
      var id = 0
      mutating func map(map: KeyMap) throws {
        try extra <-> map.unmapped(at: "meta")
        try id <-> map["id"]
      }
    }
    let json = #"{"id":2,"meta":{"a":1}}"#
    let model = try decode(Model.self, from: json)
    #expect(model.extra == ["a": 1])
    try expectEncoded(model, json)
  }

  @Test func aJSONValueThatIsNotAnObjectThrows() {
    struct Model: Codable, Keyedable {
      var extra: JSONValue = "nope"
      mutating func map(map: KeyMap) throws {
        try extra <-> map.unmapped(at: "meta")
      }
    }
    expectError("invalidValue", at: []) { try encodeJSON(Model()) }
  }
}

/// Many members: each is looked at once (names in a set), on both coders.
@Suite(.bothCoders) struct UnmappedMembersScaleTests {
  struct Wide: Codable, Keyedable {
    var first = 0
    var extra: [String: JSONValue] = [:]
    mutating func map(map: KeyMap) throws {
      try first <-> map["m0"]
      try extra <-> map.unmapped
    }
  }

  @Test func twentyThousandMembersRoundTrip() throws {
    let count = 20_000
    let json = "{" + (0..<count).map { "\"m\($0)\":\($0)" }.joined(separator: ",") + "}"
    let wide = try decode(Wide.self, from: json)
    #expect(wide.first == 0)
    #expect(wide.extra.count == count - 1)
    #expect(wide.extra["m19999"] == 19_999)
    #expect(wide.extra["m0"] == nil)
    let again = try decode(Wide.self, from: try encodeJSON(wide))
    #expect(again.extra == wide.extra)
  }
}
