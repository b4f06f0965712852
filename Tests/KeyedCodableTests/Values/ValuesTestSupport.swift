import Foundation
import KeyedCodable
import Testing

// Helpers shared by the suites of the value features (transforms, dates, defaults, conversions,
// lossy dictionaries, presence). They forward the caller's source location, so a failure points
// at the case, not at the helper.

/// Expects `body` to throw a Codable error of the given kind at the given path, with exactly the
/// given message (`debugDescription`).
func expectError<T>(
  _ kind: String, at path: [String], message expected: String,
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
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
    #expect(
      message(of: error) == expected, "with \(TestCoder.current)", sourceLocation: sourceLocation)
  }
}

/// The error `body` throws, or `nil` (recording an issue) when it throws nothing.
func thrownError<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T)
  -> (any Error)?
{
  do {
    let value = try body()
    Issue.record(
      "Expected an error, got \(value) with \(TestCoder.current)", sourceLocation: sourceLocation)
    return nil
  } catch {
    return error
  }
}

/// The underlying error of a decoding or encoding error.
func underlyingError(of error: (any Error)?) -> (any Error)? {
  guard let error else { return nil }
  switch error {
  case DecodingError.keyNotFound(_, let context), DecodingError.valueNotFound(_, let context),
    DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context):
    return context.underlyingError
  case EncodingError.invalidValue(_, let context):
    return context.underlyingError
  default:
    return nil
  }
}

/// The entries of a report as `"<event> at <path> via <key path>"`, one per entry, in order.
func lines(of report: DecodingReport) -> [String] {
  report.entries.map { "\($0.event) at \($0.pathDescription) via \($0.keyPath)" }
}

/// Decodes `type` with the current coder and a reporter, returning the value and the report's
/// lines (see ``lines(of:)``).
func decodeReporting<T: Decodable>(_ type: T.Type, from json: String) throws -> (
  value: T, report: [String]
) {
  let (value, report) = try decodeWithReport(T.self, from: json)
  return (value, lines(of: report))
}

/// Encodes `value` with sorted keys, with the current coder, and returns the JSON text as the
/// coder wrote it (not re-serialized: numbers keep every digit the coder wrote).
func encodedText<T: Encodable>(_ value: T) throws -> String {
  switch TestCoder.current {
  case .foundation:
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  case .keyedJSON:
    let encoder = KeyedJSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}

/// A coder's own date strategy, for the tests that show a mapping's date transform ignores it.
enum CoderDateStrategy: Sendable, CaseIterable {
  case deferredToDate
  case secondsSince1970
  case millisecondsSince1970
  case iso8601
}

/// Decodes `type` with the current coder set to the date strategy `dates`.
func decode<T: Decodable>(_ type: T.Type, from json: String, dates: CoderDateStrategy) throws
  -> T
{
  let data = Data(json.utf8)
  switch TestCoder.current {
  case .foundation:
    let decoder = JSONDecoder()
    switch dates {
    case .deferredToDate: decoder.dateDecodingStrategy = .deferredToDate
    case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
    case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
    case .iso8601: decoder.dateDecodingStrategy = .iso8601
    }
    return try decoder.decode(T.self, from: data)
  case .keyedJSON:
    let decoder = KeyedJSONDecoder()
    switch dates {
    case .deferredToDate: decoder.dateDecodingStrategy = .deferredToDate
    case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
    case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
    case .iso8601: decoder.dateDecodingStrategy = .iso8601
    }
    return try decoder.decode(T.self, from: data)
  }
}

/// Encodes `value` with sorted keys with the current coder set to the date strategy `dates`,
/// re-serialized canonically.
func encodeJSON<T: Encodable>(_ value: T, dates: CoderDateStrategy) throws -> String {
  let data: Data
  switch TestCoder.current {
  case .foundation:
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    switch dates {
    case .deferredToDate: encoder.dateEncodingStrategy = .deferredToDate
    case .secondsSince1970: encoder.dateEncodingStrategy = .secondsSince1970
    case .millisecondsSince1970: encoder.dateEncodingStrategy = .millisecondsSince1970
    case .iso8601: encoder.dateEncodingStrategy = .iso8601
    }
    data = try encoder.encode(value)
  case .keyedJSON:
    let encoder = KeyedJSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    switch dates {
    case .deferredToDate: encoder.dateEncodingStrategy = .deferredToDate
    case .secondsSince1970: encoder.dateEncodingStrategy = .secondsSince1970
    case .millisecondsSince1970: encoder.dateEncodingStrategy = .millisecondsSince1970
    case .iso8601: encoder.dateEncodingStrategy = .iso8601
    }
    data = try encoder.encode(value)
  }
  return try canonicalJSON(String(decoding: data, as: UTF8.self))
}

/// A copy of `value` changed by `change`, to build models in one expression.
func with<T>(_ value: T, _ change: (inout T) -> Void) -> T {
  var copy = value
  change(&copy)
  return copy
}

/// A date from whole seconds (and optional milliseconds) since 1970, as tests spell instants.
func instant(_ seconds: Int, milliseconds: Int = 0) -> Date {
  Date(timeIntervalSince1970: Double(seconds * 1000 + milliseconds) / 1000)
}

/// The coding path of the error for a JSON number that does not fit its type (`1.5` or `1e3`
/// for an `Int`, `300` for an `Int8`): Foundation's `JSONDecoder` on Linux reports it as
/// "The given data was not valid JSON." at the top level (`[]`), whatever the value's path;
/// ``KeyedJSONDecoder`` reports it at the value's path.
func pathOfNumberThatDoesNotFit(_ path: [String]) -> [String] {
  #if canImport(Darwin)
    return path
  #else
    return TestCoder.current == .foundation ? [] : path
  #endif
}
