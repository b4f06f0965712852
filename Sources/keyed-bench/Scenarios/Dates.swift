import Foundation
import KeyedCodable

// dates: objects holding an ISO 8601 date, decoded and encoded with Foundation's `.iso8601`
// strategy (synthesized Codable) and with KeyedCodable's per-mapping `.iso8601` transform.

struct DatedSynthesized: Codable, Equatable {
  var id: Int
  var at: Date
}

struct DatedKeyed: Codable, Keyedable, Equatable {
  var id = 0
  var at = Date(timeIntervalSince1970: 0)

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
    try at <-> map["at"].using(.iso8601)
  }
}

func datesScenario(objects: Int) throws -> Scenario {
  var random = Generator(seed: 8601)
  let formatter = ISO8601DateFormatter()
  let json = (0..<objects).map { index -> String in
    let date = Date(timeIntervalSince1970: Double(random.int(0...2_000_000_000)))
    return #"{"id":\#(index),"at":"\#(formatter.string(from: date))"}"#
  }
  let payload = Data("[\(json.joined(separator: ","))]".utf8)
  let isoDecoder = Coders.decoder()
  isoDecoder.dateDecodingStrategy = .iso8601
  let isoEncoder = Coders.encoder()
  isoEncoder.dateEncodingStrategy = .iso8601
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let isoJSONDecoder = Coders.jsonDecoder()
  isoJSONDecoder.dateDecodingStrategy = .iso8601
  let isoJSONEncoder = Coders.jsonEncoder()
  isoJSONEncoder.dateEncodingStrategy = .iso8601
  let synthesized = try isoDecoder.decode([DatedSynthesized].self, from: payload)
  let keyed = try decoder.decode([DatedKeyed].self, from: payload)
  return Scenario(
    id: "dates", title: "ISO 8601 dates: \(objects) objects", payload: payload, objects: objects,
    implementations: [
      Implementation(
        name: "synthesized",
        decode: { try isoDecoder.decode([DatedSynthesized].self, from: payload).count },
        encode: { try isoEncoder.encode(synthesized).count }),
      Implementation(
        name: "keyedcodable",
        decode: { try decoder.decode([DatedKeyed].self, from: payload).count },
        encode: { try encoder.encode(keyed).count }),
      Implementation(
        name: "keyedjson",
        decode: { try jsonDecoder.decode([DatedKeyed].self, from: payload).count },
        encode: { try jsonEncoder.encode(keyed).count }),
      Implementation(
        name: "synthesizedjson",
        decode: { try isoJSONDecoder.decode([DatedSynthesized].self, from: payload).count },
        encode: { try isoJSONEncoder.encode(synthesized).count }),
    ],
    validate: {
      let reference = synthesized.map { [Double($0.id), $0.at.timeIntervalSince1970] }
      let decoded: [(String, [[Double]])] = [
        ("synthesized", reference),
        ("keyedcodable", keyed.map { [Double($0.id), $0.at.timeIntervalSince1970] }),
        (
          "keyedjson",
          try jsonDecoder.decode([DatedKeyed].self, from: payload).map {
            [Double($0.id), $0.at.timeIntervalSince1970]
          }
        ),
        (
          "synthesizedjson",
          try isoJSONDecoder.decode([DatedSynthesized].self, from: payload).map {
            [Double($0.id), $0.at.timeIntervalSince1970]
          }
        ),
      ]
      try expectAllEqual(decoded, "dates decode")
      let encoded = [
        ("synthesized", try isoEncoder.encode(synthesized)),
        ("keyedcodable", try encoder.encode(keyed)),
        ("keyedjson", try jsonEncoder.encode(keyed)),
        ("synthesizedjson", try isoJSONEncoder.encode(synthesized)),
      ]
      for (name, data) in encoded {
        let back = try isoDecoder.decode([DatedSynthesized].self, from: data)
        guard back == synthesized else {
          throw BenchmarkError(description: "dates: \(name) does not encode back equal")
        }
      }
    })
}
