import Foundation
import KeyedCodable
import Testing

/// A Codable error as the conformance suites compare it: its kind with the type or key it
/// names, and its coding path with each key's integer value (`"Index 2#2"`).
struct CodingErrorShape: Equatable, Sendable, CustomStringConvertible {
  var kind: String
  var path: [String]

  init(_ kind: String, at path: [String]) {
    self.kind = kind
    self.path = path
  }

  /// The shape of a `DecodingError` or an `EncodingError`; `nil` for any other error.
  init?(_ error: any Error) {
    let context: (path: [any CodingKey], kind: String)
    switch error {
    case DecodingError.keyNotFound(let key, let errorContext):
      context = (errorContext.codingPath, "keyNotFound(\(Self.describe(key)))")
    case DecodingError.valueNotFound(let type, let errorContext):
      context = (errorContext.codingPath, "valueNotFound(\(type))")
    case DecodingError.typeMismatch(let type, let errorContext):
      context = (errorContext.codingPath, "typeMismatch(\(type))")
    case DecodingError.dataCorrupted(let errorContext):
      context = (errorContext.codingPath, "dataCorrupted")
    case EncodingError.invalidValue(_, let errorContext):
      context = (errorContext.codingPath, "invalidValue")
    default:
      return nil
    }
    kind = context.kind
    path = context.path.map(Self.describe)
  }

  /// A key as its string value, followed by `#` and its integer value if it has one.
  static func describe(_ key: any CodingKey) -> String {
    key.intValue.map { "\(key.stringValue)#\($0)" } ?? key.stringValue
  }

  var description: String { "\(kind) at \(path)" }

  /// `dataCorrupted` at the root: how both decoders report a document that is not valid JSON.
  static let invalidJSON = CodingErrorShape("dataCorrupted", at: [])
}

/// What a decode or an encode gave: a value, or the shape of the error it threw.
enum Outcome<Value: Equatable>: Equatable, CustomStringConvertible {
  case value(Value)
  case error(CodingErrorShape)
  /// An error that is not a Codable error, described.
  case otherError(String)

  init(_ body: () throws -> Value) {
    do {
      self = .value(try body())
    } catch {
      if let shape = CodingErrorShape(error) {
        self = .error(shape)
      } else {
        self = .otherError("\(error)")
      }
    }
  }

  var success: Value? {
    if case .value(let value) = self { return value }
    return nil
  }

  var description: String {
    switch self {
    case .value(let value): "value \(value)"
    case .error(let shape): "error \(shape)"
    case .otherError(let description): "other error \(description)"
    }
  }
}

/// The two decoders of a comparison, configured alike by the test.
struct DecoderPair {
  let ours = KeyedJSONDecoder()
  let foundation = JSONDecoder()

  /// Decodes `data` with both decoders.
  func decode<T: Decodable & Equatable>(_ type: T.Type, from data: Data) -> (
    ours: Outcome<T>, foundation: Outcome<T>
  ) {
    (
      Outcome { try ours.decode(T.self, from: data) },
      Outcome { try foundation.decode(T.self, from: data) }
    )
  }

  /// Decodes `json` with both decoders.
  func decode<T: Decodable & Equatable>(_ type: T.Type, from json: String) -> (
    ours: Outcome<T>, foundation: Outcome<T>
  ) {
    decode(T.self, from: Data(json.utf8))
  }

  /// Expects both decoders to give the same value or the same error for `json`, and returns
  /// what ours gave.
  @discardableResult
  func expectSame<T: Decodable & Equatable>(
    _ type: T.Type, from json: String, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Outcome<T> {
    let (ours, foundation) = decode(T.self, from: json)
    #expect(ours == foundation, "decoding \(json)", sourceLocation: sourceLocation)
    return ours
  }
}

/// The two encoders of a comparison, configured alike by the test.
struct EncoderPair {
  let ours = KeyedJSONEncoder()
  let foundation = JSONEncoder()

  /// Two encoders with the given output formatting.
  init(_ formatting: JSONEncoder.OutputFormatting = [.sortedKeys]) {
    foundation.outputFormatting = formatting
    ours.outputFormatting = KeyedJSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
  }

  /// Encodes `value` with both encoders, as UTF-8 text.
  func encode<T: Encodable>(_ value: T) -> (ours: Outcome<String>, foundation: Outcome<String>) {
    (
      Outcome { String(decoding: try ours.encode(value), as: UTF8.self) },
      Outcome { String(decoding: try foundation.encode(value), as: UTF8.self) }
    )
  }

  /// Expects both encoders to write the same bytes (or throw the same error) for `value`, and
  /// returns what ours wrote.
  @discardableResult
  func expectSame<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation)
    -> Outcome<String>
  {
    let (ours, foundation) = encode(value)
    #expect(ours == foundation, sourceLocation: sourceLocation)
    return ours
  }
}

/// A coding key with any name or integer value.
struct AnyKey: CodingKey, Hashable, Sendable, ExpressibleByStringLiteral {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
  }

  init(intValue: Int) {
    stringValue = "\(intValue)"
    self.intValue = intValue
  }

  init(stringLiteral value: String) {
    stringValue = value
  }
}

/// SplitMix64: a small seeded generator, so a failure names a case that reproduces.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
