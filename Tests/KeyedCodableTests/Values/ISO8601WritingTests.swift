import Foundation
import KeyedCodable
import Testing

/// `KeyedJSONEncoder` writes the dates of an `.iso8601` transform straight into its output, and
/// `KeyedJSONDecoder` reads them from the document's bytes: the same text and dates as the
/// transform's `encode(_:)` and `decode(_:)`, and the same errors.
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

  @Test func wholeSecondsAreWrittenAsFoundationsFormatterWritesThem() throws {
    // An independent oracle for every field written by pairs (year by two pairs, then month,
    // day, hours, minutes, seconds): Foundation's formatter, from 1600 (before it, ICU's
    // calendar is Julian) to 9999, and the edges of each field.
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    var rng = RoundTripPropertyTests.SplitMix64(seed: 1600)
    var instants: [Double] = [0, -1, 86_399, 86_400, 951_782_400, 253_402_300_799]
    for _ in 0..<5_000 {
      instants.append(Double(Int64(rng.next() % 264_000_000_000) - 11_676_096_000))
    }
    let transform = ISO8601DateTransform()
    for seconds in instants {
      let date = Date(timeIntervalSince1970: seconds)
      #expect(try transform.encode(date) == formatter.string(from: date), "\(seconds)")
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

  @Test func theDatesReadAreTheTransformsForManyTexts() throws {
    var generator = SystemRandomNumberGenerator()
    let transform = ISO8601DateTransform()
    for _ in 0..<2_000 {
      let date = Date(
        timeIntervalSince1970: Double.random(
          in: -62_167_219_200..<253_402_300_799, using: &generator))
      // Offsets, fractions of any length, and the forms with and without a colon.
      let base = try ISO8601DateTransform(fractionalDigits: Int.random(in: 0...9)).encode(date)
      let offset =
        ["Z", "+01:00", "-0530", "+14", "-00:00"].randomElement(using: &generator) ?? "Z"
      let text = base.dropLast() + offset
      let json = #"{"times":{"whole":"\#(text)","precise":"\#(base)"}}"#
      let stamps = try KeyedJSONDecoder().decode(Stamps.self, from: Data(json.utf8))
      #expect(stamps.whole == (try transform.decode(String(text))), "\(text)")
      #expect(stamps.precise == (try transform.decode(base)), "\(base)")
      let foundation = try JSONDecoder().decode(Stamps.self, from: Data(json.utf8))
      #expect(foundation.whole == stamps.whole && foundation.precise == stamps.precise)
    }
  }

  @Test func escapedBadAndMissingDatesAreReadTheGeneralWay() throws {
    // An escape is read through the string.
    let escaped =
      #"{"times":{"whole":"\u0032024-02-29T12:30:05Z","precise":"2024-02-29T12:30:05Z"}}"#
    let stamps = try KeyedJSONDecoder().decode(Stamps.self, from: Data(escaped.utf8))
    #expect(stamps.whole == Date(timeIntervalSince1970: 1_709_209_805))
    // Errors are the transform's, at the member's path, on both decoders.
    for json in [
      #"{"times":{"whole":"2024-02-30T12:30:05Z","precise":"2024-02-29T12:30:05Z"}}"#,
      #"{"times":{"whole":12,"precise":"2024-02-29T12:30:05Z"}}"#,
      #"{"times":{"precise":"2024-02-29T12:30:05Z"}}"#,
    ] {
      var shapes: [String] = []
      for decode in [
        { try KeyedJSONDecoder().decode(Stamps.self, from: Data(json.utf8)) },
        { try JSONDecoder().decode(Stamps.self, from: Data(json.utf8)) },
      ] {
        do {
          _ = try decode()
          Issue.record("decoded \(json)")
        } catch let error as DecodingError {
          switch error {
          case .dataCorrupted(let context), .typeMismatch(_, let context),
            .keyNotFound(_, let context), .valueNotFound(_, let context):
            shapes.append(
              "\(context.codingPath.map(\.stringValue)) \(context.debugDescription)")
          @unknown default:
            Issue.record("\(error)")
          }
        }
      }
      #expect(shapes.count == 2 && shapes[0] == shapes[1], "\(shapes)")
    }
  }
}
