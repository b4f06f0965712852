/// Validates a JSON document that arrives in pieces, finds the array at a key path in it, and
/// cuts that array's elements out of the bytes as they go by.
///
/// Everything outside the elements (the envelope: the objects on the key path, the members
/// beside them, whole skipped members however large) is checked against RFC 8259 byte by byte,
/// as ``JSONScanner`` checks a whole document: strings (UTF-8, escapes, surrogate pairs),
/// numbers, literals, structure, and at most ``JSONScanner/maximumDepth`` levels. An element is
/// only delimited here (strings and brackets are followed, nothing more), and then validated
/// when it is parsed as part of a batch (see ``JSONStreamEngine``): a piece that is not exactly
/// one valid value fails that parse. The state is a few words and a 64-byte stack, so the
/// memory used doesn't depend on the document; it resumes at any byte.
struct JSONStreamScanner {
  /// Where the scanner is in the grammar.
  enum State: UInt8 {
    /// A value must come next.
    case value
    /// After `[`: a value or `]`.
    case arrayFirst
    /// After `{`: a member name or `}`.
    case objectFirst
    /// After `,` in an object: a member name.
    case memberName
    /// After a member name: `:`.
    case colon
    /// After a value: `,`, a closing bracket, or (at the top level) the end.
    case afterValue
    /// Inside a string (``isName`` tells a member name).
    case string
    /// After a backslash in a string.
    case escape
    /// Inside the four hex digits of a `\u` escape.
    case unicodeEscape
    /// After a high surrogate's escape: its low surrogate's backslash must follow.
    case lowSurrogateBackslash
    /// After that backslash: `u` must follow.
    case lowSurrogateU
    /// Inside a multi-byte UTF-8 sequence in a string.
    case utf8
    /// After a number's minus sign: a digit.
    case numberMinus
    /// After a leading zero.
    case numberZero
    /// Inside the integer digits.
    case numberInteger
    /// After the decimal point: a digit.
    case numberPoint
    /// Inside the fraction digits.
    case numberFraction
    /// After `e`: a sign or a digit.
    case numberExponentStart
    /// After the exponent's sign: a digit.
    case numberExponentSign
    /// Inside the exponent digits.
    case numberExponent
    /// Inside `true`, `false` or `null`.
    case literal
    /// Inside an element of the streamed array (delimited only).
    case element
    /// After the top-level value and the whitespace after it, at the end of the input.
    case end
  }

  /// Why the scan stopped short of the document's end.
  enum Failure: Error {
    /// The bytes are not valid JSON at `offset`.
    case syntax(JSONSyntaxError.Reason, offset: Int)
    /// The value at the first `level` keys of the key path is not of the kind the path needs
    /// (an object on the way, the array at its end).
    case typeMismatch(level: Int, expectsArray: Bool, found: String)
    /// The value at the first `level` keys of the key path is `null`.
    case valueNotFound(level: Int, expectsArray: Bool)
    /// The object at the first `level` keys of the key path has no member for the next key.
    case keyNotFound(level: Int)
  }

  /// Whether the scan needs more input, or reached the end of the document.
  enum Stop {
    case needsInput
    case end
  }

  /// The key path's segments, as UTF-8; empty for the top-level array.
  private let keys: [[UInt8]]
  /// Whether an ASCII member name without escapes is compared with a key byte for byte.
  private let comparesBytes: Bool
  /// Compares a decoded member name with key `level` of the path, after the key conversion.
  private let matchName: (_ name: String, _ level: Int) -> Bool
  /// The longest member name recorded for a comparison: a longer name matches no key.
  private let nameLimit: Int

  private(set) var state = State.value
  /// The number of open arrays and objects.
  private(set) var depth = 0
  /// One bit per open container, set for an object.
  private var kinds = (
    UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
    UInt64(0), UInt64(0)
  )
  /// The number of open containers that are on the key path (the root, the objects of its keys,
  /// the streamed array).
  private var matched = 0
  /// Whether the value the scanner expects is the next one on the key path.
  private var valueOnPath = true
  /// Whether the streamed array was found and closed.
  private(set) var found = false
  /// Whether the string being scanned is a member name.
  private var isName = false
  /// Whether the member name being scanned is recorded for a comparison with the key path.
  private var recordsName = false
  /// The recorded member name's bytes (raw, escapes included).
  private var name: [UInt8] = []
  /// Whether the recorded member name has escapes.
  private var nameHasEscapes = false
  /// Hex digits left in a `\u` escape, and the code unit so far.
  private var hexDigitsLeft = 0
  private var codeUnit: UInt32 = 0
  /// Whether the `\u` escape being read must be a low surrogate.
  private var needsLowSurrogate = false
  /// Continuation bytes left in a UTF-8 sequence, and the range of the next one.
  private var continuationLeft = 0
  private var continuationLow: UInt8 = 0x80
  private var continuationHigh: UInt8 = 0xBF
  /// The literal being read (`true`, `false`, `null`) and the bytes of it read so far.
  private var literal: StaticString = "null"
  private var literalIndex = 0
  /// The element being cut out: where it starts, its open brackets, and its string state.
  private(set) var elementStart = -1
  private var elementDepth = 0
  private var elementInString = false
  private var elementEscape = false
  /// The number of elements of the streamed array cut out so far.
  private(set) var elementCount = 0

  /// - Parameters:
  ///   - keys: The key path's segments; none for a top-level array.
  ///   - comparesBytes: Whether an ASCII name without escapes is compared byte for byte.
  ///   - matchName: Compares a member name (with its escapes resolved) with key `level` of the
  ///     path, after the decoder's key conversion; called for names with escapes or outside
  ///     ASCII, or for every name when `comparesBytes` is `false`.
  init(
    keys: [String], comparesBytes: Bool,
    matchName: @escaping (_ name: String, _ level: Int) -> Bool
  ) {
    self.keys = keys.map { Array($0.utf8) }
    self.comparesBytes = comparesBytes
    self.matchName = matchName
    nameLimit = Swift.max(4096, 8 * (self.keys.map(\.count).max() ?? 0))
  }

  /// Whether the scan is inside the streamed array.
  var isInsideArray: Bool {
    !found && matched == keys.count &+ 1
  }

  /// Moves the offsets the scanner holds after the bytes before them were let go of.
  mutating func shift(by distance: Int) {
    if elementStart >= 0 {
      elementStart &-= distance
    }
  }

  /// Scans `bytes[position..<end]`, appending the start and end of each element it completes to
  /// `elements`.
  ///
  /// - Parameters:
  ///   - bytes: The buffer.
  ///   - position: Where to go on from; on return, where the scan stopped.
  ///   - end: The end of the bytes available.
  ///   - isFinal: Whether no bytes follow `end`.
  ///   - elements: Receives the start and end offsets of each element completed.
  /// - Returns: `.needsInput` when all bytes were used and the document goes on, `.end` at its
  ///   end.
  /// - Throws: ``Failure``.
  mutating func scan(
    _ bytes: UnsafePointer<UInt8>, position: inout Int, end: Int, isFinal: Bool,
    elements: inout [Int]
  ) throws(Failure) -> Stop {
    var i = position
    defer { position = i }
    while i < end {
      let byte = bytes[i]
      switch state {
      case .element:
        if elementInString {
          if elementEscape {
            elementEscape = false
            i &+= 1
            continue
          }
          while i < end, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
            i &+= 1
          }
          guard i < end else { break }
          i &+= 1
          if bytes[i &- 1] == UInt8(ascii: "\\") {
            elementEscape = true
          } else {
            elementInString = false
            if elementDepth == 0 {
              finishElement(at: i, into: &elements)
            }
          }
          continue
        }
        switch byte {
        case UInt8(ascii: "\""):
          elementInString = true
          i &+= 1
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          elementDepth &+= 1
          // Refused here rather than once the element is whole: an element that only opens
          // brackets would otherwise be held until the input ends.
          guard elementDepth &+ keys.count &+ 1 <= JSONScanner.maximumDepth else {
            throw .syntax(.tooDeep(limit: JSONScanner.maximumDepth), offset: i)
          }
          i &+= 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
          if elementDepth == 0 {
            finishElement(at: i, into: &elements)
          } else {
            elementDepth &-= 1
            i &+= 1
            if elementDepth == 0 {
              finishElement(at: i, into: &elements)
            }
          }
        case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
          if elementDepth == 0 {
            finishElement(at: i, into: &elements)
          } else {
            i &+= 1
          }
        default:
          i &+= 1
        }

      case .string:
        if byte == UInt8(ascii: "\"") {
          i &+= 1
          endString()
        } else if byte == UInt8(ascii: "\\") {
          record(byte)
          nameHasEscapes = true
          state = .escape
          i &+= 1
        } else if byte < 0x20 {
          throw .syntax(.unescapedControlCharacter(byte), offset: i)
        } else if byte < 0x80 {
          record(byte)
          i &+= 1
        } else {
          try startUTF8(byte, at: i)
          record(byte)
          i &+= 1
        }

      case .utf8:
        guard byte >= continuationLow, byte <= continuationHigh else {
          throw .syntax(.invalidUTF8, offset: i)
        }
        record(byte)
        continuationLow = 0x80
        continuationHigh = 0xBF
        continuationLeft &-= 1
        if continuationLeft == 0 {
          state = .string
        }
        i &+= 1

      case .escape:
        record(byte)
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          guard !needsLowSurrogate else { throw .syntax(.loneSurrogate, offset: i) }
          state = .string
        case UInt8(ascii: "u"):
          hexDigitsLeft = 4
          codeUnit = 0
          state = .unicodeEscape
        default:
          throw .syntax(.invalidEscape, offset: i)
        }
        i &+= 1

      case .unicodeEscape:
        guard let digit = JSONStrings.hexValue(byte) else {
          throw .syntax(.invalidUnicodeEscape, offset: i)
        }
        record(byte)
        codeUnit = codeUnit << 4 | UInt32(digit)
        hexDigitsLeft &-= 1
        i &+= 1
        if hexDigitsLeft == 0 {
          let isHigh = codeUnit >= 0xD800 && codeUnit < 0xDC00
          let isLow = codeUnit >= 0xDC00 && codeUnit < 0xE000
          if needsLowSurrogate {
            guard isLow else { throw .syntax(.loneSurrogate, offset: i &- 6) }
            needsLowSurrogate = false
            state = .string
          } else if isHigh {
            needsLowSurrogate = true
            state = .lowSurrogateBackslash
          } else if isLow {
            throw .syntax(.loneSurrogate, offset: i &- 6)
          } else {
            state = .string
          }
        }

      case .lowSurrogateBackslash:
        guard byte == UInt8(ascii: "\\") else { throw .syntax(.loneSurrogate, offset: i) }
        record(byte)
        state = .lowSurrogateU
        i &+= 1

      case .lowSurrogateU:
        guard byte == UInt8(ascii: "u") else { throw .syntax(.loneSurrogate, offset: i) }
        record(byte)
        hexDigitsLeft = 4
        codeUnit = 0
        state = .unicodeEscape
        i &+= 1

      case .numberMinus:
        if byte == UInt8(ascii: "0") {
          state = .numberZero
        } else if byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") {
          state = .numberInteger
        } else {
          throw .syntax(.invalidNumber, offset: i)
        }
        i &+= 1

      case .numberZero, .numberInteger, .numberFraction, .numberExponent:
        if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
          guard state != .numberZero else { throw .syntax(.invalidNumber, offset: i) }
          i &+= 1
        } else if byte == UInt8(ascii: "."), state == .numberZero || state == .numberInteger {
          state = .numberPoint
          i &+= 1
        } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E"),
          state != .numberExponent
        {
          state = .numberExponentStart
          i &+= 1
        } else {
          // The number ended before this byte.
          state = .afterValue
        }

      case .numberPoint:
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
          throw .syntax(.invalidNumber, offset: i)
        }
        state = .numberFraction
        i &+= 1

      case .numberExponentStart:
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
          state = .numberExponentSign
        } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
          state = .numberExponent
        } else {
          throw .syntax(.invalidNumber, offset: i)
        }
        i &+= 1

      case .numberExponentSign:
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
          throw .syntax(.invalidNumber, offset: i)
        }
        state = .numberExponent
        i &+= 1

      case .literal:
        let expected = literal.withUTF8Buffer { $0[literalIndex] }
        guard byte == expected else { throw .syntax(.unexpectedCharacter(byte), offset: i) }
        literalIndex &+= 1
        i &+= 1
        if literalIndex == literal.utf8CodeUnitCount {
          state = .afterValue
        }

      case .value, .arrayFirst:
        if Self.isWhitespace(byte) {
          i &+= 1
        } else if byte == UInt8(ascii: "]"), state == .arrayFirst {
          i &+= 1
          try close(isObject: false, at: i &- 1)
        } else {
          try startValue(byte, at: &i)
        }

      case .objectFirst, .memberName:
        if Self.isWhitespace(byte) {
          i &+= 1
        } else if byte == UInt8(ascii: "\"") {
          isName = true
          recordsName = !found && matched == depth && depth <= keys.count
          if recordsName {
            name.removeAll(keepingCapacity: true)
            nameHasEscapes = false
          }
          state = .string
          i &+= 1
        } else if byte == UInt8(ascii: "}"), state == .objectFirst {
          i &+= 1
          try close(isObject: true, at: i &- 1)
        } else {
          throw .syntax(.unexpectedCharacter(byte), offset: i)
        }

      case .colon:
        if Self.isWhitespace(byte) {
          i &+= 1
        } else if byte == UInt8(ascii: ":") {
          state = .value
          i &+= 1
        } else {
          throw .syntax(.unexpectedCharacter(byte), offset: i)
        }

      case .afterValue:
        if Self.isWhitespace(byte) {
          i &+= 1
        } else if depth == 0 {
          throw .syntax(.trailingContent, offset: i)
        } else if byte == UInt8(ascii: ",") {
          state = isObject(depth) ? .memberName : .value
          valueOnPath = false
          i &+= 1
        } else if byte == UInt8(ascii: "]"), !isObject(depth) {
          i &+= 1
          try close(isObject: false, at: i &- 1)
        } else if byte == UInt8(ascii: "}"), isObject(depth) {
          i &+= 1
          try close(isObject: true, at: i &- 1)
        } else {
          throw .syntax(.unexpectedCharacter(byte), offset: i)
        }

      case .end:
        throw .syntax(.trailingContent, offset: i)
      }
    }
    guard isFinal else { return .needsInput }
    switch state {
    case .afterValue where depth == 0:
      state = .end
      return .end
    case .end:
      return .end
    case .value where depth == 0:
      throw .syntax(.emptyDocument, offset: i)
    default:
      throw .syntax(.unexpectedEnd, offset: i)
    }
  }

  // MARK: - Values

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// Starts the value whose first byte is at `i`.
  private mutating func startValue(_ byte: UInt8, at i: inout Int) throws(Failure) {
    if matched == keys.count &+ 1, depth == matched, !found {
      // An element of the streamed array: cut out, not validated here.
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"),
        UInt8(ascii: "n"):
        state = .element
        elementStart = i
        elementDepth = 0
        elementInString = false
        elementEscape = false
        return
      default:
        throw .syntax(.unexpectedCharacter(byte), offset: i)
      }
    }
    let onPath = valueOnPath && !found && matched == depth && depth <= keys.count
    valueOnPath = false
    if onPath {
      let expectsArray = depth == keys.count
      switch byte {
      case UInt8(ascii: "["):
        guard expectsArray else {
          throw .typeMismatch(level: depth, expectsArray: false, found: "an array")
        }
        matched &+= 1
      case UInt8(ascii: "{"):
        guard !expectsArray else {
          throw .typeMismatch(level: depth, expectsArray: true, found: "a dictionary")
        }
        matched &+= 1
      case UInt8(ascii: "n"):
        throw .valueNotFound(level: depth, expectsArray: expectsArray)
      case UInt8(ascii: "\""):
        throw .typeMismatch(level: depth, expectsArray: expectsArray, found: "a string")
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        throw .typeMismatch(level: depth, expectsArray: expectsArray, found: "a number")
      case UInt8(ascii: "t"), UInt8(ascii: "f"):
        throw .typeMismatch(level: depth, expectsArray: expectsArray, found: "bool")
      default:
        throw .syntax(.unexpectedCharacter(byte), offset: i)
      }
    }
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      guard depth < JSONScanner.maximumDepth else {
        throw .syntax(.tooDeep(limit: JSONScanner.maximumDepth), offset: i)
      }
      depth &+= 1
      setKind(isObject: byte == UInt8(ascii: "{"))
      state = byte == UInt8(ascii: "{") ? .objectFirst : .arrayFirst
    // The first value of an array on the path (the streamed array) is handled above.
    case UInt8(ascii: "\""):
      isName = false
      state = .string
    case UInt8(ascii: "-"):
      state = .numberMinus
    case UInt8(ascii: "0"):
      state = .numberZero
    case UInt8(ascii: "1")...UInt8(ascii: "9"):
      state = .numberInteger
    case UInt8(ascii: "t"):
      literal = "true"
      literalIndex = 1
      state = .literal
    case UInt8(ascii: "f"):
      literal = "false"
      literalIndex = 1
      state = .literal
    case UInt8(ascii: "n"):
      literal = "null"
      literalIndex = 1
      state = .literal
    default:
      throw .syntax(.unexpectedCharacter(byte), offset: i)
    }
    i &+= 1
  }

  /// Closes the innermost container, whose closing bracket is at `offset`.
  private mutating func close(isObject: Bool, at offset: Int) throws(Failure) {
    if depth <= matched {
      // A container on the key path.
      if depth == keys.count &+ 1 {
        found = true
      } else if !found {
        throw .keyNotFound(level: depth)
      }
      matched = depth &- 1
    }
    depth &-= 1
    state = .afterValue
  }

  private mutating func finishElement(at end: Int, into elements: inout [Int]) {
    elements.append(elementStart)
    elements.append(end)
    elementStart = -1
    elementCount &+= 1
    state = .afterValue
  }

  // MARK: - Strings

  private mutating func record(_ byte: UInt8) {
    if recordsName, isName {
      if name.count < nameLimit {
        name.append(byte)
      } else {
        recordsName = false
      }
    }
  }

  private mutating func startUTF8(_ byte: UInt8, at offset: Int) throws(Failure) {
    switch byte {
    case 0xC2...0xDF:
      continuationLeft = 1
    case 0xE0:
      continuationLeft = 2
      continuationLow = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF:
      continuationLeft = 2
    case 0xED:
      continuationLeft = 2
      continuationHigh = 0x9F
    case 0xF0:
      continuationLeft = 3
      continuationLow = 0x90
    case 0xF1...0xF3:
      continuationLeft = 3
    case 0xF4:
      continuationLeft = 3
      continuationHigh = 0x8F
    default:
      throw .syntax(.invalidUTF8, offset: offset)
    }
    state = .utf8
  }

  private mutating func endString() {
    guard isName else {
      state = .afterValue
      return
    }
    state = .colon
    guard recordsName else { return }
    recordsName = false
    valueOnPath = nameMatches(level: depth &- 1)
  }

  /// Whether the recorded name is key `level` of the path.
  private func nameMatches(level: Int) -> Bool {
    guard level >= 0, level < keys.count else { return false }
    if comparesBytes, !nameHasEscapes, name.allSatisfy({ $0 < 0x80 }) {
      return name == keys[level]
    }
    let text =
      nameHasEscapes
      ? name.withUnsafeBufferPointer { JSONStrings.unescaped($0) }
      : String(decoding: name, as: UTF8.self)
    return matchName(text, level)
  }

  // MARK: - The container stack

  private func isObject(_ level: Int) -> Bool {
    let bit = level &- 1
    return withUnsafeBytes(of: kinds) { raw in
      (raw.load(fromByteOffset: (bit >> 6) &* 8, as: UInt64.self) >> UInt64(bit & 63)) & 1 == 1
    }
  }

  private mutating func setKind(isObject: Bool) {
    let bit = depth &- 1
    withUnsafeMutableBytes(of: &kinds) { raw in
      let offset = (bit >> 6) &* 8
      var word = raw.load(fromByteOffset: offset, as: UInt64.self)
      let mask = UInt64(1) << UInt64(bit & 63)
      word = isObject ? word | mask : word & ~mask
      raw.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
    }
  }
}
