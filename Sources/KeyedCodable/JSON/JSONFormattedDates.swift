import Foundation

/// The `.formatted(DateFormatter)` date strategies of ``KeyedJSONDecoder`` and
/// ``KeyedJSONEncoder``: the formatter's results, computed by KeyedCodable's ``DatePattern``
/// wherever the formatter's settings are ones the pattern reproduces, and by the formatter
/// elsewhere.
///
/// A `DateFormatter` costs about 40 µs per date it reads on Linux (ICU's parser and calendar);
/// the pattern reads a date in place in well under a microsecond. The pattern stands in for the
/// formatter only where it gives the same `Date` and the same text, bit for bit:
///
/// - **Settings**, read once per decode or encode: a `DateFormatter` (not a subclass, which may
///   override its methods), the `en_US_POSIX` locale, the Gregorian calendar with its usual
///   reform date, `isLenient` false, no `defaultDate`, no relative formatting, and a
///   `dateFormat` that ``DatePattern`` compiles, without two-digit years (whose pivot is a
///   setting) and without fraction fields longer than three digits (which the formatter writes
///   as milliseconds and zeros). Month and weekday names and AM/PM must be the English ones when
///   the format uses them.
/// - **Reading**: the formatter's time zone must have one offset (UTC, GMT, a fixed offset), or
///   the format must have an offset field, which the text then gives. Anything the pattern
///   rejects (lenient forms, hour 24, a wrong day of the week, trailing text) is handed to the
///   formatter, and so are dates before 1583 (the formatter's calendar is Julian before
///   1582-10-15), after 9999, and fractions longer than nine digits (which the formatter reads
///   through a 32-bit integer). A fraction is cut to the millisecond, as the formatter cuts it.
/// - **Writing**: the time zone must have one offset; dates from 1583 to 9999 are written by
///   the pattern, except those within a few units in the last place of half a millisecond, where
///   the formatter's own floating-point rounding decides.
final class JSONFormattedDates {
  /// The formatter of the strategy, which reads and writes what the pattern doesn't.
  let formatter: DateFormatter
  /// The pattern standing in for the formatter, when its settings allow one.
  private let pattern: DatePattern?
  /// Whether the pattern reads dates.
  let parses: Bool
  /// Whether the pattern writes dates.
  let formats: Bool

  /// The instants the pattern reads, in seconds since 1970: 1583-01-01T00:00:00Z up to
  /// 10000-01-01T00:00:00Z.
  private static let readByThePattern: Range<Int> = -12_212_553_600..<253_402_300_800
  /// The instants the pattern writes, in seconds since 2001: from 1583-01-01T00:00:00Z, and
  /// until two days before 10000-01-01T00:00:00Z, so that no offset takes the local year past
  /// 9999.
  private static let writtenByThePattern: Range<Double> = -13_190_860_800..<252_423_820_800
  /// The formatter's default Gregorian reform date, 1582-10-15T00:00:00Z.
  private static let gregorianReform = Date(timeIntervalSince1970: -12_219_292_800)

  /// The dates of `formatter` kept in `slot` for the rest of a decode or an encode, made on
  /// first use.
  ///
  /// - Parameters:
  ///   - slot: Where a decoder or an encoder keeps them.
  ///   - formatter: The strategy's formatter.
  /// - Returns: The kept dates.
  static func kept(
    in slot: inout JSONFormattedDates?, for formatter: DateFormatter
  ) -> JSONFormattedDates {
    if let slot { return slot }
    let made = JSONFormattedDates(formatter)
    slot = made
    return made
  }

  /// Reads the formatter's settings and compiles its format when they allow it.
  ///
  /// - Parameter formatter: The strategy's formatter.
  init(_ formatter: DateFormatter) {
    self.formatter = formatter
    pattern = Self.pattern(standingInFor: formatter)
    let hasOffsetField = pattern?.tokens.contains { $0.kind == .zone } ?? false
    formats = pattern?.fixedOffset != nil
    parses = formats || hasOffsetField
  }

  /// The pattern that reads and writes what `formatter` does, when its settings allow one.
  ///
  /// - Parameter formatter: The formatter.
  /// - Returns: The compiled format, or `nil`.
  private static func pattern(standingInFor formatter: DateFormatter) -> DatePattern? {
    // Optional on Apple platforms, where the properties are implicitly unwrapped.
    let locale: Locale? = formatter.locale
    let calendar: Calendar? = formatter.calendar
    let timeZone: TimeZone? = formatter.timeZone
    let format: String? = formatter.dateFormat
    let reform: Date? = formatter.gregorianStartDate
    // A subclass may override `date(from:)` and `string(from:)`.
    guard type(of: formatter) == DateFormatter.self, locale?.identifier == "en_US_POSIX",
      calendar?.identifier == .gregorian,
      !formatter.isLenient, formatter.defaultDate == nil, !formatter.doesRelativeDateFormatting,
      reform == nil || reform == gregorianReform, let timeZone, let format, !format.isEmpty,
      let pattern = try? DatePattern(format, timeZone: timeZone)
    else { return nil }

    var names: (months: Bool, weekdays: Bool, dayPeriod: Bool) = (false, false, false)
    for token in pattern.tokens {
      switch token.kind {
      case .year where token.count <= 2: return nil
      case .fraction where token.count > 3: return nil
      case .monthName: names.months = true
      case .weekday: names.weekdays = true
      case .dayPeriod: names.dayPeriod = true
      default: break
      }
    }
    if names.months {
      let months = _EnglishDateNames.months.map(\.description)
      let abbreviations = _EnglishDateNames.monthAbbreviations.map(\.description)
      let symbols: [[String]?] = [
        formatter.monthSymbols, formatter.standaloneMonthSymbols, formatter.shortMonthSymbols,
        formatter.shortStandaloneMonthSymbols,
      ]
      guard symbols == [months, months, abbreviations, abbreviations] else { return nil }
    }
    if names.weekdays {
      let weekdays = _EnglishDateNames.weekdays.map(\.description)
      let abbreviations = _EnglishDateNames.weekdayAbbreviations.map(\.description)
      let symbols: [[String]?] = [formatter.weekdaySymbols, formatter.shortWeekdaySymbols]
      guard symbols == [weekdays, abbreviations] else { return nil }
    }
    if names.dayPeriod {
      let symbols: [String?] = [formatter.amSymbol, formatter.pmSymbol]
      guard symbols == ["AM", "PM"] else { return nil }
    }
    return pattern.readingRunEndsExactly()
  }

  /// The date a string stands for, as `formatter.date(from:)` reads it.
  ///
  /// - Parameters:
  ///   - bytes: The string's UTF-8, when it is at hand without allocating (a JSON string
  ///     without escapes); `nil` otherwise.
  ///   - text: The string.
  /// - Returns: The date, or `nil` when the formatter doesn't read the text.
  func date(bytes: UnsafeBufferPointer<UInt8>?, text: () -> String) -> Date? {
    if parses, let pattern {
      let date: Date?
      if let bytes {
        date = Self.read(bytes, with: pattern)
      } else {
        date = _withDateTextBytes(text()) { Self.read($0, with: pattern) }
      }
      if let date { return date }
    }
    return formatter.date(from: text())
  }

  /// The date the pattern reads, when it is one the formatter reads the same way.
  ///
  /// - Parameters:
  ///   - bytes: The text.
  ///   - pattern: The pattern.
  /// - Returns: The date, or `nil` for the formatter to decide.
  private static func read(_ bytes: UnsafeBufferPointer<UInt8>, with pattern: DatePattern) -> Date?
  {
    guard let instant = try? pattern.parseInstant(bytes), instant.fractionDigits <= 9,
      readByThePattern.contains(instant.seconds)
    else { return nil }
    // The formatter keeps milliseconds, cut from the first three fraction digits.
    let milliseconds = instant.seconds * 1000 + instant.nanoseconds / 1_000_000
    return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// Appends a date as a JSON string, as `formatter.string(from:)` writes it.
  ///
  /// - Parameters:
  ///   - date: The date.
  ///   - writer: The JSON output.
  func write(_ date: Date, to writer: JSONWriter) {
    if formats, let pattern, Self.isWrittenByThePattern(date) {
      pattern.withText(of: date) { writer.string($0) }
    } else {
      writer.string(formatter.string(from: date))
    }
  }

  /// Whether the pattern writes `date` as the formatter does: a date from 1583 to 9999 that is
  /// not within a few units in the last place of half a millisecond, where the formatter's
  /// rounding of `(interval + 978307200) * 1000` could differ from the pattern's exact one.
  ///
  /// - Parameter date: The date.
  /// - Returns: Whether the pattern writes it.
  private static func isWrittenByThePattern(_ date: Date) -> Bool {
    let interval = date.timeIntervalSinceReferenceDate
    guard writtenByThePattern.contains(interval) else { return false }
    let milliseconds = (interval + Double(_DateArithmetic.secondsFrom1970ToReferenceDate)) * 1000
    let fraction = milliseconds - milliseconds.rounded(.down)
    return abs(fraction - 0.5) > 8 * milliseconds.ulp
  }
}
