import Foundation
import KeyedCodable
import Testing

/// `KeyedJSONEncoder` writes the dates of an `.iso8601` transform straight into its output: the
/// same text as the transform's `encode(_:)`, and the same errors.
struct ISO8601WritingTests {
  struct Stamps: Codable, Keyedable {
    var whole = Date(timeIntervalSince1970: 0)
    var precise = Date(timeIntervalSince1970: 0)
    var later: Date?

    init() {}

    mutating func map(map: KeyMap) throws {
      try whole <-> map["times.whole"].using(.iso8601)
      try precise <-> map["times.precise"].using(.iso8601(fractionalDigits: 3))
      try later <-> map["later"].using(.iso8601)
    }
  }

  /// The text the transforms make, as the mapping would write it through any encoder.
  func expected(_ stamps: Stamps) throws -> String {
    let whole = try ISO8601DateTransform().encode(stamps.whole)
    let precise = try ISO8601DateTransform(fractionalDigits: 3).encode(stamps.precise)
    let later = try stamps.later.map { #","later":"\#(try ISO8601DateTransform().encode($0))""# }
    return #"{"times":{"whole":"\#(whole)","precise":"\#(precise)"}"# + (later ?? "") + "}"
  }

  @Test func theTextIsTheTransformsForManyInstants() throws {
    var generator = SystemRandomNumberGenerator()
    let encoder = KeyedJSONEncoder()
    for index in 0..<2_000 {
      var stamps = Stamps()
      // From year 0000 to 9999, with fractions that round up and down.
      stamps.whole = Date(
        timeIntervalSince1970: Double.random(
          in: -62_167_219_200..<253_402_300_799, using: &generator))
      stamps.precise = Date(
        timeIntervalSince1970: Double.random(in: -3e9..<3e9, using: &generator))
      stamps.later = index.isMultiple(of: 2) ? nil : stamps.precise
      let text = String(decoding: try encoder.encode(stamps), as: UTF8.self)
      #expect(text == (try expected(stamps)))
      // Through Foundation's encoder, the mapping writes the transform's text itself.
      let foundation = String(decoding: try JSONEncoder().encode(stamps), as: UTF8.self)
      #expect(try canonicalJSON(foundation) == (try canonicalJSON(text)))
    }
  }

  @Test func aDateTheFormatCannotWriteThrowsTheSameErrorOnBothPaths() throws {
    var stamps = Stamps()
    stamps.precise = Date(timeIntervalSince1970: 253_402_300_800)  // 10000-01-01
    var messages: [String] = []
    for encode in [
      { try KeyedJSONEncoder().encode(stamps) }, { try JSONEncoder().encode(stamps) },
    ] {
      do {
        _ = try encode()
        Issue.record("encoded the year 10000")
      } catch EncodingError.invalidValue(_, let context) {
        messages.append(context.debugDescription)
        #expect(context.codingPath.map(\.stringValue) == ["times", "precise"])
        #expect(context.underlyingError is ValueTransformError)
      }
    }
    #expect(messages.count == 2 && messages[0] == messages[1], "\(messages)")
  }
}
