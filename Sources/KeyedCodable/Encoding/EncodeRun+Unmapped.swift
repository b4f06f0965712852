extension EncodeRun {
  /// Writes `members` as members of the object of `unmapped`, after what the mappings before
  /// it wrote (see ``UnmappedMembers``).
  ///
  /// Nothing is written, and no object opened, for no members. On the JSON coder, a run that
  /// holds its writes (see ``MappingPlan/streamRanks``) holds these too, in the place of the
  /// mapping's plan entry.
  ///
  /// - Throws: `EncodingError.invalidValue` with the full coding path when a member is also
  ///   written by a mapping, and the encoder's error for a member it can't write.
  func encodeUnmapped(
    _ members: [(name: String, value: JSONValue)], _ unmapped: UnmappedMembers
  ) throws {
    let keyPath = MappingErrors.unmappedName(unmapped.key)
    guard !isFinished else {
      throw MappingErrors.usedAfterRun(keyPath, decoding: false)
    }
    // A key selection names the keys to write: kept members are not among them.
    if selection != nil {
      return
    }
    let (node, position) = follower.unmappedNode(unmapped.key, unmapped.options)
    let scope = UnmappedScope(node: node, key: unmapped.key, tree: follower.tree)
    unmappedMarks.append(
      UnmappedMark(scope: scope, snapshot: follower.snapshot(pendingKeys: pendingKeys.count)))
    guard backend != nil, !members.isEmpty else { return }
    // A mapping for the messages and the order of held writes: the plan's entry when there is
    // one, otherwise a mapping without a key of its own.
    let mapping =
      position.map { Mapping(map: unmapped.map, entryAt: $0) }
      ?? Mapping(map: unmapped.map, pendingReference: Int.min)
    do {
      try absorbKeyPathsAfterLeavingThePlan()
      if defersWrites {
        return deferWrite(mapping) { run in
          try run.writeUnmapped(members, at: node, key: unmapped.key)
        }
      }
      try writeUnmapped(members, at: node, key: unmapped.key)
    } catch {
      throw MappingErrors.noted(error, model: model, expected: nil, keyPath: keyPath)
    }
  }

  /// Writes `members` into the object at `node`.
  ///
  /// Each name is checked against what the mappings wrote first (one lookup per member), so
  /// that nothing is written when one conflicts.
  private func writeUnmapped(
    _ members: [(name: String, value: JSONValue)], at node: Int, key: String
  ) throws {
    var skipped: Int?
    for (index, (name, value)) in members.enumerated() {
      guard let member = follower.tree.existingChild(of: node, named: name),
        member < states.count, states[member] != .empty
      else { continue }
      // The type member of a polymorphic value, written by the type registry: the same name
      // is kept, which is no conflict.
      if member == typeMemberNode, let typeName = typeNameWritten(at: member),
        value == .string(typeName)
      {
        skipped = index
        continue
      }
      throw MappingErrors.unmappedConflict(
        name, key: key, value: value, codingPath: codingPath(to: member))
    }
    guard let backend else { return }
    try openObject(at: node, writing: JSONValue.object(JSONValue.Object()))
    for (index, (name, value)) in members.enumerated() where index != skipped {
      do {
        try backend.encode(value, forKey: PathKey(name), in: node)
      } catch {
        throw withFullPath(error, below: node)
      }
    }
  }
}
