import Foundation
import KeyedCodable
import Testing

// Polymorphism for real feeds: an unknown type decoded as a fallback, the type member in the
// parent object (GitHub's events), and names found by a function of the value (routes whose
// type is the scheme of a string).

protocol FeedPayload: Sendable {}

struct PushPayload: FeedPayload, Codable, Keyedable, Equatable {
  var size = 0
  var ref = ""

  mutating func map(map: KeyMap) throws {
    try size <-> map["payload.size"]
    try ref <-> map["payload.ref"]
  }
}

struct WatchPayload: FeedPayload, Codable, Keyedable, Equatable {
  var action = ""

  mutating func map(map: KeyMap) throws {
    try action <-> map["payload.action"]
  }
}

/// Any event the registry doesn't know: keeps its type name and its payload's members that are
/// strings.
struct UnknownPayload: FeedPayload, Codable, Keyedable, Equatable {
  var type = ""
  var strings: [String: String] = [:]

  mutating func map(map: KeyMap) throws {
    try type <-> map["type"]
    try strings <-> map["payload"]
  }
}

extension TypeRegistry where Base == any FeedPayload {
  static let payloads = TypeRegistry(
    ["PushEvent": PushPayload.self, "WatchEvent": WatchPayload.self],
    fallback: UnknownPayload.self)
  static let strictPayloads = TypeRegistry(
    ["PushEvent": PushPayload.self, "WatchEvent": WatchPayload.self])
}

struct FeedEvent: Codable, Keyedable {
  var id = ""
  var payload: any FeedPayload = UnknownPayload()

  mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
    // The type member sits beside "payload": the flat key hands the event's own object to the
    // registry, and each payload type reads below "payload".
    try payload <-> map[""].polymorphic(.payloads)
  }
}

struct StrictFeedEvent: Codable, Keyedable {
  var id = ""
  var payload: (any FeedPayload)?

  mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
    try payload <-> map[""].polymorphic(.strictPayloads)
  }
}

protocol Route: Sendable {}

/// `"profile://<id>"`.
struct ProfileRoute: Route, Codable, Equatable {
  var userID: Int

  init(userID: Int) {
    self.userID = userID
  }

  init(from decoder: Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let id = Int(text.dropFirst("profile://".count)) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "Not a profile route: \(text)"))
    }
    userID = id
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode("profile://\(userID)")
  }
}

/// `"settings://<section>"`.
struct SettingsRoute: Route, Codable, Equatable {
  var section: String

  init(section: String) {
    self.section = section
  }

  init(from decoder: Decoder) throws {
    section = String(
      try decoder.singleValueContainer().decode(String.self).dropFirst("settings://".count))
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode("settings://\(section)")
  }
}

extension TypeRegistry where Base == any Route {
  static let routes = TypeRegistry(
    ["profile": ProfileRoute.self, "settings": SettingsRoute.self]
  ) { decoder in
    let text = try decoder.singleValueContainer().decode(String.self)
    return String(text.prefix { $0 != ":" })
  }
}

struct Screen: Codable, Keyedable {
  var title = ""
  var route: (any Route)?
  var links: [any Route] = []

  mutating func map(map: KeyMap) throws {
    try title <-> map["title"]
    try route <-> map["route"].polymorphic(.routes)
    try links <-> map["* links"].polymorphic(.routes)
  }
}

@Suite("Context: polymorphism in real feeds", .bothCoders)
struct PolymorphicFeedTests {
  static let feed = #"""
    [
      {"id": "1", "type": "PushEvent", "payload": {"size": 2, "ref": "main"}},
      {"id": "2", "type": "WatchEvent", "payload": {"action": "started"}},
      {"id": "3", "type": "ForkEvent", "payload": {"forkee": "x/y"}}
    ]
    """#

  @Test func theTypeMemberOfTheParentChoosesThePayloadsType() throws {
    let events = try decode([FeedEvent].self, from: Self.feed)
    #expect(events.map(\.id) == ["1", "2", "3"])
    #expect((events[0].payload as? PushPayload) == PushPayload(size: 2, ref: "main"))
    #expect((events[1].payload as? WatchPayload) == WatchPayload(action: "started"))
    #expect(
      (events[2].payload as? UnknownPayload)
        == UnknownPayload(type: "ForkEvent", strings: ["forkee": "x/y"]))
  }

  @Test func eventsOfEveryKindEncodeBackToTheFeed() throws {
    let events = try decode([FeedEvent].self, from: Self.feed)
    #expect(try canonicalJSON(try encodeJSON(events)) == (try canonicalJSON(Self.feed)))
  }

  @Test func withoutAFallbackAnUnknownTypeIsDataCorruptedAtTheEvent() throws {
    expectError("dataCorrupted", at: ["Index 2"]) {
      try decode([StrictFeedEvent].self, from: Self.feed)
    }
    do {
      _ = try decode([StrictFeedEvent].self, from: Self.feed)
    } catch {
      #expect(
        message(of: error)
          == "Unknown type \"ForkEvent\" in member \"type\" for FeedPayload; the registered "
          + "types are \"PushEvent\", \"WatchEvent\".")
    }
  }

  @Test func theFallbackAlsoServesArrays() throws {
    struct Feed: Codable, Keyedable {
      var payloads: [any FeedPayload] = []
      mutating func map(map: KeyMap) throws {
        try payloads <-> map["events"].polymorphic(.payloads)
      }
    }
    let feed = try decode(Feed.self, from: #"{"events": \#(Self.feed)}"#)
    #expect(feed.payloads.count == 3)
    #expect((feed.payloads[2] as? UnknownPayload)?.type == "ForkEvent")
  }

  @Test func aFunctionOfTheValueFindsItsType() throws {
    let json = #"""
      {"title": "Home", "route": "profile://42",
       "links": ["settings://privacy", "help://faq", "profile://7"]}
      """#
    let (screen, report) = try decodeWithReport(Screen.self, from: json)
    #expect(screen.title == "Home")
    #expect((screen.route as? ProfileRoute) == ProfileRoute(userID: 42))
    #expect(screen.links.count == 2)
    #expect((screen.links[0] as? SettingsRoute) == SettingsRoute(section: "privacy"))
    #expect((screen.links[1] as? ProfileRoute) == ProfileRoute(userID: 7))
    #expect(report.entries.map(\.pathDescription) == ["links[1]"])
    try expectEncoded(
      screen,
      #"{"title": "Home", "route": "profile://42", "links": ["settings://privacy", "profile://7"]}"#
    )
  }

  @Test func anUnknownNameFromAFunctionIsDataCorruptedAtTheValue() throws {
    expectError("dataCorrupted", at: ["route"]) {
      try decode(Screen.self, from: #"{"title": "x", "route": "help://faq"}"#)
    }
    do {
      _ = try decode(Screen.self, from: #"{"title": "x", "route": "help://faq"}"#)
    } catch {
      #expect(
        message(of: error)
          == "Unknown type \"help\" for Route; the registered types are \"profile\", "
          + "\"settings\".")
    }
  }

  @Test func theFunctionsOwnErrorsAreThrownAtTheValue() throws {
    expectError("typeMismatch", at: ["route"]) {
      try decode(Screen.self, from: #"{"title": "x", "route": 5}"#)
    }
  }

  @Test func aValueOfAnUnregisteredTypeStillThrowsOnEncode() throws {
    struct Elsewhere: Route, Codable {}
    var screen = Screen()
    screen.route = Elsewhere()
    expectError("invalidValue", at: ["route"]) { try encodeJSON(screen) }
  }
}
