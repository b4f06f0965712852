import Foundation
import KeyedCodable
import Testing

/// Dates per mapping: each date transform reads and writes one format, whatever date strategy
/// the coder has, so one model mixes them; round trips are exact to the format's precision.
///
/// The instant most tests use is 2024-02-29T12:30:05Z, a Thursday: 1 709 209 805 seconds since
/// 1970 (computed independently with Python's `datetime`).
@Suite("Values: date transforms", .bothCoders)
struct DateTransformTests {
  /// 2024-02-29T12:30:05Z.
  static let leapDay = instant(1_709_209_805)

  // MARK: - One model, every format

  struct Timeline: Codable, Keyedable {
    var iso = Date(timeIntervalSince1970: 0)
    var isoMillis = Date(timeIntervalSince1970: 0)
    var rfc3339 = Date(timeIntervalSince1970: 0)
    var rfc2822 = Date(timeIntervalSince1970: 0)
    var seconds = Date(timeIntervalSince1970: 0)
    var milliseconds = Date(timeIntervalSince1970: 0)
    var day = Date(timeIntervalSince1970: 0)
    var paris = Date(timeIntervalSince1970: 0)
    var custom = Date(timeIntervalSince1970: 0)
    var plain = Date(timeIntervalSince1970: 0)

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try iso <-> map["iso"].using(.iso8601)
      try isoMillis <-> map["isoMillis"].using(.iso8601(fractionalDigits: 3))
      try rfc3339 <-> map["rfc3339"].using(.rfc3339)
      try rfc2822 <-> map["rfc2822"].using(.rfc2822)
      try seconds <-> map["seconds"].using(.unixSeconds)
      try milliseconds <-> map["milliseconds"].using(.unixMilliseconds)
      try day <-> map["day"].using(.dateFormat("yyyy-MM-dd"))
      try paris
        <-> map["paris"].using(
          .dateFormat("dd/MM/yyyy HH:mm", timeZone: TimeZone(identifier: "Europe/Paris")))
      try custom
        <-> map["custom"].using(
          .date(
            // Without `@Sendable` the closures do not compile here (see the report).
            decode: { @Sendable (days: Int) in Date(timeIntervalSince1970: Double(days) * 86_400) },
            encode: { @Sendable in Int(($0.timeIntervalSince1970 / 86_400).rounded(.down)) }))
      try plain <-> map["plain"]
    }
  }

  /// Every format for the leap day, and `plain` as the coder's own strategy writes it.
  static func timelineJSON(plain: String) -> String {
    """
    {"iso": "2024-02-29T12:30:05Z", "isoMillis": "2024-02-29T12:30:05.250+01:00",
     "rfc3339": "2024-02-29 12:30:05z", "rfc2822": "Thu, 29 Feb 2024 12:30:05 +0000",
     "seconds": 1709209805, "milliseconds": 1709209805250, "day": "2024-02-29",
     "paris": "29/02/2024 13:30", "custom": 19782, "plain": \(plain)}
    """
  }

  static func plainJSON(_ strategy: CoderDateStrategy) -> String {
    switch strategy {
    case .deferredToDate: "730902605"
    case .secondsSince1970: "1709209805"
    case .millisecondsSince1970: "1709209805000"
    case .iso8601: #""2024-02-29T12:30:05Z""#
    }
  }

  @Test(arguments: CoderDateStrategy.allCases)
  func oneModelMixesEveryFormatWhateverTheCodersDateStrategy(strategy: CoderDateStrategy) throws {
    let timeline = try decode(
      Timeline.self, from: Self.timelineJSON(plain: Self.plainJSON(strategy)), dates: strategy)
    #expect(timeline.iso == Self.leapDay)
    #expect(timeline.isoMillis == instant(1_709_206_205, milliseconds: 250))
    #expect(timeline.rfc3339 == Self.leapDay)
    #expect(timeline.rfc2822 == Self.leapDay)
    #expect(timeline.seconds == Self.leapDay)
    #expect(timeline.milliseconds == instant(1_709_209_805, milliseconds: 250))
    #expect(timeline.day == instant(1_709_164_800))
    #expect(timeline.paris == instant(1_709_209_800))
    #expect(timeline.custom == instant(1_709_164_800))
    #expect(timeline.plain == Self.leapDay)
  }

  @Test(arguments: CoderDateStrategy.allCases)
  func oneModelWritesEveryFormatWhateverTheCodersDateStrategy(strategy: CoderDateStrategy) throws {
    let timeline = with(Timeline()) {
      $0.iso = Self.leapDay
      $0.isoMillis = instant(1_709_206_205, milliseconds: 250)
      $0.rfc3339 = Self.leapDay
      $0.rfc2822 = Self.leapDay
      $0.seconds = Self.leapDay
      $0.milliseconds = instant(1_709_209_805, milliseconds: 250)
      $0.day = instant(1_709_164_800)
      $0.paris = instant(1_709_209_800)
      $0.custom = instant(1_709_164_800)
      $0.plain = Self.leapDay
    }
    let expected = """
      {"iso": "2024-02-29T12:30:05Z", "isoMillis": "2024-02-29T11:30:05.250Z",
       "rfc3339": "2024-02-29T12:30:05Z", "rfc2822": "Thu, 29 Feb 2024 12:30:05 +0000",
       "seconds": 1709209805, "milliseconds": 1709209805250, "day": "2024-02-29",
       "paris": "29/02/2024 13:30", "custom": 19782, "plain": \(Self.plainJSON(strategy))}
      """
    #expect(try encodeJSON(timeline, dates: strategy) == (try canonicalJSON(expected)))
  }

  // MARK: - ISO 8601 and RFC 3339

  struct Stamp: Codable, Keyedable {
    var at = Date(timeIntervalSince1970: 0)
    var precise: Date?
    var rfc: Date?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try at <-> map["at"].using(.iso8601)
      try precise <-> map["precise"].using(.iso8601(fractionalDigits: 3))
      try rfc <-> map["rfc"].using(.rfc3339)
    }
  }

  @Test(arguments: [
    ("2024-02-29T12:30:05Z", 1_709_209_805, 0),
    ("2024-02-29T12:30:05.120Z", 1_709_209_805, 120),
    ("2024-02-29T12:30:05.1Z", 1_709_209_805, 100),
    ("2024-02-29T12:30:05+01:00", 1_709_206_205, 0),
    ("2024-02-29T12:30:05-05:30", 1_709_229_605, 0),
    ("2024-02-29T12:30:05+0530", 1_709_190_005, 0),
    ("2024-02-29T12:30:05+05", 1_709_191_805, 0),
    ("2024-02-29T12:30:05.999-00:00", 1_709_209_805, 999),
    ("1969-12-31T23:59:59.250Z", -1, 250),
  ])
  func iso8601ReadsFractionsAndOffsets(text: String, seconds: Int, milliseconds: Int) throws {
    let stamp = try decode(Stamp.self, from: #"{"at": "\#(text)"}"#)
    #expect(stamp.at == instant(seconds, milliseconds: milliseconds))
  }

  @Test func iso8601WritesUTCWithTheChosenFractionalDigits() throws {
    let stamp = with(Stamp()) {
      $0.at = Self.leapDay
      $0.precise = instant(1_709_209_805, milliseconds: 7)
      $0.rfc = instant(-1, milliseconds: 250)
    }
    try expectEncoded(
      stamp,
      #"{"at": "2024-02-29T12:30:05Z", "precise": "2024-02-29T12:30:05.007Z", "rfc": "1969-12-31T23:59:59Z"}"#
    )
  }

  @Test func iso8601RoundsToTheWrittenPrecision() throws {
    let stamp = with(Stamp()) {
      $0.at = Date(timeIntervalSince1970: 1_709_251_199.6)  // 2024-02-29T23:59:59.6Z
      $0.precise = Date(timeIntervalSince1970: 1_709_209_805.12351)
    }
    try expectEncoded(
      stamp, #"{"at": "2024-03-01T00:00:00Z", "precise": "2024-02-29T12:30:05.124Z"}"#)
  }

  @Test func fractionalDigitsAreClampedToZeroThroughNine() {
    #expect(ISO8601DateTransform(fractionalDigits: 12).fractionalDigits == 9)
    #expect(ISO8601DateTransform(fractionalDigits: -1).fractionalDigits == 0)
    #expect(RFC3339DateTransform(fractionalDigits: 3).fractionalDigits == 3)
  }

  @Test func rfc3339ReadsASpaceAndLowercaseLettersButOnlyColonOffsets() throws {
    for text in ["2024-02-29T12:30:05Z", "2024-02-29t12:30:05z", "2024-02-29 12:30:05Z"] {
      let stamp = try decode(
        Stamp.self, from: #"{"at": "2024-02-29T12:30:05Z", "rfc": "\#(text)"}"#)
      #expect(stamp.rfc == Self.leapDay, "\(text)")
    }
    expectError(
      "dataCorrupted", at: ["rfc"],
      message: #""2024-02-29T12:30:05+0100" is not an RFC 3339 date: expected ':' after the "#
        + "offset hour (at offset 22)."
    ) {
      try decode(
        Stamp.self, from: #"{"at": "2024-02-29T12:30:05Z", "rfc": "2024-02-29T12:30:05+0100"}"#)
    }
  }

  /// A text ISO 8601 must reject, the reason and the offset the message names.
  static let iso8601Rejections: [(String, String, Int)] = [
    ("", "the text is empty", 0),
    (" 2024-02-29T12:30:05Z", "whitespace before the date is not allowed", 0),
    ("2024-02-29T12:30:05Z ", "whitespace after the date is not allowed", 20),
    ("2016-12-31T23:59:60Z", "leap seconds (second 60) are not supported", 17),
    ("2024-13-01T00:00:00Z", "month 13 is out of range (01–12)", 5),
    ("2023-02-29T00:00:00Z", "February 29 does not exist in 2023", 8),
    ("2024-02-29T24:00:00Z", "hour 24 is out of range (00–23)", 11),
    ("2024-02-29T12:60:00Z", "minute 60 is out of range (00–59)", 14),
    ("2024-02-29T12:30:05+24:00", "offset hour 24 is out of range (00–23)", 20),
    (
      "٢٠٢٤-02-29T12:30:05Z",
      "non-ASCII digit '٢' (U+0662) in the year; only the ASCII digits 0–9 are allowed", 0
    ),
    ("2024-02-29", "expected 'T' between the date and the time, but the text ends", 10),
  ]

  @Test(arguments: iso8601Rejections)
  func iso8601RejectsOutOfRangeFieldsLeapSecondsAndOddTextAtThePath(
    text: String, reason: String, offset: Int
  ) throws {
    expectError(
      "dataCorrupted", at: ["at"],
      message: "\"\(text)\" is not an ISO 8601 date: \(reason) (at offset \(offset))."
    ) {
      try decode(Stamp.self, from: #"{"at": "\#(text)"}"#)
    }
  }

  @Test func aDateThatIsNotAStringIsATypeMismatch() throws {
    expectError("typeMismatch", at: ["at"]) { try decode(Stamp.self, from: #"{"at": 1709209805}"#) }
    expectError("valueNotFound", at: ["at"]) { try decode(Stamp.self, from: #"{"at": null}"#) }
    #expect(
      try decode(Stamp.self, from: #"{"at": "2024-02-29T12:30:05Z", "precise": null}"#).precise
        == nil)
  }

  // MARK: - RFC 2822

  struct Mail: Codable, Keyedable {
    var sent = Date(timeIntervalSince1970: 0)

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try sent <-> map["headers.date"].using(.rfc2822)
    }
  }

  @Test(arguments: [
    ("Thu, 29 Feb 2024 12:30:05 +0000", 1_709_209_805),
    ("29 Feb 2024 12:30:05 GMT", 1_709_209_805),
    ("thu, 29 feb 2024 12:30 UT", 1_709_209_800),
    ("Thu, 29 Feb 2024 04:30:05 PST", 1_709_209_805),
    ("Thu, 29 Feb 2024 07:30:05 EST", 1_709_209_805),
    ("Thu, 29 Feb 2024 13:30:05 +0100", 1_709_209_805),
    ("1 Mar 2024 00:00:00 Z", 1_709_251_200),
  ])
  func rfc2822ReadsDayNamesZoneNamesAndOptionalSeconds(text: String, seconds: Int) throws {
    let mail = try decode(Mail.self, from: #"{"headers": {"date": "\#(text)"}}"#)
    #expect(mail.sent == instant(seconds))
  }

  @Test func rfc2822WritesUTCWithTheDayName() throws {
    try expectEncoded(
      with(Mail()) { $0.sent = Self.leapDay },
      #"{"headers": {"date": "Thu, 29 Feb 2024 12:30:05 +0000"}}"#)
  }

  @Test func rfc2822RejectsAWrongDayNameACommentAndALeapSecondAtThePath() throws {
    expectError(
      "dataCorrupted", at: ["headers", "date"],
      message: #""Fri, 29 Feb 2024 12:30:05 +0000" is not an RFC 2822 date: day of the week Fri "#
        + "does not match 2024-02-29 (a Thursday) (at offset 0)."
    ) {
      try decode(Mail.self, from: #"{"headers": {"date": "Fri, 29 Feb 2024 12:30:05 +0000"}}"#)
    }
    expectError("dataCorrupted", at: ["headers", "date"]) {
      try decode(
        Mail.self, from: #"{"headers": {"date": "Thu, 29 Feb 2024 12:30:05 +0000 (UTC)"}}"#)
    }
    expectError(
      "dataCorrupted", at: ["headers", "date"],
      message: #""31 Dec 2016 23:59:60 +0000" is not an RFC 2822 date: leap seconds (second 60) "#
        + "are not supported (at offset 18)."
    ) {
      try decode(Mail.self, from: #"{"headers": {"date": "31 Dec 2016 23:59:60 +0000"}}"#)
    }
  }

  // MARK: - Unix time

  struct Epoch: Codable, Keyedable {
    var seconds = Date(timeIntervalSince1970: 0)
    var milliseconds = Date(timeIntervalSince1970: 0)

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try seconds <-> map["s"].using(.unixSeconds)
      try milliseconds <-> map["ms"].using(.unixMilliseconds)
    }
  }

  @Test func unixTimeReadsAnyFiniteNumberAndWritesSecondsAsTheyAreAndWholeMilliseconds() throws {
    let epoch = try decode(Epoch.self, from: #"{"s": 1709209805.25, "ms": 1709209805250.4}"#)
    #expect(epoch.seconds == Date(timeIntervalSince1970: 1_709_209_805.25))
    #expect(epoch.milliseconds == Date(timeIntervalSince1970: 1_709_209_805_250.4 / 1000))
    try expectEncoded(epoch, #"{"s": 1709209805.25, "ms": 1709209805250}"#)
    let negative = try decode(Epoch.self, from: #"{"s": -1.5, "ms": -1500}"#)
    #expect(negative.seconds == Date(timeIntervalSince1970: -1.5))
    #expect(negative.milliseconds == Date(timeIntervalSince1970: -1.5))
    try expectEncoded(negative, #"{"s": -1.5, "ms": -1500}"#)
  }

  /// What the Transforming Values article says of precision: milliseconds and ISO 8601 seconds
  /// are rounded to the nearest, not cut.
  @Test func millisecondsAndISO8601SecondsAreRoundedToTheNearest() throws {
    var epoch = Epoch()
    epoch.milliseconds = Date(timeIntervalSince1970: 1.0006)
    try expectEncoded(epoch, #"{"s": 0, "ms": 1001}"#)
    epoch.milliseconds = Date(timeIntervalSince1970: 1.0004)
    try expectEncoded(epoch, #"{"s": 0, "ms": 1000}"#)
    epoch.milliseconds = Date(timeIntervalSince1970: -1.0006)
    try expectEncoded(epoch, #"{"s": 0, "ms": -1001}"#)
    struct Stamp: Encodable, Keyedable {
      var at: Date
      mutating func map(map: KeyMap) throws { try at <-> map["at"].using(.iso8601) }
    }
    try expectEncoded(
      Stamp(at: Date(timeIntervalSince1970: 1_709_209_805.9)), #"{"at": "2024-02-29T12:30:06Z"}"#)
    try expectEncoded(
      Stamp(at: Date(timeIntervalSince1970: 1_709_209_805.4)), #"{"at": "2024-02-29T12:30:05Z"}"#)
  }

  @Test func unixTimeFromAStringIsATypeMismatch() throws {
    expectError("typeMismatch", at: ["s"]) {
      try decode(Epoch.self, from: #"{"s": "1709209805", "ms": 0}"#)
    }
  }

  // MARK: - Custom formats and closures

  struct Local: Codable, Keyedable {
    var day = Date(timeIntervalSince1970: 0)
    var tokyo = Date(timeIntervalSince1970: 0)
    var precise = Date(timeIntervalSince1970: 0)

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try day <-> map["day"].using(.dateFormat("EEE, d MMM yyyy"))
      try tokyo
        <-> map["tokyo"].using(
          .dateFormat("yyyy-MM-dd hh:mm a", timeZone: TimeZone(identifier: "Asia/Tokyo")))
      try precise <-> map["precise"].using(.dateFormat("yyyy-MM-dd'T'HH:mm:ss.SSSXXX"))
    }
  }

  @Test func aCustomFormatReadsAndWritesWithPOSIXRulesInItsTimeZone() throws {
    let json = """
      {"day": "Thu, 29 Feb 2024", "tokyo": "2024-02-29 09:30 PM",
       "precise": "2024-02-29T12:30:05.250Z"}
      """
    let local = try decode(Local.self, from: json)
    #expect(local.day == instant(1_709_164_800))
    #expect(local.tokyo == instant(1_709_209_800))
    #expect(local.precise == instant(1_709_209_805, milliseconds: 250))
    try expectEncoded(local, json)
  }

  @Test func aCustomFormatRejectsAnImpossibleDateAtThePath() throws {
    expectError(
      "dataCorrupted", at: ["day"],
      message: #""Fri, 30 Feb 2024" is not a date of the form "EEE, d MMM yyyy": February 30 "#
        + "does not exist in 2024 (at offset 5)."
    ) {
      try decode(Local.self, from: #"{"day": "Fri, 30 Feb 2024", "tokyo": "", "precise": ""}"#)
    }
  }

  @Test func anUnsupportedPatternFailsEveryDecodeAndEncodeNamingIt() throws {
    struct Quarterly: Codable, Keyedable {
      var at = Date(timeIntervalSince1970: 0)
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try at <-> map["at"].using(.dateFormat("Q yyyy"))
      }
    }
    let reason =
      #"The date format "Q yyyy" is invalid: pattern field 'Q' (quarter) is not supported at "#
      + "offset 0."
    expectError("dataCorrupted", at: ["at"], message: reason) {
      try decode(Quarterly.self, from: #"{"at": "1 2024"}"#)
    }
    expectError("invalidValue", at: ["at"], message: reason) { try encodeJSON(Quarterly()) }
  }

  @Test func aClosureTransformPassesItsErrorsOn() throws {
    struct Daily: Codable, Keyedable {
      var day = Date(timeIntervalSince1970: 0)
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try day
          <-> map["day"].using(
            .date(
              decode: { @Sendable (days: Int) in
                guard days >= 0 else {
                  throw ValueTransformError("Days before 1970 are not allowed.")
                }
                return Date(timeIntervalSince1970: Double(days) * 86_400)
              },
              encode: { @Sendable date in
                guard date.timeIntervalSince1970 >= 0 else {
                  throw ValueTransformError("Dates before 1970 are not allowed.")
                }
                return Int(date.timeIntervalSince1970 / 86_400)
              }))
      }
    }
    #expect(try decode(Daily.self, from: #"{"day": 2}"#).day == instant(172_800))
    expectError("dataCorrupted", at: ["day"], message: "Days before 1970 are not allowed.") {
      try decode(Daily.self, from: #"{"day": -2}"#)
    }
    expectError("invalidValue", at: ["day"], message: "Dates before 1970 are not allowed.") {
      try encodeJSON(with(Daily()) { $0.day = instant(-86_400) })
    }
  }

  // MARK: - Round trips

  struct Many: Codable, Keyedable {
    var iso: [Date] = []
    var isoMillis: [Date] = []
    var rfc2822: [Date] = []
    var unixMillis: [Date] = []
    var pattern: [Date] = []

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try iso <-> map["iso"].using(.array(.iso8601))
      try isoMillis <-> map["isoMillis"].using(.array(.iso8601(fractionalDigits: 3)))
      try rfc2822 <-> map["rfc2822"].using(.array(.rfc2822))
      try unixMillis <-> map["unixMillis"].using(.array(.unixMilliseconds))
      try pattern
        <-> map["pattern"].using(
          .array(
            .dateFormat("dd.MM.yyyy HH:mm:ss.SSS", timeZone: TimeZone(identifier: "Europe/Paris"))))
    }
  }

  /// Random instants in whole milliseconds from 1900 to 2100, reproducible from the seed.
  static func randomMilliseconds(count: Int, seed: UInt64) -> [Int] {
    var random = RoundTripPropertyTests.SplitMix64(seed: seed)
    return (0..<count).map { _ in
      Int.random(in: -2_208_988_800_000...4_102_444_799_999, using: &random)
    }
  }

  @Test func roundTripsAreExactToEachFormatsPrecision() throws {
    let milliseconds = Self.randomMilliseconds(count: 1_000, seed: 2024)
    let precise = milliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    let whole = milliseconds.map { instant(Int((Double($0) / 1000).rounded(.down))) }
    let many = with(Many()) {
      $0.iso = whole
      $0.isoMillis = precise
      $0.rfc2822 = whole
      $0.unixMillis = precise
      $0.pattern = precise
    }
    let decoded = try decode(Many.self, from: try encodeJSON(many))
    #expect(decoded.iso == whole)
    #expect(decoded.isoMillis == precise)
    #expect(decoded.rfc2822 == whole)
    #expect(decoded.unixMillis == precise)
    #expect(decoded.pattern == precise)
  }

  @Test func theFirstAndLastYearsOfTheTextFormatsRoundTrip() throws {
    for date in [
      Date.distantPast, Date.distantFuture, instant(-62_167_219_200),  // 0000-01-01T00:00:00Z
      instant(253_402_300_799),  // 9999-12-31T23:59:59Z
    ] {
      let stamp = with(Stamp()) {
        $0.at = date
        $0.rfc = date
      }
      let back = try decode(Stamp.self, from: try encodeJSON(stamp))
      #expect(back.at == date && back.rfc == date, "\(date)")
      let mail = try decode(Mail.self, from: try encodeJSON(with(Mail()) { $0.sent = date }))
      #expect(mail.sent == date, "\(date)")
    }
    try expectEncoded(
      with(Stamp()) { $0.at = instant(-62_167_219_200) }, #"{"at": "0000-01-01T00:00:00Z"}"#)
  }

  @Test(
    arguments: [
      300_000_000_000.0,  // +11476-08-15T05:20:00Z
      -100_000_000_000.0,  // -1199-02-15T14:13:20Z
      253_402_300_800.0,  // 10000-01-01T00:00:00Z
      -62_167_219_201.0,  // -0001-12-31T23:59:59Z
    ])
  func whatADateTransformWritesItReadsBackOrItRefusesToWrite(seconds: Double) throws {
    let date = Date(timeIntervalSince1970: seconds)
    func check<Model: Codable>(_ model: Model, _ read: (Model) -> [Date]) {
      do {
        let back = try decode(Model.self, from: try encodeJSON(model))
        #expect(read(back).allSatisfy { $0 == date }, "\(Model.self) \(seconds)")
      } catch {
        #expect(shape(of: error)?.kind == "invalidValue", "\(Model.self) \(seconds): \(error)")
      }
    }
    check(with(Stamp()) { $0.at = date }) { [$0.at] }
    check(
      with(Stamp()) {
        $0.at = Self.leapDay
        $0.rfc = date
      }
    ) { [$0.rfc ?? Self.leapDay] }
    check(with(Mail()) { $0.sent = date }) { [$0.sent] }
    check(
      with(Local()) {
        $0.precise = date
        $0.day = Self.leapDay
        $0.tokyo = Self.leapDay
      }
    ) {
      [$0.precise]
    }
  }

  // MARK: - Against Foundation's ISO8601DateFormatter

  struct Texts: Codable, Keyedable {
    var whole: [Date] = []
    var fractional: [Date] = []
    var offset: [Date] = []

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try whole <-> map["whole"].using(.array(.iso8601))
      try fractional <-> map["fractional"].using(.array(.iso8601(fractionalDigits: 3)))
      try offset <-> map["offset"].using(.array(.iso8601))
    }
  }

  @Test func iso8601AgreesWithFoundationsISO8601DateFormatterForManyInstants() throws {
    let milliseconds = Self.randomMilliseconds(count: 2_000, seed: 8601)
    let precise = milliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    let whole = milliseconds.map { instant(Int((Double($0) / 1000).rounded(.down))) }

    let plain = ISO8601DateFormatter()
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let offset = ISO8601DateFormatter()
    offset.timeZone = TimeZone(secondsFromGMT: -(9 * 3600 + 30 * 60))

    let texts: [String: [String]] = [
      "whole": whole.map(plain.string(from:)),
      "fractional": precise.map(fractional.string(from:)),
      "offset": whole.map(offset.string(from:)),
    ]
    let json = String(
      decoding: try JSONSerialization.data(withJSONObject: texts, options: [.sortedKeys]),
      as: UTF8.self)

    // Reading: the same instants Foundation reads.
    let decoded = try decode(Texts.self, from: json)
    #expect(decoded.whole == texts["whole"]?.compactMap(plain.date(from:)))
    #expect(decoded.fractional == texts["fractional"]?.compactMap(fractional.date(from:)))
    #expect(decoded.offset == texts["offset"]?.compactMap(offset.date(from:)))
    #expect(decoded.whole == whole)
    #expect(decoded.fractional == precise)
    #expect(decoded.offset == whole)

    // Writing: the same text Foundation writes in UTC.
    let written =
      try JSONSerialization.jsonObject(
        with: Data(
          try encodeJSON(
            with(Texts()) {
              $0.whole = whole
              $0.fractional = precise
            }
          ).utf8)) as? [String: [String]]
    #expect(written?["whole"] == texts["whole"])
    #expect(written?["fractional"] == texts["fractional"])
  }
}
