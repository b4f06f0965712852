/// The default ``EncodingBackend``: writes through the keyed containers of any `Encoder`.
@usableFromInline
final class ContainerEncodingBackend: EncodingBackend {
  /// The encoder of the run; an ``EndedEncoder`` while the run waits for reuse.
  #if DEBUG
    private var encoder: any Encoder
  #else
    @exclusivity(unchecked) private var encoder: any Encoder
  #endif
  // Read on every mapping; unchecked exclusivity in release builds only (see ``MappingRun``).
  #if DEBUG
    /// The mapped object, once open.
    @usableFromInline var root: EncodingContainerBox?
    /// The open nested objects by node; allocated on the first nested key path.
    @usableFromInline var nested: [EncodingContainerBox?] = []
  #else
    /// The mapped object, once open.
    @exclusivity(unchecked) @usableFromInline var root: EncodingContainerBox?
    /// The open nested objects by node; allocated on the first nested key path.
    @exclusivity(unchecked) @usableFromInline var nested: [EncodingContainerBox?] = []
  #endif

  init(_ encoder: any Encoder) {
    self.encoder = encoder
  }

  /// Points the backend at another encoder, for a run that reuses it (see ``RunPool``).
  func reset(encoder: any Encoder) {
    self.encoder = encoder
  }

  /// Lets go of the encoder and its containers when the run is kept for reuse.
  func end() {
    encoder = EndedEncoder()
    root = nil
    if !nested.isEmpty {
      nested.removeAllForReuse()
    }
  }

  var userInfo: [CodingUserInfoKey: Any] { encoder.userInfo }

  var codingPath: [any CodingKey] { encoder.codingPath }

  /// The encoder when it is a ``NodeEncoder``: the run writes a flat value of another run.
  var nodeEncoder: NodeEncoder? { encoder as? NodeEncoder }

  func prepare(for table: PathTable) {
    // Keyed containers take keys, not names: nothing to prepare.
  }

  func openRoot() {
    root = EncodingContainerBox(encoder.container(keyedBy: PathKey.self))
  }

  func openObject(_ node: Int, key: PathKey, in parent: Int) {
    guard let parentBox = box(parent) else { return }
    store(
      EncodingContainerBox(parentBox.container.nestedContainer(keyedBy: PathKey.self, forKey: key)),
      at: node)
  }

  func openArray(key: PathKey, in parent: Int) -> any UnkeyedEncodingContainer {
    guard let parentBox = box(parent) else { return encoder.unkeyedContainer() }
    return parentBox.container.nestedUnkeyedContainer(forKey: key)
  }

  func encode<Value: Encodable>(_ value: Value, forKey key: PathKey, in node: Int) throws {
    guard let box = box(node) else { throw notOpen(node) }
    try box.container.encodeValue(value, forKey: key)
  }

  func encodeNil(forKey key: PathKey, in node: Int) throws {
    guard let box = box(node) else { throw notOpen(node) }
    try box.container.encodeNil(forKey: key)
  }

  // MARK: - The fast path

  /// Writes the value of a mapping the plan resolved to a plain member: the fast path of
  /// ``EncodeRun/encode(_:_:)``, inlined into the model, where the container's concrete method
  /// for a standard type is called.
  ///
  /// - Returns: Whether the value was written; `false` when the mapping must take the general
  ///   path.
  /// - Throws: The encoder's error, with the full coding path.
  @inlinable
  func encodePlanned<Value: Encodable>(_ value: Value, _ member: PlainMember, in run: EncodeRun)
    throws -> Bool
  {
    guard let box = openContainer(member.parent) ?? run.openContainer(member.parent) else {
      return false
    }
    run.states[member.node] = .value
    do {
      try box.container.encodeValue(
        value, forKey: run.follower.entries[member.position].memberKey)
    } catch {
      throw run.withFullPath(error, below: member.parent)
    }
    return true
  }

  // MARK: - Containers

  /// The container of the object at `node`, if it is open: the fast path of ``EncodeRun``.
  @inlinable
  func openContainer(_ node: Int) -> EncodingContainerBox? {
    if node == 0 {
      return root
    }
    return node < nested.count ? nested[node] : nil
  }

  private func box(_ node: Int) -> EncodingContainerBox? {
    openContainer(node)
  }

  private func store(_ box: EncodingContainerBox, at node: Int) {
    if node >= nested.count {
      // Room for the nodes of a typical model at once, then doubling.
      let count = Swift.max(node + 1, nested.count * 2, 16)
      if nested.isEmpty {
        nested = Array(repeating: nil, count: count)
      } else {
        nested.append(contentsOf: repeatElement(nil, count: count - nested.count))
      }
    }
    nested[node] = box
  }

  /// The run opens every object before writing into it; reaching this is a bug, reported as an
  /// error rather than a trap.
  private func notOpen(_ node: Int) -> any Error {
    MappingErrors.internalInconsistency(
      "The object at node \(node) was written before it was opened.",
      codingPath: encoder.codingPath)
  }
}
