import Foundation

/// Reads and writes the date-time formats of internet protocols without `DateFormatter`,
/// `ISO8601DateFormatter` or `Calendar`: ISO 8601 as used on the web, RFC 3339 and RFC 2822.
///
/// Parsing works on the text's UTF-8 bytes in place and allocates nothing unless it fails; the
/// fields become seconds since 1970 with integer arithmetic (``CivilDate``, proleptic Gregorian)
/// and then a `Date`. Formatting always writes UTC, in the Gregorian calendar, in English.
///
/// All three parsers share these rules:
/// - Only ASCII digits count: `٢٠٢٤` is rejected with a message naming the digit.
/// - No whitespace before or after the date.
/// - Fields out of range are rejected: month 00 and 13, day 00 and 32, days their month does not
///   have (February 29 outside leap years), minute 60, offsets beyond ±23:59.
/// - Hour 24 is rejected, also as `24:00:00`: RFC 3339 allows hours 00–23 only, and one
///   spelling per instant keeps round trips exact. (Foundation's `ISO8601DateFormatter` reads
///   `24:00:00` as midnight of the next day.)
/// - Second 60 is rejected with a message saying leap seconds are not supported: `Date` has no
///   leap seconds, and moving the instant would silently change it. (The `.iso8601` strategies
///   of the JSON coders read it as Foundation does, with ``_InternetDateRules/foundationISO8601``.)
/// - Fractional seconds may have any number of digits; the first nine (nanoseconds) are used
///   and the rest are truncated, never rounded, so a fraction never carries into the seconds.
///
/// Dates are proleptic Gregorian for every year. Foundation's formatters switch to the Julian
/// calendar before 1582-10-15, so they disagree with these functions, by design, about dates
/// before then.
enum InternetDate {}
