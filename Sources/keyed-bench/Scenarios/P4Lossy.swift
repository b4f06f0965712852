import Foundation
import KeyedCodable

// P4: an array with 10% invalid elements, decoded with the lossy-array marker.

struct P4Item: Codable, Equatable {
  var id: Int
  var name: String
  var value: Double
}

/// Synthesized `Codable` cannot drop elements: it only encodes, as the encoding reference.
struct P4Synthesized: Codable, Equatable {
  var items: [P4Item]
}

struct P4Keyed: Codable, Keyedable {
  var items: [P4Item] = []

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try items <-> map["* items"]
  }
}

struct P4Handwritten: Codable {
  var items: [P4Item] = []

  enum CodingKeys: String, CodingKey {
    case items
  }

  private struct Skip: Decodable {}

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    var elements = try container.nestedUnkeyedContainer(forKey: .items)
    while !elements.isAtEnd {
      if let item = try? elements.decode(P4Item.self) {
        items.append(item)
      } else {
        _ = try? elements.decode(Skip.self)
      }
    }
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(items, forKey: .items)
  }
}

func p4Scenario(elements: Int) throws -> Scenario {
  var random = Generator(seed: 4)
  let json = (0..<elements).map { index -> String in
    switch index % 10 {
    case 3: return #"{"id":\#(index),"name":"\#(random.word())"}"#
    default:
      return #"{"id":\#(index),"name":"\#(random.word())","value":\#(random.double())}"#
    }
  }
  let payload = Data(#"{"items":[\#(json.joined(separator: ","))]}"#.utf8)
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let keyed = try decoder.decode(P4Keyed.self, from: payload)
  let handwritten = try decoder.decode(P4Handwritten.self, from: payload)
  let synthesized = P4Synthesized(items: handwritten.items)
  return Scenario(
    id: "P4", title: "lossy array: \(elements) elements, 10% invalid", payload: payload,
    objects: elements,
    implementations: [
      Implementation(
        name: "handwritten",
        decode: { try decoder.decode(P4Handwritten.self, from: payload).items.count },
        encode: { try encoder.encode(handwritten).count }),
      Implementation(
        name: "keyedcodable",
        decode: { try decoder.decode(P4Keyed.self, from: payload).items.count },
        encode: { try encoder.encode(keyed).count }),
      Implementation(
        name: "synthesized", decode: nil, encode: { try encoder.encode(synthesized).count }),
      Implementation(
        name: "keyedjson",
        decode: { try jsonDecoder.decode(P4Keyed.self, from: payload).items.count },
        encode: { try jsonEncoder.encode(keyed).count }),
      Implementation(
        name: "synthesizedjson", decode: nil,
        encode: { try jsonEncoder.encode(synthesized).count }),
    ],
    validate: {
      guard handwritten.items.count == elements - elements / 10 else {
        throw BenchmarkError(
          description: "P4: the handwritten loop kept \(handwritten.items.count) items")
      }
      try expectAllEqual(
        [("handwritten", handwritten.items), ("keyedcodable", keyed.items)], "P4 decode")
      try expectAllEqual(
        [
          (
            "handwritten",
            try decoder.decode(P4Handwritten.self, from: encoder.encode(handwritten)).items
          ),
          ("keyedcodable", try decoder.decode(P4Keyed.self, from: encoder.encode(keyed)).items),
          (
            "synthesized",
            try decoder.decode(P4Synthesized.self, from: encoder.encode(synthesized)).items
          ),
        ], "P4 encode round trip")
      try expectAllEqual(
        [
          ("handwritten", handwritten.items),
          ("keyedjson", try jsonDecoder.decode(P4Keyed.self, from: payload).items),
          (
            "keyedjson round trip",
            try jsonDecoder.decode(P4Keyed.self, from: jsonEncoder.encode(keyed)).items
          ),
          (
            "keyedjson read by JSONDecoder",
            try decoder.decode(P4Keyed.self, from: jsonEncoder.encode(keyed)).items
          ),
        ], "P4 keyedjson")
      try expectAllEqual(
        [
          ("handwritten", handwritten.items),
          (
            "synthesizedjson round trip",
            try jsonDecoder.decode(P4Synthesized.self, from: jsonEncoder.encode(synthesized)).items
          ),
        ], "P4 synthesizedjson")
    })
}
