/// Writes numbers as JSON text, byte for byte as Foundation's `JSONEncoder` does, without
/// allocating.
///
/// Foundation writes a floating-point value as its Swift `description` with a trailing `".0"`
/// removed. `description` prints the shortest decimal that reads back as the same value (and of
/// those, the one nearest the value, ties to an even last digit), in one of two layouts:
///
/// - positional, `12345.678`, `0.0001`, `100`, when the value is at least 10^-4 and at most
///   2^53 (`Double`) or 2^24 (`Float`) in magnitude;
/// - exponential otherwise, `1e+16`, `1.5e-05`, `5e-324`: a sign always, two exponent digits at
///   least.
///
/// The shortest digits come from Giulietti's Schubfach algorithm ("The Schubfach way to render
/// doubles", 2020, the algorithm behind Java's `Double.toString` since JDK 19), without Java's
/// rule that asks for two digits at least.
enum JSONNumberWriter {
  /// Appends a finite `Double` as Foundation's `JSONEncoder` writes it.
  ///
  /// The caller handles NaN and infinity (a non-conforming-float strategy); given one anyway,
  /// this appends its `description` rather than trap.
  ///
  /// - Parameters:
  ///   - value: The value to write.
  ///   - buffer: The output.
  static func append(_ value: Double, to buffer: inout some JSONByteSink) {
    guard value.isFinite else {
      var description = value.description
      description.withUTF8 { buffer.append(contentsOf: $0) }
      return
    }
    let bits = value.bitPattern
    let fraction = bits & (1 << 52 - 1)
    let biasedExponent = Int(truncatingIfNeeded: bits >> 52) & 0x7FF
    let decimal: (significand: UInt64, exponent: Int)
    if biasedExponent == 0 {
      // Zero or subnormal: c * 2^-1074 with c = fraction.
      decimal =
        fraction == 0 ? (0, 0) : Shortest.decimal(fraction, -1074, isIrregular: false, .binary64)
    } else {
      let c = fraction | 1 << 52
      let q = biasedExponent - 1075
      // Just below a power of two the spacing halves ("irregular"), except at the smallest
      // normal exponent, whose lower neighbours are subnormals with the same spacing.
      decimal = Shortest.decimal(c, q, isIrregular: fraction == 0 && biasedExponent > 1, .binary64)
    }
    Layout.append(
      decimal, isNegative: value.sign == .minus,
      isPositional: value.magnitude <= 0x1p53, to: &buffer)
  }

  /// Appends a finite `Float` as Foundation's `JSONEncoder` writes it (from the `Float` itself,
  /// not widened to `Double`: `0.1` stays `0.1`).
  ///
  /// The caller handles NaN and infinity; given one anyway, this appends its `description`
  /// rather than trap.
  ///
  /// - Parameters:
  ///   - value: The value to write.
  ///   - buffer: The output.
  static func append(_ value: Float, to buffer: inout some JSONByteSink) {
    guard value.isFinite else {
      var description = value.description
      description.withUTF8 { buffer.append(contentsOf: $0) }
      return
    }
    let bits = UInt64(value.bitPattern)
    let fraction = bits & (1 << 23 - 1)
    let biasedExponent = Int(truncatingIfNeeded: bits >> 23) & 0xFF
    let decimal: (significand: UInt64, exponent: Int)
    if biasedExponent == 0 {
      decimal =
        fraction == 0 ? (0, 0) : Shortest.decimal(fraction, -149, isIrregular: false, .binary32)
    } else {
      let c = fraction | 1 << 23
      let q = biasedExponent - 150
      decimal = Shortest.decimal(c, q, isIrregular: fraction == 0 && biasedExponent > 1, .binary32)
    }
    Layout.append(
      decimal, isNegative: value.sign == .minus,
      isPositional: value.magnitude <= 0x1p24, to: &buffer)
  }

  /// Appends the decimal digits of any fixed-width integer, with a `-` when it is negative.
  ///
  /// - Parameters:
  ///   - value: The integer to write.
  ///   - buffer: The output.
  static func append<Integer: FixedWidthInteger>(
    integer value: Integer, to buffer: inout some JSONByteSink
  ) {
    let isNegative = value < 0
    if Integer.bitWidth <= 64 {
      // `magnitude` is exact even for `min` (Int.min.magnitude == 2^63).
      let magnitude = UInt64(truncatingIfNeeded: value.magnitude)
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { scratch in
        guard let base = scratch.baseAddress else { return }
        var length = 0
        if isNegative {
          base[0] = UInt8(ascii: "-")
          length = 1
        }
        length += Digits.write(magnitude, count: Digits.count(magnitude), to: base + length)
        buffer.append(contentsOf: UnsafeBufferPointer(start: base, count: length))
      }
    } else {
      appendWide(value.magnitude, isNegative: isNegative, to: &buffer)
    }
  }

  /// Appends the digits of a magnitude wider than 64 bits, 19 digits per division.
  private static func appendWide<Magnitude: UnsignedInteger & FixedWidthInteger>(
    _ magnitude: Magnitude, isNegative: Bool, to buffer: inout some JSONByteSink
  ) {
    // A b-bit magnitude has at most floor(b * log10(2)) + 1 <= b / 3 + 1 digits.
    let capacity = Magnitude.bitWidth / 3 + 2
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
      guard let base = scratch.baseAddress else { return }
      // Fill from the end: groups of 19 digits, least significant first.
      let chunk = Magnitude(10_000_000_000_000_000_000 as UInt64)
      var rest = magnitude
      var end = capacity
      while rest >= chunk {
        let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: chunk)
        end -= 19
        _ = Digits.write(UInt64(truncatingIfNeeded: remainder), count: 19, to: base + end)
        rest = quotient
      }
      let leading = UInt64(truncatingIfNeeded: rest)
      let leadingCount = Digits.count(leading)
      end -= leadingCount
      _ = Digits.write(leading, count: leadingCount, to: base + end)
      if isNegative {
        end -= 1
        base[end] = UInt8(ascii: "-")
      }
      buffer.append(contentsOf: UnsafeBufferPointer(start: base + end, count: capacity - end))
    }
  }
}

// MARK: - Shortest digits (Schubfach)

extension JSONNumberWriter {
  /// The binary formats the writer renders, with the constants their Schubfach steps differ in.
  enum BinaryFormat {
    /// IEEE 754 binary64, `Double`.
    case binary64
    /// IEEE 754 binary32, `Float`.
    case binary32
  }

  /// Giulietti's Schubfach: the shortest decimal in the rounding interval of `c * 2^q`.
  ///
  /// The rounding interval R of v = c * 2^q holds the reals that round to v: half a spacing on
  /// either side, the ends included when c is even (ties go to even). With k chosen so that
  /// 10^k <= |R| < 10^(k+1), R holds at most one multiple of 10^(k+1) and at least one of 10^k.
  /// So the shortest decimal is that multiple of 10^(k+1) when there is one, and otherwise
  /// whichever of the (one or two) multiples of 10^k in R is nearer v, ties to even.
  ///
  /// Everything is computed in integers scaled by 4 (so the interval ends, at c ± 1/2 or
  /// c - 1/4 spacings, are integers), times 10^-k from the table ``PowersOfFive/schubfach``,
  /// rounded to odd: the last bit records whether the product was inexact, which keeps every
  /// comparison with an even integer exact (paper, sections 9.8-9.9).
  enum Shortest {
    /// The shortest decimal `significand * 10^exponent` that reads back as `c * 2^q`.
    ///
    /// - Parameters:
    ///   - c: The integer significand, non-zero.
    ///   - q: The binary exponent.
    ///   - isIrregular: Whether the next lower value is a quarter, not half, a spacing closer
    ///     (c is a power of two above the smallest normal exponent).
    ///   - format: The binary format of `c` and `q`.
    /// - Returns: The digits (possibly with trailing zeros) and their decimal exponent.
    static func decimal(
      _ c: UInt64, _ q: Int, isIrregular: Bool, _ format: BinaryFormat
    ) -> (significand: UInt64, exponent: Int) {
      // Integers below 2^53 (2^24) print all their digits: no shorter decimal is within half a
      // spacing (<= 1/2) of them (paper, section 8.3).
      let precision = format == .binary64 ? 53 : 24
      if q < 0, q > -precision, (c >> -q) << -q == c { return (c >> -q, 0) }

      let isOdd: UInt64 = c & 1
      let cb = c << 2
      let cbRight = cb + 2
      let cbLeft = isIrregular ? cb - 1 : cb - 2
      // k = floor(log10(|R|)): floor(log10(2^q)), or floor(log10(3/4 * 2^q)) when irregular.
      // The multiplier and shift come from the paper and were checked for every q in range.
      let k =
        isIrregular
        ? (q * 661_971_961_083 - 274_743_187_321) >> 41 : (q * 661_971_961_083) >> 41
      // h aligns c * 2^q * 10^-k with the table's scale; floor(log2(10^-k)) likewise.
      let log2PowerOfTen = (-k * 913_124_641_741) >> 38
      let index = 2 * (k - PowersOfFive.schubfachMinimumExponent)
      let g1 = PowersOfFive.schubfach[index]
      let g0 = PowersOfFive.schubfach[index + 1]

      let vb: UInt64
      let vbLeft: UInt64
      let vbRight: UInt64
      switch format {
      case .binary64:
        let h = q + log2PowerOfTen + 2
        vb = roundedToOdd(g1, g0, cb << h)
        vbLeft = roundedToOdd(g1, g0, cbLeft << h)
        vbRight = roundedToOdd(g1, g0, cbRight << h)
      case .binary32:
        // binary32 needs only the high 63 bits of g, rounded up.
        let h = q + log2PowerOfTen + 33
        vb = roundedToOdd(g1 + 1, cb << h)
        vbLeft = roundedToOdd(g1 + 1, cbLeft << h)
        vbRight = roundedToOdd(g1 + 1, cbRight << h)
      }
      return choose(vb: vb, left: vbLeft &+ isOdd, right: vbRight &- isOdd, k: k)
    }

    /// Picks the shortest decimal from the scaled value and interval ends.
    ///
    /// - Parameters:
    ///   - vb: 4 * v * 10^-k, rounded to odd.
    ///   - left: The scaled lower end, plus one when the end is excluded.
    ///   - right: The scaled upper end, minus one when the end is excluded.
    ///   - k: The decimal exponent of the finer grid.
    /// - Returns: The chosen digits and their decimal exponent.
    private static func choose(
      vb: UInt64, left: UInt64, right: UInt64, k: Int
    ) -> (significand: UInt64, exponent: Int) {
      let s = vb >> 2
      // The coarser grid, 10^(k+1): its multiples just below and above v.
      let sp10 = s / 10 * 10
      let tp10 = sp10 + 10
      let lowerCoarseIsIn = left <= sp10 << 2
      let upperCoarseIsIn = tp10 << 2 <= right
      if lowerCoarseIsIn != upperCoarseIsIn {
        return (lowerCoarseIsIn ? sp10 : tp10, k)
      }
      // The finer grid, 10^k.
      let t = s + 1
      let lowerIsIn = left <= s << 2
      let upperIsIn = t << 2 <= right
      if lowerIsIn != upperIsIn { return (lowerIsIn ? s : t, k) }
      // Both in R: the nearer one; at the midpoint 4s + 2, the even one.
      let midpoint = (s + t) << 1
      let pickLower = vb < midpoint || (vb == midpoint && s & 1 == 0)
      return (pickLower ? s : t, k)
    }

    /// floor(g * cp / 2^127) rounded to odd, for g = g1 * 2^63 + g0 (paper, figure 8).
    ///
    /// Only the high words of `g0 * cp` are used, as in the paper; with cp < 2^63 and g1, g0 <
    /// 2^63 no sum below overflows.
    private static func roundedToOdd(_ g1: UInt64, _ g0: UInt64, _ cp: UInt64) -> UInt64 {
      let x1 = g0.multipliedFullWidth(by: cp).high
      let (y1, y0) = g1.multipliedFullWidth(by: cp)
      let z = (y0 >> 1) &+ x1
      let vbp = y1 &+ (z >> 63)
      let lowMask: UInt64 = 1 << 63 - 1
      return vbp | ((z & lowMask) &+ lowMask) >> 63
    }

    /// floor(g * cp / 2^95) rounded to odd, for the 63-bit g of binary32 (paper, figure 8).
    private static func roundedToOdd(_ g: UInt64, _ cp: UInt64) -> UInt64 {
      let x1 = g.multipliedFullWidth(by: cp).high
      let vbp = x1 >> 31
      let lowMask: UInt64 = 1 << 32 - 1
      return vbp | ((x1 & lowMask) &+ lowMask) >> 32
    }
  }
}

// MARK: - Layout

extension JSONNumberWriter {
  /// Lays out decimal digits as Swift's `description` does, minus a trailing `".0"`.
  enum Layout {
    /// Removes `count` trailing zeros from `significand`, adding them to `exponent`, when it
    /// has them (`power` is 10^`count`).
    ///
    /// - Returns: Whether it had them.
    @inline(__always)
    private static func stripZeros(
      _ significand: inout UInt64, _ exponent: inout Int, power: UInt64, count: Int
    ) -> Bool {
      guard significand % power == 0 else { return false }
      significand /= power
      exponent += count
      return true
    }

    /// Appends `significand * 10^exponent` in positional or exponential notation.
    ///
    /// - Parameters:
    ///   - decimal: The digits and their decimal exponent; trailing zeros are allowed.
    ///   - isNegative: Whether to write a `-` (also for -0.0).
    ///   - isPositional: Whether the magnitude is at most 2^53 (`Double`) or 2^24 (`Float`);
    ///     values of at least 10^-4 are then positional.
    ///   - buffer: The output.
    static func append(
      _ decimal: (significand: UInt64, exponent: Int), isNegative: Bool, isPositional: Bool,
      to buffer: inout some JSONByteSink
    ) {
      var (significand, exponent) = decimal
      if significand == 0 {
        if isNegative {
          buffer.append(UInt8(ascii: "-"))
        }
        buffer.append(UInt8(ascii: "0"))
        return
      }
      // Trailing zeros (up to 16 from the shortest digits of a short value; most values have
      // none): after the first, eight at a time and then by halves, a handful of divisions by
      // constants instead of one per zero.
      if stripZeros(&significand, &exponent, power: 10, count: 1) {
        while stripZeros(&significand, &exponent, power: 100_000_000, count: 8) {}
        _ = stripZeros(&significand, &exponent, power: 10_000, count: 4)
        _ = stripZeros(&significand, &exponent, power: 100, count: 2)
        _ = stripZeros(&significand, &exponent, power: 10, count: 1)
      }
      let digitCount = Digits.count(significand)
      // The value is 0.d1d2…dn * 10^pointPosition.
      let pointPosition = digitCount + exponent
      // "-", 17 digits, "0." and three zeros, or ".", "e-324": 26 bytes at most.
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { scratch in
        guard let base = scratch.baseAddress else { return }
        var length = 0
        if isNegative {
          base[0] = UInt8(ascii: "-")
          length = 1
        }
        if isPositional, pointPosition >= -3 {
          length += positional(significand, digitCount, pointPosition, to: base + length)
        } else {
          length += exponential(significand, digitCount, pointPosition - 1, to: base + length)
        }
        buffer.append(contentsOf: UnsafeBufferPointer(start: base, count: length))
      }
    }

    /// Writes `0.000ddd`, `dd.ddd` or `ddd000`, returning the number of bytes.
    private static func positional(
      _ significand: UInt64, _ digitCount: Int, _ pointPosition: Int,
      to output: UnsafeMutablePointer<UInt8>
    ) -> Int {
      if pointPosition <= 0 {
        // 0.000ddd: at most three zeros after the point here.
        output[0] = UInt8(ascii: "0")
        output[1] = UInt8(ascii: ".")
        var length = 2
        for _ in 0..<(-pointPosition) {
          output[length] = UInt8(ascii: "0")
          length += 1
        }
        return length + Digits.write(significand, count: digitCount, to: output + length)
      }
      if pointPosition < digitCount {
        // dd.ddd: write all digits one place to the right, then move the integer part back.
        _ = Digits.write(significand, count: digitCount, to: output + 1)
        for index in 0..<pointPosition { output[index] = output[index + 1] }
        output[pointPosition] = UInt8(ascii: ".")
        return digitCount + 1
      }
      // ddd000: Foundation drops the ".0" that `description` ends with.
      var length = Digits.write(significand, count: digitCount, to: output)
      for _ in 0..<(pointPosition - digitCount) {
        output[length] = UInt8(ascii: "0")
        length += 1
      }
      return length
    }

    /// Writes `d.ddde+XX` (or `de-XX` for one digit), returning the number of bytes.
    private static func exponential(
      _ significand: UInt64, _ digitCount: Int, _ exponent: Int,
      to output: UnsafeMutablePointer<UInt8>
    ) -> Int {
      var length: Int
      if digitCount == 1 {
        length = Digits.write(significand, count: 1, to: output)
      } else {
        _ = Digits.write(significand, count: digitCount, to: output + 1)
        output[0] = output[1]
        output[1] = UInt8(ascii: ".")
        length = digitCount + 1
      }
      output[length] = UInt8(ascii: "e")
      output[length + 1] = exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
      length += 2
      let magnitude = UInt64(exponent.magnitude)
      // Two exponent digits at least: 1e-07, 1e+20, 5e-324.
      return length
        + Digits.write(magnitude, count: max(2, Digits.count(magnitude)), to: output + length)
    }
  }
}

// MARK: - Digits

extension JSONNumberWriter {
  /// Decimal digit counting and writing for `UInt64`.
  enum Digits {
    /// 10^0 through 10^19.
    static let powersOfTen: [UInt64] = [
      1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
      10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000,
      100_000_000_000_000, 1_000_000_000_000_000, 10_000_000_000_000_000,
      100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// The number of decimal digits of `value` (1 for 0).
    static func count(_ value: UInt64) -> Int {
      // floor(log10(2^bits)) by 1233 / 4096 ~ log10(2), then one comparison corrects it
      // (`| 1` makes 0 count one digit and changes no other count: 10^k is even for k > 0).
      let bits = 64 - (value | 1).leadingZeroBitCount
      let guess = (bits * 1233) >> 12
      return guess + (value | 1 >= powersOfTen[guess] ? 1 : 0)
    }

    /// Writes the last `count` digits of `value`, zero-padded on the left, at `output`.
    ///
    /// Eight digits at a time (see ``writeBlock(_:to:)``), then two at a time.
    ///
    /// - Returns: `count`.
    @discardableResult
    static func write(_ value: UInt64, count: Int, to output: UnsafeMutablePointer<UInt8>) -> Int {
      var rest = value
      var end = count
      while end >= 8 {
        writeBlock(rest % 100_000_000, to: output + end - 8)
        rest /= 100_000_000
        end -= 8
      }
      while end >= 2 {
        writePair(rest % 100, to: output + end - 2)
        rest /= 100
        end -= 2
      }
      if end == 1 { output[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10) }
      return count
    }

    /// Writes the eight digits of `block` (below 10^8), zero-padded, with one store.
    ///
    /// The digits are worked out in the lanes of one word, all lanes at once: the two halves
    /// of four digits in 32-bit lanes, their pairs in 16-bit lanes, the digits in bytes, each
    /// step a division by a multiplication and a shift that no lane overflows (a lane's
    /// product stays below its width). Little-endian, so the first digit is the lowest byte.
    @inline(__always)
    static func writeBlock(_ block: UInt64, to output: UnsafeMutablePointer<UInt8>) {
      // [high four digits | low four digits << 32].
      let high = block / 10_000
      var lanes = high | (block &- high &* 10_000) &<< 32
      // Each 32-bit lane x < 10^4 into [x / 100 | x % 100 << 16]: x / 100 is
      // (x * 10_486) >> 20 for x < 10^4 (the product stays below 2^27).
      let hundreds = ((lanes &* 10_486) &>> 20) & 0x0000_007F_0000_007F
      lanes = hundreds | (lanes &- hundreds &* 100) &<< 16
      // Each 16-bit lane y < 100 into [y / 10 | y % 10 << 8]: y / 10 is (y * 103) >> 10 for
      // y < 100 (the product stays below 2^14).
      let tens = ((lanes &* 103) &>> 10) & 0x000F_000F_000F_000F
      lanes = tens | (lanes &- tens &* 10) &<< 8
      UnsafeMutableRawPointer(output).storeBytes(
        of: (lanes | 0x3030_3030_3030_3030).littleEndian, as: UInt64.self)
    }

    /// Writes the two digits of `pair` (below 100).
    @inline(__always)
    private static func writePair(_ pair: UInt64, to output: UnsafeMutablePointer<UInt8>) {
      // pair / 10 as (pair * 103) >> 10, exact for pair < 100.
      let tens = (pair &* 103) >> 10
      output[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
      output[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair &- tens &* 10)
    }
  }
}
