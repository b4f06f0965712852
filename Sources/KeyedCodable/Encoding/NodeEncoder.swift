/// The encoder a value receives when its members join an object KeyedCodable writes.
///
/// Used for flat values (whose members join the mapped object) and for a value at a key path
/// that other mappings continue (`"user"` holding a struct while `"user.city"` is mapped too).
/// Every write goes back through the ``EncodeRun``, which opens each object once and throws instead
/// of overwriting when two writers claim the same key.
struct NodeEncoder: Encoder {
  let run: EncodeRun
  /// The node whose object receives the value's members.
  let node: Int

  var codingPath: [any CodingKey] { run.codingPath(to: node) }

  var userInfo: [CodingUserInfoKey: Any] { run.userInfo }

  func container<Member: CodingKey>(keyedBy type: Member.Type) -> KeyedEncodingContainer<Member> {
    run.openObjectForMerge(at: node)
    return KeyedEncodingContainer(NodeKeyedContainer<Member>(run: run, node: node))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    run.openArray(at: node) ?? RejectedArrayContainer(run: run, node: node)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    NodeSingleValueContainer(run: run, node: node)
  }
}

/// The members of a merged value, written into the object at a node.
struct NodeKeyedContainer<Member: CodingKey>: KeyedEncodingContainerProtocol {
  let run: EncodeRun
  let node: Int

  var codingPath: [any CodingKey] { run.codingPath(to: node) }

  mutating func encodeNil(forKey key: Member) throws {
    try run.writeNil(forKey: PathKey(key), of: node)
  }

  mutating func encode<Value: Encodable>(_ value: Value, forKey key: Member) throws {
    let key = PathKey(key)
    try run.write(value, at: run.follower.tree.child(of: node, key: key), parent: node, key: key)
  }

  mutating func nestedContainer<Nested: CodingKey>(
    keyedBy keyType: Nested.Type, forKey key: Member
  ) -> KeyedEncodingContainer<Nested> {
    NodeEncoder(run: run, node: run.follower.tree.child(of: node, key: PathKey(key))).container(
      keyedBy: Nested.self)
  }

  mutating func nestedUnkeyedContainer(forKey key: Member) -> any UnkeyedEncodingContainer {
    NodeEncoder(run: run, node: run.follower.tree.child(of: node, key: PathKey(key)))
      .unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    NodeSuperEncoder(run: run, node: run.follower.tree.child(of: node, key: .superKey))
  }

  mutating func superEncoder(forKey key: Member) -> any Encoder {
    NodeSuperEncoder(run: run, node: run.follower.tree.child(of: node, key: PathKey(key)))
  }
}

/// The super encoder of a merged value's keyed container: a ``NodeEncoder`` whose member is an
/// empty object when nothing is written through it, as Foundation's `JSONEncoder` writes one.
///
/// Foundation writes the empty object when its super encoder goes away; so does this one, from
/// its `deinit`, as if the value had asked it for a keyed container.
final class NodeSuperEncoder: Encoder {
  let run: EncodeRun
  /// The member's node.
  let node: Int
  /// Whether a container was asked for, or a single value written.
  fileprivate var isUsed = false

  init(run: EncodeRun, node: Int) {
    self.run = run
    self.node = node
  }

  var codingPath: [any CodingKey] { run.codingPath(to: node) }

  var userInfo: [CodingUserInfoKey: Any] { run.userInfo }

  func container<Member: CodingKey>(keyedBy type: Member.Type) -> KeyedEncodingContainer<Member> {
    isUsed = true
    return NodeEncoder(run: run, node: node).container(keyedBy: Member.self)
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    isUsed = true
    return NodeEncoder(run: run, node: node).unkeyedContainer()
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    NodeSuperValueContainer(owner: self)
  }

  deinit {
    if !isUsed {
      // A conflict is thrown when the mapping ends.
      run.openObjectForMerge(at: node)
    }
  }
}

/// The single value container of a ``NodeSuperEncoder``: a write marks the encoder used.
private struct NodeSuperValueContainer: SingleValueEncodingContainer {
  let owner: NodeSuperEncoder

  var codingPath: [any CodingKey] { owner.codingPath }

  mutating func encodeNil() throws {
    owner.isUsed = true
    try owner.run.writeSingleNil(at: owner.node)
  }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    owner.isUsed = true
    try owner.run.writeSingleValue(value, at: owner.node)
  }
}

/// A merged value encoded as one piece: written as the member at the node.
struct NodeSingleValueContainer: SingleValueEncodingContainer {
  let run: EncodeRun
  let node: Int

  var codingPath: [any CodingKey] { run.codingPath(to: node) }

  mutating func encodeNil() throws {
    try run.writeSingleNil(at: node)
  }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    try run.writeSingleValue(value, at: node)
  }
}

/// Stands in for an array that could not be opened; the reason is thrown when the mapping ends,
/// and again by every write.
struct RejectedArrayContainer: UnkeyedEncodingContainer {
  let run: EncodeRun
  let node: Int

  var codingPath: [any CodingKey] { run.codingPath(to: node) }

  var count: Int { 0 }

  mutating func encodeNil() throws {
    throw rejection
  }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    throw rejection
  }

  mutating func nestedContainer<Nested: CodingKey>(
    keyedBy keyType: Nested.Type
  ) -> KeyedEncodingContainer<Nested> {
    KeyedEncodingContainer(NodeKeyedContainer<Nested>(run: run, node: node))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    self
  }

  mutating func superEncoder() -> any Encoder {
    NodeEncoder(run: run, node: node)
  }

  private var rejection: any Error {
    run.pendingError ?? MappingErrors.arrayNotOpened(codingPath: codingPath)
  }
}
