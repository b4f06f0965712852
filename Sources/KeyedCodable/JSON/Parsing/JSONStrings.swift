/// Reading the strings of a ``JSONDocument``: `String` values, escapes, and byte comparisons.
enum JSONStrings {
  /// The value of a hex digit, or `nil`.
  @inline(__always)
  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
    default: nil
    }
  }

  /// Whether `count` bytes at `lhs` and `rhs` are equal.
  ///
  /// Eight bytes at a time, the last eight overlapping the ones before when `count` isn't a
  /// multiple of eight, rather than a byte at a time at the end; under eight bytes, the first
  /// four and the last four, and under four, a byte at a time. Reads nothing outside the `count`
  /// bytes.
  @inline(__always)
  static func equal(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, count: Int) -> Bool {
    let left = UnsafeRawPointer(lhs)
    let right = UnsafeRawPointer(rhs)
    guard count >= 8 else {
      guard count >= 4 else {
        var index = 0
        while index < count {
          guard lhs[index] == rhs[index] else { return false }
          index &+= 1
        }
        return true
      }
      return left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
        && left.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
          == right.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
    }
    var index = 0
    while index &+ 8 < count {
      guard
        left.loadUnaligned(fromByteOffset: index, as: UInt64.self)
          == right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      else { return false }
      index &+= 8
    }
    return left.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      == right.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
  }

  /// The string at tape entry `index` of `document`.
  static func string(at index: Int, in document: JSONDocument) -> String {
    let span = document.span(index)
    let flags = document.flags(index)
    guard flags & JSONDocument.hasEscapes != 0 else {
      return validated(span, isASCII: flags & JSONDocument.isNonASCII == 0)
    }
    return unescaped(span)
  }

  /// The string of UTF-8 bytes the scanner validated.
  ///
  /// Where the standard library has `UTF8Span` (Swift 6.2: Linux, and Apple platforms from
  /// their 2025 releases), the bytes are copied without being validated a second time, about a
  /// third fewer instructions for a short string; elsewhere `String(decoding:as:)` validates
  /// them again (and never replaces anything, the scanner having rejected invalid UTF-8).
  ///
  /// - Parameters:
  ///   - bytes: The string's UTF-8, valid.
  ///   - isASCII: Whether every byte is ASCII, as the scan found. A string longer than fifteen
  ///     bytes keeps this in its storage, where the standard library's fast paths read it
  ///     (hashing, comparing and counting `Character`s without Unicode normalization): made
  ///     without it, a decoded ASCII string took about 40% longer to hash, compare and count.
  /// - Returns: The string, a copy of `bytes`.
  @inline(__always)
  static func validated(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
    #if compiler(>=6.2)
      if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
      }
    #endif
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether the string at tape entry `index` equals `key`, compared as Swift strings are.
  ///
  /// A plain ASCII name is compared byte by byte with the key's UTF-8 bytes; other names are
  /// decoded first, so names that differ in escapes or Unicode normalization compare as
  /// `JSONDecoder` compares them.
  @inline(__always)
  static func name(at index: Int, in document: JSONDocument, equals key: String) -> Bool {
    let flags = document.flags(index)
    if flags & JSONDocument.hasEscapes == 0 {
      let length = document.length(index)
      let start = UnsafePointer(document.bytes + document.offset(index))
      if let equal = key.utf8.withContiguousStorageIfAvailable({ keyBytes in
        keyBytes.count == length
          && (length == 0 || Self.equal(start, keyBytes.baseAddress ?? start, count: length))
      }) {
        // Different bytes can still be equal strings when both are outside ASCII (two
        // normalizations of one text); a plain ASCII name equals only the same bytes.
        if equal || flags == 0 { return equal }
      }
    }
    return string(at: index, in: document) == key
  }

  /// Whether the string at tape entry `index` is a plain ASCII name equal to `bytes`.
  @inline(__always)
  static func plainName(
    at index: Int, in document: JSONDocument, equals bytes: UnsafeBufferPointer<UInt8>
  )
    -> Bool
  {
    let word = document.tape[index]
    guard word & 0xF0 == 0, document.hasLength(index, bytes.count) else { return false }
    guard let base = bytes.baseAddress else { return true }
    return equal(
      document.bytes + Int(truncatingIfNeeded: word &>> 32), base, count: bytes.count)
  }

  /// The string a JSON string's contents (between the quotes, validated) stand for.
  ///
  /// The text is unescaped into a buffer on the stack (on the heap past the size the standard
  /// library allows there) and copied into the string without a second validation: the bytes
  /// written are valid UTF-8 whatever the input (an escaped surrogate that is not one of a
  /// pair, which the scanners reject, becomes U+FFFD).
  static func unescaped(_ span: UnsafeBufferPointer<UInt8>) -> String {
    withUnescaped(span) { text in validated(text, isASCII: text.isAllASCII) }
  }

  /// Calls `body` with the text a JSON string's contents (between the quotes, validated) stand
  /// for, unescaped into a buffer on the stack (on the heap past the size the standard library
  /// allows there), without making a `String` of it.
  static func withUnescaped<Result>(
    _ span: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    guard let base = span.baseAddress else {
      return body(UnsafeBufferPointer(start: nil, count: 0))
    }
    // Escapes only ever shorten the text: `\uXXXX` (6 bytes) gives at most 3 bytes of UTF-8, and
    // an escaped surrogate pair (12 bytes) gives 4.
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: span.count) { output in
      let length = unescape(base, count: span.count, into: output)
      return body(UnsafeBufferPointer(rebasing: output[..<length]))
    }
  }

  /// Writes the text of the `count` bytes at `base` with its escapes resolved into `output`,
  /// which holds at least `count` bytes, and returns the number of bytes written.
  private static func unescape(
    _ base: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    var read = 0
    var written = 0
    while read < count {
      // The text up to the next backslash, copied whole.
      let backslash = nextBackslash(base, from: read, count: count)
      if backslash > read, let target = output.baseAddress {
        (target + written).initialize(from: base + read, count: backslash &- read)
        written &+= backslash &- read
        read = backslash
      }
      guard read &+ 1 < count else {
        // A backslash that ends the text (only from an input no scanner accepts): kept.
        if read < count {
          output[written] = base[read]
          written &+= 1
        }
        break
      }
      let escaped = base[read &+ 1]
      read &+= 2
      switch escaped {
      case UInt8(ascii: "b"): output[written] = 0x08
      case UInt8(ascii: "f"): output[written] = 0x0C
      case UInt8(ascii: "n"): output[written] = 0x0A
      case UInt8(ascii: "r"): output[written] = 0x0D
      case UInt8(ascii: "t"): output[written] = 0x09
      case UInt8(ascii: "u"):
        var scalar = UInt32(hexUnit(base, read, count))
        read &+= 4
        if scalar >= 0xD800, scalar < 0xDC00, read &+ 6 <= count {
          let low = UInt32(hexUnit(base, read &+ 2, count))
          if low >= 0xDC00, low < 0xE000 {
            scalar = 0x10000 &+ ((scalar &- 0xD800) &<< 10) &+ (low &- 0xDC00)
            read &+= 6
          }
        }
        written = encode(scalar, into: output, at: written)
        continue
      default: output[written] = escaped  // \" \\ \/
      }
      written &+= 1
    }
    return written
  }

  /// The index of the first backslash at or after `start` in the `count` bytes at `base`, or
  /// `count`: eight bytes at a time (the lowest marked byte of a word is always a backslash; a
  /// mark above it may be a borrow).
  @inline(__always)
  private static func nextBackslash(_ base: UnsafePointer<UInt8>, from start: Int, count: Int)
    -> Int
  {
    let ones: UInt64 = 0x0101_0101_0101_0101
    var index = start
    while index &+ 8 <= count {
      let word =
        UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        ^ (ones &* 0x5C)
      let found = (word &- ones) & ~word & (ones &* 0x80)
      if found != 0 {
        return index &+ found.trailingZeroBitCount &>> 3
      }
      index &+= 8
    }
    while index < count, base[index] != UInt8(ascii: "\\") {
      index &+= 1
    }
    return index
  }

  /// The four hex digits at `index` (validated by the scanner).
  private static func hexUnit(_ base: UnsafePointer<UInt8>, _ index: Int, _ count: Int) -> UInt16 {
    var value: UInt16 = 0
    var offset = 0
    while offset < 4, index &+ offset < count {
      value = value &<< 4 | UInt16(hexValue(base[index &+ offset]) ?? 0)
      offset &+= 1
    }
    return value
  }

  /// Writes `scalar` as UTF-8 at `index` and returns the index after it.
  private static func encode(
    _ scalar: UInt32, into output: UnsafeMutableBufferPointer<UInt8>, at index: Int
  )
    -> Int
  {
    switch scalar {
    case 0xD800..<0xE000, 0x11_0000...:
      // Not a scalar (only from an input no scanner accepts): the replacement character.
      return encode(0xFFFD, into: output, at: index)
    case 0..<0x80:
      output[index] = UInt8(truncatingIfNeeded: scalar)
      return index &+ 1
    case 0x80..<0x800:
      output[index] = 0xC0 | UInt8(truncatingIfNeeded: scalar &>> 6)
      output[index &+ 1] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
      return index &+ 2
    case 0x800..<0x10000:
      output[index] = 0xE0 | UInt8(truncatingIfNeeded: scalar &>> 12)
      output[index &+ 1] = 0x80 | UInt8(truncatingIfNeeded: scalar &>> 6 & 0x3F)
      output[index &+ 2] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
      return index &+ 3
    default:
      output[index] = 0xF0 | UInt8(truncatingIfNeeded: scalar &>> 18)
      output[index &+ 1] = 0x80 | UInt8(truncatingIfNeeded: scalar &>> 12 & 0x3F)
      output[index &+ 2] = 0x80 | UInt8(truncatingIfNeeded: scalar &>> 6 & 0x3F)
      output[index &+ 3] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
      return index &+ 4
    }
  }
}
