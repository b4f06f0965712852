extension PathTable {
  /// The member names of a table's nodes as bytes, grouped by parent, so that a backend can
  /// read all the members of an object it knows by bytes in one pass (see
  /// ``JSONDecodingBackend``) instead of looking up each mapping's member.
  ///
  /// Made once with the table and immutable, like it, with the parts its plan's direction reads
  /// (see ``PathTable/Use``): a decoding plan's lookup tables, an encoding plan's member names
  /// as compact JSON. Each node with children has a small
  /// open-addressing table of its children by the fingerprint of their UTF-8 names
  /// (``JSONNameIndex/NameHasher``, seeded per process, so that names a first run read from data
  /// can't be made to collide); a name is then confirmed by its first and last eight bytes
  /// (``JSONNameIndex/NameWords``), and for names longer than 16 bytes by the bytes between.
  final class MemberIndex: Sendable {
    /// For each node, where its children start in ``children``; one more entry at the end.
    let childStart: [Int32]
    /// The children of every node, node by node.
    let children: [Int32]
    /// For each node, the words of its UTF-8 name.
    let words: [JSONNameIndex.NameWords]
    /// For each node, its name's fingerprint.
    let fingerprints: [UInt64]
    /// The UTF-8 names of all nodes, one after the other (the root's is empty), for names longer
    /// than 16 bytes.
    let nameBytes: [UInt8]
    /// For each node, where its name starts in ``nameBytes``.
    let nameStart: [Int32]
    /// For each node, where its lookup table starts in ``slots`` (unused without children).
    let slotStart: [Int32]
    /// For each node, the mask of its lookup table's size, a power of two (`0` without
    /// children).
    let slotMask: [Int32]
    /// The lookup tables: a child node, or `0` for an empty slot (the root is no one's child).
    let slots: [Int32]
    /// For each node, its member as compact JSON starts it: `,"name":`, the name escaped as
    /// ``KeyedJSONEncoder`` escapes it by default (slashes too), one node after the other;
    /// followed by eight zero bytes, so that a member can be copied eight bytes at a time.
    let jsonMembers: FixedBuffer<UInt8>
    /// For each node, where its member starts in ``jsonMembers``; one more entry at the end.
    let jsonMemberStart: FixedBuffer<Int32>
    /// For each node, whether its name has a slash, which an encoder that leaves slashes alone
    /// writes otherwise.
    let hasSlash: FixedBuffer<Bool>
    /// The number of nodes with a name in ``jsonMembers``: all of them in an index for encoding,
    /// none in one for decoding only.
    let namedNodes: Int

    /// The index of the nodes `parents` and `keys` describe, with the parts `use` needs: the
    /// lookup tables for decoding, the compact JSON names for encoding.
    init(parents: [Int], keys: [PathKey], use: PathTable.Use) {
      let count = parents.count
      var childCounts = [Int32](repeating: 0, count: count + 1)
      for node in 1..<Swift.max(count, 1) where parents[node] >= 0 {
        childCounts[parents[node]] += 1
      }
      var childStart = [Int32](repeating: 0, count: count + 1)
      for node in 0..<count {
        childStart[node + 1] = childStart[node] + childCounts[node]
      }
      var children = [Int32](repeating: 0, count: Int(childStart[count]))
      var filled = childStart
      for node in 1..<Swift.max(count, 1) where parents[node] >= 0 {
        let parent = parents[node]
        children[Int(filled[parent])] = Int32(node)
        filled[parent] += 1
      }
      self.childStart = childStart
      self.children = children

      if use != .encoding {
        (words, fingerprints, nameBytes, nameStart, slotStart, slotMask, slots) =
          Self.lookupTables(childStart: childStart, children: children, keys: keys)
      } else {
        // No lookup table: every node reads as childless (a mask of `0`) to a reader.
        (words, fingerprints, nameBytes, nameStart, slots) = ([], [], [], [], [])
        slotStart = [Int32](repeating: 0, count: count)
        slotMask = [Int32](repeating: 0, count: count)
      }
      if use != .decoding {
        let writer = JSONWriter(prettyPrinted: false, escapesSlashes: true)
        var jsonMemberStart: [Int32] = []
        jsonMemberStart.reserveCapacity(count + 1)
        var hasSlash: [Bool] = []
        hasSlash.reserveCapacity(count)
        for key in keys {
          jsonMemberStart.append(Int32(truncatingIfNeeded: writer.count))
          writer.append(UInt8(ascii: ","))
          writer.string(key.stringValue)
          writer.colon()
          var slash = false
          for byte in key.stringValue.utf8 where byte == UInt8(ascii: "/") {
            slash = true
            break
          }
          hasSlash.append(slash)
        }
        jsonMemberStart.append(Int32(truncatingIfNeeded: writer.count))
        jsonMembers = FixedBuffer(writer.array, padding: 8, filler: 0)
        self.jsonMemberStart = FixedBuffer(jsonMemberStart)
        self.hasSlash = FixedBuffer(hasSlash)
        namedNodes = count
      } else {
        jsonMembers = FixedBuffer([], padding: 8, filler: 0)
        jsonMemberStart = FixedBuffer([0])
        hasSlash = FixedBuffer([])
        namedNodes = 0
      }
    }

    /// The lookup tables of a decoding index (see ``words`` to ``slots``).
    private static func lookupTables(childStart: [Int32], children: [Int32], keys: [PathKey])
      -> (
        words: [JSONNameIndex.NameWords], fingerprints: [UInt64], nameBytes: [UInt8],
        nameStart: [Int32], slotStart: [Int32], slotMask: [Int32], slots: [Int32]
      )
    {
      let count = keys.count
      var nameBytes: [UInt8] = []
      var nameStart: [Int32] = []
      var words: [JSONNameIndex.NameWords] = []
      var fingerprints: [UInt64] = []
      nameStart.reserveCapacity(count)
      words.reserveCapacity(count)
      fingerprints.reserveCapacity(count)
      let hasher = JSONNameIndex.NameHasher.shared
      for key in keys {
        var name = key.stringValue
        nameStart.append(Int32(truncatingIfNeeded: nameBytes.count))
        let (nameWords, fingerprint) = name.withUTF8 { buffer in
          nameBytes.append(contentsOf: buffer)
          guard let base = buffer.baseAddress else {
            return (JSONNameIndex.NameWords.empty, hasher.fingerprint(shortName: .empty))
          }
          return (
            JSONNameIndex.NameWords(base, count: buffer.count),
            hasher.fingerprint(base, count: buffer.count)
          )
        }
        words.append(nameWords)
        fingerprints.append(fingerprint)
      }

      var slotStart = [Int32](repeating: 0, count: count)
      var slotMask = [Int32](repeating: 0, count: count)
      var slots: [Int32] = []
      for node in 0..<Swift.min(count, childStart.count - 1)
      where childStart[node + 1] > childStart[node] {
        let members = Int(childStart[node + 1] - childStart[node])
        var capacity = 4
        while capacity < members * 2 { capacity *= 2 }
        slotStart[node] = Int32(slots.count)
        slotMask[node] = Int32(capacity - 1)
        slots.append(contentsOf: repeatElement(0, count: capacity))
        for position in Int(childStart[node])..<Int(childStart[node + 1]) {
          let child = children[position]
          var slot = Int(truncatingIfNeeded: fingerprints[Int(child)] &>> 32) & (capacity - 1)
          while slots[Int(slotStart[node]) + slot] != 0 {
            slot = (slot + 1) & (capacity - 1)
          }
          slots[Int(slotStart[node]) + slot] = child
        }
      }
      return (words, fingerprints, nameBytes, nameStart, slotStart, slotMask, slots)
    }

    /// The start of the member at `node` as compact JSON (see ``jsonMembers``).
    @inline(__always)
    func jsonMember(_ node: Int) -> UnsafeBufferPointer<UInt8> {
      let start = Int(jsonMemberStart[node])
      return UnsafeBufferPointer(
        start: jsonMembers.base + start, count: Int(jsonMemberStart[node &+ 1]) &- start)
    }

    /// The positions in ``children`` of the children of `node`.
    @inline(__always)
    func childPositions(of node: Int) -> Range<Int> {
      Int(childStart[node])..<Int(childStart[node &+ 1])
    }

    /// The child of `parent` named `name`, or `0` when `parent` has no such child.
    func child(of parent: Int, named name: String) -> Int {
      var utf8 = Array(name.utf8)
      let count = utf8.count
      // Room for the eight-byte reads of a name in a document.
      utf8.append(contentsOf: repeatElement(0, count: 8))
      return utf8.withUnsafeBufferPointer { buffer in
        let base = buffer.baseAddress.unsafelyUnwrapped
        let words = JSONNameIndex.NameWords(inDocument: base, count: count)
        return withLookup { lookup in
          lookup.child(
            named: base, words: words,
            fingerprint: JSONNameIndex.NameHasher.shared.fingerprint(words, at: base),
            start: Int(slotStart[parent]), mask: Int(slotMask[parent]))
        }
      }
    }

    /// Calls `body` with the index's tables borrowed, for a pass over the members of an object.
    @inline(__always)
    func withLookup<Result>(_ body: (Lookup) -> Result) -> Result {
      slots.withUnsafeBufferPointer { slots in
        fingerprints.withUnsafeBufferPointer { fingerprints in
          words.withUnsafeBufferPointer { words in
            nameStart.withUnsafeBufferPointer { nameStart in
              nameBytes.withUnsafeBufferPointer { nameBytes in
                body(
                  Lookup(
                    slots: slots, fingerprints: fingerprints, words: words,
                    nameStart: nameStart, nameBytes: nameBytes))
              }
            }
          }
        }
      }
    }

    /// The tables of a ``MemberIndex``, borrowed for a pass over an object (see
    /// ``withLookup(_:)``).
    struct Lookup {
      let slots: UnsafeBufferPointer<Int32>
      let fingerprints: UnsafeBufferPointer<UInt64>
      let words: UnsafeBufferPointer<JSONNameIndex.NameWords>
      let nameStart: UnsafeBufferPointer<Int32>
      let nameBytes: UnsafeBufferPointer<UInt8>

      /// The child whose UTF-8 name is at `name`, with words `words` and fingerprint
      /// `fingerprint` (``JSONNameIndex/NameHasher/shared``'s), in the lookup table at `start` of
      /// size `mask + 1`; `0` when there is none (or the table is empty).
      @inline(__always)
      func child(
        named name: UnsafePointer<UInt8>, words: JSONNameIndex.NameWords, fingerprint: UInt64,
        start: Int, mask: Int
      ) -> Int {
        guard mask != 0 else { return 0 }
        var slot = Int(truncatingIfNeeded: fingerprint &>> 32) & mask
        while true {
          let child = Int(slots[start &+ slot])
          guard child != 0 else { return 0 }
          if fingerprints[child] == fingerprint, isChild(child, named: name, words: words) {
            return child
          }
          slot = (slot &+ 1) & mask
        }
      }

      /// Whether node `child` has the UTF-8 name at `name`, whose words are `words`.
      @inline(__always)
      func isChild(_ child: Int, named name: UnsafePointer<UInt8>, words: JSONNameIndex.NameWords)
        -> Bool
      {
        guard self.words[child] == words else { return false }
        // Equal words are equal names up to 16 bytes; longer ones compare the middle.
        let count = words.count
        return count <= 16
          || JSONStrings.equal(
            name + 8, nameBytes.baseAddress.unsafelyUnwrapped + (Int(nameStart[child]) &+ 8),
            count: count &- 16)
      }
    }
  }
}
