/// A read position in the UTF-8 bytes of a date text, with readers that report precise errors.
///
/// Readers take only ASCII: a digit from another script (`٣`, `３`) is reported as such rather
/// than as an unexpected character. Nothing here allocates unless an error is thrown.
struct _DateTextCursor {
  /// The whole text.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The offset of the next byte to read.
  var index: Int

  /// Creates a cursor at the start of `bytes`.
  ///
  /// - Parameter bytes: The UTF-8 text.
  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    self.index = 0
  }

  /// Whether every byte has been read.
  var isAtEnd: Bool { index >= bytes.count }

  /// The next byte, or `nil` at the end.
  var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  /// Whether the next byte is an ASCII digit.
  var isAtDigit: Bool { index < bytes.count && bytes[index] &- 0x30 < 10 }

  /// Reads `byte` when it is next.
  ///
  /// - Parameter byte: The byte to look for.
  /// - Returns: Whether it was there (and is now read).
  @inline(__always)
  mutating func take(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  /// Reads `byte`, or throws `expected '<byte>' <context>`.
  ///
  /// - Parameters:
  ///   - byte: The ASCII byte that must come next.
  ///   - context: Where it is expected, completing the sentence: `after the hour`.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  @inline(__always)
  mutating func expect(_ byte: UInt8, _ context: StaticString) throws(DateTextError) {
    guard take(byte) else {
      throw .expected(
        "'\(Character(Unicode.Scalar(byte)))'", "\(context)", at: index, atEnd: isAtEnd)
    }
  }

  /// Reads exactly `count` ASCII digits as a number.
  ///
  /// - Parameters:
  ///   - count: The number of digits, at most 18.
  ///   - field: The field, for messages.
  /// - Returns: The value.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  @inline(__always)
  mutating func digits(_ count: Int, for field: _DateTextField) throws(DateTextError) -> Int {
    let start = index
    let end = start + count
    var value = 0
    while index < end {
      guard index < bytes.count, bytes[index] &- 0x30 < 10 else {
        throw digitError(count, count, for: field, fieldStart: start)
      }
      value = value &* 10 &+ Int(bytes[index] &- 0x30)
      index += 1
    }
    return value
  }

  /// Reads between `minimum` and `maximum` ASCII digits, as many as there are.
  ///
  /// - Parameters:
  ///   - minimum: The fewest digits the field takes, at least 1.
  ///   - maximum: The most digits to read, at most 18; a further digit is left unread.
  ///   - field: The field, for messages.
  /// - Returns: The value and the number of digits read.
  /// - Throws: A ``DateTextError`` saying what is wrong and where.
  mutating func digits(
    _ minimum: Int, upTo maximum: Int, for field: _DateTextField
  ) throws(DateTextError) -> (value: Int, count: Int) {
    let start = index
    var value = 0
    while index - start < maximum, isAtDigit {
      value = value &* 10 &+ Int(bytes[index] &- 0x30)
      index += 1
    }
    guard index - start >= minimum else {
      throw digitError(minimum, maximum, for: field, fieldStart: start)
    }
    return (value, index - start)
  }

  /// Reads the digits of a fraction (after its `.`), at least one and any number.
  ///
  /// - Returns: The first nine digits as nanoseconds; further digits are read and dropped
  ///   (truncated, never rounded, so a fraction never carries into the seconds).
  mutating func fraction() throws(DateTextError) -> Int {
    let start = index
    var value = 0
    while isAtDigit {
      if index - start < 9 { value = value &* 10 &+ Int(bytes[index] &- 0x30) }
      index += 1
    }
    let count = index - start
    guard count > 0 else {
      throw digitError(1, Int.max, for: .fraction, fieldStart: start)
    }
    return count >= 9 ? value : value * _DateArithmetic.powersOfTen[9 - count]
  }

  /// Reads ASCII letters, as many as there are.
  ///
  /// - Returns: The offsets of the first letter and of the byte after the last.
  mutating func letters() -> (start: Int, end: Int) {
    let start = index
    while index < bytes.count, (bytes[index] | 0x20) &- 0x61 < 26 { index += 1 }
    return (start, index)
  }

  /// The text of `bytes[start..<end]`, for messages.
  ///
  /// - Parameters:
  ///   - start: The first byte.
  ///   - end: The byte after the last.
  /// - Returns: The bytes decoded as UTF-8.
  func text(from start: Int, to end: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  /// The error for a field whose digits are missing: a non-ASCII digit when one is at the
  /// cursor, else `expected N digits for the <field>`.
  ///
  /// - Parameters:
  ///   - minimum: The fewest digits the field takes.
  ///   - maximum: The most digits the field takes.
  ///   - field: The field.
  ///   - fieldStart: Where the field starts.
  /// - Returns: The error to throw.
  func digitError(
    _ minimum: Int, _ maximum: Int, for field: _DateTextField, fieldStart: Int
  ) -> DateTextError {
    if let scalar = nonASCIIDigit(at: index) {
      return .nonASCIIDigit(scalar, in: field, at: index)
    }
    return .expectedDigits(minimum, maximum, for: field, at: fieldStart, atEnd: isAtEnd)
  }

  /// The scalar at `offset` when it is a decimal digit outside ASCII.
  ///
  /// - Parameter offset: A byte offset.
  /// - Returns: The digit, or `nil`.
  func nonASCIIDigit(at offset: Int) -> Unicode.Scalar? {
    guard offset < bytes.count, bytes[offset] >= 0x80 else { return nil }
    var iterator = UnsafeBufferPointer(rebasing: bytes[offset...]).makeIterator()
    var decoder = UTF8()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator),
      scalar.properties.numericType == .decimal
    else { return nil }
    return scalar
  }

  /// The error for text left after a complete date: whitespace, or anything else.
  ///
  /// - Returns: The error to throw.
  func trailingError() -> DateTextError {
    switch current {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
      .trailingWhitespace(at: index)
    default:
      .trailingText(at: index)
    }
  }
}

/// Whether a byte is ASCII whitespace (space, tab, line feed, carriage return).
///
/// - Parameter byte: The byte.
/// - Returns: `true` for the four whitespace bytes.
@inline(__always)
func _isDateTextWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

/// Runs `body` on the UTF-8 bytes of `text` without copying a native string.
///
/// A string whose UTF-8 is contiguous (every native Swift string) is read in place through
/// `String.withUTF8`: on such a string it neither copies nor allocates. It is used rather than
/// `text.utf8.withContiguousStorageIfAvailable`, which is not inlined from the standard library
/// and, called with a generic result, spent about 40% of an ISO 8601 parse looking up generic
/// metadata. Any other string (a bridged `NSString`) is first copied to a temporary buffer, on
/// the stack when it is small.
///
/// - Parameters:
///   - text: The text.
///   - body: The work, given the bytes.
/// - Returns: What `body` returns.
@inline(__always)
func _withDateTextBytes<Result>(
  _ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
) -> Result {
  if text.isContiguousUTF8 {
    var contiguous = text  // a copy of the reference; withUTF8 does not copy contiguous text
    return contiguous.withUTF8(body)
  }
  let count = text.utf8.count
  return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
    let (_, written) = buffer.initialize(from: text.utf8)
    return body(UnsafeBufferPointer(rebasing: buffer[..<written]))
  }
}

/// Writes the ASCII bytes of a formatted date into a fixed buffer.
///
/// Callers size the buffer for the longest text they can write; a write past the end is
/// dropped (and asserts in debug builds) instead of trapping.
struct _DateTextWriter {
  /// The buffer being filled.
  let buffer: UnsafeMutableBufferPointer<UInt8>
  /// The number of bytes written.
  var count = 0

  /// Creates a writer at the start of `buffer`.
  ///
  /// - Parameter buffer: Uninitialized bytes to fill.
  init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    self.buffer = buffer
  }

  /// Appends one byte.
  ///
  /// - Parameter byte: The byte.
  @inline(__always)
  mutating func append(_ byte: UInt8) {
    assert(count < buffer.count, "date text buffer too small")
    guard count < buffer.count else { return }
    buffer[count] = byte
    count += 1
  }

  /// Appends an ASCII string.
  ///
  /// - Parameter text: The text.
  mutating func append(_ text: StaticString) {
    let start = text.utf8Start
    for offset in 0..<text.utf8CodeUnitCount { append(start[offset]) }
  }

  /// Appends `value` in decimal, zero-padded to at least `width` digits.
  ///
  /// - Parameters:
  ///   - value: A value of at least 0.
  ///   - width: The minimum number of digits, at most 20.
  @inline(__always)
  mutating func appendDigits(_ value: Int, width: Int) {
    // The fields of a date, two or four digits wide, by pairs: no division per digit.
    if width == 2, value >= 0, value < 100, count + 2 <= buffer.count {
      appendPair(value)
      return
    }
    if width == 4, value >= 0, value < 10_000, count + 4 <= buffer.count {
      let high = (value &* 5_243) &>> 19  // value / 100 for value < 10_000
      appendPair(high)
      appendPair(value &- high &* 100)
      return
    }
    var remaining = value.magnitude
    var digits = 0
    var probe = remaining
    repeat {
      digits += 1
      probe /= 10
    } while probe > 0
    let total = max(digits, width)
    guard count + total <= buffer.count else {
      assert(false, "date text buffer too small")
      return
    }
    var position = count + total
    while position > count {
      position -= 1
      buffer[position] = 0x30 + UInt8(truncatingIfNeeded: remaining % 10)
      remaining /= 10
    }
    count += total
  }

  /// Appends the two digits of `pair` (0–99); the caller checked that they fit.
  @inline(__always)
  private mutating func appendPair(_ pair: Int) {
    // pair / 10 as (pair * 103) >> 10, exact for pair < 100.
    let tens = (pair &* 103) &>> 10
    buffer[count] = 0x30 &+ UInt8(truncatingIfNeeded: tens)
    buffer[count &+ 1] = 0x30 &+ UInt8(truncatingIfNeeded: pair &- tens &* 10)
    count &+= 2
  }

  /// Appends a year: a `-` for years before year 0, then at least `width` digits.
  ///
  /// - Parameters:
  ///   - year: The astronomical year.
  ///   - width: The minimum number of digits.
  ///   - plusAbove: Years above this get a leading `+` (ISO 8601 expanded form); `Int.max` for
  ///     never.
  mutating func appendYear(_ year: Int, width: Int, plusAbove: Int = Int.max) {
    if year < 0 {
      append(UInt8(ascii: "-"))
    } else if year > plusAbove {
      append(UInt8(ascii: "+"))
    }
    appendDigits(Int(year.magnitude), width: width)
  }

  /// Appends a UTC offset.
  ///
  /// - Parameters:
  ///   - seconds: The offset east of UTC, in seconds.
  ///   - colon: Whether to separate hours, minutes and seconds with `:`.
  ///   - alwaysMinutes: Whether to write the minutes when they and the seconds are zero.
  ///   - secondsIfAny: Whether to write the seconds when they are not zero.
  mutating func appendOffset(
    _ seconds: Int, colon: Bool, alwaysMinutes: Bool, secondsIfAny: Bool
  ) {
    append(seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
    let magnitude = Int(seconds.magnitude)
    appendDigits(magnitude / 3600, width: 2)
    let minutes = magnitude / 60 % 60
    let secs = magnitude % 60
    if alwaysMinutes || minutes != 0 || (secondsIfAny && secs != 0) {
      if colon { append(UInt8(ascii: ":")) }
      appendDigits(minutes, width: 2)
    }
    if secondsIfAny, secs != 0 {
      if colon { append(UInt8(ascii: ":")) }
      appendDigits(secs, width: 2)
    }
  }

  /// Runs `body` with a writer over a temporary buffer and returns what it wrote.
  ///
  /// - Parameters:
  ///   - capacity: An upper bound on the bytes `body` writes.
  ///   - body: The writing.
  /// - Returns: The text written.
  static func string(capacity: Int, _ body: (inout _DateTextWriter) -> Void) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      var writer = _DateTextWriter(buffer)
      body(&writer)
      // UInt8 is trivial: the bytes need no deinitialization.
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<writer.count]), as: UTF8.self)
    }
  }
}
