extension KeyMap {
  /// Decodes the value `mapping` points at.
  ///
  /// Inlined into the calling model: a plain member the plan expected is read right away, with
  /// the container's concrete method when its type is a standard one. Everything else goes
  /// through ``decodeUnplanned(_:_:required:)``.
  ///
  /// - Parameters:
  ///   - type: The type of the value.
  ///   - mapping: The mapping.
  ///   - required: Whether a missing key or `null` throws; otherwise it gives `nil`.
  /// - Returns: The value, or `nil` when it is absent and not required.
  /// - Throws: `DecodingError` with the full coding path.
  @inlinable
  func decode<Value: Decodable>(
    _ type: Value.Type, _ mapping: Mapping, required: Bool
  ) throws -> Value? {
    guard let entry = mapping.entry, entry.isPlainMember,
      entry.valueType == ObjectIdentifier(Value.self)
    else {
      if case .member(let key) = mapping.pending {
        return try decodeMember(Value.self, key, mapping, required: required)
      }
      return try decodeUnplanned(Value.self, mapping, required: required)
    }
    do {
      let box: DecodingContainerBox
      if entry.parent == 0, let root = rootDecodingContainer {
        box = root
      } else if entry.parent < decodingSlots.count,
        case .open(let open) = decodingSlots[entry.parent]
      {
        box = open
      } else if let container = try decodingContainer(at: entry.parent, mapping, required: required)
      {
        box = container
      } else {
        return nil
      }
      if required {
        return try box.container.decodeValue(Value.self, forKey: entry.memberKey)
      }
      return try box.container.decodeValueIfPresent(Value.self, forKey: entry.memberKey)
    } catch  where required {
      return try decodeAsOptional(Value.self, at: entry.target, mapping, after: error)
    }
  }

  /// Decodes the member a ``Key`` names.
  @inlinable
  func decodeMember<Value: Decodable>(
    _ type: Value.Type, _ key: Key, _ mapping: Mapping, required: Bool
  ) throws -> Value? {
    do {
      guard let box = try memberContainer(of: key, mapping, required: required) else {
        return nil
      }
      if required {
        return try box.container.decodeValue(Value.self, forKey: key.codingKey)
      }
      return try box.container.decodeValueIfPresent(Value.self, forKey: key.codingKey)
    } catch  where required {
      return try decodeUnplannedAsOptional(Value.self, mapping, after: error)
    }
  }

  /// Retries a required decode of an unplanned mapping that failed, for a `Value` that is an
  /// `Optional` after all.
  @usableFromInline
  func decodeUnplannedAsOptional<Value: Decodable>(
    _ type: Value.Type, _ mapping: Mapping, after error: any Error
  ) throws -> Value? {
    guard let optionalType = Value.self as? any OptionalValue.Type else { throw error }
    let value = try decodeUnplanned(Value.self, mapping, required: false)
    return value ?? optionalType.noneValue as? Value
  }

  /// The container of the object holding the member a ``Key`` names.
  @usableFromInline
  func memberContainer(
    of key: Key, _ mapping: Mapping, required: Bool
  ) throws -> DecodingContainerBox? {
    try checkInUse(mapping)
    return try decodingContainer(
      at: node(at: key.parentPath, hint: key.parentNode), mapping, required: required)
  }

  /// Decodes a value whose mapping the plan did not resolve: the first run of a type, keys from
  /// ``KeysCollection``, flat values and lossy arrays.
  @usableFromInline
  func decodeUnplanned<Value: Decodable>(
    _ type: Value.Type, _ mapping: Mapping, required: Bool
  ) throws -> Value? {
    let target = try target(of: mapping, valueType: Value.self)
    do {
      return try decodeResolved(Value.self, at: target, mapping, required: required)
    } catch  where required {
      return try decodeAsOptional(Value.self, at: target, mapping, after: error)
    }
  }

  /// Retries a required decode that failed, for a `Value` that is an `Optional` after all (a
  /// generic caller's `T == U?`): such storage is optional, absent values give `nil`.
  @usableFromInline
  func decodeAsOptional<Value: Decodable>(
    _ type: Value.Type, at target: MappingTarget, _ mapping: Mapping, after error: any Error
  ) throws -> Value? {
    guard let optionalType = Value.self as? any OptionalValue.Type else { throw error }
    let value = try decodeResolved(Value.self, at: target, mapping, required: false)
    return value ?? optionalType.noneValue as? Value
  }

  /// Decodes the value at any target: flat values, lossy arrays and plain members.
  @usableFromInline
  func decodeResolved<Value: Decodable>(
    _ type: Value.Type, at target: MappingTarget, _ mapping: Mapping, required: Bool
  ) throws -> Value? {
    switch target {
    case .flat:
      return try decodeFlat(Value.self, required: required)
    case .value(let parent, _, let key, let lossy):
      guard let container = try decodingContainer(at: parent, mapping, required: required) else {
        return nil
      }
      if lossy, let arrayType = Value.self as? any LossyDecodableArray.Type {
        return try decodeLossy(
          arrayType, as: Value.self, from: container.container, key, required: required)
      }
      if required {
        return try container.container.decodeValue(Value.self, forKey: key)
      }
      return try container.container.decodeValueIfPresent(Value.self, forKey: key)
    case .container(let node):
      guard node > 0 else { return try decodeFlat(Value.self, required: required) }
      let target = MappingTarget.value(
        parent: parent(of: node), node: node, key: key(of: node), lossy: false)
      return try decodeResolved(Value.self, at: target, mapping, required: required)
    }
  }

  /// Decodes a value from the members of the mapped object itself.
  ///
  /// An optional flat value is `nil` when none of the members it reads holds a value, when a
  /// member it needs is missing or `null`, and when the mapped object itself is `null`; so `nil`
  /// encodes to nothing and decodes back to `nil`.
  private func decodeFlat<Value: Decodable>(_ type: Value.Type, required: Bool) throws -> Value? {
    let decoder = try currentDecoder()
    guard !required else { return try Value(from: decoder) }
    let presence = Presence()
    do {
      let value = try Value(from: PresenceTrackingDecoder(base: decoder, presence: presence))
      return presence.found ? value : nil
    } catch DecodingError.keyNotFound, DecodingError.valueNotFound {
      return nil
    }
  }

  /// Decodes an array, dropping the elements that fail to decode.
  private func decodeLossy<Elements: LossyDecodableArray, Value>(
    _ arrayType: Elements.Type, as valueType: Value.Type,
    from container: KeyedDecodingContainer<PathKey>,
    _ key: PathKey, required: Bool
  ) throws -> Value? {
    if !required {
      guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
    }
    var elements = try container.nestedUnkeyedContainer(forKey: key)
    return try Elements.decodeDroppingInvalidElements(from: &elements) as? Value
  }

  // MARK: - Member listing

  /// The members of the object `mapping` points at, or of the mapped object when it is `nil`.
  ///
  /// Returns no keys when there is no object there, or when the key map is not decoding.
  func memberKeys(of mapping: Mapping?) -> [Key] {
    guard isDecoding else { return [] }
    do {
      let node = try mapping.map(containerNode(of:)) ?? 0
      guard let container = try decodingContainer(at: node, mapping, required: false) else {
        return []
      }
      let parentPath = names(to: node)
      return container.container.allKeys.map {
        Key(member: $0, parentPath: parentPath, parentNode: node)
      }
    } catch {
      // Not an object (or a key map used too late): `all(for:)` lists what it can read.
      return []
    }
  }

  // MARK: - Containers

  /// The decoder of the mapped object.
  private func currentDecoder() throws -> any Decoder {
    guard let decoder else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: [], debugDescription: "This key map is not decoding."))
    }
    return decoder
  }

  /// The keyed container of the mapped object itself.
  private func rootContainer() throws -> DecodingContainerBox {
    if let container = rootDecodingContainer {
      return container
    }
    let container = DecodingContainerBox(try currentDecoder().container(keyedBy: PathKey.self))
    rootDecodingContainer = container
    return container
  }

  /// The container of the object at `node`, opened once per decode and cached.
  ///
  /// - Returns: The container, or `nil` when a member on the way is missing or `null` and the
  ///   mapping is not required.
  /// - Throws: `keyNotFound` or `valueNotFound` for an absent member of a required mapping, and
  ///   the decoder's `typeMismatch` when a member on the way is not an object.
  @usableFromInline
  func decodingContainer(
    at node: Int, _ mapping: Mapping?, required: Bool
  ) throws -> DecodingContainerBox? {
    guard node > 0 else { return try rootContainer() }
    if node < decodingSlots.count {
      switch decodingSlots[node] {
      case .open(let container):
        return container
      case .absent(let isNull):
        return try absent(node, isNull: isNull, mapping, required: required)
      case .unopened:
        break
      }
    } else {
      decodingSlots.append(
        contentsOf: repeatElement(.unopened, count: nodeCount - decodingSlots.count))
    }
    return try openDecodingContainer(at: node, mapping, required: required)
  }

  /// Opens the containers from the nearest opened ancestor of `node` down to `node`.
  private func openDecodingContainer(
    at node: Int, _ mapping: Mapping?, required: Bool
  ) throws -> DecodingContainerBox? {
    // Most key paths share their parent with an earlier mapping: open one level directly.
    let parentNode = parent(of: node)
    if parentNode == 0 || parentNode < decodingSlots.count,
      let parentBox = parentNode == 0 ? rootDecodingContainer : openSlot(parentNode)
    {
      return try open(node, in: parentBox, mapping, required: required)
    }
    // Otherwise find the nearest ancestor whose container is known and open the rest in turn.
    var pending = [node]
    var ancestor = parent(of: node)
    while ancestor > 0, case .unopened = decodingSlots[ancestor] {
      pending.append(ancestor)
      ancestor = parent(of: ancestor)
    }
    var container: DecodingContainerBox
    if ancestor == 0 {
      container = try rootContainer()
    } else if case .open(let opened) = decodingSlots[ancestor] {
      container = opened
    } else if case .absent(let isNull) = decodingSlots[ancestor] {
      return try absent(ancestor, isNull: isNull, mapping, required: required)
    } else {
      container = try rootContainer()
    }
    for member in pending.reversed() {
      guard let opened = try open(member, in: container, mapping, required: required) else {
        return nil
      }
      container = opened
    }
    return container
  }

  /// The container at `node` if it is open.
  private func openSlot(_ node: Int) -> DecodingContainerBox? {
    if case .open(let container) = decodingSlots[node] {
      return container
    }
    return nil
  }

  /// Opens the object at `node`, a member of the object `parent` holds, and caches it.
  private func open(
    _ node: Int, in parent: DecodingContainerBox, _ mapping: Mapping?, required: Bool
  ) throws -> DecodingContainerBox? {
    let key = key(of: node)
    do {
      let container = DecodingContainerBox(
        try parent.container.nestedContainer(keyedBy: PathKey.self, forKey: key))
      decodingSlots[node] = .open(container)
      return container
    } catch let error as DecodingError {
      guard let isNull = absence(of: key, in: parent.container, after: error) else {
        throw error
      }
      decodingSlots[node] = .absent(isNull: isNull)
      return try absent(node, isNull: isNull, mapping, required: required)
    }
  }

  /// Whether `error`, from opening member `key` of `container`, means the member is missing
  /// (`false`) or `null` (`true`); `nil` when the member is there but not an object.
  private func absence(
    of key: PathKey, in container: KeyedDecodingContainer<PathKey>, after error: DecodingError
  ) -> Bool? {
    switch error {
    case .keyNotFound:
      return container.contains(key) ? nil : false
    case .valueNotFound:
      return true
    case .typeMismatch:
      return (try? container.decodeNil(forKey: key)) == true ? true : nil
    default:
      return nil
    }
  }

  /// The result of reaching an absent member: `nil`, or an error for a required mapping.
  private func absent(
    _ node: Int, isNull: Bool, _ mapping: Mapping?, required: Bool
  ) throws -> DecodingContainerBox? {
    guard required else { return nil }
    let parent = parent(of: node)
    let codingPath: [any CodingKey]
    if parent == 0, let root = rootDecodingContainer {
      codingPath = root.container.codingPath
    } else if parent > 0, case .open(let container) = decodingSlots[parent] {
      codingPath = container.container.codingPath
    } else {
      codingPath = (decoder?.codingPath ?? []) + path(to: parent)
    }
    throw MappingErrors.absentMember(
      key(of: node), isNull: isNull, codingPath: codingPath, keyPath: mapping?.keyDescription ?? "")
  }
}
