import Foundation
import KeyedCodable

// P2: ten properties at key paths of depth 2 to 4.

/// The ten values, flattened, for comparing implementations.
struct P2Values: Equatable {
  var id: Int
  var created: String
  var name: String
  var age: Int
  var email: String
  var city: String
  var lat: Double
  var lng: Double
  var views: Int
  var likes: Int
}

struct P2Synthesized: Codable, Equatable {
  struct Meta: Codable, Equatable {
    var id: Int
    var created: String
  }
  struct Profile: Codable, Equatable {
    var age: Int
    var email: String
  }
  struct Geo: Codable, Equatable {
    var lat: Double
    var lng: Double
  }
  struct Address: Codable, Equatable {
    var city: String
    var geo: Geo
  }
  struct User: Codable, Equatable {
    var name: String
    var profile: Profile
    var address: Address
  }
  struct Counts: Codable, Equatable {
    var views: Int
    var likes: Int
  }
  struct Stats: Codable, Equatable {
    var counts: Counts
  }

  var meta: Meta
  var user: User
  var stats: Stats

  init(_ v: P2Values) {
    meta = Meta(id: v.id, created: v.created)
    user = User(
      name: v.name, profile: Profile(age: v.age, email: v.email),
      address: Address(city: v.city, geo: Geo(lat: v.lat, lng: v.lng)))
    stats = Stats(counts: Counts(views: v.views, likes: v.likes))
  }

  var values: P2Values {
    P2Values(
      id: meta.id, created: meta.created, name: user.name, age: user.profile.age,
      email: user.profile.email, city: user.address.city, lat: user.address.geo.lat,
      lng: user.address.geo.lng, views: stats.counts.views, likes: stats.counts.likes)
  }

  static func generate(_ count: Int) -> [P2Synthesized] {
    var random = Generator(seed: 2)
    return (0..<count).map { index in
      P2Synthesized(
        P2Values(
          id: index, created: random.word(), name: random.word(), age: random.int(1...99),
          email: random.word() + "@example.com", city: random.word(), lat: random.double(),
          lng: random.double(), views: random.int(0...100_000), likes: random.int(0...1000)))
    }
  }
}

struct P2Keyed: Codable, Keyedable {
  var id = 0
  var created = ""
  var name = ""
  var age = 0
  var email = ""
  var city = ""
  var lat = 0.0
  var lng = 0.0
  var views = 0
  var likes = 0

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try id <-> map["meta.id"]
    try created <-> map["meta.created"]
    try name <-> map["user.name"]
    try age <-> map["user.profile.age"]
    try email <-> map["user.profile.email"]
    try city <-> map["user.address.city"]
    try lat <-> map["user.address.geo.lat"]
    try lng <-> map["user.address.geo.lng"]
    try views <-> map["stats.counts.views"]
    try likes <-> map["stats.counts.likes"]
  }

  var values: P2Values {
    P2Values(
      id: id, created: created, name: name, age: age, email: email, city: city, lat: lat, lng: lng,
      views: views, likes: likes)
  }
}

struct P2Handwritten: Codable {
  var values: P2Values

  enum Keys: String, CodingKey {
    case meta, user, stats, id, created, name, profile, age, email, address, city, geo, lat, lng
    case counts, views, likes
  }

  init(from decoder: Decoder) throws {
    let root = try decoder.container(keyedBy: Keys.self)
    let meta = try root.nestedContainer(keyedBy: Keys.self, forKey: .meta)
    let user = try root.nestedContainer(keyedBy: Keys.self, forKey: .user)
    let profile = try user.nestedContainer(keyedBy: Keys.self, forKey: .profile)
    let address = try user.nestedContainer(keyedBy: Keys.self, forKey: .address)
    let geo = try address.nestedContainer(keyedBy: Keys.self, forKey: .geo)
    let stats = try root.nestedContainer(keyedBy: Keys.self, forKey: .stats)
    let counts = try stats.nestedContainer(keyedBy: Keys.self, forKey: .counts)
    values = P2Values(
      id: try meta.decode(Int.self, forKey: .id),
      created: try meta.decode(String.self, forKey: .created),
      name: try user.decode(String.self, forKey: .name),
      age: try profile.decode(Int.self, forKey: .age),
      email: try profile.decode(String.self, forKey: .email),
      city: try address.decode(String.self, forKey: .city),
      lat: try geo.decode(Double.self, forKey: .lat),
      lng: try geo.decode(Double.self, forKey: .lng),
      views: try counts.decode(Int.self, forKey: .views),
      likes: try counts.decode(Int.self, forKey: .likes))
  }

  func encode(to encoder: Encoder) throws {
    var root = encoder.container(keyedBy: Keys.self)
    var meta = root.nestedContainer(keyedBy: Keys.self, forKey: .meta)
    try meta.encode(values.id, forKey: .id)
    try meta.encode(values.created, forKey: .created)
    var user = root.nestedContainer(keyedBy: Keys.self, forKey: .user)
    try user.encode(values.name, forKey: .name)
    var profile = user.nestedContainer(keyedBy: Keys.self, forKey: .profile)
    try profile.encode(values.age, forKey: .age)
    try profile.encode(values.email, forKey: .email)
    var address = user.nestedContainer(keyedBy: Keys.self, forKey: .address)
    try address.encode(values.city, forKey: .city)
    var geo = address.nestedContainer(keyedBy: Keys.self, forKey: .geo)
    try geo.encode(values.lat, forKey: .lat)
    try geo.encode(values.lng, forKey: .lng)
    var stats = root.nestedContainer(keyedBy: Keys.self, forKey: .stats)
    var counts = stats.nestedContainer(keyedBy: Keys.self, forKey: .counts)
    try counts.encode(values.views, forKey: .views)
    try counts.encode(values.likes, forKey: .likes)
  }
}

func p2Scenario(objects: Int) throws -> Scenario {
  let payload = try Coders.encoder().encode(P2Synthesized.generate(objects))
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let synthesized = try decoder.decode([P2Synthesized].self, from: payload)
  let keyed = try decoder.decode([P2Keyed].self, from: payload)
  let handwritten = try decoder.decode([P2Handwritten].self, from: payload)
  return Scenario(
    id: "P2", title: "nested: \(objects) objects, 10 values at depth 2-4", payload: payload,
    objects: objects,
    implementations: [
      Implementation(
        name: "synthesized",
        decode: { try decoder.decode([P2Synthesized].self, from: payload).count },
        encode: { try encoder.encode(synthesized).count }),
      Implementation(
        name: "keyedcodable",
        decode: { try decoder.decode([P2Keyed].self, from: payload).count },
        encode: { try encoder.encode(keyed).count }),
      Implementation(
        name: "handwritten",
        decode: { try decoder.decode([P2Handwritten].self, from: payload).count },
        encode: { try encoder.encode(handwritten).count }),
      Implementation(
        name: "keyedjson",
        decode: { try jsonDecoder.decode([P2Keyed].self, from: payload).count },
        encode: { try jsonEncoder.encode(keyed).count }),
      Implementation(
        name: "synthesizedjson",
        decode: { try jsonDecoder.decode([P2Synthesized].self, from: payload).count },
        encode: { try jsonEncoder.encode(synthesized).count }),
    ],
    validate: {
      try expectAllEqual(
        [
          ("synthesized", synthesized.map(\.values)), ("keyedcodable", keyed.map(\.values)),
          ("handwritten", handwritten.map(\.values)),
        ], "P2 decode")
      try expectAllEqual(
        [
          (
            "synthesized",
            try decoder.decode([P2Synthesized].self, from: encoder.encode(synthesized)).map(
              \.values)
          ),
          (
            "keyedcodable",
            try decoder.decode([P2Keyed].self, from: encoder.encode(keyed)).map(\.values)
          ),
          (
            "handwritten",
            try decoder.decode([P2Handwritten].self, from: encoder.encode(handwritten)).map(
              \.values)
          ),
        ], "P2 encode round trip")
      try expectAllEqual(
        [
          ("synthesized", synthesized.map(\.values)),
          ("keyedjson", try jsonDecoder.decode([P2Keyed].self, from: payload).map(\.values)),
          (
            "keyedjson round trip",
            try jsonDecoder.decode([P2Keyed].self, from: jsonEncoder.encode(keyed)).map(\.values)
          ),
          (
            "keyedjson read by JSONDecoder",
            try decoder.decode([P2Keyed].self, from: jsonEncoder.encode(keyed)).map(\.values)
          ),
        ], "P2 keyedjson")
      try expectAllEqual(
        [
          ("synthesized", synthesized.map(\.values)),
          (
            "synthesizedjson",
            try jsonDecoder.decode([P2Synthesized].self, from: payload).map(\.values)
          ),
          (
            "synthesizedjson round trip",
            try jsonDecoder.decode([P2Synthesized].self, from: jsonEncoder.encode(synthesized)).map(
              \.values)
          ),
        ], "P2 synthesizedjson")
    })
}
