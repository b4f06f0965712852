/// The bytes of a JSON document being written, formatted as Foundation's `JSONEncoder` formats
/// them: compact, or pretty-printed with two spaces of indentation and `" : "` after names;
/// strings escaped the same way (`\/` unless slashes are left alone, control characters as
/// `\u00XX` in lowercase hex).
struct JSONWriter {
  /// The output so far.
  var bytes: [UInt8] = []
  let prettyPrinted: Bool
  let escapesSlashes: Bool
  /// The nesting depth, for indentation.
  var depth = 0

  init(prettyPrinted: Bool, escapesSlashes: Bool, capacity: Int = 256) {
    self.prettyPrinted = prettyPrinted
    self.escapesSlashes = escapesSlashes
    bytes.reserveCapacity(capacity)
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    bytes.append(byte)
  }

  @inline(__always)
  mutating func append(_ literal: StaticString) {
    literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Starts an object or an array.
  mutating func open(_ bracket: UInt8) {
    bytes.append(bracket)
    depth &+= 1
  }

  /// Ends an object or an array that has `count` members.
  mutating func close(_ bracket: UInt8, count: Int) {
    depth &-= 1
    if prettyPrinted {
      bytes.append(0x0A)
      if count == 0 {
        bytes.append(0x0A)
      }
      indent()
    }
    bytes.append(bracket)
  }

  /// Writes what comes before the next member or element of a container that has `count`
  /// already: a comma, and in pretty-printed output a new line and indentation.
  @inline(__always)
  mutating func separate(count: Int) {
    if count > 0 {
      bytes.append(UInt8(ascii: ","))
    }
    if prettyPrinted {
      bytes.append(0x0A)
      indent()
    }
  }

  /// Writes a member name and the colon after it.
  @inline(__always)
  mutating func name(_ name: String) {
    string(name)
    colon()
  }

  /// Writes the colon after a member name.
  @inline(__always)
  mutating func colon() {
    if prettyPrinted {
      append(" : ")
    } else {
      bytes.append(UInt8(ascii: ":"))
    }
  }

  private mutating func indent() {
    for _ in 0..<depth {
      bytes.append(0x20)
      bytes.append(0x20)
    }
  }

  /// Writes `text` as a JSON string.
  mutating func string(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      // Most strings need no escape: one copy, after a check eight bytes at a time.
      if !Self.needsEscapes(utf8, slashes: escapesSlashes) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: utf8)
        bytes.append(UInt8(ascii: "\""))
        return
      }
      bytes.append(UInt8(ascii: "\""))
      var runStart = 0
      var index = 0
      let count = utf8.count
      while index < count {
        let byte = utf8[index]
        if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"),
          byte != UInt8(ascii: "/") || !escapesSlashes
        {
          index &+= 1
          continue
        }
        if runStart < index {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        }
        escape(byte)
        index &+= 1
        runStart = index
      }
      if runStart < count {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
      }
      bytes.append(UInt8(ascii: "\""))
    }
  }

  /// Whether any byte of `utf8` must be escaped: a quote, a backslash, a control character, or
  /// a slash when slashes are escaped.
  @inline(__always)
  private static func needsEscapes(_ utf8: UnsafeBufferPointer<UInt8>, slashes: Bool) -> Bool {
    guard let base = utf8.baseAddress else { return false }
    let count = utf8.count
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var index = 0
    while index &+ 8 <= count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let slash = word ^ (ones &* 0x2F)
      var found = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
      found |= (word &- ones &* 0x20) & ~word
      if slashes {
        found |= (slash &- ones) & ~slash
      }
      // Bytes outside ASCII are written as they are; they only confuse the tests above.
      if found & highs & ~word != 0 {
        return true
      }
      index &+= 8
    }
    while index < count {
      let byte = base[index]
      if byte < 0x20 || byte == 0x22 || byte == 0x5C || (slashes && byte == 0x2F) {
        return true
      }
      index &+= 1
    }
    return false
  }

  private mutating func escape(_ byte: UInt8) {
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
    case 0x08: bytes.append(UInt8(ascii: "b"))
    case 0x0C: bytes.append(UInt8(ascii: "f"))
    case 0x0A: bytes.append(UInt8(ascii: "n"))
    case 0x0D: bytes.append(UInt8(ascii: "r"))
    case 0x09: bytes.append(UInt8(ascii: "t"))
    default:
      let hex: StaticString = "0123456789abcdef"
      append("u00")
      hex.withUTF8Buffer { digits in
        bytes.append(digits[Int(byte &>> 4)])
        bytes.append(digits[Int(byte & 0x0F)])
      }
    }
  }

  /// Writes an integer.
  @inline(__always)
  mutating func integer<Integer: FixedWidthInteger>(_ value: Integer) {
    JSONNumberWriter.append(integer: value, to: &bytes)
  }

  /// Writes a finite `Double`.
  @inline(__always)
  mutating func double(_ value: Double) {
    JSONNumberWriter.append(value, to: &bytes)
  }

  /// Writes a finite `Float`.
  @inline(__always)
  mutating func float(_ value: Float) {
    JSONNumberWriter.append(value, to: &bytes)
  }

  /// Writes `true` or `false`.
  @inline(__always)
  mutating func bool(_ value: Bool) {
    if value {
      append("true")
    } else {
      append("false")
    }
  }

  /// Writes `null`.
  @inline(__always)
  mutating func null() {
    append("null")
  }
}
