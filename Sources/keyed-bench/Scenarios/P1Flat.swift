import Foundation
import KeyedCodable

// P1: flat objects of 20 fields. P5 reuses these models at other sizes.

struct P1Synthesized: Codable, Equatable {
  var id: Int
  var count: Int
  var rank: Int
  var score: Int
  var level: Int
  var price: Double
  var weight: Double
  var ratio: Double
  var latitude: Double
  var name: String
  var title: String
  var city: String
  var country: String
  var code: String
  var active: Bool
  var verified: Bool
  var archived: Bool
  var nickname: String?
  var note: String?
  var tags: [String]

  static func generate(_ count: Int) -> [P1Synthesized] {
    var random = Generator(seed: 1)
    return (0..<count).map { index in
      P1Synthesized(
        id: index, count: random.int(0...1000), rank: random.int(1...100),
        score: random.int(-5000...5000), level: random.int(0...9), price: random.double(),
        weight: random.double(), ratio: random.double(), latitude: random.double(),
        name: random.word(), title: random.word(), city: random.word(), country: random.word(),
        code: random.word(), active: random.bool(), verified: random.bool(),
        archived: random.bool(), nickname: index % 2 == 0 ? random.word() : nil,
        note: index % 3 == 0 ? random.word() : nil,
        tags: [random.word(), random.word(), random.word()])
    }
  }
}

struct P1Keyed: Codable, Keyedable {
  var id = 0
  var count = 0
  var rank = 0
  var score = 0
  var level = 0
  var price = 0.0
  var weight = 0.0
  var ratio = 0.0
  var latitude = 0.0
  var name = ""
  var title = ""
  var city = ""
  var country = ""
  var code = ""
  var active = false
  var verified = false
  var archived = false
  var nickname: String?
  var note: String?
  var tags: [String] = []

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
    try count <-> map["count"]
    try rank <-> map["rank"]
    try score <-> map["score"]
    try level <-> map["level"]
    try price <-> map["price"]
    try weight <-> map["weight"]
    try ratio <-> map["ratio"]
    try latitude <-> map["latitude"]
    try name <-> map["name"]
    try title <-> map["title"]
    try city <-> map["city"]
    try country <-> map["country"]
    try code <-> map["code"]
    try active <-> map["active"]
    try verified <-> map["verified"]
    try archived <-> map["archived"]
    try nickname <-> map["nickname"]
    try note <-> map["note"]
    try tags <-> map["tags"]
  }

  var normalized: P1Synthesized {
    P1Synthesized(
      id: id, count: count, rank: rank, score: score, level: level, price: price, weight: weight,
      ratio: ratio, latitude: latitude, name: name, title: title, city: city, country: country,
      code: code, active: active, verified: verified, archived: archived, nickname: nickname,
      note: note, tags: tags)
  }
}

struct P1Handwritten: Codable {
  var value: P1Synthesized

  enum CodingKeys: String, CodingKey {
    case id, count, rank, score, level, price, weight, ratio, latitude, name, title, city, country
    case code, active, verified, archived, nickname, note, tags
  }

  init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    value = P1Synthesized(
      id: try c.decode(Int.self, forKey: .id), count: try c.decode(Int.self, forKey: .count),
      rank: try c.decode(Int.self, forKey: .rank), score: try c.decode(Int.self, forKey: .score),
      level: try c.decode(Int.self, forKey: .level),
      price: try c.decode(Double.self, forKey: .price),
      weight: try c.decode(Double.self, forKey: .weight),
      ratio: try c.decode(Double.self, forKey: .ratio),
      latitude: try c.decode(Double.self, forKey: .latitude),
      name: try c.decode(String.self, forKey: .name),
      title: try c.decode(String.self, forKey: .title),
      city: try c.decode(String.self, forKey: .city),
      country: try c.decode(String.self, forKey: .country),
      code: try c.decode(String.self, forKey: .code),
      active: try c.decode(Bool.self, forKey: .active),
      verified: try c.decode(Bool.self, forKey: .verified),
      archived: try c.decode(Bool.self, forKey: .archived),
      nickname: try c.decodeIfPresent(String.self, forKey: .nickname),
      note: try c.decodeIfPresent(String.self, forKey: .note),
      tags: try c.decode([String].self, forKey: .tags))
  }

  func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(value.id, forKey: .id)
    try c.encode(value.count, forKey: .count)
    try c.encode(value.rank, forKey: .rank)
    try c.encode(value.score, forKey: .score)
    try c.encode(value.level, forKey: .level)
    try c.encode(value.price, forKey: .price)
    try c.encode(value.weight, forKey: .weight)
    try c.encode(value.ratio, forKey: .ratio)
    try c.encode(value.latitude, forKey: .latitude)
    try c.encode(value.name, forKey: .name)
    try c.encode(value.title, forKey: .title)
    try c.encode(value.city, forKey: .city)
    try c.encode(value.country, forKey: .country)
    try c.encode(value.code, forKey: .code)
    try c.encode(value.active, forKey: .active)
    try c.encode(value.verified, forKey: .verified)
    try c.encode(value.archived, forKey: .archived)
    try c.encodeIfPresent(value.nickname, forKey: .nickname)
    try c.encodeIfPresent(value.note, forKey: .note)
    try c.encode(value.tags, forKey: .tags)
  }
}

/// Decodes `payload` as `[Model]` and checks all three implementations agree.
func p1Scenario(id: String, title: String, objects: Int) throws -> Scenario {
  let payload = try Coders.encoder().encode(P1Synthesized.generate(objects))
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let synthesized = try decoder.decode([P1Synthesized].self, from: payload)
  let keyed = try decoder.decode([P1Keyed].self, from: payload)
  let handwritten = try decoder.decode([P1Handwritten].self, from: payload)
  return Scenario(
    id: id, title: title, payload: payload, objects: objects,
    implementations: [
      Implementation(
        name: "synthesized",
        decode: { try decoder.decode([P1Synthesized].self, from: payload).count },
        encode: { try encoder.encode(synthesized).count }),
      Implementation(
        name: "keyedcodable",
        decode: { try decoder.decode([P1Keyed].self, from: payload).count },
        encode: { try encoder.encode(keyed).count }),
      Implementation(
        name: "handwritten",
        decode: { try decoder.decode([P1Handwritten].self, from: payload).count },
        encode: { try encoder.encode(handwritten).count }),
      Implementation(
        name: "keyedjson",
        decode: { try jsonDecoder.decode([P1Keyed].self, from: payload).count },
        encode: { try jsonEncoder.encode(keyed).count }),
      Implementation(
        name: "synthesizedjson",
        decode: { try jsonDecoder.decode([P1Synthesized].self, from: payload).count },
        encode: { try jsonEncoder.encode(synthesized).count }),
    ],
    validate: {
      try expectAllEqual(
        [
          ("synthesized", synthesized), ("keyedcodable", keyed.map(\.normalized)),
          ("handwritten", handwritten.map(\.value)),
        ], "\(id) decode")
      try expectAllEqual(
        [
          (
            "synthesized",
            try decoder.decode([P1Synthesized].self, from: encoder.encode(synthesized))
          ),
          (
            "keyedcodable",
            try decoder.decode([P1Keyed].self, from: encoder.encode(keyed)).map(\.normalized)
          ),
          (
            "handwritten",
            try decoder.decode([P1Handwritten].self, from: encoder.encode(handwritten)).map(\.value)
          ),
        ], "\(id) encode round trip")
      try expectAllEqual(
        [
          ("synthesized", synthesized),
          ("keyedjson", try jsonDecoder.decode([P1Keyed].self, from: payload).map(\.normalized)),
          (
            "keyedjson round trip",
            try jsonDecoder.decode([P1Keyed].self, from: jsonEncoder.encode(keyed)).map(
              \.normalized)
          ),
          (
            "keyedjson read by JSONDecoder",
            try decoder.decode([P1Keyed].self, from: jsonEncoder.encode(keyed)).map(\.normalized)
          ),
        ], "\(id) keyedjson")
      try expectAllEqual(
        [
          ("synthesized", synthesized),
          ("synthesizedjson", try jsonDecoder.decode([P1Synthesized].self, from: payload)),
          (
            "synthesizedjson round trip",
            try jsonDecoder.decode([P1Synthesized].self, from: jsonEncoder.encode(synthesized))
          ),
        ], "\(id) synthesizedjson")
    })
}
