/// Hash indexes of the member names of large objects, so a lookup costs one probe whatever the
/// order members are read in.
///
/// Synthesized `Codable` models read an object's members in their own order, which is seldom the
/// document's (Foundation's `JSONEncoder` writes members in hash order). Scanning for each member
/// would cost a comparison per member already passed; an object of ``minimumCount`` members or
/// more gets an index the first time a member is looked up by name in it.
///
/// An index lives in ``JSONDocument/indexes``: its capacity (a power of two), then that many
/// slots of two words: the member's name entry plus one (`0` for an empty slot) and the low
/// half of the name's ``fingerprint(_:count:)``, probed linearly from the high half. A name that
/// repeats is indexed once, at its first member, as Foundation's `JSONDecoder` reads the first.
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
  /// bytes be read from any position of the document.
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

  /// Indexes the member names of the object at `object`, whose names are all plain ASCII (no
  /// ``JSONDocument/hasComplexNames``): appends the index to the document's indexes and points
  /// the object's entry at it (``JSONDocument/hasIndex``).
  ///
  /// A repeated name keeps its first member and marks the object with
  /// ``JSONDocument/repeatsNames``.
  static func build(for object: Int, in document: JSONDocument) {
    let count = document.memberCount(object)
    var capacity = 16
    while capacity < count &* 2 { capacity &*= 2 }
    let offset = document.indexes.count
    document.indexes.append(UInt32(capacity))
    document.indexes.append(contentsOf: repeatElement(0, count: capacity &* 2))
    let mask = capacity &- 1
    var repeats = false
    document.indexes.withUnsafeMutableBufferPointer { indexes in
      var name = object &+ 1
      let end = document.next(object)
      while name < end {
        let fingerprint = NameWords(
          inDocument: document.bytes + document.offset(name), count: document.length(name)
        ).fingerprint
        let low = UInt32(truncatingIfNeeded: fingerprint)
        var slot = Int(truncatingIfNeeded: fingerprint &>> 32) & mask
        while true {
          let taken = Int(indexes[offset &+ 1 &+ slot &* 2])
          if taken == 0 {
            indexes[offset &+ 1 &+ slot &* 2] = UInt32(truncatingIfNeeded: name &+ 1)
            indexes[offset &+ 2 &+ slot &* 2] = low
            break
          }
          if indexes[offset &+ 2 &+ slot &* 2] == low, sameName(taken &- 1, name, in: document) {
            repeats = true
            break
          }
          slot = (slot &+ 1) & mask
        }
        name = document.next(name &+ 1)
      }
    }
    let flags = JSONDocument.hasIndex | (repeats ? JSONDocument.repeatsNames : 0)
    let word0 = document.tape[object &* 2] & 0xFF | flags | UInt64(offset) &<< 8
    document.set(object, word0, document.tape[object &* 2 &+ 1])
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

  /// The value entry of the member whose name is `name` in the object whose index starts at
  /// `offset`, or `nil`.
  @inline(__always)
  static func lookup(
    _ name: UnsafeBufferPointer<UInt8>, fingerprint: UInt64, index offset: Int,
    in document: JSONDocument
  ) -> Int? {
    document.indexes.withUnsafeBufferPointer { indexes in
      let capacity = Int(indexes[offset])
      let mask = capacity &- 1
      let low = UInt32(truncatingIfNeeded: fingerprint)
      var slot = Int(truncatingIfNeeded: fingerprint &>> 32) & mask
      while true {
        let entry = Int(indexes[offset &+ 1 &+ slot &* 2])
        guard entry != 0 else { return nil }
        if indexes[offset &+ 2 &+ slot &* 2] == low,
          JSONStrings.plainName(at: entry &- 1, in: document, equals: name)
        {
          return entry
        }
        slot = (slot &+ 1) & mask
      }
    }
  }
}
