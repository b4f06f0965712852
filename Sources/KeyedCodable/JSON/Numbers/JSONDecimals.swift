import Foundation

extension JSONNumber {
  /// The `Decimal` Foundation's parser gives for a JSON number token of at most 19 digits, made
  /// from the token's digits without going through a `String`; `nil` when the caller must parse
  /// the text with `Decimal(string:)`.
  ///
  /// `Decimal(string:)` costs about a microsecond per number here, as much as Foundation's whole
  /// decode of one; this costs a few dozen nanoseconds. The result has Foundation's value and
  /// representation (exponent, significand and sign), because it follows the same steps:
  /// - the digits, read as one integer, are the significand, and the exponent is the explicit
  ///   exponent less the number of fraction digits; an exponent outside `Int8` fails there, and
  ///   is left to `Decimal(string:)` here;
  /// - trailing zeros of the significand move into the exponent, up to its maximum of 127
  ///   (Foundation's compaction);
  /// - a negative zero is zero.
  ///
  /// `nil` for the cases this doesn't build: more than 19 digits, an exponent out of range, a
  /// zero with an exponent (`0.0`, whose representation `Decimal`'s public initializers can't
  /// make), a significand that still ends in zero at the largest exponent, and any token that is
  /// not a JSON number.
  ///
  /// - Parameters:
  ///   - start: The first byte of the token.
  ///   - count: The number of bytes in the token.
  /// - Returns: The decimal value, or `nil`.
  static func decimal(_ start: UnsafePointer<UInt8>, count: Int) -> Decimal? {
    guard let token = Token(start, count: count), token.integerCount + token.fractionCount <= 19
    else { return nil }
    var significand = token.digits
    var exponent = token.exponent - Int64(token.fractionCount)
    guard exponent >= Int64(Int8.min), exponent <= Int64(Int8.max) else { return nil }
    if significand == 0 {
      return exponent == 0 || token.isNegative ? Decimal() : nil
    }
    while exponent < Int64(Int8.max), significand % 10 == 0 {
      significand /= 10
      exponent += 1
    }
    // At the largest exponent Foundation keeps the zeros in the significand; `Decimal(_:)`
    // would move them into an exponent that no longer has room.
    guard significand % 10 != 0 else { return nil }
    return Decimal(
      sign: token.isNegative ? .minus : .plus, exponent: Int(exponent),
      significand: Decimal(significand))
  }

  /// The `Decimal` for the JSON number `text`, by ``decimal(_:count:)`` when it can, otherwise
  /// by `Decimal(string:)`; `nil` when `Decimal` can't hold the number.
  ///
  /// - Parameter text: A JSON number.
  /// - Returns: The decimal value, or `nil`.
  static func decimal(text: String) -> Decimal? {
    var text = text
    let fast = text.withUTF8 { bytes in
      bytes.baseAddress.flatMap { decimal($0, count: bytes.count) }
    }
    return fast ?? Decimal(string: text, locale: posixLocale)
  }

  /// The locale of `Decimal(string:locale:)`, in which a period separates the fraction.
  ///
  /// Made once: making a locale costs more than parsing a number.
  static let posixLocale = Locale(identifier: "en_US_POSIX")

  /// Calls `body` with `decimal.description` as UTF-8, written from the decimal's 64-bit
  /// significand; `nil`, without calling `body`, for a NaN or a significand of more than 64
  /// bits, which the caller writes with `description`.
  ///
  /// `description` divides the 128-bit significand by ten once per digit and builds the text a
  /// character at a time, about 4 µs a number here; this reads the significand once (through
  /// `NSDecimalNumber`, the public way to it) and writes the digits: the significand's digits,
  /// then `exponent` zeros, or a point `-exponent` digits from the end, with `0.` and zeros
  /// before it when the digits are fewer.
  ///
  /// - Parameters:
  ///   - decimal: The value to write.
  ///   - body: Receives the text, at most 180 bytes.
  /// - Returns: What `body` returns, or `nil`.
  static func withDecimalText<Result>(
    _ decimal: Decimal, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    guard !decimal.isNaN else { return nil }
    let significand = decimal.significand
    let magnitude = NSDecimalNumber(decimal: significand).uint64Value
    guard Decimal(magnitude) == significand else { return nil }
    let exponent = decimal.exponent
    // 20 digits, 128 zeros, "-" and "0.": the longest text a Decimal of 64 bits has.
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 180) { buffer in
      var written = 0
      func append(_ byte: UInt8, count: Int = 1) {
        for _ in 0..<count {
          buffer[written] = byte
          written += 1
        }
      }
      if magnitude == 0 {
        append(UInt8(ascii: "0"))
        return body(UnsafeBufferPointer(rebasing: buffer[..<written]))
      }
      // The digits, last first, at the end of the buffer.
      var digitStart = 180
      var value = magnitude
      repeat {
        digitStart -= 1
        buffer[digitStart] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
        value /= 10
      } while value != 0
      let digitCount = 180 - digitStart
      if decimal.sign == .minus { append(UInt8(ascii: "-")) }
      let fractionCount = max(0, -exponent)
      if fractionCount >= digitCount {
        append(UInt8(ascii: "0"))
        append(UInt8(ascii: "."))
        append(UInt8(ascii: "0"), count: fractionCount - digitCount)
      }
      for index in digitStart..<180 {
        if fractionCount > 0, fractionCount < digitCount, index == 180 - fractionCount {
          append(UInt8(ascii: "."))
        }
        append(buffer[index])
      }
      append(UInt8(ascii: "0"), count: max(0, exponent))
      return body(UnsafeBufferPointer(rebasing: buffer[..<written]))
    }
  }
}
