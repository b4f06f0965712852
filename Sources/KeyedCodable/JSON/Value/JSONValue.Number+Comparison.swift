extension JSONValue.Number: Hashable {
  /// Whether two numbers have the same decimal value, whatever their text.
  ///
  /// `1`, `1.0`, `1e0` and `100e-2` are equal; so are `0`, `-0` and `0.0e9`. The comparison is
  /// exact, never through `Double`: `0.1` and `0.10000000000000001` differ.
  ///
  /// - Parameters:
  ///   - lhs: A number.
  ///   - rhs: Another number.
  /// - Returns: `true` when their values are equal.
  public static func == (lhs: JSONValue.Number, rhs: JSONValue.Number) -> Bool {
    if lhs.text == rhs.text { return true }
    return lhs.withUTF8 { left, leftCount in
      rhs.withUTF8 { right, rightCount in
        DecimalForm(left, count: leftCount) == DecimalForm(right, count: rightCount)
      }
    } ?? false
  }

  /// Hashes the number's decimal value, so that equal numbers hash alike.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    _ = withUTF8 { start, count -> Bool in
      DecimalForm(start, count: count).hash(into: &hasher)
      return true
    }
  }
}

/// A JSON number's value in a normal form: a sign, the significant digits (without leading or
/// trailing zeros) and the power of ten of the last one, so that two numbers are equal exactly
/// when their forms are.
///
/// The digits stay in the text; the exponent is an `Int` while it is below 10^18 in magnitude
/// and decimal digits beyond, so that no exponent, however long, overflows or saturates.
private struct DecimalForm: Equatable {
  /// The exponent of the last significant digit.
  enum Exponent: Hashable {
    /// An exponent below 10^18 in magnitude.
    case small(Int)
    /// An exponent of 10^18 or more in magnitude: its sign and decimal digits (values 0–9),
    /// most significant first, without leading zeros.
    case large(isNegative: Bool, digits: [UInt8])
  }

  /// The text.
  let start: UnsafePointer<UInt8>
  /// Where the integer digits are in the text.
  let integerDigits: Range<Int>
  /// Where the fraction digits are in the text (empty without a fraction).
  let fractionDigits: Range<Int>
  /// The range of significant digits among all the integer and fraction digits, counted
  /// from 0; empty for zero.
  let significant: Range<Int>
  let isNegative: Bool
  let exponent: Exponent

  /// Reads a valid JSON number.
  init(_ start: UnsafePointer<UInt8>, count: Int) {
    self.start = start
    var index = 0
    let negative = count > 0 && start[0] == UInt8(ascii: "-")
    if negative { index = 1 }
    let integerStart = index
    while index < count, Self.isDigit(start[index]) { index &+= 1 }
    integerDigits = integerStart..<index
    var fractionStart = index
    if index < count, start[index] == UInt8(ascii: ".") {
      index &+= 1
      fractionStart = index
      while index < count, Self.isDigit(start[index]) { index &+= 1 }
    }
    fractionDigits = fractionStart..<Swift.max(fractionStart, index)
    // The explicit exponent's sign and digits, without leading zeros.
    var exponentIsNegative = false
    var exponentDigits = index..<index
    if index < count, start[index] | 0x20 == UInt8(ascii: "e") {
      index &+= 1
      if index < count, start[index] == UInt8(ascii: "-") || start[index] == UInt8(ascii: "+") {
        exponentIsNegative = start[index] == UInt8(ascii: "-")
        index &+= 1
      }
      while index < count, start[index] == UInt8(ascii: "0") { index &+= 1 }
      exponentDigits = index..<count
    }

    let total = integerDigits.count &+ fractionDigits.count
    var first = 0
    while first < total, Self.digit(first, start, integerDigits, fractionDigits) == 0 {
      first &+= 1
    }
    guard first < total else {
      // Zero, whatever its sign and exponent.
      significant = 0..<0
      isNegative = false
      exponent = .small(0)
      return
    }
    var last = total &- 1
    while Self.digit(last, start, integerDigits, fractionDigits) == 0 { last &-= 1 }
    significant = first..<(last &+ 1)
    isNegative = negative
    // value = digits × 10^(explicit − fraction count); the last significant digit stands
    // (total − 1 − last) places above the last digit.
    let shift = (total &- 1 &- last) &- fractionDigits.count
    exponent = Self.exponent(
      explicit: UnsafeBufferPointer(
        start: start + exponentDigits.lowerBound, count: exponentDigits.count),
      isNegative: exponentIsNegative, plus: shift)
  }

  static func == (lhs: DecimalForm, rhs: DecimalForm) -> Bool {
    guard lhs.isNegative == rhs.isNegative, lhs.exponent == rhs.exponent,
      lhs.significant.count == rhs.significant.count
    else { return false }
    var offset = 0
    while offset < lhs.significant.count {
      if lhs.digit(lhs.significant.lowerBound &+ offset)
        != rhs.digit(rhs.significant.lowerBound &+ offset)
      {
        return false
      }
      offset &+= 1
    }
    return true
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(isNegative)
    hasher.combine(exponent)
    hasher.combine(significant.count)
    // Eight digits to a word.
    var word: UInt64 = 0
    var position = significant.lowerBound
    while position < significant.upperBound {
      word = word &<< 8 | UInt64(digit(position))
      position &+= 1
      if (position &- significant.lowerBound) & 7 == 0 {
        hasher.combine(word)
        word = 0
      }
    }
    hasher.combine(word)
  }

  /// The digit at `position` among the integer and fraction digits.
  private func digit(_ position: Int) -> UInt8 {
    Self.digit(position, start, integerDigits, fractionDigits)
  }

  private static func digit(
    _ position: Int, _ start: UnsafePointer<UInt8>, _ integer: Range<Int>, _ fraction: Range<Int>
  ) -> UInt8 {
    let offset =
      position < integer.count
      ? integer.lowerBound &+ position : fraction.lowerBound &+ (position &- integer.count)
    return start[offset] &- UInt8(ascii: "0")
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  /// The largest magnitude an exponent has as ``Exponent/small(_:)``.
  private static let smallLimit = 999_999_999_999_999_999

  /// `±explicit + shift` in normal form.
  ///
  /// - Parameters:
  ///   - explicit: The explicit exponent's digits, without leading zeros.
  ///   - isNegative: The explicit exponent's sign.
  ///   - shift: An adjustment smaller in magnitude than the text is long.
  /// - Returns: The sum.
  private static func exponent(
    explicit: UnsafeBufferPointer<UInt8>, isNegative: Bool, plus shift: Int
  ) -> Exponent {
    if explicit.count <= 18 {
      var value = 0
      for byte in explicit { value = value &* 10 &+ Int(byte &- UInt8(ascii: "0")) }
      // Below 10^18 + 2^62 in magnitude: no overflow.
      let sum = (isNegative ? 0 &- value : value) &+ shift
      if sum.magnitude <= UInt(smallLimit) { return .small(sum) }
      return .large(isNegative: sum < 0, digits: String(sum.magnitude).utf8.map { $0 &- 48 })
    }
    // 10^18 or more: the sum keeps the explicit exponent's sign, and its magnitude is the
    // explicit magnitude moved by `shift` towards or away from zero.
    var digits = explicit.map { $0 &- UInt8(ascii: "0") }
    let delta = isNegative ? 0 &- shift : shift
    add(delta, to: &digits)
    if let leading = digits.firstIndex(where: { $0 != 0 }), leading > 0 {
      digits.removeFirst(leading)
    }
    if digits.count <= 18 {
      var value = 0
      for digit in digits { value = value &* 10 &+ Int(digit) }
      return .small(isNegative ? 0 &- value : value)
    }
    return .large(isNegative: isNegative, digits: digits)
  }

  /// Adds `delta` to the decimal number `digits`, which is larger than `delta`'s magnitude.
  private static func add(_ delta: Int, to digits: inout [UInt8]) {
    var carry = delta
    var position = digits.count &- 1
    while carry != 0, position >= 0 {
      // Euclidean division, so that each digit stays in 0...9 and the carry is exact.
      var sum = Int(digits[position]) &+ carry % 10
      carry /= 10
      if sum < 0 {
        sum &+= 10
        carry &-= 1
      } else if sum > 9 {
        sum &-= 10
        carry &+= 1
      }
      digits[position] = UInt8(truncatingIfNeeded: sum)
      position &-= 1
    }
    if carry > 0 {
      // A carry out of the top digit.
      var prefix: [UInt8] = []
      while carry > 0 {
        prefix.insert(UInt8(truncatingIfNeeded: carry % 10), at: 0)
        carry /= 10
      }
      digits.insert(contentsOf: prefix, at: 0)
    }
  }
}
