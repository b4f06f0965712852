extension KeyMap {
  /// The type recorded for `keys.all(for:)` entries, which list members instead of mapping a value.
  private struct MemberListing {}

  // MARK: - Mapping targets

  /// Where `mapping` reads or writes a value of type `Value`.
  ///
  /// A mapping the plan expects costs a comparison of its key string; any other key is parsed
  /// here, and recorded when this run makes a new plan.
  ///
  /// - Throws: An error when the key map is used after its `map(map:)` returned.
  func target<Value>(of mapping: Mapping, for valueType: Value.Type) throws -> MappingTarget {
    try checkInUse(mapping)
    switch mapping.address {
    case .member(let key):
      return memberTarget(key)
    case .name(let name):
      let typeID = ObjectIdentifier(Value.self)
      if let target = plannedTarget(name, options: mapping.options, valueType: typeID) {
        return target
      }
      let parsed = ParsedKey(name, options: mapping.options)
      let target: MappingTarget
      if parsed.isFlat {
        target = .flat
      } else if let lossySegments = parsed.lossySegments, Value.self is any ArrayValue.Type {
        target = valueTarget(lossySegments, lossy: true)
      } else {
        target = valueTarget(parsed.segments, lossy: false)
      }
      record(name, options: mapping.options, valueType: typeID, target: target)
      return target
    }
  }

  /// The node of the object whose members `mapping` lists (`0` for the mapped object itself).
  func containerNode(of mapping: Mapping) throws -> Int {
    try checkInUse(mapping)
    switch mapping.address {
    case .member(let key):
      let parent = node(at: key.parentPath, hint: key.parentNode)
      return child(of: parent, key: key.codingKey)
    case .name(let name):
      let typeID = ObjectIdentifier(MemberListing.self)
      if case .container(let node) = plannedTarget(
        name, options: mapping.options, valueType: typeID)
      {
        return node
      }
      let parsed = ParsedKey(name, options: mapping.options)
      let node = parsed.isFlat ? 0 : node(at: parsed.segments, hint: -1)
      record(name, options: mapping.options, valueType: typeID, target: .container(node: node))
      return node
    }
  }

  /// The target the plan recorded for this mapping, if the plan expects it.
  ///
  /// Tries the next entry first, then the first entry with the same key (after a branch the
  /// first run did not take, the run continues in step with the plan from there).
  private func plannedTarget(
    _ name: String, options: KeyOptions, valueType: ObjectIdentifier
  ) -> MappingTarget? {
    guard let plan else { return nil }
    let entries = plan.entries
    if cursor < entries.count,
      entries[cursor].matches(key: name, options: options, valueType: valueType)
    {
      cursor += 1
      recorded?.append(entries[cursor - 1])
      return entries[cursor - 1].target
    }
    diverged = true
    guard let position = plan.entryIndex[name],
      entries[position].matches(key: name, options: options, valueType: valueType)
    else { return nil }
    cursor = position + 1
    recorded?.append(entries[position])
    return entries[position].target
  }

  private func record(
    _ name: String, options: KeyOptions, valueType: ObjectIdentifier, target: MappingTarget
  ) {
    recorded?.append(PlanEntry(key: name, options: options, valueType: valueType, target: target))
  }

  /// The target of member `segments.last` of the object at the other segments.
  private func valueTarget(_ segments: [String], lossy: Bool) -> MappingTarget {
    let parent = node(at: segments.dropLast(), hint: -1)
    let key = PathKey(segments.last ?? "")
    let node = child(of: parent, key: key)
    return .value(parent: parent, node: node, key: key, lossy: lossy)
  }

  /// The target of a ``Key``: exactly the member it names.
  private func memberTarget(_ key: Key) -> MappingTarget {
    let parent = node(at: key.parentPath, hint: key.parentNode)
    let codingKey = key.codingKey
    // Decoding reads a member by its parent's container alone; only writes need the member's node.
    let node = isDecoding ? -1 : child(of: parent, key: codingKey)
    return .value(parent: parent, node: node, key: codingKey, lossy: false)
  }

  private func checkInUse(_ mapping: Mapping) throws {
    guard isFinished else { return }
    let description =
      "The key map for \"\(mapping.keyDescription)\" was used after the map(map:) call it was "
      + "passed to returned; a KeyMap is only valid during that call."
    if isDecoding {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: description))
    }
    throw EncodingError.invalidValue(
      mapping.keyDescription, .init(codingPath: [], debugDescription: description))
  }

  // MARK: - Nodes

  /// The number of nodes known to this run.
  var nodeCount: Int { local.end }

  /// The parent of `node`.
  func parent(of node: Int) -> Int {
    base.holds(node) ? base.parent(of: node) : local.parent(of: node)
  }

  /// The member name of `node`.
  func key(of node: Int) -> PathKey {
    base.holds(node) ? base.key(of: node) : local.key(of: node)
  }

  /// Whether any known key path continues below `node`.
  func hasChildren(_ node: Int) -> Bool {
    if base.holds(node) {
      return base.hasChildren(node) || local.adoptedParents.contains(node)
    }
    return local.holds(node) && local.hasChildren(node)
  }

  /// The node for member `key` of `parent`, added to this run's table if no table has it.
  func child(of parent: Int, key: PathKey) -> Int {
    if let node = base.child(of: parent, named: key.stringValue)
      ?? local.child(of: parent, named: key.stringValue)
    {
      return node
    }
    return local.add(key, to: parent)
  }

  /// The node at the end of `path`, starting from the mapped object.
  ///
  /// `hint` is a node that may already be the answer (from a ``Key``); it is checked against
  /// `path` before it is used.
  func node(at path: some Collection<String>, hint: Int) -> Int {
    if hint >= 0, hint < nodeCount, isNode(hint, at: path) {
      return hint
    }
    var node = 0
    for name in path {
      node = child(of: node, key: PathKey(name))
    }
    return node
  }

  private func isNode(_ node: Int, at path: some Collection<String>) -> Bool {
    var current = node
    for name in path.reversed() {
      guard current > 0, key(of: current).stringValue == name else { return false }
      current = parent(of: current)
    }
    return current == 0
  }

  /// The member names from the mapped object down to `node`.
  func names(to node: Int) -> [String] {
    path(to: node).map(\.stringValue)
  }

  /// The coding keys from the mapped object down to `node`.
  func path(to node: Int) -> [PathKey] {
    var keys: [PathKey] = []
    var current = node
    while current > 0 {
      keys.append(key(of: current))
      current = parent(of: current)
    }
    return keys.reversed()
  }

  // MARK: - Finishing

  /// Ends the run: publishes the plan it recorded, or marks its plan unstable if it diverged.
  ///
  /// - Parameter publishing: Whether the run completed, so what it learned can be shared. A run
  ///   that threw may have stopped before its last mappings.
  /// - Returns: The plan this run recorded, if it recorded one.
  @discardableResult
  func finish(publishing: Bool) -> MappingPlan? {
    isFinished = true
    guard publishing else { return nil }
    guard let recorded else {
      if diverged, !isDecoding, let plan, plan.isStable {
        PlanRegistry.shared.publish(
          plan.unstable(), for: modelType, decoding: false, replacing: plan)
      }
      return nil
    }
    var table = base
    table.append(local)
    let made = MappingPlan(entries: recorded, table: table, isStable: plan?.isStable ?? true)
    if plan == nil {
      PlanRegistry.shared.publish(made, for: modelType, decoding: isDecoding, replacing: nil)
    }
    return made
  }
}
