/// Why a date text, or a date pattern, was rejected, and where.
///
/// ``reason`` is a sentence a person understands, naming the problem: `month 13 is out of range
/// (01–12)`, `expected ':' after the hour`, `leap seconds (second 60) are not supported`,
/// `February 30 does not exist in 2023`. ``offset`` is where the problem starts, counted in UTF-8
/// bytes from the start of the text (for ASCII text, the character index). ``description`` joins
/// the two: `expected ':' after the hour at offset 13`.
///
/// Every message is built by one of the factory functions below, so this file lists every way a
/// date text can be wrong.
struct DateTextError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, as a sentence without the offset.
  let reason: String
  /// The UTF-8 byte offset of the problem in the text (or in the pattern, for pattern errors).
  let offset: Int

  /// Creates an error from a finished sentence and the offset it applies to.
  ///
  /// - Parameters:
  ///   - reason: What is wrong.
  ///   - offset: The UTF-8 byte offset of the problem.
  init(reason: String, offset: Int) {
    self.reason = reason
    self.offset = offset
  }

  /// The reason followed by the offset: `expected ':' after the hour at offset 13`.
  var description: String { "\(reason) at offset \(offset)" }
}

// MARK: - Fields

/// A numeric field of a date text, named in error messages.
enum _DateTextField: Sendable {
  /// The calendar year.
  case year
  /// The month, 1–12.
  case month
  /// The day of the month, 1–31.
  case day
  /// The day of the year, 1–366.
  case dayOfYear
  /// The hour of the day, 0–23.
  case hour
  /// The hour on a 12-hour clock from 1 (`h`): 1–12.
  case hour12
  /// The hour on a 12-hour clock from 0 (`K`): 0–11.
  case hour11
  /// The hour of the day from 1 (`k`): 1–24.
  case hour24
  /// The minute, 0–59.
  case minute
  /// The second, 0–59.
  case second
  /// The fractional second.
  case fraction
  /// The hours of a UTC offset, 0–23.
  case offsetHour
  /// The minutes of a UTC offset, 0–59.
  case offsetMinute
  /// The seconds of a UTC offset, 0–59.
  case offsetSecond

  /// The field's name in a sentence: `month`, `offset hour`.
  var name: String {
    switch self {
    case .year: "year"
    case .month: "month"
    case .day: "day"
    case .dayOfYear: "day of the year"
    case .hour, .hour12, .hour11, .hour24: "hour"
    case .minute: "minute"
    case .second: "second"
    case .fraction: "fraction"
    case .offsetHour: "offset hour"
    case .offsetMinute: "offset minute"
    case .offsetSecond: "offset second"
    }
  }

  /// The accepted values as the message shows them: `01–12`.
  var rangeText: String {
    switch self {
    case .year, .fraction: "0000–9999"
    case .month: "01–12"
    case .day: "01–31"
    case .dayOfYear: "001–366"
    case .hour, .offsetHour: "00–23"
    case .hour12: "01–12"
    case .hour11: "00–11"
    case .hour24: "01–24"
    case .minute, .second, .offsetMinute, .offsetSecond: "00–59"
    }
  }
}

// MARK: - Every message

extension DateTextError {
  /// The text has no characters.
  static func empty() -> Self {
    Self(reason: "the text is empty", offset: 0)
  }

  /// The text starts with whitespace.
  static func leadingWhitespace() -> Self {
    Self(reason: "whitespace before the date is not allowed", offset: 0)
  }

  /// Whitespace follows the end of the date.
  ///
  /// - Parameter offset: Where the whitespace starts.
  /// - Returns: The error.
  static func trailingWhitespace(at offset: Int) -> Self {
    Self(reason: "whitespace after the date is not allowed", offset: offset)
  }

  /// Something other than whitespace follows the end of the date.
  ///
  /// - Parameter offset: Where the extra text starts.
  /// - Returns: The error.
  static func trailingText(at offset: Int) -> Self {
    Self(reason: "unexpected text after the end of the date", offset: offset)
  }

  /// A specific character was expected: `expected ':' after the hour`.
  ///
  /// - Parameters:
  ///   - what: The expected character or characters, already quoted: `':'`, `'T'`.
  ///   - context: Where it was expected, completing the sentence: `after the hour`; may be empty.
  ///   - offset: Where it was expected.
  ///   - atEnd: Whether the text ends there, which the message then says.
  /// - Returns: The error.
  static func expected(_ what: String, _ context: String, at offset: Int, atEnd: Bool) -> Self {
    var reason = "expected \(what)"
    if !context.isEmpty { reason += " \(context)" }
    if atEnd { reason += ", but the text ends" }
    return Self(reason: reason, offset: offset)
  }

  /// A field does not have the digits it needs: `expected 2 digits for the month`.
  ///
  /// - Parameters:
  ///   - minimum: The fewest digits the field takes.
  ///   - maximum: The most digits the field takes; `Int.max` for no limit.
  ///   - field: The field being read.
  ///   - offset: Where the field starts.
  ///   - atEnd: Whether the text ends where a digit was needed.
  /// - Returns: The error.
  static func expectedDigits(
    _ minimum: Int, _ maximum: Int, for field: _DateTextField, at offset: Int, atEnd: Bool
  ) -> Self {
    let count: String
    if minimum == maximum {
      count = minimum == 1 ? "a digit" : "\(minimum) digits"
    } else if maximum == Int.max {
      count = minimum == 1 ? "digits" : "at least \(minimum) digits"
    } else if maximum == minimum + 1 {
      count = "\(minimum) or \(maximum) digits"
    } else {
      count = "\(minimum) to \(maximum) digits"
    }
    return expected(count, "for the \(field.name)", at: offset, atEnd: atEnd)
  }

  /// A digit from another script where an ASCII digit is needed.
  ///
  /// - Parameters:
  ///   - scalar: The digit found, such as `٣` (ARABIC-INDIC DIGIT THREE).
  ///   - field: The field being read.
  ///   - offset: Where the digit starts.
  /// - Returns: The error.
  static func nonASCIIDigit(
    _ scalar: Unicode.Scalar, in field: _DateTextField, at offset: Int
  ) -> Self {
    let code = String(scalar.value, radix: 16, uppercase: true)
    let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
    return Self(
      reason: "non-ASCII digit '\(scalar)' (U+\(padded)) in the \(field.name); "
        + "only the ASCII digits 0–9 are allowed",
      offset: offset)
  }

  /// A field's value lies outside its range: `month 13 is out of range (01–12)`.
  ///
  /// - Parameters:
  ///   - field: The field.
  ///   - value: The value read.
  ///   - offset: Where the field starts.
  /// - Returns: The error.
  static func outOfRange(_ field: _DateTextField, _ value: Int, at offset: Int) -> Self {
    Self(reason: "\(field.name) \(value) is out of range (\(field.rangeText))", offset: offset)
  }

  /// The second is 60.
  ///
  /// - Parameter offset: Where the second starts.
  /// - Returns: The error.
  static func leapSecond(at offset: Int) -> Self {
    Self(reason: "leap seconds (second 60) are not supported", offset: offset)
  }

  /// A year before the first one the rules read.
  ///
  /// - Parameters:
  ///   - minimum: The first year read.
  ///   - offset: Where the year starts.
  /// - Returns: The error.
  static func yearBefore(_ minimum: Int, at offset: Int) -> Self {
    Self(reason: "years before \(minimum) are not supported", offset: offset)
  }

  /// A fraction with more digits than the rules read.
  ///
  /// - Parameters:
  ///   - maximum: The most digits read.
  ///   - offset: Where the fraction starts.
  /// - Returns: The error.
  static func tooManyFractionDigits(_ maximum: Int, at offset: Int) -> Self {
    Self(reason: "a fraction has at most \(maximum) digits", offset: offset)
  }

  /// A UTC offset larger than the rules read.
  ///
  /// - Parameters:
  ///   - maximum: The largest offset read, in seconds.
  ///   - offset: Where the offset starts (at its sign).
  /// - Returns: The error.
  static func offsetTooLarge(maximum: Int, at offset: Int) -> Self {
    let limit = String(maximum / 3600) + ":" + String(maximum / 60 % 60 + 100).dropFirst()
    return Self(reason: "UTC offsets beyond ±\(limit) are not supported", offset: offset)
  }

  /// A day that its month does not have: `February 30 does not exist in 2023`.
  ///
  /// - Parameters:
  ///   - day: The day of the month, 1–31.
  ///   - month: The month, 1–12.
  ///   - year: The year.
  ///   - offset: Where the day starts.
  /// - Returns: The error.
  static func noSuchDay(day: Int, month: Int, year: Int, at offset: Int) -> Self {
    let name = _EnglishDateNames.monthName(month)
    return Self(reason: "\(name) \(day) does not exist in \(year)", offset: offset)
  }

  /// A day of the year that its year does not have: `day 366 of the year does not exist in 2023`.
  ///
  /// - Parameters:
  ///   - dayOfYear: The day of the year.
  ///   - year: The year.
  ///   - offset: Where the day of the year starts.
  /// - Returns: The error.
  static func noSuchDayOfYear(_ dayOfYear: Int, year: Int, at offset: Int) -> Self {
    Self(reason: "day \(dayOfYear) of the year does not exist in \(year)", offset: offset)
  }

  /// A day of the year in another month than the month field says.
  ///
  /// - Parameters:
  ///   - dayOfYear: The day of the year.
  ///   - month: The month field.
  ///   - offset: Where the day of the year starts.
  /// - Returns: The error.
  static func dayOfYearNotInMonth(_ dayOfYear: Int, month: Int, at offset: Int) -> Self {
    let name = _EnglishDateNames.monthName(month)
    return Self(reason: "day \(dayOfYear) of the year is not in \(name)", offset: offset)
  }

  /// A day of the year that is not the day the year, month and day give.
  ///
  /// - Parameters:
  ///   - dayOfYear: The day of the year read.
  ///   - date: The date the other fields give.
  ///   - offset: Where the day of the year starts.
  /// - Returns: The error.
  static func dayOfYearMismatch(_ dayOfYear: Int, date: CivilDate, at offset: Int) -> Self {
    Self(
      reason: "day \(dayOfYear) of the year does not match \(date) (day \(date.dayOfYear))",
      offset: offset)
  }

  /// A year with more than four digits where at most four are allowed.
  ///
  /// - Parameter offset: Where the year starts.
  /// - Returns: The error.
  static func yearTooLong(at offset: Int) -> Self {
    Self(reason: "years after 9999 are not supported", offset: offset)
  }

  /// A year with a sign (ISO 8601 expanded representation).
  static func signedYear() -> Self {
    Self(reason: "signed (expanded) years are not supported", offset: 0)
  }

  /// A day of the week that does not match the date.
  ///
  /// - Parameters:
  ///   - written: The day name as written, such as `Mon`.
  ///   - date: The date the text gives.
  ///   - offset: Where the day name starts.
  /// - Returns: The error.
  static func weekdayMismatch(_ written: String, date: CivilDate, at offset: Int) -> Self {
    let actual = _EnglishDateNames.weekdayName(date.weekday)
    return Self(
      reason: "day of the week \(written) does not match \(date) (a \(actual))", offset: offset)
  }

  /// A name that is not an English day name.
  ///
  /// - Parameters:
  ///   - written: The letters found; empty when there are none.
  ///   - offset: Where the letters start.
  ///   - atEnd: Whether the text ends there.
  /// - Returns: The error.
  static func unknownWeekday(_ written: String, at offset: Int, atEnd: Bool) -> Self {
    if written.isEmpty {
      return expected("an English day name (Mon–Sun)", "", at: offset, atEnd: atEnd)
    }
    return Self(reason: "unknown day name '\(written)'", offset: offset)
  }

  /// A name that is not an English month name.
  ///
  /// - Parameters:
  ///   - written: The letters found; empty when there are none.
  ///   - offset: Where the letters start.
  ///   - atEnd: Whether the text ends there.
  /// - Returns: The error.
  static func unknownMonth(_ written: String, at offset: Int, atEnd: Bool) -> Self {
    if written.isEmpty {
      return expected("an English month name (Jan–Dec)", "", at: offset, atEnd: atEnd)
    }
    return Self(reason: "unknown month name '\(written)'", offset: offset)
  }

  /// Neither `AM` nor `PM` where the pattern has `a`.
  ///
  /// - Parameters:
  ///   - offset: Where the day period was expected.
  ///   - atEnd: Whether the text ends there.
  /// - Returns: The error.
  static func expectedDayPeriod(at offset: Int, atEnd: Bool) -> Self {
    expected("'AM' or 'PM'", "", at: offset, atEnd: atEnd)
  }

  /// A time zone abbreviation that RFC 2822 does not define.
  ///
  /// - Parameters:
  ///   - written: The letters found.
  ///   - offset: Where they start.
  /// - Returns: The error.
  static func unknownZone(_ written: String, at offset: Int) -> Self {
    if written.count == 1 {
      return Self(
        reason: "military time zone '\(written)' is not supported (only 'Z' is)", offset: offset)
    }
    return Self(reason: "unknown time zone '\(written)'", offset: offset)
  }

  /// A comment in parentheses in an RFC 2822 date.
  ///
  /// - Parameter offset: Where the `(` is.
  /// - Returns: The error.
  static func commentNotSupported(at offset: Int) -> Self {
    Self(reason: "comments in parentheses are not supported", offset: offset)
  }

  /// A line break in folding whitespace that no space or tab follows.
  ///
  /// - Parameter offset: Where the line break starts.
  /// - Returns: The error.
  static func unfoldedLineBreak(at offset: Int) -> Self {
    Self(reason: "a line break must be followed by a space or tab", offset: offset)
  }

  /// A local time that a daylight saving time change skips in the pattern's time zone.
  ///
  /// - Parameters:
  ///   - date: The local date.
  ///   - secondOfDay: The local time, in seconds from midnight.
  ///   - zone: The time zone's identifier.
  /// - Returns: The error.
  static func skippedLocalTime(_ date: CivilDate, secondOfDay: Int, zone: String) -> Self {
    let time =
      _twoDigits(secondOfDay / 3600) + ":" + _twoDigits(secondOfDay / 60 % 60) + ":"
      + _twoDigits(secondOfDay % 60)
    return Self(
      reason:
        "\(date) \(time) does not exist in \(zone) (skipped by a daylight saving time change)",
      offset: 0)
  }

  // MARK: Patterns

  /// The pattern has no characters.
  static func emptyPattern() -> Self {
    Self(reason: "the pattern is empty", offset: 0)
  }

  /// A quoted literal in the pattern that has no closing quote.
  ///
  /// - Parameter offset: Where the opening quote is.
  /// - Returns: The error.
  static func unterminatedQuote(at offset: Int) -> Self {
    Self(reason: "unterminated quoted literal in the pattern", offset: offset)
  }

  /// A pattern field that ``DatePattern`` does not support.
  ///
  /// `pattern field 'GGG' (era) is not supported`, `pattern field 'ddd' is not supported; use d
  /// or dd`.
  ///
  /// - Parameters:
  ///   - field: The field as written, such as `QQQ` or `MMMMM`.
  ///   - meaning: What the field is, when that helps: `era`.
  ///   - hint: What to write instead: `use d or dd`.
  ///   - offset: Where the field starts in the pattern.
  /// - Returns: The error.
  static func unsupportedField(
    _ field: String, meaning: String?, hint: String?, at offset: Int
  ) -> Self {
    var reason = "pattern field '\(field)'"
    if let meaning { reason += " (\(meaning))" }
    reason += " is not supported"
    if let hint { reason += "; \(hint)" }
    return Self(reason: reason, offset: offset)
  }
}

/// Two decimal digits of a value in 0...99, for messages.
private func _twoDigits(_ value: Int) -> String {
  value < 10 ? "0\(value)" : "\(value)"
}
