import Foundation
import Testing

@testable import KeyedCodable

/// The `.formatted(DateFormatter)` strategies against Foundation's coders given the same
/// formatter: the same dates, bit for bit, the same text and the same errors, whether
/// ``JSONFormattedDates`` reads and writes with its pattern or hands the date to the formatter.
@Suite struct JSONFormattedDateTests {
  /// A formatter as users set one up: the POSIX locale, a format and a zone.
  static func formatter(
    _ format: String, _ zone: TimeZone?, _ configure: (DateFormatter) -> Void = { _ in }
  ) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = zone
    formatter.dateFormat = format
    configure(formatter)
    return formatter
  }

  /// What decoding `text` as a top-level JSON string gives: the date's bits or the error.
  static func decoded(_ json: String, with formatter: DateFormatter, foundation: Bool) -> String {
    let data = Data(json.utf8)
    do {
      let date: Date
      if foundation {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .formatted(formatter)
        date = try decoder.decode(Date.self, from: data)
      } else {
        let decoder = KeyedJSONDecoder()
        decoder.dateDecodingStrategy = .formatted(formatter)
        date = try decoder.decode(Date.self, from: data)
      }
      return "\(date.timeIntervalSinceReferenceDate.bitPattern)"
    } catch {
      return "\(error)"
    }
  }

  /// The JSON of `dates` written by both encoders.
  static func encoded(_ dates: [Date], with formatter: DateFormatter) throws -> (String, String) {
    let foundation = JSONEncoder()
    foundation.dateEncodingStrategy = .formatted(formatter)
    let ours = KeyedJSONEncoder()
    ours.dateEncodingStrategy = .formatted(formatter)
    return (
      String(decoding: try foundation.encode(dates), as: UTF8.self),
      String(decoding: try ours.encode(dates), as: UTF8.self)
    )
  }

  /// Texts near what `formatter` writes for `date`: its own text, then variants that are
  /// valid, invalid, or read differently (fractions of every length, names in other cases,
  /// spaces, signs, out-of-range fields, escapes).
  static func texts(near date: Date, _ formatter: DateFormatter) -> [String] {
    let text = formatter.string(from: date)
    var texts = [text, text.lowercased(), text.uppercased(), " " + text, text + " ", text + "x"]
    if let dot = text.firstIndex(of: ".") {
      let after = text[text.index(after: dot)...]
      let digits = after.prefix { $0.isNumber }
      for fraction in ["", "5", "12", "1234", "1230", "123456789", "1230000000000", "9999999999"] {
        texts.append(String(text[...dot]) + fraction + String(after.dropFirst(digits.count)))
      }
    }
    for (from, to) in [("T", " "), ("-", "/"), (":", ""), ("+", "-"), ("Z", "+00:00"), ("0", "")] {
      if let range = text.range(of: from) {
        texts.append(text.replacingCharacters(in: range, with: to))
      }
    }
    return texts
  }

  static let patterns = [
    "yyyy-MM-dd'T'HH:mm:ssZZZZZ", "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX",
    "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd", "EEE, dd MMM yyyy HH:mm:ss Z", "MM/dd/yyyy h:mm a",
    "EEEE d MMMM yyyy h:mm:ss.S a ZZZZ xxx", "yyyyMMdd'T'HHmmss.SS", "d.M.yyyy H:m:s",
  ]
  static let zones = ["UTC", "GMT+0530", "Europe/Paris", "America/New_York"]

  /// The zone named `name`: an identifier, or `GMT±HHMM` for a fixed offset.
  static func zone(_ name: String) throws -> TimeZone {
    if name.hasPrefix("GMT+") {
      let digits = Int(name.dropFirst(4)) ?? 0
      return try #require(TimeZone(secondsFromGMT: (digits / 100 * 60 + digits % 100) * 60))
    }
    return try #require(TimeZone(identifier: name))
  }

  @Test(arguments: patterns, zones)
  func datesReadAsFoundationReadsThem(pattern: String, zoneName: String) throws {
    let formatter = Self.formatter(pattern, try Self.zone(zoneName))
    var random = RoundTripPropertyTests.SplitMix64(
      seed: UInt64(pattern.utf8.count * 7 + zoneName.utf8.count))
    var texts: [String] = []
    for _ in 0..<Stress.count(25) {
      // 1570 through 2100, to the microsecond.
      let micro = Int.random(in: -12_623_040_000_000_000...4_102_444_800_000_000, using: &random)
      texts += Self.texts(near: Date(timeIntervalSince1970: Double(micro) / 1e6), formatter)
    }
    for year in ["1582", "1583", "9999", "10000"] {
      texts.append(
        contentsOf: Self.texts(near: Date(timeIntervalSince1970: 0), formatter).map {
          $0.replacingOccurrences(of: "1970", with: year)
        })
    }
    var failures: [String] = []
    for text in texts {
      for json in ["\"\(text)\"", "\"\(text.replacingOccurrences(of: "1", with: "\\u0031"))\""] {
        let expected = Self.decoded(json, with: formatter, foundation: true)
        let actual = Self.decoded(json, with: formatter, foundation: false)
        if actual != expected { failures.append("\(json): \(actual) != \(expected)") }
      }
    }
    #expect(failures.isEmpty, "\(failures.count) of \(texts.count * 2): \(failures.prefix(3))")
  }

  @Test(arguments: patterns, zones)
  func datesWriteAsFoundationWritesThem(pattern: String, zoneName: String) throws {
    let formatter = Self.formatter(pattern, try Self.zone(zoneName))
    var random = RoundTripPropertyTests.SplitMix64(
      seed: UInt64(pattern.utf8.count * 5 + zoneName.utf8.count))
    var dates: [Date] = [
      .distantPast, .distantFuture, Date(timeIntervalSince1970: -12_219_292_800),
      Date(timeIntervalSince1970: -12_212_553_600),
      Date(timeIntervalSince1970: 253_402_300_799.999),
      Date(timeIntervalSince1970: 253_402_300_800), Date(timeIntervalSinceReferenceDate: -0.0005),
      Date(timeIntervalSince1970: 59.9996), Date(timeIntervalSince1970: 1_700_000_000.0005),
    ]
    for _ in 0..<400 {
      let micro = Int.random(in: -12_623_040_000_000_000...4_102_444_800_000_000, using: &random)
      let date = Date(timeIntervalSince1970: Double(micro) / 1e6)
      // Whole milliseconds, and halves of them, where rounding ties.
      dates += [date, Date(timeIntervalSince1970: Double(micro / 1000) / 1e3 + 0.0005)]
    }
    let (expected, actual) = try Self.encoded(dates, with: formatter)
    let expectedTexts = expected.split(separator: ",")
    let actualTexts = actual.split(separator: ",")
    let differences = zip(expectedTexts, actualTexts).filter { $0 != $1 }
    #expect(actual == expected, "\(differences.count) differ: \(differences.prefix(3))")
  }

  /// Settings the pattern doesn't reproduce, each on the pattern's favourite format.
  static let otherSettings: [(String, @Sendable (DateFormatter) -> Void)] = [
    ("lenient", { $0.isLenient = true }),
    ("default date", { $0.defaultDate = Date(timeIntervalSince1970: 86_400 * 400) }),
    ("Buddhist calendar", { $0.calendar = Calendar(identifier: .buddhist) }),
    ("British locale", { $0.locale = Locale(identifier: "en_GB") }),
    ("French locale", { $0.locale = Locale(identifier: "fr_FR") }),
    ("reform in 1900", { $0.gregorianStartDate = Date(timeIntervalSince1970: -2_208_988_800) }),
    ("two-digit years", { $0.dateFormat = "dd MMM yy HH:mm Z" }),
    (
      "two-digit years from 1990",
      {
        $0.dateFormat = "dd MMM yy HH:mm Z"
        $0.twoDigitStartDate = Date(timeIntervalSince1970: 631_152_000)
      }
    ),
    ("microseconds", { $0.dateFormat = "yyyy-MM-dd HH:mm:ss.SSSSSS Z" }),
    (
      "month names",
      {
        $0.shortMonthSymbols = [
          "ja", "fe", "ma", "ap", "my", "jn", "jl", "au", "se", "oc", "no", "de",
        ]
      }
    ),
    ("day names", { $0.shortWeekdaySymbols = ["su", "mo", "tu", "we", "th", "fr", "sa"] }),
    (
      "AM and PM",
      {
        $0.dateFormat = "EEE, dd MMM yyyy hh:mm a Z"
        $0.amSymbol = "am."
        $0.pmSymbol = "pm."
      }
    ),
    (
      "a zone with daylight saving time",
      {
        $0.dateFormat = "EEE, dd MMM yyyy HH:mm"
        $0.timeZone = TimeZone(identifier: "Europe/Paris")
      }
    ),
    (
      "a date style",
      {
        $0.dateFormat = nil
        $0.dateStyle = .medium
        $0.timeStyle = .medium
      }
    ),
  ]

  @Test func otherSettingsAreLeftToTheFormatterAndStillMatchFoundation() throws {
    var random = RoundTripPropertyTests.SplitMix64(seed: 17)
    for (name, configure) in Self.otherSettings {
      let formatter = Self.formatter("EEE, dd MMM yyyy HH:mm:ss Z", .gmt, configure)
      let dates = JSONFormattedDates(formatter)
      #expect(!dates.formats && !dates.parses, "\(name)")
      var texts: [String] = []
      var written: [Date] = []
      for _ in 0..<30 {
        let seconds = Int.random(in: -2_208_988_800...4_102_444_800, using: &random)
        let date = Date(timeIntervalSince1970: Double(seconds) + 0.25)
        written.append(date)
        texts += Self.texts(near: date, formatter)
      }
      for text in texts {
        let json = "\"\(text)\""
        #expect(
          Self.decoded(json, with: formatter, foundation: false)
            == Self.decoded(json, with: formatter, foundation: true), "\(name): \(text)")
      }
      let (expected, actual) = try Self.encoded(written, with: formatter)
      #expect(actual == expected, "\(name)")
    }
  }

  /// A formatter whose methods are overridden, which the pattern must not bypass.
  final class ShiftingFormatter: DateFormatter, @unchecked Sendable {
    override func date(from string: String) -> Date? {
      super.date(from: string).map { $0.addingTimeInterval(3600) }
    }
    override func string(from date: Date) -> String {
      super.string(from: date) + " (shifted)"
    }
  }

  @Test func subclassesAreCalled() throws {
    let formatter = ShiftingFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = .gmt
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    #expect(!JSONFormattedDates(formatter).parses)
    let decoder = KeyedJSONDecoder()
    decoder.dateDecodingStrategy = .formatted(formatter)
    let date = try decoder.decode(Date.self, from: Data(#""2024-02-29 12:30""#.utf8))
    #expect(date == Date(timeIntervalSince1970: 1_709_209_800 + 3600))
    let encoder = KeyedJSONEncoder()
    encoder.dateEncodingStrategy = .formatted(formatter)
    let json = String(decoding: try encoder.encode([date]), as: UTF8.self)
    #expect(json == #"["2024-02-29 13:30 (shifted)"]"#)
  }

  @Test func thePatternStandsInForTheUsualFormatters() throws {
    for pattern in Self.patterns {
      let fixed = JSONFormattedDates(Self.formatter(pattern, TimeZone(secondsFromGMT: 3600)))
      #expect(fixed.parses && fixed.formats, "\(pattern)")
      // A zone with daylight saving time: read when the text gives the offset, never written.
      let paris = JSONFormattedDates(Self.formatter(pattern, TimeZone(identifier: "Europe/Paris")))
      let hasOffset = pattern.contains { "ZXx".contains($0) }
      #expect(paris.parses == hasOffset && !paris.formats, "\(pattern)")
    }
  }

  @Test func settingsAreReadOncePerDecode() throws {
    // A formatter changed between two decodes is read again: the second decode follows it.
    let formatter = Self.formatter("yyyy-MM-dd HH:mm", .gmt)
    let decoder = KeyedJSONDecoder()
    decoder.dateDecodingStrategy = .formatted(formatter)
    let json = Data(#"["2024-02-29 12:30", "2024-02-29 13:30"]"#.utf8)
    let first = try decoder.decode([Date].self, from: json)
    formatter.timeZone = TimeZone(secondsFromGMT: 7200)
    let second = try decoder.decode([Date].self, from: json)
    #expect(first.map(\.timeIntervalSince1970) == [1_709_209_800, 1_709_213_400])
    #expect(second.map(\.timeIntervalSince1970) == [1_709_202_600, 1_709_206_200])
  }
}
