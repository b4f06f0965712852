/// The default ``DecodingBackend``: reads through the keyed containers of any `Decoder`.
///
/// Each object is opened once per run with `nestedContainer(keyedBy:forKey:)` and kept by node,
/// boxed so handing it out costs one retain (see ``DecodingContainerBox``). Values of the standard
/// scalar types are read with the containers' concrete methods, which coders implement faster
/// than the generic one.
@usableFromInline
final class ContainerDecodingBackend: DecodingBackend {
  /// The decoder of the run; an ``EndedDecoder`` while the run waits for reuse.
  #if DEBUG
    private var decoder: any Decoder
  #else
    @exclusivity(unchecked) private var decoder: any Decoder
  #endif
  // Read on every mapping; unchecked exclusivity in release builds only (see ``MappingRun``).
  #if DEBUG
    /// The mapped object, once open.
    @usableFromInline var root: DecodingContainerBox?
    /// The open nested objects by node; allocated on the first nested key path.
    @usableFromInline var nested: [DecodingContainerBox?] = []
  #else
    /// The mapped object, once open.
    @exclusivity(unchecked) @usableFromInline var root: DecodingContainerBox?
    /// The open nested objects by node; allocated on the first nested key path.
    @exclusivity(unchecked) @usableFromInline var nested: [DecodingContainerBox?] = []
  #endif

  init(_ decoder: any Decoder) {
    self.decoder = decoder
  }

  /// Points the backend at another decoder, for a run that reuses it (see ``RunPool``).
  func reset(decoder: any Decoder) {
    self.decoder = decoder
  }

  /// Lets go of the decoder and its containers when the run is kept for reuse.
  func end() {
    decoder = EndedDecoder()
    root = nil
    if !nested.isEmpty {
      nested.removeAllForReuse()
    }
  }

  var userInfo: [CodingUserInfoKey: Any] { decoder.userInfo }

  func prepare(for table: PathTable) {
    // Keyed containers are read member by member: nothing to prepare.
  }

  func openRoot() throws {
    root = DecodingContainerBox(try decoder.container(keyedBy: PathKey.self))
  }

  func openObject(_ node: Int, key: PathKey, in parent: Int) throws -> NodePresence {
    let parentBox = try box(parent)
    do {
      store(
        DecodingContainerBox(
          try parentBox.container.nestedContainer(keyedBy: PathKey.self, forKey: key)),
        at: node)
      return .object
    } catch {
      return try absence(of: key, in: parentBox.container, after: error)
    }
  }

  /// What a failure to open member `key` of `container` as an object shows: a missing member
  /// or `null`; any other error is thrown again.
  ///
  /// Out of line: a function that looks at a `DecodingError` (a resilient type) looks up its
  /// metadata when it starts, and ``openObject(_:key:in:)`` runs for every object on a key path.
  @inline(never)
  private func absence(
    of key: PathKey, in container: KeyedDecodingContainer<PathKey>, after error: any Error
  ) throws -> NodePresence {
    guard let decodingError = error as? DecodingError,
      let presence = absence(of: key, in: container, after: decodingError)
    else { throw error }
    return presence
  }

  func codingPath(ofOpen node: Int) -> [any CodingKey] {
    openContainer(node)?.container.codingPath ?? decoder.codingPath
  }

  func decode<Value: Decodable>(_ type: Value.Type, forKey key: PathKey, in node: Int) throws
    -> Value
  {
    try box(node).container.decodeValue(Value.self, forKey: key)
  }

  func decodeIfPresent<Value: Decodable>(
    _ type: Value.Type, forKey key: PathKey, in node: Int
  ) throws -> Value? {
    try box(node).container.decodeValueIfPresent(Value.self, forKey: key)
  }

  func isAbsent(_ key: PathKey, in node: Int) throws -> Bool {
    let box = try box(node)
    return try !box.container.contains(key) || box.container.decodeNil(forKey: key)
  }

  func presence(of key: PathKey, in node: Int) throws -> NodePresence {
    let box = try box(node)
    guard box.container.contains(key) else { return .missing }
    return try box.container.decodeNil(forKey: key) ? .null : .object
  }

  func elements(forKey key: PathKey, in node: Int) throws -> any UnkeyedDecodingContainer {
    try box(node).container.nestedUnkeyedContainer(forKey: key)
  }

  func memberKeys(in node: Int) -> [PathKey] {
    guard let box = try? box(node) else { return [] }
    return box.container.allKeys
  }

  func unmappedMembers(in node: Int, excluding excluded: Set<String>) throws
    -> [(name: String, value: JSONValue)]
  {
    try unmappedMembersByName(in: node, excluding: excluded)
  }

  func rootDecoder() -> any Decoder {
    decoder
  }

  // MARK: - The fast path

  /// Decodes the value of a mapping the plan resolved to a plain member: the fast path of
  /// ``DecodeRun/decode(_:_:required:)``, inlined into the model, where the container's
  /// concrete method for a standard type is called.
  ///
  /// - Returns: The value, or `nil` when it is absent and not required.
  /// - Throws: `DecodingError` with the full coding path, after the run's recovery.
  @inlinable
  func decodePlanned<Value: Decodable>(
    _ type: Value.Type, _ member: PlainMember, _ mapping: Mapping, in run: DecodeRun,
    required: Bool
  ) throws -> Value? {
    do {
      guard
        let box = try openContainer(member.parent)
          ?? run.openContainer(member.parent, for: mapping, required: required)
      else { return nil }
      let key = run.follower.entries[member.position].memberKey
      if required {
        return try box.container.decodeValue(Value.self, forKey: key)
      }
      return try box.container.decodeValueIfPresent(Value.self, forKey: key)
    } catch {
      return try run.recover(Value.self, planned: member.position, mapping, required, after: error)
    }
  }

  // MARK: - Containers

  /// The container of the object at `node`, if it is open: the fast path of ``DecodeRun``.
  @inlinable
  func openContainer(_ node: Int) -> DecodingContainerBox? {
    if node == 0 {
      return root
    }
    return node < nested.count ? nested[node] : nil
  }

  /// The container of the open object at `node`.
  private func box(_ node: Int) throws -> DecodingContainerBox {
    if let box = openContainer(node) {
      return box
    }
    // The run opens every object before reading from it; reaching this is a bug, reported as
    // an error rather than a trap.
    throw MappingErrors.internalInconsistency(
      "The object at node \(node) was read before it was opened.", codingPath: decoder.codingPath)
  }

  private func store(_ box: DecodingContainerBox, at node: Int) {
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

  /// Whether `error`, from opening member `key` of `container`, means the member is missing or
  /// `null`; `nil` when the member is there but not an object.
  private func absence(
    of key: PathKey, in container: KeyedDecodingContainer<PathKey>, after error: DecodingError
  ) -> NodePresence? {
    switch error {
    case .keyNotFound:
      return container.contains(key) ? nil : .missing
    case .valueNotFound:
      return .null
    case .typeMismatch:
      return (try? container.decodeNil(forKey: key)) == true ? .null : nil
    default:
      return nil
    }
  }
}
