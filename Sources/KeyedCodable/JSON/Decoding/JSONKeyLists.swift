/// The `allKeys` of objects with one member, kept by the type of the keys and the member's name
/// for the rest of a decode.
///
/// The `init(from:)` the compiler writes for an enum with associated values reads the one member
/// of the value's object through `allKeys`: `{"circle":{"radius":2}}` is the case `circle`. Making
/// that list in a container generic over its keys looks up the metadata of `Optional<Key>` and
/// of `Array<Key>` and allocates the array: about 2,600 instructions, more than a quarter of
/// decoding such a value. A list kept is handed out again with one retain.
///
/// Up to 32 lists are kept, in pairs of slots picked by a hash of the key type and the name: a
/// list takes the free slot of its pair, or the first, moving the list there to the second and
/// replacing the one in the second. With a slot each (16 of them), two lists of one document
/// whose key type's address and names hashed to one slot replaced each other on every value,
/// depending on where the process loaded the types (`payloads` decoded in 10% more instructions
/// in one build of the benchmark than in another); a pair holds both. A list is made once by `Key(stringValue:)`
/// and handed out as it was made, so a coding key type whose `init(stringValue:)` gave another
/// answer for the same name would see the first (the keys the compiler writes, and any key made
/// from its name alone, give one answer).
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

  private static let slotCount = 32

  /// The slots, made on first use.
  private var entries: [Entry] = []

  /// The keys of an object whose one member's name is the `count` bytes at `start` (inside a
  /// ``JSONDocument``): a kept list, or the one `make` makes, kept.
  @inline(__always)
  mutating func keys<Key: CodingKey>(
    named start: UnsafePointer<UInt8>, count: Int, make: () -> [Key]
  ) -> [Key] {
    let type = ObjectIdentifier(Key.self)
    let words = JSONNameIndex.NameWords(inDocument: start, count: count)
    let slot = Self.slot(type, words)
    if !entries.isEmpty {
      /// The list in slot `index`, if it is the one asked for.
      @inline(__always)
      func list(in index: Int) -> AnyObject? {
        let entry = entries[index]
        guard entry.type == type, entry.words == words, let list = entry.list,
          count <= 16
            || entry.longName.withUnsafeBufferPointer({ name in
              name.baseAddress.map { JSONStrings.equal($0, start, count: count) } ?? false
            })
        else { return nil }
        return list
      }
      if let list = list(in: slot) ?? list(in: slot ^ 1) {
        return unsafeDowncast(list, to: Box<Key>.self).keys
      }
    }
    return keep(make(), type: type, words: words, slot: slot, start: start, count: count)
  }

  /// Keeps `keys` in the pair of slots of `slot` (the first of its pair), and returns them.
  @inline(never)
  private mutating func keep<Key>(
    _ keys: [Key], type: ObjectIdentifier, words: JSONNameIndex.NameWords, slot: Int,
    start: UnsafePointer<UInt8>, count: Int
  ) -> [Key] {
    if entries.isEmpty {
      entries = [Entry](repeating: .empty, count: Self.slotCount)
    }
    var slot = slot
    if entries[slot].list != nil {
      if entries[slot ^ 1].list == nil {
        slot ^= 1
      } else {
        // Both taken: the first's list moves to the second, replacing the one there.
        entries[slot ^ 1] = entries[slot]
      }
    }
    entries[slot] = Entry(
      type: type, words: words,
      longName: count > 16 ? Array(UnsafeBufferPointer(start: start, count: count)) : [],
      list: Box(keys))
    return keys
  }

  /// The first slot of the pair of a list of keys of `type` for the name of `words` (the other
  /// is `slot ^ 1`): the high bits of a multiplicative hash of both.
  @inline(__always)
  private static func slot(_ type: ObjectIdentifier, _ words: JSONNameIndex.NameWords) -> Int {
    let mixed =
      (UInt64(truncatingIfNeeded: UInt(bitPattern: type)) ^ words.head ^ (words.tail &<< 1)
        ^ UInt64(truncatingIfNeeded: words.count)) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed &>> 60) &<< 1
  }
}
