extension JSONValue.Object {
  /// The positions of the members of a large object, by name: made empty, and filled on the
  /// first lookup (decoding a document and writing it back looks nothing up).
  ///
  /// Copies of an object share its index until one of them changes; the lock makes the first
  /// lookups from several threads safe.
  typealias NameIndex = Locked<[String: Int]?>
}

extension Locked where State == [String: Int]? {
  /// The fewest members an object has to keep an index: smaller ones are searched in order.
  static var minimumCount: Int { 16 }

  /// An index that is filled on its first lookup.
  convenience init() {
    self.init(nil)
  }

  /// An index of known positions.
  convenience init(built positions: [String: Int]) {
    self.init(positions)
  }

  /// The position of the member named `name` among `members`, filling the index first if it
  /// is still empty.
  func position(of name: String, in members: [(name: String, value: JSONValue)]) -> Int? {
    withLock { positions in
      if let positions {
        return positions[name]
      }
      var built: [String: Int] = [:]
      built.reserveCapacity(members.count)
      for (position, member) in members.enumerated() {
        built[member.name] = position
      }
      positions = built
      return built[name]
    }
  }

  /// Notes a member added at `position`, when the index is filled.
  func insert(_ name: String, at position: Int) {
    withLock { positions in
      positions?[name] = position
    }
  }
}
