import Foundation

extension InternetDate {
  /// Writes a date as an ISO 8601 / RFC 3339 date-time in UTC.
  ///
  /// The text is `YYYY-MM-DDTHH:MM:SSZ`, or with `fractionalDigits` digits after a `.`:
  /// `2024-02-29T12:30:05Z`, `2024-02-29T12:30:05.120Z`. The instant is rounded to the last
  /// digit written, ties toward the later time (as `ISO8601DateFormatter` does for
  /// milliseconds), and the rounding carries: `23:59:59.9996` with three digits is `00:00:00.000`
  /// of the next day. A date parsed from `…:05.123Z` writes back as `.123`.
  ///
  /// `ISO8601DateFormatter` instead rounds to the millisecond and then truncates, so the two
  /// agree on whole seconds and whole milliseconds, but without fraction digits it writes
  /// 12:00:59.7 as `12:00:59` where this writes `12:01:00`. (``DatePattern`` follows
  /// `DateFormatter`'s rule, since it stands in for one.)
  ///
  /// Years 0000–9999 have four digits. Others, which ``parseISO8601(_:)`` does not read, are
  /// written in ISO 8601's expanded form: `+10000-01-01T00:00:00Z`, `-0001-12-31T00:00:00Z`.
  /// Dates beyond about ±3 million years, and infinite ones, are clamped; a NaN date writes as
  /// `2001-01-01T00:00:00Z`.
  ///
  /// With `rounding: .down` the instant is truncated instead, as Foundation's
  /// `Date.ISO8601FormatStyle` truncates it: 12:00:59.7 without fraction digits is `12:00:59`.
  ///
  /// - Parameters:
  ///   - date: The instant.
  ///   - fractionalDigits: The number of fraction digits: usually 0, 3 (milliseconds) or 6
  ///     (microseconds); any value in 0–9 works, others are clamped to it.
  ///   - rounding: How the instant is brought to the last digit written: to the nearest
  ///     (the default) or down.
  /// - Returns: The text.
  static func formatISO8601(
    _ date: Date, fractionalDigits: Int, rounding: _DateRounding = .nearest
  ) -> String {
    _DateTextWriter.string(capacity: 48) { writer in
      writeISO8601(date, fractionalDigits: fractionalDigits, rounding: rounding, to: &writer)
    }
  }

  /// Appends a date as ``formatISO8601(_:fractionalDigits:rounding:)`` writes it, without
  /// making a `String`.
  ///
  /// - Parameters:
  ///   - date: The instant.
  ///   - fractionalDigits: The number of fraction digits, 0–9.
  ///   - rounding: How the instant is brought to the last digit written.
  ///   - bytes: Where to append the text's UTF-8.
  static func appendISO8601(
    _ date: Date, fractionalDigits: Int, rounding: _DateRounding, to bytes: inout some JSONByteSink
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
      var writer = _DateTextWriter(buffer)
      writeISO8601(date, fractionalDigits: fractionalDigits, rounding: rounding, to: &writer)
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<writer.count]))
    }
  }

  /// Writes the text of ``formatISO8601(_:fractionalDigits:rounding:)``.
  ///
  /// - Parameters:
  ///   - date: The instant.
  ///   - fractionalDigits: The number of fraction digits, clamped to 0–9.
  ///   - rounding: How the instant is brought to the last digit written.
  ///   - writer: Where to write, with room for 48 bytes.
  private static func writeISO8601(
    _ date: Date, fractionalDigits: Int, rounding: _DateRounding, to writer: inout _DateTextWriter
  ) {
    let digits = min(max(fractionalDigits, 0), 9)
    let (seconds, units) =
      switch rounding {
      case .nearest: _DateArithmetic.rounded(date, fractionDigits: digits)
      case .down: _DateArithmetic.truncated(date, fractionDigits: digits)
      }
    let days = _DateArithmetic.floorDivide(seconds, _DateArithmetic.secondsPerDay)
    let secondOfDay = seconds - days * _DateArithmetic.secondsPerDay
    let civil = CivilDate(daysSince1970: days)
    writer.appendYear(civil.year, width: 4, plusAbove: 9999)
    writer.append(UInt8(ascii: "-"))
    writer.appendDigits(civil.month, width: 2)
    writer.append(UInt8(ascii: "-"))
    writer.appendDigits(civil.day, width: 2)
    writer.append(UInt8(ascii: "T"))
    writer.appendTime(secondOfDay: secondOfDay)
    if digits > 0 {
      writer.append(UInt8(ascii: "."))
      writer.appendDigits(units, width: digits)
    }
    writer.append(UInt8(ascii: "Z"))
  }

  /// Writes a date as an RFC 2822 date-time in UTC: `Thu, 29 Feb 2024 12:30:05 +0000`.
  ///
  /// The day of the week is always written and the day always has two digits (`01 Mar`), as in
  /// RFC 1123 and HTTP dates; the instant is rounded to the nearest second, ties toward the later
  /// time. Years outside 0000–9999 have no RFC 2822 form: they are written with more digits or a
  /// `-` and ``parseRFC2822(_:)`` does not read them back.
  ///
  /// - Parameter date: The instant.
  /// - Returns: The text.
  static func formatRFC2822(_ date: Date) -> String {
    let (seconds, _) = _DateArithmetic.rounded(date, fractionDigits: 0)
    let days = _DateArithmetic.floorDivide(seconds, _DateArithmetic.secondsPerDay)
    let secondOfDay = seconds - days * _DateArithmetic.secondsPerDay
    let civil = CivilDate(daysSince1970: days)
    return _DateTextWriter.string(capacity: 48) { writer in
      writer.append(_EnglishDateNames.weekdayAbbreviations[civil.weekday])
      writer.append(UInt8(ascii: ","))
      writer.append(UInt8(ascii: " "))
      writer.appendDigits(civil.day, width: 2)
      writer.append(UInt8(ascii: " "))
      writer.append(_EnglishDateNames.monthAbbreviations[civil.month - 1])
      writer.append(UInt8(ascii: " "))
      writer.appendYear(civil.year, width: 4)
      writer.append(UInt8(ascii: " "))
      writer.appendTime(secondOfDay: secondOfDay)
      writer.append(" +0000")
    }
  }
}

/// How a formatter brings an instant to the last digit it writes.
enum _DateRounding: Sendable {
  /// To the nearest, ties toward the later time.
  case nearest
  /// Toward the past, as Foundation's formatters truncate.
  case down
}

extension _DateTextWriter {
  /// Appends `HH:MM:SS`.
  ///
  /// - Parameter secondOfDay: Seconds since midnight, 0–86399.
  @inline(__always)
  mutating func appendTime(secondOfDay: Int) {
    appendDigits(secondOfDay / 3600, width: 2)
    append(UInt8(ascii: ":"))
    appendDigits(secondOfDay / 60 % 60, width: 2)
    append(UInt8(ascii: ":"))
    appendDigits(secondOfDay % 60, width: 2)
  }
}
