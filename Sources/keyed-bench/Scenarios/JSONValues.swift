import Foundation
import KeyedCodable

// jsonvalue: the corpus documents (twitter, citm, canada) decoded and encoded whole as an untyped
// JSON value: KeyedCodable's `JSONValue` on its own coders against the JSON value enum people
// write themselves, on Foundation's JSONDecoder/JSONEncoder (the reference).

/// The JSON value enum an app writes when it needs one: each kind tried in turn with `try?`.
enum UserJSONValue: Codable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([UserJSONValue])
  case object([String: UserJSONValue])

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
    } else if let array = try? container.decode([UserJSONValue].self) {
      self = .array(array)
    } else if let object = try? container.decode([String: UserJSONValue].self) {
      self = .object(object)
    } else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "Not a JSON value.")
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

  /// The number of values in it, itself included: a checksum.
  var count: Int {
    switch self {
    case .array(let array): array.reduce(1) { $0 + $1.count }
    case .object(let object): object.values.reduce(1) { $0 + $1.count }
    default: 1
    }
  }
}

extension JSONValue {
  /// The number of values in it, itself included: a checksum.
  var count: Int {
    switch self {
    case .array(let array): array.reduce(1) { $0 + $1.count }
    case .object(let object): object.values.reduce(1) { $0 + $1.count }
    default: 1
    }
  }
}

/// A corpus document decoded and encoded as a JSON value. Ratios are to `userenum`, the
/// hand-written enum on Foundation's coders.
func jsonValueScenario(document: String, id: String) throws -> Scenario {
  let payload = try loadCorpusDocument("\(document).json")
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let userValue = try decoder.decode(UserJSONValue.self, from: payload)
  let value = try jsonDecoder.decode(JSONValue.self, from: payload)
  let foundationValue = try decoder.decode(JSONValue.self, from: payload)
  return Scenario(
    id: id, title: "\(document).json as a JSON value", payload: payload,
    objects: userValue.count,
    implementations: [
      Implementation(
        name: "userenum",
        decode: { try decoder.decode(UserJSONValue.self, from: payload).count },
        encode: { try encoder.encode(userValue).count }),
      Implementation(
        name: "jsonvalue-keyed",
        decode: { try jsonDecoder.decode(JSONValue.self, from: payload).count },
        encode: { try jsonEncoder.encode(value).count }),
      Implementation(
        name: "jsonvalue-found",
        decode: { try decoder.decode(JSONValue.self, from: payload).count },
        encode: { try encoder.encode(foundationValue).count }),
      Implementation(
        name: "userenum-keyed",
        decode: { try jsonDecoder.decode(UserJSONValue.self, from: payload).count },
        encode: { try jsonEncoder.encode(userValue).count }),
    ],
    validate: {
      // Every implementation reads the document as one value. What each writes reads back as
      // the same doubles (Foundation's encoder writes a JSONValue's numbers as doubles).
      try expectAllEqual(
        [
          ("jsonvalue-keyed", value), ("jsonvalue-found", foundationValue),
          (
            "jsonvalue-keyed round trip",
            try jsonDecoder.decode(JSONValue.self, from: try jsonEncoder.encode(value))
          ),
        ], "\(document) JSONValue")
      try expectAllEqual(
        [
          ("userenum", userValue),
          ("userenum-keyed", try jsonDecoder.decode(UserJSONValue.self, from: payload)),
          (
            "jsonvalue-keyed written",
            try decoder.decode(
              UserJSONValue.self, from: try jsonEncoder.encode(value))
          ),
          (
            "jsonvalue-found written",
            try decoder.decode(
              UserJSONValue.self, from: try encoder.encode(foundationValue))
          ),
        ], "\(document) as doubles")
      guard value.count == userValue.count else {
        throw BenchmarkError(description: "\(document): the value counts differ")
      }
    })
}
