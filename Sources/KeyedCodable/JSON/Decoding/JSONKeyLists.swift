/// The `allKeys` of objects with one member, kept by the type of the keys and the member's name
/// for the rest of a decode.
///
/// The `init(from:)` the compiler writes for an enum with associated values reads the one member
/// of the value's object through `allKeys`: `{"circle":{"radius":2}}` is the case `circle`. Making
/// that list in a container generic over its keys looks up the metadata of `Optional<Key>` and
/// of `Array<Key>` and allocates the array: about 2,600 instructions, more than a quarter of
/// decoding such a value. A list kept is handed out again with one retain.
///
/// The lists are kept in an open-addressing table, hashed by the key type and the name and
/// probed linearly: 16 slots at first, twice as many whenever it is half full, up to 256; a
/// table of 256 that is half full is emptied and filled again. So a document's lists never
/// replace each other before it has 128 of them. (Up to this release, 16 single slots and then
/// 16 pairs: lists of one document whose key type's address and names hashed alike replaced
/// each other on every value, depending on where the process loaded the types; `payloads`
/// decoded in 8% to 10% more instructions in some builds of the benchmark than in others.)
///
/// A list is made once by `Key(stringValue:)` and handed out as it was made, so a coding key
/// type whose `init(stringValue:)` gave another answer for the same name would see the first
/// (the keys the compiler writes, and any key made from its name alone, give one answer).
struct JSONKeyLists {
  /// A kept list, of keys of one type, with a name's words and bytes.
  private struct Entry {
    var type: ObjectIdentifier?
    var words: JSONNameIndex.NameWords
    /// The name's bytes, kept only when its words don't hold all of them (over 16 bytes).
    var longName: [UInt8]
    /// The list, in a ``Box`` of its key type.
    var list: AnyObject?

    static var empty: Entry { Entry(type: nil, words: .empty, longName: [], list: nil) }
  }

  /// A list of keys, held as one reference: read back through `unsafeDowncast`, whose field
  /// read needs no lookup of the box's generic metadata.
  private final class Box<Key> {
    let keys: [Key]

    init(_ keys: [Key]) {
      self.keys = keys
    }
  }

  /// The slots of a new table.
  private static let firstCapacity = 16
  /// The most slots a table grows to.
  private static let largestCapacity = 256

  /// The slots, made on first use: a power of two of them, at most half full.
  private var entries: [Entry] = []
  /// The lists kept.
  private var used = 0

  /// The keys of an object whose one member's name is the `count` bytes at `start` (inside a
  /// ``JSONDocument``): a kept list, or the one `make` makes, kept.
  @inline(__always)
  mutating func keys<Key: CodingKey>(
    named start: UnsafePointer<UInt8>, count: Int, make: () -> [Key]
  ) -> [Key] {
    let type = ObjectIdentifier(Key.self)
    let words = JSONNameIndex.NameWords(inDocument: start, count: count)
    let hash = Self.hash(type, words)
    let found = entries.withUnsafeBufferPointer { slots -> AnyObject? in
      guard !slots.isEmpty else { return nil }
      let mask = slots.count &- 1
      var slot = hash & mask
      // At most half full: an empty slot ends every probe. Fields are read in place, so that
      // a probe retains nothing but the list it finds.
      while slots[slot].list != nil {
        if slots[slot].type == type, slots[slot].words == words,
          count <= 16
            || slots[slot].longName.withUnsafeBufferPointer({ name in
              name.baseAddress.map { JSONStrings.equal($0, start, count: count) } ?? false
            })
        {
          return slots[slot].list
        }
        slot = (slot &+ 1) & mask
      }
      return nil
    }
    if let found {
      return unsafeDowncast(found, to: Box<Key>.self).keys
    }
    return keep(make(), type: type, words: words, hash: hash, start: start, count: count)
  }

  /// Keeps `keys`, and returns them.
  @inline(never)
  private mutating func keep<Key>(
    _ keys: [Key], type: ObjectIdentifier, words: JSONNameIndex.NameWords, hash: Int,
    start: UnsafePointer<UInt8>, count: Int
  ) -> [Key] {
    if entries.isEmpty {
      entries = [Entry](repeating: .empty, count: Self.firstCapacity)
    } else if (used &+ 1) &* 2 > entries.count {
      let capacity = entries.count &* 2
      let kept = entries
      entries = [Entry](repeating: .empty, count: Swift.min(capacity, Self.largestCapacity))
      used = 0
      if capacity <= Self.largestCapacity {
        for entry in kept where entry.list != nil {
          insert(entry, hash: Self.hash(entry.type, entry.words))
        }
      }
    }
    insert(
      Entry(
        type: type, words: words,
        longName: count > 16 ? Array(UnsafeBufferPointer(start: start, count: count)) : [],
        list: Box(keys)),
      hash: hash)
    return keys
  }

  /// Puts `entry` in the first empty slot from its hash's.
  private mutating func insert(_ entry: Entry, hash: Int) {
    let mask = entries.count &- 1
    var slot = hash & mask
    while entries[slot].list != nil {
      slot = (slot &+ 1) & mask
    }
    entries[slot] = entry
    used &+= 1
  }

  /// A hash of a list of keys of `type` for the name of `words`: the high bits of a
  /// multiplicative hash of both, whose low bits pick the slot.
  @inline(__always)
  private static func hash(_ type: ObjectIdentifier?, _ words: JSONNameIndex.NameWords) -> Int {
    let address = type.map { UInt64(truncatingIfNeeded: UInt(bitPattern: $0)) } ?? 0
    let mixed =
      (address ^ words.head ^ (words.tail &<< 1) ^ UInt64(truncatingIfNeeded: words.count))
      &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed &>> 32)
  }
}
