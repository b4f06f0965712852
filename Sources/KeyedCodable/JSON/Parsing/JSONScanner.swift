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
  /// The tape entry of the innermost open container, or `-1`.
  ///
  /// The open containers form a stack inside the tape itself: until a container closes, its
  /// entry holds its commas so far (bits 40–63, counted modulo 2²⁴, so that a carry leaves the
  /// word) and the entry of the container around it plus one (bits 8–39), so scanning
  /// allocates nothing but the tape. Closing it writes its count and end where
  /// ``JSONDocument`` reads them.
  private var current = -1
  /// The number of open containers.
  private var depth = 0

  /// The deepest nesting this scan accepts: ``maximumDepth`` unless the document is part of a
  /// larger one (see ``JSONDocument/init(joining:of:depthLimit:)``).
  private let depthLimit: Int

  init(document: JSONDocument, depthLimit: Int = JSONScanner.maximumDepth) {
    self.depthLimit = depthLimit
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
      guard current >= 0 else { break }
      let container = current
      skipWhitespace()
      let byte = bytes[position]
      let isObject = document.kind(container) == .object
      if byte == UInt8(ascii: ",") {
        position &+= 1
        document.tape[container] &+= 1 &<< 40
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
    guard depth < depthLimit else {
      throw error(.tooDeep(limit: Self.maximumDepth))
    }
    let index = document.append(
      UInt64(kind.rawValue) | UInt64(truncatingIfNeeded: current &+ 1) &<< 8)
    current = index
    depth &+= 1
    position &+= 1
  }

  /// Ends the innermost container: its count is one more than its commas, unless it is empty.
  private mutating func closeContainer() {
    guard current >= 0 else { return }
    let index = current
    let word = document.tape[index]
    current = Int(truncatingIfNeeded: word &>> 8 & 0xFFFF_FFFF) &- 1
    depth &-= 1
    let end = document.entryCount
    var count = end == index &+ 1 ? 0 : Int(truncatingIfNeeded: word &>> 40) &+ 1
    // Fewer entries inside than 2²⁴ - 1: the commas, fewer still, were counted exactly.
    if end &- index > JSONDocument.longLength {
      count = countValues(in: index, end: end)
    }
    if count >= JSONDocument.longLength {
      document.keepLargeCount(count, of: index)
      count = JSONDocument.longLength
    }
    document.set(
      index,
      word & 0xFF | UInt64(truncatingIfNeeded: count) &<< 8 | UInt64(truncatingIfNeeded: end) &<< 32
    )
  }

  /// The number of elements or members of the container at `index`, whose entries end before
  /// `end`, counted one by one (every container inside it is closed).
  @inline(never)
  private func countValues(in index: Int, end: Int) -> Int {
    let isObject = document.kind(index) == .object
    var count = 0
    var entry = index &+ 1
    while entry < end {
      count &+= 1
      entry = document.next(isObject ? entry &+ 1 : entry)
    }
    return count
  }

  /// Scans a member name, the colon after it, and the whitespace before the value.
  ///
  /// A name with escape sequences or bytes outside ASCII marks its object
  /// (``JSONDocument/hasComplexNames``): lookups in it compare decoded names.
  ///
  /// The name's string is scanned here, not by a call: a document has more names than strings.
  private mutating func scanMemberName() throws(JSONSyntaxError) {
    guard bytes[position] == UInt8(ascii: "\"") else { throw unexpected() }
    let nameFlags = try scanStringHere() & 0x30
    if nameFlags != 0, current >= 0 {
      document.tape[current] |= JSONDocument.hasComplexNames
    }
    skipWhitespace()
    guard bytes[position] == UInt8(ascii: ":") else { throw unexpected() }
    position &+= 1
  }

  @inline(__always)
  private mutating func skipWhitespace() {
    // Fast exit: every byte of a value is above the space, and compact documents have no
    // whitespace at all.
    guard bytes[position] <= 0x20 else { return }
    // One space, as after a colon or a comma, is the most common run: no call for it.
    if bytes[position] == 0x20, bytes[position &+ 1] > 0x20 {
      position &+= 1
      return
    }
    skipWhitespaceRun()
  }

  /// Skips whitespace many bytes at a look: pretty-printed documents indent every line.
  ///
  /// A run is mostly a line break and then spaces: the line break is skipped first, then the
  /// spaces that start the next ``JSONByteRuns/width`` bytes are counted at once. Only when the
  /// first byte after them is another whitespace character or a control character (a tab, a
  /// blank line) does a word of eight bytes take the exact test of every byte. Every iteration
  /// moves past at least one byte or returns.
  private mutating func skipWhitespaceRun() {
    // A line break, then the next line's indentation.
    if bytes[position] == 0x0A {
      position &+= 1
    }
    while true {
      let leadingSpaces = JSONByteRuns.leadingSpaces(bytes + position)
      if leadingSpaces == JSONByteRuns.width {
        position &+= leadingSpaces
        continue
      }
      if bytes[position &+ leadingSpaces] > 0x20 {
        position &+= leadingSpaces
        return
      }
      let word = UInt64(
        littleEndian: UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self))
      let other = Self.nonWhitespaceBytes(word)
      if other == 0 {
        position &+= 8
        continue
      }
      position &+= other.trailingZeroBitCount &>> 3
      return
    }
  }

  /// The high bit of each of the eight bytes of `word` (read little-endian) that is not one of
  /// the four whitespace characters; exact for every byte (no borrow between bytes).
  @inline(__always)
  private static func nonWhitespaceBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    @inline(__always) func nonZero(_ value: UInt64) -> UInt64 {
      (((value & lows) &+ lows) | value) & ~lows
    }
    return nonZero(word ^ (ones &* 0x20)) & nonZero(word ^ (ones &* 0x0A))
      & nonZero(word ^ (ones &* 0x0D)) & nonZero(word ^ (ones &* 0x09))
  }

  // MARK: - Scalars

  /// Scans a string, from its opening quote, and appends its entry.
  ///
  /// Most strings are plain ASCII: they take the look for their closing quote alone, and no call.
  private mutating func scanString() throws(JSONSyntaxError) {
    try scanStringHere()
  }

  /// ``scanString()``, inlined where it is used.
  ///
  /// - Returns: The string's flags (escapes, bytes outside ASCII).
  @inline(__always) @discardableResult
  private mutating func scanStringHere() throws(JSONSyntaxError) -> UInt64 {
    let start = position &+ 1
    var close = plainRunEnd(from: start)
    var flags: UInt64 = 0
    if bytes[close] != UInt8(ascii: "\"") {
      (close, flags) = try scanStringRest(from: close)
    }
    document.appendScalar(
      UInt64(JSONKind.string.rawValue) | flags, offset: start, length: close &- start)
    position = close &+ 1
    return flags
  }

  /// The index of the first byte at or after `index` that ends a plain run inside a string (a
  /// quote, a backslash, a control character or a byte outside ASCII), many bytes at a look
  /// (see ``JSONByteRuns/stringRunLength(_:available:)``).
  @inline(__always)
  private func plainRunEnd(from index: Int) -> Int {
    index &+ JSONByteRuns.stringRunLength(bytes + index, available: end &- index)
  }

  /// Scans the rest of a string from `index`, its first byte other than the closing quote that
  /// ends a plain run, and returns the index of its closing quote and the string's flags.
  ///
  /// Out of line, so that the plain strings' path saves few registers.
  @inline(never)
  private mutating func scanStringRest(from index: Int) throws(JSONSyntaxError) -> (Int, UInt64) {
    var index = index
    var flags: UInt64 = 0
    while true {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        return (index, flags)
      }
      if byte == UInt8(ascii: "\\") {
        flags |= JSONDocument.hasEscapes
        index = try scanEscape(at: index)
      } else if byte < 0x20 {
        guard index < end else { throw error(.unexpectedEnd, at: index) }
        throw error(.unescapedControlCharacter(byte), at: index)
      } else if byte >= 0x80 {
        flags |= JSONDocument.isNonASCII
        // Text outside ASCII comes in runs: check the sequences of a run one after the other.
        repeat {
          index = try scanUTF8Sequence(at: index)
        } while bytes[index] >= 0x80
      } else {
        index &+= 1
      }
      index = plainRunEnd(from: index)
    }
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
  ///
  /// The sequences of two and three bytes, which most text outside ASCII is made of, are checked
  /// in one word first: a lead byte and continuation bytes by their high bits, then the two
  /// exceptions of three bytes (an overlong form after E0, a surrogate after ED) by the lead
  /// and the top bits of the second byte. Anything else takes the exact test of each byte.
  @inline(__always)
  private func scanUTF8Sequence(at index: Int) throws(JSONSyntaxError) -> Int {
    // Four bytes at most: the document's padding makes them readable.
    let word = UInt32(
      littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt32.self))
    if word & 0x00C0_C0F0 == 0x0080_80E0 {
      // E0 80–9F is overlong; ED A0–BF is a surrogate.
      let leadAndTop = word & 0xE0FF
      if leadAndTop != 0x80E0, leadAndTop != 0xA0ED { return index &+ 3 }
    } else if word & 0xC0E0 == 0x80C0, word & 0xFF >= 0xC2 {
      return index &+ 2
    }
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
      index = digitsEnd(from: index &+ 1)
    } else {
      throw error(.invalidNumber, at: index)
    }
    if bytes[index] == UInt8(ascii: ".") {
      flags = 0
      index &+= 1
      guard Self.isDigit(bytes[index]) else { throw error(.invalidNumber, at: index) }
      index = digitsEnd(from: index &+ 1)
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
    document.appendScalar(
      UInt64(JSONKind.number.rawValue) | flags, offset: start, length: index &- start)
    position = index
  }

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  /// The index of the first byte at or after `start` that is not a digit.
  ///
  /// The byte at `start` alone (a number of one or two digits ends there), then eight bytes at
  /// a time: ids and coordinates have more than a few digits.
  @inline(__always)
  private func digitsEnd(from start: Int) -> Int {
    guard Self.isDigit(bytes[start]) else { return start }
    var index = start &+ 1
    while true {
      let word = UInt64(
        littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
      let other = Self.nonDigitBytes(word)
      if other == 0 {
        index &+= 8
        continue
      }
      return index &+ other.trailingZeroBitCount &>> 3
    }
  }

  /// The high bit of each of the eight bytes of `word` (read little-endian) that may not be a
  /// digit; `0` when all are digits.
  ///
  /// A digit has 3 for its high nibble, and adding 6 to it keeps that nibble. The lowest
  /// marked byte is always the first that is not a digit: only a byte of 0xFA and above, which
  /// is marked, carries into the byte above it.
  @inline(__always)
  private static func nonDigitBytes(_ word: UInt64) -> UInt64 {
    let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    let threes: UInt64 = 0x3030_3030_3030_3030
    let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let other =
      ((word & highNibbles) ^ threes)
      | (((word &+ 0x0606_0606_0606_0606) & highNibbles) ^ threes)
    return (((other & lows) &+ lows) | other) & ~lows
  }

  /// Scans a four-letter literal whose bytes, read as a little-endian word, are `word`.
  private mutating func scanLiteral(_ word: UInt32, length: Int, kind: JSONKind)
    throws(JSONSyntaxError)
  {
    let read = UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt32.self)
    guard UInt32(littleEndian: read) == word else {
      throw error(.unexpectedCharacter(bytes[position]))
    }
    _ = document.append(UInt64(kind.rawValue) | UInt64(truncatingIfNeeded: position) &<< 32)
    position &+= length
  }

  private mutating func scanFalse() throws(JSONSyntaxError) {
    let read = UnsafeRawPointer(bytes + (position &+ 1)).loadUnaligned(as: UInt32.self)
    guard UInt32(littleEndian: read) == 0x6573_6C61 else {  // "alse"
      throw error(.unexpectedCharacter(bytes[position]))
    }
    _ = document.append(
      UInt64(JSONKind.false.rawValue) | UInt64(truncatingIfNeeded: position) &<< 32)
    position &+= 5
  }

  // MARK: - Errors

  private func error(_ reason: JSONSyntaxError.Reason, at offset: Int? = nil) -> JSONSyntaxError {
    JSONSyntaxError(reason, offset: offset ?? position, in: bytes, count: end)
  }

  private func unexpected() -> JSONSyntaxError {
    position >= end ? error(.unexpectedEnd) : error(.unexpectedCharacter(bytes[position]))
  }
}
