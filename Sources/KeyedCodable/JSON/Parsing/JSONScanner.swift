/// Validates a JSON document and writes its tape (see ``JSONDocument``), in one pass.
///
/// Follows RFC 8259 exactly: no comments, no trailing commas, no leading zeros, no `NaN`, only
/// the four whitespace characters, strings of valid UTF-8 without raw control characters and
/// with only the standard escapes (a `\u` escape of a UTF-16 surrogate must be one of a pair).
/// At most ``maximumDepth`` nested arrays and objects, as in Foundation's `JSONDecoder`. Any
/// value may be the top-level one.
///
/// Iterative, with an explicit stack, so no input can exhaust the call stack. Reads ahead
/// freely: the document is followed by zero bytes, which no rule accepts, so every loop stops at
/// the end without a bounds check per byte.
struct JSONScanner {
  /// The deepest nesting of arrays and objects accepted: Foundation's limit.
  static let maximumDepth = 512

  private let document: JSONDocument
  private let bytes: UnsafeMutablePointer<UInt8>
  private let end: Int
  private var position = 0
  /// The tape entries of the open containers, innermost last.
  private var open: [Int] = []
  /// The element or member counts of the open containers.
  private var counts: [UInt32] = []
  /// Scratch space for the member names of one object (see ``mayRepeatNames(in:)``).
  private var fingerprints: [Fingerprint] = []

  /// A member name's fingerprint and its tape entry.
  private struct Fingerprint {
    var value: UInt64
    var entry: Int
  }

  init(document: JSONDocument) {
    self.document = document
    bytes = document.bytes
    end = document.count
  }

  // MARK: - Structure

  /// Scans the whole document.
  mutating func scan() throws(JSONSyntaxError) {
    guard end < 1 << 32 else { throw error(.tooLarge) }
    // A UTF-8 byte-order mark is skipped, as Foundation does.
    if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      position = 3
    }
    skipWhitespace()
    guard position < end else { throw error(.emptyDocument) }
    open.reserveCapacity(16)
    counts.reserveCapacity(16)
    var needValue = true
    while true {
      if needValue {
        skipWhitespace()
        switch bytes[position] {
        case UInt8(ascii: "{"):
          try openContainer(.object)
          skipWhitespace()
          if bytes[position] == UInt8(ascii: "}") {
            position &+= 1
            closeContainer()
            needValue = false
          } else {
            try scanMemberName()
          }
          continue
        case UInt8(ascii: "["):
          try openContainer(.array)
          skipWhitespace()
          if bytes[position] == UInt8(ascii: "]") {
            position &+= 1
            closeContainer()
            needValue = false
          }
          continue
        case UInt8(ascii: "\""):
          try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          try scanNumber()
        case UInt8(ascii: "t"):
          try scanLiteral(0x6575_7274, length: 4, kind: .true)  // "true"
        case UInt8(ascii: "f"):
          try scanFalse()
        case UInt8(ascii: "n"):
          try scanLiteral(0x6C6C_756E, length: 4, kind: .null)  // "null"
        default:
          throw unexpected()
        }
        needValue = false
      }
      // After a value.
      guard let container = open.last else { break }
      skipWhitespace()
      let byte = bytes[position]
      let isObject = document.kind(container) == .object
      if byte == UInt8(ascii: ",") {
        position &+= 1
        counts[counts.count &- 1] &+= 1
        if isObject {
          skipWhitespace()
          try scanMemberName()
        }
        needValue = true
      } else if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
        position &+= 1
        closeContainer()
      } else {
        throw unexpected()
      }
    }
    skipWhitespace()
    guard position == end else { throw error(.trailingContent) }
  }

  private mutating func openContainer(_ kind: JSONKind) throws(JSONSyntaxError) {
    guard open.count < Self.maximumDepth else {
      throw error(.tooDeep(limit: Self.maximumDepth))
    }
    let index = document.append(UInt64(kind.rawValue) | UInt64(position) &<< 8, 0)
    open.append(index)
    counts.append(0)
    position &+= 1
  }

  /// Ends the innermost container: its count is one more than its commas, unless it is empty.
  private mutating func closeContainer() {
    guard let index = open.popLast(), let commas = counts.popLast() else { return }
    let isEmpty = document.entryCount == index &+ 1
    let count = isEmpty ? 0 : UInt64(commas) &+ 1
    var word0 = document.tape[index &* 2]
    if document.kind(index) == .object, count > 1, mayRepeatNames(in: index) {
      word0 |= JSONDocument.mayRepeatNames
    }
    document.set(index, word0, count &<< 32 | UInt64(document.entryCount))
  }

  /// Scans a member name, the colon after it, and the whitespace before the value.
  private mutating func scanMemberName() throws(JSONSyntaxError) {
    guard bytes[position] == UInt8(ascii: "\"") else { throw unexpected() }
    try scanString()
    skipWhitespace()
    guard bytes[position] == UInt8(ascii: ":") else { throw unexpected() }
    position &+= 1
  }

  @inline(__always)
  private mutating func skipWhitespace() {
    while true {
      let byte = bytes[position]
      // Fast exit: every byte of a value is above the space.
      guard byte <= 0x20 else { return }
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
      position &+= 1
    }
  }

  // MARK: - Scalars

  /// Scans a string, from its opening quote, and appends its entry.
  private mutating func scanString() throws(JSONSyntaxError) {
    let start = position &+ 1
    var index = start
    var flags: UInt64 = 0
    while true {
      // Eight bytes at a time while none of them needs a look: a quote, a backslash, a control
      // character or a byte outside ASCII.
      let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
      if Self.isPlain(word) {
        index &+= 8
        continue
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        break
      }
      if byte == UInt8(ascii: "\\") {
        flags |= JSONDocument.hasEscapes
        index = try scanEscape(at: index)
      } else if byte < 0x20 {
        guard index < end else { throw error(.unexpectedEnd, at: index) }
        throw error(.unescapedControlCharacter(byte), at: index)
      } else if byte >= 0x80 {
        flags |= JSONDocument.isNonASCII
        index = try scanUTF8Sequence(at: index)
      } else {
        index &+= 1
      }
    }
    _ = document.append(
      UInt64(JSONKind.string.rawValue) | flags | UInt64(start) &<< 8, UInt64(index &- start))
    position = index &+ 1
  }

  /// Whether none of the eight bytes of `word` is a quote, a backslash, a control character or
  /// a byte outside ASCII.
  ///
  /// Uses the byte-wise comparisons of Sean Eron Anderson's "Bit Twiddling Hacks".
  @inline(__always)
  private static func isPlain(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let hasQuote = (quote &- ones) & ~quote
    let hasBackslash = (backslash &- ones) & ~backslash
    let hasControl = (word &- ones &* 0x20) & ~word
    return (hasQuote | hasBackslash | hasControl | word) & highs == 0
  }

  /// Checks the escape sequence at `index` (a backslash) and returns the index after it.
  private func scanEscape(at index: Int) throws(JSONSyntaxError) -> Int {
    switch bytes[index &+ 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return index &+ 2
    case UInt8(ascii: "u"):
      guard let unit = hexUnit(at: index &+ 2) else {
        throw error(.invalidUnicodeEscape, at: index)
      }
      switch unit {
      case 0xD800...0xDBFF:
        // A high surrogate must be followed by an escaped low surrogate.
        guard bytes[index &+ 6] == UInt8(ascii: "\\"), bytes[index &+ 7] == UInt8(ascii: "u"),
          let low = hexUnit(at: index &+ 8), (0xDC00...0xDFFF).contains(low)
        else { throw error(.loneSurrogate, at: index) }
        return index &+ 12
      case 0xDC00...0xDFFF:
        throw error(.loneSurrogate, at: index)
      default:
        return index &+ 6
      }
    default:
      if index &+ 1 >= end { throw error(.unexpectedEnd, at: index) }
      throw error(.invalidEscape, at: index)
    }
  }

  /// The value of the four hex digits at `index`, or `nil`.
  private func hexUnit(at index: Int) -> UInt16? {
    var value: UInt16 = 0
    for offset in 0..<4 {
      guard let digit = JSONStrings.hexValue(bytes[index &+ offset]) else { return nil }
      value = value &<< 4 | UInt16(digit)
    }
    return value
  }

  /// Checks the UTF-8 sequence starting at `index` (a byte at or above 0x80) and returns the
  /// index after it: shortest forms only, no surrogates, nothing above U+10FFFF.
  private func scanUTF8Sequence(at index: Int) throws(JSONSyntaxError) -> Int {
    let lead = bytes[index]
    let second = bytes[index &+ 1]
    func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
    switch lead {
    case 0xC2...0xDF:
      if isContinuation(second) { return index &+ 2 }
    case 0xE0...0xEF:
      let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
      let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
      if second >= low, second <= high, isContinuation(bytes[index &+ 2]) { return index &+ 3 }
    case 0xF0...0xF4:
      let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
      let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
      if second >= low, second <= high, isContinuation(bytes[index &+ 2]),
        isContinuation(bytes[index &+ 3])
      {
        return index &+ 4
      }
    default:
      break
    }
    throw error(.invalidUTF8, at: index)
  }

  /// Scans a number and appends its entry.
  private mutating func scanNumber() throws(JSONSyntaxError) {
    let start = position
    var index = start
    var flags = JSONDocument.isPlainInteger
    if bytes[index] == UInt8(ascii: "-") {
      index &+= 1
    }
    // Integer part: 0, or a non-zero digit and any digits.
    if bytes[index] == UInt8(ascii: "0") {
      index &+= 1
    } else if Self.isDigit(bytes[index]) {
      index &+= 1
      while Self.isDigit(bytes[index]) { index &+= 1 }
    } else {
      throw error(.invalidNumber, at: index)
    }
    if bytes[index] == UInt8(ascii: ".") {
      flags = 0
      index &+= 1
      guard Self.isDigit(bytes[index]) else { throw error(.invalidNumber, at: index) }
      while Self.isDigit(bytes[index]) { index &+= 1 }
    }
    if bytes[index] | 0x20 == UInt8(ascii: "e") {
      flags = 0
      index &+= 1
      if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index &+= 1
      }
      guard Self.isDigit(bytes[index]) else { throw error(.invalidNumber, at: index) }
      while Self.isDigit(bytes[index]) { index &+= 1 }
    }
    _ = document.append(
      UInt64(JSONKind.number.rawValue) | flags | UInt64(start) &<< 8, UInt64(index &- start))
    position = index
  }

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  /// Scans a four-letter literal whose bytes, read as a little-endian word, are `word`.
  private mutating func scanLiteral(_ word: UInt32, length: Int, kind: JSONKind)
    throws(JSONSyntaxError)
  {
    let read = UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt32.self)
    guard UInt32(littleEndian: read) == word else {
      throw error(.unexpectedCharacter(bytes[position]))
    }
    _ = document.append(UInt64(kind.rawValue) | UInt64(position) &<< 8, 0)
    position &+= length
  }

  private mutating func scanFalse() throws(JSONSyntaxError) {
    let read = UnsafeRawPointer(bytes + (position &+ 1)).loadUnaligned(as: UInt32.self)
    guard UInt32(littleEndian: read) == 0x6573_6C61 else {  // "alse"
      throw error(.unexpectedCharacter(bytes[position]))
    }
    _ = document.append(UInt64(JSONKind.false.rawValue) | UInt64(position) &<< 8, 0)
    position &+= 5
  }

  // MARK: - Repeated member names

  /// Whether the object at `index` may have two members whose names are equal as Swift strings.
  ///
  /// Plain names are compared by their bytes, through a fingerprint of each (its length and its
  /// first and last eight bytes): equal fingerprints are checked byte by byte. A name with escape
  /// sequences could equal another one with different bytes (`"a"` and `"\u0061"`), and so could
  /// two names outside ASCII (two normalizations of `"é"`), so such objects count as repeating;
  /// lookups in them compare decoded names (see ``JSONDocument/mayRepeatNames``).
  private mutating func mayRepeatNames(in index: Int) -> Bool {
    let endIndex = document.entryCount
    var member = index &+ 1
    var nonASCII = 0
    fingerprints.removeAll(keepingCapacity: true)
    while member < endIndex {
      let flags = document.flags(member)
      if flags & JSONDocument.hasEscapes != 0 { return true }
      if flags & JSONDocument.isNonASCII != 0 {
        nonASCII &+= 1
        if nonASCII > 1 { return true }
      }
      fingerprints.append(
        Fingerprint(
          value: fingerprint(start: document.offset(member), length: document.length(member)),
          entry: member))
      member = document.next(member &+ 1)
    }
    if fingerprints.count <= 16 {
      for later in 1..<fingerprints.count {
        for earlier in 0..<later where fingerprints[earlier].value == fingerprints[later].value {
          if sameName(fingerprints[earlier].entry, fingerprints[later].entry) { return true }
        }
      }
      return false
    }
    fingerprints.sort { $0.value < $1.value }
    for position in 1..<fingerprints.count
    where fingerprints[position].value == fingerprints[position &- 1].value {
      // Runs of equal fingerprints are rare: compare the run's names pairwise.
      var earlier = position &- 1
      while earlier >= 0, fingerprints[earlier].value == fingerprints[position].value {
        if sameName(fingerprints[earlier].entry, fingerprints[position].entry) { return true }
        earlier &-= 1
      }
    }
    return false
  }

  /// A name's length and its first and last eight bytes, mixed.
  @inline(__always)
  private func fingerprint(start: Int, length: Int) -> UInt64 {
    let head = UnsafeRawPointer(bytes + start).loadUnaligned(as: UInt64.self)
    let tail = UnsafeRawPointer(bytes + (start &+ Swift.max(length &- 8, 0))).loadUnaligned(
      as: UInt64.self)
    // Only the name's own bytes count: mask what lies past a short name.
    let mask: UInt64 = length >= 8 ? ~0 : (1 &<< (UInt64(length) &* 8)) &- 1
    var value = (head & mask) &* 0x9E37_79B9_7F4A_7C15
    value ^= (tail & mask) &+ UInt64(length)
    return value &* 0xC2B2_AE3D_27D4_EB4F
  }

  private func sameName(_ lhs: Int, _ rhs: Int) -> Bool {
    let length = document.length(lhs)
    guard length == document.length(rhs) else { return false }
    return length == 0
      || JSONStrings.equal(
        bytes + document.offset(lhs), bytes + document.offset(rhs), count: length)
  }

  // MARK: - Errors

  private func error(_ reason: JSONSyntaxError.Reason, at offset: Int? = nil) -> JSONSyntaxError {
    JSONSyntaxError(reason, offset: offset ?? position, in: bytes, count: end)
  }

  private func unexpected() -> JSONSyntaxError {
    position >= end ? error(.unexpectedEnd) : error(.unexpectedCharacter(bytes[position]))
  }
}
