import Foundation
import KeyedCodable

// P3: one object with thousands of keys, read by enumerating its members.

struct P3Value: Codable, Equatable {
  var value: Int
  var label: String
}

struct P3Keyed: Codable, Keyedable {
  var entries: [String: P3Value] = [:]

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    if case .decoding(let keys) = map.type {
      let members = keys.all
      entries.reserveCapacity(members.count)
      for key in members {
        var entry: P3Value?
        try entry <<- map[key]
        entries[key.stringValue] = entry
      }
    } else {
      for (name, entry) in entries {
        try entry ->> map[Key(stringValue: name)]
      }
    }
  }
}

struct P3Handwritten: Codable {
  var entries: [String: P3Value] = [:]

  struct Name: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: Name.self)
    let keys = container.allKeys
    entries.reserveCapacity(keys.count)
    for key in keys {
      entries[key.stringValue] = try container.decode(P3Value.self, forKey: key)
    }
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: Name.self)
    for (name, entry) in entries {
      try container.encode(entry, forKey: Name(stringValue: name))
    }
  }
}

func p3Scenario(keys: Int) throws -> Scenario {
  var random = Generator(seed: 3)
  var object: [String: P3Value] = [:]
  for index in 0..<keys {
    object["key\(index)"] = P3Value(value: random.int(0...1_000_000), label: random.word())
  }
  let payload = try Coders.encoder().encode(object)
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let synthesized = try decoder.decode([String: P3Value].self, from: payload)
  let keyed = try decoder.decode(P3Keyed.self, from: payload)
  let handwritten = try decoder.decode(P3Handwritten.self, from: payload)
  return Scenario(
    id: "P3", title: "all keys: one object with \(keys) members", payload: payload, objects: keys,
    implementations: [
      Implementation(
        name: "synthesized",
        decode: { try decoder.decode([String: P3Value].self, from: payload).count },
        encode: { try encoder.encode(synthesized).count }),
      Implementation(
        name: "keyedcodable",
        decode: { try decoder.decode(P3Keyed.self, from: payload).entries.count },
        encode: { try encoder.encode(keyed).count }),
      Implementation(
        name: "handwritten",
        decode: { try decoder.decode(P3Handwritten.self, from: payload).entries.count },
        encode: { try encoder.encode(handwritten).count }),
      Implementation(
        name: "keyedjson",
        decode: { try jsonDecoder.decode(P3Keyed.self, from: payload).entries.count },
        encode: { try jsonEncoder.encode(keyed).count }),
      Implementation(
        name: "synthesizedjson",
        decode: { try jsonDecoder.decode([String: P3Value].self, from: payload).count },
        encode: { try jsonEncoder.encode(synthesized).count }),
    ],
    validate: {
      try expectAllEqual(
        [
          ("synthesized", synthesized), ("keyedcodable", keyed.entries),
          ("handwritten", handwritten.entries),
        ],
        "P3 decode")
      try expectAllEqual(
        [
          (
            "synthesized",
            try decoder.decode([String: P3Value].self, from: encoder.encode(synthesized))
          ),
          ("keyedcodable", try decoder.decode(P3Keyed.self, from: encoder.encode(keyed)).entries),
          (
            "handwritten",
            try decoder.decode(P3Handwritten.self, from: encoder.encode(handwritten)).entries
          ),
        ], "P3 encode round trip")
      try expectAllEqual(
        [
          ("synthesized", synthesized),
          ("keyedjson", try jsonDecoder.decode(P3Keyed.self, from: payload).entries),
          (
            "keyedjson round trip",
            try jsonDecoder.decode(P3Keyed.self, from: jsonEncoder.encode(keyed)).entries
          ),
          (
            "keyedjson read by JSONDecoder",
            try decoder.decode(P3Keyed.self, from: jsonEncoder.encode(keyed)).entries
          ),
        ], "P3 keyedjson")
      try expectAllEqual(
        [
          ("synthesized", synthesized),
          ("synthesizedjson", try jsonDecoder.decode([String: P3Value].self, from: payload)),
          (
            "synthesizedjson round trip",
            try jsonDecoder.decode([String: P3Value].self, from: jsonEncoder.encode(synthesized))
          ),
        ], "P3 synthesizedjson")
    })
}
