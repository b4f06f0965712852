import Foundation
import KeyedCodable

// anyjson: the JSON value enum users write themselves when a part of a document has no fixed
// shape, decoded with the usual chain of `try?` over twitter, citm and canada. Every value but
// `null` costs one or more failed decodes first (a string tries Bool and Double; an object tries
// four types), so the scenario measures what a thrown typeMismatch costs as much as what a
// successful read does.

/// A user-written JSON value: each case tried in turn.
enum TryChainJSONValue: Codable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([TryChainJSONValue])
  case object([String: TryChainJSONValue])

  init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([TryChainJSONValue].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: TryChainJSONValue].self))
    }
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let bool): try container.encode(bool)
    case .number(let number): try container.encode(number)
    case .string(let string): try container.encode(string)
    case .array(let array): try container.encode(array)
    case .object(let object): try container.encode(object)
    }
  }

  /// The number of values in the tree, this one included.
  var count: Int {
    switch self {
    case .array(let array): array.reduce(1) { $0 + $1.count }
    case .object(let object): object.values.reduce(1) { $0 + $1.count }
    default: 1
    }
  }
}

/// Decodes and encodes one corpus document as a `TryChainJSONValue`.
///
/// Implementations: `synthesized` (the enum on Foundation's coders, the reference) and
/// `synthesizedjson` (the same enum on the KeyedJSON coders). Validation checks that both
/// decode equal values and that what each encodes decodes back equal.
///
/// - Parameters:
///   - document: The scenario id's suffix (`twitter`, `citm`, `canada`).
///   - file: The document's file name in the corpus.
/// - Returns: The scenario `anyjson-<document>`.
/// - Throws: `BenchmarkError` when the document is missing or the coders disagree.
func anyJSONScenario(document: String, file: String) throws -> Scenario {
  let payload = try loadCorpusDocument(file)
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let value = try decoder.decode(TryChainJSONValue.self, from: payload)
  return Scenario(
    id: "anyjson-\(document)", title: "\(file) as a user-written JSON value enum (try? chain)",
    payload: payload, objects: value.count,
    implementations: [
      Implementation(
        name: "synthesized",
        decode: { try decoder.decode(TryChainJSONValue.self, from: payload).count },
        encode: { try encoder.encode(value).count }),
      Implementation(
        name: "synthesizedjson",
        decode: { try jsonDecoder.decode(TryChainJSONValue.self, from: payload).count },
        encode: { try jsonEncoder.encode(value).count }),
    ],
    validate: {
      try expectAllEqual(
        [
          ("synthesized", value),
          ("synthesizedjson", try jsonDecoder.decode(TryChainJSONValue.self, from: payload)),
          (
            "synthesizedjson round trip",
            try jsonDecoder.decode(TryChainJSONValue.self, from: jsonEncoder.encode(value))
          ),
          (
            "synthesizedjson read by JSONDecoder",
            try decoder.decode(TryChainJSONValue.self, from: jsonEncoder.encode(value))
          ),
        ], "anyjson-\(document)")
    })
}
