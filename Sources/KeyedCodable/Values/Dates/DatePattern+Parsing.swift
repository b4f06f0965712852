import Foundation

extension DatePattern {
  /// Reads a date written with this pattern.
  ///
  /// See the type's documentation for the rules: exact literals, ASCII digits only, missing
  /// fields defaulting to 2000-01-01 00:00:00 local time, skipped local times rejected.
  ///
  /// ```swift
  /// let pattern = try DatePattern("dd/MM/yyyy HH:mm", timeZone: paris)  // Europe/Paris
  /// pattern.parse("29/02/2024 12:30")  // .success: 2024-02-29T11:30:00Z
  /// ```
  ///
  /// - Parameter text: The date, with nothing before or after it.
  /// - Returns: The instant, or why the text was rejected and where.
  func parse(_ text: String) -> Result<Date, DateTextError> {
    _withDateTextBytes(text) { bytes in
      do throws(DateTextError) {
        return .success(try parse(bytes))
      } catch {
        return .failure(error)
      }
    }
  }

  /// The fields read so far; a field that is absent keeps its default.
  private struct Fields {
    /// The year; 2000 when absent.
    var year = 2000
    /// The month; 1 when absent.
    var month = 1
    /// The day of the month; 1 when absent.
    var day = 1
    /// Where the day was read, or -1.
    var dayOffset = -1
    /// The day of the year, when read.
    var dayOfYear = 0
    /// Where the day of the year was read, or -1.
    var dayOfYearOffset = -1
    /// The hour from `H` or `k`, 0–23, or -1.
    var hour = -1
    /// The hour from `h` or `K`, 0–11, or -1.
    var hour12 = -1
    /// Whether `a` read PM.
    var isPM = false
    /// The minute.
    var minute = 0
    /// The second.
    var second = 0
    /// The fraction, in nanoseconds.
    var nanoseconds = 0
    /// How many digits the fraction was written with; 0 when absent.
    var fractionDigits = 0
    /// The day of the week read, 0 (Sunday) to 6, or -1.
    var weekday = -1
    /// Where the day of the week starts and ends in the text.
    var weekdayRange = 0..<0
    /// The offset read from the text, in seconds, when there is one.
    var offset: Int?
  }

  /// Parses the UTF-8 bytes of a date.
  ///
  /// - Parameter bytes: The text.
  /// - Returns: The instant.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(DateTextError) -> Date {
    let instant = try parseInstant(bytes)
    return _DateArithmetic.date(
      secondsSince1970: instant.seconds, nanoseconds: instant.nanoseconds)
  }

  /// Parses the UTF-8 bytes of a date into whole seconds and a fraction.
  ///
  /// - Parameter bytes: The text.
  /// - Returns: The seconds since 1970, the nanoseconds after them (the first nine fraction
  ///   digits), and how many fraction digits the text has (0 without a fraction field).
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  func parseInstant(
    _ bytes: UnsafeBufferPointer<UInt8>
  ) throws(DateTextError) -> (seconds: Int, nanoseconds: Int, fractionDigits: Int) {
    var cursor = _DateTextCursor(bytes)
    guard let first = cursor.current else { throw .empty() }
    if _isDateTextWhitespace(first),
      !(tokens[0].kind == .literal && literals[tokens[0].literal.lowerBound] == first)
    {
      throw .leadingWhitespace()
    }

    var fields = Fields()
    for token in tokens {
      try read(token, from: &cursor, into: &fields)
    }
    guard cursor.isAtEnd else { throw cursor.trailingError() }

    let date = try resolveDate(fields, bytes)
    var hour = 0
    if fields.hour >= 0 {
      hour = fields.hour
    } else if fields.hour12 >= 0 {
      hour = fields.hour12 + (fields.isPM ? 12 : 0)
    } else if fields.isPM {
      hour = 12
    }
    let secondOfDay = hour * 3600 + fields.minute * 60 + fields.second
    let local = date.daysSince1970 * _DateArithmetic.secondsPerDay + secondOfDay
    let seconds: Int
    if let offset = fields.offset {
      seconds = local - offset
    } else {
      seconds = try utcSeconds(fromLocal: local, date: date, secondOfDay: secondOfDay)
    }
    return (seconds, fields.nanoseconds, fields.fractionDigits)
  }

  /// Reads one token.
  ///
  /// - Parameters:
  ///   - token: The token.
  ///   - cursor: The text, at the token.
  ///   - fields: The fields read so far.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  @inline(__always)
  private func read(
    _ token: _DatePatternToken, from cursor: inout _DateTextCursor, into fields: inout Fields
  ) throws(DateTextError) {
    let start = cursor.index
    switch token.kind {
    case .literal:
      let bytes = cursor.bytes
      for literalIndex in token.literal {
        guard cursor.index < bytes.count, bytes[cursor.index] == literals[literalIndex] else {
          let text = String(decoding: literals[token.literal], as: UTF8.self)
          throw .expected("'\(text)'", "", at: cursor.index, atEnd: cursor.isAtEnd)
        }
        cursor.index += 1
      }
    case .year, .extendedYear:
      let negative = token.kind == .extendedYear && cursor.take(UInt8(ascii: "-"))
      let (value, count) = try number(token, &cursor)
      if token.kind == .year, token.count <= 2, count == 2 {
        // DateFormatter's two-digit years: a fixed 1950-01-01 start.
        fields.year = value < 50 ? 2000 + value : 1900 + value
      } else {
        fields.year = negative ? -value : value
      }
    case .month:
      fields.month = try number(token, &cursor, 1...12).value
    case .monthName:
      fields.month =
        try name(
          &cursor, _EnglishDateNames.months,
          _EnglishDateNames.monthAbbreviations) + 1
    case .day:
      fields.day = try number(token, &cursor, 1...31).value
      fields.dayOffset = start
    case .dayOfYear:
      fields.dayOfYear = try number(token, &cursor, 1...366).value
      fields.dayOfYearOffset = start
    case .hour:
      fields.hour = try number(token, &cursor, 0...23).value
    case .hourFrom1:
      fields.hour = try number(token, &cursor, 1...24).value % 24
    case .hour12:
      fields.hour12 = try number(token, &cursor, 1...12).value % 12
    case .hour12From0:
      fields.hour12 = try number(token, &cursor, 0...11).value
    case .minute:
      fields.minute = try number(token, &cursor, 0...59).value
    case .second:
      let value = try number(token, &cursor).value
      if value == 60 { throw .leapSecond(at: start) }
      guard value <= 59 else { throw .outOfRange(.second, value, at: start) }
      fields.second = value
    case .fraction:
      if token.abutsNumber || token.readsExactly {
        let value = try cursor.digits(token.count, for: .fraction)
        fields.nanoseconds = value * _DateArithmetic.powersOfTen[9 - token.count]
      } else {
        fields.nanoseconds = try cursor.fraction()
      }
      fields.fractionDigits = cursor.index - start
    case .dayPeriod:
      let bytes = cursor.bytes
      guard cursor.index + 1 < bytes.count, bytes[cursor.index + 1] | 0x20 == UInt8(ascii: "m"),
        bytes[cursor.index] | 0x20 == UInt8(ascii: "a")
          || bytes[cursor.index] | 0x20 == UInt8(ascii: "p")
      else {
        throw .expectedDayPeriod(at: cursor.index, atEnd: cursor.isAtEnd)
      }
      fields.isPM = bytes[cursor.index] | 0x20 == UInt8(ascii: "p")
      cursor.index += 2
    case .weekday:
      fields.weekday = try name(
        &cursor, _EnglishDateNames.weekdays, _EnglishDateNames.weekdayAbbreviations)
      fields.weekdayRange = start..<cursor.index
    case .zone:
      fields.offset = try offset(token.offsetStyle, &cursor)
    }
  }

  /// Reads the digits of a numeric field and checks its range.
  ///
  /// - Parameters:
  ///   - token: The field.
  ///   - cursor: The text, at the field.
  ///   - range: The values allowed, if limited.
  /// - Returns: The value and the number of digits read.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  @inline(__always)
  private func number(
    _ token: _DatePatternToken, _ cursor: inout _DateTextCursor, _ range: ClosedRange<Int>? = nil
  ) throws(DateTextError) -> (value: Int, count: Int) {
    let start = cursor.index
    let result: (value: Int, count: Int)
    if token.abutsNumber || token.readsExactly {
      result = (try cursor.digits(token.count, for: token.field), token.count)
    } else {
      result = try cursor.digits(1, upTo: token.maximumDigits, for: token.field)
    }
    if let range, !range.contains(result.value) {
      throw .outOfRange(token.field, result.value, at: start)
    }
    return result
  }

  /// Reads an English name, full or abbreviated, ignoring case.
  ///
  /// - Parameters:
  ///   - cursor: The text, at the name.
  ///   - full: The full names.
  ///   - abbreviations: The abbreviations, in the same order.
  /// - Returns: The index of the name.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  private func name(
    _ cursor: inout _DateTextCursor, _ full: [StaticString], _ abbreviations: [StaticString]
  ) throws(DateTextError) -> Int {
    let bytes = cursor.bytes
    if let match = _EnglishDateNames.longestPrefix(of: full, in: bytes, at: cursor.index)
      ?? _EnglishDateNames.longestPrefix(of: abbreviations, in: bytes, at: cursor.index)
    {
      cursor.index += match.length
      return match.index
    }
    var probe = cursor
    let (start, end) = probe.letters()
    let written = cursor.text(from: start, to: end)
    if full.count == 12 {
      throw .unknownMonth(written, at: start, atEnd: cursor.isAtEnd)
    }
    throw .unknownWeekday(written, at: start, atEnd: cursor.isAtEnd)
  }

  /// Reads a UTC offset in any of the forms an offset field accepts.
  ///
  /// - Parameters:
  ///   - style: The field's style; only whether it is the `GMT` form matters.
  ///   - cursor: The text, at the offset.
  /// - Returns: The offset east of UTC, in seconds.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  private func offset(
    _ style: _DatePatternToken.OffsetStyle, _ cursor: inout _DateTextCursor
  ) throws(DateTextError) -> Int {
    let bytes = cursor.bytes
    if style.gmt {
      guard _EnglishDateNames.matches("GMT", bytes, from: cursor.index, to: cursor.index + 3)
      else {
        throw .expected("'GMT'", "", at: cursor.index, atEnd: cursor.isAtEnd)
      }
      cursor.index += 3
    } else if cursor.take(UInt8(ascii: "Z")) {
      return 0
    }
    let sign = cursor.current
    guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
      if style.gmt { return 0 }
      throw .expected(
        "'Z' or a UTC offset (±HH:MM, ±HHMM or ±HH)", "", at: cursor.index,
        atEnd: cursor.isAtEnd)
    }
    cursor.index += 1
    return try cursor.utcOffset(
      negative: sign == UInt8(ascii: "-"), colon: .optional, hoursOnly: true, seconds: true)
  }

  /// The calendar date the fields give, checked.
  ///
  /// - Parameters:
  ///   - fields: The fields read.
  ///   - bytes: The text, for messages.
  /// - Returns: The date.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  private func resolveDate(
    _ fields: Fields, _ bytes: UnsafeBufferPointer<UInt8>
  ) throws(DateTextError) -> CivilDate {
    let date: CivilDate
    if usesDayOfYear {
      guard let found = CivilDate(year: fields.year, dayOfYear: fields.dayOfYear) else {
        throw .noSuchDayOfYear(fields.dayOfYear, year: fields.year, at: fields.dayOfYearOffset)
      }
      if hasMonth, found.month != fields.month {
        throw .dayOfYearNotInMonth(
          fields.dayOfYear, month: fields.month, at: fields.dayOfYearOffset)
      }
      date = found
    } else {
      guard fields.day <= CivilDate.daysInMonth(fields.month, year: fields.year) else {
        throw .noSuchDay(
          day: fields.day, month: fields.month, year: fields.year, at: max(fields.dayOffset, 0))
      }
      date = CivilDate(year: fields.year, month: fields.month, day: fields.day)
      if hasDayOfYear, date.dayOfYear != fields.dayOfYear {
        throw .dayOfYearMismatch(fields.dayOfYear, date: date, at: fields.dayOfYearOffset)
      }
    }
    if checksWeekday, fields.weekday != date.weekday {
      let written = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[fields.weekdayRange]), as: UTF8.self)
      throw .weekdayMismatch(written, date: date, at: fields.weekdayRange.lowerBound)
    }
    return date
  }

  /// The instant of a local time in the pattern's time zone.
  ///
  /// The candidates are the local time minus the zone's offsets a day before and a day after;
  /// a candidate is valid when the zone has that offset at it. Two valid candidates mean a
  /// repeated hour: the later instant wins (standard time, as `DateFormatter` gives). None
  /// means a skipped hour, which is rejected.
  ///
  /// - Parameters:
  ///   - local: The local time as seconds since 1970 on a UTC clock.
  ///   - date: The local date, for messages.
  ///   - secondOfDay: The local time of day, for messages.
  /// - Returns: Seconds since 1970 (UTC).
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  private func utcSeconds(
    fromLocal local: Int, date: CivilDate, secondOfDay: Int
  ) throws(DateTextError) -> Int {
    if let fixedOffset { return local - fixedOffset }
    let day = _DateArithmetic.secondsPerDay
    let before = offset(atUTC: local - day)
    let after = offset(atUTC: local + day)
    var result: Int?
    if offset(atUTC: local - before) == before { result = local - before }
    if after != before, offset(atUTC: local - after) == after {
      result = max(result ?? Int.min, local - after)
    }
    guard let result else {
      throw .skippedLocalTime(date, secondOfDay: secondOfDay, zone: timeZone.identifier)
    }
    return result
  }

  /// The zone's offset at an instant.
  ///
  /// - Parameter seconds: Seconds since 1970 (UTC).
  /// - Returns: Seconds east of UTC.
  func offset(atUTC seconds: Int) -> Int {
    timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
  }
}
