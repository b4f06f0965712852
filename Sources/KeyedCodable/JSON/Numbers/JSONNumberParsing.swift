/// Converts JSON number tokens to `Double`, `Float` and exact integers, without allocating.
///
/// The token is the bytes of one number as RFC 8259 writes it,
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, usually already validated by the scanner.
/// Every function here checks the grammar again (it costs little) and never traps: a malformed
/// token gives `.nan` or `nil`.
///
/// Floating-point results are correctly rounded (round to nearest, ties to even), so they equal
/// what `Double(String)` and `Float(String)` return. Three steps, fastest first:
///
/// 1. Clinger's fast path (Clinger, "How to Read Floating Point Numbers Accurately", 1990): when
///    the decimal significand and the power of ten are both exact in the binary format, one
///    correctly rounded multiplication or division gives the answer.
/// 2. The Eisel-Lemire algorithm (Lemire, "Number Parsing at a Gigabyte per Second", 2021): the
///    significand times a 128-bit truncated power of five decides the rounding for any exponent.
///    With at most 19 significant digits it always decides (Mushtak and Lemire, "Fast Number
///    Parsing Without Fallback", 2023); with more, it decides when the first 19 digits and those
///    digits plus one unit round the same way.
/// 3. Otherwise, rarely (long tokens that lie within a hair of a rounding boundary), the standard
///    library's own correctly rounded parser reads the token as a `String`.
enum JSONNumber {
  /// The correctly rounded `Double` for a JSON number token.
  ///
  /// Overflow gives ±infinity and underflow ±0.0, keeping the sign. A token that does not match
  /// the JSON number grammar gives `.nan`. (``KeyedJSONDecoder`` rejects both, as Foundation
  /// does: a zero result for a token that is not zero, see ``isZero(_:count:)``, does not fit.)
  ///
  /// - Parameters:
  ///   - start: The first byte of the token.
  ///   - count: The number of bytes in the token.
  /// - Returns: The value nearest to the token's decimal value, ties to even.
  static func double(_ start: UnsafePointer<UInt8>, count: Int) -> Double {
    binaryFloat(start, count: count, as: Double.self)
  }

  /// The correctly rounded `Float` for a JSON number token, rounded once, directly to `Float`.
  ///
  /// Overflow gives ±infinity and underflow ±0.0, keeping the sign. A token that does not match
  /// the JSON number grammar gives `.nan`. (``KeyedJSONDecoder`` rejects both, as for
  /// ``double(_:count:)``.)
  ///
  /// - Parameters:
  ///   - start: The first byte of the token.
  ///   - count: The number of bytes in the token.
  /// - Returns: The value nearest to the token's decimal value, ties to even.
  static func float(_ start: UnsafePointer<UInt8>, count: Int) -> Float {
    binaryFloat(start, count: count, as: Float.self)
  }

  /// Whether a JSON number token is zero: no digit before its exponent is `1`–`9` (`0`,
  /// `-0.000`, `0e999`).
  ///
  /// A floating-point result of `0` for a token that is not zero is an underflow: the value is
  /// not representable, as Foundation's `JSONDecoder` checks too.
  ///
  /// - Parameters:
  ///   - start: The first byte of the token.
  ///   - count: The number of bytes in the token.
  /// - Returns: Whether the token's value is zero.
  static func isZero(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
    var index = 0
    while index < count {
      let byte = start[index]
      if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
      if byte &- UInt8(ascii: "1") < 9 { return false }
      index &+= 1
    }
    return true
  }

  /// The value of a token the scanner found to be a plain integer (an optional minus sign and
  /// digits, ``JSONDocument/isPlainInteger``) of at most 18 digits, which always fits `Int`;
  /// `nil` for a longer one, left to ``exactInteger(_:count:as:)``.
  ///
  /// - Parameters:
  ///   - start: The first byte of the token.
  ///   - count: The number of bytes in the token.
  /// - Returns: The value, or `nil`.
  @inline(__always)
  static func plainInteger(_ start: UnsafePointer<UInt8>, count: Int) -> Int? {
    let negative = start[0] == UInt8(ascii: "-")
    var index = negative ? 1 : 0
    guard count &- index <= 18 else { return nil }
    var value = 0
    while count &- index >= 8 {
      let word = UInt64(
        littleEndian: UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self))
      value = value &* 100_000_000 &+ Int(truncatingIfNeeded: Token.eightDigits(word))
      index &+= 8
    }
    while index < count {
      value = value &* 10 &+ Int(start[index] &- UInt8(ascii: "0"))
      index &+= 1
    }
    return negative ? 0 &- value : value
  }

  /// The token's exact value when it is an integer whose magnitude fits `UInt64`.
  ///
  /// Integral spellings all count: `12`, `-7`, `1.0`, `1e3`, `1.50e1`, `100e-2`. Zero is never
  /// negative: `-0` and `-0.0e5` give `(0, false)`. The value is computed from the digits, never
  /// through `Double`, and a huge exponent (`1e999999999`) is rejected without looping over it.
  ///
  /// - Parameters:
  ///   - start: The first byte of the token.
  ///   - count: The number of bytes in the token.
  /// - Returns: The magnitude and sign, or `nil` when the token has a non-zero fractional part,
  ///   its magnitude exceeds `UInt64.max`, or it is not a JSON number.
  static func integer(
    _ start: UnsafePointer<UInt8>, count: Int
  ) -> (magnitude: UInt64, negative: Bool)? {
    guard let token = Token(start, count: count) else { return nil }
    // The common case, a plain integer of at most 19 digits, is already exact.
    if token.fractionCount == 0, token.exponent == 0, token.integerCount <= 19 {
      return (token.digits, token.isNegative && token.digits != 0)
    }
    guard let magnitude = token.exactMagnitude(start) else { return nil }
    return (magnitude, token.isNegative && magnitude != 0)
  }

  /// The token as a value of `type`, exactly, for every fixed-width integer type.
  ///
  /// `"-0"` is 0 for every type, signed or not. Integers wider than 64 bits (`Int128`,
  /// `UInt128`) are read digit by digit into their own magnitude type, over their whole range.
  ///
  /// - Parameters:
  ///   - start: The first byte of the token.
  ///   - count: The number of bytes in the token.
  ///   - type: The integer type to produce.
  /// - Returns: The value, or `nil` when the token is not integral or `type` cannot hold it
  ///   (`"300"` as `Int8`, `"-1"` as `UInt`).
  static func exactInteger<Integer: FixedWidthInteger>(
    _ start: UnsafePointer<UInt8>, count: Int, as type: Integer.Type
  ) -> Integer? {
    if Integer.bitWidth > 64 { return wideExactInteger(start, count: count, as: Integer.self) }
    guard let (magnitude, negative) = integer(start, count: count) else { return nil }
    if !negative { return Integer(exactly: magnitude) }
    // Negative and non-zero: -magnitude fits when magnitude - 1 <= Integer.max, since
    // -(magnitude - 1) - 1 then lies in Integer.min...(-1) and neither step overflows.
    guard Integer.isSigned, let belowMagnitude = Integer(exactly: magnitude - 1) else {
      return nil
    }
    return 0 - belowMagnitude - 1
  }

  /// ``exactInteger(_:count:as:)`` for integer types wider than 64 bits.
  ///
  /// - Parameters:
  ///   - start: The first byte of the token.
  ///   - count: The number of bytes in the token.
  ///   - type: The integer type to produce.
  /// - Returns: The value, or `nil` when the token is not integral or `type` cannot hold it.
  private static func wideExactInteger<Integer: FixedWidthInteger>(
    _ start: UnsafePointer<UInt8>, count: Int, as type: Integer.Type
  ) -> Integer? {
    guard let token = Token(start, count: count),
      let magnitude = token.exactMagnitude(start, as: Integer.Magnitude.self)
    else { return nil }
    if !token.isNegative || magnitude == 0 { return Integer(exactly: magnitude) }
    guard Integer.isSigned, let belowMagnitude = Integer(exactly: magnitude - 1) else {
      return nil
    }
    return 0 - belowMagnitude - 1
  }
}

// MARK: - The token

extension JSONNumber {
  /// The parts of a number token, found in one validating pass over its bytes.
  ///
  /// Offsets are from the token's first byte. The digits of the integer part are at
  /// `integerStart..<integerEnd`, those of the fraction (none when there is no `.`) at
  /// `fractionStart..<fractionEnd`.
  struct Token {
    /// Whether the token starts with `-`.
    var isNegative: Bool
    /// The offset of the first integer digit.
    var integerStart: Int
    /// The offset just past the last integer digit.
    var integerEnd: Int
    /// The offset of the first fraction digit.
    var fractionStart: Int
    /// The offset just past the last fraction digit.
    var fractionEnd: Int
    /// The explicit exponent after `e`, 0 when absent; it stops growing once its magnitude
    /// reaches ``exponentLimit`` (so it stays below 2^44).
    var exponent: Int64
    /// The integer and fraction digits read as one integer; exact when there are at most 19.
    ///
    /// With more digits this has wrapped around and must not be used.
    var digits: UInt64

    /// The magnitude at which an explicit exponent stops growing while it is read.
    ///
    /// Any exponent this large already overflows or underflows every result, whatever the
    /// digits (a token would need 2^40 digits to compensate), and saturating keeps all exponent
    /// arithmetic far from `Int64` overflow.
    static let exponentLimit: Int64 = 1 << 40

    /// The number of integer digits.
    var integerCount: Int { integerEnd - integerStart }

    /// The number of fraction digits.
    var fractionCount: Int { fractionEnd - fractionStart }

    /// Reads and validates a token, or returns `nil` when it is not a JSON number.
    ///
    /// - Parameters:
    ///   - start: The first byte of the token.
    ///   - count: The number of bytes in the token; nothing outside `0..<count` is read.
    init?(_ start: UnsafePointer<UInt8>, count: Int) {
      guard count > 0 else { return nil }
      var index = 0
      isNegative = start[0] == UInt8(ascii: "-")
      if isNegative { index = 1 }

      digits = 0
      integerStart = index
      Self.readDigits(start, count: count, index: &index, into: &digits)
      integerEnd = index
      let integerCount = integerEnd - integerStart
      // One digit at least, and no leading zero unless it is the only digit.
      guard integerCount > 0, integerCount == 1 || start[integerStart] != UInt8(ascii: "0")
      else { return nil }

      fractionStart = index
      fractionEnd = index
      if index < count, start[index] == UInt8(ascii: ".") {
        index += 1
        fractionStart = index
        Self.readDigits(start, count: count, index: &index, into: &digits)
        fractionEnd = index
        guard fractionEnd > fractionStart else { return nil }
      }

      exponent = 0
      if index < count, start[index] | 0x20 == UInt8(ascii: "e") {
        index += 1
        guard let value = Self.readExponent(start, count: count, index: &index) else {
          return nil
        }
        exponent = value
      }
      guard index == count else { return nil }
    }

    /// Reads decimal digits from `index` while there are any, appending them to `digits`
    /// (wrapping past 19 digits).
    ///
    /// Eight digits at a time while eight bytes remain and all are digits, then one at a time.
    @inline(__always)
    static func readDigits(
      _ start: UnsafePointer<UInt8>, count: Int, index: inout Int, into digits: inout UInt64
    ) {
      while count - index >= 8 {
        let word = UInt64(
          littleEndian: UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self))
        guard let value = eightDigitsValue(word) else { break }
        digits = digits &* 100_000_000 &+ value
        index += 8
      }
      while index < count {
        let digit = start[index] &- UInt8(ascii: "0")
        if digit > 9 { break }
        digits = digits &* 10 &+ UInt64(digit)
        index += 1
      }
    }

    /// The value of eight ASCII digits loaded little-endian (first digit in the low byte), or
    /// `nil` when a byte is not a digit.
    ///
    /// SWAR ("SIMD within a register"): each step joins neighbouring lanes, bytes into 2-digit
    /// 16-bit lanes, those into 4-digit 32-bit lanes, those into the 8-digit value, with one
    /// multiplication for all lanes at once; no lane overflows into the next.
    @inline(__always)
    static func eightDigitsValue(_ word: UInt64) -> UInt64? {
      // Every byte is 0x30...0x39: high nibble 3, and adding 6 to the low nibble never carries.
      let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
      let threes: UInt64 = 0x3030_3030_3030_3030
      guard word & highNibbles == threes, (word &+ 0x0606_0606_0606_0606) & highNibbles == threes
      else { return nil }
      return eightDigits(word)
    }

    /// The value of eight ASCII digits loaded little-endian, which the caller knows to be digits
    /// (see ``eightDigitsValue(_:)``).
    @inline(__always)
    static func eightDigits(_ word: UInt64) -> UInt64 {
      let digits = word &- 0x3030_3030_3030_3030
      // Byte 2i becomes 10 * d(2i) + d(2i+1): digit pairs, most significant first.
      let pairs = (digits &* 10 &+ (digits >> 8)) & 0x00FF_00FF_00FF_00FF
      // 16-bit lane 2i becomes 100 * pair(2i) + pair(2i+1).
      let quads = (pairs &* 100 &+ (pairs >> 16)) & 0x0000_FFFF_0000_FFFF
      // The low 32 bits become 10000 * quad(0) + quad(1).
      return (quads &* 10_000 &+ (quads >> 32)) & 0xFFFF_FFFF
    }

    /// Reads an exponent's optional sign and its digits, no longer growing past
    /// ``exponentLimit``.
    ///
    /// - Returns: The signed exponent, or `nil` when no digit follows.
    private static func readExponent(
      _ start: UnsafePointer<UInt8>, count: Int, index: inout Int
    ) -> Int64? {
      var isNegative = false
      if index < count, start[index] == UInt8(ascii: "-") || start[index] == UInt8(ascii: "+") {
        isNegative = start[index] == UInt8(ascii: "-")
        index += 1
      }
      let digitsStart = index
      var value: Int64 = 0
      while index < count {
        let digit = start[index] &- UInt8(ascii: "0")
        if digit > 9 { break }
        if value < exponentLimit { value = value * 10 + Int64(digit) }
        index += 1
      }
      guard index > digitsStart else { return nil }
      return isNegative ? -value : value
    }

    /// The digit at `position` among all integer and fraction digits, counted from 0.
    private func digit(at position: Int, _ start: UnsafePointer<UInt8>) -> UInt64 {
      let offset =
        position < integerCount
        ? integerStart + position : fractionStart + (position - integerCount)
      return UInt64(start[offset] &- UInt8(ascii: "0"))
    }

    /// The token's value as `significand * 10^exponent`, keeping at most 19 significant digits.
    ///
    /// - Returns: The significand (the first 19 significant digits when there are more), the
    ///   power of ten, and whether a non-zero digit was dropped: then the exact value lies
    ///   strictly between `significand` and `significand + 1` times the power of ten.
    func decimal(_ start: UnsafePointer<UInt8>) -> (
      significand: UInt64, exponent: Int64, isTruncated: Bool
    ) {
      let fractionCount = Int64(self.fractionCount)
      if integerCount + self.fractionCount <= 19 {
        return (digits, exponent - fractionCount, false)
      }
      // Rare: more than 19 digits, some of them perhaps leading zeros ("0.000…").
      let digitCount = integerCount + self.fractionCount
      var position = 0
      while position < digitCount, digit(at: position, start) == 0 { position += 1 }
      var significand: UInt64 = 0
      let keptEnd = min(digitCount, position + 19)
      while position < keptEnd {
        significand = significand * 10 + digit(at: position, start)
        position += 1
      }
      // The kept digits end at `keptEnd`; each digit after them scales the significand by 10.
      let droppedCount = Int64(digitCount - keptEnd)
      var isTruncated = false
      while position < digitCount {
        if digit(at: position, start) != 0 {
          isTruncated = true
          break
        }
        position += 1
      }
      return (significand, exponent - fractionCount + droppedCount, isTruncated)
    }

    /// The token's exact integer magnitude, or `nil` when it has a non-zero fractional part or
    /// exceeds `UInt64.max`.
    func exactMagnitude(_ start: UnsafePointer<UInt8>) -> UInt64? {
      exactMagnitude(start, as: UInt64.self)
    }

    /// The token's exact integer magnitude as a `Magnitude`, or `nil` when it has a non-zero
    /// fractional part or exceeds `Magnitude.max`.
    ///
    /// - Parameters:
    ///   - start: The first byte of the token.
    ///   - type: The unsigned type of the result.
    /// - Returns: The magnitude, or `nil`.
    func exactMagnitude<Magnitude: FixedWidthInteger & UnsignedInteger>(
      _ start: UnsafePointer<UInt8>, as type: Magnitude.Type
    ) -> Magnitude? {
      // A b-bit magnitude has at most floor(b * log10(2)) + 1 <= b / 3 + 1 digits.
      let maximumDigits = Magnitude.bitWidth / 3 + 1
      let digitCount = integerCount + fractionCount
      // The significant digits run from the first to the last non-zero digit.
      var first = 0
      while first < digitCount, digit(at: first, start) == 0 { first += 1 }
      if first == digitCount { return 0 }
      var last = digitCount - 1
      while digit(at: last, start) == 0 { last -= 1 }
      // value = digits[first...last] * 10^scale
      let scale = exponent - Int64(fractionCount) + Int64(digitCount - 1 - last)
      guard scale >= 0, scale < maximumDigits, last - first < maximumDigits else { return nil }
      var magnitude: Magnitude = 0
      for position in first...last {
        let (product, productOverflow) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, sumOverflow) = product.addingReportingOverflow(
          Magnitude(truncatingIfNeeded: digit(at: position, start)))
        guard !productOverflow, !sumOverflow else { return nil }
        magnitude = sum
      }
      for _ in 0..<scale {
        let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
        guard !overflow else { return nil }
        magnitude = product
      }
      return magnitude
    }
  }
}

// MARK: - Binary floating point

/// The binary interchange formats the parser produces (`Double`, `Float`), with the parameters
/// of the Clinger and Eisel-Lemire steps.
protocol JSONParsableFloat: BinaryFloatingPoint, LosslessStringConvertible {
  /// The Eisel-Lemire parameters of the format.
  static var lemireFormat: JSONNumber.LemireFormat { get }
  /// The largest decimal exponent whose power of ten is exact in the format.
  static var maximumExactPowerOfTen: Int { get }
  /// The exact powers of ten 10^0 through 10^``maximumExactPowerOfTen``.
  static var exactPowersOfTen: [Self] { get }
}

extension Double: JSONParsableFloat {
  /// The binary64 parameters.
  static let lemireFormat = JSONNumber.LemireFormat(
    significandBits: 52, exponentBias: 1023, smallestPowerOfTen: -342, largestPowerOfTen: 308,
    roundToEvenExponents: -4...23)
  /// 5^22 < 2^53, so 10^22 is the largest exact power of ten.
  static let maximumExactPowerOfTen = 22
  /// 10^0 through 10^22, each exact.
  static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]
}

extension Float: JSONParsableFloat {
  /// The binary32 parameters.
  static let lemireFormat = JSONNumber.LemireFormat(
    significandBits: 23, exponentBias: 127, smallestPowerOfTen: -65, largestPowerOfTen: 38,
    roundToEvenExponents: -17...10)
  /// 5^10 < 2^24, so 10^10 is the largest exact power of ten.
  static let maximumExactPowerOfTen = 10
  /// 10^0 through 10^10, each exact.
  static let exactPowersOfTen: [Float] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
  ]
}

extension JSONNumber {
  /// The parameters of a binary format that the Eisel-Lemire algorithm needs.
  struct LemireFormat: Sendable {
    /// The number of explicitly stored significand bits (52 for binary64).
    var significandBits: Int
    /// The exponent bias (1023 for binary64).
    var exponentBias: Int
    /// Below this decimal exponent every significand of at most 19 digits rounds to zero.
    var smallestPowerOfTen: Int
    /// Above this decimal exponent every non-zero significand overflows to infinity.
    var largestPowerOfTen: Int
    /// The decimal exponents for which `w * 10^q` can lie exactly halfway between two values of
    /// the format, so that ties to even must be resolved (outside them 5^|q| is too large).
    var roundToEvenExponents: ClosedRange<Int>

    /// The biased exponent of infinity.
    var infiniteExponent: Int { 2 * exponentBias + 1 }
  }

  /// Parses a token into `Float` or `Double` with the three steps described at ``JSONNumber``.
  private static func binaryFloat<Result: JSONParsableFloat>(
    _ start: UnsafePointer<UInt8>, count: Int, as type: Result.Type
  ) -> Result {
    if let short = shortDecimal(start, count: count), short.significand != 0,
      let magnitude = clinger(short.significand, short.exponent, as: Result.self)
        ?? lemire(short.significand, short.exponent, false, as: Result.self)
    {
      return short.isNegative ? -magnitude : magnitude
    }
    guard let token = Token(start, count: count) else { return .nan }
    let (significand, exponent, isTruncated) = token.decimal(start)
    let magnitude: Result
    if significand == 0 {
      magnitude = 0
    } else if !isTruncated, let exact = clinger(significand, exponent, as: Result.self) {
      magnitude = exact
    } else if let rounded = lemire(significand, exponent, isTruncated, as: Result.self) {
      magnitude = rounded
    } else {
      // Rare: the standard library's parser is correctly rounded for any number of digits.
      let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
      return Result(text) ?? .nan
    }
    return token.isNegative ? -magnitude : magnitude
  }

  /// The sign, digits and exponent of a token of at most 19 digits with no exponent (`12.5`,
  /// `-0.375`, `-65.613616999999977`: the exponent is minus the number of fraction digits), read
  /// in one pass; `nil` for any other token, which ``Token`` reads (and rejects when it is not a
  /// JSON number).
  ///
  /// Most numbers in documents are like this, and reading them as a ``Token`` first (its offsets,
  /// then its digits again) was about half of the cost of decoding one. The digits are checked
  /// as ``Token`` checks them (a digit on each side of the point, no leading zero), so a token
  /// that isn't a JSON number is never read here, whoever passes it (text from a lossy
  /// conversion too).
  @inline(__always)
  private static func shortDecimal(_ start: UnsafePointer<UInt8>, count: Int) -> (
    isNegative: Bool, significand: UInt64, exponent: Int64
  )? {
    // At most 19 digits (with a sign and a point, 21 bytes): the digits stay below 10^19, which
    // `UInt64` holds, and all of them count (the significand is exact: nothing was truncated).
    guard count > 0, count <= 21 else { return nil }
    let isNegative = start[0] == UInt8(ascii: "-")
    let first = isNegative ? 1 : 0
    var index = first
    var digits: UInt64 = 0
    if count <= 12 {
      // Short: one byte at a time, the point anywhere (checked below), the quickest here.
      var point = -1
      while index < count {
        let digit = start[index] &- UInt8(ascii: "0")
        if digit <= 9 {
          digits = digits &* 10 &+ UInt64(digit)
        } else if start[index] == UInt8(ascii: "."), point < 0 {
          point = index
        } else {
          return nil
        }
        index &+= 1
      }
      let integerEnd = point < 0 ? count : point
      guard integerEnd > first, point != count &- 1,
        integerEnd &- first == 1 || start[first] != UInt8(ascii: "0")
      else { return nil }
      return (isNegative, digits, point < 0 ? 0 : Int64(point &+ 1 &- count))
    }
    // Longer: eight digits at a time where eight are left, on each side of the point.
    Token.readDigits(start, count: count, index: &index, into: &digits)
    let integerEnd = index
    // A digit at least, and no leading zero before another digit.
    guard integerEnd > first, integerEnd &- first == 1 || start[first] != UInt8(ascii: "0")
    else { return nil }
    var fractionCount = 0
    if index < count {
      guard start[index] == UInt8(ascii: ".") else { return nil }
      index &+= 1
      Token.readDigits(start, count: count, index: &index, into: &digits)
      fractionCount = index &- integerEnd &- 1
      guard fractionCount > 0, index == count else { return nil }
    }
    guard integerEnd &- first &+ fractionCount <= 19 else { return nil }
    return (isNegative, digits, Int64(0 &- fractionCount))
  }

  /// Clinger's fast path: `significand * 10^exponent` with one correctly rounded operation, when
  /// both factors are exact in `Result`.
  ///
  /// The significand must fit the format's significand (2^53 for `Double`) and the power of ten
  /// be exact (10^22 for `Double`). A larger exponent still works when the significand has room
  /// to absorb the excess exactly ("1.5e30" is 15e29 = 15_000_000 * 1e22).
  private static func clinger<Result: JSONParsableFloat>(
    _ significand: UInt64, _ exponent: Int64, as type: Result.Type
  ) -> Result? {
    let maximumSignificand: UInt64 = 1 << (Result.significandBitCount + 1)
    let maximumPower = Int64(Result.maximumExactPowerOfTen)
    guard significand <= maximumSignificand, exponent >= -maximumPower else { return nil }
    let powers = Result.exactPowersOfTen
    if exponent < 0 { return Result(significand) / powers[Int(-exponent)] }
    if exponent <= maximumPower { return Result(significand) * powers[Int(exponent)] }
    // Move the excess of the exponent into the significand while it stays exact.
    guard exponent - maximumPower < 20 else { return nil }
    var scaled = significand
    for _ in 0..<(exponent - maximumPower) {
      scaled *= 10
      if scaled > maximumSignificand { return nil }
    }
    return Result(scaled) * powers[Int(maximumPower)]
  }

  /// The Eisel-Lemire step: the correctly rounded magnitude, or `nil` when it cannot decide.
  ///
  /// When digits were dropped, the exact value lies strictly between `significand` and
  /// `significand + 1` times the power of ten; if both bounds round to the same value, so does
  /// everything between them.
  private static func lemire<Result: JSONParsableFloat>(
    _ significand: UInt64, _ exponent: Int64, _ isTruncated: Bool, as type: Result.Type
  ) -> Result? {
    let format = Result.lemireFormat
    guard let rounded = lemireBits(significand, exponent, format) else { return nil }
    if isTruncated {
      // significand <= 10^19 - 1, so adding one cannot overflow.
      guard let roundedAbove = lemireBits(significand + 1, exponent, format),
        roundedAbove == rounded
      else { return nil }
    }
    return Result(
      sign: .plus,
      exponentBitPattern: Result.RawExponent(truncatingIfNeeded: rounded.biasedExponent),
      significandBitPattern: Result.RawSignificand(truncatingIfNeeded: rounded.significand))
  }

  /// Rounds `significand * 10^exponent` (significand non-zero) to the binary format with the
  /// Eisel-Lemire algorithm (Lemire 2021, section 5 and algorithm 1).
  ///
  /// - Returns: The stored significand bits (without the implicit bit) and the biased exponent,
  ///   or `nil` in the rare case the 128-bit product is too close to a rounding boundary.
  static func lemireBits(
    _ significand: UInt64, _ exponent: Int64, _ format: LemireFormat
  ) -> (significand: UInt64, biasedExponent: Int)? {
    if exponent < Int64(format.smallestPowerOfTen) { return (0, 0) }
    if exponent > Int64(format.largestPowerOfTen) { return (0, format.infiniteExponent) }
    let q = Int(exponent)

    // Normalize the significand so its top bit is set, then take the high 64 (or, when the
    // rounding bits are all ones and might carry, 128) bits of its product with 5^q.
    let leadingZeros = significand.leadingZeroBitCount
    let normalized = significand << leadingZeros
    let (high, low) = productWithPowerOfFive(
      normalized, q, precisionBits: format.significandBits + 3)
    // The 2021 paper's conservative check: outside -27...55 the truncated power of five may
    // make a product of all ones in the low word ambiguous. (Mushtak and Lemire later proved
    // this never happens; keeping the check costs nothing on real data.)
    if low == UInt64.max, q < -27 || q > 55 { return nil }

    // The product has its top bit at 127 or 126; keep significandBits + 2 bits of it.
    let upperBit = Int(high >> 63)
    let shift = upperBit + 64 - format.significandBits - 3
    var mantissa = high >> shift
    // The product is w * 2^-leadingZeros * 5^q * 2^(q - floor(log2(10^q)) - 63), so the value's
    // binary exponent is floor(log2(10^q)) + 63 + upperBit - leadingZeros, here biased and
    // counted for a mantissa with its top bit at significandBits.
    // floor(log2(10^q)) = (217706 * q) >> 16 for |q| < 400 (checked exhaustively).
    var biasedExponent =
      ((217_706 * q) >> 16) + 63 + upperBit - leadingZeros + format.exponentBias

    if biasedExponent <= 0 {
      // Subnormal (or zero): shift the mantissa down to the fixed exponent, then round. An
      // exact tie cannot happen here: ties need q in roundToEvenExponents.
      let downShift = 1 - biasedExponent
      if downShift >= 64 { return (0, 0) }
      mantissa >>= downShift
      mantissa += mantissa & 1
      mantissa >>= 1
      // Rounding up may have produced the smallest normal number.
      let implicitBit: UInt64 = 1 << format.significandBits
      return (mantissa & (implicitBit - 1), mantissa < implicitBit ? 0 : 1)
    }

    // An exact tie between two values: the product was exact (low <= 1 and no bits were lost
    // below the mantissa) and the rounding bit is set; round to even by clearing the bit that
    // would round up.
    if low <= 1, format.roundToEvenExponents.contains(q), mantissa & 3 == 1,
      mantissa << shift == high
    {
      mantissa &= ~1
    }
    mantissa += mantissa & 1
    mantissa >>= 1
    let implicitBit: UInt64 = 1 << format.significandBits
    if mantissa >= implicitBit << 1 {
      // Rounding carried into a new bit: 1.111…1 became 10.000…0.
      mantissa = implicitBit
      biasedExponent += 1
    }
    if biasedExponent >= format.infiniteExponent { return (0, format.infiniteExponent) }
    return (mantissa & (implicitBit - 1), biasedExponent)
  }

  /// The high 128 bits of `normalized * 5^q` as far as they are needed (Lemire 2021, section 5).
  ///
  /// The first 64-bit product decides unless its bits below the `precisionBits` that matter are
  /// all ones; only then is the low word of the power of five multiplied in, to see whether a
  /// carry reaches them.
  private static func productWithPowerOfFive(
    _ normalized: UInt64, _ q: Int, precisionBits: Int
  ) -> (high: UInt64, low: UInt64) {
    let index = 2 * (q - PowersOfFive.lemireMinimumExponent)
    let powers = PowersOfFive.lemire
    var (high, low) = normalized.multipliedFullWidth(by: powers[index])
    let precisionMask = UInt64.max >> precisionBits
    if high & precisionMask == precisionMask {
      let (carryIn, _) = normalized.multipliedFullWidth(by: powers[index + 1])
      let (sum, overflow) = low.addingReportingOverflow(carryIn)
      low = sum
      if overflow { high &+= 1 }
    }
    return (high, low)
  }
}
