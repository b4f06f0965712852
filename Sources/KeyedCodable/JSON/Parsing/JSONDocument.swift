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
/// The tape holds one entry of two words per value, in document order; an object's members are
/// a key entry (a string) followed by the value's entries:
///
/// - word 0: the kind (bits 0–3), flags (bits 4–7) and the byte offset of the value (bits 8–63):
///   for a string, of its first byte after the opening quote.
/// - word 1: for a string or a number, its byte length (a string's without the quotes); for an
///   array or an object, its element or member count (high 32 bits) and the index of the entry
///   after its last one (low 32 bits), so a reader skips a whole container in one step.
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
  /// The tape, two words per entry.
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
    tape = .allocate(capacity: entryCapacity * 2)
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
      tape = .allocate(capacity: entries * 2)
    }
    entryCount = 0
    count = 0
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
    tape = .allocate(capacity: entryCapacity * 2)
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
  func append(_ word0: UInt64, _ word1: UInt64) -> Int {
    if entryCount == entryCapacity {
      grow()
    }
    let index = entryCount
    tape[index &* 2] = word0
    tape[index &* 2 &+ 1] = word1
    entryCount = index &+ 1
    return index
  }

  /// Rewrites an entry's words.
  @inline(__always)
  func set(_ index: Int, _ word0: UInt64, _ word1: UInt64) {
    tape[index &* 2] = word0
    tape[index &* 2 &+ 1] = word1
  }

  private func grow() {
    let capacity = entryCapacity * 2
    let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity * 2)
    grown.moveInitialize(from: tape, count: entryCount * 2)
    tape.deallocate()
    tape = grown
    entryCapacity = capacity
  }

  // MARK: - Reading

  /// The kind of the value at `index`.
  @inline(__always)
  func kind(_ index: Int) -> JSONKind {
    JSONKind(rawValue: UInt8(truncatingIfNeeded: tape[index &* 2] & 0x0F)) ?? .null
  }

  /// The flags of the value at `index`.
  @inline(__always)
  func flags(_ index: Int) -> UInt64 {
    tape[index &* 2] & 0xF0
  }

  /// The byte offset of the value at `index` (of a string's first byte after the quote).
  @inline(__always)
  func offset(_ index: Int) -> Int {
    Int(truncatingIfNeeded: tape[index &* 2] &>> 8)
  }

  /// The byte length of the string or number at `index`.
  @inline(__always)
  func length(_ index: Int) -> Int {
    Int(truncatingIfNeeded: tape[index &* 2 &+ 1])
  }

  /// The number of elements or members of the container at `index`.
  @inline(__always)
  func memberCount(_ index: Int) -> Int {
    Int(truncatingIfNeeded: tape[index &* 2 &+ 1] &>> 32)
  }

  /// The index of the entry after the value at `index` and everything inside it.
  @inline(__always)
  func next(_ index: Int) -> Int {
    let word0 = tape[index &* 2]
    // Arrays (6) and objects (7) are the only kinds with bits 1 and 2 set.
    guard word0 & 0x06 == 0x06 else { return index &+ 1 }
    return Int(truncatingIfNeeded: tape[index &* 2 &+ 1] & 0xFFFF_FFFF)
  }

  /// The bytes of the string or number at `index`.
  @inline(__always)
  func span(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: bytes + offset(index), count: length(index))
  }
}
