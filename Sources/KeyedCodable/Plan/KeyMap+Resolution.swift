extension KeyMap {
  /// The type recorded for `keys.all(for:)` entries, which list members instead of mapping a value.
  private struct MemberListing {}

  // MARK: - Making mappings

  /// The mapping for `name` with the default options.
  ///
  /// When the plan expects this key next, the mapping carries the plan's entry and the operator
  /// that uses it needs no lookup at all.
  @usableFromInline
  func mapping(named name: String) -> Mapping {
    if let entry = nextPlannedEntry(), entry.hasDefaultOptions, entry.key == name {
      cursor += 1
      return Mapping(map: self, entry: entry)
    }
    return Mapping(map: self, pending: .name(name, .default))
  }

  /// The mapping for `name` read with `options`.
  @usableFromInline
  func mapping(named name: String, options: KeyOptions) -> Mapping {
    if let entry = nextPlannedEntry(), entry.key == name, entry.options == options {
      cursor += 1
      return Mapping(map: self, entry: entry)
    }
    return Mapping(map: self, pending: .name(name, options))
  }

  /// The entry the plan expects next, unless this run records (and so needs every value type).
  private func nextPlannedEntry() -> PlanEntry? {
    guard cursor < plannedLimit else { return nil }
    return entries[cursor]
  }

  // MARK: - Mapping targets

  /// Where `mapping` reads or writes a value of type `valueType`.
  ///
  /// A mapping the plan expected was resolved when it was made; any other key is looked up in
  /// the plan again, or parsed, and recorded when this run makes a new plan.
  ///
  /// - Throws: An error when the key map is used after its `map(map:)` returned.
  @usableFromInline
  func target(of mapping: Mapping, valueType: Any.Type) throws -> MappingTarget {
    try checkInUse(mapping)
    switch mapping.pending {
    case .none:
      guard let entry = mapping.entry else { return .flat }
      if entry.valueType == ObjectIdentifier(valueType) {
        return entry.target
      }
      diverged = true
      return resolve(entry.key, entry.options, valueType: valueType)
    case .member(let key):
      return memberTarget(key)
    case .name(let name, let options):
      return resolve(name, options, valueType: valueType)
    }
  }

  /// The target of a key string, from the plan or parsed now.
  private func resolve(_ name: String, _ options: KeyOptions, valueType: Any.Type) -> MappingTarget
  {
    if let entry = plannedEntry(name, options, valueType: ObjectIdentifier(valueType)) {
      return entry.target
    }
    let parsed = ParsedKey(name, options: options)
    let target: MappingTarget
    if parsed.isFlat {
      target = .flat
    } else if let lossySegments = parsed.lossySegments, valueType is any ArrayValue.Type {
      target = valueTarget(lossySegments, lossy: true)
    } else {
      target = valueTarget(parsed.segments, lossy: false)
    }
    recorded?.append(PlanEntry(key: name, options: options, valueType: valueType, target: target))
    return target
  }

  /// The node of the object whose members `mapping` lists (`0` for the mapped object itself).
  func containerNode(of mapping: Mapping) throws -> Int {
    try checkInUse(mapping)
    if case .member(let key) = mapping.pending {
      let parent = node(at: key.parentPath, hint: key.parentNode)
      return child(of: parent, key: key.codingKey)
    }
    if let entry = mapping.entry, case .container(let node) = entry.target {
      return node
    }
    guard case .name(let name) = mapping.address else { return 0 }
    let options = mapping.options
    let listing = MemberListing.self
    if let entry = plannedEntry(name, options, valueType: ObjectIdentifier(listing)),
      case .container(let node) = entry.target
    {
      return node
    }
    let parsed = ParsedKey(name, options: options)
    let node = parsed.isFlat ? 0 : node(at: parsed.segments, hint: -1)
    recorded?.append(
      PlanEntry(key: name, options: options, valueType: listing, target: .container(node: node)))
    return node
  }

  /// The plan's entry for this mapping, if the plan expects it.
  ///
  /// Tries the next entry first, then the first entry with the same key (after a branch the
  /// first run did not take, the run continues in step with the plan from there).
  private func plannedEntry(
    _ name: String, _ options: KeyOptions, valueType: ObjectIdentifier
  ) -> PlanEntry? {
    guard let plan else { return nil }
    let entries = plan.entries
    var position = cursor
    if position >= entries.count || !entries[position].matches(name, options, valueType: valueType)
    {
      diverged = true
      guard let found = plan.entryIndex[name],
        entries[found].matches(name, options, valueType: valueType)
      else { return nil }
      position = found
    }
    cursor = position + 1
    let entry = entries[position]
    recorded?.append(entry)
    return entry
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

  func checkInUse(_ mapping: Mapping) throws {
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
  var nodeCount: Int { local?.end ?? base.end }

  /// The parent of `node`.
  func parent(of node: Int) -> Int {
    if base.holds(node) { return base.parent(of: node) }
    return local?.parent(of: node) ?? 0
  }

  /// The member name of `node`.
  func key(of node: Int) -> PathKey {
    if base.holds(node) { return base.key(of: node) }
    return local?.key(of: node) ?? .empty
  }

  /// Whether any known key path continues below `node`.
  @usableFromInline
  func hasChildren(_ node: Int) -> Bool {
    if base.holds(node) {
      return base.hasChildren(node) || local?.adoptedParents.contains(node) == true
    }
    guard let local, local.holds(node) else { return false }
    return local.hasChildren(node)
  }

  /// The node for member `key` of `parent`, added to this run's table if no table has it.
  func child(of parent: Int, key: PathKey) -> Int {
    if let node = base.child(of: parent, named: key.stringValue)
      ?? local?.child(of: parent, named: key.stringValue)
    {
      return node
    }
    if let local {
      return local.add(key, to: parent)
    }
    let table = PathTable(continuing: base)
    local = table
    return table.add(key, to: parent)
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

  /// Runs one `map(map:)` call with this key map and ends the run.
  ///
  /// - Parameter mapping: The call, given this key map.
  /// - Returns: The plan the run recorded, if it recorded one.
  /// - Throws: The error of the call; a run that throws shares nothing it learned.
  @discardableResult
  func run(_ mapping: (KeyMap) throws -> Void) throws -> MappingPlan? {
    do {
      try mapping(self)
    } catch {
      finish(publishing: false)
      throw error
    }
    return finish(publishing: true)
  }

  /// Ends the run: publishes the plan it recorded, or marks its plan unstable if it diverged.
  ///
  /// - Parameter publishing: Whether the run completed, so what it learned can be shared. A run
  ///   that threw may have stopped before its last mappings.
  /// - Returns: The plan this run recorded, if it recorded one.
  @discardableResult
  func finish(publishing: Bool) -> MappingPlan? {
    isFinished = true
    plannedLimit = 0
    guard publishing else { return nil }
    guard let recorded else {
      if diverged, !isDecoding, let plan, plan.isStable {
        PlanRegistry.shared.publish(
          plan.unstable(), for: modelType, decoding: false, replacing: plan)
      }
      return nil
    }
    let table = PathTable(base, followedBy: local)
    let made = MappingPlan(entries: recorded, table: table, isStable: plan?.isStable ?? true)
    if plan == nil {
      PlanRegistry.shared.publish(made, for: modelType, decoding: isDecoding, replacing: nil)
    }
    return made
  }
}
