/// One decode of a ``Keyedable`` value: its mappings read values through a ``DecodingBackend``.
///
/// The run knows what each mapping means (a plain member, a flat value, a lossy array, a listed
/// member), which objects must be open to read it, and what an absent value gives: `nil` for
/// optional storage, an error naming the key path for required storage. The backend only opens
/// objects and reads members.
@usableFromInline
final class DecodeRun: MappingRun {
  /// Where the values come from.
  let backend: any DecodingBackend
  /// The backend again when it is a ``ContainerDecodingBackend``, for the inlined fast path.
  @usableFromInline let containers: ContainerDecodingBackend?
  #if !KEYED_CODABLE_MAPPING_ONLY
    /// The backend again when it is a ``JSONDecodingBackend``, for the inlined fast path.
    @usableFromInline let json: JSONDecodingBackend?
  #endif

  #if DEBUG
    /// What each node holds, once looked at; allocated on the first nested key path (node `0`,
    /// the mapped object, is ``rootIsOpen``).
    private var presence: [NodePresence] = []
  #else
    /// What each node holds, once looked at; allocated on the first nested key path (node `0`,
    /// the mapped object, is ``rootIsOpen``).
    @exclusivity(unchecked) private var presence: [NodePresence] = []
  #endif
  /// One past the highest node of ``presence`` looked at since the run started: the nodes the
  /// next run marks as not looked at. The array keeps its elements from run to run (appending
  /// them again for every mapped object cost more than reading a small member).
  #if DEBUG
    private var presenceEnd = 0
  #else
    @exclusivity(unchecked) private var presenceEnd = 0
  #endif
  /// Whether the mapped object is open.
  #if DEBUG
    private var rootIsOpen = false
  #else
    @exclusivity(unchecked) private var rootIsOpen = false
  #endif

  #if DEBUG
    /// The members of the mapped object its flat values read, noted for ``UnmappedMembers``
    /// while the run records a plan or follows one that collects unmapped members; `nil`
    /// otherwise.
    private(set) var flatReads: MemberReads?
  #else
    /// The members of the mapped object its flat values read, noted for ``UnmappedMembers``
    /// while the run records a plan or follows one that collects unmapped members; `nil`
    /// otherwise.
    @exclusivity(unchecked) private(set) var flatReads: MemberReads?
  #endif

  /// A run that reads through `backend`, the containers of any decoder.
  init(containers backend: ContainerDecodingBackend, model: Any.Type) {
    self.backend = backend
    containers = backend
    #if !KEYED_CODABLE_MAPPING_ONLY
      json = nil
    #endif
    let (plan, readsContext) = PlanRegistry.shared.planAndContextFlag(
      for: ObjectIdentifier(model), decoding: true)
    super.init(
      model: model, plan: plan, recording: plan == nil, decoding: true, readsContext: readsContext)
    backend.prepare(for: follower.tree.base)
    if let debugContext {
      debugModelIfAsked(debugContext)
    }
  }

  #if !KEYED_CODABLE_MAPPING_ONLY
    /// A run that reads the parsed document of ``KeyedJSONDecoder`` through `backend`.
    ///
    /// - Parameters:
    ///   - backend: The backend.
    ///   - model: The dynamic type whose `map(map:)` runs.
    ///   - plan: The plan published for it, if any (the decoder keeps plans it looked up).
    ///   - readsContext: Whether a context is bound.
    init(json backend: JSONDecodingBackend, model: Any.Type, plan: MappingPlan?, readsContext: Bool)
    {
      self.backend = backend
      containers = nil
      json = backend
      super.init(
        model: model, plan: plan, recording: plan == nil, decoding: true, readsContext: readsContext
      )
      backend.prepare(for: follower.tree.base)
      if let debugContext {
        debugModelIfAsked(debugContext)
      }
    }
  #endif

  override func trimForReuse() {
    super.trimForReuse()
    if presence.capacity > KeptStorage.limit {
      presence = []
      presenceEnd = 0
    }
  }

  /// Starts another run on this object and its backend (see
  /// ``MappingRun/restartRun(model:plan:recording:readsContext:)``).
  func restart(model: Any.Type, plan: MappingPlan?, readsContext: Bool) {
    restartState()
    restartRun(model: model, plan: plan, recording: plan == nil, readsContext: readsContext)
    backend.prepare(for: follower.tree.base)
    if let debugContext {
      debugModelIfAsked(debugContext)
    }
  }

  #if !KEYED_CODABLE_MAPPING_ONLY
    /// Starts another run of the model whose plan the last run followed, on `backend` (this
    /// run's, pointed at the next value), if the last run followed a plan of `modelType`:
    /// ``restart(model:plan:readsContext:)`` without looking the plan up, comparing it, or
    /// preparing the backend's storage for its table again.
    ///
    /// A document of many small objects of a few types (citm_catalog.json: 10,923 per decode)
    /// starts a run for each; most are of the type the kept run mapped last.
    ///
    /// - Returns: `false`, having changed nothing, when the last run was of another model or
    ///   recorded its mappings.
    @inline(__always)
    func restartSamePlan(
      of modelType: ObjectIdentifier, readsContext: Bool, on backend: JSONDecodingBackend
    ) -> Bool {
      guard restartSamePlan(of: modelType, readsContext: readsContext) else { return false }
      restartState()
      backend.startRunOnSameTable()
      if let debugContext {
        debugModelIfAsked(debugContext)
      }
      return true
    }
  #endif

  /// Forgets which objects the last run found and read.
  @inline(__always)
  private func restartState() {
    if presenceEnd > 0 {
      for node in 0..<presenceEnd {
        presence[node] = .unopened
      }
      presenceEnd = 0
    }
    rootIsOpen = false
    if flatReads != nil {
      flatReads = nil
    }
  }

  override var modelCodingPath: [any CodingKey] { backend.codingPath(ofOpen: 0) }

  override func noteContextsAffectRuns() {
    #if !KEYED_CODABLE_MAPPING_ONLY
      json?.decoder.contextsAffectRuns = true
    #endif
  }

  /// The `userInfo` of the underlying decoder.
  var userInfo: [CodingUserInfoKey: Any] { backend.userInfo }

  // MARK: - Decoding a mapping

  /// Decodes the value `mapping` points at.
  ///
  /// Inlined into the model, where `Value` is a concrete type: a member the plan resolved, in an
  /// object the container backend already opened, is read right away with the container's
  /// concrete method for a standard type. Everything else goes through
  /// ``decodeMapping(_:_:required:)``, which works for any backend.
  ///
  /// - Parameters:
  ///   - type: The type of the value.
  ///   - mapping: The mapping.
  ///   - required: Whether a missing key or `null` throws; otherwise it gives `nil`.
  /// - Returns: The value, or `nil` when it is absent and not required.
  /// - Throws: `DecodingError` with the full coding path.
  @inlinable
  func decode<Value: Decodable>(_ type: Value.Type, _ mapping: Mapping, required: Bool) throws
    -> Value?
  {
    // A mapping of a finished run is never read here: `takesSlowPath` is set when a run ends.
    // No reference is held across a call (the entry is read into integers first, and each
    // backend's fast path is its own method), so the fast path retains nothing.
    let position = mapping.reference
    if position >= 0, !takesSlowPath, mapping.extras == nil,
      let member = follower.plainMember(at: position, valueType: ObjectIdentifier(Value.self))
    {
      // The backend is used as a guaranteed reference: the run holds it for as long as it
      // lasts, and a copy would cost a retain and a release per mapping in the model's module.
      #if !KEYED_CODABLE_MAPPING_ONLY
        if json != nil {
          return try Unmanaged.passUnretained(json.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
            try $0.decodePlanned(Value.self, member, mapping, in: self, required: required)
          }
        }
      #endif
      if containers != nil {
        return try Unmanaged.passUnretained(containers.unsafelyUnwrapped)
          ._withUnsafeGuaranteedRef {
            try $0.decodePlanned(Value.self, member, mapping, in: self, required: required)
          }
      }
    }
    return try decodeMapping(Value.self, mapping, required: required)
  }

  /// ``recover(_:at:_:required:after:)`` for the fast path of ``decode(_:_:required:)``, given
  /// the position of the mapping's entry in the plan.
  @usableFromInline
  func recover<Value: Decodable>(
    _ type: Value.Type, planned position: Int, _ mapping: Mapping, _ required: Bool,
    after error: any Error
  ) throws -> Value? {
    try recover(
      Value.self, at: follower.entries[position].target, mapping, required: required,
      after: error)
  }

  /// Opens the object at `node` for a fast path of ``decode(_:_:required:)``.
  ///
  /// - Returns: Whether the object is there; `false` when it is absent and the mapping is
  ///   optional.
  @usableFromInline @inline(never)
  func objectIsOpen(_ node: Int, for mapping: Mapping, required: Bool) throws -> Bool {
    try objectIsOpen(node, mapping, required: required)
  }

  /// Opens the object at `node` for the fast path of ``decode(_:_:required:)``.
  ///
  /// - Returns: The object's container, or `nil` when it is absent and the mapping is optional.
  @usableFromInline
  func openContainer(_ node: Int, for mapping: Mapping, required: Bool) throws
    -> DecodingContainerBox?
  {
    guard try objectIsOpen(node, mapping, required: required) else { return nil }
    return containers?.openContainer(node)
  }

  /// Decodes the value `mapping` points at, through the backend (see
  /// ``decode(_:_:required:)``).
  ///
  /// A nested model's value is decoded inside this call, once per level of nesting: the frames
  /// from here to the backend stay small (everything but the calls on the way down is out of
  /// line), so that deep documents decode on small stacks.
  @usableFromInline
  func decodeMapping<Value: Decodable>(_ type: Value.Type, _ mapping: Mapping, required: Bool)
    throws -> Value?
  {
    guard let target = try resolve(mapping, valueType: Value.self) else { return nil }
    return try decodeResolved(Value.self, at: target, mapping, required: required)
  }

  /// The target of `mapping`, or `nil` when a key selection skips it.
  ///
  /// - Throws: When the mapping is used after its run.
  @inline(never)
  private func resolve(_ mapping: Mapping, valueType: Any.Type) throws -> MappingTarget? {
    try checkInUse(mapping)
    if selection != nil, skips(mapping) {
      return nil
    }
    let target = target(of: mapping, valueType: valueType)
    if mapping.extras?.debug == true {
      debugMapping(mapping, at: target)
    }
    return target
  }

  /// Decodes the value at `target`, the target of `mapping`, in the context the mapping gives
  /// its value, recovering from a failure where the mapping allows it.
  ///
  /// Inlined into its callers: one frame less per level of nesting.
  @inline(__always)
  func decodeResolved<Value: Decodable>(
    _ type: Value.Type, at target: MappingTarget, _ mapping: Mapping, required: Bool
  ) throws -> Value? {
    if let extras = mapping.extras, extras.scope != nil {
      return try decodeScoped(Value.self, at: target, mapping, required: required)
    }
    return try decodeRecovering(Value.self, at: target, mapping, required: required)
  }

  /// ``decodeRecovering(_:at:_:required:)`` in the context the mapping gives its value.
  @inline(never)
  private func decodeScoped<Value: Decodable>(
    _ type: Value.Type, at target: MappingTarget, _ mapping: Mapping, required: Bool
  ) throws -> Value? {
    guard let extras = mapping.extras, let scope = extras.scope else {
      return try decodeRecovering(Value.self, at: target, mapping, required: required)
    }
    return try scoped(scope, Value.self, affectsRuns: extras.scopeAffectsRuns) {
      try decodeRecovering(Value.self, at: target, mapping, required: required)
    }
  }

  /// Decodes the value at `target`, recovering from a failure where the mapping allows it.
  ///
  /// Inlined into its callers: one frame less per level of nesting.
  @inline(__always)
  func decodeRecovering<Value: Decodable>(
    _ type: Value.Type, at target: MappingTarget, _ mapping: Mapping, required: Bool
  ) throws -> Value? {
    do {
      return try decode(Value.self, at: target, mapping, required: required)
    } catch {
      return try recover(Value.self, at: target, mapping, required: required, after: error)
    }
  }

  /// What a decode that threw `error` gives instead, when anything: `nil` for a `Value` that is
  /// an `Optional` after all (a generic caller's `T == U?`) and is absent, or the value converted
  /// from another type when the mapping or the context allows conversions (see
  /// ``Conversions``).
  ///
  /// - Throws: `error`, when nothing recovers from it.
  @usableFromInline
  func recover<Value: Decodable>(
    _ type: Value.Type, at target: MappingTarget, _ mapping: Mapping, required: Bool,
    after error: any Error
  ) throws -> Value? {
    if required, let optionalType = Value.self as? any OptionalValue.Type {
      do {
        let value = try decode(Value.self, at: target, mapping, required: false)
        return value ?? optionalType.noneValue as? Value
      } catch {
        return try recover(Value.self, at: target, mapping, required: false, after: error)
      }
    }
    if case DecodingError.typeMismatch = error,
      let converted = try convert(Value.self, at: target, mapping, after: error)
    {
      return converted
    }
    let isAboutValue = MappingErrors.isAbout(error, valueAt: valueCodingPath(of: target))
    throw MappingErrors.noted(
      error, model: model, expected: isAboutValue ? Value.self : nil,
      keyPath: mapping.keyDescription)
  }

  /// Decodes the value at any target: plain members, flat values and lossy arrays.
  ///
  /// A plain member is read from this small frame (inlined into its callers); the other targets
  /// out of line.
  @inline(__always)
  private func decode<Value: Decodable>(
    _ type: Value.Type, at target: MappingTarget, _ mapping: Mapping, required: Bool
  ) throws -> Value? {
    guard case .value(let parent, _, let key, false) = target else {
      return try decodeOther(Value.self, at: target, mapping, required: required)
    }
    guard try objectIsOpen(parent, for: mapping, required: required) else { return nil }
    // The JSON coder's backend is called directly: no witness thunk on the way down.
    #if !KEYED_CODABLE_MAPPING_ONLY
      if let json {
        return required
          ? try json.decode(Value.self, forKey: key, in: parent)
          : try json.decodeIfPresent(Value.self, forKey: key, in: parent)
      }
    #endif
    if required {
      return try backend.decode(Value.self, forKey: key, in: parent)
    }
    return try backend.decodeIfPresent(Value.self, forKey: key, in: parent)
  }

  /// Decodes the value at a target other than a plain member: lossy arrays and dictionaries,
  /// flat values, listed objects.
  @inline(never)
  private func decodeOther<Value: Decodable>(
    _ type: Value.Type, at target: MappingTarget, _ mapping: Mapping, required: Bool
  ) throws -> Value? {
    switch target {
    case .value(let parent, _, let key, let lossy):
      guard try objectIsOpen(parent, mapping, required: required) else { return nil }
      if lossy, let arrayType = Value.self as? any LossyDecodableArray.Type {
        return try decodeLossy(
          arrayType, as: Value.self, forKey: key, in: parent, mapping, required: required)
      }
      if lossy, let dictionaryType = Value.self as? any LossyDecodableDictionary.Type {
        return try decodeLossy(
          dictionaryType, as: Value.self, forKey: key, in: parent, mapping, required: required)
      }
      if required {
        return try backend.decode(Value.self, forKey: key, in: parent)
      }
      return try backend.decodeIfPresent(Value.self, forKey: key, in: parent)
    case .flat:
      return try decodeFlat(Value.self, required: required)
    case .container(let node):
      guard node > 0 else { return try decodeFlat(Value.self, required: required) }
      let target = MappingTarget.value(
        parent: follower.tree.parent(of: node), node: node, key: follower.tree.key(of: node),
        lossy: false)
      return try decode(Value.self, at: target, mapping, required: required)
    }
  }

  /// Decodes a value from the members of the mapped object itself.
  ///
  /// An optional flat value is `nil` when none of the members it reads holds a value, when a
  /// member it needs is missing or `null`, and when the mapped object itself is `null`; so `nil`
  /// encodes to nothing and decodes back to `nil`.
  private func decodeFlat<Value: Decodable>(_ type: Value.Type, required: Bool) throws -> Value? {
    var decoder = backend.rootDecoder()
    if follower.recorded != nil || follower.plan?.usesUnmapped == true {
      // The members it reads are not unmapped (see ``UnmappedMembers``).
      if let recording = MemberRecordingDecoder.recording(decoder) {
        // A flat value inside a flat value: the reads go to the set of the one around it (they
        // are reads of the same object), through the decoder it reads through, so that flat
        // values nested thousands deep don't nest as many decoders.
        flatReads = recording.reads
      } else {
        let reads = flatReads ?? MemberReads()
        flatReads = reads
        decoder = MemberRecordingDecoder(base: decoder, reads: reads)
      }
    }
    guard !required else { return try Value(from: decoder) }
    let presence = FoundValues()
    do {
      let value = try Value(from: PresenceTrackingDecoder(base: decoder, presence: presence))
      return presence.found ? value : nil
    } catch let error where MappingErrors.isAbsence(error) {
      return nil
    }
  }

  /// Decodes an array, dropping the elements that fail to decode and reporting them.
  private func decodeLossy<Elements: LossyDecodableArray, Value>(
    _ arrayType: Elements.Type, as valueType: Value.Type, forKey key: PathKey, in node: Int,
    _ mapping: Mapping, required: Bool
  ) throws -> Value? {
    if !required, try backend.isAbsent(key, in: node) {
      return nil
    }
    #if !KEYED_CODABLE_MAPPING_ONLY
      if let json,
        let elements = json.decodeLossy(
          Elements.self, forKey: key, in: node,
          dropped: { position, error, arrayPath in
            report(
              .droppedElement, at: arrayPath + [PathKey(index: position)],
              keyPath: mapping.keyDescription, error: error)
          })
      {
        return elements as? Value
      }
    #endif
    var elements = try backend.elements(forKey: key, in: node)
    let arrayPath = elements.codingPath
    return try Elements.decodeDroppingInvalidElements(from: &elements) { position, error in
      report(
        .droppedElement, at: arrayPath + [PathKey(index: position)],
        keyPath: mapping.keyDescription, error: error)
    } as? Value
  }

  /// Decodes a dictionary, dropping the entries that fail to decode and reporting them.
  private func decodeLossy<Entries: LossyDecodableDictionary, Value>(
    _ dictionaryType: Entries.Type, as valueType: Value.Type, forKey key: PathKey, in node: Int,
    _ mapping: Mapping, required: Bool
  ) throws -> Value? {
    if !required, try backend.isAbsent(key, in: node) {
      return nil
    }
    let box = try backend.decode(LossyDictionaryBox<Entries>.self, forKey: key, in: node)
    for (path, error) in box.dropped {
      report(.droppedEntry, at: path, keyPath: mapping.keyDescription, error: error)
    }
    return box.entries as? Value
  }

  // MARK: - Objects

  /// Makes sure the object at `node` is open, opening it and the objects on its way once.
  ///
  /// - Returns: Whether the object is there; `false` when a member on the way is missing or
  ///   `null` and the mapping is not required.
  /// - Throws: `keyNotFound` or `valueNotFound` for an absent member of a required mapping, and
  ///   the backend's `typeMismatch` when a member on the way is not an object.
  private func objectIsOpen(_ node: Int, _ mapping: Mapping?, required: Bool) throws -> Bool {
    if !rootIsOpen {
      try backend.openRoot()
      rootIsOpen = true
    }
    guard node > 0 else { return true }
    if node < presence.count {
      switch presence[node] {
      case .object: return true
      case .missing: return try absent(node, isNull: false, mapping, required: required)
      case .null: return try absent(node, isNull: true, mapping, required: required)
      case .unopened: break
      }
    } else {
      // Into the storage an earlier run on this object kept, if any: a new array of a type the
      // standard library does not know looks up its storage's metadata (hundreds of
      // instructions).
      presence.append(
        contentsOf: repeatElement(.unopened, count: follower.tree.count - presence.count))
    }
    let parent = follower.tree.parent(of: node)
    if parent == 0 || presence[parent] == .object {
      // Most key paths share their parent with an earlier mapping: open one level.
      return try open(node, in: parent, mapping, required: required)
    }
    // Otherwise find the nearest ancestor looked at before, then open the objects below it in
    // turn. A loop, not recursion: key paths may be thousands of segments long.
    var pending = [node]
    var ancestor = parent
    while ancestor > 0, presence[ancestor] == .unopened {
      pending.append(ancestor)
      ancestor = follower.tree.parent(of: ancestor)
    }
    if ancestor > 0, presence[ancestor] != .object {
      return try absent(ancestor, isNull: presence[ancestor] == .null, mapping, required: required)
    }
    for current in pending.reversed() {
      guard try open(current, in: follower.tree.parent(of: current), mapping, required: required)
      else {
        return false
      }
    }
    return true
  }

  /// Opens the object at `node`, a member of the open object `parent`.
  private func open(_ node: Int, in parent: Int, _ mapping: Mapping?, required: Bool) throws
    -> Bool
  {
    let found = try backend.openObject(node, key: follower.tree.key(of: node), in: parent)
    presence[node] = found
    if node >= presenceEnd {
      presenceEnd = node &+ 1
    }
    if found == .object {
      return true
    }
    return try absent(node, isNull: found == .null, mapping, required: required)
  }

  /// The result of reaching an absent member: `false`, or an error for a required mapping.
  private func absent(_ node: Int, isNull: Bool, _ mapping: Mapping?, required: Bool) throws
    -> Bool
  {
    guard required else { return false }
    throw MappingErrors.absentMember(
      follower.tree.key(of: node), isNull: isNull,
      codingPath: codingPath(to: follower.tree.parent(of: node)),
      keyPath: mapping?.keyDescription ?? "")
  }

  /// The full coding path of `node`: that of its nearest open ancestor, then the keys below.
  func codingPath(to node: Int) -> [any CodingKey] {
    var keys: [any CodingKey] = []
    var current = node
    while current > 0, current >= presence.count || presence[current] != .object {
      keys.append(follower.tree.key(of: current))
      current = follower.tree.parent(of: current)
    }
    return backend.codingPath(ofOpen: current) + keys.reversed()
  }

  // MARK: - Member listing

  /// The members of the object `mapping` points at, or of the mapped object when it is `nil`.
  ///
  /// Returns no keys when there is no object there.
  func memberKeys(of mapping: Mapping?) -> [Key] {
    do {
      var node = 0
      if let mapping {
        try checkInUse(mapping)
        let (entry, pending) = (mapping.entry, mapping.pending)
        node = follower.containerNode(entry: entry, pending: pending)
      }
      guard try objectIsOpen(node, mapping, required: false) else { return [] }
      let parentPath = follower.tree.path(to: node).map(\.stringValue)
      let keys = backend.memberKeys(in: node).map {
        Key(member: $0, parentPath: parentPath, parentNode: node)
      }
      // A model that lists members maps them next, each a mapping of its own: room for them at
      // once rather than in a dozen copies of a growing array (a key per member of the input,
      // so no more than the input holds).
      pendingKeys.reserveCapacity(pendingKeys.count + keys.count)
      return keys
    } catch {
      // Not an object (or a key map used too late): `all(for:)` lists what it can read.
      return []
    }
  }
}
