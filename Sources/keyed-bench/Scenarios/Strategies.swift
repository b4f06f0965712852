import Foundation
import KeyedCodable

// decimals: objects holding a `Decimal` amount, which both coders read from the number's digits
// rather than through `Double`. uuids: objects of two `UUID`s. snakecase: objects of camel-case
// properties, decoded with `.convertFromSnakeCase` and encoded with `.convertToSnakeCase`.
// optionals: objects of optional members, arrays of `Bool` and arrays of optional numbers.
// payloads: objects holding enums with associated values, which the compiler's `init(from:)`
// reads through `allKeys`. maps: objects holding `[String: Int]`, `[String: String]` and
// `[Int: String]` members. sortedkeys: objects of eight members, one of them optional, encoded
// with `.sortedKeys`. base64: objects holding two `Data` values, read and written as Base64.
// Synthesized models only: these measure how the coders treat a standard type and a key
// strategy.

struct PricedSynthesized: Codable, Equatable {
  var id: Int
  var amount: Decimal
  var fee: Decimal
}

struct LinkSynthesized: Codable, Equatable {
  var id: UUID
  var target: UUID
}

struct AccountSynthesized: Codable, Equatable {
  var accountId: Int
  var firstName: String
  var lastName: String
  var isActive: Bool
  var signedUpAt: String
}

struct SensorSynthesized: Codable, Equatable {
  var id: Int
  var label: String?
  var flags: [Bool]
  var readings: [Int?]
  var scale: Double?
}

func optionalsScenario(objects: Int) throws -> Scenario {
  var random = Generator(seed: 13)
  let json = (0..<objects).map { index -> String in
    let flags = (0..<8).map { _ in "\(random.bool())" }.joined(separator: ",")
    let readings = (0..<8).map { _ in
      random.int(0...2) == 0 ? "null" : "\(random.int(-1000...1000))"
    }.joined(separator: ",")
    let label = random.bool() ? #","label":"\#(random.word())""# : ""
    let scale = random.int(0...2) == 0 ? "" : #","scale":\#(random.int(1...99)).5"#
    return #"{"id":\#(index)\#(label),"flags":[\#(flags)],"readings":[\#(readings)]\#(scale)}"#
  }
  let payload = Data("[\(json.joined(separator: ","))]".utf8)
  return try strategyScenario(
    id: "optionals", title: "optionals and Bool arrays: \(objects) objects", payload: payload,
    objects: objects, of: SensorSynthesized.self, configure: { _, _ in })
}

enum ShapeSynthesized: Codable, Equatable {
  case circle(radius: Double)
  case rectangle(width: Double, height: Double)
  case polygon(sides: Int, label: String)
  case point
}

enum EventKindSynthesized: Codable, Equatable {
  case created(by: String)
  case moved(Double, Double)
  case deleted
}

struct DrawnSynthesized: Codable, Equatable {
  var id: Int
  var shape: ShapeSynthesized
  var event: EventKindSynthesized
}

func payloadsScenario(objects: Int) throws -> Scenario {
  var random = Generator(seed: 14)
  let json = (0..<objects).map { index -> String in
    let shape =
      switch random.int(0...3) {
      case 0: #"{"circle":{"radius":\#(random.int(1...99)).5}}"#
      case 1: #"{"rectangle":{"width":\#(random.int(1...99)),"height":\#(random.int(1...99))}}"#
      case 2: #"{"polygon":{"sides":\#(random.int(3...12)),"label":"\#(random.word())"}}"#
      default: #"{"point":{}}"#
      }
    let event =
      switch random.int(0...2) {
      case 0: #"{"created":{"by":"\#(random.word())"}}"#
      case 1: #"{"moved":{"_0":\#(random.int(-99...99)).25,"_1":\#(random.int(-99...99))}}"#
      default: #"{"deleted":{}}"#
      }
    return #"{"id":\#(index),"shape":\#(shape),"event":\#(event)}"#
  }
  let payload = Data("[\(json.joined(separator: ","))]".utf8)
  return try strategyScenario(
    id: "payloads", title: "enums with associated values: \(objects) objects",
    payload: payload, objects: objects, of: DrawnSynthesized.self, configure: { _, _ in })
}

struct TalliesSynthesized: Codable, Equatable {
  var id: Int
  var counts: [String: Int]
  var labels: [String: String]
  var names: [Int: String]
}

func mapsScenario(objects: Int) throws -> Scenario {
  var random = Generator(seed: 15)
  func members(_ value: () -> String) -> String {
    (0..<random.int(1...4)).map { number in #""\#(random.word())\#(number)":\#(value())"# }
      .joined(separator: ",")
  }
  let json = (0..<objects).map { index -> String in
    let counts = members { "\(random.int(0...9999))" }
    let labels = members { #""\#(random.word())""# }
    let names = (0..<random.int(1...4)).map { number in
      #""\#(number * 1000 + random.int(0...999))":"\#(random.word())""#
    }.joined(separator: ",")
    return #"{"id":\#(index),"counts":{\#(counts)},"labels":{\#(labels)},"names":{\#(names)}}"#
  }
  let payload = Data("[\(json.joined(separator: ","))]".utf8)
  return try strategyScenario(
    id: "maps", title: "dictionaries: \(objects) objects", payload: payload, objects: objects,
    of: TalliesSynthesized.self, configure: { _, _ in })
}

struct ListingSynthesized: Codable, Equatable {
  var title: String
  var id: Int
  var price: Double
  var zone: String
  var available: Bool
  var note: String?
  var tags: [String]
  var rating: Int
}

func sortedKeysScenario(objects: Int) throws -> Scenario {
  var random = Generator(seed: 14)
  let json = (0..<objects).map { index -> String in
    let note = random.int(0...2) == 0 ? #","note":"\#(random.word())""# : ""
    return #"{"title":"\#(random.word())","id":\#(index),"price":\#(random.int(1...9999)).25,"#
      + #""zone":"\#(random.word())","available":\#(random.bool())\#(note),"#
      + #""tags":["\#(random.word())","\#(random.word())"],"rating":\#(random.int(1...5))}"#
  }
  let payload = Data("[\(json.joined(separator: ","))]".utf8)
  return try strategyScenario(
    id: "sortedkeys", title: "sorted keys: \(objects) objects", payload: payload,
    objects: objects, of: ListingSynthesized.self,
    configure: { _, encoder in
      switch encoder {
      case let encoder as JSONEncoder: encoder.outputFormatting = [.sortedKeys]
      case let encoder as KeyedJSONEncoder: encoder.outputFormatting = [.sortedKeys]
      default: break
      }
    })
}

struct BlobSynthesized: Codable, Equatable {
  var id: Int
  var thumbnail: Data
  var digest: Data
}

func base64Scenario(objects: Int) throws -> Scenario {
  var random = Generator(seed: 15)
  let json = (0..<objects).map { index -> String in
    let thumbnail = Data((0..<48).map { _ in UInt8(random.int(0...255)) }).base64EncodedString()
    let digest = Data((0..<4).map { _ in UInt8(random.int(0...255)) }).base64EncodedString()
    return #"{"id":\#(index),"thumbnail":"\#(thumbnail)","digest":"\#(digest)"}"#
  }
  let payload = Data("[\(json.joined(separator: ","))]".utf8)
  return try strategyScenario(
    id: "base64", title: "Base64 data: \(objects) objects", payload: payload, objects: objects,
    of: BlobSynthesized.self, configure: { _, _ in })
}

struct StampedSynthesized: Codable, Equatable {
  var id: Int
  var created: Date
  var updated: Date
}

func formattedDatesScenario(objects: Int) throws -> Scenario {
  var random = Generator(seed: 16)
  // The formatter most apps set up: the POSIX locale, UTC, milliseconds and an offset.
  let formatter = DateFormatter()
  formatter.locale = Locale(identifier: "en_US_POSIX")
  formatter.timeZone = TimeZone(secondsFromGMT: 0)
  formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSZ"
  let json = (0..<objects).map { index -> String in
    let created = Date(timeIntervalSince1970: Double(random.int(0...2_000_000_000_000)) / 1000)
    let updated = created.addingTimeInterval(Double(random.int(0...99_999_999)) / 1000)
    return #"{"id":\#(index),"created":"\#(formatter.string(from: created))","#
      + #""updated":"\#(formatter.string(from: updated))"}"#
  }
  let payload = Data("[\(json.joined(separator: ","))]".utf8)
  return try strategyScenario(
    id: "formatteddates", title: "DateFormatter dates: \(objects) objects", payload: payload,
    objects: objects, of: StampedSynthesized.self,
    configure: { decoder, encoder in
      switch (decoder, encoder) {
      case (let decoder as JSONDecoder, let encoder as JSONEncoder):
        decoder.dateDecodingStrategy = .formatted(formatter)
        encoder.dateEncodingStrategy = .formatted(formatter)
      case (let decoder as KeyedJSONDecoder, let encoder as KeyedJSONEncoder):
        decoder.dateDecodingStrategy = .formatted(formatter)
        encoder.dateEncodingStrategy = .formatted(formatter)
      default:
        break
      }
    })
}

func decimalsScenario(objects: Int) throws -> Scenario {
  var random = Generator(seed: 10)
  let json = (0..<objects).map { index -> String in
    let cents = random.int(0...10_000_000)
    return
      #"{"id":\#(index),"amount":\#(cents / 100).\#(cents % 100),"fee":\#(random.int(0...99))}"#
  }
  let payload = Data("[\(json.joined(separator: ","))]".utf8)
  return try strategyScenario(
    id: "decimals", title: "Decimal amounts: \(objects) objects", payload: payload,
    objects: objects, of: PricedSynthesized.self, configure: { _, _ in })
}

func uuidsScenario(objects: Int) throws -> Scenario {
  var random = Generator(seed: 12)
  func uuid() -> String {
    let digits = (0..<32).map { _ in String(random.int(0...15), radix: 16, uppercase: true) }
    let text = digits.joined()
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
      String(text.dropFirst(range.lowerBound).prefix(range.count))
    }.joined(separator: "-")
  }
  let json = (0..<objects).map { _ in #"{"id":"\#(uuid())","target":"\#(uuid())"}"# }
  let payload = Data("[\(json.joined(separator: ","))]".utf8)
  return try strategyScenario(
    id: "uuids", title: "UUIDs: \(objects) objects", payload: payload, objects: objects,
    of: LinkSynthesized.self, configure: { _, _ in })
}

func snakeCaseScenario(objects: Int) throws -> Scenario {
  var random = Generator(seed: 11)
  let json = (0..<objects).map { index -> String in
    #"{"account_id":\#(index),"first_name":"\#(random.word())","last_name":"\#(random.word())","#
      + #""is_active":\#(random.bool()),"signed_up_at":"\#(random.word())"}"#
  }
  let payload = Data("[\(json.joined(separator: ","))]".utf8)
  return try strategyScenario(
    id: "snakecase", title: "snake_case keys: \(objects) objects", payload: payload,
    objects: objects, of: AccountSynthesized.self,
    configure: { decoder, encoder in
      switch (decoder, encoder) {
      case (let decoder as JSONDecoder, let encoder as JSONEncoder):
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        encoder.keyEncodingStrategy = .convertToSnakeCase
      case (let decoder as KeyedJSONDecoder, let encoder as KeyedJSONEncoder):
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        encoder.keyEncodingStrategy = .convertToSnakeCase
      default:
        break
      }
    })
}

/// A scenario of an array of a synthesized model on Foundation's coders (`synthesized`, the reference) and
/// on KeyedJSONDecoder/KeyedJSONEncoder (`synthesizedjson`), each pair set up by `configure`.
private func strategyScenario<Element: Codable & Equatable>(
  id: String, title: String, payload: Data, objects: Int, of type: Element.Type,
  configure: (AnyObject, AnyObject) -> Void
) throws -> Scenario {
  typealias Model = [Element]
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  configure(decoder, encoder)
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  configure(jsonDecoder, jsonEncoder)
  let synthesized = try decoder.decode(Model.self, from: payload)
  return Scenario(
    id: id, title: title, payload: payload, objects: objects,
    implementations: [
      Implementation(
        name: "synthesized",
        decode: { try decoder.decode(Model.self, from: payload).count },
        encode: { try encoder.encode(synthesized).count }),
      Implementation(
        name: "synthesizedjson",
        decode: { try jsonDecoder.decode(Model.self, from: payload).count },
        encode: { try jsonEncoder.encode(synthesized).count }),
    ],
    validate: {
      try expectAllEqual(
        [
          ("synthesized", synthesized),
          ("synthesizedjson", try jsonDecoder.decode(Model.self, from: payload)),
          (
            "synthesizedjson round trip",
            try jsonDecoder.decode(Model.self, from: jsonEncoder.encode(synthesized))
          ),
          (
            "synthesizedjson read by JSONDecoder",
            try decoder.decode(Model.self, from: jsonEncoder.encode(synthesized))
          ),
        ], "\(id) synthesizedjson")
    })
}
