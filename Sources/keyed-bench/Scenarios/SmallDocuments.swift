import Foundation
import KeyedCodable

// small: many small documents (one object of five members each), each decoded and encoded by a
// call of its own with one coder, as a server handles request and response bodies. What it
// measures is the fixed cost of a call.

struct ProfileSynthesized: Codable, Equatable {
  var id: Int
  var name: String
  var active: Bool
  var score: Double
  var tag: String?
}

struct ProfileKeyed: Codable, Keyedable, Equatable {
  var id = 0
  var name = ""
  var active = false
  var score = 0.0
  var tag: String?

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
    try name <-> map["name"]
    try active <-> map["active"]
    try score <-> map["score"]
    try tag <-> map["tag"]
  }
}

func smallDocumentsScenario(documents count: Int) throws -> Scenario {
  var random = Generator(seed: 17)
  let documents = (0..<count).map { index -> Data in
    let tag = random.int(0...2) == 0 ? "" : #","tag":"\#(random.word())""#
    return Data(
      (#"{"id":\#(index),"name":"\#(random.word())","active":\#(random.bool()),"#
        + #""score":\#(random.int(0...9999)).5\#(tag)}"#).utf8)
  }
  let payload = documents.reduce(into: Data()) { $0.append($1) }
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let synthesized = try documents.map { try decoder.decode(ProfileSynthesized.self, from: $0) }
  let keyed = try documents.map { try decoder.decode(ProfileKeyed.self, from: $0) }

  /// Decodes every document with `decode`; returns the sum of the ids.
  func decodeAll<Model>(_ decode: (Data) throws -> Model, id: (Model) -> Int) rethrows -> Int {
    try documents.reduce(0) { $0 &+ id(try decode($1)) }
  }
  /// Encodes every value with `encode`; returns the bytes written.
  func encodeAll<Model>(_ values: [Model], _ encode: (Model) throws -> Data) rethrows -> Int {
    try values.reduce(0) { $0 &+ (try encode($1)).count }
  }

  return Scenario(
    id: "small", title: "small documents: \(count) calls", payload: payload, objects: count,
    implementations: [
      Implementation(
        name: "synthesized",
        decode: {
          try decodeAll({ try decoder.decode(ProfileSynthesized.self, from: $0) }, id: \.id)
        },
        encode: { try encodeAll(synthesized) { try encoder.encode($0) } }),
      Implementation(
        name: "keyedcodable",
        decode: { try decodeAll({ try decoder.decode(ProfileKeyed.self, from: $0) }, id: \.id) },
        encode: { try encodeAll(keyed) { try encoder.encode($0) } }),
      Implementation(
        name: "keyedjson",
        decode: {
          try decodeAll({ try jsonDecoder.decode(ProfileKeyed.self, from: $0) }, id: \.id)
        },
        encode: { try encodeAll(keyed) { try jsonEncoder.encode($0) } }),
      Implementation(
        name: "synthesizedjson",
        decode: {
          try decodeAll({ try jsonDecoder.decode(ProfileSynthesized.self, from: $0) }, id: \.id)
        },
        encode: { try encodeAll(synthesized) { try jsonEncoder.encode($0) } }),
    ],
    validate: {
      let decoded: [(String, [ProfileSynthesized])] = [
        ("synthesized", synthesized),
        (
          "keyedcodable",
          keyed.map {
            ProfileSynthesized(
              id: $0.id, name: $0.name, active: $0.active, score: $0.score, tag: $0.tag)
          }
        ),
        (
          "keyedjson",
          try documents.map { try jsonDecoder.decode(ProfileKeyed.self, from: $0) }.map {
            ProfileSynthesized(
              id: $0.id, name: $0.name, active: $0.active, score: $0.score, tag: $0.tag)
          }
        ),
        (
          "synthesizedjson",
          try documents.map { try jsonDecoder.decode(ProfileSynthesized.self, from: $0) }
        ),
      ]
      try expectAllEqual(decoded, "small decode")
      let encoded: [(String, [Data])] = [
        ("synthesized", try synthesized.map { try encoder.encode($0) }),
        ("keyedcodable", try keyed.map { try encoder.encode($0) }),
        ("keyedjson", try keyed.map { try jsonEncoder.encode($0) }),
        ("synthesizedjson", try synthesized.map { try jsonEncoder.encode($0) }),
      ]
      for (name, datas) in encoded {
        let back = try datas.map { try decoder.decode(ProfileSynthesized.self, from: $0) }
        guard back == synthesized else {
          throw BenchmarkError(description: "small: \(name) does not encode back equal")
        }
      }
    })
}
