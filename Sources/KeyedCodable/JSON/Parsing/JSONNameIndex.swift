/// Hash indexes of the member names of large objects, so a lookup costs one probe whatever the
/// order members are read in.
///
/// Synthesized `Codable` models read an object's members in their own order, which is seldom the
/// document's (Foundation's `JSONEncoder` writes members in hash order). Scanning for each member
/// would cost a comparison per member already passed; an object of ``minimumCount`` members or
/// more gets an index the first time a member is looked up by name in it.
///
/// Indexes are kept in a small ``Cache`` per decode rather than one per object: an object's
/// members are read while its value decodes, so a document of many large objects needs only the
/// few indexes of the objects being decoded at once, and its memory doesn't grow with the
/// document. An index is its capacity's worth of slots of two words: the member's name entry
/// plus one (`0` for an empty slot) and the low half of the name's ``fingerprint(_:count:)``,
/// probed linearly from the high half. A name that repeats is indexed once, at its first member,
/// as Foundation's `JSONDecoder` reads the first.
enum JSONNameIndex {
  /// The fewest members an object needs for an index: smaller objects are scanned.
  static let minimumCount = 8

  /// A name's length and its first and last eight bytes, mixed: equal names have equal
  /// fingerprints.
  @inline(__always)
  static func fingerprint(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
    NameWords(start, count: count).fingerprint
  }

  /// ``fingerprint(_:count:)`` of a name inside a ``JSONDocument``, whose padding lets eight
  /// bytes be read from any position of the document (or in any buffer with eight readable bytes
  /// after the name, such as ``JSONWriter``'s after a ``JSONWriter/reserve(_:)``).
  @inline(__always)
  static func fingerprint(inDocument start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
    NameWords(inDocument: start, count: count).fingerprint
  }

  /// A name's first and last eight bytes (the same word for names of up to eight bytes, zeros
  /// after the name) and its length: two names of up to 16 bytes are equal exactly when these
  /// are; longer names also compare the bytes between.
  struct NameWords: Equatable {
    let head: UInt64
    let tail: UInt64
    let count: Int

    /// The words of the empty name.
    static let empty = NameWords(head: 0, tail: 0, count: 0)

    private init(head: UInt64, tail: UInt64, count: Int) {
      self.head = head
      self.tail = tail
      self.count = count
    }

    /// The words of the `count` bytes at `start`.
    @inline(__always)
    init(_ start: UnsafePointer<UInt8>, count: Int) {
      head = NameWords.load(start, count: Swift.min(count, 8))
      tail = count > 8 ? NameWords.load(start + (count &- 8), count: 8) : head
      self.count = count
    }

    /// The words of the `count` bytes at `start` inside a ``JSONDocument``, whose padding lets
    /// eight bytes be read from any position of the document.
    @inline(__always)
    init(inDocument start: UnsafePointer<UInt8>, count: Int) {
      let word = UInt64(littleEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self))
      head =
        count >= 8 ? word : word & ((1 &<< (UInt64(truncatingIfNeeded: count) &* 8)) &- 1)
      tail =
        count > 8
        ? UInt64(
          littleEndian: UnsafeRawPointer(start + (count &- 8)).loadUnaligned(as: UInt64.self))
        : head
      self.count = count
    }

    /// The words mixed into one: equal names have equal fingerprints.
    @inline(__always)
    var fingerprint: UInt64 {
      JSONNameIndex.mix(head, tail, count)
    }

    /// Up to eight bytes at `start`, as the low bytes of a word.
    @inline(__always)
    private static func load(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
      if count == 8 {
        return UInt64(littleEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self))
      }
      var word: UInt64 = 0
      var index = 0
      while index < count {
        word |= UInt64(start[index]) &<< (UInt64(index) &* 8)
        index &+= 1
      }
      return word
    }
  }

  @inline(__always)
  static func mix(_ head: UInt64, _ tail: UInt64, _ count: Int) -> UInt64 {
    var value = head &* 0x9E37_79B9_7F4A_7C15
    value ^= tail &+ UInt64(truncatingIfNeeded: count)
    value = (value ^ (value &>> 29)) &* 0xBF58_476D_1CE4_E5B9
    return value ^ (value &>> 32)
  }

  /// The indexes of the last large objects looked up by name, by object.
  ///
  /// Eight slots picked by the object's entry: the objects one decode reads at once (a value
  /// and the values around it) seldom share one; an object whose index gave way is indexed again
  /// if it is read again.
  struct Cache {
    /// For each slot, the object whose index it holds, or `-1`.
    private var objects = [Int](repeating: -1, count: 8)
    /// For each slot, whether its object repeats a name.
    private var repeats = [Bool](repeating: false, count: 8)
    /// For each slot, its index: capacity slots of (name entry plus one, low fingerprint).
    private var tables = [[UInt32]](repeating: [], count: 8)

    @inline(__always)
    private static func slot(of object: Int) -> Int {
      (object ^ (object &>> 3) ^ (object &>> 7)) & 7
    }

    /// The value entry of the member named by `bytes` in the object at `object`, whose names are
    /// all plain (no ``JSONDocument/hasComplexNames``), indexing it first if needed.
    mutating func member(
      _ bytes: UnsafeBufferPointer<UInt8>, fingerprint: UInt64, in object: Int,
      document: JSONDocument
    ) -> Int? {
      let slot = index(object, in: document)
      return tables[slot].withUnsafeBufferPointer { table in
        let mask = table.count / 2 &- 1
        let low = UInt32(truncatingIfNeeded: fingerprint)
        var position = Int(truncatingIfNeeded: fingerprint &>> 32) & mask
        while true {
          let entry = Int(table[position &* 2])
          guard entry != 0 else { return nil }
          if table[position &* 2 &+ 1] == low,
            JSONStrings.plainName(at: entry &- 1, in: document, equals: bytes)
          {
            return entry
          }
          position = (position &+ 1) & mask
        }
      }
    }

    /// Whether the object at `object`, whose names are all plain, repeats a name.
    mutating func repeatsNames(in object: Int, document: JSONDocument) -> Bool {
      repeats[index(object, in: document)]
    }

    /// The slot holding the index of `object`, made now if it isn't there.
    private mutating func index(_ object: Int, in document: JSONDocument) -> Int {
      let slot = Self.slot(of: object)
      if objects[slot] != object {
        objects[slot] = object
        repeats[slot] = JSONNameIndex.build(for: object, in: document, into: &tables[slot])
      }
      return slot
    }
  }

  /// Indexes the member names of the object at `object`, whose names are all plain ASCII (no
  /// ``JSONDocument/hasComplexNames``), into `table` (whose storage is reused).
  ///
  /// - Returns: Whether the object repeats a name (the index then has its first member).
  static func build(for object: Int, in document: JSONDocument, into table: inout [UInt32])
    -> Bool
  {
    let count = document.memberCount(object)
    var capacity = 16
    while capacity < count &* 2 { capacity &*= 2 }
    table.removeAll(keepingCapacity: true)
    table.append(contentsOf: repeatElement(0, count: capacity &* 2))
    let mask = capacity &- 1
    var repeats = false
    table.withUnsafeMutableBufferPointer { table in
      var name = object &+ 1
      let end = document.next(object)
      while name < end {
        let fingerprint = NameWords(
          inDocument: document.bytes + document.offset(name), count: document.length(name)
        ).fingerprint
        let low = UInt32(truncatingIfNeeded: fingerprint)
        var slot = Int(truncatingIfNeeded: fingerprint &>> 32) & mask
        while true {
          let taken = Int(table[slot &* 2])
          if taken == 0 {
            table[slot &* 2] = UInt32(truncatingIfNeeded: name &+ 1)
            table[slot &* 2 &+ 1] = low
            break
          }
          if table[slot &* 2 &+ 1] == low, sameName(taken &- 1, name, in: document) {
            repeats = true
            break
          }
          slot = (slot &+ 1) & mask
        }
        name = document.next(name &+ 1)
      }
    }
    return repeats
  }

  /// Whether the plain names at entries `lhs` and `rhs` have the same bytes.
  @inline(__always)
  static func sameName(_ lhs: Int, _ rhs: Int, in document: JSONDocument) -> Bool {
    let length = document.length(lhs)
    guard length == document.length(rhs) else { return false }
    return length == 0
      || JSONStrings.equal(
        document.bytes + document.offset(lhs), document.bytes + document.offset(rhs),
        count: length)
  }
}
