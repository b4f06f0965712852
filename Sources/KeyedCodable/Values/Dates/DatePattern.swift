import Foundation

/// A compiled Unicode (TR35) date pattern, such as `yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX`, that parses
/// and formats dates with the POSIX locale's conventions in one time zone.
///
/// It stands in for a `DateFormatter` with `locale` `en_US_POSIX`, `isLenient` false and a fixed
/// `timeZone`, without `DateFormatter` or `Calendar`: the pattern is compiled once, parsing reads
/// the text's UTF-8 bytes in place, and dates become instants with integer arithmetic
/// (``CivilDate``). Zones with daylight saving time are handled by asking the `TimeZone` for its
/// offset at each instant.
///
/// ## Fields
///
/// | Letters | Field | Writes |
/// |---|---|---|
/// | `y`, `yyyy` | year | `2024`, `0005` (count = minimum digits) |
/// | `yy` | year, two digits | `24` |
/// | `u` | extended year (may be negative) | `2024`, `-5` |
/// | `M`, `MM`, `L`, `LL` | month | `2`, `02` |
/// | `MMM`, `MMMM` (`LLL`, `LLLL`) | month name | `Feb`, `February` |
/// | `d`, `dd` | day of month | `9`, `09` |
/// | `D`, `DD`, `DDD` | day of year | `60`, `060` |
/// | `H`, `HH` / `k`, `kk` | hour 0–23 / 1–24 | `0`, `00` / `24` |
/// | `h`, `hh` / `K`, `KK` | hour 1–12 / 0–11, with `a` | `12` / `0` |
/// | `m`, `mm`, `s`, `ss` | minute, second | `5`, `05` |
/// | `S` … `SSSSSSSSS` | fraction of a second, 1–9 digits | `1`, `123`, `123456` |
/// | `a` … `aaaa` | AM or PM | `AM` |
/// | `E`, `EE`, `EEE` / `EEEE` | day of the week | `Thu` / `Thursday` |
/// | `Z`, `ZZ`, `ZZZ`, `xxxx` | offset, basic | `+0200`, `+0000` |
/// | `ZZZZ` | offset, GMT form | `GMT+02:00`, `GMT` |
/// | `ZZZZZ`, `XXXXX` / `xxxxx` | offset, extended | `+02:00`, `Z` / `+00:00` |
/// | `X` / `x` | offset, hours and optional minutes | `+02`, `+0530`, `Z` / `+00` |
/// | `XX` / `xx` | offset, basic | `+0200`, `Z` / `+0000` |
/// | `XXX` / `xxx` | offset, extended | `+02:00`, `Z` / `+00:00` |
/// | `XXXX` / `xxxx` | offset, basic, optional seconds | `+0200`, `Z` / `+0000` |
///
/// Text in single quotes is literal (`'T'`), `''` is a quote, and any character that is not an
/// ASCII letter is literal. Other letters (eras, quarters, weeks, zone names …) are rejected when
/// the pattern is compiled.
///
/// ## Parsing
///
/// - Literals must match exactly, whitespace included: no lenient parsing, no whitespace before
///   or after the date.
/// - A numeric field takes 1 up to its largest width of ASCII digits (2 for most, 3 for `D`, 6
///   for years, any number for `S`), like `DateFormatter`: `dd` reads `5`. A numeric field
///   directly followed by another (`yyyyMMdd`, `HHmm`) takes exactly as many digits as its
///   letters.
/// - Two-digit years (`yy`, or `y` given exactly two digits) use `DateFormatter`'s fixed pivot
///   on this platform, a `twoDigitStartDate` of 1950-01-01: `00`–`49` are 2000–2049 and
///   `50`–`99` are 1950–1999, whatever today's date.
/// - Names ignore case and take the full or the abbreviated form (`MMM` reads `Jan` and
///   `January`), as `DateFormatter` does.
/// - Missing fields default as `DateFormatter`'s do: 2000-01-01 00:00:00.000 in the pattern's
///   time zone (`HH:mm` reading `12:30` gives 2000-01-01 12:30 local time). `h` and `K` without
///   `a` are AM; with `H` or `k`, `a` is ignored.
/// - A day of the week (`E`) must match the date when the pattern has a year, a month and a day
///   (or a day of the year); `DateFormatter` ignores it. Without them it is read and ignored.
/// - Fraction digits beyond nine are read and truncated.
/// - Hour 24 is rejected for `H` (`k` is the field that writes 24); second 60 is rejected as an
///   unsupported leap second; offsets are at most ±23:59:59.
/// - Without an offset field the local time is converted in the pattern's time zone. A local
///   time that a daylight saving change skips is rejected (as `DateFormatter` does); a repeated
///   one is the later instant, standard time (as `DateFormatter` gives).
/// - An offset field accepts any of `Z`, `±HH`, `±HHMM`, `±HH:MM`, `±HHMMSS` and `±HH:MM:SS`
///   whatever its letters (`ZZZZ` reads `GMT` and `GMT` followed by one of those offsets), as
///   `DateFormatter` accepts `+02:00` for `Z`.
///
/// ## Formatting
///
/// As `DateFormatter` does, the instant is first rounded to the millisecond, ties toward the
/// later time (to the longest fraction field instead when it has more than three digits), and
/// every field is then truncated like a clock: `HH:mm:ss` writes 12:00:59.7 as `12:00:59`, and
/// `ss.SSS` writes 59.9996 s as `00.000` of the next minute. `DateFormatter` writes `S` fields
/// longer than three digits as milliseconds and trailing zeros; these write the real digits.
/// Years before 1 are written astronomically (`y` and `u` alike, 0 is 1 BC, `-1` is 2 BC), as
/// there is no era field.
///
/// Dates are proleptic Gregorian throughout; `DateFormatter` uses the Julian calendar before
/// 1582-10-15, so the two differ on such dates.
struct DatePattern: Sendable {
  /// The pattern as written.
  let pattern: String
  /// The zone that local times are read and written in.
  let timeZone: TimeZone
  /// The compiled fields and literals, in order.
  private(set) var tokens: [_DatePatternToken]
  /// The bytes of every literal, which tokens refer to by range.
  let literals: [UInt8]
  /// The zone's offset when it never changes (UTC, GMT, fixed offsets), read once.
  let fixedOffset: Int?
  /// The fraction digits formatting rounds to: those of the longest fraction field, at least 3.
  let roundingDigits: Int
  /// Whether parsing checks a day of the week against the date.
  let checksWeekday: Bool
  /// Whether the date comes from the day of the year (`D` without `d`).
  let usesDayOfYear: Bool
  /// Whether the pattern has a month field.
  let hasMonth: Bool
  /// Whether the pattern has a day-of-year field.
  let hasDayOfYear: Bool
  /// An upper bound on the UTF-8 length of any formatted date.
  let formattedCapacity: Int

  /// Compiles a pattern.
  ///
  /// - Parameters:
  ///   - pattern: A TR35 pattern using the fields listed in the type's documentation.
  ///   - timeZone: The zone for local times, when the text has no offset, and for formatting.
  /// - Throws: A ``DateTextError`` naming the unsupported field or the unterminated quote, with
  ///   its offset in the pattern.
  init(_ pattern: String, timeZone: TimeZone) throws(DateTextError) {
    self.pattern = pattern
    self.timeZone = timeZone
    (tokens, literals) = try Self.compile(Array(pattern.utf8))

    var fractionDigits = 0
    var hasWeekday = false
    var hasYear = false
    var hasMonth = false
    var hasDay = false
    var hasDayOfYear = false
    var capacity = literals.count
    for token in tokens {
      switch token.kind {
      case .fraction: fractionDigits = max(fractionDigits, token.count)
      case .weekday: hasWeekday = true
      case .year, .extendedYear: hasYear = true
      case .month, .monthName: hasMonth = true
      case .day: hasDay = true
      case .dayOfYear: hasDayOfYear = true
      default: break
      }
      if token.kind != .literal { capacity += max(token.count, 12) + 1 }
    }
    self.roundingDigits = max(fractionDigits, 3)
    self.usesDayOfYear = hasDayOfYear && !hasDay
    self.checksWeekday = hasWeekday && hasYear && ((hasMonth && hasDay) || hasDayOfYear)
    self.hasMonth = hasMonth
    self.hasDayOfYear = hasDayOfYear
    self.formattedCapacity = capacity

    let offset = timeZone.secondsFromGMT()
    if let fixed = TimeZone(secondsFromGMT: offset), fixed == timeZone {
      fixedOffset = offset
    } else if ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "GMT+0", "GMT-0"].contains(timeZone.identifier) {
      fixedOffset = 0
    } else {
      fixedOffset = nil
    }
  }
}

// MARK: - Tokens

/// One field or literal of a compiled ``DatePattern``.
struct _DatePatternToken: Sendable, Equatable {
  /// What a token reads and writes.
  enum Kind: UInt8, Sendable {
    /// Literal text, at ``_DatePatternToken/literal`` in ``DatePattern/literals``.
    case literal
    /// `y`: the year.
    case year
    /// `u`: the extended (astronomical, possibly negative) year.
    case extendedYear
    /// `M`, `MM`, `L`, `LL`: the month number.
    case month
    /// `MMM`, `MMMM`, `LLL`, `LLLL`: the month name.
    case monthName
    /// `d`: the day of the month.
    case day
    /// `D`: the day of the year.
    case dayOfYear
    /// `H`: the hour, 0–23.
    case hour
    /// `k`: the hour, 1–24.
    case hourFrom1
    /// `h`: the hour, 1–12.
    case hour12
    /// `K`: the hour, 0–11.
    case hour12From0
    /// `m`: the minute.
    case minute
    /// `s`: the second.
    case second
    /// `S`: the fraction of a second.
    case fraction
    /// `a`: AM or PM.
    case dayPeriod
    /// `E`: the day of the week.
    case weekday
    /// `Z`, `X`, `x`: the UTC offset.
    case zone
  }

  /// How an offset field writes its offset.
  struct OffsetStyle: Sendable, Equatable {
    /// Whether it is the `GMT±HH:MM` form.
    var gmt = false
    /// Whether a zero offset is written `Z`.
    var utcAsZ = false
    /// Whether `:` separates hours, minutes and seconds.
    var colon = false
    /// Whether the minutes are written when they and the seconds are zero.
    var alwaysMinutes = true
    /// Whether non-zero seconds are written.
    var seconds = false
  }

  /// What the token reads and writes.
  var kind: Kind
  /// The number of pattern letters, or of literal bytes.
  var count: Int
  /// Where a literal's bytes are in ``DatePattern/literals``; empty for fields.
  var literal: Range<Int> = 0..<0
  /// How a zone field writes its offset.
  var offsetStyle = OffsetStyle()
  /// Whether a numeric field is directly followed by another, so it reads exactly `count` digits.
  var abutsNumber = false
  /// Whether a numeric field reads exactly `count` digits although no number follows it (see
  /// ``DatePattern/readingRunEndsExactly()``).
  var readsExactly = false

  /// Whether the field is written and read as digits.
  var isNumeric: Bool {
    switch kind {
    case .year, .extendedYear, .month, .day, .dayOfYear, .hour, .hourFrom1, .hour12,
      .hour12From0, .minute, .second, .fraction:
      true
    case .literal, .monthName, .dayPeriod, .weekday, .zone:
      false
    }
  }

  /// The field a numeric token reads, for messages.
  var field: _DateTextField {
    switch kind {
    case .year, .extendedYear: .year
    case .month: .month
    case .day: .day
    case .dayOfYear: .dayOfYear
    case .hour: .hour
    case .hourFrom1: .hour24
    case .hour12: .hour12
    case .hour12From0: .hour11
    case .minute: .minute
    case .second: .second
    default: .fraction
    }
  }

  /// The most digits a numeric field reads when no number follows it directly.
  var maximumDigits: Int {
    switch kind {
    case .year, .extendedYear: max(count, 6)
    case .dayOfYear: 3
    case .fraction: Int.max
    default: 2
    }
  }
}

// MARK: - Compiling

extension DatePattern {
  /// Splits a pattern into tokens.
  ///
  /// - Parameter pattern: The pattern's UTF-8 bytes.
  /// - Returns: The tokens and the literal bytes they refer to.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  static func compile(
    _ pattern: [UInt8]
  ) throws(DateTextError) -> (tokens: [_DatePatternToken], literals: [UInt8]) {
    guard !pattern.isEmpty else { throw .emptyPattern() }
    var tokens: [_DatePatternToken] = []
    var literals: [UInt8] = []

    func appendLiteral(_ byte: UInt8) {
      if let last = tokens.last, last.kind == .literal, last.literal.upperBound == literals.count {
        tokens[tokens.count - 1].literal = last.literal.lowerBound..<(literals.count + 1)
        tokens[tokens.count - 1].count += 1
      } else {
        tokens.append(
          _DatePatternToken(
            kind: .literal, count: 1, literal: literals.count..<(literals.count + 1))
        )
      }
      literals.append(byte)
    }

    let quote = UInt8(ascii: "'")
    var index = 0
    while index < pattern.count {
      let byte = pattern[index]
      if (byte | 0x20) &- 0x61 < 26 {
        var end = index + 1
        while end < pattern.count, pattern[end] == byte { end += 1 }
        tokens.append(try field(byte, count: end - index, at: index))
        index = end
      } else if byte == quote {
        if index + 1 < pattern.count, pattern[index + 1] == quote {
          appendLiteral(quote)
          index += 2
          continue
        }
        let opening = index
        index += 1
        while true {
          guard index < pattern.count else { throw .unterminatedQuote(at: opening) }
          if pattern[index] == quote {
            if index + 1 < pattern.count, pattern[index + 1] == quote {
              appendLiteral(quote)
              index += 2
              continue
            }
            index += 1
            break
          }
          appendLiteral(pattern[index])
          index += 1
        }
      } else {
        appendLiteral(byte)
        index += 1
      }
    }

    for position in tokens.indices.dropLast()
    where tokens[position].isNumeric && tokens[position + 1].isNumeric {
      tokens[position].abutsNumber = true
    }
    return (tokens, literals)
  }

  /// This pattern, with the last field of each run of numeric fields (`dd` in `yyyyMMdd`)
  /// reading exactly as many digits as its letters, as the others of the run do.
  ///
  /// `DateFormatter` reads a run whose text is short by narrowing its first field (with
  /// `yyyyMMdd'T'HHmmss.SS`, `1940105T224238.23` is January 5 of the year 194), or rejects it;
  /// this pattern gives the last field the digits left (October 5, 1940). Reading the last field
  /// exactly rejects such texts, so that ``JSONFormattedDates`` leaves them to the formatter.
  ///
  /// - Returns: The pattern with those fields exact.
  func readingRunEndsExactly() -> DatePattern {
    var pattern = self
    for position in tokens.indices.dropFirst()
    where tokens[position - 1].abutsNumber && !tokens[position].abutsNumber {
      pattern.tokens[position].readsExactly = true
    }
    return pattern
  }

  /// The token for a run of one pattern letter.
  ///
  /// - Parameters:
  ///   - letter: The ASCII letter.
  ///   - count: How many times it is repeated.
  ///   - offset: Where the run starts in the pattern.
  /// - Returns: The field.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  private static func field(
    _ letter: UInt8, count: Int, at offset: Int
  ) throws(DateTextError) -> _DatePatternToken {
    func unsupported(_ meaning: String? = nil, _ hint: String? = nil) -> DateTextError {
      let text = String(repeating: Character(Unicode.Scalar(letter)), count: count)
      return .unsupportedField(text, meaning: meaning, hint: hint, at: offset)
    }
    func token(
      _ kind: _DatePatternToken.Kind, upTo maximum: Int, _ hint: String
    ) throws(DateTextError) -> _DatePatternToken {
      guard count <= maximum else { throw unsupported(nil, hint) }
      return _DatePatternToken(kind: kind, count: count)
    }
    func zone(
      utcAsZ: Bool, colon: Bool, alwaysMinutes: Bool = true, seconds: Bool = false,
      gmt: Bool = false
    ) -> _DatePatternToken {
      let style = _DatePatternToken.OffsetStyle(
        gmt: gmt, utcAsZ: utcAsZ, colon: colon, alwaysMinutes: alwaysMinutes, seconds: seconds)
      return _DatePatternToken(kind: .zone, count: count, offsetStyle: style)
    }

    switch letter {
    case UInt8(ascii: "y"): return try token(.year, upTo: 9, "use 1 to 9 'y'")
    case UInt8(ascii: "u"): return try token(.extendedYear, upTo: 9, "use 1 to 9 'u'")
    case UInt8(ascii: "M"), UInt8(ascii: "L"):
      guard count <= 4 else { throw unsupported("narrow month name", "use M, MM, MMM or MMMM") }
      return _DatePatternToken(kind: count <= 2 ? .month : .monthName, count: count)
    case UInt8(ascii: "d"): return try token(.day, upTo: 2, "use d or dd")
    case UInt8(ascii: "D"): return try token(.dayOfYear, upTo: 3, "use D, DD or DDD")
    case UInt8(ascii: "H"): return try token(.hour, upTo: 2, "use H or HH")
    case UInt8(ascii: "k"): return try token(.hourFrom1, upTo: 2, "use k or kk")
    case UInt8(ascii: "h"): return try token(.hour12, upTo: 2, "use h or hh")
    case UInt8(ascii: "K"): return try token(.hour12From0, upTo: 2, "use K or KK")
    case UInt8(ascii: "m"): return try token(.minute, upTo: 2, "use m or mm")
    case UInt8(ascii: "s"): return try token(.second, upTo: 2, "use s or ss")
    case UInt8(ascii: "S"): return try token(.fraction, upTo: 9, "use 1 to 9 'S'")
    case UInt8(ascii: "a"):
      guard count <= 4 else { throw unsupported("narrow day period", "use a") }
      return _DatePatternToken(kind: .dayPeriod, count: count)
    case UInt8(ascii: "E"):
      guard count <= 4 else {
        throw unsupported("narrow or short day name", "use EEE for Thu or EEEE for Thursday")
      }
      return _DatePatternToken(kind: .weekday, count: count)
    case UInt8(ascii: "Z"):
      switch count {
      case 1...3: return zone(utcAsZ: false, colon: false, seconds: true)
      case 4: return zone(utcAsZ: false, colon: true, seconds: true, gmt: true)
      case 5: return zone(utcAsZ: true, colon: true, seconds: true)
      default: throw unsupported(nil, "use Z to ZZZZZ")
      }
    case UInt8(ascii: "X"), UInt8(ascii: "x"):
      let utcAsZ = letter == UInt8(ascii: "X")
      switch count {
      case 1: return zone(utcAsZ: utcAsZ, colon: false, alwaysMinutes: false)
      case 2: return zone(utcAsZ: utcAsZ, colon: false)
      case 3: return zone(utcAsZ: utcAsZ, colon: true)
      case 4: return zone(utcAsZ: utcAsZ, colon: false, seconds: true)
      case 5: return zone(utcAsZ: utcAsZ, colon: true, seconds: true)
      default: throw unsupported(nil, "use 1 to 5 '\(Character(Unicode.Scalar(letter)))'")
      }
    case UInt8(ascii: "G"): throw unsupported("era")
    case UInt8(ascii: "Q"), UInt8(ascii: "q"): throw unsupported("quarter")
    case UInt8(ascii: "w"), UInt8(ascii: "W"): throw unsupported("week number")
    case UInt8(ascii: "Y"): throw unsupported("week-based year", "use y for the calendar year")
    case UInt8(ascii: "e"), UInt8(ascii: "c"): throw unsupported("local day of the week", "use E")
    case UInt8(ascii: "F"): throw unsupported("day of the week in the month")
    case UInt8(ascii: "g"): throw unsupported("modified Julian day")
    case UInt8(ascii: "A"): throw unsupported("milliseconds in the day")
    case UInt8(ascii: "z"), UInt8(ascii: "v"), UInt8(ascii: "V"), UInt8(ascii: "O"):
      throw unsupported("time zone name", "use Z, ZZZZZ, X or x")
    case UInt8(ascii: "b"), UInt8(ascii: "B"): throw unsupported("day period", "use a")
    case UInt8(ascii: "r"), UInt8(ascii: "U"): throw unsupported("related or cyclic year")
    default:
      throw unsupported(nil, "quote letters meant literally, as in 'T'")
    }
  }

}
