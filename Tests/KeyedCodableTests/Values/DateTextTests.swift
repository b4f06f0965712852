import Foundation
import Testing

@testable import KeyedCodable

/// The date text engine: ``InternetDate`` (ISO 8601, RFC 3339, RFC 2822) and ``DatePattern``.
///
/// Expected instants of the tables were computed independently, with Python's proleptic
/// Gregorian `datetime`, as whole seconds since 1970 plus nanoseconds. Foundation is the oracle
/// for the cross-checks: `ISO8601DateFormatter` and `DateFormatter` (`en_US_POSIX`) on this
/// machine, for dates from 1583 on, since Foundation uses the Julian calendar before
/// 1582-10-15. Random dates come from a seeded SplitMix64, so a failure names a value that
/// reproduces.
@Suite("Date text") struct DateTextTests {
  /// A text and the instant it must give, as whole seconds since 1970 and nanoseconds.
  struct ValidCase: Sendable, CustomTestStringConvertible {
    let text: String
    let seconds: Int
    let nanoseconds: Int

    init(_ text: String, _ seconds: Int, _ nanoseconds: Int) {
      self.text = text
      self.seconds = seconds
      self.nanoseconds = nanoseconds
    }

    var testDescription: String { text.debugDescription }

    /// The `Date` the engine's documented conversion gives: whole milliseconds divided once
    /// (as Foundation does), finer fractions added to the seconds.
    var date: Date {
      if nanoseconds % 1_000_000 == 0 {
        return Date(timeIntervalSince1970: Double(seconds * 1000 + nanoseconds / 1_000_000) / 1000)
      }
      return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }
  }

  /// A text that must be rejected, with the exact reason and offset.
  struct InvalidCase: Sendable, CustomTestStringConvertible {
    let text: String
    let reason: String
    let offset: Int

    init(_ text: String, _ reason: String, _ offset: Int) {
      self.text = text
      self.reason = reason
      self.offset = offset
    }

    var testDescription: String { text.debugDescription }
  }

  // MARK: Valid texts

  static let iso8601Cases: [ValidCase] = [
    ValidCase("1970-01-01T00:00:00Z", 0, 0),
    ValidCase("1969-12-31T23:59:59Z", -1, 0),
    ValidCase("2024-02-29T12:30:05Z", 1_709_209_805, 0),
    ValidCase("2024-02-29T12:30:05.120Z", 1_709_209_805, 120_000_000),
    ValidCase("2024-02-29T12:30:05+01:00", 1_709_206_205, 0),
    ValidCase("2024-02-29T12:30:05-05:30", 1_709_229_605, 0),
    ValidCase("2024-02-29T12:30:05+0530", 1_709_190_005, 0),
    ValidCase("2024-02-29T12:30:05-0800", 1_709_238_605, 0),
    ValidCase("2024-02-29T12:30:05+05", 1_709_191_805, 0),
    ValidCase("2024-02-29T12:30:05-00:00", 1_709_209_805, 0),
    ValidCase("2024-02-29T00:00:00+23:59", 1_709_078_460, 0),
    ValidCase("2024-02-29T23:59:59-23:59", 1_709_337_539, 0),
    ValidCase("2024-02-29T12:30:05.1Z", 1_709_209_805, 100_000_000),
    ValidCase("2024-02-29T12:30:05.12Z", 1_709_209_805, 120_000_000),
    ValidCase("2024-02-29T12:30:05.123Z", 1_709_209_805, 123_000_000),
    ValidCase("2024-02-29T12:30:05.1234Z", 1_709_209_805, 123_400_000),
    ValidCase("2024-02-29T12:30:05.12345Z", 1_709_209_805, 123_450_000),
    ValidCase("2024-02-29T12:30:05.123456Z", 1_709_209_805, 123_456_000),
    ValidCase("2024-02-29T12:30:05.1234567Z", 1_709_209_805, 123_456_700),
    ValidCase("2024-02-29T12:30:05.12345678Z", 1_709_209_805, 123_456_780),
    ValidCase("2024-02-29T12:30:05.123456789Z", 1_709_209_805, 123_456_789),
    ValidCase("2024-02-29T12:30:05.1234567891Z", 1_709_209_805, 123_456_789),
    ValidCase("2024-02-29T12:30:05.999999999999Z", 1_709_209_805, 999_999_999),
    ValidCase("2024-02-29T12:30:05.000Z", 1_709_209_805, 0),
    ValidCase("2000-02-29T00:00:00Z", 951_782_400, 0),
    ValidCase("1900-03-01T00:00:00Z", -2_203_891_200, 0),
    ValidCase("2100-02-28T23:59:59Z", 4_107_542_399, 0),
    ValidCase("1999-12-31T23:59:59Z", 946_684_799, 0),
    ValidCase("2000-01-01T00:00:00Z", 946_684_800, 0),
    ValidCase("2023-12-31T23:30:00-01:00", 1_704_069_000, 0),
    ValidCase("2024-01-01T00:30:00+01:00", 1_704_065_400, 0),
    ValidCase("1969-12-31T23:59:59.5Z", -1, 500_000_000),
    ValidCase("1960-06-15T08:45:30.250-03:00", -301_234_470, 250_000_000),
    ValidCase("1600-02-29T00:00:00Z", -11_670_998_400, 0),
    ValidCase("1583-01-01T00:00:00Z", -12_212_553_600, 0),
    ValidCase("1066-10-14T09:00:00Z", -28_502_722_800, 0),
    ValidCase("0001-01-01T00:00:00Z", -62_135_596_800, 0),
    ValidCase("0000-01-01T00:00:00Z", -62_167_219_200, 0),
    ValidCase("0000-12-31T23:59:59Z", -62_135_596_801, 0),
    ValidCase("9999-12-31T23:59:59Z", 253_402_300_799, 0),
    ValidCase("9999-12-31T23:59:59.999Z", 253_402_300_799, 999_000_000),
    ValidCase("0001-01-01T00:00:00+01:00", -62_135_600_400, 0),
  ]
  static let rfc3339Cases: [ValidCase] = [
    ValidCase("1985-04-12T23:20:50.52Z", 482_196_050, 520_000_000),
    ValidCase("1996-12-19T16:39:57-08:00", 851_042_397, 0),
    ValidCase("1937-01-01T12:00:27.87+00:20", -1_041_337_173, 870_000_000),
    ValidCase("2024-02-29t12:30:05z", 1_709_209_805, 0),
    ValidCase("2024-02-29 12:30:05Z", 1_709_209_805, 0),
    ValidCase("2024-02-29T12:30:05.123456789+01:00", 1_709_206_205, 123_456_789),
    ValidCase("1969-12-31T23:59:59.001-00:00", -1, 1_000_000),
    ValidCase("0000-01-01T00:00:00Z", -62_167_219_200, 0),
    ValidCase("9999-12-31T23:59:59.999999Z", 253_402_300_799, 999_999_000),
  ]
  static let rfc2822Cases: [ValidCase] = [
    ValidCase("Tue, 1 Jul 2003 10:52:37 +0200", 1_057_049_557, 0),
    ValidCase("Fri, 21 Nov 1997 09:55:06 -0600", 880_127_706, 0),
    ValidCase("21 Nov 97 09:55:06 GMT", 880_106_106, 0),
    ValidCase("Thu, 13 Feb 1969 23:32:54 -0330", -27_723_426, 0),
    ValidCase("Thu,\r\n 13\r\n  Feb\r\n    1969\r\n 23:32\r\n  -0330", -27_723_480, 0),
    ValidCase("Thu, 29 Feb 2024 12:30:05 +0000", 1_709_209_805, 0),
    ValidCase("thu, 29 FEB 2024 12:30:05 +0000", 1_709_209_805, 0),
    ValidCase("Tue,1 Jul 2003 10:52:37 +0200", 1_057_049_557, 0),
    ValidCase("Tue, 01 Jul 2003 10:52 +0200", 1_057_049_520, 0),
    ValidCase("1 Jan 1970 00:00 Z", 0, 0),
    ValidCase("1 jan 1970 00:00 ut", 0, 0),
    ValidCase("01 Jan 1970 00:00:00 EST", 18_000, 0),
    ValidCase("01 Jan 1970 00:00:00 EDT", 14_400, 0),
    ValidCase("01 Jan 1970 00:00:00 CST", 21_600, 0),
    ValidCase("01 Jan 1970 00:00:00 CDT", 18_000, 0),
    ValidCase("01 Jan 1970 00:00:00 MST", 25_200, 0),
    ValidCase("01 Jan 1970 00:00:00 MDT", 21_600, 0),
    ValidCase("01 Jan 1970 00:00:00 PST", 28_800, 0),
    ValidCase("01 Jan 1970 00:00:00 pdt", 25_200, 0),
    ValidCase("1 Jan 49 00:00:00 +0000", 2_493_072_000, 0),
    ValidCase("1 Jan 50 00:00:00 +0000", -631_152_000, 0),
    ValidCase("1 Jan 103 00:00:00 +0000", 1_041_379_200, 0),
    ValidCase("1 Jan 999 00:00:00 +0000", 29_316_470_400, 0),
    ValidCase("Mon, 1 Jan 0001 00:00:00 +0000", -62_135_596_800, 0),
    ValidCase("Fri, 31 Dec 9999 23:59:59 +0000", 253_402_300_799, 0),
    ValidCase("Wed, 31 Dec 1969 23:59:59 -0000", -1, 0),
    ValidCase("1\tJul\t2003\t10:52:37\t+0200", 1_057_049_557, 0),
    ValidCase("Sat, 1 Jan 2000 00:00:00 +2359", 946_598_460, 0),
    ValidCase("Sat, 1 Jan 2000 00:00:00 -2359", 946_771_140, 0),
  ]

  @Test(arguments: iso8601Cases)
  func iso8601TextsGiveExactInstants(_ valid: ValidCase) {
    expectInstant(InternetDate.parseISO8601(valid.text), valid)
  }

  @Test(arguments: rfc3339Cases)
  func rfc3339TextsGiveExactInstants(_ valid: ValidCase) {
    expectInstant(InternetDate.parseRFC3339(valid.text), valid)
  }

  @Test(arguments: iso8601Cases.filter { !$0.text.contains(/[+-]\d\d\d*$/) })
  func rfc3339ReadsEveryISO8601TextWithAColonOffsetOrZ(_ valid: ValidCase) {
    expectInstant(InternetDate.parseRFC3339(valid.text), valid)
  }

  @Test(arguments: rfc2822Cases)
  func rfc2822TextsGiveExactInstants(_ valid: ValidCase) {
    expectInstant(InternetDate.parseRFC2822(valid.text), valid)
  }

  @Test func millisecondFractionsGiveTheDateOfTheirDecimalValue() throws {
    // Date(timeIntervalSince1970:) rounds once more, to the reference date's grid: compare Dates.
    let cases: [(String, Double)] = [
      ("1985-04-12T23:20:50.52Z", 482_196_050.52),
      ("2024-02-29T12:30:05.123Z", 1_709_209_805.123),
      ("1969-12-31T23:59:59.5Z", -0.5),
      ("1970-01-01T00:00:00.001Z", 0.001),
      ("1969-12-31T23:59:59.999Z", -0.001),
      ("2001-01-01T00:00:00.007Z", 978_307_200.007),
    ]
    for (text, interval) in cases {
      #expect(try InternetDate.parseISO8601(text).get() == Date(timeIntervalSince1970: interval))
    }
    #expect(
      try InternetDate.parseISO8601("2024-02-29T12:30:05.123Z").get()
        .timeIntervalSince1970 == 1_709_209_805.123)
    // Fractions finer than milliseconds are within a microsecond at this magnitude.
    let micro = try InternetDate.parseISO8601("2024-02-29T12:30:05.123456Z").get()
    #expect(abs(micro.timeIntervalSince1970 - 1_709_209_805.123456) < 1e-6)
  }

  @Test func datePatternsTruncateLikeDateFormatterAfterRoundingToMilliseconds() throws {
    let pattern = try DatePattern("HH:mm:ss|ss.S|ss.SSS", timeZone: .gmt)
    #expect(pattern.format(Date(timeIntervalSince1970: 59.7)) == "00:00:59|59.7|59.700")
    #expect(pattern.format(Date(timeIntervalSince1970: 59.98765)) == "00:00:59|59.9|59.988")
    #expect(pattern.format(Date(timeIntervalSince1970: 59.9996)) == "00:01:00|00.0|00.000")
    // A longer fraction field sets the rounding; shorter ones truncate it.
    let fine = try DatePattern("ss.SSSS|ss.SSS", timeZone: .gmt)
    #expect(fine.format(Date(timeIntervalSince1970: 59.98765)) == "59.9877|59.987")
    #expect(fine.format(Date(timeIntervalSince1970: 59.99996)) == "00.0000|00.000")
  }

  // MARK: Rejections

  static let iso8601Rejections: [InvalidCase] = [
    InvalidCase("", "the text is empty", 0),
    InvalidCase(" 2024-02-29T12:30:05Z", "whitespace before the date is not allowed", 0),
    InvalidCase("2024-02-29T12:30:05Z ", "whitespace after the date is not allowed", 20),
    InvalidCase("2024-02-29T12:30:05Z\n", "whitespace after the date is not allowed", 20),
    InvalidCase("2024-02-29T12:30:05Zx", "unexpected text after the end of the date", 20),
    InvalidCase("2024-02-29T12:30:05+01:00:00", "unexpected text after the end of the date", 25),
    InvalidCase("+2024-02-29T12:30:05Z", "signed (expanded) years are not supported", 0),
    InvalidCase("20245-02-29T12:30:05Z", "years after 9999 are not supported", 0),
    InvalidCase("24-02-29T12:30:05Z", "expected 4 digits for the year", 0),
    InvalidCase("2024-13-01T00:00:00Z", "month 13 is out of range (01–12)", 5),
    InvalidCase("2024-00-01T00:00:00Z", "month 0 is out of range (01–12)", 5),
    InvalidCase("2024-2-29T12:30:05Z", "expected 2 digits for the month", 5),
    InvalidCase("2024-02", "expected '-' after the month, but the text ends", 7),
    InvalidCase("2024-01-32T00:00:00Z", "day 32 is out of range (01–31)", 8),
    InvalidCase("2024-01-00T00:00:00Z", "day 0 is out of range (01–31)", 8),
    InvalidCase("2023-02-29T00:00:00Z", "February 29 does not exist in 2023", 8),
    InvalidCase("2024-02-30T00:00:00Z", "February 30 does not exist in 2024", 8),
    InvalidCase("1900-02-29T00:00:00Z", "February 29 does not exist in 1900", 8),
    InvalidCase("2024-04-31T00:00:00Z", "April 31 does not exist in 2024", 8),
    InvalidCase("2024-02-29t12:30:05Z", "expected 'T' between the date and the time", 10),
    InvalidCase("2024-02-29 12:30:05Z", "expected 'T' between the date and the time", 10),
    InvalidCase("2024-02-29T24:00:00Z", "hour 24 is out of range (00–23)", 11),
    InvalidCase("2024-02-29T12-30-05Z", "expected ':' after the hour", 13),
    InvalidCase("2024-02-29T12:60:00Z", "minute 60 is out of range (00–59)", 14),
    InvalidCase("2024-02-29T12:30Z", "expected ':' after the minute", 16),
    InvalidCase("2016-12-31T23:59:60Z", "leap seconds (second 60) are not supported", 17),
    InvalidCase("2024-02-29T12:30:61Z", "second 61 is out of range (00–59)", 17),
    InvalidCase("2024-02-29T12:30:05.Z", "expected digits for the fraction", 20),
    InvalidCase(
      "2024-02-29T12:30:05",
      "expected 'Z' or a UTC offset (±HH:MM, ±HHMM or ±HH) after the time, but the text ends", 19),
    InvalidCase(
      "2024-02-29T12:30:05.123",
      "expected 'Z' or a UTC offset (±HH:MM, ±HHMM or ±HH) after the time, but the text ends", 23),
    InvalidCase(
      "2024-02-29T12:30:05z", "expected 'Z' or a UTC offset (±HH:MM, ±HHMM or ±HH) after the time",
      19),
    InvalidCase(
      "2024-02-29T12:30:05,5Z",
      "expected 'Z' or a UTC offset (±HH:MM, ±HHMM or ±HH) after the time", 19),
    InvalidCase("2024-02-29T12:30:05+24:00", "offset hour 24 is out of range (00–23)", 20),
    InvalidCase("2024-02-29T12:30:05-99:00", "offset hour 99 is out of range (00–23)", 20),
    InvalidCase("2024-02-29T12:30:05+05:60", "offset minute 60 is out of range (00–59)", 23),
    InvalidCase("2024-02-29T12:30:05+5:00", "expected 2 digits for the offset hour", 20),
    InvalidCase(
      "2024-02-29T12:30:05+053", "expected 2 digits for the offset minute, but the text ends", 22),
    InvalidCase(
      "٢٠٢٤-02-29T12:30:05Z",
      "non-ASCII digit '٢' (U+0662) in the year; only the ASCII digits 0–9 are allowed", 0),
    InvalidCase(
      "2024-0２-29T12:30:05Z",
      "non-ASCII digit '２' (U+FF12) in the month; only the ASCII digits 0–9 are allowed", 6),
    InvalidCase(
      "2024-02-29T12:30:05.1٥Z",
      "expected 'Z' or a UTC offset (±HH:MM, ±HHMM or ±HH) after the time", 21),
  ]

  @Test(arguments: iso8601Rejections)
  func iso8601RejectsWithExactReasons(_ invalid: InvalidCase) {
    expectRejection(InternetDate.parseISO8601(invalid.text), invalid)
  }

  static let rfc3339Rejections: [InvalidCase] = [
    InvalidCase("", "the text is empty", 0),
    InvalidCase("2024-02-29T12:30:05+0100", "expected ':' after the offset hour", 22),
    InvalidCase(
      "2024-02-29T12:30:05+01", "expected ':' after the offset hour, but the text ends", 22),
    InvalidCase(
      "2024-02-29x12:30:05Z", "expected 'T', 't' or ' ' between the date and the time", 10),
    InvalidCase("2024-02-29  12:30:05Z", "expected 2 digits for the hour", 11),
    InvalidCase("1990-12-31T23:59:60Z", "leap seconds (second 60) are not supported", 17),
    InvalidCase(
      "2024-02-29T12:30:05",
      "expected 'Z' or a UTC offset (±HH:MM) after the time, but the text ends", 19),
    InvalidCase("2024-02-29T24:00:00Z", "hour 24 is out of range (00–23)", 11),
    InvalidCase("2023-02-29T00:00:00z", "February 29 does not exist in 2023", 8),
    InvalidCase("2024-02-29T12:30:05+23:60", "offset minute 60 is out of range (00–59)", 23),
    InvalidCase("2024-02-29T12:30:05Z\t", "whitespace after the date is not allowed", 20),
    InvalidCase("-0001-01-01T00:00:00Z", "signed (expanded) years are not supported", 0),
  ]

  @Test(arguments: rfc3339Rejections)
  func rfc3339RejectsWithExactReasons(_ invalid: InvalidCase) {
    expectRejection(InternetDate.parseRFC3339(invalid.text), invalid)
  }

  static let rfc2822Rejections: [InvalidCase] = [
    InvalidCase("", "the text is empty", 0),
    InvalidCase(" 1 Jul 2003 10:52:37 +0200", "whitespace before the date is not allowed", 0),
    InvalidCase(
      "Mon, 1 Jul 2003 10:52:37 +0200",
      "day of the week Mon does not match 2003-07-01 (a Tuesday)", 0),
    InvalidCase("Tux, 1 Jul 2003 10:52:37 +0200", "unknown day name 'Tux'", 0),
    InvalidCase("Tue 1 Jul 2003 10:52:37 +0200", "expected ',' after the day name", 3),
    InvalidCase("Tue, 1 Jux 2003 10:52:37 +0200", "unknown month name 'Jux'", 7),
    InvalidCase("Tue, 1 July 2003 10:52:37 +0200", "unknown month name 'July'", 7),
    InvalidCase("1 2003 10:52:37 +0200", "expected an English month name (Jan–Dec)", 2),
    InvalidCase("Tue, 32 Jul 2003 10:52:37 +0200", "day 32 is out of range (01–31)", 5),
    InvalidCase("123 Jul 2003 10:52:37 +0200", "expected whitespace after the day", 2),
    InvalidCase("1Jul 2003 10:52:37 +0200", "expected whitespace after the day", 1),
    InvalidCase("29 Feb 2023 00:00 +0000", "February 29 does not exist in 2023", 0),
    InvalidCase("31 Apr 2024 00:00 +0000", "April 31 does not exist in 2024", 0),
    InvalidCase("1 Jul 3 10:52:37 +0200", "expected 2 to 4 digits for the year", 6),
    InvalidCase("1 Jul 20035 10:52:37 +0200", "years after 9999 are not supported", 6),
    InvalidCase("1 Jul 2003 24:00 +0000", "hour 24 is out of range (00–23)", 11),
    InvalidCase("1 Jul 2003 1:52:37 +0200", "expected 2 digits for the hour", 11),
    InvalidCase("1 Jul 2003 10.52 +0200", "expected ':' after the hour", 13),
    InvalidCase("1 Jul 2003 10:60 +0000", "minute 60 is out of range (00–59)", 14),
    InvalidCase("1 Jul 2003 10:52:60 +0000", "leap seconds (second 60) are not supported", 17),
    InvalidCase(
      "1 Jul 2003 10:52:37", "expected whitespace before the time zone, but the text ends", 19),
    InvalidCase(
      "1 Jul 2003 10:52:37 ",
      "expected a time zone (±HHMM, GMT, UT, EST, …), but the text ends", 20),
    InvalidCase("1 Jul 2003 10:52:37 +2400", "offset hour 24 is out of range (00–23)", 21),
    InvalidCase("1 Jul 2003 10:52:37 +0260", "offset minute 60 is out of range (00–59)", 23),
    InvalidCase("1 Jul 2003 10:52:37 +02:00", "expected 2 digits for the offset minute", 23),
    InvalidCase(
      "1 Jul 2003 10:52:37 A", "military time zone 'A' is not supported (only 'Z' is)", 20),
    InvalidCase("1 Jul 2003 10:52:37 CEST", "unknown time zone 'CEST'", 20),
    InvalidCase(
      "1 Jul 2003 10:52:37 +0200 (CEST)", "comments in parentheses are not supported", 26),
    InvalidCase(
      "Tue, (x) 1 Jul 2003 10:52:37 +0200", "comments in parentheses are not supported", 5),
    InvalidCase("1 Jul 2003 10:52:37 +0200 ", "whitespace after the date is not allowed", 25),
    InvalidCase(
      "Tue, 1 Jul 2003 10:52:37 +0200x", "unexpected text after the end of the date", 30),
    InvalidCase(
      "1 Jul 2003\r\n10:52:37 +0200", "a line break must be followed by a space or tab", 10),
    InvalidCase(
      "١ Jul 2003 10:52:37 +0200",
      "non-ASCII digit '١' (U+0661) in the day; only the ASCII digits 0–9 are allowed", 0),
  ]

  @Test(arguments: rfc2822Rejections)
  func rfc2822RejectsWithExactReasons(_ invalid: InvalidCase) {
    expectRejection(InternetDate.parseRFC2822(invalid.text), invalid)
  }

  @Test func errorDescriptionsNameTheOffset() {
    let error = DateTextError(reason: "expected ':' after the hour", offset: 13)
    #expect(error.description == "expected ':' after the hour at offset 13")
    #expect(
      InternetDate.parseISO8601("2024-02-29T12-30-05Z").failure?.description
        == "expected ':' after the hour at offset 13")
  }

  // MARK: Formatting

  /// An instant (seconds from 1970, as `Date(timeIntervalSince1970:)` takes it), a number of
  /// fraction digits, and the text it formats as.
  static let iso8601Formats: [(interval: Double, digits: Int, text: String)] = [
    (0, 0, "1970-01-01T00:00:00Z"),
    (-1, 0, "1969-12-31T23:59:59Z"),
    (1_709_209_805, 0, "2024-02-29T12:30:05Z"),
    (1_709_209_805.12, 3, "2024-02-29T12:30:05.120Z"),
    (1_709_209_805.123, 3, "2024-02-29T12:30:05.123Z"),
    (1_709_209_805.123456, 6, "2024-02-29T12:30:05.123456Z"),
    (1_709_209_805, 6, "2024-02-29T12:30:05.000000Z"),
    (1_709_209_805.5, 0, "2024-02-29T12:30:06Z"),
    (1_709_209_805.4996, 0, "2024-02-29T12:30:05Z"),
    (1_709_251_199.9996, 3, "2024-03-01T00:00:00.000Z"),
    (1_709_251_199.9994, 3, "2024-02-29T23:59:59.999Z"),
    (1_704_067_199.9999996, 6, "2024-01-01T00:00:00.000000Z"),
    (1_704_067_199.6, 0, "2024-01-01T00:00:00Z"),
    (-0.0004, 3, "1970-01-01T00:00:00.000Z"),
    (-0.0006, 3, "1969-12-31T23:59:59.999Z"),
    (0.0625, 3, "1970-01-01T00:00:00.063Z"),
    (-0.0625, 3, "1969-12-31T23:59:59.938Z"),
    (951_782_400, 0, "2000-02-29T00:00:00Z"),
    (-62_135_596_800, 0, "0001-01-01T00:00:00Z"),
    (-62_135_596_801, 0, "0000-12-31T23:59:59Z"),
    (-62_167_219_201, 0, "-0001-12-31T23:59:59Z"),
    (253_402_300_799.999, 3, "9999-12-31T23:59:59.999Z"),
    (253_402_300_800, 0, "+10000-01-01T00:00:00Z"),
    (1_709_209_805.125, 9, "2024-02-29T12:30:05.125000000Z"),
  ]

  @Test func formatISO8601WritesRoundedUTC() {
    for (interval, digits, text) in Self.iso8601Formats {
      let date = Date(timeIntervalSince1970: interval)
      #expect(
        InternetDate.formatISO8601(date, fractionalDigits: digits) == text,
        "\(interval) with \(digits) digits")
    }
  }

  @Test func formatRoundsExactlyAtHalfUnits() {
    // 0.0625 s is exactly 62.5 ms: ties go to the later time; a hair below goes down.
    let tie = Date(timeIntervalSinceReferenceDate: 0.0625)
    let below = Date(timeIntervalSinceReferenceDate: 0.0625.nextDown)
    #expect(InternetDate.formatISO8601(tie, fractionalDigits: 3) == "2001-01-01T00:00:00.063Z")
    #expect(InternetDate.formatISO8601(below, fractionalDigits: 3) == "2001-01-01T00:00:00.062Z")
    let negativeTie = Date(timeIntervalSinceReferenceDate: -0.0625)
    #expect(
      InternetDate.formatISO8601(negativeTie, fractionalDigits: 3) == "2000-12-31T23:59:59.938Z")
    #expect(
      InternetDate.formatISO8601(Date(timeIntervalSinceReferenceDate: 0.5), fractionalDigits: 0)
        == "2001-01-01T00:00:01Z")
    #expect(
      InternetDate.formatISO8601(
        Date(timeIntervalSinceReferenceDate: 0.5.nextDown), fractionalDigits: 0)
        == "2001-01-01T00:00:00Z")
  }

  @Test func formatRoundingDownTruncatesAsFoundationDoes() {
    for (interval, digits, text) in [
      (0.9999, 0, "2001-01-01T00:00:00Z"), (-0.5, 0, "2000-12-31T23:59:59Z"),
      (59.97, 0, "2001-01-01T00:00:59Z"), (0.1239, 3, "2001-01-01T00:00:00.123Z"),
      (1.0.nextDown, 9, "2001-01-01T00:00:00.999999999Z"), (-1e-300, 0, "2000-12-31T23:59:59Z"),
      (86_399.999_999, 6, "2001-01-01T23:59:59.999999Z"),
      (86_399.999_999, 7, "2001-01-01T23:59:59.9999990Z"),
    ] {
      let date = Date(timeIntervalSinceReferenceDate: interval)
      #expect(
        InternetDate.formatISO8601(date, fractionalDigits: digits, rounding: .down) == text,
        "\(interval) with \(digits) digits")
    }
  }

  @Test func theFoundationRulesReadSecond60AndNarrowTheRest() throws {
    let ok = "2020-06-30T23:59:60.5Z"
    let parsed = ok.utf8.withContiguousStorageIfAvailable(InternetDate.parseISO8601LikeFoundation)
    #expect(parsed == .some(Date(timeIntervalSince1970: 1_593_561_600.5)))
    // The default rules are unchanged: second 60 is a leap second, rejected.
    #expect(throws: DateTextError.leapSecond(at: 17)) { try InternetDate.parseISO8601(ok).get() }
    for outside in [
      "2020-01-01T00:00:00.1234567891Z", "2020-01-01T00:00:00+18:01", "1582-12-31T00:00:00Z",
      "2020-01-01T24:00:00Z", "2020-01-01T00:00:00Z ", "2020-01-01t00:00:00Z",
    ] {
      let result = outside.utf8.withContiguousStorageIfAvailable(
        InternetDate.parseISO8601LikeFoundation)
      #expect(result == .some(nil), "\(outside)")
    }
    #expect(
      DateTextError.offsetTooLarge(maximum: 18 * 3600, at: 19).reason
        == "UTC offsets beyond ±18:00 are not supported")
    #expect(
      DateTextError.tooManyFractionDigits(9, at: 20).reason == "a fraction has at most 9 digits")
    #expect(DateTextError.yearBefore(1583, at: 0).reason == "years before 1583 are not supported")
  }

  @Test func formatHandlesDatesWithoutATextForm() {
    let nan = Date(timeIntervalSinceReferenceDate: .nan)
    #expect(InternetDate.formatISO8601(nan, fractionalDigits: 3) == "2001-01-01T00:00:00.000Z")
    let future = InternetDate.formatISO8601(.distantFuture, fractionalDigits: 0)
    #expect(future == "4001-01-01T00:00:00Z")
    let past = InternetDate.formatISO8601(.distantPast, fractionalDigits: 0)
    #expect(past == "0000-12-30T00:00:00Z")
    let infinite = Date(timeIntervalSinceReferenceDate: .infinity)
    #expect(InternetDate.formatISO8601(infinite, fractionalDigits: 0).hasPrefix("+3170"))
    #expect(InternetDate.formatRFC2822(Date(timeIntervalSinceReferenceDate: -.infinity)) != "")
    #expect(
      InternetDate.formatISO8601(Date(timeIntervalSince1970: 0), fractionalDigits: 12)
        == "1970-01-01T00:00:00.000000000Z")
    #expect(
      InternetDate.formatISO8601(Date(timeIntervalSince1970: 0), fractionalDigits: -1)
        == "1970-01-01T00:00:00Z")
  }

  @Test func formatRFC2822WritesUTCWithTheDayOfTheWeek() {
    let cases: [(Double, String)] = [
      (1_709_209_805, "Thu, 29 Feb 2024 12:30:05 +0000"),
      (0, "Thu, 01 Jan 1970 00:00:00 +0000"),
      (-1, "Wed, 31 Dec 1969 23:59:59 +0000"),
      (1_057_049_557, "Tue, 01 Jul 2003 08:52:37 +0000"),
      (1_709_209_805.5, "Thu, 29 Feb 2024 12:30:06 +0000"),
      (-62_135_596_800, "Mon, 01 Jan 0001 00:00:00 +0000"),
      (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 +0000"),
    ]
    for (interval, text) in cases {
      #expect(InternetDate.formatRFC2822(Date(timeIntervalSince1970: interval)) == text)
    }
  }

  // MARK: Round trips

  @Test func wholeSecondsRoundTripExactlyInEveryFormat() {
    var random = SplitMix64(seed: 1)
    var failures: [String] = []
    for _ in 0..<5_000 {
      // 0001-01-01 through 9999-12-31, the whole range the parsers read.
      let seconds = random.int(in: -62_135_596_800...253_402_300_799)
      let date = Date(timeIntervalSince1970: Double(seconds))
      let iso = InternetDate.formatISO8601(date, fractionalDigits: 0)
      let rfc2822 = InternetDate.formatRFC2822(date)
      if InternetDate.parseISO8601(iso).success != date { failures.append(iso) }
      if InternetDate.parseRFC3339(iso).success != date { failures.append(iso) }
      if InternetDate.parseRFC2822(rfc2822).success != date { failures.append(rfc2822) }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  @Test func millisecondsRoundTripExactlyAtThreeDigits() {
    var random = SplitMix64(seed: 2)
    var failures: [String] = []
    for _ in 0..<5_000 {
      let milliseconds = random.int(in: -62_135_596_800_000...253_402_300_799_999)
      let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      let text = InternetDate.formatISO8601(date, fractionalDigits: 3)
      if InternetDate.parseISO8601(text).success != date { failures.append(text) }
      if InternetDate.formatISO8601(date, fractionalDigits: 3) != text { failures.append(text) }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  @Test func microsecondTextsSurviveParsingAndFormatting() {
    // A Double resolves well under half a microsecond for dates within 2^31 s of 2001.
    var random = SplitMix64(seed: 3)
    var failures: [String] = []
    for _ in 0..<5_000 {
      let seconds = random.int(in: -946_771_200...1_893_456_000)  // 1940 through 2029
      let micros = random.int(in: 0...999_999)
      let date = Date(timeIntervalSince1970: Double(seconds))
      var text = InternetDate.formatISO8601(date, fractionalDigits: 0)
      text.removeLast()
      let zeros = String(repeating: "0", count: 6 - String(micros).count)
      text += "." + zeros + String(micros) + "Z"
      guard let parsed = InternetDate.parseISO8601(text).success,
        InternetDate.formatISO8601(parsed, fractionalDigits: 6) == text
      else {
        failures.append(text)
        continue
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  // MARK: Foundation cross-checks

  @Test func iso8601MatchesISO8601DateFormatterOnTwentyThousandDates() {
    let plain = ISO8601DateFormatter()
    plain.formatOptions = [.withInternetDateTime]
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    var random = SplitMix64(seed: 8601)
    var failures: [String] = []
    // From 1583: Foundation uses the Julian calendar before 1582-10-15.
    let range = -12_212_553_600...253_402_300_799
    for index in 0..<Stress.count(20_000) {
      let withMilliseconds = index % 2 == 1
      let date: Date
      let formatter: ISO8601DateFormatter
      if withMilliseconds {
        let milliseconds = random.int(in: range) * 1000 + random.int(in: 0...999)
        date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        formatter = fractional
      } else {
        date = Date(timeIntervalSince1970: Double(random.int(in: range)))
        formatter = plain
      }
      let expected = formatter.string(from: date)
      let mine = InternetDate.formatISO8601(date, fractionalDigits: withMilliseconds ? 3 : 0)
      if mine != expected { failures.append("format \(expected) != \(mine)") }
      let theirs = formatter.date(from: expected)?.timeIntervalSinceReferenceDate.bitPattern
      let parsed = InternetDate.parseISO8601(expected).success
      if parsed?.timeIntervalSinceReferenceDate.bitPattern != theirs {
        failures.append("parse \(expected)")
      }
      if parsed != date { failures.append("round trip \(expected)") }
      if InternetDate.parseRFC3339(expected).success != parsed {
        failures.append("RFC 3339 \(expected)")
      }
    }
    #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(5))")
  }

  @Test func rfc2822MatchesDateFormatter() {
    let formatter = Self.dateFormatter("EEE, dd MMM yyyy HH:mm:ss Z", TimeZone(identifier: "UTC"))
    var random = SplitMix64(seed: 2822)
    var failures: [String] = []
    for _ in 0..<2_000 {
      let date = Date(timeIntervalSince1970: Double(random.int(in: -2_208_988_800...7_258_118_400)))
      let expected = formatter.string(from: date)
      if InternetDate.formatRFC2822(date) != expected { failures.append("format \(expected)") }
      if InternetDate.parseRFC2822(expected).success != formatter.date(from: expected) {
        failures.append("parse \(expected)")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  static let crossCheckedPatterns = [
    "yyyy-MM-dd", "dd/MM/yyyy HH:mm", "EEE, dd MMM yyyy HH:mm:ss Z",
    "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "EEEE d MMMM yyyy h:mm:ss a ZZZZ xxx",
  ]
  static let crossCheckedZones = ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"]

  @Test(arguments: crossCheckedPatterns, crossCheckedZones)
  func datePatternMatchesDateFormatter(pattern: String, zoneName: String) throws {
    let zone = try #require(TimeZone(identifier: zoneName))
    let mine = try DatePattern(pattern, timeZone: zone)
    let formatter = Self.dateFormatter(pattern, zone)
    var random = SplitMix64(seed: UInt64(pattern.utf8.count * 31 + zoneName.utf8.count))
    var failures: [String] = []
    for _ in 0..<Stress.count(1_000) {
      // 1950 through 2099: clear of the Julian calendar and of local mean time offsets.
      let milliseconds = random.int(in: -631_152_000_000...4_102_444_799_999)
      let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      let text = formatter.string(from: date)
      if mine.format(date) != text { failures.append("format \(text) != \(mine.format(date))") }
      let theirs = formatter.date(from: text)
      if mine.parse(text).success != theirs { failures.append("parse \(text)") }
    }
    #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(5))")
  }

  @Test(arguments: ["Europe/Paris", "America/New_York"])
  func datePatternMatchesDateFormatterAcrossDaylightSavingChanges(zoneName: String) throws {
    let zone = try #require(TimeZone(identifier: zoneName))
    // Around the changes of 2024 (Paris: March 31 and October 27 at 01:00 UTC; New York:
    // March 10 at 07:00 UTC and November 3 at 06:00 UTC), every 5 minutes for 3 hours each way.
    let changes: [Double] =
      zoneName == "Europe/Paris" ? [1_711_846_800, 1_729_990_800] : [1_710_054_000, 1_730_613_600]
    for pattern in ["yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "HH:mm:ss Z"] {
      let mine = try DatePattern(pattern, timeZone: zone)
      let formatter = Self.dateFormatter(pattern, zone)
      for change in changes {
        for step in -36...36 {
          let date = Date(timeIntervalSince1970: change + Double(step * 300))
          let text = formatter.string(from: date)
          #expect(mine.format(date) == text, "\(pattern) at \(date)")
          #expect(mine.parse(text).success == formatter.date(from: text), "\(pattern): \(text)")
        }
      }
    }
  }

  @Test func zoneFieldsWriteAsDateFormatterDoes() throws {
    let pattern = "Z|ZZ|ZZZ|ZZZZ|ZZZZZ|X|XX|XXX|XXXX|XXXXX|x|xx|xxx|xxxx|xxxxx"
    let date = Date(timeIntervalSince1970: 0)
    for zoneName in ["UTC", "Asia/Kolkata", "America/New_York", "America/St_Johns"] {
      let zone = try #require(TimeZone(identifier: zoneName))
      let text = Self.dateFormatter(pattern, zone).string(from: date)
      let mine = try DatePattern(pattern, timeZone: zone)
      #expect(mine.format(date) == text)
      // Without date fields, the text is 2000-01-01 00:00 at the written offset.
      let offset = Double(zone.secondsFromGMT(for: date))
      #expect(mine.parse(text).success == Date(timeIntervalSince1970: 946_684_800 - offset))
    }
    // Local mean time: Paris was 9 minutes 21 seconds ahead of UTC until 1911.
    let paris = try #require(TimeZone(identifier: "Europe/Paris"))
    let old = Date(timeIntervalSince1970: -2_000_000_000)
    let lmt = try DatePattern("Z|XXXXX|xxxx|XXX", timeZone: paris)
    #expect(lmt.format(old) == Self.dateFormatter("Z|XXXXX|xxxx|XXX", paris).string(from: old))
    #expect(lmt.format(old) == "+000921|+00:09:21|+000921|+00:09")
  }

  // MARK: Patterns

  /// A pattern, a zone, a text, and the instant, for cases that parse and format both ways.
  static let patternCases: [(String, String, String, Int, Int)] = [
    ("yyyy-MM-dd", "UTC", "2024-02-29", 1_709_164_800, 0),
    ("yyyy-MM-dd", "Europe/Paris", "2024-02-29", 1_709_161_200, 0),
    ("dd/MM/yyyy HH:mm", "America/New_York", "29/02/2024 12:30", 1_709_227_800, 0),
    ("EEE, dd MMM yyyy HH:mm:ss Z", "UTC", "Thu, 29 Feb 2024 12:30:05 +0000", 1_709_209_805, 0),
    ("EEEE, MMMM d, yyyy h:mm a", "UTC", "Thursday, February 29, 2024 12:30 PM", 1_709_209_800, 0),
    (
      "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "Europe/Paris", "2024-07-14T09:05:03.007+02:00",
      1_720_940_703, 7_000_000
    ),
    ("yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "UTC", "2024-07-14T07:05:03.007Z", 1_720_940_703, 7_000_000),
    ("yyyyMMdd'T'HHmmss", "UTC", "20240229T123005", 1_709_209_805, 0),
    ("yy-M-d H:m:s", "UTC", "24-2-9 7:5:3", 1_707_462_303, 0),
    ("yy-MM-dd", "UTC", "50-01-01", -631_152_000, 0),
    ("yy-MM-dd", "UTC", "49-12-31", 2_524_521_600, 0),
    ("u-MM-dd", "UTC", "-5-01-01", -62_324_985_600, 0),
    ("yyyy-MM-dd", "UTC", "0001-01-01", -62_135_596_800, 0),
    ("h:mm a", "UTC", "12:00 AM", 946_684_800, 0),
    ("h:mm a", "UTC", "12:00 PM", 946_728_000, 0),
    ("K:mm a", "UTC", "0:30 PM", 946_729_800, 0),
    ("k:mm", "UTC", "24:00", 946_684_800, 0),
    ("HH:mm", "Europe/Paris", "12:30", 946_726_200, 0),
    ("D/yyyy", "UTC", "60/2024", 1_709_164_800, 0),
    ("DDD yyyy", "UTC", "060 2024", 1_709_164_800, 0),
    ("HH:mm:ss.SSSSSSSSS", "UTC", "12:30:05.125000000", 946_729_805, 125_000_000),
    ("HH:mm:ss.S", "UTC", "12:30:05.9", 946_729_805, 900_000_000),
    ("'at' HH'h'mm ''yy", "UTC", "at 12h30 '24", 1_704_112_200, 0),
    ("HH:mm ZZZZ", "UTC", "12:30 GMT", 946_729_800, 0),
  ]

  @Test func patternsParseAndFormatBothWays() throws {
    for (pattern, zoneName, text, seconds, nanoseconds) in Self.patternCases {
      let zone = try #require(TimeZone(identifier: zoneName))
      let compiled = try DatePattern(pattern, timeZone: zone)
      let date = ValidCase(text, seconds, nanoseconds).date
      #expect(compiled.parse(text).success == date, "\(pattern) parsing \(text)")
      #expect(compiled.format(date) == text, "\(pattern) formatting \(text)")
    }
  }

  /// Texts a pattern reads that it would not write that way, and the instant they give.
  static let patternReadings: [(String, String, String, Int, Int)] = [
    ("dd/MM/yyyy", "UTC", "5/3/2020", 1_583_366_400, 0),
    ("MMM d yyyy", "UTC", "january 5 2020", 1_578_182_400, 0),
    ("MMMM d yyyy", "UTC", "Jan 5 2020", 1_578_182_400, 0),
    ("MMM d yyyy", "UTC", "SEP 5 2020", 1_599_264_000, 0),
    ("yyyy", "UTC", "2023", 1_672_531_200, 0),
    ("yy-MM-dd", "UTC", "2049-01-01", 2_493_072_000, 0),
    ("y-MM-dd", "UTC", "05-01-01", 1_104_537_600, 0),
    ("yyyy-MM-dd", "UTC", "05-01-01", -62_009_366_400, 0),
    ("HH:mm Z", "UTC", "12:30 +02:00", 946_722_600, 0),
    ("HH:mm Z", "UTC", "12:30 Z", 946_729_800, 0),
    ("HH:mm XXX", "UTC", "12:30 +0200", 946_722_600, 0),
    ("HH:mm X", "UTC", "12:30 +02", 946_722_600, 0),
    ("HH:mm ZZZZ", "UTC", "12:30 GMT+02:00", 946_722_600, 0),
    ("HH:mm xxxx", "UTC", "12:30 +000921", 946_729_239, 0),
    ("ss.SSS", "UTC", "05.1", 946_684_805, 100_000_000),
    ("ss.S", "UTC", "05.123456789123", 946_684_805, 123_456_789),
    ("EEE yyyy-MM-dd", "UTC", "thu 2024-02-29", 1_709_164_800, 0),
    ("EEEE yyyy-MM-dd", "UTC", "Thu 2024-02-29", 1_709_164_800, 0),
    ("EEE HH:mm", "UTC", "Mon 12:30", 946_729_800, 0),
    ("hh:mm", "UTC", "12:30", 946_686_600, 0),
    ("hh:mm a", "UTC", "01:30 pm", 946_733_400, 0),
    ("HH:mm a", "UTC", "13:30 AM", 946_733_400, 0),
    ("yyyy-MM-dd HH:mm", "Europe/Paris", "2024-10-27 02:30", 1_729_992_600, 0),
    ("yyyy-MM-dd HH:mm", "America/New_York", "2024-11-03 01:30", 1_730_615_400, 0),
    ("MM-dd", "UTC", "02-29", 951_782_400, 0),
  ]

  @Test func patternsReadWhatDateFormatterReads() throws {
    for (pattern, zoneName, text, seconds, nanoseconds) in Self.patternReadings {
      let zone = try #require(TimeZone(identifier: zoneName))
      let compiled = try DatePattern(pattern, timeZone: zone)
      let expected = ValidCase(text, seconds, nanoseconds).date
      #expect(compiled.parse(text).success == expected, "\(pattern) parsing \(text)")
    }
  }

  static let patternCompileRejections: [InvalidCase] = [
    InvalidCase("", "the pattern is empty", 0),
    InvalidCase("yyyy-MM-dd'T", "unterminated quoted literal in the pattern", 10),
    InvalidCase("GGG yyyy", "pattern field 'GGG' (era) is not supported", 0),
    InvalidCase("dd ddd", "pattern field 'ddd' is not supported; use d or dd", 3),
    InvalidCase(
      "MMMMM",
      "pattern field 'MMMMM' (narrow month name) is not supported; use M, MM, MMM or MMMM", 0),
    InvalidCase(
      "YYYY-MM-dd",
      "pattern field 'YYYY' (week-based year) is not supported; use y for the calendar year", 0),
    InvalidCase(
      "yyyy-MM-dd T HH",
      "pattern field 'T' is not supported; quote letters meant literally, as in 'T'", 11),
    InvalidCase(
      "HH:mm zzz",
      "pattern field 'zzz' (time zone name) is not supported; use Z, ZZZZZ, X or x", 6),
    InvalidCase("ss.SSSSSSSSSS", "pattern field 'SSSSSSSSSS' is not supported; use 1 to 9 'S'", 3),
    InvalidCase(
      "EEEEE",
      "pattern field 'EEEEE' (narrow or short day name) is not supported; "
        + "use EEE for Thu or EEEE for Thursday", 0),
    InvalidCase("XXXXXX", "pattern field 'XXXXXX' is not supported; use 1 to 5 'X'", 0),
    InvalidCase("Q yyyy", "pattern field 'Q' (quarter) is not supported", 0),
  ]

  @Test(arguments: patternCompileRejections)
  func unsupportedPatternsAreRejectedWithExactReasons(_ invalid: InvalidCase) {
    #expect(throws: DateTextError(reason: invalid.reason, offset: invalid.offset)) {
      try DatePattern(invalid.text, timeZone: .gmt)
    }
  }

  /// A pattern, a zone, a text it must reject, the reason, and the offset.
  static let patternRejections: [(String, String, String, String, Int)] = [
    ("yyyy-MM-dd", "UTC", "", "the text is empty", 0),
    ("yyyy-MM-dd", "UTC", "2024/02/29", "expected '-'", 4),
    ("yyyy-MM-dd", "UTC", "2024-02-30", "February 30 does not exist in 2024", 8),
    ("yyyy-MM-dd", "UTC", "2023-02-29", "February 29 does not exist in 2023", 8),
    ("yyyy-MM-dd", "UTC", "2024-13-01", "month 13 is out of range (01–12)", 5),
    ("yyyy-MM-dd", "UTC", " 2024-02-29", "whitespace before the date is not allowed", 0),
    ("yyyy-MM-dd", "UTC", "2024-02-29 ", "whitespace after the date is not allowed", 10),
    ("yyyy-MM-dd", "UTC", "2024-02-291", "unexpected text after the end of the date", 10),
    (
      "yyyy-MM-dd", "UTC", "٢٠٢٤-02-29",
      "non-ASCII digit '٢' (U+0662) in the year; only the ASCII digits 0–9 are allowed", 0
    ),
    ("yyyyMMdd", "UTC", "2024229", "month 22 is out of range (01–12)", 4),
    ("dd/MM/yyyy HH:mm", "UTC", "29/02/2024 24:00", "hour 24 is out of range (00–23)", 11),
    ("HH:mm:ss", "UTC", "12:30:60", "leap seconds (second 60) are not supported", 6),
    ("HH:mm", "UTC", "12:60", "minute 60 is out of range (00–59)", 3),
    ("hh:mm a", "UTC", "13:30 PM", "hour 13 is out of range (01–12)", 0),
    ("hh:mm a", "UTC", "01:30 XM", "expected 'AM' or 'PM'", 6),
    ("KK:mm a", "UTC", "12:00 AM", "hour 12 is out of range (00–11)", 0),
    ("kk:mm", "UTC", "00:00", "hour 0 is out of range (01–24)", 0),
    (
      "EEE, dd MMM yyyy HH:mm:ss Z", "UTC", "Mon, 29 Feb 2024 12:30:05 +0000",
      "day of the week Mon does not match 2024-02-29 (a Thursday)", 0
    ),
    ("EEE, dd MMM yyyy", "UTC", "Thu, 29 Fev 2024", "unknown month name 'Fev'", 8),
    ("EEE, dd MMM yyyy", "UTC", "Thx, 29 Feb 2024", "unknown day name 'Thx'", 0),
    (
      "yyyy-MM-dd HH:mm", "Europe/Paris", "2024-03-31 02:30",
      "2024-03-31 02:30:00 does not exist in Europe/Paris "
        + "(skipped by a daylight saving time change)", 0
    ),
    (
      "yyyy-MM-dd HH:mm", "America/New_York", "2024-03-10 02:00",
      "2024-03-10 02:00:00 does not exist in America/New_York "
        + "(skipped by a daylight saving time change)", 0
    ),
    ("HH:mm Z", "UTC", "12:30 +2400", "offset hour 24 is out of range (00–23)", 7),
    ("HH:mm XXX", "UTC", "12:30 UTC", "expected 'Z' or a UTC offset (±HH:MM, ±HHMM or ±HH)", 6),
    ("HH:mm ZZZZ", "UTC", "12:30 UTC", "expected 'GMT'", 6),
    ("yyyy-MM-dd'T'HH", "UTC", "2024-02-29t12", "expected 'T'", 10),
    ("D yyyy", "UTC", "366 2023", "day 366 of the year does not exist in 2023", 0),
    (
      "yyyy-MM-dd D", "UTC", "2024-02-29 61",
      "day 61 of the year does not match 2024-02-29 (day 60)", 11
    ),
    ("yyyy MMM D", "UTC", "2024 Mar 60", "day 60 of the year is not in March", 9),
    ("ss.SSS", "UTC", "05.", "expected digits for the fraction, but the text ends", 3),
  ]

  @Test func patternsRejectWithExactReasons() throws {
    for (pattern, zoneName, text, reason, offset) in Self.patternRejections {
      let zone = try #require(TimeZone(identifier: zoneName))
      let compiled = try DatePattern(pattern, timeZone: zone)
      #expect(
        compiled.parse(text).failure == DateTextError(reason: reason, offset: offset),
        "\(pattern) reading \(text.debugDescription)")
    }
  }

  @Test func patternsRoundTripMillisecondsInADaylightSavingZone() throws {
    let zone = try #require(TimeZone(identifier: "Europe/Paris"))
    let pattern = try DatePattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", timeZone: zone)
    var random = SplitMix64(seed: 33)
    var failures: [String] = []
    for _ in 0..<5_000 {
      let milliseconds = random.int(in: -62_135_596_800_000...253_402_300_799_999)
      let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      let text = pattern.format(date)
      if pattern.parse(text).success != date { failures.append(text) }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  // MARK: Helpers

  /// A `DateFormatter` with the POSIX locale, `isLenient` false.
  static func dateFormatter(_ pattern: String, _ zone: TimeZone?) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = zone
    formatter.dateFormat = pattern
    return formatter
  }
}

/// Expects `result` to be the instant of `valid`, bit for bit.
private func expectInstant(
  _ result: Result<Date, DateTextError>, _ valid: DateTextTests.ValidCase,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  switch result {
  case .success(let date):
    #expect(
      date.timeIntervalSinceReferenceDate.bitPattern
        == valid.date.timeIntervalSinceReferenceDate.bitPattern,
      "\(date.timeIntervalSince1970) != \(valid.date.timeIntervalSince1970)",
      sourceLocation: sourceLocation)
  case .failure(let error):
    Issue.record("rejected: \(error)", sourceLocation: sourceLocation)
  }
}

/// Expects `result` to be a rejection with exactly the reason and offset of `invalid`.
private func expectRejection(
  _ result: Result<Date, DateTextError>, _ invalid: DateTextTests.InvalidCase,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    result.failure == DateTextError(reason: invalid.reason, offset: invalid.offset),
    sourceLocation: sourceLocation)
}

extension Result {
  /// The success value, or `nil`.
  fileprivate var success: Success? {
    if case .success(let value) = self { return value }
    return nil
  }

  /// The failure, or `nil`.
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a small seeded generator, so failures reproduce.
private struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A value in `range`, nearly uniform (the modulo bias is negligible for these ranges).
  mutating func int(in range: ClosedRange<Int>) -> Int {
    let width = UInt64(range.upperBound - range.lowerBound) + 1
    return range.lowerBound + Int(next() % width)
  }
}
