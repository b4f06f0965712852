import Foundation
import KeyedCodable
import Testing

/// ``KeyedJSONDecoder`` and ``KeyedJSONEncoder`` against Foundation's coders with each
/// strategy and output format: the same bytes (with `.sortedKeys`), the same values, the same
/// errors.
@Suite struct JSONConformanceStrategyTests {
  // MARK: - Dates

  struct Dated: Codable, Equatable {
    var date: Date
    var dates: [Date]
    var optional: Date?
    var missing: Date?
    var byName: [String: Date]
  }

  static let dated = Dated(
    date: Date(timeIntervalSince1970: 1_600_000_000),
    dates: [
      Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1_000_000_000.25),
      Date(timeIntervalSinceReferenceDate: 123.456), Date(timeIntervalSince1970: 951_782_400.5),
    ],
    optional: Date(timeIntervalSince1970: 1_234_567_890.125), missing: nil,
    byName: ["epoch": Date(timeIntervalSince1970: 0)])

  /// A POSIX formatter in UTC with milliseconds.
  static func posixFormatter() -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX"
    return formatter
  }

  enum DateStrategy: String, CaseIterable, Sendable {
    case deferredToDate, secondsSince1970, millisecondsSince1970, iso8601, formatted, custom

    func configure(_ encoders: EncoderPair) {
      switch self {
      case .deferredToDate:
        encoders.ours.dateEncodingStrategy = .deferredToDate
        encoders.foundation.dateEncodingStrategy = .deferredToDate
      case .secondsSince1970:
        encoders.ours.dateEncodingStrategy = .secondsSince1970
        encoders.foundation.dateEncodingStrategy = .secondsSince1970
      case .millisecondsSince1970:
        encoders.ours.dateEncodingStrategy = .millisecondsSince1970
        encoders.foundation.dateEncodingStrategy = .millisecondsSince1970
      case .iso8601:
        encoders.ours.dateEncodingStrategy = .iso8601
        encoders.foundation.dateEncodingStrategy = .iso8601
      case .formatted:
        encoders.ours.dateEncodingStrategy = .formatted(posixFormatter())
        encoders.foundation.dateEncodingStrategy = .formatted(posixFormatter())
      case .custom:
        encoders.ours.dateEncodingStrategy = .custom(DateStrategy.encodeCustom)
        encoders.foundation.dateEncodingStrategy = .custom(DateStrategy.encodeCustom)
      }
    }

    func configure(_ decoders: DecoderPair) {
      switch self {
      case .deferredToDate:
        decoders.ours.dateDecodingStrategy = .deferredToDate
        decoders.foundation.dateDecodingStrategy = .deferredToDate
      case .secondsSince1970:
        decoders.ours.dateDecodingStrategy = .secondsSince1970
        decoders.foundation.dateDecodingStrategy = .secondsSince1970
      case .millisecondsSince1970:
        decoders.ours.dateDecodingStrategy = .millisecondsSince1970
        decoders.foundation.dateDecodingStrategy = .millisecondsSince1970
      case .iso8601:
        decoders.ours.dateDecodingStrategy = .iso8601
        decoders.foundation.dateDecodingStrategy = .iso8601
      case .formatted:
        decoders.ours.dateDecodingStrategy = .formatted(posixFormatter())
        decoders.foundation.dateDecodingStrategy = .formatted(posixFormatter())
      case .custom:
        decoders.ours.dateDecodingStrategy = .custom(DateStrategy.decodeCustom)
        decoders.foundation.dateDecodingStrategy = .custom(DateStrategy.decodeCustom)
      }
    }

    /// Writes an object with the seconds and the coding path the closure was given.
    @Sendable static func encodeCustom(_ date: Date, _ encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(date.timeIntervalSince1970, forKey: "at")
      try container.encode(
        encoder.codingPath.map(CodingErrorShape.describe).joined(separator: "/"), forKey: "path")
    }

    /// Reads what ``encodeCustom(_:_:)`` writes, checking the coding path it is given.
    @Sendable static func decodeCustom(_ decoder: any Decoder) throws -> Date {
      let container = try decoder.container(keyedBy: AnyKey.self)
      let path = try container.decode(String.self, forKey: "path")
      guard path == decoder.codingPath.map(CodingErrorShape.describe).joined(separator: "/") else {
        throw DecodingError.dataCorruptedError(
          forKey: "path", in: container, debugDescription: "written at \(path)")
      }
      return Date(timeIntervalSince1970: try container.decode(Double.self, forKey: "at"))
    }
  }

  @Test(arguments: DateStrategy.allCases)
  func datesEncodeAndDecodeAsFoundationDoes(_ strategy: DateStrategy) throws {
    let encoders = EncoderPair()
    strategy.configure(encoders)
    let encoded = encoders.expectSame(Self.dated)
    let json = try #require(encoded.success)
    let decoders = DecoderPair()
    strategy.configure(decoders)
    let decoded = try #require(decoders.expectSame(Dated.self, from: json).success)
    // The string formats keep whole seconds or milliseconds; the numbers are seconds since
    // 1970, not since 2001 as a `Date` holds them, so they may be off by a rounding.
    let tolerance = strategy == .iso8601 ? 1 : strategy == .formatted ? 0.001 : 1e-6
    for (date, expected) in zip(
      decoded.dates + [decoded.date], Self.dated.dates + [Self.dated.date])
    {
      #expect(abs(date.timeIntervalSince(expected)) < tolerance)
    }
    if strategy == .deferredToDate {
      #expect(decoded == Self.dated)
    }
  }

  struct OneDate: Codable, Equatable {
    var date: Date
  }

  static let dateErrorCases: [(DateStrategy, String)] = [
    (.deferredToDate, #""2020-01-01""#), (.deferredToDate, "{}"), (.deferredToDate, "1e2"),
    (.secondsSince1970, #""1""#), (.secondsSince1970, "[1]"), (.secondsSince1970, "-1.5"),
    (.millisecondsSince1970, "true"), (.millisecondsSince1970, "1e3"),
    (.iso8601, "12"), (.iso8601, #""2020-01-01T02:00:00+02:00""#),
    (.iso8601, #""2020-01-01T00:00:00+0200""#), (.iso8601, #""2020-01-01T00:00:00z""#),
    (.iso8601, #""2020-01-01T24:00:00Z""#), (.iso8601, #""2020-02-30T00:00:00Z""#),
    (.formatted, #""2020-01-01T00:00:00Z""#), (.formatted, #""2020-01-01T00:00:00.250+01:00""#),
    (.formatted, "0"), (.custom, "1"),
    (.custom, #"{"at":1,"path":"date"}"#), (.custom, #"{"at":1,"path":"elsewhere"}"#),
    (.custom, #"{"path":"date"}"#),
  ]

  @Test(arguments: dateErrorCases)
  func oddDateValuesGiveFoundationsValuesAndErrors(_ strategy: DateStrategy, value: String) {
    let decoders = DecoderPair()
    strategy.configure(decoders)
    decoders.expectSame(OneDate.self, from: #"{"date":\#(value)}"#)
    decoders.expectSame([Date].self, from: "[\(value)]")
  }

  @Test func anInvalidISO8601DateIsReportedAtItsPath() {
    // Foundation reports it at the path of the object or array that holds the date (it drops
    // the date's own key): wrong, so not followed.
    let decoders = DecoderPair()
    DateStrategy.iso8601.configure(decoders)
    for value in [
      "2020-13-01T00:00:00Z", "2020-01-01", "2020-01-01T00:00:00,5Z", "2020-01-01T00:00Z",
    ] {
      let (ours, foundation) = decoders.decode(OneDate.self, from: #"{"date":"\#(value)"}"#)
      #expect(ours == .error(CodingErrorShape("dataCorrupted", at: ["date"])))
      #expect(foundation == .error(CodingErrorShape("dataCorrupted", at: [])))
    }
  }

  /// Texts for the `.iso8601` strategy: the common form, which KeyedCodable's date engine
  /// reads, and what Foundation's `Date.ISO8601FormatStyle` reads leniently or rejects, which
  /// goes to Foundation. Both read fractional seconds (at most nine digits), second 60 (the first
  /// second of the next minute) and trailing text, and reject a leading space. (Fixed: ours used
  /// to read with `ISO8601DateFormatter`, which rejects fractions and second 60 and skips a
  /// leading space.)
  static let iso8601Texts: [String] = [
    "2020-01-01T00:00:00Z", "2020-01-01T00:00:00.5Z", "2020-01-01T00:00:00.123456Z",
    "2020-01-01T00:00:00.11Z", "2020-01-01T00:00:00.999999999Z", "2020-01-01T00:00:00.0Z",
    "2020-01-01T00:00:00.1234567891Z", "2020-01-01T00:00:00.Z", "2020-01-01T00:00:00,5Z",
    "2020-01-01T00:00:60Z", "2020-12-31T23:59:60Z", "2020-06-30T23:59:60.5Z",
    "2020-01-01T00:00:61Z", "2020-01-01T00:60:00Z", "2020-01-01T24:00:00Z",
    " 2020-01-01T00:00:00Z", "2020-01-01T00:00:00Z ", "2020-01-01T00:00:00Zx",
    "2020-01-01T00:00:00 Z", "2020-02-30T00:00:00Z", "2021-02-29T00:00:00Z",
    "2020-02-29T00:00:00Z", "2020-1-01T00:00:00Z", "2020-01-01t00:00:00z",
    "2020-01-01T00:00:00z", "2020-01-01 00:00:00Z", "2020-01-01T00:00:00+01:00",
    "2020-01-01T00:00:00+0100", "2020-01-01T00:00:00+01", "2020-01-01T00:00:00+1",
    "2020-01-01T00:00:00+01:3", "2020-01-01T00:00:00-00:00", "2020-01-01T00:00:00-0000",
    "2020-01-01T00:00:00+18:00", "2020-01-01T00:00:00-18:00", "2020-01-01T00:00:00+18:01",
    "2020-01-01T00:00:00+18:30", "2020-01-01T00:00:00+23:59", "2020-01-01T00:00:00+01:00:30",
    "2020-01-01T00:00:00+01:00Z", "2020-01-01T00:00:00GMT", "2020-01-01T00:00:00UTC",
    "2020-01-01T00:00:00.5+01:30", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z",
    "1582-10-04T00:00:00Z", "1582-10-05T00:00:00Z", "1582-10-15T00:00:00Z",
    "1582-12-31T23:00:00-02:00", "1583-01-01T00:00:00Z", "1583-01-01T00:00:00+18:00",
    "1600-02-29T12:00:00Z", "1900-02-29T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
    "9999-12-31T23:59:60Z", "9999-12-31T23:00:00-18:00", "12020-01-01T00:00:00Z",
    "+2020-01-01T00:00:00Z", "20200101T000000Z", "2020-01-01T00:00:00", "2020-01-01T00:00Z",
    "2020-01-01", "\u{662}\u{660}\u{662}\u{660}-01-01T00:00:00Z", "", "Z",
  ]

  @Test(arguments: iso8601Texts)
  func iso8601ReadsWhatFoundationReads(_ value: String) throws {
    let decoders = DecoderPair()
    DateStrategy.iso8601.configure(decoders)
    let json = "[\(try Self.quoted(value))]"
    let (ours, foundation) = decoders.decode([Date].self, from: json)
    if case .value = foundation {
      #expect(ours == foundation, "\(value)")
      // Bit for bit: `Date` equality compares the intervals as `Double`s.
      #expect(
        ours.success?.map(\.timeIntervalSinceReferenceDate.bitPattern)
          == foundation.success?.map(\.timeIntervalSinceReferenceDate.bitPattern))
    } else {
      // Documented difference: ours names the date's own path, Foundation the array's.
      #expect(ours == .error(CodingErrorShape("dataCorrupted", at: ["Index 0#0"])), "\(value)")
      #expect(foundation == .error(CodingErrorShape("dataCorrupted", at: [])), "\(value)")
    }
  }

  @Test func iso8601ReadsEveryOffsetAsFoundationDoes() throws {
    let decoders = DecoderPair()
    DateStrategy.iso8601.configure(decoders)
    for sign in ["+", "-"] {
      for hours in 0..<25 {
        for minutes in 0..<61 {
          let offset = sign + String(format: "%02d:%02d", hours, minutes)
          for text in ["2020-06-15T12:34:56\(offset)", "2020-06-15T12:34:56.25\(offset)"] {
            let (ours, foundation) = decoders.decode([Date].self, from: #"["\#(text)"]"#)
            #expect(ours.success == foundation.success, "\(text)")
          }
        }
      }
    }
  }

  @Test func iso8601ReadsRandomDatesAsFoundationDoesBitForBit() throws {
    var generator = SeededGenerator(seed: 8601)
    var texts: [String] = []
    for _ in 0..<4000 {
      // 1583-01-01 to 9999-12-31 UTC, then written with a random offset and fraction.
      let seconds = Int.random(in: -12_212_553_600...253_402_300_799, using: &generator)
      let offsetMinutes = Int.random(in: -1080...1080, using: &generator)
      let local = seconds + offsetMinutes * 60
      let days = Int((Double(local) / 86_400).rounded(.down))
      var text = Self.civil(daysSince1970: days)
      let secondOfDay = local - days * 86_400
      text += String(
        format: "T%02d:%02d:%02d", secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
      let fractionDigits = Int.random(in: 0...9, using: &generator)
      if fractionDigits > 0 {
        text +=
          "."
          + (0..<fractionDigits).map { _ in
            String(Int.random(in: 0...9, using: &generator))
          }.joined()
      }
      switch Int.random(in: 0..<4, using: &generator) {
      case 0: text += "Z"
      case 1:
        text += String(
          format: "%@%02d:%02d", offsetMinutes < 0 ? "-" : "+", abs(offsetMinutes) / 60,
          abs(offsetMinutes) % 60)
      case 2:
        text += String(
          format: "%@%02d%02d", offsetMinutes < 0 ? "-" : "+", abs(offsetMinutes) / 60,
          abs(offsetMinutes) % 60)
      default:
        text += String(format: "%@%02d", offsetMinutes < 0 ? "-" : "+", abs(offsetMinutes) / 60)
      }
      // Years before 1583 after the offset are Foundation's (Julian): out of the engine's range.
      if text.hasPrefix("1582") { continue }
      texts.append(text)
    }
    let decoders = DecoderPair()
    DateStrategy.iso8601.configure(decoders)
    let json = try JSONSerialization.data(withJSONObject: texts)
    let ours = try decoders.ours.decode([Date].self, from: json)
    let foundation = try decoders.foundation.decode([Date].self, from: json)
    let differences = zip(texts, zip(ours, foundation)).filter {
      $1.0.timeIntervalSinceReferenceDate.bitPattern
        != $1.1.timeIntervalSinceReferenceDate.bitPattern
    }
    #expect(differences.isEmpty, "first differences: \(differences.prefix(5))")
  }

  /// `YYYY-MM-DD` of a day counted from 1970-01-01, proleptic Gregorian.
  static func civil(daysSince1970 days: Int) -> String {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return String(format: "%04d-%02d-%02d", year, month, day)
  }

  @Test func iso8601WritesWhatFoundationWrites() {
    var generator = SeededGenerator(seed: 3339)
    var intervals: [Double] = (0..<3000).map { _ in
      Double.random(in: -15e9...260e9, using: &generator)
    }
    let wholes: [Double] = [
      0, -1, 1, -13_190_860_800, 252_423_993_600, -12_219_292_800, 31_536_000,
    ]
    for whole in wholes {
      intervals += [whole, whole.nextUp, whole.nextDown, whole - 1e-6, whole + 0.999_999]
    }
    intervals += [-0.5, 0.9999, 1e-300, -1e-300, 1e12, -1e12, 1e20, -1e20]
    var dates = intervals.map { Date(timeIntervalSinceReferenceDate: $0) }
    dates += [.distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: .nan)]
    dates += [Date(timeIntervalSinceReferenceDate: .infinity)]
    dates += [Date(timeIntervalSinceReferenceDate: -.infinity)]
    let encoders = EncoderPair()
    DateStrategy.iso8601.configure(encoders)
    encoders.expectSame(dates)
    encoders.expectSame(["date": Date(timeIntervalSince1970: 1_577_836_800.7)])
  }

  /// For `null` where a `Date` or `Data` is decoded, both throw `valueNotFound(Date)` /
  /// `valueNotFound(Data)` at the value's path before any strategy runs: a `.custom` closure is
  /// not called, so one that reads `null` can't turn it into a value. (Fixed: ours used to run
  /// the strategy on the `null`, and the error named the type the strategy read.)
  @Test
  func nullForADateOrDataThrowsBeforeTheStrategyAsInFoundation() {
    for strategy in DateStrategy.allCases {
      let decoders = DecoderPair()
      strategy.configure(decoders)
      decoders.expectSame(OneDate.self, from: #"{"date":null}"#)
      decoders.expectSame([Date].self, from: "[null]")
    }
    for strategy in DataStrategy.allCases {
      let decoders = DecoderPair()
      strategy.configure(decoders)
      decoders.expectSame(OneBlob.self, from: #"{"data":null}"#)
    }
    let decoders = DecoderPair()
    decoders.ours.dateDecodingStrategy = .custom(Self.distantPastForNull)
    decoders.foundation.dateDecodingStrategy = .custom(Self.distantPastForNull)
    #expect(
      decoders.expectSame(OneDate.self, from: #"{"date":null}"#)
        == .error(CodingErrorShape("valueNotFound(Date)", at: ["date"])))
  }

  /// A custom date strategy that reads `null` as `Date.distantPast`.
  @Sendable static func distantPastForNull(_ decoder: any Decoder) throws -> Date {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() { return .distantPast }
    return Date(timeIntervalSince1970: try container.decode(Double.self))
  }

  @Test func nullForAnOptionalDateOrDataIsNilWithEveryStrategy() {
    for strategy in DateStrategy.allCases {
      let decoders = DecoderPair()
      strategy.configure(decoders)
      #expect(decoders.expectSame([Date?].self, from: "[null]") == .value([nil]))
    }
    for strategy in DataStrategy.allCases {
      let decoders = DecoderPair()
      strategy.configure(decoders)
      #expect(decoders.expectSame([String: Data?].self, from: #"{"a":null}"#) == .value(["a": nil]))
    }
  }

  // MARK: - Data

  struct Blob: Codable, Equatable {
    var data: Data
    var list: [Data]
    var optional: Data?
    var empty: Data
  }

  static let blob = Blob(
    data: Data([0, 1, 2, 253, 254, 255]), list: [Data("hello".utf8), Data([0xFB, 0xFF])],
    optional: Data(repeating: 7, count: 100), empty: Data())

  enum DataStrategy: String, CaseIterable, Sendable {
    case base64, deferredToData, custom

    func configure(_ encoders: EncoderPair) {
      switch self {
      case .base64:
        encoders.ours.dataEncodingStrategy = .base64
        encoders.foundation.dataEncodingStrategy = .base64
      case .deferredToData:
        encoders.ours.dataEncodingStrategy = .deferredToData
        encoders.foundation.dataEncodingStrategy = .deferredToData
      case .custom:
        encoders.ours.dataEncodingStrategy = .custom(DataStrategy.encodeHex)
        encoders.foundation.dataEncodingStrategy = .custom(DataStrategy.encodeHex)
      }
    }

    func configure(_ decoders: DecoderPair) {
      switch self {
      case .base64:
        decoders.ours.dataDecodingStrategy = .base64
        decoders.foundation.dataDecodingStrategy = .base64
      case .deferredToData:
        decoders.ours.dataDecodingStrategy = .deferredToData
        decoders.foundation.dataDecodingStrategy = .deferredToData
      case .custom:
        decoders.ours.dataDecodingStrategy = .custom(DataStrategy.decodeHex)
        decoders.foundation.dataDecodingStrategy = .custom(DataStrategy.decodeHex)
      }
    }

    /// Writes the bytes as a hexadecimal string.
    @Sendable static func encodeHex(_ data: Data, _ encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(data.map { String($0, radix: 16) }.joined(separator: "-"))
    }

    /// Reads what ``encodeHex(_:_:)`` writes.
    @Sendable static func decodeHex(_ decoder: any Decoder) throws -> Data {
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      if text.isEmpty { return Data() }
      let bytes = text.split(separator: "-", omittingEmptySubsequences: false).map {
        UInt8($0, radix: 16)
      }
      guard bytes.allSatisfy({ $0 != nil }) else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "not hex")
      }
      return Data(bytes.compactMap { $0 })
    }
  }

  @Test(arguments: DataStrategy.allCases)
  func dataEncodesAndDecodesAsFoundationDoes(_ strategy: DataStrategy) throws {
    let encoders = EncoderPair()
    strategy.configure(encoders)
    let json = try #require(encoders.expectSame(Self.blob).success)
    let decoders = DecoderPair()
    strategy.configure(decoders)
    #expect(decoders.expectSame(Blob.self, from: json) == .value(Self.blob))
  }

  struct OneBlob: Codable, Equatable {
    var data: Data
  }

  static let dataErrorCases: [(DataStrategy, String)] = [
    (.base64, #""!!!!""#), (.base64, #""AAE""#), (.base64, #""AA==AA==""#), (.base64, "12"),
    (.base64, "[1,2]"), (.base64, #""""#), (.base64, #"" AAEC""#),
    (.deferredToData, #""AAEC""#), (.deferredToData, "[1,true]"),
    (.deferredToData, "[]"), (.custom, #""zz""#), (.custom, "5"), (.custom, #""a-b-c""#),
  ]

  @Test(arguments: dataErrorCases)
  func oddDataValuesGiveFoundationsValuesAndErrors(_ strategy: DataStrategy, value: String) {
    let decoders = DecoderPair()
    strategy.configure(decoders)
    decoders.expectSame(OneBlob.self, from: #"{"data":\#(value)}"#)
    decoders.expectSame([Data].self, from: "[\(value)]")
  }

  /// What a `.custom` strategy of ``aCustomStrategyThatWritesNothingWritesAnEmptyObject(_:)``
  /// does with its encoder.
  enum SilentStrategy: String, CaseIterable, Sendable {
    /// Nothing at all.
    case nothing
    /// Asks for a single value container and writes nothing through it.
    case singleValueContainerOnly

    @Sendable func encode(_ encoder: any Encoder) {
      switch self {
      case .nothing: break
      case .singleValueContainerOnly: _ = encoder.singleValueContainer()
      }
    }
  }

  /// A `.custom` date or data strategy that writes nothing gives an empty object, as in
  /// Foundation, also for a top-level value. (Fixed: ours threw "Top-level Date did not encode
  /// any values." for a top-level value.)
  @Test(arguments: SilentStrategy.allCases)
  func aCustomStrategyThatWritesNothingWritesAnEmptyObject(_ strategy: SilentStrategy) {
    for formatting: JSONEncoder.OutputFormatting in [[.sortedKeys], [.sortedKeys, .prettyPrinted]] {
      let encoders = EncoderPair(formatting)
      encoders.ours.dateEncodingStrategy = .custom { _, encoder in strategy.encode(encoder) }
      encoders.foundation.dateEncodingStrategy = .custom { _, encoder in strategy.encode(encoder) }
      encoders.ours.dataEncodingStrategy = .custom { _, encoder in strategy.encode(encoder) }
      encoders.foundation.dataEncodingStrategy = .custom { _, encoder in strategy.encode(encoder) }
      let date = Date(timeIntervalSince1970: 1)
      let pretty = formatting.contains(.prettyPrinted)
      #expect(encoders.expectSame(date) == .value(pretty ? "{\n\n}" : "{}"))
      #expect(encoders.expectSame(Data([1, 2])) == .value(pretty ? "{\n\n}" : "{}"))
      encoders.expectSame([date])
      encoders.expectSame(["d": Data()])
      if !pretty {
        #expect(encoders.expectSame([date]) == .value("[{}]"))
        #expect(encoders.expectSame(["d": Data()]) == .value(#"{"d":{}}"#))
      }
    }
  }

  // MARK: - Key strategies

  /// The member names an object's keyed container lists.
  struct MemberNames: Decodable, Equatable {
    var names: [String]

    init(names: [String]) {
      self.names = names
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      names = container.allKeys.map(\.stringValue)
      // Each listed key finds its member.
      for key in container.allKeys {
        _ = try container.decode(Int.self, forKey: key)
      }
    }
  }

  /// An object with one member named `name`.
  struct OneMember: Encodable {
    var name: String

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(1, forKey: AnyKey(stringValue: name))
    }
  }

  struct KeyCase: Sendable, CustomTestStringConvertible {
    var name: String
    /// What Foundation's `convertFromSnakeCase` makes of the name.
    var fromSnakeCase: String
    /// What Foundation's `convertToSnakeCase` makes of the name.
    var toSnakeCase: String

    init(_ name: String, from fromSnakeCase: String, to toSnakeCase: String) {
      self.name = name
      self.fromSnakeCase = fromSnakeCase
      self.toSnakeCase = toSnakeCase
    }

    var testDescription: String { name.debugDescription }
  }

  /// Names and what Foundation's key strategies make of them, both ways.
  static let keyCases: [KeyCase] = [
    .init("firstName", from: "firstName", to: "first_name"),
    .init("URLValue", from: "URLValue", to: "u_rl_value"),
    .init("myHTTPServer", from: "myHTTPServer", to: "my_http_server"),
    .init("myID", from: "myID", to: "my_id"),
    .init("HTTP", from: "HTTP", to: "h_ttp"),
    .init("_leading", from: "_leading", to: "_leading"),
    .init("trailing_", from: "trailing_", to: "trailing_"),
    .init("_first_name_", from: "_firstName_", to: "_first_name_"),
    .init("__a__b__", from: "__aB__", to: "__a__b__"),
    .init("a_b_c", from: "aBC", to: "a_b_c"),
    .init("a__b", from: "aB", to: "a__b"),
    .init("already_snake", from: "alreadySnake", to: "already_snake"),
    .init("first_name", from: "firstName", to: "first_name"),
    .init("ALLCAPS", from: "ALLCAPS", to: "a_llcaps"),
    .init("ALL_CAPS", from: "allCaps", to: "a_ll_caps"),
    .init("HTTPServer", from: "HTTPServer", to: "h_ttp_server"),
    .init("aURLb", from: "aURLb", to: "a_ur_lb"),
    .init("a_B", from: "aB", to: "a__b"),
    .init("URL_value", from: "urlValue", to: "u_rl__value"),
    .init("A_B", from: "aB", to: "a__b"),
    .init("a_bC", from: "aBc", to: "a_b_c"),
    .init("x1y2", from: "x1y2", to: "x1y2"),
    .init("x_1_y", from: "x1Y", to: "x_1_y"),
    .init("a1B2", from: "a1B2", to: "a1_b2"),
    .init("isHTML5Doc", from: "isHTML5Doc", to: "is_html5_doc"),
    .init("iOS", from: "iOS", to: "i_os"),
    .init("", from: "", to: ""),
    .init("_", from: "_", to: "_"),
    .init("__", from: "__", to: "__"),
    .init("caf\u{E9}_bar", from: "caf\u{E9}Bar", to: "caf\u{E9}_bar"),
    .init("a_\u{E9}", from: "a\u{C9}", to: "a_\u{E9}"),
    .init("\u{C9}COLE_NAME", from: "\u{E9}coleName", to: "\u{E9}_cole_name"),
    .init("a\u{C9}cole", from: "a\u{C9}cole", to: "a_\u{E9}cole"),
    .init("stra\u{DF}e_name", from: "stra\u{DF}eName", to: "stra\u{DF}e_name"),
    .init(
      "\u{3B1}\u{3B2}_\u{3B3}\u{3B4}", from: "\u{3B1}\u{3B2}\u{393}\u{3B4}",
      to: "\u{3B1}\u{3B2}_\u{3B3}\u{3B4}"),
    .init("a\u{3A3}b", from: "a\u{3A3}b", to: "a_\u{3C3}b"),
    .init("\u{1F600}_x", from: "\u{1F600}X", to: "\u{1F600}_x"),
    .init("a_\u{149}x", from: "a\u{2BC}Nx", to: "a_\u{149}x"),
  ]

  @Test(arguments: keyCases)
  func convertFromSnakeCaseMatchesFoundation(_ row: KeyCase) throws {
    let decoders = DecoderPair()
    decoders.ours.keyDecodingStrategy = .convertFromSnakeCase
    decoders.foundation.keyDecodingStrategy = .convertFromSnakeCase
    let json = "{\(try Self.quoted(row.name)):1}"
    #expect(
      decoders.expectSame(MemberNames.self, from: json) == .value(.init(names: [row.fromSnakeCase]))
    )
  }

  @Test(arguments: keyCases)
  func convertToSnakeCaseMatchesFoundation(_ row: KeyCase) throws {
    let encoders = EncoderPair()
    encoders.ours.keyEncodingStrategy = .convertToSnakeCase
    encoders.foundation.keyEncodingStrategy = .convertToSnakeCase
    #expect(
      encoders.expectSame(OneMember(name: row.name))
        == .value("{\(try Self.quoted(row.toSnakeCase)):1}"))
  }

  /// `convertFromSnakeCase` capitalizes each word after the first as `String.capitalized`
  /// does, which titlecases the first *letter* of every run of letters: digits don't start a
  /// word but `-` and `.` end one, `ß`, `ǆ`, `ﬁ` map to their titlecase forms and `ⅰ` (a letter
  /// number) is left alone: `a_1b` → `a1B`, `address_2nd_line` → `address2NdLine`,
  /// `a_b-c` → `aB-C`, `a-b_c-d` → `a-bC-D`, `a_b.c` → `aB.C`, `a_ßb` → `aSsb`, `a_ǆx` → `aǅx`,
  /// `a_ﬁx` → `aFix`, `a_ⅰ` → `aⅰ`. (Fixed: ours used to uppercase the first character and
  /// lowercase the rest.)
  static let capitalizationCases: [KeyCase] = [
    .init("a_1b", from: "a1B", to: "a_1b"),
    .init("address_2nd_line", from: "address2NdLine", to: "address_2nd_line"),
    .init("a_b-c", from: "aB-C", to: "a_b-c"),
    .init("a-b_c-d", from: "a-bC-D", to: "a-b_c-d"),
    .init("a_b.c", from: "aB.C", to: "a_b.c"),
    .init("a_\u{DF}b", from: "aSsb", to: "a_\u{DF}b"),
    .init("a_\u{1C6}x", from: "a\u{1C5}x", to: "a_\u{1C6}x"),
    .init("a_\u{FB01}x", from: "aFix", to: "a_\u{FB01}x"),
    .init("a_\u{2170}", from: "a\u{2170}", to: "a_\u{2170}"),
  ]

  @Test(arguments: capitalizationCases)
  func convertFromSnakeCaseCapitalizesWordsAsFoundationDoes(_ row: KeyCase) throws {
    try convertFromSnakeCaseMatchesFoundation(row)
  }

  @Test(arguments: capitalizationCases)
  func convertToSnakeCaseOfTheCapitalizationCases(_ row: KeyCase) throws {
    try convertToSnakeCaseMatchesFoundation(row)
  }

  /// `convertToSnakeCase` finds word starts with Foundation's `uppercaseLetters` (general
  /// categories Lu and Lt), not `Character.isUppercase`: `Ⅰ` (U+2160, a letter number that is
  /// uppercase) starts no word, `aⅠb` → `aⅰb`; `ǅ` (U+01C5, titlecase) does, `aǅb` → `a_ǆb`.
  /// (Fixed: ours used to give `a_ⅰb` and `aǆb`.)
  static let uppercaseCases: [KeyCase] = [
    .init("a\u{2160}b", from: "a\u{2160}b", to: "a\u{2170}b"),
    .init("a\u{1C5}b", from: "a\u{1C5}b", to: "a_\u{1C6}b"),
  ]

  @Test(arguments: uppercaseCases)
  func convertToSnakeCaseFindsUppercaseLettersAsFoundationDoes(_ row: KeyCase) throws {
    try convertToSnakeCaseMatchesFoundation(row)
  }

  @Test(arguments: uppercaseCases)
  func convertFromSnakeCaseOfTheUppercaseCases(_ row: KeyCase) throws {
    try convertFromSnakeCaseMatchesFoundation(row)
  }

  /// A JSON string literal for `text`.
  static func quoted(_ text: String) throws -> String {
    String(
      decoding: try JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed),
      as: UTF8.self)
  }

  struct Profile: Codable, Equatable {
    var firstName: String
    var homeAddress: Address
    var previousAddresses: [Address]
    var labels: [String: Address]
    var counts: [Int: Int]
  }

  struct Address: Codable, Equatable {
    var streetName: String
    var zipCode: Int?
  }

  static let profile = Profile(
    firstName: "Ann", homeAddress: Address(streetName: "Main", zipCode: 12_345),
    previousAddresses: [Address(streetName: "Old", zipCode: nil)],
    labels: [
      "workPlace": Address(streetName: "Office", zipCode: 1),
      "home_base": Address(streetName: "Home"),
    ],
    counts: [1: 10, -2: 20])

  @Test func snakeCaseStrategiesConvertMembersButNotDictionaryKeys() throws {
    let encoders = EncoderPair()
    encoders.ours.keyEncodingStrategy = .convertToSnakeCase
    encoders.foundation.keyEncodingStrategy = .convertToSnakeCase
    let json = try #require(encoders.expectSame(Self.profile).success)
    #expect(json.contains(#""workPlace":{"street_name":"Office","zip_code":1}"#))
    let decoders = DecoderPair()
    decoders.ours.keyDecodingStrategy = .convertFromSnakeCase
    decoders.foundation.keyDecodingStrategy = .convertFromSnakeCase
    #expect(decoders.expectSame(Profile.self, from: json) == .value(Self.profile))
    // String-keyed dictionaries keep their keys whatever the strategy.
    #expect(
      decoders.expectSame([String: Address].self, from: #"{"first_name":{"street_name":"A"}}"#)
        == .value(["first_name": Address(streetName: "A")]))
    encoders.expectSame(["firstName": ["innerName": 1]])
  }

  /// Writes `aB` and `a_b`, which `convertToSnakeCase` makes one name.
  struct Colliding: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(1, forKey: "aB")
      try container.encode(2, forKey: "a_b")
      try container.encode(3, forKey: "c")
    }
  }

  @Test func namesThatConvertToOneNameAreWrittenAsFoundationWritesThem() {
    let encoders = EncoderPair()
    encoders.ours.keyEncodingStrategy = .convertToSnakeCase
    encoders.foundation.keyEncodingStrategy = .convertToSnakeCase
    #expect(encoders.expectSame(Colliding()) == .value(#"{"a_b":2,"c":3}"#))
    let custom = EncoderPair()
    custom.ours.keyEncodingStrategy = .custom { _ in AnyKey(stringValue: "same") }
    custom.foundation.keyEncodingStrategy = .custom { _ in AnyKey(stringValue: "same") }
    custom.expectSame([Colliding()])
  }

  /// A Keyedable model that maps `aB` and `a_b`, which `convertToSnakeCase` makes one name, and
  /// members of nested objects on key paths.
  struct CollidingPaths: Codable, Keyedable {
    var first = 1
    var second = 2
    var name = "Ann"
    var city = "Oslo"

    init() {}

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try first <-> map["aB"]
      try second <-> map["a_b"]
      try name <-> map["userInfo.firstName"]
      try city <-> map["userInfo.homeAddress.cityName"]
    }
  }

  @Test func keyedableKeysThatConvertToOneNameAreWrittenOnceAsFoundationWritesThem() {
    let encoders = EncoderPair()
    encoders.ours.keyEncodingStrategy = .convertToSnakeCase
    encoders.foundation.keyEncodingStrategy = .convertToSnakeCase
    #expect(
      encoders.expectSame(CollidingPaths())
        == .value(
          #"{"a_b":2,"user_info":{"first_name":"Ann","home_address":{"city_name":"Oslo"}}}"#))
    #expect(
      encoders.expectSame([CollidingPaths()])
        == .value(
          #"[{"a_b":2,"user_info":{"first_name":"Ann","home_address":{"city_name":"Oslo"}}}]"#))
    // Lowercased without underscores: `aB` and `a_b` are `ab`.
    let custom = EncoderPair()
    let squash: @Sendable ([any CodingKey]) -> any CodingKey = { path in
      AnyKey(stringValue: String((path.last?.stringValue ?? "").lowercased().filter { $0 != "_" }))
    }
    custom.ours.keyEncodingStrategy = .custom(squash)
    custom.foundation.keyEncodingStrategy = .custom(squash)
    #expect(
      custom.expectSame(CollidingPaths())
        == .value(#"{"ab":2,"userinfo":{"firstname":"Ann","homeaddress":{"cityname":"Oslo"}}}"#))
  }

  /// Records the coding paths a custom key strategy is given.
  final class PathLog: @unchecked Sendable {
    private let lock = NSLock()
    private var paths = Set<[String]>()

    func record(_ path: [any CodingKey]) {
      lock.lock()
      defer { lock.unlock() }
      paths.insert(path.map(CodingErrorShape.describe))
    }

    var recorded: Set<[String]> {
      lock.lock()
      defer { lock.unlock() }
      return paths
    }
  }

  @Test func customKeyStrategiesConvertAsFoundationsAndAreGivenTheSamePaths() throws {
    let ourEncodeLog = PathLog()
    let foundationEncodeLog = PathLog()
    let encoders = EncoderPair()
    encoders.ours.keyEncodingStrategy = .custom { path in
      ourEncodeLog.record(path)
      return AnyKey(stringValue: "k_" + (path.last?.stringValue ?? ""))
    }
    encoders.foundation.keyEncodingStrategy = .custom { path in
      foundationEncodeLog.record(path)
      return AnyKey(stringValue: "k_" + (path.last?.stringValue ?? ""))
    }
    let json = try #require(encoders.expectSame(Self.profile).success)
    // The closure is given the keys as the type wrote them. Below a string-keyed dictionary,
    // Foundation's paths leave out the dictionary's own key: wrong, so not followed.
    let underLabels: Set<[String]> = [
      ["labels", "workPlace", "streetName"], ["labels", "workPlace", "zipCode"],
      ["labels", "home_base", "streetName"],
    ]
    #expect(ourEncodeLog.recorded.isSuperset(of: underLabels))
    #expect(
      ourEncodeLog.recorded.subtracting(underLabels)
        == foundationEncodeLog.recorded.subtracting(underLabels.map { Array($0.dropFirst()) }))
    #expect(ourEncodeLog.recorded.contains(["previousAddresses", "Index 0#0", "streetName"]))

    let ourDecodeLog = PathLog()
    let foundationDecodeLog = PathLog()
    let decoders = DecoderPair()
    decoders.ours.keyDecodingStrategy = .custom { path in
      ourDecodeLog.record(path)
      return AnyKey(stringValue: String(path.last?.stringValue.dropFirst(2) ?? ""))
    }
    decoders.foundation.keyDecodingStrategy = .custom { path in
      foundationDecodeLog.record(path)
      return AnyKey(stringValue: String(path.last?.stringValue.dropFirst(2) ?? ""))
    }
    #expect(decoders.expectSame(Profile.self, from: json) == .value(Self.profile))
    #expect(ourDecodeLog.recorded == foundationDecodeLog.recorded)
  }

  @Test func customKeyStrategiesAreGivenTheWholePathOfAKeyedableMember() throws {
    let ourLog = PathLog()
    let foundationLog = PathLog()
    let encoders = EncoderPair()
    encoders.ours.keyEncodingStrategy = .custom { path in
      ourLog.record(path)
      return AnyKey(stringValue: "k_" + (path.last?.stringValue ?? ""))
    }
    encoders.foundation.keyEncodingStrategy = .custom { path in
      foundationLog.record(path)
      return AnyKey(stringValue: "k_" + (path.last?.stringValue ?? ""))
    }
    let json = try #require(encoders.expectSame([CollidingPaths()]).success)
    #expect(
      json
        == #"[{"k_aB":1,"k_a_b":2,"k_userInfo":{"k_firstName":"Ann","#
        + #""k_homeAddress":{"k_cityName":"Oslo"}}}]"#)
    let expected: Set<[String]> = [
      ["Index 0#0", "aB"], ["Index 0#0", "a_b"], ["Index 0#0", "userInfo"],
      ["Index 0#0", "userInfo", "firstName"], ["Index 0#0", "userInfo", "homeAddress"],
      ["Index 0#0", "userInfo", "homeAddress", "cityName"],
    ]
    #expect(ourLog.recorded == expected)
    #expect(foundationLog.recorded == expected)
  }

  // MARK: - Non-conforming floats

  struct Floats: Codable, Equatable {
    var double: Double
    var float: Float
    var doubles: [Double]
    var floats: [String: Float]
  }

  static let nonFinite = Floats(
    double: .infinity, float: -.infinity, doubles: [1.5, -.infinity, .nan, .infinity, -0.0],
    floats: ["nan": .nan, "one": 1])

  @Test func nonFiniteNumbersThrowAtTheirPathsAsInFoundation() {
    let encoders = EncoderPair()
    #expect(
      encoders.expectSame(Self.nonFinite)
        == .error(CodingErrorShape("invalidValue", at: ["double"])))
    encoders.expectSame(
      Floats(double: 1, float: 1, doubles: [1, 2, .nan], floats: [:]))
    encoders.expectSame(Floats(double: 1, float: 1, doubles: [], floats: ["x": .infinity]))
    encoders.expectSame(Floats(double: 1, float: .nan, doubles: [], floats: [:]))
    encoders.expectSame(Double.nan)
    encoders.expectSame([[Float.infinity]])
  }

  @Test func nonFiniteNumbersConvertToAndFromStringsAsInFoundation() throws {
    let encoders = EncoderPair()
    encoders.ours.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
    encoders.foundation.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
    let json = try #require(encoders.expectSame(Self.nonFinite).success)
    #expect(json.contains(#""doubles":[1.5,"-Inf","NaN","+Inf",-0]"#))

    let decoders = DecoderPair()
    decoders.ours.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
    decoders.foundation.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
    let (ours, foundation) = decoders.decode([Double].self, from: #"["+Inf","-Inf","NaN",2.5]"#)
    #expect(ours.success?.map(\.description) == ["inf", "-inf", "nan", "2.5"])
    #expect(foundation.success?.map(\.description) == ["inf", "-inf", "nan", "2.5"])
    let (ourFloats, foundationFloats) = decoders.decode([Float].self, from: #"["+Inf","NaN"]"#)
    #expect(ourFloats.success?.map(\.description) == ["inf", "nan"])
    #expect(foundationFloats.success?.map(\.description) == ["inf", "nan"])
    for json in [#"["inf"]"#, #"["+inf"]"#, #"[" NaN"]"#, #"["2.5"]"#, #"[null]"#, #"[true]"#] {
      decoders.expectSame([Double].self, from: json)
      decoders.expectSame([Float].self, from: json)
    }
    for json in [#"["+Inf"]"#, #"["NaN"]"#, #"["1"]"#] {
      DecoderPair().expectSame([Double].self, from: json)
    }
  }

  // MARK: - Output formatting

  struct Document: Codable {
    var name = "a/b\\c"
    var empty: [Int] = []
    var emptyObject: [String: Int] = [:]
    var nested = Nested()
    var list = [Nested(), Nested(flag: false, value: -1.25, url: nil)]
    var matrix = [[1, 2], [], [3]]
    var optional: Int?
    var text: [String: String] = [
      "zeta": "z", "Alpha": "A", "alpha": "a", "10": "ten", "9": "nine",
    ]
  }

  struct Nested: Codable {
    var flag = true
    var value = 0.5
    var url = URL(string: "https://example.com/a/b?c=d&e=f#g")
  }

  static let formattings: [JSONEncoder.OutputFormatting] = [
    [], [.sortedKeys], [.prettyPrinted], [.withoutEscapingSlashes],
    [.sortedKeys, .prettyPrinted], [.sortedKeys, .withoutEscapingSlashes],
    [.prettyPrinted, .withoutEscapingSlashes],
    [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes],
  ]

  @Test(arguments: formattings)
  func outputFormatsAsFoundation(_ formatting: JSONEncoder.OutputFormatting) throws {
    let encoders = EncoderPair(formatting)
    let (ours, foundation) = encoders.encode(Document())
    let ourJSON = try #require(ours.success)
    let foundationJSON = try #require(foundation.success)
    if formatting.contains(.sortedKeys) {
      #expect(ourJSON == foundationJSON)
    } else {
      // Member order differs (documented); the content doesn't.
      #expect(try canonicalJSON(ourJSON) == canonicalJSON(foundationJSON))
      #expect(ourJSON.count == foundationJSON.count)
    }
    // With at most one member per object the order can't differ: the bytes are the same.
    let single: [[String: [String: [TestJSON]]]] = [
      ["a/b": ["c": [1, "d/e", [], [:], ["f": [nil, true]]]]], [:], ["g": [:]],
    ]
    encoders.expectSame(single)
    for fragment: TestJSON in [[], [:], 1.5, "x/y", nil, [[]], [[:]]] {
      encoders.expectSame(fragment)
    }
  }

  /// A Keyedable model whose key paths need escaping: KeyedJSONEncoder writes plan names from
  /// bytes prepared once per plan, which must follow the output format like any other name.
  struct EscapedNames: Codable, Keyedable {
    var slash = 1
    var nested = "x"
    var quoted = true
    var accented = 2.5
    var optional: Int? = 3

    init() {}

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try slash <-> map["a/b"]
      try nested <-> map["outer/x.in\"ner"]
      try quoted <-> map["\"q\""]
      try accented <-> map["caf\u{E9}.t\u{1F600}"]
      try optional <-> map["long name with/slash and more than sixteen bytes"]
    }
  }

  @Test(arguments: formattings)
  func keyedableNamesFollowTheOutputFormat(_ formatting: JSONEncoder.OutputFormatting) throws {
    let encoders = EncoderPair(formatting)
    // The first encode records the plan, the later ones follow it.
    for _ in 0..<3 {
      let (ours, foundation) = encoders.encode([EscapedNames(), EscapedNames()])
      let ourJSON = try #require(ours.success)
      let foundationJSON = try #require(foundation.success)
      if formatting.contains(.sortedKeys) {
        #expect(ourJSON == foundationJSON)
      } else {
        #expect(try canonicalJSON(ourJSON) == canonicalJSON(foundationJSON))
        #expect(ourJSON.count == foundationJSON.count)
      }
    }
    if formatting == [] {
      let json = try encoders.ours.encode(EscapedNames())
      #expect(
        String(decoding: json, as: UTF8.self)
          == #"{"a\/b":1,"outer\/x":{"in\"ner":"x"},"\"q\"":true,"#
          + #""caf\#u{E9}":{"t\#u{1F600}":2.5},"long name with\/slash and more than sixteen bytes":3}"#
      )
    }
  }

  struct Ordered: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(1, forKey: "zebra")
      try container.encode(2, forKey: "apple")
      var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: "mango")
      try nested.encode(3, forKey: "y")
      try nested.encode(4, forKey: "b")
      try container.encode(5, forKey: "banana")
    }
  }

  @Test func withoutSortedKeysMembersComeInEncodingOrder() throws {
    // Documented difference: Foundation writes them in its dictionaries' hash order.
    let json = String(decoding: try KeyedJSONEncoder().encode(Ordered()), as: UTF8.self)
    #expect(json == #"{"zebra":1,"apple":2,"mango":{"y":3,"b":4},"banana":5}"#)
    EncoderPair().expectSame(Ordered())
  }

  /// `.sortedKeys` orders members by the names' UTF-8 bytes (so by their Unicode scalars), as
  /// Foundation does, not by `String` comparison (canonical equivalence, so by NFC): a name
  /// that is not in NFC sorts by its own scalars. `["e\u{301}x", "~", "\u{E9}"]` (decomposed
  /// `éx`, tilde, precomposed `é`) is Foundation's order. (Fixed: ours used to give
  /// `["~", "\u{E9}", "e\u{301}x"]`.)
  @Test
  func sortedKeysOrdersNamesByTheirScalarsAsFoundationDoes() {
    EncoderPair().expectSame(["e\u{301}x": 1, "~": 2, "\u{E9}": 3])
    EncoderPair([.sortedKeys, .prettyPrinted]).expectSame(["e\u{301}x": 1, "~": 2, "\u{E9}": 3])
    // Names with escapes sort by what they stand for, not by their escapes.
    let escaped = ["a\"", "a!", "a/", "a.", "a\\", "a[", "a\u{1F}", "a\n", "a ", "a\u{7F}"]
    let dictionary = Dictionary(uniqueKeysWithValues: escaped.enumerated().map { ($1, $0) })
    EncoderPair().expectSame(dictionary)
    EncoderPair([.sortedKeys, .withoutEscapingSlashes]).expectSame(dictionary)
    EncoderPair([.sortedKeys, .prettyPrinted]).expectSame(dictionary)
  }

  @Test func sortedKeysOrdersNamesAsFoundationDoes() {
    // Names in NFC: numbers as text, case, punctuation, non-ASCII, the empty name.
    let names = [
      "a10", "a2", "B", "a", "_", "\u{E9}", "e", "Z", "aa", "a_b", "\u{1F600}", "~", "A", "b",
      "", "ab", "a b", "\u{FF21}", "1", "10", "9", "-1", "\u{10000}", "\u{FFFF}", "\u{7F}",
      "\u{0}", "\u{1F}", "\"", "\\", "/",
    ]
    let dictionary = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    EncoderPair().expectSame(dictionary)
    EncoderPair([.sortedKeys, .prettyPrinted]).expectSame(dictionary)
    EncoderPair([.sortedKeys, .withoutEscapingSlashes]).expectSame(dictionary)
    EncoderPair().expectSame([3: "c", -1: "a", 10: "b", 2: "d"])
  }

  /// An object whose members are written in the order of `names`, each with its position, and
  /// with `nested` objects in an array member after them.
  struct Written: Encodable {
    var names: [String]
    var nested: [Written] = []

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      for (position, name) in names.enumerated() {
        try container.encode(position, forKey: AnyKey(stringValue: name))
      }
      if !nested.isEmpty {
        try container.encode(nested, forKey: "nested")
      }
    }
  }

  /// Objects at one depth take the order the last one took when each name in it comes before
  /// the next, and are sorted otherwise: the same names written in another order, as many
  /// other names, more or fewer, escaped names, and objects nested at other depths.
  @Test(arguments: [JSONEncoder.OutputFormatting.sortedKeys, [.sortedKeys, .prettyPrinted]])
  func objectsOfAnArrayAreSortedWhateverTheObjectBefore(
    _ formatting: JSONEncoder.OutputFormatting
  ) {
    let names = ["zeta", "alpha", "mid", "beta"]
    let objects = [
      Written(names: names), Written(names: names), Written(names: names.reversed()),
      Written(names: ["d", "c", "b", "a"]), Written(names: ["zeta", "alpha", "mid"]),
      Written(names: names + ["aa"]), Written(names: ["a\"", "a!", "a\\", "a"]),
      Written(names: ["a!", "a\"", "a", "a\\"]), Written(names: names),
      Written(
        names: names, nested: [Written(names: names), Written(names: ["y", "x", "w", "v"])]),
      Written(names: ["q", "p", "o", "n"], nested: [Written(names: names.reversed())]),
    ]
    EncoderPair(formatting).expectSame(objects)
  }

  // MARK: - String escaping

  static let specialStrings: [String] = [
    String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }),
    "\"quoted\" and \\backslash\\ and /slash/ and \u{7F}",
    "line\u{2028}separator\u{2029}paragraph",
    "emoji \u{1F600}\u{1F1EB}\u{1F1F7} \u{1F468}\u{200D}\u{1F469}",
    "non-ASCII: \u{E9}\u{E8}\u{FC} \u{4E2D}\u{6587} \u{5D0}\u{5D1} e\u{301}",
    "\u{FEFF}bom \u{FFFD} \u{FFFF} \u{10FFFF}", "", " ", "</script>", "http://example.com/a/b",
  ]

  @Test(arguments: formattings.filter { $0.contains(.sortedKeys) })
  func stringsAndNamesEscapeAsFoundationDoes(_ formatting: JSONEncoder.OutputFormatting) throws {
    let encoders = EncoderPair(formatting)
    encoders.expectSame(Self.specialStrings)
    let byName = Dictionary(uniqueKeysWithValues: Self.specialStrings.map { ($0, $0) })
    encoders.expectSame(byName)
    let json = try encoders.ours.encode(byName)
    DecoderPair().expectSame([String: String].self, from: String(decoding: json, as: UTF8.self))
  }

  @Test func everyEscapeAtEveryPositionOfShortAndLongStrings() {
    let encoders = EncoderPair([.sortedKeys])
    let slashes = EncoderPair([.sortedKeys, .withoutEscapingSlashes])
    var strings: [String] = []
    for special in ["\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "\u{7F}", "\u{E9}", "\u{1F600}"] {
      for length in [1, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 47, 48, 49] {
        for position in 0..<length {
          strings.append(
            String(repeating: "a", count: position) + special
              + String(repeating: "b", count: length - position - 1))
        }
      }
    }
    encoders.expectSame(strings)
    slashes.expectSame(strings)
  }

  @Test func escapedInputDecodesAsFoundationDecodesIt() {
    let pair = DecoderPair()
    pair.expectSame(
      [String].self,
      from:
        #"["\u0041\u00e9\ud83d\ude00\/\b\f\n\r\t\"\\", "\u0000", "\uFFFF", "\u00E9", "e\u0301", "\uDBFF\uDFFF"]"#
    )
    pair.expectSame([String: Int].self, from: #"{"\u0061":1,"\/":2,"\u00e9":3}"#)
    pair.expectSame(TestJSON.self, from: #"{"\u0061":1,"b\n":2,"\ud83d\ude00":3,"\u00e9":4}"#)
  }
}
