import Foundation

/// The bytes of a JSON document being written, formatted as Foundation's `JSONEncoder` formats
/// them: compact, or pretty-printed with two spaces of indentation and `" : "` after names;
/// strings escaped the same way (`\/` unless slashes are left alone, control characters as
/// `\u00XX` in lowercase hex).
///
/// One writer belongs to one ``JSONStreamEncoder`` (or makes one key's JSON form), used by one
/// thread at a time.
final class JSONWriter: JSONByteSink {
  let prettyPrinted: Bool
  let escapesSlashes: Bool
  /// The nesting depth, for indentation.
  var depth = 0

  init(prettyPrinted: Bool, escapesSlashes: Bool, capacity: Int = 256) {
    self.prettyPrinted = prettyPrinted
    self.escapesSlashes = escapesSlashes
    self.capacity = Swift.max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  @inline(__always)
  func append(_ literal: StaticString) {
    literal.withUTF8Buffer { append(contentsOf: $0) }
  }

  /// Starts an object or an array.
  func open(_ bracket: UInt8) {
    append(bracket)
    depth &+= 1
  }

  /// Ends an object or an array that has `count` members.
  func close(_ bracket: UInt8, count: Int) {
    depth &-= 1
    if prettyPrinted {
      append(0x0A)
      if count == 0 {
        append(0x0A)
      }
      indent()
    }
    append(bracket)
  }

  /// Writes what comes before the next member or element of a container that has `count`
  /// already: a comma, and in pretty-printed output a new line and indentation.
  @inline(__always)
  func separate(count: Int) {
    if count > 0 {
      append(UInt8(ascii: ","))
    }
    if prettyPrinted {
      append(0x0A)
      indent()
    }
  }

  /// Writes a member name and the colon after it.
  @inline(__always)
  func name(_ name: String) {
    string(name)
    colon()
  }

  /// Writes the colon after a member name.
  @inline(__always)
  func colon() {
    if prettyPrinted {
      append(" : ")
    } else {
      append(UInt8(ascii: ":"))
    }
  }

  private func indent() {
    for _ in 0..<depth {
      append(0x20)
      append(0x20)
    }
  }

  /// Writes `text` as a JSON string.
  func string(_ text: String) {
    // Borrowed where the string is contiguous (native strings): no copy of its reference.
    if text.utf8.withContiguousStorageIfAvailable({ string($0) }) == nil {
      var text = text
      text.withUTF8 { string($0) }
    }
  }

  /// Writes the UTF-8 text `utf8` as a JSON string.
  ///
  /// The bytes to escape are found eight at a time (see ``escapedByte(in:from:slashes:)``), and
  /// the runs between them are copied whole.
  func string(_ utf8: UnsafeBufferPointer<UInt8>) {
    let count = utf8.count
    var index = Self.escapedByte(in: utf8, from: 0, slashes: escapesSlashes)
    // Most strings need no escape: one copy.
    if index == count {
      append(upTo: count &+ 2) { start in
        start[0] = UInt8(ascii: "\"")
        if let source = utf8.baseAddress {
          (start + 1).initialize(from: source, count: count)
        }
        start[count &+ 1] = UInt8(ascii: "\"")
        return count &+ 2
      }
      return
    }
    append(UInt8(ascii: "\""))
    var runStart = 0
    while index < count {
      if runStart < index {
        append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      }
      escape(utf8[index])
      runStart = index &+ 1
      index = Self.escapedByte(in: utf8, from: runStart, slashes: escapesSlashes)
    }
    if runStart < count {
      append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
    }
    append(UInt8(ascii: "\""))
  }

  /// The index of the first byte of `utf8` at or after `start` that must be escaped (a quote, a
  /// backslash, a control character, or a slash when slashes are escaped), or `utf8.count`.
  ///
  /// Sixteen or eight bytes at a look (see ``JSONByteRuns/escapeStop(_:slashes:)``), then eight
  /// when eight or more are left; the last bytes, fewer than eight, in one word too, so that the
  /// short strings most names and values are take no loop over bytes: shifted out of the last
  /// eight bytes of the string when it has eight, else read in two overlapping halves; either way
  /// the word's other bytes are a letter, which is never escaped.
  @inline(__always)
  private static func escapedByte(
    in utf8: UnsafeBufferPointer<UInt8>, from start: Int, slashes: Bool
  ) -> Int {
    let count = utf8.count
    guard let base = UnsafeRawPointer(utf8.baseAddress) else { return count }
    var index = start
    while index &+ JSONByteRuns.width <= count {
      let stop = JSONByteRuns.escapeStop(base + index, slashes: slashes)
      if stop < JSONByteRuns.width {
        return index &+ stop
      }
      index &+= JSONByteRuns.width
    }
    if JSONByteRuns.width > 8, index &+ 8 <= count {
      // Sixteen bytes at a look: eight to fifteen are left.
      let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let found = JSONByteRuns.escapeStops(in: word, slashes: slashes)
      if found != 0 {
        return index &+ found.trailingZeroBitCount &>> 3
      }
      index &+= 8
    }
    let rest = count &- index
    guard rest > 0 else { return count }
    let letters: UInt64 = 0x4141_4141_4141_4141
    // Byte `i` of the rest in byte `i` of the word, or (halves) in byte `i` or `4 + i - half`.
    var word: UInt64
    var half = 8
    if count >= 8 {
      let last = UInt64(
        littleEndian: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
      word = last &>> UInt64((8 &- rest) &* 8) | letters &<< UInt64(rest &* 8)
    } else if rest >= 4 {
      half = 4
      word =
        UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt32.self)))
        | UInt64(
          UInt32(littleEndian: base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
        &<< 32
    } else if rest >= 2 {
      half = 2
      word =
        UInt64(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt16.self)))
        | UInt64(
          UInt16(littleEndian: base.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)))
        &<< 32 | 0x4141_0000_4141_0000
    } else {
      word = UInt64(base.load(fromByteOffset: index, as: UInt8.self)) | letters &<< 8
    }
    let found = JSONByteRuns.escapeStops(in: word, slashes: slashes)
    guard found != 0 else { return count }
    let position = found.trailingZeroBitCount &>> 3
    // With halves, a mark in the high four bytes is in the last half: the bytes it shares with
    // the first half are unmarked when the first half is.
    return position < 4 || half == 8 ? index &+ position : count &- half &+ (position &- 4)
  }

  private func escape(_ byte: UInt8) {
    let second: UInt8
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): second = byte
    case 0x08: second = UInt8(ascii: "b")
    case 0x0C: second = UInt8(ascii: "f")
    case 0x0A: second = UInt8(ascii: "n")
    case 0x0D: second = UInt8(ascii: "r")
    case 0x09: second = UInt8(ascii: "t")
    default:
      let hex: StaticString = "0123456789abcdef"
      append("\\u00")
      hex.withUTF8Buffer { digits in
        append(digits[Int(byte &>> 4)])
        append(digits[Int(byte & 0x0F)])
      }
      return
    }
    // A backslash and one character, with one check of the room left.
    append(upTo: 2) { start in
      start[0] = UInt8(ascii: "\\")
      start[1] = second
      return 2
    }
  }

  /// Writes an integer.
  @inline(__always)
  func integer<Integer: FixedWidthInteger>(_ value: Integer) {
    var sink = self
    JSONNumberWriter.append(integer: value, to: &sink)
  }

  /// Writes a finite `Double`.
  @inline(__always)
  func double(_ value: Double) {
    var sink = self
    JSONNumberWriter.append(value, to: &sink)
  }

  /// Writes a finite `Float`.
  @inline(__always)
  func float(_ value: Float) {
    var sink = self
    JSONNumberWriter.append(value, to: &sink)
  }

  /// Writes `true` or `false`.
  @inline(__always)
  func bool(_ value: Bool) {
    if value {
      append("true")
    } else {
      append("false")
    }
  }

  /// Writes `null`.
  @inline(__always)
  func null() {
    append("null")
  }

  // MARK: - The buffer
  //
  // Plain memory rather than an array: an append costs a capacity check and a copy, with no
  // copy-on-write check, and the finished document is handed to `Data` without copying it
  // (``takeData()``).

  /// The start of the buffer.
  private(set) var base: UnsafeMutablePointer<UInt8>
  /// The number of bytes written.
  private(set) var count = 0
  /// The number of bytes the buffer has room for.
  private var capacity: Int

  deinit {
    base.deallocate()
  }

  /// A writer that takes over the document written so far, its bytes and its buffer, leaving
  /// this one empty with a small buffer (see ``restart(capacity:)``): for an encoder that is kept
  /// for the next document while the caller still takes this one.
  ///
  /// - Returns: A writer holding the document.
  func detached() -> JSONWriter {
    let other = JSONWriter(
      prettyPrinted: prettyPrinted, escapesSlashes: escapesSlashes, capacity: 0)
    // Plain loads and stores, not `swap`: an inout access to these properties would cost every
    // other access to them a dynamic exclusivity check.
    let (written, room, length) = (base, capacity, count)
    base = other.base
    capacity = other.capacity
    count = 0
    other.base = written
    other.capacity = room
    other.count = length
    return other
  }

  /// Empties the writer for another document, with room for `capacity` bytes.
  ///
  /// - Parameter capacity: The first buffer's size.
  func restart(capacity: Int) {
    count = 0
    depth = 0
    if self.capacity < capacity {
      base.deallocate()
      self.capacity = capacity
      base = .allocate(capacity: capacity)
    }
  }

  /// Makes room for `extra` more bytes.
  @inline(__always)
  func reserve(_ extra: Int) {
    if count &+ extra > capacity {
      grow(toAtLeast: count &+ extra)
    }
  }

  @inline(never)
  private func grow(toAtLeast minimum: Int) {
    let newCapacity = Swift.max(minimum, capacity &* 2)
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    grown.moveInitialize(from: base, count: count)
    base.deallocate()
    base = grown
    capacity = newCapacity
  }

  @inline(__always)
  func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count &+= 1
  }

  @inline(__always)
  func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    let length = bytes.count
    reserve(length)
    (base + count).initialize(from: source, count: length)
    count &+= length
  }

  /// Appends the `count` bytes at `source`, eight at a time: the bytes up to the next multiple of
  /// eight after them must be readable (a ``FixedBuffer`` with padding).
  @inline(__always)
  func append(padded source: UnsafePointer<UInt8>, count length: Int) {
    reserve(length &+ 8)
    let target = UnsafeMutableRawPointer(base + count)
    let origin = UnsafeRawPointer(source)
    var offset = 0
    while offset < length {
      target.storeBytes(
        of: origin.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset,
        as: UInt64.self)
      offset &+= 8
    }
    count &+= length
  }

  /// Appends the bytes of any sequence, such as a string's UTF-8.
  func append(contentsOf bytes: some Sequence<UInt8>) {
    reserve(bytes.underestimatedCount)
    for byte in bytes {
      append(byte)
    }
  }

  /// Appends `count` bytes written by `body` at the end of the buffer, after making room for
  /// `capacity` of them.
  ///
  /// - Parameters:
  ///   - capacity: The most bytes `body` writes.
  ///   - body: Writes at the pointer it is given and returns how many bytes it wrote.
  @inline(__always)
  func append(upTo capacity: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
    reserve(capacity)
    count &+= body(base + count)
  }

  /// The byte at `position`.
  @inline(__always)
  subscript(position: Int) -> UInt8 {
    base[position]
  }

  /// Calls `body` with the bytes written so far.
  func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    try body(UnsafeBufferPointer(start: base, count: count))
  }

  /// Writes `bytes` over the bytes from `start`, which must be written already.
  func overwrite(from start: Int, with bytes: [UInt8]) {
    let length = Swift.min(bytes.count, count &- start)
    guard start >= 0, length > 0 else { return }
    bytes.withUnsafeBufferPointer { source in
      if let source = source.baseAddress {
        (base + start).update(from: source, count: length)
      }
    }
  }

  /// Writes `data` as a JSON string of its Base64 text (see ``JSONBase64``), with `/` escaped
  /// as ``string(_:)-(String)`` escapes it.
  func base64(_ data: Data) {
    data.withUnsafeBytes { bytes in
      JSONBase64.pairs.withUnsafeBufferPointer { pairs in
        base64(bytes, pairs: pairs)
      }
    }
  }

  /// Writes `bytes` as a JSON string of their Base64 text, four letters for each three bytes
  /// from two loads of `pairs` (``JSONBase64/pairs``), stored as one word unless one of them is a
  /// slash to escape.
  private func base64(_ bytes: UnsafeRawBufferPointer, pairs: UnsafeBufferPointer<UInt16>) {
    let total = bytes.count
    reserve(JSONBase64.textCount(of: total) &+ 2)
    base[count] = UInt8(ascii: "\"")
    count &+= 1
    if let source = bytes.baseAddress {
      let whole = total &- total % 3
      // The buffer and the end of the text in locals: stored back only around a slash.
      var target = base
      var end = count
      var index = 0
      while index < whole {
        // The three bytes, high byte first, as the low 24 bits of a word.
        let group =
          UInt32(source.load(fromByteOffset: index, as: UInt8.self)) &<< 16
          | UInt32(source.load(fromByteOffset: index &+ 1, as: UInt8.self)) &<< 8
          | UInt32(source.load(fromByteOffset: index &+ 2, as: UInt8.self))
        let word = UInt32(pairs[Int(group &>> 12)]) | UInt32(pairs[Int(group & 0xFFF)]) &<< 16
        index &+= 3
        if escapesSlashes, Self.hasSlash(word) {
          count = end
          appendEscapingSlashes(word, leaving: (whole &- index) / 3 &* 4 &+ 6)
          target = base
          end = count
        } else {
          UnsafeMutableRawPointer(target + end).storeBytes(of: word.littleEndian, as: UInt32.self)
          end &+= 4
        }
      }
      count = end
      let rest = total &- whole
      if rest > 0 {
        var group = UInt32(source.load(fromByteOffset: whole, as: UInt8.self)) &<< 16
        if rest == 2 {
          group |= UInt32(source.load(fromByteOffset: whole &+ 1, as: UInt8.self)) &<< 8
        }
        let letters = UInt32(pairs[Int(group &>> 12)]) | UInt32(pairs[Int(group & 0xFFF)]) &<< 16
        // "=" (0x3D) in place of the letters of the missing bytes.
        appendEscapingSlashes(
          rest == 2 ? letters & 0x00FF_FFFF | 0x3D00_0000 : letters & 0xFFFF | 0x3D3D_0000,
          leaving: 1)
      }
    }
    append(UInt8(ascii: "\""))
  }

  /// Whether one of the four bytes of `word` is a slash: a byte of `word ^ 0x2F2F2F2F` is zero
  /// exactly where a slash is.
  @inline(__always)
  private static func hasSlash(_ word: UInt32) -> Bool {
    let slashes = word ^ 0x2F2F_2F2F
    return (slashes &- 0x0101_0101) & ~slashes & 0x8080_8080 != 0
  }

  /// Appends the four letters of `word`, low byte first, with a slash escaped when slashes are,
  /// after making room for them and for `leaving` more bytes.
  private func appendEscapingSlashes(_ word: UInt32, leaving: Int) {
    reserve(8 &+ leaving)
    var rest = word
    for _ in 0..<4 {
      let letter = UInt8(truncatingIfNeeded: rest)
      if letter == UInt8(ascii: "/"), escapesSlashes {
        base[count] = UInt8(ascii: "\\")
        count &+= 1
      }
      base[count] = letter
      count &+= 1
      rest &>>= 8
    }
  }

  /// Forgets the bytes written, keeping the buffer.
  func removeAll() {
    count = 0
  }

  /// The bytes written, as an array.
  var array: [UInt8] {
    Array(UnsafeBufferPointer(start: base, count: count))
  }

  /// The bytes written, as `Data` that takes over the buffer; the buffer is empty afterwards.
  func takeData() -> Data {
    guard count > 0 else { return Data() }
    if capacity &- count > 65536, capacity > 2 &* count {
      // A first buffer made for larger documents: the data keeps only what it needs.
      let fitted = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
      fitted.initialize(from: base, count: count)
      base.deallocate()
      base = fitted
      capacity = count
    }
    let data = Data(
      bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
    capacity = 16
    base = .allocate(capacity: capacity)
    count = 0
    return data
  }
}

/// Where bytes of JSON text can be appended: the writer's own buffer, or an array.
///
/// The number and date writers append through it, so that the same code writes into
/// ``JSONOutput`` (the document being encoded) and into a `[UInt8]` (a key's JSON form, tests).
protocol JSONByteSink {
  /// Appends one byte.
  mutating func append(_ byte: UInt8)
  /// Appends the bytes of `bytes`.
  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: JSONByteSink where Element == UInt8 {}
