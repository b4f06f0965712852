import Foundation

/// A day of the proleptic Gregorian calendar, with the integer arithmetic that turns days into
/// dates and back.
///
/// Years are astronomical: year 0 is 1 BC, year -1 is 2 BC, and the Gregorian leap-year rule
/// applies to every year, also before its adoption in 1582 (ISO 8601's proleptic calendar). The
/// conversions are Howard Hinnant's `days_from_civil` and `civil_from_days`
/// (<https://howardhinnant.github.io/date_algorithms.html>): a handful of integer operations,
/// exact for every year an `Int` day count can hold, with no `Calendar` involved.
struct CivilDate: Hashable, Sendable, CustomStringConvertible {
  /// The astronomical year: 0 is 1 BC.
  var year: Int
  /// The month, 1–12.
  var month: Int
  /// The day of the month, 1–31.
  var day: Int

  /// Creates a date from its fields, which must already be valid.
  ///
  /// - Parameters:
  ///   - year: The astronomical year.
  ///   - month: The month, 1–12.
  ///   - day: The day of the month, 1 through the length of the month.
  init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date `days` days after 1970-01-01 (negative: before), Hinnant's `civil_from_days`.
  ///
  /// - Parameter days: Days since 1970-01-01.
  init(daysSince1970 days: Int) {
    let shifted = days + 719_468  // days since 0000-03-01
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097  // 0...146096
    let yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365  // 0...399
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // from March 1
    let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 = March ... 11 = February
    day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// Days since 1970-01-01 (negative: before), Hinnant's `days_from_civil`.
  var daysSince1970: Int {
    let marchYear = month <= 2 ? year - 1 : year  // years start on March 1
    let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
    let yearOfEra = marchYear - era * 400  // 0...399
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1  // 0...365
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear  // 0...146096
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The day of the week: 0 is Sunday, 6 is Saturday.
  var weekday: Int {
    // 1970-01-01 was a Thursday (4).
    let remainder = (daysSince1970 + 4) % 7
    return remainder < 0 ? remainder + 7 : remainder
  }

  /// The day of the year, 1–366.
  var dayOfYear: Int {
    daysSince1970 - CivilDate(year: year, month: 1, day: 1).daysSince1970 + 1
  }

  /// The date as ISO 8601 writes it: `2024-02-29`, `-0001-12-31`.
  var description: String {
    let digits = String(year.magnitude)
    let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    let month = month < 10 ? "0\(month)" : "\(month)"
    let day = day < 10 ? "0\(day)" : "\(day)"
    return "\(year < 0 ? "-" : "")\(padded)-\(month)-\(day)"
  }

  /// Whether `year` has a February 29.
  ///
  /// - Parameter year: The astronomical year.
  /// - Returns: `true` for years divisible by 4, except centuries not divisible by 400.
  static func isLeapYear(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// The number of days in a month.
  ///
  /// - Parameters:
  ///   - month: The month, 1–12.
  ///   - year: The astronomical year.
  /// - Returns: 28 to 31.
  static func daysInMonth(_ month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// The date that is day `dayOfYear` of `year`, or `nil` when the year is shorter.
  ///
  /// - Parameters:
  ///   - year: The astronomical year.
  ///   - dayOfYear: The day of the year, from 1.
  init?(year: Int, dayOfYear: Int) {
    guard dayOfYear >= 1, dayOfYear <= (Self.isLeapYear(year) ? 366 : 365) else { return nil }
    self.init(daysSince1970: CivilDate(year: year, month: 1, day: 1).daysSince1970 + dayOfYear - 1)
  }
}

// MARK: - Instants

/// Conversions between `Date` and whole seconds plus a decimal fraction, without `Calendar`.
enum _DateArithmetic {
  /// Seconds in a day.
  static let secondsPerDay = 86_400

  /// Seconds from 1970-01-01 to 2001-01-01, `Date`'s reference date.
  static let secondsFrom1970ToReferenceDate = 978_307_200

  /// The largest magnitude, in seconds from the reference date, that formatting handles.
  ///
  /// About ±3.17 million years: larger dates, and infinities, are clamped to it, so the integer
  /// arithmetic after it can never overflow.
  static let formattingLimit: Double = 1e14

  /// The largest magnitude of seconds since 1970 for which `seconds * 1000` is exact in a
  /// `Double` (below 2^53).
  static let millisecondPathLimit = 9_000_000_000_000

  /// Powers of ten from 10^0 to 10^9.
  static let powersOfTen: [Int] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
  ]

  /// The `Date` for whole seconds since 1970 plus nanoseconds.
  ///
  /// Whole seconds are exact. When the fraction has at most three significant digits (whole
  /// milliseconds), the result is `Date(timeIntervalSince1970: Double(milliseconds) / 1000)`: one
  /// correctly rounded division of an exact integer, which is what Foundation's formatters
  /// compute, so a parsed `.123` is bit-for-bit the `Date` they give. Finer fractions add
  /// `Double(nanoseconds) / 1e9` to the seconds, within one unit in the last place of the exact
  /// sum; a `Double` near today resolves about 0.24 µs anyway.
  ///
  /// - Parameters:
  ///   - seconds: Whole seconds since 1970-01-01T00:00:00Z.
  ///   - nanoseconds: The fraction, 0–999 999 999.
  /// - Returns: The instant.
  @inline(__always)
  static func date(secondsSince1970 seconds: Int, nanoseconds: Int) -> Date {
    if nanoseconds % 1_000_000 == 0, seconds.magnitude < millisecondPathLimit {
      let milliseconds = seconds * 1000 + nanoseconds / 1_000_000
      return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
    return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
  }

  /// An instant rounded to a number of fractional digits, half up (ties go to the later time).
  ///
  /// The rounding is exact: the fraction of `timeIntervalSinceReferenceDate` is scaled with a
  /// fused multiply-add that keeps the product's rounding error, so a value a hair below a
  /// half unit never rounds up. Rounding carries into the seconds, so `23:59:59.9996` at three
  /// digits is midnight of the next day. NaN formats as the reference date and values beyond
  /// ``formattingLimit`` (including the infinities) are clamped to it.
  ///
  /// - Parameters:
  ///   - date: The instant.
  ///   - digits: The fractional digits to keep, 0–9.
  /// - Returns: Whole seconds since 1970 and the fraction in units of 10^-digits seconds.
  static func rounded(_ date: Date, fractionDigits digits: Int) -> (seconds: Int, units: Int) {
    var interval = date.timeIntervalSinceReferenceDate
    if interval.isNaN { interval = 0 }
    interval = min(max(interval, -formattingLimit), formattingLimit)
    let whole = interval.rounded(.down)
    let fraction = interval - whole  // exact, in [0, 1)
    var seconds = Int(whole) + secondsFrom1970ToReferenceDate
    let scale = powersOfTen[min(max(digits, 0), 9)]
    let scaled = fraction * Double(scale)
    // The rounding error of `scaled`, exactly: fraction * scale - scaled, in one fused operation.
    let error = (-scaled).addingProduct(fraction, Double(scale))
    let floorScaled = scaled.rounded(.down)
    let remainder = scaled - floorScaled  // exact
    var units = Int(floorScaled)
    if remainder > 0.5 || (remainder == 0.5 && error >= 0) { units += 1 }
    if units >= scale {
      units -= scale
      seconds += 1
    }
    return (seconds, units)
  }

  /// An instant truncated to a number of fractional digits: rounded toward the past, as
  /// Foundation's date formatters do (`12:00:59.97` with no digits is `12:00:59`, and
  /// `-0.5` seconds is `23:59:59` of the day before 1970).
  ///
  /// The truncation is exact: a fraction whose scaled value rounds up to a whole unit in
  /// floating point is still cut below it. NaN and values beyond ``formattingLimit`` are treated
  /// as by ``rounded(_:fractionDigits:)``.
  ///
  /// - Parameters:
  ///   - date: The instant.
  ///   - digits: The fractional digits to keep, 0–9.
  /// - Returns: Whole seconds since 1970 and the fraction in units of 10^-digits seconds.
  static func truncated(_ date: Date, fractionDigits digits: Int) -> (seconds: Int, units: Int) {
    var interval = date.timeIntervalSinceReferenceDate
    if interval.isNaN { interval = 0 }
    interval = min(max(interval, -formattingLimit), formattingLimit)
    let whole = interval.rounded(.down)
    let fraction = interval - whole  // exact, in [0, 1)
    let seconds = Int(whole) + secondsFrom1970ToReferenceDate
    let scale = powersOfTen[min(max(digits, 0), 9)]
    let scaled = fraction * Double(scale)
    // The rounding error of `scaled`, exactly: negative when `scaled` rounded up.
    let error = (-scaled).addingProduct(fraction, Double(scale))
    var units = Int(scaled.rounded(.down))
    if Double(units) == scaled, error < 0 { units -= 1 }
    return (seconds, min(max(units, 0), scale - 1))
  }

  /// `value` divided by `divisor`, rounded toward negative infinity.
  ///
  /// - Parameters:
  ///   - value: The dividend.
  ///   - divisor: A positive divisor.
  /// - Returns: The floor of the quotient.
  @inline(__always)
  static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
    let quotient = value / divisor
    return value % divisor < 0 ? quotient - 1 : quotient
  }
}
