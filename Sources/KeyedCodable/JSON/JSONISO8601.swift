import Foundation

/// The `.iso8601` date strategies of ``KeyedJSONDecoder`` and ``KeyedJSONEncoder``: Foundation's
/// `Date.ISO8601FormatStyle` results, computed by KeyedCodable's own date engine
/// (``InternetDate``) wherever it gives the same `Date` and the same text, without allocating,
/// and by Foundation elsewhere.
///
/// Reading, the engine decides the common form, `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM|±HH)`
/// for years 1583–9999 (see ``_InternetDateRules/foundationISO8601``); any other text (hour 24,
/// February 30, trailing text, which Foundation reads leniently, or years before the Gregorian
/// reform, which it reads in the Julian calendar) is handed to Foundation. Writing, the engine
/// writes dates from 1583 to 9999, truncated to the second as Foundation truncates them; others
/// are written by Foundation.
///
/// Before macOS 12 / iOS 15 / tvOS 15 / watchOS 8, where `Date.ISO8601FormatStyle` doesn't
/// exist, Foundation's part is done by `ISO8601DateFormatter` with `.withInternetDateTime`.
enum JSONISO8601 {
  /// The instants the engine writes, in seconds since 2001: 1583-01-01T00:00:00Z up to
  /// 10000-01-01T00:00:00Z.
  static let writtenByTheEngine: Range<Double> = -13_190_860_800..<252_423_993_600

  /// The date an ISO 8601 string stands for, as Foundation's `.iso8601` strategy reads it.
  ///
  /// - Parameters:
  ///   - bytes: The string's UTF-8, when it is at hand without allocating (a JSON string
  ///     without escapes); `nil` otherwise.
  ///   - text: The string.
  ///   - formatter: A formatter kept between calls, for systems without
  ///     `Date.ISO8601FormatStyle`.
  /// - Returns: The date, or `nil` when Foundation doesn't read the text either.
  static func date(
    bytes: UnsafeBufferPointer<UInt8>?, text: () -> String,
    formatter: inout ISO8601DateFormatter?
  ) -> Date? {
    if let bytes, let date = InternetDate.parseISO8601LikeFoundation(bytes) {
      return date
    }
    if #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) {
      return try? Date.ISO8601FormatStyle().parse(text())
    }
    return internetDateTimeFormatter(&formatter).date(from: text())
  }

  /// Appends a date as a JSON string, as Foundation's `.iso8601` strategy writes it
  /// (`"2024-02-29T12:30:05Z"`).
  ///
  /// - Parameters:
  ///   - date: The date.
  ///   - writer: The JSON output.
  ///   - formatter: A formatter kept between calls, for systems without
  ///     `Date.ISO8601FormatStyle`.
  static func write(
    _ date: Date, to writer: JSONWriter, formatter: inout ISO8601DateFormatter?
  ) {
    if writtenByTheEngine.contains(date.timeIntervalSinceReferenceDate) {
      // Digits, `-`, `:`, `T` and `Z`: nothing to escape.
      var output = writer
      output.append(UInt8(ascii: "\""))
      InternetDate.appendISO8601(date, fractionalDigits: 0, rounding: .down, to: &output)
      output.append(UInt8(ascii: "\""))
      return
    }
    if #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) {
      writer.string(Date.ISO8601FormatStyle().format(date))
    } else {
      writer.string(internetDateTimeFormatter(&formatter).string(from: date))
    }
  }

  /// The formatter of older systems, made on first use.
  ///
  /// - Parameter formatter: The formatter kept between calls.
  /// - Returns: An `ISO8601DateFormatter` with `.withInternetDateTime`.
  private static func internetDateTimeFormatter(
    _ formatter: inout ISO8601DateFormatter?
  ) -> ISO8601DateFormatter {
    if let formatter { return formatter }
    let made = ISO8601DateFormatter()
    made.formatOptions = .withInternetDateTime
    formatter = made
    return made
  }
}
