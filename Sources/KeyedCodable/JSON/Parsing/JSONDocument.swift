/// The kind of a JSON value on a ``JSONDocument``'s tape.
enum JSONKind: UInt8 {
  case null = 1
  case `false` = 2
  case `true` = 3
  case number = 4
  case string = 5
  case array = 6
  case object = 7
}

/// A validated JSON document: the bytes, and a *tape* that describes every value in them.
///
/// Parsing happens once, in one pass over the bytes (see ``JSONScanner``), and checks all of
/// RFC 8259. It converts nothing: numbers and strings stay bytes until someone reads them, so a
/// value no model maps costs only its scan.
///
/// The tape holds one word per value, in document order; an object's members are a key entry
/// (a string) followed by the value's entries:
///
/// - bits 0–3: the kind; bits 4–7: flags.
/// - a string, a number or a literal: its byte length in bits 8–31 (a string's without the
///   quotes; a literal's is 0), and the byte offset of the value in bits 32–63 (for a string,
///   of its first byte after the opening quote). A length of ``longLength`` or more is kept
///   apart, in ``longLengths``.
/// - an array or an object: its element or member count in bits 8–31 (a count of
///   ``longLength`` or more is kept apart, in ``largeCounts``), and the index of the entry
///   after its last one in bits 32–63, so a reader skips a whole container in one step. Where
///   a container starts in the bytes is found when it is asked for, to describe an error or to
///   check a stream's batch (see ``start(of:after:)``).
///
/// Eight bytes per value: a member (its name and a scalar) fits in a quarter of a cache line.
/// An offset or an end is the word's upper half, read by itself; a length is compared with one
/// shift and one comparison. Documents are smaller than 4 GiB (``JSONScanner`` throws for
/// larger ones), so an offset or an entry index fits in 32 bits.
///
/// Immutable once parsed; the readers of one decode share it.
final class JSONDocument {
  /// A string contains escape sequences: read it through ``JSONStrings``.
  static let hasEscapes: UInt64 = 1 << 4
  /// A string contains bytes outside ASCII.
  static let isNonASCII: UInt64 = 1 << 5
  /// A number has no fraction and no exponent.
  static let isPlainInteger: UInt64 = 1 << 4
  /// An object has a member name with escape sequences or bytes outside ASCII, which a lookup by
  /// bytes may miss (`"\u0061"` is `"a"`; two normalizations of one text are equal strings):
  /// lookups in it compare decoded names.
  static let hasComplexNames: UInt64 = 1 << 6

  /// The document's bytes, followed by ``padding`` zero bytes so the scanner can read ahead.
  #if DEBUG
    private(set) var bytes: UnsafeMutablePointer<UInt8>
  #else
    @exclusivity(unchecked) private(set) var bytes: UnsafeMutablePointer<UInt8>
  #endif
  /// The number of bytes of the document (without the padding).
  #if DEBUG
    private(set) var count: Int
  #else
    @exclusivity(unchecked) private(set) var count: Int
  #endif
  /// The bytes ``bytes`` has room for, without the padding.
  private var byteCapacity: Int
  /// The tape, one word per entry.
  #if DEBUG
    private(set) var tape: UnsafeMutablePointer<UInt64>
  #else
    @exclusivity(unchecked) private(set) var tape: UnsafeMutablePointer<UInt64>
  #endif
  /// The number of entries on the tape.
  #if DEBUG
    private(set) var entryCount = 0
  #else
    @exclusivity(unchecked) private(set) var entryCount = 0
  #endif
  #if DEBUG
    private var entryCapacity: Int
  #else
    @exclusivity(unchecked) private var entryCapacity: Int
  #endif
  /// The lengths of the strings and numbers of ``longLength`` bytes or more, by entry.
  #if DEBUG
    private var longLengths: [Int: Int] = [:]
  #else
    @exclusivity(unchecked) private var longLengths: [Int: Int] = [:]
  #endif
  /// The counts of the arrays and objects of ``longLength`` elements or members or more, by
  /// entry.
  #if DEBUG
    private var largeCounts: [Int: Int] = [:]
  #else
    @exclusivity(unchecked) private var largeCounts: [Int: Int] = [:]
  #endif

  /// The length or count an entry's bits 8–31 hold when the value's own is kept apart (see
  /// ``longLengths`` and ``largeCounts``): the largest they hold, 2²⁴ - 1.
  static let longLength = 0xFF_FFFF

  /// Zero bytes after the document, so a read of up to 16 bytes at any position inside it (or at
  /// its end) stays inside the allocation.
  static let padding = 16

  /// The most bytes, and tape entries, a document may have room for and still be parsed into
  /// again (see ``reparse(_:)``): a decoder kept between decodes holds no more than this.
  static let reusableBytes = 16 * 1024
  static let reusableEntries = 4 * 1024

  /// Whether the document's storage is small enough to keep for the next document (see
  /// ``reparse(_:)``).
  var isReusable: Bool {
    byteCapacity <= Self.reusableBytes && entryCapacity <= Self.reusableEntries
  }

  /// The tape entries to start with for a document of `length` bytes: most documents hold at
  /// least four bytes per value.
  private static func entries(forLength length: Int) -> Int { Swift.max(16, length / 4) }

  /// Parses `source`, copying it (and transcoding UTF-16 and UTF-32 input to UTF-8).
  ///
  /// - Throws: ``JSONSyntaxError`` when the input is not valid JSON.
  init(parsing source: UnsafeRawBufferPointer) throws(JSONSyntaxError) {
    let utf8 = try Self.utf8(of: source)
    let length = utf8.length(of: source)
    bytes = .allocate(capacity: length + Self.padding)
    byteCapacity = length
    count = 0
    entryCapacity = Self.entries(forLength: length)
    tape = .allocate(capacity: entryCapacity)
    try load(source, utf8, length: length)
  }

  /// Parses `source` into this document's storage, in place of the document it held: a decoder
  /// kept between decodes of small documents allocates nothing for the next one's bytes and
  /// tape.
  ///
  /// Only for a document nothing else refers to. When it throws, the document holds no valid
  /// tape until it is parsed again.
  ///
  /// - Throws: ``JSONSyntaxError`` when the input is not valid JSON.
  func reparse(_ source: UnsafeRawBufferPointer) throws(JSONSyntaxError) {
    let utf8 = try Self.utf8(of: source)
    let length = utf8.length(of: source)
    if length > byteCapacity {
      bytes.deallocate()
      bytes = .allocate(capacity: length + Self.padding)
      byteCapacity = length
    }
    let entries = Self.entries(forLength: length)
    if entries > entryCapacity {
      tape.deallocate()
      entryCapacity = entries
      tape = .allocate(capacity: entries)
    }
    entryCount = 0
    count = 0
    if !longLengths.isEmpty { longLengths = [:] }
    if !largeCounts.isEmpty { largeCounts = [:] }
    try load(source, utf8, length: length)
  }

  /// How a document's input becomes UTF-8.
  private static func utf8(of source: UnsafeRawBufferPointer) throws(JSONSyntaxError)
    -> JSONEncodingDetection.UTF8Bytes
  {
    let utf8 = JSONEncodingDetection.utf8Bytes(of: source)
    if case .invalid(let offset) = utf8 {
      throw JSONSyntaxError(.invalidUnicode, offset: offset, line: 1, column: offset + 1)
    }
    return utf8
  }

  /// Copies the `length` bytes of `source` as UTF-8 into ``bytes`` (which has room for them),
  /// and scans them onto the empty tape.
  private func load(
    _ source: UnsafeRawBufferPointer, _ utf8: JSONEncodingDetection.UTF8Bytes, length: Int
  ) throws(JSONSyntaxError) {
    switch utf8 {
    case .asIs:
      if let base = source.baseAddress, length > 0 {
        bytes.initialize(from: base.assumingMemoryBound(to: UInt8.self), count: length)
      }
    case .transcoded(let transcoded):
      transcoded.withUnsafeBufferPointer { buffer in
        if let base = buffer.baseAddress, length > 0 {
          bytes.initialize(from: base, count: length)
        }
      }
    case .invalid:
      break
    }
    (bytes + length).initialize(repeating: 0, count: Self.padding)
    count = length
    var scanner = JSONScanner(document: self)
    if case .asIs = utf8 {
      try scanner.scan()
    } else {
      try scanner.scan(skippingByteOrderMark: false)
    }
  }

  /// Parses the values at `ranges` of `source` as the elements of one array.
  ///
  /// The array is `[`, the values joined by commas, `]`; `ranges` holds their start and end
  /// offsets, in pairs. Used for a batch of the elements of a streamed array or of the lines of
  /// JSON Lines (see ``JSONStreamEngine``); the bytes are UTF-8, with no byte-order mark.
  ///
  /// - Parameters:
  ///   - ranges: The start and end offsets of the values, in pairs.
  ///   - source: The bytes the offsets are in.
  ///   - depthLimit: The deepest nesting accepted, the array around the values included.
  /// - Throws: ``JSONSyntaxError`` (offsets in the joined text) when they are not valid JSON.
  init(
    joining ranges: ArraySlice<Int>, of source: UnsafePointer<UInt8>, depthLimit: Int
  ) throws(JSONSyntaxError) {
    var length = 2
    var index = ranges.startIndex
    while index < ranges.endIndex {
      length &+= ranges[index &+ 1] &- ranges[index] &+ 1
      index &+= 2
    }
    let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: length + Self.padding)
    storage[0] = UInt8(ascii: "[")
    var written = 1
    index = ranges.startIndex
    while index < ranges.endIndex {
      if written > 1 {
        storage[written] = UInt8(ascii: ",")
        written &+= 1
      }
      let count = ranges[index &+ 1] &- ranges[index]
      (storage + written).initialize(from: source + ranges[index], count: count)
      written &+= count
      index &+= 2
    }
    storage[written] = UInt8(ascii: "]")
    written &+= 1
    (storage + written).initialize(repeating: 0, count: length &- written &+ Self.padding)
    count = written
    bytes = storage
    byteCapacity = length
    entryCapacity = Self.entries(forLength: written)
    tape = .allocate(capacity: entryCapacity)
    var scanner = JSONScanner(document: self, depthLimit: depthLimit)
    try scanner.scan(skippingByteOrderMark: false)
  }

  deinit {
    bytes.deallocate()
    tape.deallocate()
  }

  // MARK: - Building (the scanner only)

  /// Appends an entry and returns its index.
  @inline(__always)
  func append(_ word: UInt64) -> Int {
    if entryCount == entryCapacity {
      grow()
    }
    let index = entryCount
    tape[index] = word
    entryCount = index &+ 1
    return index
  }

  /// Appends the entry of a string or a number of `length` bytes at byte `offset`, whose kind
  /// and flags are `kindAndFlags`.
  @inline(__always)
  func appendScalar(_ kindAndFlags: UInt64, offset: Int, length: Int) {
    let stored = length < Self.longLength ? length : keepLongLength(length)
    _ = append(
      kindAndFlags | UInt64(truncatingIfNeeded: stored) &<< 8
        | UInt64(truncatingIfNeeded: offset) &<< 32)
  }

  /// Keeps the length of the string or number about to be appended apart from its entry, and
  /// returns what the entry holds instead.
  @inline(never)
  private func keepLongLength(_ length: Int) -> Int {
    longLengths[entryCount] = length
    return Self.longLength
  }

  /// Rewrites an entry's word.
  @inline(__always)
  func set(_ index: Int, _ word: UInt64) {
    tape[index] = word
  }

  /// Keeps the count of the container at `index` apart from its entry (see ``largeCounts``).
  func keepLargeCount(_ count: Int, of index: Int) {
    largeCounts[index] = count
  }

  private func grow() {
    let capacity = entryCapacity * 2
    let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
    grown.moveInitialize(from: tape, count: entryCount)
    tape.deallocate()
    tape = grown
    entryCapacity = capacity
  }

  // MARK: - Reading

  /// The kind of the value at `index`.
  @inline(__always)
  func kind(_ index: Int) -> JSONKind {
    JSONKind(rawValue: UInt8(truncatingIfNeeded: tape[index] & 0x0F)) ?? .null
  }

  /// The flags of the value at `index`.
  @inline(__always)
  func flags(_ index: Int) -> UInt64 {
    tape[index] & 0xF0
  }

  /// The byte offset of the string, number or literal at `index`: of a string's first byte
  /// after the quote.
  ///
  /// Where any value starts, containers included, is ``start(of:after:)``.
  @inline(__always)
  func offset(_ index: Int) -> Int {
    Int(truncatingIfNeeded: tape[index] &>> 32)
  }

  /// The byte length of the string or number at `index`.
  @inline(__always)
  func length(_ index: Int) -> Int {
    size(index, isCount: false)
  }

  /// Whether the string or number at `index` is `count` bytes long: one comparison of the
  /// entry's length when it isn't `count` (a search for a name passes the same `count` each
  /// time, so its bound is found once).
  @inline(__always)
  func hasLength(_ index: Int, _ count: Int) -> Bool {
    let stored = Int(truncatingIfNeeded: tape[index] &>> 8 & 0xFF_FFFF)
    guard stored == Swift.min(count, Self.longLength) else { return false }
    return stored != Self.longLength || keptSize(index, isCount: false) == count
  }

  /// The number of elements or members of the container at `index`.
  @inline(__always)
  func memberCount(_ index: Int) -> Int {
    size(index, isCount: true)
  }

  /// The length or count (bits 8–31) of the entry at `index`, or the one kept apart.
  @inline(__always)
  private func size(_ index: Int, isCount: Bool) -> Int {
    let size = Int(truncatingIfNeeded: tape[index] &>> 8 & 0xFF_FFFF)
    guard size == Self.longLength else { return size }
    return keptSize(index, isCount: isCount)
  }

  /// The length of a string or number of ``longLength`` bytes or more, or the count of a
  /// container of as many values, out of line.
  @inline(never)
  private func keptSize(_ index: Int, isCount: Bool) -> Int {
    (isCount ? largeCounts[index] : longLengths[index]) ?? Self.longLength
  }

  /// The index of the entry after the value at `index` and everything inside it.
  @inline(__always)
  func next(_ index: Int) -> Int {
    let word = tape[index]
    // Arrays (6) and objects (7) are the only kinds with bits 1 and 2 set.
    guard word & 0x06 == 0x06 else { return index &+ 1 }
    return Int(truncatingIfNeeded: word &>> 32)
  }

  /// The byte offset of the first byte of the value at `index`: a string's opening quote, a
  /// container's bracket or brace.
  ///
  /// At once for a string, a number or a literal. A container's is found from the nearest
  /// string, number or literal before it (or from `known`, the entry and start of a container
  /// before it, whichever is nearer): the bytes between hold only brackets, braces, commas,
  /// colons and whitespace, and each `[` or `{` among them starts the next entry. So the work
  /// is the entries and bytes between, and a reader that passes each container it found as
  /// `known` for the next reads each byte once.
  ///
  /// - Parameters:
  ///   - index: A tape entry.
  ///   - known: A container before `index`, and the offset of its first byte.
  /// - Returns: An offset from `0` to ``count``.
  func start(of index: Int, after known: (entry: Int, start: Int)? = nil) -> Int {
    guard index >= 0, index < entryCount else { return 0 }
    switch kind(index) {
    case .string: return offset(index) &- 1
    case .array, .object: break
    default: return offset(index)
    }
    // The nearest entry before `index` whose end is known: every entry after it, up to
    // `index`, is then an array or an object.
    var entry = index &- 1
    var position = 0
    while entry >= 0 {
      if let known, known.entry == entry {
        position = known.start &+ 1
        break
      }
      let kind = kind(entry)
      if kind == .array || kind == .object {
        entry &-= 1
        continue
      }
      // Past a string's closing quote: a string may hold brackets.
      position = kind == .string ? offset(entry) &+ length(entry) &+ 1 : offset(entry) &+ 1
      break
    }
    while position < count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
        entry &+= 1
        if entry == index { return position }
      }
      position &+= 1
    }
    return count
  }

  /// The bytes of the string or number at `index`.
  @inline(__always)
  func span(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: bytes + offset(index), count: length(index))
  }
}
