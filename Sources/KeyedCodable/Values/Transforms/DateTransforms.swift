import Foundation

// Dates, per mapping: each transform reads and writes one format, whatever date strategy the
// coder has, so one model can mix them. None uses `DateFormatter` or `ISO8601DateFormatter`:
// the formats are parsed and written by KeyedCodable's own date engine (`InternetDate`,
// `DatePattern`), which allocates nothing to parse and is safe from any thread.

/// `Date` as ISO 8601 text; made by ``ValueTransform/iso8601`` and
/// ``ValueTransform/iso8601(fractionalDigits:)``.
///
/// Reads `2024-02-29T12:30:05Z`, with fractional seconds of any length (`…05.120Z`) and with an
/// offset (`…05+01:00`, `…05+0100`, `…05+01`). Writes UTC with `Z` and the chosen number of
/// fractional digits, rounded. Round trips are exact to the written precision: whole seconds,
/// or milliseconds with 3 digits.
///
/// Rejected, as `DecodingError.dataCorrupted` with a message that names the problem: fields out
/// of range (month 13, February 30, minute 60, hour 24), leap seconds (second 60), offsets
/// beyond ±23:59, non-ASCII digits, surrounding spaces.
public struct ISO8601DateTransform: ValueTransform {
  /// The number of fractional second digits written, 0 to 9.
  public let fractionalDigits: Int

  /// Creates the transform.
  ///
  /// - Parameter fractionalDigits: The number of fractional second digits written, 0 to 9.
  public init(fractionalDigits: Int = 0) {
    self.fractionalDigits = Swift.min(Swift.max(fractionalDigits, 0), 9)
  }

  /// The date the text spells.
  ///
  /// - Parameter text: ISO 8601 text.
  /// - Returns: The date.
  /// - Throws: ``ValueTransformError`` naming what is wrong.
  public func decode(_ text: String) throws -> Date {
    try dateOrError(InternetDate.parseISO8601(text), text, format: "an ISO 8601 date")
  }

  /// The date as ISO 8601 text in UTC.
  ///
  /// - Parameter date: The date.
  /// - Returns: The text.
  /// - Throws: ``ValueTransformError`` for a date outside the years 0000–9999, which the format
  ///   cannot write so that it reads back.
  public func encode(_ date: Date) throws -> String {
    try checkWritableYear(date, format: "ISO 8601")
    return InternetDate.formatISO8601(date, fractionalDigits: fractionalDigits)
  }
}

extension ISO8601DateTransform {
  /// Throws what ``encode(_:)`` throws for `date`, if anything.
  ///
  /// - Throws: ``ValueTransformError`` for a date outside the years 0000–9999.
  func checkWritable(_ date: Date) throws {
    try checkWritableYear(date, format: "ISO 8601")
  }

  /// Appends the text ``encode(_:)`` makes for a date ``checkWritable(_:)`` accepts, in quotes,
  /// without making a `String`: the JSON coder's way of writing the transform's dates (the text
  /// has nothing to escape).
  ///
  /// - Parameters:
  ///   - date: The date.
  ///   - sink: The JSON output.
  func appendQuoted(_ date: Date, to sink: inout some JSONByteSink) {
    sink.append(UInt8(ascii: "\""))
    InternetDate.appendISO8601(
      date, fractionalDigits: fractionalDigits, rounding: .nearest, to: &sink)
    sink.append(UInt8(ascii: "\""))
  }
}

/// `Date` as RFC 3339 `date-time` text; made by ``ValueTransform/rfc3339``.
///
/// Reads what ISO 8601 reads with an offset written `Z` or `±HH:MM`, also with a lowercase `t`
/// or `z` and with a space between date and time (RFC 3339 §5.6). Writes UTC with `Z` and the
/// chosen number of fractional digits.
public struct RFC3339DateTransform: ValueTransform {
  /// The number of fractional second digits written, 0 to 9.
  public let fractionalDigits: Int

  /// Creates the transform.
  ///
  /// - Parameter fractionalDigits: The number of fractional second digits written, 0 to 9.
  public init(fractionalDigits: Int = 0) {
    self.fractionalDigits = Swift.min(Swift.max(fractionalDigits, 0), 9)
  }

  /// The date the text spells.
  ///
  /// - Parameter text: RFC 3339 text.
  /// - Returns: The date.
  /// - Throws: ``ValueTransformError`` naming what is wrong.
  public func decode(_ text: String) throws -> Date {
    try dateOrError(InternetDate.parseRFC3339(text), text, format: "an RFC 3339 date")
  }

  /// The date as RFC 3339 text in UTC.
  ///
  /// - Parameter date: The date.
  /// - Returns: The text.
  /// - Throws: ``ValueTransformError`` for a date outside the years 0000–9999.
  public func encode(_ date: Date) throws -> String {
    try checkWritableYear(date, format: "RFC 3339")
    return InternetDate.formatISO8601(date, fractionalDigits: fractionalDigits)
  }
}

/// `Date` as RFC 2822 text (`Thu, 29 Feb 2024 12:30:05 +0000`), as e-mail and HTTP headers
/// write it; made by ``ValueTransform/rfc2822``.
///
/// Reads an optional day of the week (which must match the date), one- or two-digit days,
/// English month names in any letter case, optional seconds, and `±HHMM` or the obsolete zone
/// names `UT`, `GMT`, `Z`, `EST`, `EDT`, `CST`, `CDT`, `MST`, `MDT`, `PST`, `PDT`; comments in
/// parentheses are rejected. Writes UTC with `+0000`; round trips are exact to the second.
public struct RFC2822DateTransform: ValueTransform {
  /// Creates the transform.
  public init() {}

  /// The date the text spells.
  ///
  /// - Parameter text: RFC 2822 text.
  /// - Returns: The date.
  /// - Throws: ``ValueTransformError`` naming what is wrong.
  public func decode(_ text: String) throws -> Date {
    try dateOrError(InternetDate.parseRFC2822(text), text, format: "an RFC 2822 date")
  }

  /// The date as RFC 2822 text in UTC.
  ///
  /// - Parameter date: The date.
  /// - Returns: The text.
  /// - Throws: ``ValueTransformError`` for a date outside the years 0000–9999.
  public func encode(_ date: Date) throws -> String {
    try checkWritableYear(date, format: "RFC 2822")
    return InternetDate.formatRFC2822(date)
  }
}

/// `Date` as a number of seconds or milliseconds since 1970-01-01 00:00:00 UTC; made by
/// ``ValueTransform/unixSeconds`` and ``ValueTransform/unixMilliseconds``.
///
/// Reads any finite number. Seconds are written as they are (`1709209805`, or
/// `1709209805.25`), milliseconds rounded to whole milliseconds (`1709209805250`), so round
/// trips are exact to the second, or to the millisecond.
public struct UnixDateTransform: ValueTransform {
  /// The length of one unit, in seconds: 1 or 0.001.
  let unitsPerSecond: Double

  /// Creates the transform.
  ///
  /// - Parameter milliseconds: Whether the number counts milliseconds instead of seconds.
  public init(milliseconds: Bool = false) {
    unitsPerSecond = milliseconds ? 1000 : 1
  }

  /// The date `number` units after 1970.
  ///
  /// - Parameter number: The number of seconds or milliseconds.
  /// - Returns: The date.
  /// - Throws: ``ValueTransformError`` for a number that is not finite.
  public func decode(_ number: Double) throws -> Date {
    guard number.isFinite else {
      throw ValueTransformError("\(number) is not a number of \(unitName) since 1970.")
    }
    return Date(timeIntervalSince1970: number / unitsPerSecond)
  }

  /// The number of units since 1970.
  ///
  /// - Parameter date: The date.
  /// - Returns: Seconds, or whole milliseconds.
  public func encode(_ date: Date) -> Double {
    let seconds = date.timeIntervalSince1970
    return unitsPerSecond == 1 ? seconds : (seconds * unitsPerSecond).rounded()
  }

  private var unitName: String { unitsPerSecond == 1 ? "seconds" : "milliseconds" }
}

/// `Date` as text in a custom format (a Unicode date pattern such as `yyyy-MM-dd`), read and
/// written in a fixed time zone with POSIX rules (English names, Gregorian calendar); made by
/// ``ValueTransform/dateFormat(_:timeZone:)``.
///
/// Fields the pattern lacks default to 2000-01-01 00:00:00 in the time zone, as
/// `DateFormatter` does; literal text must match exactly. Supported pattern letters: `y`, `u`,
/// `M`, `d`, `D`, `E`, `a`, `h`, `H`, `k`, `K`, `m`, `s`, `S`, `Z`, `X`, `x`, and quoted text;
/// a pattern with another letter makes every value fail with a message naming it.
public struct FormattedDateTransform: ValueTransform {
  /// The compiled pattern, or why it does not compile.
  let pattern: Result<DatePattern, DateTextError>
  /// The pattern as given.
  public let format: String

  /// Creates the transform; the pattern is compiled once per pattern and time zone, and shared.
  ///
  /// - Parameters:
  ///   - format: A Unicode date pattern, such as `yyyy-MM-dd'T'HH:mm`.
  ///   - timeZone: The time zone the text is in; UTC unless given.
  public init(_ format: String, timeZone: TimeZone? = nil) {
    self.format = format
    pattern = DatePatterns.shared.pattern(format, timeZone: timeZone ?? DatePatterns.utc)
  }

  /// The date the text spells.
  ///
  /// - Parameter text: The text.
  /// - Returns: The date.
  /// - Throws: ``ValueTransformError`` naming what is wrong.
  public func decode(_ text: String) throws -> Date {
    switch pattern {
    case .success(let pattern):
      return try dateOrError(
        pattern.parse(text), text, format: "a date of the form \(CodingPathText.quoted(format))")
    case .failure(let error):
      throw ValueTransformError(
        "The date format \(CodingPathText.quoted(format)) is invalid: \(error).")
    }
  }

  /// The date as text.
  ///
  /// - Parameter date: The date.
  /// - Returns: The text.
  /// - Throws: ``ValueTransformError`` when the pattern is invalid.
  public func encode(_ date: Date) throws -> String {
    switch pattern {
    case .success(let pattern):
      try checkWritableYear(
        date, format: "the date format \(CodingPathText.quoted(format))", margin: 86_400)
      return pattern.format(date)
    case .failure(let error):
      throw ValueTransformError(
        "The date format \(CodingPathText.quoted(format)) is invalid: \(error).")
    }
  }
}

/// `Date` read and written by closures; made by ``ValueTransform/date(decode:encode:)``.
public struct CustomDateTransform<Representation: Codable>: ValueTransform {
  let decodeDate: @Sendable (Representation) throws -> Date
  let encodeDate: @Sendable (Date) throws -> Representation

  /// Creates the transform.
  ///
  /// - Parameters:
  ///   - decode: Makes a date from what the document holds.
  ///   - encode: Makes what the document holds from a date.
  public init(
    decode: @escaping @Sendable (Representation) throws -> Date,
    encode: @escaping @Sendable (Date) throws -> Representation
  ) {
    decodeDate = decode
    encodeDate = encode
  }

  /// The date the closure makes.
  ///
  /// - Parameter representation: What the document holds.
  /// - Returns: The date.
  /// - Throws: The closure's error.
  public func decode(_ representation: Representation) throws -> Date {
    try decodeDate(representation)
  }

  /// What the closure makes of the date.
  ///
  /// - Parameter date: The date.
  /// - Returns: What to write.
  /// - Throws: The closure's error.
  public func encode(_ date: Date) throws -> Representation {
    try encodeDate(date)
  }
}

/// Throws unless `date` falls in the years 0000–9999 in UTC, the years every format here writes
/// so that it reads back; `margin` keeps that far from both ends, for formats written in another
/// time zone.
private func checkWritableYear(_ date: Date, format: String, margin: Double = 0) throws {
  let seconds = date.timeIntervalSince1970
  // 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z.
  guard seconds >= -62_167_219_200 + margin, seconds < 253_402_300_800 - margin else {
    throw ValueTransformError(
      "\(date) is outside the years 0000–9999 that \(format) writes so that it reads back.")
  }
}

/// The date of a parse, or an error naming the format and the problem.
private func dateOrError(_ result: Result<Date, DateTextError>, _ text: String, format: String)
  throws -> Date
{
  switch result {
  case .success(let date):
    return date
  case .failure(let error):
    throw ValueTransformError(
      "\(CodingPathText.shown(text)) is not \(format): "
        + "\(error.reason) (at offset \(error.offset)).")
  }
}

/// Compiled date patterns, one per pattern and time zone, shared by every transform made with
/// them.
final class DatePatterns: Sendable {
  static let shared = DatePatterns()

  /// UTC.
  static let utc = TimeZone(secondsFromGMT: 0) ?? TimeZone.current

  private struct Key: Hashable {
    let format: String
    let timeZone: TimeZone
  }

  private let cache = Locked<[Key: Result<DatePattern, DateTextError>]>([:])

  /// The compiled pattern for `format` in `timeZone`.
  func pattern(_ format: String, timeZone: TimeZone) -> Result<DatePattern, DateTextError> {
    let key = Key(format: format, timeZone: timeZone)
    if let cached = cache.withLock({ $0[key] }) {
      return cached
    }
    let compiled = Result { () throws(DateTextError) -> DatePattern in
      try DatePattern(format, timeZone: timeZone)
    }
    cache.withLock { $0[key] = compiled }
    return compiled
  }
}

extension ValueTransform where Self == ISO8601DateTransform {
  /// `Date` as ISO 8601 text, written in UTC without fractional seconds.
  ///
  /// ```swift
  /// try createdAt <-> map["created_at"].using(.iso8601)
  /// ```
  public static var iso8601: ISO8601DateTransform { ISO8601DateTransform() }

  /// `Date` as ISO 8601 text, written in UTC with `fractionalDigits` fractional second digits.
  ///
  /// - Parameter fractionalDigits: The digits written, 0 to 9; 3 for milliseconds.
  /// - Returns: The transform.
  public static func iso8601(fractionalDigits: Int) -> ISO8601DateTransform {
    ISO8601DateTransform(fractionalDigits: fractionalDigits)
  }
}

extension ValueTransform where Self == RFC3339DateTransform {
  /// `Date` as RFC 3339 text, written in UTC without fractional seconds.
  public static var rfc3339: RFC3339DateTransform { RFC3339DateTransform() }
}

extension ValueTransform where Self == RFC2822DateTransform {
  /// `Date` as RFC 2822 text, written in UTC.
  public static var rfc2822: RFC2822DateTransform { RFC2822DateTransform() }
}

extension ValueTransform where Self == UnixDateTransform {
  /// `Date` as a number of seconds since 1970.
  public static var unixSeconds: UnixDateTransform { UnixDateTransform() }

  /// `Date` as a number of milliseconds since 1970, written in whole milliseconds.
  public static var unixMilliseconds: UnixDateTransform { UnixDateTransform(milliseconds: true) }
}

extension ValueTransform where Self == FormattedDateTransform {
  /// `Date` as text in a custom format, in a fixed time zone.
  ///
  /// ```swift
  /// try birthday <-> map["birthday"].using(.dateFormat("yyyy-MM-dd"))
  /// try departure <-> map["departs"].using(
  ///     .dateFormat("dd/MM/yyyy HH:mm", timeZone: TimeZone(identifier: "Europe/Paris")))
  /// ```
  ///
  /// - Parameters:
  ///   - format: A Unicode date pattern.
  ///   - timeZone: The time zone of the text; UTC unless given.
  /// - Returns: The transform.
  public static func dateFormat(_ format: String, timeZone: TimeZone? = nil)
    -> FormattedDateTransform
  {
    FormattedDateTransform(format, timeZone: timeZone)
  }
}

extension ValueTransform {
  /// `Date` read and written by closures, for any other format.
  ///
  /// ```swift
  /// try day <-> map["day"].using(.date(
  ///     decode: { @Sendable (days: Int) in Date(timeIntervalSince1970: Double(days) * 86_400) },
  ///     encode: { @Sendable date in Int(date.timeIntervalSince1970 / 86_400) }))
  /// ```
  ///
  /// - Parameters:
  ///   - decode: Makes a date from what the document holds.
  ///   - encode: Makes what the document holds from a date.
  /// - Returns: The transform.
  public static func date<Representation>(
    decode: @escaping @Sendable (Representation) throws -> Date,
    encode: @escaping @Sendable (Date) throws -> Representation
  ) -> Self where Self == CustomDateTransform<Representation> {
    CustomDateTransform(decode: decode, encode: encode)
  }
}
