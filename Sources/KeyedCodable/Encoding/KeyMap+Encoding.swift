extension KeyMap {
  /// Encodes `value` where `mapping` points.
  ///
  /// - Throws: `EncodingError.invalidValue` when the value cannot be written there without
  ///   losing data (see ``MappingErrors/Conflict``), and any error of the underlying encoder.
  func encode<Value: Encodable>(_ value: Value, _ mapping: Mapping) throws {
    let target = try target(of: mapping, for: Value.self)
    guard mode == .encoding, !isNilOptional(value) else { return }
    switch target {
    case .flat:
      try encodeMerged(value, at: 0)
    case .value(let parent, let node, let key, _):
      try write(value, at: node, parent: parent, key: key)
    case .container(let node):
      if node == 0 {
        try encodeMerged(value, at: 0)
      } else {
        try write(value, at: node, parent: parent(of: node), key: key(of: node))
      }
    }
  }

  /// Handles a mapping whose optional value is `nil`: nothing is written.
  ///
  /// - Throws: `EncodingError.invalidValue` when the mapping is required.
  func encodeNil<Value>(_ type: Value.Type, _ mapping: Mapping, required: Bool) throws {
    let target = try target(of: mapping, for: Value.self)
    guard mode == .encoding, required else { return }
    let node: Int
    switch target {
    case .flat: node = 0
    case .value(let parent, let member, _, _): node = member >= 0 ? member : parent
    case .container(let container): node = container
    }
    throw MappingErrors.encoding(
      .requiredValueMissing, value: Value?.none as Any, codingPath: encodingPath(to: node),
      keyPath: mapping.keyDescription)
  }

  // MARK: - Writing

  /// Writes `value` as member `key` of the object at `parent`; `node` is the member's node.
  ///
  /// A value at a key path that other mappings continue (`"user"` and `"user.city"`) is encoded
  /// member by member into the shared object, whatever order the mappings come in.
  func write<Value: Encodable>(_ value: Value, at node: Int, parent: Int, key: PathKey) throws {
    prepareEncodingSlots()
    if hasChildren(node), !isStandardScalar(Value.self) {
      try encodeMerged(value, at: node)
      return
    }
    try checkEmpty(node, writing: value)
    var container = try keyedEncodingContainer(at: parent, writing: value)
    try container.encodeValue(value, forKey: key)
    encodingSlots[node] = .value
  }

  /// Writes `null` as member `key` of the object at `node`.
  func writeNil(forKey key: PathKey, of node: Int) throws {
    let member = child(of: node, key: key)
    prepareEncodingSlots()
    try checkEmpty(member, writing: Any?.none as Any)
    var container = try keyedEncodingContainer(at: node, writing: Any?.none as Any)
    try container.encodeNil(forKey: key)
    encodingSlots[member] = .value
  }

  /// Writes `value` in one piece at `node`, which a merged value asked for as a single value.
  func writeSingleValue<Value: Encodable>(_ value: Value, at node: Int) throws {
    prepareEncodingSlots()
    guard node > 0 else { throw conflict(.flatValueNotKeyed, writing: value, at: node) }
    try checkEmpty(node, writing: value)
    var container = try keyedEncodingContainer(at: parent(of: node), writing: value)
    try container.encodeValue(value, forKey: key(of: node))
    encodingSlots[node] = .value
  }

  /// Writes `null` at `node`, which a merged value asked for as a single value.
  func writeSingleNil(at node: Int) throws {
    prepareEncodingSlots()
    guard node > 0 else { throw conflict(.flatValueNotKeyed, writing: Any?.none as Any, at: node) }
    try checkEmpty(node, writing: Any?.none as Any)
    var container = try keyedEncodingContainer(at: parent(of: node), writing: Any?.none as Any)
    try container.encodeNil(forKey: key(of: node))
    encodingSlots[node] = .value
  }

  /// Encodes `value` through a ``NodeEncoder``, so its members join the object at `node`.
  private func encodeMerged<Value: Encodable>(_ value: Value, at node: Int) throws {
    let outer = pendingEncodingError
    pendingEncodingError = nil
    defer { pendingEncodingError = outer }
    try value.encode(to: NodeEncoder(map: self, node: node))
    if let error = pendingEncodingError {
      throw error
    }
  }

  // MARK: - Containers

  /// Opens the object at `node` for a merged value; a conflict is thrown when its mapping ends.
  func openObject(at node: Int) {
    do {
      prepareEncodingSlots()
      _ = try keyedEncodingContainer(at: node, writing: "an object")
    } catch {
      deferEncodingError(error)
    }
  }

  /// Opens an array at `node` for a merged value.
  ///
  /// - Returns: The array's container, or `nil` after a conflict, which is thrown when the
  ///   mapping ends.
  func openArray(at node: Int) -> (any UnkeyedEncodingContainer)? {
    prepareEncodingSlots()
    do {
      guard node > 0 else { throw conflict(.flatValueNotKeyed, writing: "an array", at: node) }
      switch encodingSlots[node] {
      case .empty:
        var parentContainer = try keyedEncodingContainer(at: parent(of: node), writing: "an array")
        let array = parentContainer.nestedUnkeyedContainer(forKey: key(of: node))
        encodingSlots[node] = .unkeyed(array)
        return array
      case .unkeyed(let array):
        return array
      case .value:
        throw conflict(.duplicate, writing: "an array", at: node)
      case .keyed:
        throw conflict(.valueOverMembers, writing: "an array", at: node)
      }
    } catch {
      deferEncodingError(error)
      return nil
    }
  }

  /// Opens the mapped object's own container if no mapping wrote to it, so that a value whose
  /// optionals are all `nil` still encodes as an empty object, as synthesized `Codable` does.
  func openRootObject() throws {
    prepareEncodingSlots()
    _ = try rootEncodingContainer()
  }

  /// Keeps the first error met where the Codable API cannot throw.
  func deferEncodingError(_ error: any Error) {
    if pendingEncodingError == nil {
      pendingEncodingError = error
    }
  }

  /// The full coding path of `node`.
  func encodingPath(to node: Int) -> [any CodingKey] {
    (encoder?.codingPath ?? []) + path(to: node)
  }

  private func prepareEncodingSlots() {
    if encodingSlots.count < nodeCount {
      encodingSlots.append(
        contentsOf: repeatElement(.empty, count: nodeCount - encodingSlots.count))
    }
  }

  /// Throws unless nothing was written at `node` yet.
  private func checkEmpty(_ node: Int, writing value: Any) throws {
    switch encodingSlots[node] {
    case .empty: return
    case .value: throw conflict(.duplicate, writing: value, at: node)
    case .keyed, .unkeyed: throw conflict(.valueOverMembers, writing: value, at: node)
    }
  }

  private func conflict(
    _ conflict: MappingErrors.Conflict, writing value: Any, at node: Int
  ) -> EncodingError {
    MappingErrors.encoding(
      conflict, value: value, codingPath: encodingPath(to: node),
      keyPath: names(to: node).joined(separator: "."))
  }

  /// The keyed container of the mapped object itself.
  private func rootEncodingContainer() throws -> KeyedEncodingContainer<PathKey> {
    if case .keyed(let container) = encodingSlots[0] {
      return container
    }
    guard let encoder else {
      throw EncodingError.invalidValue(
        "", .init(codingPath: [], debugDescription: "This key map is not encoding."))
    }
    let container = encoder.container(keyedBy: PathKey.self)
    encodingSlots[0] = .keyed(container)
    return container
  }

  /// The container of the object at `node`, opening the objects on the way once.
  ///
  /// - Throws: `EncodingError.invalidValue` when a key on the way already holds a value that
  ///   is not an object.
  private func keyedEncodingContainer(
    at node: Int, writing value: @autoclosure () -> Any
  ) throws -> KeyedEncodingContainer<PathKey> {
    if case .keyed(let container) = encodingSlots[node] {
      return container
    }
    var pending: [Int] = []
    var current = node
    while current > 0 {
      if case .keyed = encodingSlots[current] { break }
      guard case .empty = encodingSlots[current] else {
        throw conflict(.membersIntoValue, writing: value(), at: current)
      }
      pending.append(current)
      current = parent(of: current)
    }
    var container: KeyedEncodingContainer<PathKey>
    if current == 0 {
      container = try rootEncodingContainer()
    } else if case .keyed(let opened) = encodingSlots[current] {
      container = opened
    } else {
      container = try rootEncodingContainer()
    }
    for member in pending.reversed() {
      container = container.nestedContainer(keyedBy: PathKey.self, forKey: key(of: member))
      encodingSlots[member] = .keyed(container)
    }
    return container
  }
}
