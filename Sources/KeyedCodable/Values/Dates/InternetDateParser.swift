import Foundation

extension InternetDate {
  /// Reads an ISO 8601 extended date-time as used on the web.
  ///
  /// The form is `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM|±HH)`, with an uppercase `T` and
  /// `Z`, seconds required, and a fraction of any number of digits after a `.` (the first nine
  /// are used, the rest truncated). Years are 0000–9999; year 0000 is 1 BC of the proleptic
  /// Gregorian calendar (ISO 8601's astronomical numbering), and signed (expanded) years are
  /// rejected. `-00:00` is UTC.
  ///
  /// ```swift
  /// InternetDate.parseISO8601("2024-02-29T12:30:05.120+01:00")  // 1709206205.12
  /// ```
  ///
  /// - Parameter text: The date-time, with nothing before or after it.
  /// - Returns: The instant, or why the text was rejected and where.
  static func parseISO8601(_ text: String) -> Result<Date, DateTextError> {
    _withDateTextBytes(text) { bytes in
      do throws(DateTextError) {
        return .success(try _parseInternetDateTime(bytes, rfc3339: false))
      } catch {
        return .failure(error)
      }
    }
  }

  /// Reads an ISO 8601 date-time from its UTF-8 bytes, as ``parseISO8601(_:)`` reads its text.
  ///
  /// - Parameter bytes: The date-time's UTF-8, with nothing before or after it.
  /// - Returns: The instant, or `nil` when ``parseISO8601(_:)`` rejects the text.
  static func parseISO8601(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
    do throws(DateTextError) {
      return try _parseInternetDateTime(bytes, rfc3339: false)
    } catch {
      return nil
    }
  }

  /// Reads an RFC 3339 `date-time`.
  ///
  /// The form is `YYYY-MM-DD(T|t| )HH:MM:SS[.fraction](Z|z|±HH:MM)`: as
  /// ``parseISO8601(_:)``, but `T` and `Z` may be lowercase, a single space may separate the
  /// date and the time (the note of RFC 3339 §5.6), and an offset must have its colon.
  ///
  /// - Parameter text: The date-time, with nothing before or after it.
  /// - Returns: The instant, or why the text was rejected and where.
  static func parseRFC3339(_ text: String) -> Result<Date, DateTextError> {
    _withDateTextBytes(text) { bytes in
      do throws(DateTextError) {
        return .success(try _parseInternetDateTime(bytes, rfc3339: true))
      } catch {
        return .failure(error)
      }
    }
  }

  /// Reads an RFC 2822 §3.3 date-time, such as `Tue, 1 Jul 2003 10:52:37 +0200`.
  ///
  /// - The day of the week is optional; when present it must be the date's (`Mon, 1 Jul 2003`
  ///   is rejected) and a `,` must follow it directly.
  /// - The day has one or two digits; the month is an English abbreviation (`Jan`–`Dec`); names
  ///   ignore case.
  /// - The year has four digits, or the obsolete two (00–49 are 2000–2049, 50–99 are 1950–1999)
  ///   or three (1900 added) of §4.3. The "1900 or later" of §3.3 is not enforced, so every date
  ///   ``formatRFC2822(_:)`` writes for years 0000–9999 reads back.
  /// - Seconds are optional; hours, minutes and seconds have two digits.
  /// - The zone is `±HHMM` or one of the obsolete `UT`, `GMT`, `Z`, `EST`, `EDT`, `CST`, `CDT`,
  ///   `MST`, `MDT`, `PST`, `PDT` (any case). The other single-letter military zones are
  ///   rejected: §4.3 says their meaning was defined wrongly.
  /// - Folding whitespace (spaces, tabs, and CRLF followed by a space or tab) separates the
  ///   tokens. Comments in parentheses, which the grammar allows wherever whitespace is, are
  ///   rejected with a message saying so, as is whitespace before the day of the week or after
  ///   the zone, and whitespace around `:`.
  ///
  /// - Parameter text: The date-time, with nothing before or after it.
  /// - Returns: The instant, or why the text was rejected and where.
  static func parseRFC2822(_ text: String) -> Result<Date, DateTextError> {
    _withDateTextBytes(text) { bytes in
      do throws(DateTextError) {
        return .success(try _parseRFC2822(bytes))
      } catch {
        return .failure(error)
      }
    }
  }
}

// MARK: - ISO 8601 and RFC 3339

/// Limits and arithmetic of ``InternetDate/_parseInternetDateTime(_:rfc3339:rules:)`` beyond the
/// grammar of its two formats.
///
/// ``strict`` is the behaviour of ``InternetDate/parseISO8601(_:)`` and
/// ``InternetDate/parseRFC3339(_:)``. ``foundationISO8601`` narrows the strict rules to the texts
/// on which the result is bit for bit the `Date` Foundation's `Date.ISO8601FormatStyle` parses
/// (the `.iso8601` strategy of `JSONDecoder`), and reads second 60 as it does.
struct _InternetDateRules: Sendable {
  /// Whether second 60 is read, counted as the first second of the next minute
  /// (`23:59:60Z` is midnight), instead of rejected as a leap second.
  var readsSecond60 = false
  /// The most fraction digits read; more are rejected.
  var maximumFractionDigits = Int.max
  /// The largest UTC offset read, in seconds.
  var maximumOffset = 23 * 3600 + 59 * 60
  /// The first year read; earlier ones are rejected.
  var minimumYear = 0
  /// Whether the instant is `Date(timeIntervalSinceReferenceDate:)` of the whole seconds since
  /// 2001 plus `Double(nanoseconds) / 1e9`, as Foundation's calendar computes it, instead of
  /// ``_DateArithmetic/date(secondsSince1970:nanoseconds:)``.
  var computesFromReferenceDate = false

  /// The rules of ``InternetDate/parseISO8601(_:)`` and ``InternetDate/parseRFC3339(_:)``.
  static let strict = _InternetDateRules()

  /// The subset of ISO 8601 read exactly as Foundation's `Date.ISO8601FormatStyle` reads it.
  ///
  /// Foundation reads more (hour 24, February 30, trailing text, and more, rolling over
  /// or ignoring) and converts dates before the Gregorian reform with the Julian calendar; the
  /// texts these rules reject are not decided here and go to Foundation. What they accept,
  /// Foundation accepts with the same result: years 1583–9999, at most nine fraction digits,
  /// offsets up to ±18:00, second 60 rolled over.
  static let foundationISO8601 = _InternetDateRules(
    readsSecond60: true, maximumFractionDigits: 9, maximumOffset: 18 * 3600, minimumYear: 1583,
    computesFromReferenceDate: true)
}

extension InternetDate {
  /// Reads an ISO 8601 date-time exactly as Foundation's `Date.ISO8601FormatStyle` reads it, for
  /// the texts whose result that can be decided here: see
  /// ``_InternetDateRules/foundationISO8601``.
  ///
  /// Allocates nothing, succeeding or not.
  ///
  /// - Parameter bytes: The UTF-8 text.
  /// - Returns: The instant, or `nil` when the text is outside the subset (Foundation may still
  ///   read it, or reject it).
  static func parseISO8601LikeFoundation(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
    do throws(DateTextError) {
      return try _parseInternetDateTime(bytes, rfc3339: false, rules: .foundationISO8601)
    } catch {
      return nil
    }
  }

  /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]<offset>` with the rules of one of the two formats.
  ///
  /// - Parameters:
  ///   - bytes: The UTF-8 text.
  ///   - rfc3339: Whether RFC 3339's rules apply (lowercase `t` and `z`, a space separator,
  ///     colon offsets only) instead of ISO 8601's (uppercase only, also `±HHMM` and `±HH`).
  ///   - rules: Limits and arithmetic beyond the grammar; ``_InternetDateRules/strict`` unless
  ///     given.
  /// - Returns: The instant.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  static func _parseInternetDateTime(
    _ bytes: UnsafeBufferPointer<UInt8>, rfc3339: Bool, rules: _InternetDateRules = .strict
  ) throws(DateTextError) -> Date {
    var cursor = _DateTextCursor(bytes)
    guard let first = cursor.current else { throw .empty() }
    if _isDateTextWhitespace(first) { throw .leadingWhitespace() }
    if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { throw .signedYear() }

    let date = try cursor.isoDate()
    if date.year < rules.minimumYear { throw .yearBefore(rules.minimumYear, at: 0) }

    let separator = cursor.current
    if separator == UInt8(ascii: "T")
      || (rfc3339 && (separator == UInt8(ascii: "t") || separator == UInt8(ascii: " ")))
    {
      cursor.index += 1
    } else {
      throw .expected(
        rfc3339 ? "'T', 't' or ' '" : "'T'", "between the date and the time", at: cursor.index,
        atEnd: cursor.isAtEnd)
    }

    let (hour, minute, second) = try cursor.isoTime(readsSecond60: rules.readsSecond60)
    var nanoseconds = 0
    if cursor.take(UInt8(ascii: ".")) {
      let fractionStart = cursor.index
      nanoseconds = try cursor.fraction()
      if cursor.index - fractionStart > rules.maximumFractionDigits {
        throw .tooManyFractionDigits(rules.maximumFractionDigits, at: fractionStart)
      }
    }

    let offset: Int
    let zone = cursor.current
    if zone == UInt8(ascii: "Z") || (rfc3339 && zone == UInt8(ascii: "z")) {
      cursor.index += 1
      offset = 0
    } else if zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-") {
      let offsetStart = cursor.index
      cursor.index += 1
      offset = try cursor.utcOffset(
        negative: zone == UInt8(ascii: "-"), colon: rfc3339 ? .required : .optional,
        hoursOnly: !rfc3339, seconds: false)
      if offset.magnitude > rules.maximumOffset {
        throw .offsetTooLarge(maximum: rules.maximumOffset, at: offsetStart)
      }
    } else {
      throw .expected(
        rfc3339 ? "'Z' or a UTC offset (±HH:MM)" : "'Z' or a UTC offset (±HH:MM, ±HHMM or ±HH)",
        "after the time", at: cursor.index, atEnd: cursor.isAtEnd)
    }
    guard cursor.isAtEnd else { throw cursor.trailingError() }

    let seconds =
      date.daysSince1970 * _DateArithmetic.secondsPerDay + hour * 3600 + minute * 60 + second
      - offset
    if rules.computesFromReferenceDate {
      let sinceReferenceDate = seconds - _DateArithmetic.secondsFrom1970ToReferenceDate
      return Date(
        timeIntervalSinceReferenceDate: Double(sinceReferenceDate) + Double(nanoseconds) / 1e9)
    }
    return _DateArithmetic.date(secondsSince1970: seconds, nanoseconds: nanoseconds)
  }
}

// MARK: - RFC 2822

extension InternetDate {
  /// The obsolete zone names of RFC 2822 §4.3, with their offsets in hours.
  static let rfc2822Zones: [(name: StaticString, hours: Int)] = [
    ("UT", 0), ("GMT", 0), ("Z", 0), ("EST", -5), ("EDT", -4), ("CST", -6), ("CDT", -5),
    ("MST", -7), ("MDT", -6), ("PST", -8), ("PDT", -7),
  ]

  /// Parses an RFC 2822 date-time; see ``parseRFC2822(_:)``.
  ///
  /// - Parameter bytes: The UTF-8 text.
  /// - Returns: The instant.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  static func _parseRFC2822(_ bytes: UnsafeBufferPointer<UInt8>) throws(DateTextError) -> Date {
    var cursor = _DateTextCursor(bytes)
    guard let first = cursor.current else { throw .empty() }
    if _isDateTextWhitespace(first) { throw .leadingWhitespace() }

    var weekday: (index: Int, start: Int, end: Int)?
    if (first | 0x20) &- 0x61 < 26 {
      let (start, end) = cursor.letters()
      guard
        let index = _EnglishDateNames.index(
          of: _EnglishDateNames.weekdayAbbreviations, matching: bytes, from: start, to: end)
      else {
        throw .unknownWeekday(cursor.text(from: start, to: end), at: start, atEnd: false)
      }
      weekday = (index, start, end)
      try cursor.expect(UInt8(ascii: ","), "after the day name")
      _ = try cursor.foldingWhitespace()
    }

    let dayStart = cursor.index
    let (day, _) = try cursor.digits(1, upTo: 2, for: .day)
    guard (1...31).contains(day) else { throw .outOfRange(.day, day, at: dayStart) }
    try cursor.requireFoldingWhitespace("after the day")

    let (monthStart, monthEnd) = cursor.letters()
    guard
      let monthIndex = _EnglishDateNames.index(
        of: _EnglishDateNames.monthAbbreviations, matching: bytes, from: monthStart,
        to: monthEnd)
    else {
      throw .unknownMonth(
        cursor.text(from: monthStart, to: monthEnd), at: monthStart,
        atEnd: monthStart == monthEnd && cursor.isAtEnd)
    }
    let month = monthIndex + 1
    try cursor.requireFoldingWhitespace("after the month")

    let yearStart = cursor.index
    let (digits, digitCount) = try cursor.digits(2, upTo: 4, for: .year)
    if cursor.isAtDigit { throw .yearTooLong(at: yearStart) }
    let year =
      switch digitCount {
      case 2: digits < 50 ? 2000 + digits : 1900 + digits
      case 3: 1900 + digits
      default: digits
      }
    guard day <= CivilDate.daysInMonth(month, year: year) else {
      throw .noSuchDay(day: day, month: month, year: year, at: dayStart)
    }
    let date = CivilDate(year: year, month: month, day: day)
    if let weekday, weekday.index != date.weekday {
      throw .weekdayMismatch(
        cursor.text(from: weekday.start, to: weekday.end), date: date, at: weekday.start)
    }
    try cursor.requireFoldingWhitespace("after the year")

    let hourStart = cursor.index
    let hour = try cursor.digits(2, for: .hour)
    guard hour <= 23 else { throw .outOfRange(.hour, hour, at: hourStart) }
    try cursor.expect(UInt8(ascii: ":"), "after the hour")
    let minuteStart = cursor.index
    let minute = try cursor.digits(2, for: .minute)
    guard minute <= 59 else { throw .outOfRange(.minute, minute, at: minuteStart) }
    var second = 0
    if cursor.take(UInt8(ascii: ":")) {
      second = try cursor.second()
    }
    try cursor.requireFoldingWhitespace("before the time zone")

    let offset = try cursor.rfc2822Zone()
    if !cursor.isAtEnd {
      // Say "comment" for a trailing "(CEST)", common in mail headers, rather than "whitespace".
      var probe = cursor.index
      while probe < bytes.count, _isDateTextWhitespace(bytes[probe]) { probe += 1 }
      if probe < bytes.count, bytes[probe] == UInt8(ascii: "(") {
        throw .commentNotSupported(at: probe)
      }
      throw cursor.trailingError()
    }

    let seconds =
      date.daysSince1970 * _DateArithmetic.secondsPerDay + hour * 3600 + minute * 60 + second
      - offset
    return _DateArithmetic.date(secondsSince1970: seconds, nanoseconds: 0)
  }
}

// MARK: - Shared readers

extension _DateTextCursor {
  /// Whether the colon between the hours and minutes of an offset is required or optional.
  enum OffsetColon {
    /// `±HH:MM` only.
    case required
    /// `±HH:MM` or `±HHMM`, the same separator throughout.
    case optional
  }

  /// Reads `YYYY-MM-DD` and checks that the day exists.
  ///
  /// - Returns: The date.
  @inline(__always)
  mutating func isoDate() throws(DateTextError) -> CivilDate {
    let yearStart = index
    let year = try digits(4, for: .year)
    if isAtDigit { throw .yearTooLong(at: yearStart) }
    try expect(UInt8(ascii: "-"), "after the year")
    let monthStart = index
    let month = try digits(2, for: .month)
    guard month >= 1, month <= 12 else { throw .outOfRange(.month, month, at: monthStart) }
    try expect(UInt8(ascii: "-"), "after the month")
    let dayStart = index
    let day = try digits(2, for: .day)
    guard day >= 1, day <= 31 else { throw .outOfRange(.day, day, at: dayStart) }
    guard day <= 28 || day <= CivilDate.daysInMonth(month, year: year) else {
      throw .noSuchDay(day: day, month: month, year: year, at: dayStart)
    }
    return CivilDate(year: year, month: month, day: day)
  }

  /// Reads `HH:MM:SS`.
  ///
  /// - Parameter readsSecond60: Whether second 60 is read instead of rejected as a leap second.
  /// - Returns: The hour, minute and second.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  @inline(__always)
  mutating func isoTime(readsSecond60: Bool = false) throws(DateTextError) -> (
    hour: Int, minute: Int, second: Int
  ) {
    let hourStart = index
    let hour = try digits(2, for: .hour)
    guard hour <= 23 else { throw .outOfRange(.hour, hour, at: hourStart) }
    try expect(UInt8(ascii: ":"), "after the hour")
    let minuteStart = index
    let minute = try digits(2, for: .minute)
    guard minute <= 59 else { throw .outOfRange(.minute, minute, at: minuteStart) }
    try expect(UInt8(ascii: ":"), "after the minute")
    return (hour, minute, try second(readsSecond60: readsSecond60))
  }

  /// Reads a two-digit second, 00–59; 60 is reported as an unsupported leap second unless
  /// `readsSecond60`.
  ///
  /// - Parameter readsSecond60: Whether 60 is read instead of rejected.
  /// - Returns: The second.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  @inline(__always)
  mutating func second(readsSecond60: Bool = false) throws(DateTextError) -> Int {
    let start = index
    let second = try digits(2, for: .second)
    if second == 60 {
      if readsSecond60 { return 60 }
      throw .leapSecond(at: start)
    }
    guard second <= 59 else { throw .outOfRange(.second, second, at: start) }
    return second
  }

  /// Reads a UTC offset after its sign: `HH`, `HH:MM`, `HHMM`, and with `seconds` also
  /// `HH:MM:SS` and `HHMMSS`.
  ///
  /// - Parameters:
  ///   - negative: Whether the sign was `-`.
  ///   - colon: Whether the colon is required or optional.
  ///   - hoursOnly: Whether `HH` alone is allowed.
  ///   - seconds: Whether seconds may follow the minutes.
  /// - Returns: The offset east of UTC, in seconds.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  mutating func utcOffset(
    negative: Bool, colon: OffsetColon, hoursOnly: Bool, seconds: Bool
  ) throws(DateTextError) -> Int {
    let hourStart = index
    let hours = try digits(2, for: .offsetHour)
    guard hours <= 23 else { throw .outOfRange(.offsetHour, hours, at: hourStart) }
    let hasColon = take(UInt8(ascii: ":"))
    if !hasColon {
      if colon == .required {
        throw .expected("':'", "after the offset hour", at: index, atEnd: isAtEnd)
      }
      if hoursOnly, !isAtDigit { return negative ? -hours * 3600 : hours * 3600 }
    }
    let minuteStart = index
    let minutes = try digits(2, for: .offsetMinute)
    guard minutes <= 59 else { throw .outOfRange(.offsetMinute, minutes, at: minuteStart) }
    var total = hours * 3600 + minutes * 60
    if seconds, hasColon ? take(UInt8(ascii: ":")) : isAtDigit {
      let secondStart = index
      let secs = try digits(2, for: .offsetSecond)
      guard secs <= 59 else { throw .outOfRange(.offsetSecond, secs, at: secondStart) }
      total += secs
    }
    return negative ? -total : total
  }

  /// Reads RFC 2822 folding whitespace: spaces, tabs, and CRLF followed by a space or tab.
  ///
  /// - Returns: Whether any whitespace was read.
  mutating func foldingWhitespace() throws(DateTextError) -> Bool {
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x20 || byte == 0x09 {
        index += 1
      } else if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
        guard index + 2 < bytes.count, bytes[index + 2] == 0x20 || bytes[index + 2] == 0x09
        else { throw .unfoldedLineBreak(at: index) }
        index += 3
      } else if byte == UInt8(ascii: "(") {
        throw .commentNotSupported(at: index)
      } else {
        break
      }
    }
    return index > start
  }

  /// Reads folding whitespace that must be there.
  ///
  /// - Parameter context: Where it is needed, completing `expected whitespace …`.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  mutating func requireFoldingWhitespace(_ context: StaticString) throws(DateTextError) {
    guard try foldingWhitespace() else {
      throw .expected("whitespace", "\(context)", at: index, atEnd: isAtEnd)
    }
  }

  /// Reads an RFC 2822 zone: `±HHMM` or an obsolete name.
  ///
  /// - Returns: The offset east of UTC, in seconds.
  mutating func rfc2822Zone() throws(DateTextError) -> Int {
    let sign = current
    if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      index += 1
      let hourStart = index
      let hours = try digits(2, for: .offsetHour)
      guard hours <= 23 else { throw .outOfRange(.offsetHour, hours, at: hourStart) }
      let minuteStart = index
      let minutes = try digits(2, for: .offsetMinute)
      guard minutes <= 59 else { throw .outOfRange(.offsetMinute, minutes, at: minuteStart) }
      let total = hours * 3600 + minutes * 60
      return sign == UInt8(ascii: "-") ? -total : total
    }
    let (start, end) = letters()
    for zone in InternetDate.rfc2822Zones {
      if _EnglishDateNames.matches(zone.name, bytes, from: start, to: end) {
        return zone.hours * 3600
      }
    }
    if start == end {
      throw .expected("a time zone (±HHMM, GMT, UT, EST, …)", "", at: start, atEnd: isAtEnd)
    }
    throw .unknownZone(text(from: start, to: end), at: start)
  }
}
