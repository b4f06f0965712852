import Foundation

extension DatePattern {
  /// Writes a date with this pattern, in the pattern's time zone.
  ///
  /// The instant is rounded to the millisecond (or to the longest fraction field, when it has
  /// more digits), ties toward the later time; the local time is found with the zone's offset
  /// at the rounded instant, and each field is truncated from it. Numeric fields are
  /// zero-padded to their letter count; names are English.
  ///
  /// ```swift
  /// let pattern = try DatePattern("EEE, dd MMM yyyy HH:mm:ss Z", timeZone: .gmt)
  /// pattern.format(Date(timeIntervalSince1970: 0))  // "Thu, 01 Jan 1970 00:00:00 +0000"
  /// ```
  ///
  /// - Parameter date: The instant.
  /// - Returns: The text.
  func format(_ date: Date) -> String {
    withText(of: date) { String(decoding: $0, as: UTF8.self) }
  }

  /// Writes a date with this pattern, as ``format(_:)`` does, and hands the text's UTF-8 bytes,
  /// in a buffer on the stack, to `body`.
  ///
  /// - Parameters:
  ///   - date: The instant.
  ///   - body: What to do with the bytes, which live only during the call.
  /// - Returns: What `body` returns.
  func withText<Result>(
    of date: Date, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    let (seconds, units) = _DateArithmetic.rounded(date, fractionDigits: roundingDigits)
    let offset = fixedOffset ?? self.offset(atUTC: seconds)
    let local = seconds + offset
    let days = _DateArithmetic.floorDivide(local, _DateArithmetic.secondsPerDay)
    let secondOfDay = local - days * _DateArithmetic.secondsPerDay
    let civil = CivilDate(daysSince1970: days)
    let hour = secondOfDay / 3600

    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: formattedCapacity) { buffer in
      var writer = _DateTextWriter(buffer)
      for token in tokens {
        switch token.kind {
        case .literal:
          for index in token.literal { writer.append(literals[index]) }
        case .year:
          if token.count == 2 {
            writer.appendDigits(Int(civil.year.magnitude % 100), width: 2)
          } else {
            writer.appendYear(civil.year, width: token.count)
          }
        case .extendedYear:
          writer.appendYear(civil.year, width: token.count)
        case .month:
          writer.appendDigits(civil.month, width: token.count)
        case .monthName:
          let names =
            token.count == 3 ? _EnglishDateNames.monthAbbreviations : _EnglishDateNames.months
          writer.append(names[civil.month - 1])
        case .day:
          writer.appendDigits(civil.day, width: token.count)
        case .dayOfYear:
          writer.appendDigits(civil.dayOfYear, width: token.count)
        case .hour:
          writer.appendDigits(hour, width: token.count)
        case .hourFrom1:
          writer.appendDigits(hour == 0 ? 24 : hour, width: token.count)
        case .hour12:
          writer.appendDigits(hour % 12 == 0 ? 12 : hour % 12, width: token.count)
        case .hour12From0:
          writer.appendDigits(hour % 12, width: token.count)
        case .minute:
          writer.appendDigits(secondOfDay / 60 % 60, width: token.count)
        case .second:
          writer.appendDigits(secondOfDay % 60, width: token.count)
        case .fraction:
          let dropped = _DateArithmetic.powersOfTen[roundingDigits - token.count]
          writer.appendDigits(units / dropped, width: token.count)
        case .dayPeriod:
          writer.append(hour < 12 ? "AM" : "PM")
        case .weekday:
          let names =
            token.count == 4 ? _EnglishDateNames.weekdays : _EnglishDateNames.weekdayAbbreviations
          writer.append(names[civil.weekday])
        case .zone:
          let style = token.offsetStyle
          if style.gmt {
            writer.append("GMT")
            if offset != 0 {
              writer.appendOffset(offset, colon: true, alwaysMinutes: true, secondsIfAny: true)
            }
          } else if style.utcAsZ, offset == 0 {
            writer.append(UInt8(ascii: "Z"))
          } else {
            writer.appendOffset(
              offset, colon: style.colon, alwaysMinutes: style.alwaysMinutes,
              secondsIfAny: style.seconds)
          }
        }
      }
      // UInt8 is trivial: the bytes need no deinitialization.
      return body(UnsafeBufferPointer(rebasing: buffer[..<writer.count]))
    }
  }
}
