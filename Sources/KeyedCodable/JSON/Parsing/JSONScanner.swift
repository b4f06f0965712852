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
  /// Whether the names of the object ``mayRepeatNames(in:)`` looked at last are all ASCII.
  private var namesAreASCII = true

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
  ///
  /// - Parameter skippingByteOrderMark: Whether a UTF-8 byte-order mark at the start is skipped,
  ///   as Foundation does for a document that was UTF-8. In a document transcoded from UTF-16 or
  ///   UTF-32, whose own mark is gone, U+FEFF at the start is a character, as for Foundation: a
  ///   second mark, which makes the document invalid.
  /// - Throws: ``JSONSyntaxError`` where the document stops being valid JSON.
  mutating func scan(skippingByteOrderMark: Bool = true) throws(JSONSyntaxError) {
    guard end < 1 << 32 else { throw error(.tooLarge) }
    if skippingByteOrderMark, end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
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
    if document.kind(index) == .object, count > 1 {
      // Describing the names may index them, which rewrites the entry's first word.
      let flags = describeNames(of: index)
      word0 = document.tape[index &* 2] | flags
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
          value: JSONNameIndex.fingerprint(
            bytes + document.offset(member), count: document.length(member)),
          entry: member))
      member = document.next(member &+ 1)
    }
    namesAreASCII = nonASCII == 0
    // A 256-bit filter on the fingerprints: only a name whose bit is taken already is compared
    // with the earlier names.
    var filter: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    for position in fingerprints.indices {
      let value = fingerprints[position].value
      let bit: UInt64 = 1 &<< (value & 63)
      let taken: Bool
      switch (value &>> 6) & 3 {
      case 0:
        taken = filter.0 & bit != 0
        filter.0 |= bit
      case 1:
        taken = filter.1 & bit != 0
        filter.1 |= bit
      case 2:
        taken = filter.2 & bit != 0
        filter.2 |= bit
      default:
        taken = filter.3 & bit != 0
        filter.3 |= bit
      }
      guard taken else { continue }
      for earlier in 0..<position where fingerprints[earlier].value == value {
        if sameName(fingerprints[earlier].entry, fingerprints[position].entry) { return true }
      }
    }
    return false
  }

  /// The flags of the object at `index` about its member names, after indexing them when there
  /// are enough of them (see ``JSONNameIndex``).
  private mutating func describeNames(of index: Int) -> UInt64 {
    guard !mayRepeatNames(in: index) else { return JSONDocument.mayRepeatNames }
    let nonASCII = namesAreASCII ? 0 : JSONDocument.hasNonASCIINames
    guard fingerprints.count >= JSONNameIndex.minimumCount else { return nonASCII }
    let offset = JSONNameIndex.build(
      fingerprints.lazy.map { (entry: $0.entry, fingerprint: $0.value) }, into: &document.indexes)
    // The object's byte offset gives way to its index's.
    let word0 = document.tape[index &* 2] & 0xFF | UInt64(offset) &<< 8
    document.set(index, word0, document.tape[index &* 2 &+ 1])
    return nonASCII | JSONDocument.hasIndex
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
