/// Hash indexes of the member names of large objects, so a lookup costs one probe whatever the
/// order members are read in.
///
/// Synthesized `Codable` and ``Keyedable`` models read an object's members in their own order,
/// which is seldom the document's (Foundation's `JSONEncoder` writes members in hash order).
/// Scanning for each member would cost a comparison per member already passed; an object of
/// ``minimumCount`` members or more gets an index when it is scanned instead.
///
/// An index lives in ``JSONDocument/indexes``: its capacity (a power of two), then that many
/// slots of two words: the member's name entry plus one (`0` for an empty slot) and the low
/// half of the name's ``fingerprint(_:count:)``, probed linearly from the high half.
enum JSONNameIndex {
  /// The fewest members an object needs for an index: smaller objects are scanned.
  static let minimumCount = 8

  /// A name's length and its first and last eight bytes, mixed: equal names have equal
  /// fingerprints.
  @inline(__always)
  static func fingerprint(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
    let head = load(start, count: Swift.min(count, 8))
    let tail = count > 8 ? load(start + (count &- 8), count: 8) : head
    var value = head &* 0x9E37_79B9_7F4A_7C15
    value ^= tail &+ UInt64(truncatingIfNeeded: count)
    value = (value ^ (value &>> 29)) &* 0xBF58_476D_1CE4_E5B9
    return value ^ (value &>> 32)
  }

  /// Up to eight bytes at `start`, as the low bytes of a word.
  @inline(__always)
  private static func load(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
    if count == 8 {
      return UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
    }
    var word: UInt64 = 0
    var index = 0
    while index < count {
      word |= UInt64(start[index]) &<< (UInt64(index) &* 8)
      index &+= 1
    }
    return word
  }

  /// Appends an index of the given names (name entry, fingerprint) to `indexes` and returns its
  /// offset.
  static func build(
    _ names: some Collection<(entry: Int, fingerprint: UInt64)>, into indexes: inout [UInt32]
  ) -> Int {
    var capacity = 16
    while capacity < names.count &* 2 { capacity &*= 2 }
    let offset = indexes.count
    indexes.append(UInt32(capacity))
    indexes.append(contentsOf: repeatElement(0, count: capacity &* 2))
    let mask = capacity &- 1
    for name in names {
      var slot = Int(truncatingIfNeeded: name.fingerprint &>> 32) & mask
      while indexes[offset &+ 1 &+ slot &* 2] != 0 {
        slot = (slot &+ 1) & mask
      }
      indexes[offset &+ 1 &+ slot &* 2] = UInt32(truncatingIfNeeded: name.entry &+ 1)
      indexes[offset &+ 2 &+ slot &* 2] = UInt32(truncatingIfNeeded: name.fingerprint)
    }
    return offset
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
