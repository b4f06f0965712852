import Foundation
import KeyedCodable
import Testing

/// The JSON coders the behaviour tests run against: every feature must behave the same on
/// Foundation's coders and on KeyedCodable's own.
enum TestCoder: String, CaseIterable, Sendable, CustomStringConvertible {
  /// Foundation's `JSONDecoder` and `JSONEncoder`.
  case foundation
  /// ``KeyedJSONDecoder`` and ``KeyedJSONEncoder``.
  case keyedJSON

  /// The coder the helpers use in the current test.
  @TaskLocal static var current = TestCoder.foundation

  var description: String { rawValue }
}

/// Runs every test of a suite once with each ``TestCoder``.
struct BothCoders: SuiteTrait, TestTrait, TestScoping {
  var isRecursive: Bool { true }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else { return try await function() }
    for coder in TestCoder.allCases {
      try await TestCoder.$current.withValue(coder) { try await function() }
    }
  }
}

extension Trait where Self == BothCoders {
  /// Runs the suite's tests with Foundation's JSON coders and with KeyedCodable's.
  static var bothCoders: Self { Self() }
}

/// Decodes `type` from JSON data with the current test coder.
func decode<T: Decodable>(
  _ type: T.Type, fromData data: Data, userInfo: [CodingUserInfoKey: any Sendable] = [:]
) throws -> T {
  switch TestCoder.current {
  case .foundation:
    let decoder = JSONDecoder()
    decoder.userInfo = userInfo
    return try decoder.decode(T.self, from: data)
  case .keyedJSON:
    let decoder = KeyedJSONDecoder()
    decoder.userInfo = userInfo
    return try decoder.decode(T.self, from: data)
  }
}

/// Decodes `type` from a JSON string with the current test coder's default decoder.
func decode<T: Decodable>(
  _ type: T.Type, from json: String, userInfo: [CodingUserInfoKey: any Sendable] = [:]
) throws -> T {
  try decode(T.self, fromData: Data(json.utf8), userInfo: userInfo)
}

/// Encodes `value` as JSON with sorted keys, with the current test coder.
func encodeJSON<T: Encodable>(_ value: T, userInfo: [CodingUserInfoKey: any Sendable] = [:]) throws
  -> String
{
  switch TestCoder.current {
  case .foundation:
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.userInfo = userInfo
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  case .keyedJSON:
    let encoder = KeyedJSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.userInfo = userInfo
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}

/// Re-serializes a JSON document with sorted keys and no whitespace, so two documents with the
/// same content compare equal as strings.
func canonicalJSON(_ json: String) throws -> String {
  let object = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
  let data = try JSONSerialization.data(
    withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
  return String(decoding: data, as: UTF8.self)
}

/// Expects `value` to encode to exactly the JSON document `expected` (compared canonically).
func expectEncoded<T: Encodable>(
  _ value: T, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let actual = try canonicalJSON(try encodeJSON(value))
  #expect(
    actual == (try canonicalJSON(expected)), "with \(TestCoder.current)",
    sourceLocation: sourceLocation)
}

/// Decodes `json`, encodes the result, decodes that again and expects both encodings to be the
/// same canonical JSON. Returns the first decoded value.
@discardableResult
func roundTrip<T: Codable>(
  _ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> T {
  let first = try decode(T.self, from: json)
  let encoded = try encodeJSON(first)
  let second = try decode(T.self, from: encoded)
  #expect(
    try canonicalJSON(try encodeJSON(second)) == (try canonicalJSON(encoded)),
    sourceLocation: sourceLocation)
  return first
}

/// The parts of a Codable error a test compares.
struct ErrorShape: Equatable, CustomStringConvertible {
  var kind: String
  var path: [String]

  var description: String { "\(kind) at \(path)" }
}

/// The kind (`keyNotFound(name)`, `valueNotFound`, `typeMismatch`, `dataCorrupted`,
/// `invalidValue`) and the coding path of a decoding or encoding error.
func shape(of error: any Error) -> ErrorShape? {
  switch error {
  case DecodingError.keyNotFound(let key, let context):
    return ErrorShape(
      kind: "keyNotFound(\(key.stringValue))", path: context.codingPath.map(\.stringValue))
  case DecodingError.valueNotFound(_, let context):
    return ErrorShape(kind: "valueNotFound", path: context.codingPath.map(\.stringValue))
  case DecodingError.typeMismatch(_, let context):
    return ErrorShape(kind: "typeMismatch", path: context.codingPath.map(\.stringValue))
  case DecodingError.dataCorrupted(let context):
    return ErrorShape(kind: "dataCorrupted", path: context.codingPath.map(\.stringValue))
  case EncodingError.invalidValue(_, let context):
    return ErrorShape(kind: "invalidValue", path: context.codingPath.map(\.stringValue))
  default:
    return nil
  }
}

/// The debug description of a decoding or encoding error.
func message(of error: any Error) -> String {
  switch error {
  case DecodingError.keyNotFound(_, let context), DecodingError.valueNotFound(_, let context),
    DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context):
    return context.debugDescription
  case EncodingError.invalidValue(_, let context):
    return context.debugDescription
  default:
    return "\(error)"
  }
}

/// Expects `body` to throw a Codable error of the given kind at the given path.
func expectError<T>(
  _ kind: String, at path: [String], sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) {
  do {
    let value = try body()
    Issue.record(
      "Expected \(kind) at \(path), got \(value) with \(TestCoder.current)",
      sourceLocation: sourceLocation)
  } catch {
    #expect(
      shape(of: error) == ErrorShape(kind: kind, path: path), "\(error) with \(TestCoder.current)",
      sourceLocation: sourceLocation)
  }
}

/// Decodes `type` from a JSON string with the current test coder, with a mapping context.
func decode<T: Decodable>(_ type: T.Type, from json: String, with context: MappingContext) throws
  -> T
{
  switch TestCoder.current {
  case .foundation:
    return try JSONDecoder().decode(T.self, from: Data(json.utf8), with: context)
  case .keyedJSON:
    return try KeyedJSONDecoder().decode(T.self, from: Data(json.utf8), with: context)
  }
}

/// Encodes `value` as JSON with sorted keys with the current test coder, with a mapping context.
func encodeJSON<T: Encodable>(_ value: T, with context: MappingContext) throws -> String {
  try withMappingContext(context) { try encodeJSON(value) }
}

/// Expects `value` encoded with `context` to be exactly the JSON document `expected`.
func expectEncoded<T: Encodable>(
  _ value: T, with context: MappingContext, _ expected: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let actual = try canonicalJSON(try encodeJSON(value, with: context))
  #expect(
    actual == (try canonicalJSON(expected)), "with \(TestCoder.current)",
    sourceLocation: sourceLocation)
}

/// Decodes with the current coder and returns the value and the report of the decode.
func decodeWithReport<T: Decodable>(_ type: T.Type, from json: String) throws -> (
  value: T, report: DecodingReport
) {
  switch TestCoder.current {
  case .foundation:
    return try JSONDecoder().decodeWithReport(T.self, from: Data(json.utf8))
  case .keyedJSON:
    return try KeyedJSONDecoder().decodeWithReport(T.self, from: Data(json.utf8))
  }
}
