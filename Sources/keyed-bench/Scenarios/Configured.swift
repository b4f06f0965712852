import Foundation
import KeyedCodable

// config: one model, two screens (the "Context and configuration" story 1 shape). A page of
// users decoded for a search list, whose configuration shortens biographies and keeps the first
// interests, against a hand-written `init(from:configuration:)` on the same data.

struct ListConfiguration: Sendable {
  var biographyMaxLength: Int
  var maxInterests: Int
}

struct ConfigGame: Codable, Equatable {
  var videogameId: Int
  var title: String
  var hoursPlayed: Int
}

/// Shortens a user's text the way both implementations do.
func shortened(_ text: String, _ limit: Int) -> String {
  text.count > limit ? String(text.prefix(limit)) + "…" : text
}

struct ConfigUserKeyed: Codable, Keyedable, Equatable {
  var userId = 0
  var username = ""
  var biography = ""
  var interests: [String] = []
  var videogames: [ConfigGame] = []

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try userId <-> map["userId"]
    try username <-> map["username"]
    try biography <-> map["biography"]
    try interests <-> map["interests"]
    try videogames <-> map["videogames"]
    if map.type.isDecoding, let configuration = map.configuration(ListConfiguration.self) {
      biography = shortened(biography, configuration.biographyMaxLength)
      interests = Array(interests.prefix(configuration.maxInterests))
    }
  }
}

struct ConfigPageKeyed: Codable, Keyedable, Equatable {
  var users: [ConfigUserKeyed] = []

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try users <-> map["users"]
  }
}

/// The hand-written reference, as Foundation's `CodableWithConfiguration` documentation writes it.
struct ConfigUserHandwritten: DecodableWithConfiguration, Equatable {
  var userId: Int
  var username: String
  var biography: String
  var interests: [String]
  var videogames: [ConfigGame]

  enum CodingKeys: String, CodingKey {
    case userId, username, biography, interests, videogames
  }

  init(from decoder: Decoder, configuration: ListConfiguration) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    userId = try container.decode(Int.self, forKey: .userId)
    username = try container.decode(String.self, forKey: .username)
    biography = shortened(
      try container.decode(String.self, forKey: .biography), configuration.biographyMaxLength)
    interests = Array(
      try container.decode([String].self, forKey: .interests).prefix(configuration.maxInterests))
    videogames = try container.decode([ConfigGame].self, forKey: .videogames)
  }
}

struct ConfigPageHandwritten: DecodableWithConfiguration, Equatable {
  var users: [ConfigUserHandwritten] = []

  enum CodingKeys: String, CodingKey {
    case users
  }

  init(from decoder: Decoder, configuration: ListConfiguration) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    var elements = try container.nestedUnkeyedContainer(forKey: .users)
    while !elements.isAtEnd {
      users.append(try elements.decode(ConfigUserHandwritten.self, configuration: configuration))
    }
  }
}

func configuredScenario(users: Int) throws -> Scenario {
  var random = Generator(seed: 9)
  let json = (0..<users).map { index -> String in
    let interests = (0..<random.int(1...6)).map { _ in "\"\(random.word())\"" }
    let games = (0..<random.int(0...3)).map { game in
      #"{"videogameId":\#(game),"title":"\#(random.word()) \#(random.word())","hoursPlayed":\#(random.int(0...999))}"#
    }
    let biography = (0..<random.int(3...12)).map { _ in random.word() }.joined(separator: " ")
    return
      #"{"userId":\#(index),"username":"\#(random.word())","biography":"\#(biography)","interests":[\#(interests.joined(separator: ","))],"videogames":[\#(games.joined(separator: ","))]}"#
  }
  let payload = Data(#"{"users":[\#(json.joined(separator: ","))]}"#.utf8)
  let configuration = ListConfiguration(biographyMaxLength: 20, maxInterests: 2)
  let context = MappingContext.configuration(configuration)
  let decoder = Coders.decoder()
  let jsonDecoder = Coders.jsonDecoder()
  return Scenario(
    id: "config",
    title: "configured decode: \(users) users, biography and interests limited", payload: payload,
    objects: users,
    implementations: [
      Implementation(
        name: "handwritten",
        decode: {
          try decoder.decode(
            ConfigPageHandwritten.self, from: payload, configuration: configuration
          ).users.count
        }, encode: nil),
      Implementation(
        name: "keyedcodable",
        decode: {
          try decoder.decode(ConfigPageKeyed.self, from: payload, with: context).users.count
        },
        encode: nil),
      Implementation(
        name: "keyedjson",
        decode: {
          try jsonDecoder.decode(ConfigPageKeyed.self, from: payload, with: context).users.count
        }, encode: nil),
    ],
    validate: {
      let handwritten = try decoder.decode(
        ConfigPageHandwritten.self, from: payload, configuration: configuration)
      for keyed in [
        try decoder.decode(ConfigPageKeyed.self, from: payload, with: context),
        try jsonDecoder.decode(ConfigPageKeyed.self, from: payload, with: context),
      ] {
        let same = zip(keyed.users, handwritten.users).allSatisfy {
          $0.userId == $1.userId && $0.username == $1.username && $0.biography == $1.biography
            && $0.interests == $1.interests && $0.videogames == $1.videogames
        }
        guard same, keyed.users.count == handwritten.users.count,
          keyed.users.contains(where: { $0.biography.hasSuffix("…") })
        else {
          throw BenchmarkError(description: "config: keyed users differ from hand-written ones")
        }
      }
    })
}
