extension PathTable {
  /// What ``ASCIIChildren/node(of:named:parents:keys:)`` knows of a name.
  enum ChildLookup: Equatable {
    /// The node of the name.
    case found(Int)
    /// No node has the name under the parent.
    case absent
    /// The index can't tell: the name isn't ASCII, or some child's name isn't.
    case unknown
  }

  /// The children whose member names are ASCII, by parent and a seeded fingerprint of the name's
  /// bytes (``JSONNameIndex/NameHasher``), found without hashing a `String`.
  ///
  /// A key a model makes from data (`map[Key(stringValue: name)]` for every member of a
  /// dictionary) is looked up by its name on every encode. Through ``PathTable/children`` that is
  /// a `Dictionary` lookup whose `String` hashing (SipHash, over the name's normalized form) costs
  /// about 400 instructions for a short name; here it costs a fingerprint of the bytes and one
  /// comparison.
  ///
  /// Two `String`s are equal when they are canonically equivalent, and an ASCII name can equal
  /// one that isn't ASCII (`"K"` and the Kelvin sign). Only ASCII names are looked up here, and a
  /// name not found here is known to have no node only when every child's name is ASCII;
  /// otherwise the caller asks ``PathTable/children``.
  ///
  /// Worst case: open addressing at a load of at most one half, with fingerprints seeded per
  /// process, so names can't be chosen ahead of time to collide.
  struct ASCIIChildren: Sendable {
    /// The node in each slot, `-1` for none.
    private let slots: [Int]
    /// The fingerprint of each slot's name, mixed with its parent.
    private let fingerprints: [UInt64]
    /// Whether every child's name is ASCII (and not empty).
    private let coversAll: Bool

    /// The index of the children of the nodes `parents` and `keys` describe.
    init(parents: [Int], keys: [PathKey]) {
      var nodes: [Int] = []
      var everyName = true
      for node in 1..<Swift.max(parents.count, 1) where node < keys.count && parents[node] >= 0 {
        if Self.isIndexable(keys[node].stringValue) {
          nodes.append(node)
        } else {
          everyName = false
        }
      }
      coversAll = everyName
      guard !nodes.isEmpty else {
        slots = []
        fingerprints = []
        return
      }
      var capacity = 4
      while capacity < nodes.count &* 2 {
        capacity &*= 2
      }
      var slots = [Int](repeating: -1, count: capacity)
      var fingerprints = [UInt64](repeating: 0, count: capacity)
      for node in nodes {
        guard let fingerprint = Self.fingerprint(of: keys[node].stringValue, parent: parents[node])
        else { continue }
        var slot = Int(truncatingIfNeeded: fingerprint) & (capacity &- 1)
        while slots[slot] >= 0 {
          slot = (slot &+ 1) & (capacity &- 1)
        }
        slots[slot] = node
        fingerprints[slot] = fingerprint
      }
      self.slots = slots
      self.fingerprints = fingerprints
    }

    /// The node of member `name` of `parent`, as far as the index knows.
    ///
    /// `fingerprint` is ``fingerprint(of:parent:)`` of the name and parent, computed by the
    /// caller, which may use it again.
    @inline(__always)
    func node(
      of parent: Int, named name: String, fingerprint: UInt64?, parents: [Int], keys: [PathKey]
    ) -> ChildLookup {
      guard !slots.isEmpty else { return coversAll ? .absent : .unknown }
      guard let fingerprint else { return .unknown }
      let mask = slots.count &- 1
      var slot = Int(truncatingIfNeeded: fingerprint) & mask
      while true {
        let node = slots[slot]
        if node < 0 {
          return coversAll ? .absent : .unknown
        }
        // Both names are ASCII: equal as strings exactly when their bytes are.
        if fingerprints[slot] == fingerprint, parents[node] == parent,
          keys[node].stringValue == name
        {
          return .found(node)
        }
        slot = (slot &+ 1) & mask
      }
    }

    /// Whether `name` can be in the index: ASCII, not empty, its bytes at hand.
    private static func isIndexable(_ name: String) -> Bool {
      name.utf8.withContiguousStorageIfAvailable { bytes in
        !bytes.isEmpty && bytes.isAllASCII
      } ?? false
    }

    /// The fingerprint of `name` under `parent`; `nil` when the name can't be in the index (it
    /// is empty or not ASCII).
    @inline(__always)
    static func fingerprint(of name: String, parent: Int) -> UInt64? {
      let fingerprint = name.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
        guard let start = bytes.baseAddress, !bytes.isEmpty, bytes.isAllASCII else { return nil }
        return JSONNameIndex.NameHasher.shared.fingerprint(start, count: bytes.count)
      }
      guard let fingerprint = fingerprint ?? nil else { return nil }
      return fingerprint ^ UInt64(truncatingIfNeeded: parent) &* 0x9E37_79B9_7F4A_7C15
    }
  }
}
