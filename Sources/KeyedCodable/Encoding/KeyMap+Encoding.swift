extension KeyMap {
  /// Encodes `value` where `mapping` points.
  ///
  /// Inlined into the calling model: a plain member the plan expected is written right away,
  /// with the container's concrete method when its type is a standard one. Everything else goes
  /// through ``encodeUnplanned(_:_:)``.
  ///
  /// - Throws: `EncodingError.invalidValue` when the value cannot be written there without
  ///   losing data (see ``MappingErrors/Conflict``), and any error of the underlying encoder.
  @inlinable
  func encode<Value: Encodable>(_ value: Value, _ mapping: Mapping) throws {
    if recordsWrites {
      noteWriter(of: mapping)
    }
    guard mode == .encoding, let entry = mapping.entry, entry.isPlainMember,
      entry.valueType == ObjectIdentifier(Value.self)
    else {
      if mode == .encoding, case .member(let key) = mapping.pending {
        if !isStandardScalar(Value.self), isNone(value) {
          return
        }
        switch try claimMember(
          key, mapping, isScalar: isStandardScalar(Value.self), writing: value)
        {
        case .write(let box):
          do {
            return try box.container.encodeValue(value, forKey: key.codingKey)
          } catch {
            throw withFullPath(error, besides: key)
          }
        case .written:
          return
        case .merge:
          break
        }
      }
      return try encodeUnplanned(value, mapping)
    }
    if !isStandardScalar(Value.self) {
      if entry.valueIsOptional, isNilOptional(value) {
        return
      }
      if hasChildren(entry.node) {
        return try encodeResolved(value, at: entry.target)
      }
    }
    // A member of the mapped object itself, written for the first time: nothing to look up.
    if entry.parent == 0, !recordsWrites, let root = rootEncodingContainer,
      entry.node < encodingStates.count, encodingStates[entry.node] == .empty
    {
      encodingStates[entry.node] = .value
      return try root.container.encodeValue(value, forKey: entry.memberKey)
    }
    guard let box = try claimMember(entry.node, of: entry.parent, writing: value) else { return }
    try put(value, into: box, forKey: entry.memberKey, below: entry.parent)
  }

  /// Remembers which mapping writes next, for the message of a conflict between two writes.
  @usableFromInline
  func noteWriter(of mapping: Mapping) {
    activeWriter = mapping.keyDescription
  }

  /// What to do with the value of a mapping that names a member with a ``Key``.
  @usableFromInline
  enum MemberClaim {
    /// Write the value into this container, the member's parent.
    case write(EncodingContainerBox)
    /// An equal value is already there: write nothing.
    case written
    /// Other mappings continue below the member: merge the value's members into it.
    case merge
  }

  /// Claims the member a ``Key`` names.
  @usableFromInline
  func claimMember(
    _ key: Key, _ mapping: Mapping, isScalar: Bool, writing value: @autoclosure () -> any Encodable
  ) throws -> MemberClaim {
    try checkInUse(mapping)
    let parent = node(at: key.parentPath, hint: key.parentNode)
    let node = child(of: parent, key: key.codingKey)
    if !isScalar, hasChildren(node) {
      return .merge
    }
    guard let box = try claimMember(node, of: parent, writing: value()) else { return .written }
    return .write(box)
  }

  /// Whether `value` is an optional holding `nil`, whatever its static type.
  ///
  /// Remembers whether the last type seen is an `Optional`, so a run of values of one type
  /// (a dictionary written member by member) pays the dynamic type check once.
  @usableFromInline
  func isNone<Value>(_ value: Value) -> Bool {
    let type = ObjectIdentifier(Value.self)
    if type != lastCheckedType {
      lastCheckedType = type
      lastCheckedTypeIsOptional = Value.self is any OptionalValue.Type
    }
    return lastCheckedTypeIsOptional && isNilOptional(value)
  }

  /// An explicit `null`, as a value to compare with what another mapping wrote.
  private struct Null: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    }
  }

  /// Encodes a value whose mapping the plan did not resolve.
  @usableFromInline
  func encodeUnplanned<Value: Encodable>(_ value: Value, _ mapping: Mapping) throws {
    let target = try target(of: mapping, valueType: Value.self)
    guard mode == .encoding else { return }
    try encodeResolved(value, at: target)
  }

  /// Encodes a value at any target: flat values, values shared with other key paths, and plain
  /// members of any type.
  @usableFromInline
  func encodeResolved<Value: Encodable>(_ value: Value, at target: MappingTarget) throws {
    guard !isNone(value) else { return }
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

  /// Checks that nothing was written at `node` yet, marks it written and returns the container
  /// of its parent.
  ///
  /// - Returns: The container of `parent`, or `nil` when an equal value is already written at
  ///   `node` (two mappings of one key path, a nested value and one of its members): the value
  ///   is then written once.
  /// - Throws: `EncodingError.invalidValue` when `node` already holds a different value or
  ///   members, or when a key on the way to `parent` holds a value that is not an object.
  @usableFromInline
  func claimMember(
    _ node: Int, of parent: Int, writing value: @autoclosure () -> any Encodable
  ) throws -> EncodingContainerBox? {
    if node >= encodingStates.count {
      growEncodingStates()
    }
    guard encodingStates[node] == .empty else {
      if encodingStates[node] == .value, try isRepeat(of: value(), at: node) {
        return nil
      }
      throw conflict(
        encodingStates[node] == .value ? .duplicate : .valueOverMembers, writing: value(), at: node)
    }
    encodingStates[node] = .value
    if recordsWrites {
      writtenValues[node] = (try capture(value(), at: node), activeWriter)
    }
    if parent == 0, let root = rootEncodingContainer {
      return root
    }
    return try keyedEncodingContainer(at: parent, writing: value())
  }

  /// What `value` encodes as, written at `node`.
  private func capture(_ value: any Encodable, at node: Int) throws -> EncodedValue {
    try EncodedValue.capture(value, at: encodingPath(to: node), userInfo: userInfo)
  }

  /// Whether `value` is equal to what was written at `node` already.
  ///
  /// - Throws: `EncodingError.invalidValue` naming both mappings when the values differ.
  private func isRepeat(of value: any Encodable, at node: Int) throws -> Bool {
    guard let written = writtenValues[node] else { return false }
    let repeated = try capture(value, at: node)
    guard repeated != written.value else { return true }
    throw MappingErrors.differentValues(
      written.value, repeated, writers: (written.writer, activeWriter), value: value,
      codingPath: encodingPath(to: node), keyPath: names(to: node).joined(separator: "."))
  }

  /// Handles a mapping whose optional value is `nil`: nothing is written.
  ///
  /// - Throws: `EncodingError.invalidValue` when the mapping is required.
  @usableFromInline
  func encodeNil<Value>(_ type: Value.Type, _ mapping: Mapping, required: Bool) throws {
    let target = try target(of: mapping, valueType: Value.self)
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
    if hasChildren(node), !isStandardScalar(Value.self) {
      try encodeMerged(value, at: node)
      return
    }
    guard let container = try claimMember(node, of: parent, writing: value) else { return }
    try put(value, into: container, forKey: key, below: parent)
  }

  /// Writes `null` as member `key` of the object at `node`.
  func writeNil(forKey key: PathKey, of node: Int) throws {
    guard
      let container = try claimMember(child(of: node, key: key), of: node, writing: Null())
    else { return }
    try container.container.encodeNil(forKey: key)
  }

  /// Writes `value` in one piece at `node`, which a merged value asked for as a single value.
  func writeSingleValue<Value: Encodable>(_ value: Value, at node: Int) throws {
    guard node > 0 else { throw conflict(.flatValueNotKeyed, writing: value, at: node) }
    guard let container = try claimMember(node, of: parent(of: node), writing: value) else {
      return
    }
    try put(value, into: container, forKey: key(of: node), below: parent(of: node))
  }

  /// Writes `null` at `node`, which a merged value asked for as a single value.
  func writeSingleNil(at node: Int) throws {
    guard node > 0 else { throw conflict(.flatValueNotKeyed, writing: Null(), at: node) }
    guard let container = try claimMember(node, of: parent(of: node), writing: Null()) else {
      return
    }
    try container.container.encodeNil(forKey: key(of: node))
  }

  /// Encodes `value` through a ``NodeEncoder``, so its members join the object at `node`.
  private func encodeMerged<Value: Encodable>(_ value: Value, at node: Int) throws {
    let outer = pendingEncodingError
    pendingEncodingError = nil
    defer { pendingEncodingError = outer }
    do {
      try value.encode(to: NodeEncoder(map: self, node: node))
    } catch {
      throw node > 0 ? withFullPath(error, below: parent(of: node)) : error
    }
    if let error = pendingEncodingError {
      throw error
    }
  }

  // MARK: - Containers

  /// Opens the object at `node` for a merged value; a conflict is thrown when its mapping ends.
  func openObject(at node: Int) {
    do {
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
    if node >= encodingStates.count {
      growEncodingStates()
    }
    do {
      guard node > 0 else { throw conflict(.flatValueNotKeyed, writing: "an array", at: node) }
      switch encodingStates[node] {
      case .empty:
        let parentContainer = try keyedEncodingContainer(at: parent(of: node), writing: "an array")
        let array = parentContainer.container.nestedUnkeyedContainer(forKey: key(of: node))
        encodingStates[node] = .array
        encodingArrays[node] = array
        return array
      case .array:
        return encodingArrays[node]
      case .value:
        throw conflict(.duplicate, writing: "an array", at: node)
      case .object:
        throw conflict(.valueOverMembers, writing: "an array", at: node)
      }
    } catch {
      deferEncodingError(error)
      return nil
    }
  }

  /// Opens the mapped object's own container, so that a value whose optionals are all `nil`
  /// still encodes as an empty object, as synthesized `Codable` does.
  func openRootObject() throws {
    _ = try keyedEncodingContainer(at: 0, writing: "an object")
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

  /// Gives an error the underlying encoder threw below the object at `node` the full coding
  /// path from the root.
  ///
  /// Foundation's `JSONEncoder` leaves the keys of containers opened with
  /// `nestedContainer(keyedBy:forKey:)` out of the paths of the errors it throws (a `NaN` at
  /// `"a.b.c"` is reported at `["c"]`). When the error's path starts with the coder's own path
  /// but not with the path of `node`, the keys between them are put back. Errors whose path is
  /// already complete, and errors of any other kind, are returned unchanged.
  @usableFromInline
  func withFullPath(_ error: any Error, below node: Int) -> any Error {
    guard node > 0, case EncodingError.invalidValue(let value, let context) = error else {
      return error
    }
    let base = encoder?.codingPath ?? []
    let expected = base + path(to: node)
    let reported = context.codingPath
    guard reported.count > base.count, !startsWith(reported, expected), startsWith(reported, base)
    else { return error }
    return EncodingError.invalidValue(
      value,
      .init(
        codingPath: expected + reported[base.count...],
        debugDescription: context.debugDescription, underlyingError: context.underlyingError))
  }

  /// Writes `value` as member `key` of the object `box` holds, which is the object at `parent`;
  /// an error of the underlying encoder gets the full path (see ``withFullPath(_:below:)``).
  @inlinable
  func put<Value: Encodable>(
    _ value: Value, into box: EncodingContainerBox, forKey key: PathKey, below parent: Int
  ) throws {
    do {
      try box.container.encodeValue(value, forKey: key)
    } catch {
      throw withFullPath(error, below: parent)
    }
  }

  /// Gives an error the underlying encoder threw while writing the member `key` names the full
  /// coding path from the root (see ``withFullPath(_:below:)``).
  @usableFromInline
  func withFullPath(_ error: any Error, besides key: Key) -> any Error {
    withFullPath(error, below: node(at: key.parentPath, hint: key.parentNode))
  }

  /// Whether `path` begins with the keys of `prefix`.
  private func startsWith(_ path: [any CodingKey], _ prefix: [any CodingKey]) -> Bool {
    path.count >= prefix.count
      && zip(path, prefix).allSatisfy {
        $0.stringValue == $1.stringValue && $0.intValue == $1.intValue
      }
  }

  /// Makes room in ``encodingStates`` for the nodes this run added.
  private func growEncodingStates() {
    encodingStates.append(
      contentsOf: repeatElement(.empty, count: nodeCount - encodingStates.count))
  }

  private func conflict(
    _ conflict: MappingErrors.Conflict, writing value: Any, at node: Int
  ) -> EncodingError {
    MappingErrors.encoding(
      conflict, value: value, codingPath: encodingPath(to: node),
      keyPath: names(to: node).joined(separator: "."))
  }

  /// The container of the object at `node`, opening the objects on the way once.
  ///
  /// - Throws: `EncodingError.invalidValue` when a key on the way already holds a value that
  ///   is not an object.
  private func keyedEncodingContainer(
    at node: Int, writing value: @autoclosure () -> Any
  ) throws -> EncodingContainerBox {
    if node >= encodingStates.count {
      growEncodingStates()
    }
    if node == 0 {
      if let root = rootEncodingContainer {
        return root
      }
      guard let encoder else {
        throw EncodingError.invalidValue(
          "", .init(codingPath: [], debugDescription: "This key map is not encoding."))
      }
      let root = EncodingContainerBox(encoder.container(keyedBy: PathKey.self))
      rootEncodingContainer = root
      encodingStates[0] = .object
      return root
    }
    if node < nestedEncodingContainers.count, let container = nestedEncodingContainers[node] {
      return container
    }
    if nestedEncodingContainers.count < nodeCount {
      nestedEncodingContainers.append(
        contentsOf: repeatElement(nil, count: nodeCount - nestedEncodingContainers.count))
    }
    // Most key paths share their parent with an earlier mapping: open one level directly.
    let parentNode = parent(of: node)
    if encodingStates[node] == .empty,
      let parentContainer = parentNode == 0
        ? rootEncodingContainer : nestedEncodingContainers[parentNode]
    {
      return open(node, in: parentContainer)
    }
    var pending: [Int] = []
    var current = node
    while current > 0, encodingStates[current] != .object {
      guard encodingStates[current] == .empty else {
        throw conflict(.membersIntoValue, writing: value(), at: current)
      }
      pending.append(current)
      current = parent(of: current)
    }
    var container = try keyedEncodingContainer(at: current, writing: value())
    for member in pending.reversed() {
      container = open(member, in: container)
    }
    return container
  }

  /// Opens the object at `node`, a member of the object `parent` holds, and caches it.
  private func open(_ node: Int, in parent: EncodingContainerBox) -> EncodingContainerBox {
    let container = EncodingContainerBox(
      parent.container.nestedContainer(keyedBy: PathKey.self, forKey: key(of: node)))
    nestedEncodingContainers[node] = container
    encodingStates[node] = .object
    return container
  }
}
