/// The member names of one large object being written, so that ``JSONStreamEncoder`` finds a
/// repeated name with one probe, whatever the names are.
///
/// An open-addressing table of the names' positions in the encoder's list of names, probed
/// linearly from the name's fingerprint (``JSONNameIndex/NameHasher``, seeded per process, so a
/// value can't be made to fill it with collisions), at most half full. It keeps the first name of
/// each fingerprint.
struct JSONNameTable {
  /// For each slot, a name's fingerprint.
  private var fingerprints: [UInt64]
  /// For each slot, the name's position plus one; `0` for an empty slot.
  private var positions: [Int32]
  /// The number of names in the table.
  private var count = 0

  /// A table of the names at `positions`, with the given fingerprints.
  init(_ fingerprints: some Collection<UInt64>, firstPosition: Int) {
    var capacity = 64
    while capacity < fingerprints.count &* 2 { capacity &*= 2 }
    self.fingerprints = [UInt64](repeating: 0, count: capacity)
    positions = [Int32](repeating: 0, count: capacity)
    for (offset, fingerprint) in fingerprints.enumerated() {
      _ = insert(firstPosition &+ offset, fingerprint: fingerprint)
    }
  }

  /// Adds the name at `position`, unless a name with the same fingerprint is there.
  ///
  /// - Returns: The position of the earlier name with the same fingerprint, or `nil` when the
  ///   name was added.
  mutating func insert(_ position: Int, fingerprint: UInt64) -> Int? {
    if count &* 2 >= positions.count {
      grow()
    }
    let mask = positions.count &- 1
    var slot = Int(truncatingIfNeeded: fingerprint &>> 32) & mask
    while true {
      let taken = Int(positions[slot])
      if taken == 0 {
        fingerprints[slot] = fingerprint
        positions[slot] = Int32(truncatingIfNeeded: position &+ 1)
        count &+= 1
        return nil
      }
      if fingerprints[slot] == fingerprint {
        return taken &- 1
      }
      slot = (slot &+ 1) & mask
    }
  }

  /// Doubles the capacity.
  private mutating func grow() {
    let oldFingerprints = fingerprints
    let oldPositions = positions
    let capacity = positions.count &* 2
    fingerprints = [UInt64](repeating: 0, count: capacity)
    positions = [Int32](repeating: 0, count: capacity)
    count = 0
    for (fingerprint, position) in zip(oldFingerprints, oldPositions) where position != 0 {
      _ = insert(Int(position) &- 1, fingerprint: fingerprint)
    }
  }
}
