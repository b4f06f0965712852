/// How much storage a run or a coder keeps for the next value when it is reused.
///
/// Runs are kept between values (per thread in ``RunPool``, per call in the JSON coder), and
/// their arrays keep their storage so that the next value doesn't allocate it again. Storage
/// that a large input made grow (a run that listed a million members) is let go instead, so that
/// nothing an input made stays alive after its decode or encode.
enum KeptStorage {
  /// The most elements a collection keeps room for when it is emptied for reuse.
  static let limit = 1024
}

extension Array {
  /// Removes every element, keeping the storage only if it is small (see ``KeptStorage``).
  @inline(__always)
  mutating func removeAllForReuse() {
    removeAll(keepingCapacity: capacity <= KeptStorage.limit)
  }
}

extension Dictionary {
  /// Removes every entry, keeping the storage only if it is small (see ``KeptStorage``).
  @inline(__always)
  mutating func removeAllForReuse() {
    removeAll(keepingCapacity: capacity <= KeptStorage.limit)
  }
}

extension Set {
  /// Removes every element, keeping the storage only if it is small (see ``KeptStorage``).
  @inline(__always)
  mutating func removeAllForReuse() {
    removeAll(keepingCapacity: capacity <= KeptStorage.limit)
  }
}
