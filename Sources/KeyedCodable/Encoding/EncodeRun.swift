/// One encode of a ``Keyedable`` value: its mappings write values through an ``EncodingBackend``.
///
/// The run opens each object of the output once, in the order the mappings need them, and
/// keeps what each node holds so that no write silently replaces another: two mappings that
/// write the same place must write equal values (see ``EncodedValue``), and a value at a key
/// path that other mappings continue is merged into one object with them (see ``NodeEncoder``).
///
/// A run without a backend *collects*: it only learns the key paths of the mappings, which the
/// first encode of a type needs before it writes anything (see ``KeyedEncoder``).
@usableFromInline
final class EncodeRun: MappingRun {
  /// What each node of the path tree holds in the output so far.
  @usableFromInline
  enum NodeState: UInt8 {
    /// Nothing written yet.
    case empty
    /// A value written in one piece.
    case value
    /// An object whose members are written one by one.
    case object
    /// An array, written by a merged value.
    case array
  }

  /// Where the values go; `nil` while collecting.
  let backend: (any EncodingBackend)?
  /// The backend again when it is a ``ContainerEncodingBackend``, for the inlined fast path.
  @usableFromInline let containers: ContainerEncodingBackend?
  #if !KEYED_CODABLE_MAPPING_ONLY
    /// The backend again when it is a ``JSONEncodingBackend``, for the inlined fast path.
    @usableFromInline let json: JSONEncodingBackend?
  #endif
  /// Whether this encode keeps what it writes at each node, because its plan says two mappings
  /// may write the same place (see ``MappingPlan/mayOverlap``).
  #if DEBUG
    @usableFromInline private(set) var recordsWrites: Bool
  #else
    @exclusivity(unchecked) @usableFromInline private(set) var recordsWrites: Bool
  #endif

  /// Whether writes are kept for comparison: the plan says mappings may overlap, or the keys
  /// collected when this run left its plan do.
  private var keepsWrites: Bool

  /// Collects the key paths of this encode's model by running its `map(map:)` without writing,
  /// for a run that leaves its plan (see ``absorbKeyPathsAfterLeavingThePlan()``): set by
  /// ``KeyedEncoder`` with the address of the value, valid while the run lasts.
  #if DEBUG
    var keyPathCollector: KeyPathCollector?
  #else
    @exclusivity(unchecked) var keyPathCollector: KeyPathCollector?
  #endif
  /// The member naming the type of the value ``keyPathCollector`` collects for, when it is a
  /// polymorphic value's (see ``TypeRegistry``).
  var collectorTypeMember: TypeMember?
  /// Whether the key paths were collected after the run left its plan.
  private var absorbedKeyPaths = false

  #if DEBUG
    /// What each node holds so far.
    @usableFromInline var states: [NodeState] = []
  #else
    /// What each node holds so far.
    @exclusivity(unchecked) @usableFromInline var states: [NodeState] = []
  #endif
  /// The objects ``openObject(at:writing:)`` is opening, deepest first; kept for reuse.
  #if DEBUG
    private var openingChain: [Int] = []
  #else
    @exclusivity(unchecked) private var openingChain: [Int] = []
  #endif
  #if DEBUG
    /// The arrays merged values opened, by node.
    private var arrays: [Int: any UnkeyedEncodingContainer] = [:]
    /// What was written at each node, and by which mapping, while ``recordsWrites``.
    private var writtenValues: [Int: (value: EncodedValue, writer: String)] = [:]
    /// The key of the mapping being encoded, while ``recordsWrites``.
    private var activeWriter = ""
    /// An error met while a merged value was being encoded, thrown when its mapping ends.
    private(set) var pendingError: (any Error)?
  #else
    /// The arrays merged values opened, by node.
    @exclusivity(unchecked) private var arrays: [Int: any UnkeyedEncodingContainer] = [:]
    /// What was written at each node, and by which mapping, while ``recordsWrites``.
    @exclusivity(unchecked)
    private var writtenValues: [Int: (value: EncodedValue, writer: String)] = [:]
    /// The key of the mapping being encoded, while ``recordsWrites``.
    @exclusivity(unchecked) private var activeWriter = ""
    /// An error met while a merged value was being encoded, thrown when its mapping ends.
    @exclusivity(unchecked) private(set) var pendingError: (any Error)?
  #endif
  /// The node of the member that names the type of a polymorphic value, while this run writes
  /// one (see ``beginTypeMember(_:mappedByModel:)``), or `-1`.
  private(set) var typeMemberNode = -1
  /// The member that names the type, and whether the model maps it itself.
  private var typeMember: (member: TypeMember, mappedByModel: Bool)?
  /// The last value type ``isNone(_:)`` checked, and whether it is an `Optional`.
  private var lastCheckedType: ObjectIdentifier?
  private var lastCheckedTypeIsOptional = false

  /// The `userInfo` a collecting run was given.
  private let collectingUserInfo: [CodingUserInfoKey: Any]

  /// Whether this run writes its values once `map(map:)` returns, in the order of
  /// ``MappingPlan/streamRanks``: a run of the JSON coder whose mappings come back to an object
  /// after leaving it, which a stream of bytes can't reopen.
  ///
  /// Read once per run or per mapping; unchecked exclusivity in release builds only (see
  /// ``MappingRun``), as for the other state read on every run.
  #if DEBUG
    private(set) var defersWrites = false
    /// Whether a run that ``defersWrites`` holds the members its plan resolved on the fast
    /// path: no key selection or explicit nulls send every mapping the general way.
    @usableFromInline private(set) var defersPlannedWrites = false
    /// The writes a run that ``defersWrites`` holds until ``writeDeferred()``.
    private var deferredWrites: [DeferredValue] = []
    /// The order to write ``deferredWrites`` in: their ranks and places, in rank order while
    /// ``deferredOrderIsSorted`` (see ``hold(_:at:)``).
    private var deferredOrder: [HeldPlace] = []
    /// Whether ``deferredOrder`` is in rank order.
    private var deferredOrderIsSorted = true
  #else
    @exclusivity(unchecked) private(set) var defersWrites = false
    /// Whether a run that ``defersWrites`` holds the members its plan resolved on the fast
    /// path: no key selection or explicit nulls send every mapping the general way.
    @exclusivity(unchecked) @usableFromInline private(set) var defersPlannedWrites = false
    /// The writes a run that ``defersWrites`` holds until ``writeDeferred()``.
    @exclusivity(unchecked) private var deferredWrites: [DeferredValue] = []
    /// The order to write ``deferredWrites`` in: their ranks and places, in rank order while
    /// ``deferredOrderIsSorted`` (see ``hold(_:at:)``).
    @exclusivity(unchecked) private var deferredOrder: [HeldPlace] = []
    /// Whether ``deferredOrder`` is in rank order.
    @exclusivity(unchecked) private var deferredOrderIsSorted = true
  #endif

  /// Where a held write goes: its rank in the plan's ``MappingPlan/streamRanks`` (writes of
  /// equal rank keep the order they were held in), and its place in ``deferredWrites``.
  private struct HeldPlace {
    let rank: Int
    let index: Int
  }

  /// The value of a held write: a standard scalar of a member the plan resolved is kept as it
  /// is, with no closure to allocate and no mapping to retain (its mapping is the plan's entry
  /// in ``heldMap``); anything else as its mapping and the closure that writes it.
  @usableFromInline
  enum DeferredValue {
    case string(String, PlainMember)
    case int(Int, PlainMember)
    case double(Double, PlainMember)
    case bool(Bool, PlainMember)
    case other(Mapping, (EncodeRun) throws -> Void)
  }

  /// The plan's ``MappingPlan/streamRanks``, for a run that ``defersWrites``.
  private var heldRanks: [Int] = []

  /// The key map of the run's held scalars (see ``DeferredValue``), from the hold of the first
  /// one to ``writeDeferred()``.
  private var heldMap: KeyMap?

  /// The `userInfo` of the underlying encoder, asked for when a mapping reads it: coders such
  /// as `JSONEncoder` make a new dictionary on every call.
  var userInfo: [CodingUserInfoKey: Any] { backend?.userInfo ?? collectingUserInfo }

  /// A run that writes to the containers of any encoder, following `plan`.
  init(
    containers backend: ContainerEncodingBackend, model: Any.Type, plan: MappingPlan?,
    readsContext: Bool
  ) {
    self.backend = backend
    containers = backend
    #if !KEYED_CODABLE_MAPPING_ONLY
      json = nil
    #endif
    collectingUserInfo = [:]
    recordsWrites = plan?.mayOverlap ?? true
    keepsWrites = recordsWrites
    super.init(
      model: model, plan: plan, recording: false, decoding: false, readsContext: readsContext)
    states = Array(repeating: .empty, count: follower.tree.count)
    backend.prepare(for: follower.tree.base)
  }

  #if !KEYED_CODABLE_MAPPING_ONLY
    /// A run that writes JSON bytes through `backend`, following `plan`.
    init(json backend: JSONEncodingBackend, model: Any.Type, plan: MappingPlan?, readsContext: Bool)
    {
      self.backend = backend
      containers = nil
      json = backend
      collectingUserInfo = [:]
      recordsWrites = plan?.mayOverlap ?? true
      keepsWrites = recordsWrites
      super.init(
        model: model, plan: plan, recording: false, decoding: false, readsContext: readsContext)
      states = Array(repeating: .empty, count: follower.tree.count)
      backend.prepare(for: follower.tree.base)
      noteRevisits(plan)
    }

    /// Defers the writes of a JSON run whose plan comes back to an object (see ``defersWrites``);
    /// they take the general path, which defers them.
    private func noteRevisits(_ plan: MappingPlan?) {
      defersWrites = json != nil && plan?.revisits == true
      defersPlannedWrites = defersWrites && !takesSlowPath
      if defersWrites {
        takesSlowPath = true
        heldRanks = plan?.streamRanks ?? []
      }
    }
  #endif

  /// A run that collects the key paths of an encode without writing anything.
  ///
  /// - Parameters:
  ///   - model: The type whose `map(map:)` runs.
  ///   - plan: The plan published for it, if any (an unstable one).
  ///   - userInfo: The `userInfo` of the encoder the encode writes to, which `map(map:)` may read.
  init(
    collectingFor model: Any.Type, plan: MappingPlan?,
    userInfo: [CodingUserInfoKey: Any]
  ) {
    backend = nil
    containers = nil
    #if !KEYED_CODABLE_MAPPING_ONLY
      json = nil
    #endif
    collectingUserInfo = userInfo
    recordsWrites = false
    keepsWrites = false
    super.init(model: model, plan: plan, recording: true, decoding: false, readsContext: false)
  }

  override var modelCodingPath: [any CodingKey] { backend?.codingPath ?? [] }

  override func noteContextsAffectRuns() {
    #if !KEYED_CODABLE_MAPPING_ONLY
      json?.encoder.contextsAffectRuns = true
    #endif
  }

  override func trimForReuse() {
    super.trimForReuse()
    if states.capacity > KeptStorage.limit {
      states = []
    }
  }

  /// Starts another run on this object and its backend, as if it were new (see
  /// ``JSONStreamEncoder``, which reuses runs).
  func restart(model: Any.Type, plan: MappingPlan?, readsContext: Bool) {
    recordsWrites = plan?.mayOverlap ?? true
    keepsWrites = recordsWrites
    keyPathCollector = nil
    if case .some = collectorTypeMember {
      collectorTypeMember = nil
    }
    absorbedKeyPaths = false
    if !arrays.isEmpty {
      arrays.removeAll()
    }
    if !writtenValues.isEmpty {
      writtenValues.removeAll()
    }
    // Each reset only when needed: clearing a field that is already empty still releases it.
    if !activeWriter.isEmpty {
      activeWriter = ""
    }
    if pendingError != nil {
      pendingError = nil
    }
    if typeMemberNode >= 0 {
      typeMemberNode = -1
      typeMember = nil
    }
    restartRun(model: model, plan: plan, recording: false, readsContext: readsContext)
    let nodes = follower.tree.count
    if states.count >= nodes, states.capacity <= KeptStorage.limit || states.count == nodes {
      // The same plan's nodes again, perhaps after nodes the last run added: emptied in place.
      if states.count > nodes {
        states.removeSubrange(nodes...)
      }
      states.withUnsafeMutableBufferPointer { $0.update(repeating: .empty) }
    } else {
      states.removeAllForReuse()
      states.append(contentsOf: repeatElement(.empty, count: follower.tree.count))
    }
    #if KEYED_CODABLE_MAPPING_ONLY
      backend?.prepare(for: follower.tree.base)
    #else
      // The JSON backend directly, through optional chaining: through the existential (or a
      // local binding), the call retains it.
      if json != nil {
        json?.prepare(for: follower.tree.base)
      } else {
        backend?.prepare(for: follower.tree.base)
      }
    #endif
    discardDeferredWrites()
    #if !KEYED_CODABLE_MAPPING_ONLY
      noteRevisits(plan)
    #endif
  }

  // MARK: - Encoding a mapping

  /// Encodes `value` where `mapping` points.
  ///
  /// Inlined into the model, where `Value` is a concrete type: a member the plan resolved,
  /// written for the first time into an object the container backend already opened, in a model
  /// whose mappings never overlap, is written right away with the container's concrete method for
  /// a standard type. Everything else goes through ``encodeMapping(_:_:)``, which works for any
  /// backend.
  ///
  /// - Throws: `EncodingError.invalidValue` when the value cannot be written there without
  ///   losing data (see ``MappingErrors/Conflict``), and any error of the underlying encoder,
  ///   with the full coding path.
  @inlinable
  func encode<Value: Encodable>(_ value: Value, _ mapping: Mapping) throws {
    // Errors name the model and the mapping, as decoding errors do; the catch costs nothing
    // until something throws.
    do {
      // A mapping of a finished run is never written here: `takesSlowPath` is set when a run
      // ends. As in ``DecodeRun/decode(_:_:required:)``, no reference is held across a call.
      let position = mapping.reference
      if let member = followedPlainMember(mapping, Value.self), member.node < states.count,
        states[member.node] == .empty
      {
        // A nil optional writes nothing, not even the objects on its way.
        if !isStandardScalar(Value.self), member.valueIsOptional, isNilOptional(value) {
          return
        }
        // The backend is used as a guaranteed reference (see
        // ``DecodeRun/decode(_:_:required:)``).
        #if !KEYED_CODABLE_MAPPING_ONLY
          if json != nil {
            let written = try Unmanaged.passUnretained(json.unsafelyUnwrapped)
              ._withUnsafeGuaranteedRef { try $0.encodePlanned(value, member, in: self) }
            if written { return }
          }
        #endif
        if containers != nil {
          let written = try Unmanaged.passUnretained(containers.unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef { try $0.encodePlanned(value, member, in: self) }
          if written { return }
        }
      }
      if defersPlannedWrites, position >= 0, !follower.diverged, mapping.extras == nil,
        let member = follower.plainMember(at: position, valueType: ObjectIdentifier(Value.self))
      {
        // A run that holds its writes: a member the plan resolved is held here, where `Value`
        // is concrete, and written on the fast path when `map(map:)` returns.
        if !isStandardScalar(Value.self), member.valueIsOptional, isNilOptional(value) {
          return
        }
        return deferPlanned(value, member, mapping)
      }
      try encodeMapping(value, mapping)
    } catch {
      throw failure(error, of: mapping)
    }
  }

  /// The plain member of type `Value` that the plan resolved `mapping` to, when the run follows
  /// its plan and neither the mapping nor the run asks for the general path (a context, a
  /// finished run, recorded writes, the mapping's own options): the test of the fast paths of
  /// ``encode(_:_:)`` and ``encodeNil(_:_:required:explicitNull:)``, inlined into them.
  @inlinable @inline(__always)
  func followedPlainMember<Value>(_ mapping: Mapping, _ type: Value.Type) -> PlainMember? {
    let position = mapping.reference
    guard position >= 0, !takesSlowPath, !recordsWrites, !follower.diverged,
      mapping.extras == nil
    else { return nil }
    return follower.plainMember(at: position, valueType: ObjectIdentifier(Value.self))
  }

  /// Holds the write of a member the plan resolved (see ``defersWrites``).
  @inlinable
  func deferPlanned<Value: Encodable>(_ value: Value, _ member: PlainMember, _ mapping: Mapping) {
    if Value.self == String.self {
      return holdScalar(.string(reinterpret(value, as: String.self), member), mapping)
    } else if Value.self == Int.self {
      return holdScalar(.int(reinterpret(value, as: Int.self), member), mapping)
    } else if Value.self == Double.self {
      return holdScalar(.double(reinterpret(value, as: Double.self), member), mapping)
    } else if Value.self == Bool.self {
      return holdScalar(.bool(reinterpret(value, as: Bool.self), member), mapping)
    }
    deferWrite(mapping) { run in
      if try run.writePlanned(value, member) { return }
      try run.encodeMapping(value, mapping)
    }
  }

  /// Writes a held member the plan resolved on the backend's fast path.
  ///
  /// - Returns: Whether it was written; `false` when it must take the general path.
  @usableFromInline
  func writePlanned<Value: Encodable>(_ value: Value, _ member: PlainMember) throws -> Bool {
    #if !KEYED_CODABLE_MAPPING_ONLY
      if let json, !recordsWrites, member.node < states.count, states[member.node] == .empty {
        return try json.encodePlanned(value, member, in: self)
      }
    #endif
    return false
  }

  /// Holds a scalar of a plain `mapping` of the plan (see ``DeferredValue``).
  @usableFromInline
  func holdScalar(_ value: DeferredValue, _ mapping: Mapping) {
    if heldMap !== mapping.map {
      heldMap = mapping.map
    }
    hold(value, at: mapping.reference)
  }

  /// `error`, thrown while `mapping` wrote its value, with a note naming the model and the
  /// mapping's key path for the readable forms (see ``MappingErrors/noted(_:model:expected:keyPath:)``):
  /// the innermost model's note is kept, and an error with an underlying error of its own (a
  /// transform's) is left as it is.
  @usableFromInline
  func failure(_ error: any Error, of mapping: Mapping) -> any Error {
    MappingErrors.noted(error, model: model, expected: nil, keyPath: mapping.keyDescription)
  }

  /// Opens the object at `node` and marks `member` written, for the fast paths of the
  /// backends (see ``encode(_:_:)``).
  ///
  /// - Returns: Whether the member can be written; `false` when a key on the way holds a value:
  ///   the mapping then takes the general path, which throws the conflict.
  @usableFromInline
  func claimPlanned(_ member: PlainMember) -> Bool {
    guard member.parent < states.count,
      states[member.parent] == .object || opensObject(member.parent)
    else { return false }
    states[member.node] = .value
    return true
  }

  /// Opens the object at `node` for a fast path of ``encode(_:_:)``.
  ///
  /// - Returns: Whether it is open; `false` when a key on the way holds a value: the mapping
  ///   then takes the general path, which throws the conflict.
  @usableFromInline
  func opensObject(_ node: Int) -> Bool {
    (try? openObject(at: node, writing: "an object")) != nil
  }

  /// Opens the object at `node` for the fast path of ``encode(_:_:)``.
  ///
  /// - Returns: The object's container, or `nil` when it cannot be opened (a key on the way holds
  ///   a value): the mapping then takes the general path, which throws the conflict.
  @usableFromInline
  func openContainer(_ node: Int) -> EncodingContainerBox? {
    guard (try? openObject(at: node, writing: "an object")) != nil else { return nil }
    return containers?.openContainer(node)
  }

  /// Encodes `value` where `mapping` points, through the backend (see ``encode(_:_:)``).
  @usableFromInline
  func encodeMapping<Value: Encodable>(_ value: Value, _ mapping: Mapping) throws {
    try checkInUse(mapping)
    if selection != nil, skips(mapping) {
      return
    }
    let target = target(of: mapping, valueType: Value.self)
    guard backend != nil else { return }
    try absorbKeyPathsAfterLeavingThePlan()
    if defersWrites {
      return deferWrite(mapping) { run in try run.write(value, at: target, mapping) }
    }
    try write(value, at: target, mapping)
  }

  /// Writes `value` of `mapping` at `target`.
  private func write<Value: Encodable>(_ value: Value, at target: MappingTarget, _ mapping: Mapping)
    throws
  {
    if keepsWrites || typeMemberNode >= 0 {
      activeWriter = mapping.keyDescription
    }
    guard let extras = mapping.extras, let scope = extras.scope else {
      return try encode(value, at: target, mapping)
    }
    try scoped(scope, Value.self, affectsRuns: extras.scopeAffectsRuns) {
      try encode(value, at: target, mapping)
    }
  }

  /// Holds the write of `mapping` until `map(map:)` returns (see ``defersWrites``).
  @usableFromInline
  func deferWrite(_ mapping: Mapping, _ write: @escaping (EncodeRun) throws -> Void) {
    hold(.other(mapping, write), at: mapping.reference)
  }

  /// Adds `value`, of the mapping at `position`, to the held writes.
  ///
  /// While they are few, the writes are kept in rank order: a write goes after those of its
  /// rank or lower, so a map that follows the plan's order only appends. Beyond
  /// ``sortedHoldLimit`` writes, the others are appended and ``writeDeferred()`` sorts them, so
  /// that no map is quadratic in the writes it holds.
  private func hold(_ value: DeferredValue, at position: Int) {
    // A mapping the plan doesn't know goes after those it does, in mapping order.
    let rank =
      position >= 0 && position < heldRanks.count && !follower.diverged
      ? heldRanks[position] : Int.max
    var count = deferredOrder.count
    deferredOrder.append(HeldPlace(rank: rank, index: deferredWrites.count))
    deferredWrites.append(value)
    guard count > 0, deferredOrder[count &- 1].rank > rank else { return }
    guard count < Self.sortedHoldLimit else {
      deferredOrderIsSorted = false
      return
    }
    while count > 0, deferredOrder[count &- 1].rank > rank {
      deferredOrder.swapAt(count, count &- 1)
      count &-= 1
    }
  }

  /// The number of held writes kept in order as they come (see ``hold(_:at:)``).
  private static let sortedHoldLimit = 32

  /// Forgets the writes a run held back and never wrote, because it threw first.
  func discardDeferredWrites() {
    if !deferredWrites.isEmpty {
      deferredWrites.removeAll(keepingCapacity: deferredWrites.count <= 64)
      deferredOrder.removeAll(keepingCapacity: deferredOrder.count <= 64)
    }
    deferredOrderIsSorted = true
    if heldMap != nil {
      heldMap = nil
    }
  }

  /// Writes what the run held back (see ``defersWrites``).
  ///
  /// Objects come in the order the mappings first reach them, and each object's members in
  /// mapping order. Called when `map(map:)` returns; does nothing for a run that writes as it
  /// goes.
  ///
  /// - Throws: The first error of a write, as the mapping would have thrown it.
  func writeDeferred() throws {
    guard !deferredWrites.isEmpty else { return }
    // The list is taken out while it is written (a write may defer nothing, but must not see
    // it), and put back empty with its storage for the next run.
    var writes: [DeferredValue] = []
    var order: [HeldPlace] = []
    swap(&writes, &deferredWrites)
    swap(&order, &deferredOrder)
    defer {
      writes.removeAll(keepingCapacity: writes.capacity <= 64)
      order.removeAll(keepingCapacity: order.capacity <= 64)
      if deferredWrites.isEmpty {
        swap(&writes, &deferredWrites)
        swap(&order, &deferredOrder)
      }
    }
    if !deferredOrderIsSorted {
      // Stable: writes of equal rank (mappings the plan doesn't know) keep their order.
      order.sort { ($0.rank, $0.index) < ($1.rank, $1.index) }
      deferredOrderIsSorted = true
    }
    let planned = defersPlannedWrites
    defersWrites = false
    defersPlannedWrites = false
    defer {
      defersWrites = true
      defersPlannedWrites = planned
    }
    defer { heldMap = nil }
    for place in order where place.index < writes.count {
      switch writes[place.index] {
      case .string(let value, let member): try writeHeld(value, member)
      case .int(let value, let member): try writeHeld(value, member)
      case .double(let value, let member): try writeHeld(value, member)
      case .bool(let value, let member): try writeHeld(value, member)
      case .other(let mapping, let write):
        do {
          try write(self)
        } catch {
          throw failure(error, of: mapping)
        }
      }
    }
  }

  /// Writes a held scalar on the fast path, or as its mapping would.
  private func writeHeld<Value: Encodable>(_ value: Value, _ member: PlainMember) throws {
    do {
      if try writePlanned(value, member) { return }
      guard let map = heldMap else { throw Self.lostHeldValue(value) }
      try encodeMapping(value, Mapping(map: map, entryAt: member.position))
    } catch {
      throw heldValueFailure(error, member)
    }
  }

  // Errors are made out of line, where the hot paths meet them: a function that makes one of the
  // standard library's resilient error types looks up its metadata when it starts, thrown or not.

  /// The error of a held value whose key map is gone.
  @inline(never)
  private static func lostHeldValue(_ value: Any) -> any Error {
    EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: [], debugDescription: "The mapping of a held value was lost."))
  }

  /// `error`, thrown writing the held value of `member`, noted with the mapping's key path.
  @inline(never)
  private func heldValueFailure(_ error: any Error, _ member: PlainMember) -> any Error {
    let entries = follower.entries
    let key = member.position < entries.count ? entries[member.position].key : ""
    return MappingErrors.noted(error, model: model, expected: nil, keyPath: key)
  }

  /// Handles a mapping whose optional value is `nil`: nothing is written, or `null` when the
  /// mapping or the context asks for explicit nulls.
  ///
  /// - Throws: `EncodingError.invalidValue` when the mapping is required.
  @inlinable
  func encodeNil<Value>(
    _ type: Value.Type, _ mapping: Mapping, required: Bool, explicitNull: Bool? = nil
  ) throws {
    // Inlined into the model: an optional member the plan resolved, `nil` and not required,
    // writes nothing unless something asks for `null`, so it returns here, as the general path
    // would, without looking up the mapping's target. The context's explicit nulls, its key
    // selection and a finished run set `takesSlowPath`; a mapping's own explicit null is one of
    // its `extras`.
    if !required, explicitNull != true, followedPlainMember(mapping, Value.self) != nil {
      return
    }
    try encodeNilMapping(Value.self, mapping, required: required, explicitNull: explicitNull)
  }

  /// ``encodeNil(_:_:required:explicitNull:)`` through the general path.
  @usableFromInline
  func encodeNilMapping<Value>(
    _ type: Value.Type, _ mapping: Mapping, required: Bool, explicitNull: Bool?
  ) throws {
    do {
      try encodeNilUnnoted(Value.self, mapping, required: required, explicitNull: explicitNull)
    } catch {
      throw failure(error, of: mapping)
    }
  }

  /// ``encodeNil(_:_:required:explicitNull:)``, without the note on its errors.
  private func encodeNilUnnoted<Value>(
    _ type: Value.Type, _ mapping: Mapping, required: Bool, explicitNull: Bool?
  ) throws {
    try checkInUse(mapping)
    if selection != nil, skips(mapping) {
      return
    }
    let target = target(of: mapping, valueType: Value.self)
    guard backend != nil else { return }
    try absorbKeyPathsAfterLeavingThePlan()
    if required {
      throw MappingErrors.encoding(
        .requiredValueMissing, value: Value?.none as Any, codingPath: codingPath(to: target),
        keyPath: mapping.keyDescription)
    }
    if explicitNull ?? writesExplicitNull(mapping) {
      if defersWrites {
        return deferWrite(mapping) { run in try run.writeNull(at: target, mapping) }
      }
      try writeNull(at: target, mapping)
    }
  }

  /// Writes `null` for `mapping` at `target`.
  private func writeNull(at target: MappingTarget, _ mapping: Mapping) throws {
    if keepsWrites || typeMemberNode >= 0 {
      activeWriter = mapping.keyDescription
    }
    try writeNull(at: target)
  }

  /// Writes `null` where `mapping` points, whatever it would hold (see ``Presence``).
  @usableFromInline
  func encodeNull(_ mapping: Mapping, valueType: Any.Type) throws {
    do {
      try checkInUse(mapping)
      if selection != nil, skips(mapping) {
        return
      }
      let target = target(of: mapping, valueType: valueType)
      guard backend != nil else { return }
      try absorbKeyPathsAfterLeavingThePlan()
      if defersWrites {
        return deferWrite(mapping) { run in try run.writeNull(at: target, mapping) }
      }
      try writeNull(at: target, mapping)
    } catch {
      throw failure(error, of: mapping)
    }
  }

  /// Collects every key path of this encode once the run has left its plan, so that a value
  /// written whole at a key path that a later mapping continues is merged with it, as when the
  /// plan knows both (see ``write(_:at:parent:key:)``).
  ///
  /// A plan is shared by all values of a model type; a model whose key paths vary from value to
  /// value leaves it. The plan is then marked unstable, and later encodes collect first.
  func absorbKeyPathsAfterLeavingThePlan() throws {
    guard follower.diverged, !absorbedKeyPaths, let keyPathCollector else { return }
    absorbedKeyPaths = true
    guard
      let collected = try keyPathCollector.collect(
        typeMember: collectorTypeMember, userInfo: userInfo)
    else { return }
    let nodes = collected.nodes
    for node in 1..<Swift.max(nodes.count, 1) {
      var segments: [String] = []
      var current = node
      while current > 0 {
        segments.append(nodes.key(of: current).stringValue)
        current = nodes.parent(of: current)
      }
      _ = follower.tree.node(at: segments.reversed())
    }
    if collected.mayOverlap {
      keepsWrites = true
    }
    if states.count < follower.tree.count {
      growStates()
    }
  }

  /// Whether a `nil` optional of `mapping` is written as `null`.
  func writesExplicitNull(_ mapping: Mapping) -> Bool {
    mapping.extras?.explicitNull ?? contextWritesExplicitNulls
  }

  /// Writes `null` at `target`; a flat target has no key to hold it and writes nothing.
  func writeNull(at target: MappingTarget) throws {
    switch target {
    case .flat:
      return
    case .value(_, let node, _, _):
      try writeSingleNil(at: node)
    case .container(let node):
      if node > 0 {
        try writeSingleNil(at: node)
      }
    }
  }

  /// The node a value at `target` is written at, for messages.
  private func codingPath(to target: MappingTarget) -> [any CodingKey] {
    switch target {
    case .flat: codingPath(to: 0)
    case .value(let parent, let member, _, _): codingPath(to: member >= 0 ? member : parent)
    case .container(let container): codingPath(to: container)
    }
  }

  /// Encodes a value at any target: flat values, values shared with other key paths, and plain
  /// members of any type.
  private func encode<Value: Encodable>(
    _ value: Value, at target: MappingTarget, _ mapping: Mapping
  ) throws {
    guard !isNone(value) else {
      // A generic caller's `T == U?` holding nil.
      if writesExplicitNull(mapping) {
        try writeNull(at: target)
      }
      return
    }
    switch target {
    case .flat:
      try encodeMerged(value, at: 0)
    case .value(let parent, let node, let key, _):
      try write(value, at: node, parent: parent, key: key)
    case .container(let node):
      if node == 0 {
        try encodeMerged(value, at: 0)
      } else {
        try write(
          value, at: node, parent: follower.tree.parent(of: node), key: follower.tree.key(of: node))
      }
    }
  }

  // MARK: - The type member of a polymorphic value

  /// Starts a run that writes the member naming the type of a polymorphic value (see
  /// ``TypeRegistry``), before the model's mappings run.
  ///
  /// When the model maps the member itself, its writes take the general path, where
  /// ``claim(_:of:writing:)`` checks that the value is one of the type's names. Otherwise the
  /// registry's name is written first, and a later write of the member by the model (through a
  /// flat value) is compared with it.
  ///
  /// - Parameters:
  ///   - member: The member's key and the type's names.
  ///   - mappedByModel: Whether the model's plan maps the member.
  func beginTypeMember(_ member: TypeMember, mappedByModel: Bool) {
    let node = follower.tree.child(of: 0, key: PathKey(member.key))
    if node >= states.count {
      growStates()
    }
    typeMemberNode = node
    typeMember = (member, mappedByModel)
    if mappedByModel {
      recordsWrites = true
    }
  }

  /// Whether nothing was written at the type member yet: the model maps it, but its value was
  /// `nil` or left out by a key selection.
  var typeMemberIsEmpty: Bool {
    typeMemberNode >= 0 && typeMemberNode < states.count && states[typeMemberNode] == .empty
  }

  /// Checks that the model writes one of the type's names as the type member.
  ///
  /// - Throws: `EncodingError.invalidValue` when it writes anything else.
  private func checkTypeName(_ value: any Encodable, at node: Int) throws {
    guard let (member, _) = typeMember else { return }
    let written = try capture(value, at: node)
    if case .string(let name) = written, member.names.contains(name) {
      return
    }
    throw MappingErrors.typeNameMismatch(
      written, names: member.names, model: model, writer: activeWriter, value: value,
      codingPath: codingPath(to: node), keyPath: follower.tree.keyPath(to: node))
  }

  /// The name the registry wrote at `node` before the model's mappings ran, when `node` is the
  /// type member: a model that writes it too must write the same name.
  func typeNameWritten(at node: Int) -> String? {
    guard node == typeMemberNode, let (member, mappedByModel) = typeMember, !mappedByModel
    else { return nil }
    return member.name
  }

  /// Whether `value` is an optional holding `nil`, whatever its static type.
  ///
  /// Remembers whether the last type seen is an `Optional`, so a run of values of one type
  /// (a dictionary written member by member) pays the dynamic type check once.
  private func isNone<Value>(_ value: Value) -> Bool {
    // The cached answer first: this code is often not specialized, and comparing the type with
    // each standard scalar type costs more.
    let type = ObjectIdentifier(Value.self)
    if type != lastCheckedType {
      lastCheckedType = type
      lastCheckedTypeIsOptional = Value.self is any OptionalValue.Type
    }
    guard lastCheckedTypeIsOptional else { return false }
    return (value as? any OptionalValue)?.isNone ?? false
  }

  // MARK: - Writing

  /// Writes `value` as member `key` of the object at `parent`; `node` is the member's node.
  ///
  /// A value at a key path that other mappings continue (`"user"` and `"user.city"`) is encoded
  /// member by member into the shared object, whatever order the mappings come in.
  func write<Value: Encodable>(_ value: Value, at node: Int, parent: Int, key: PathKey) throws {
    if follower.tree.hasChildren(node), !isStandardScalar(Value.self) {
      try encodeMerged(value, at: node)
      return
    }
    guard let backend, try claim(node, of: parent, writing: value) else { return }
    do {
      try backend.encode(value, forKey: key, in: parent)
    } catch {
      throw withFullPath(error, below: parent)
    }
  }

  /// Writes `null` as member `key` of the object at `node`.
  func writeNil(forKey key: PathKey, of node: Int) throws {
    let member = follower.tree.child(of: node, key: key)
    guard let backend, try claim(member, of: node, writing: Null()) else { return }
    try backend.encodeNil(forKey: key, in: node)
  }

  /// Writes `value` in one piece at `node`, which a merged value asked for as a single value.
  func writeSingleValue<Value: Encodable>(_ value: Value, at node: Int) throws {
    guard node > 0 else { throw conflict(.flatValueNotKeyed, writing: value, at: node) }
    let parent = follower.tree.parent(of: node)
    guard let backend, try claim(node, of: parent, writing: value) else { return }
    do {
      try backend.encode(value, forKey: follower.tree.key(of: node), in: parent)
    } catch {
      throw withFullPath(error, below: parent)
    }
  }

  /// Writes `null` at `node`, which a merged value asked for as a single value.
  func writeSingleNil(at node: Int) throws {
    guard node > 0 else { throw conflict(.flatValueNotKeyed, writing: Null(), at: node) }
    let parent = follower.tree.parent(of: node)
    guard let backend, try claim(node, of: parent, writing: Null()) else { return }
    try backend.encodeNil(forKey: follower.tree.key(of: node), in: parent)
  }

  /// Encodes `value` through a ``NodeEncoder``, so its members join the object at `node`.
  private func encodeMerged<Value: Encodable>(_ value: Value, at node: Int) throws {
    let outer = pendingError
    pendingError = nil
    defer { pendingError = outer }
    do {
      try value.encode(to: NodeEncoder(run: self, node: node))
    } catch {
      throw node > 0 ? withFullPath(error, below: follower.tree.parent(of: node)) : error
    }
    if let error = pendingError {
      throw error
    }
  }

  /// Checks that nothing was written at `node` yet, marks it written, and opens the objects on
  /// the way to `parent`.
  ///
  /// - Returns: `true` to write the value; `false` when an equal value is already written at
  ///   `node` (two mappings of one key path, a nested value and one of its members): the value
  ///   is then written once.
  /// - Throws: `EncodingError.invalidValue` when `node` already holds a different value or
  ///   members, or when a key on the way to `parent` holds a value that is not an object.
  private func claim<Value: Encodable>(_ node: Int, of parent: Int, writing value: Value) throws
    -> Bool
  {
    if node >= states.count {
      growStates()
    }
    guard states[node] == .empty else {
      if states[node] == .value, try isRepeat(of: value, at: node) {
        return false
      }
      throw conflict(
        states[node] == .value ? .duplicate : .valueOverMembers, writing: value, at: node)
    }
    if node == typeMemberNode, typeMember?.mappedByModel == true {
      try checkTypeName(value, at: node)
    }
    states[node] = .value
    if keepsWrites {
      writtenValues[node] = (try capture(value, at: node), activeWriter)
    }
    try openObject(at: parent, writing: value)
    return true
  }

  /// What `value` encodes as, written at `node`.
  private func capture(_ value: any Encodable, at node: Int) throws -> EncodedValue {
    try EncodedValue.capture(value, at: codingPath(to: node), userInfo: userInfo)
  }

  /// Whether `value` is equal to what was written at `node` already.
  ///
  /// - Throws: `EncodingError.invalidValue` naming both mappings when the values differ.
  private func isRepeat(of value: any Encodable, at node: Int) throws -> Bool {
    let written: EncodedValue
    let writer: String
    if let name = typeNameWritten(at: node) {
      (written, writer) = (.string(name), MappingErrors.typeRegistry)
    } else if let recorded = writtenValues[node] {
      (written, writer) = (recorded.value, MappingErrors.mapping(recorded.writer))
    } else {
      return false
    }
    let repeated = try capture(value, at: node)
    guard repeated != written else { return true }
    throw MappingErrors.differentValues(
      written, repeated, writers: (writer, MappingErrors.mapping(activeWriter)), value: value,
      codingPath: codingPath(to: node), keyPath: follower.tree.keyPath(to: node))
  }

  // MARK: - Objects and arrays

  /// Opens the mapped object itself, so that a value whose optionals are all `nil` still encodes
  /// as an empty object, as synthesized `Codable` does.
  func openRoot() {
    backend?.openRoot()
    if states.isEmpty {
      growStates()
    }
    states[0] = .object
  }

  /// Opens the object at `node` and the objects on its way, once.
  ///
  /// - Throws: `EncodingError.invalidValue` when a key on the way already holds a value that is
  ///   not an object.
  func openObject(at node: Int, writing value: @autoclosure () -> Any) throws {
    if node >= states.count {
      growStates()
    }
    if states[node] == .object {
      return
    }
    // Most objects are members of an open object: open one level.
    let parent = follower.tree.parent(of: node)
    if node > 0, parent >= 0, states[node] == .empty, states[parent] == .object {
      backend?.openObject(node, key: follower.tree.key(of: node), in: parent)
      states[node] = .object
      return
    }
    // Otherwise walks up to the nearest open object, then opens the way down from it: a loop,
    // not recursion, so that a key path of any length cannot exhaust the stack.
    let chainStart = openingChain.count
    var closed = node
    while states[closed] == .empty, closed > 0 {
      openingChain.append(closed)
      closed = follower.tree.parent(of: closed)
    }
    switch states[closed] {
    case .object:
      break
    case .empty:
      openRoot()
    case .value, .array:
      openingChain.removeSubrange(chainStart...)
      throw conflict(.membersIntoValue, writing: value(), at: closed)
    }
    while openingChain.count > chainStart {
      let opening = openingChain.removeLast()
      backend?.openObject(
        opening, key: follower.tree.key(of: opening), in: follower.tree.parent(of: opening))
      states[opening] = .object
    }
  }

  /// Opens the object at `node` for a merged value; a conflict is thrown when its mapping ends.
  func openObjectForMerge(at node: Int) {
    do {
      try openObject(at: node, writing: "an object")
    } catch {
      deferError(error)
    }
  }

  /// Opens an array at `node` for a merged value.
  ///
  /// - Returns: The array's container, or `nil` after a conflict, which is thrown when the
  ///   mapping ends.
  func openArray(at node: Int) -> (any UnkeyedEncodingContainer)? {
    if node >= states.count {
      growStates()
    }
    do {
      guard node > 0 else { throw conflict(.flatValueNotKeyed, writing: "an array", at: node) }
      switch states[node] {
      case .empty:
        let parent = follower.tree.parent(of: node)
        try openObject(at: parent, writing: "an array")
        guard let backend else { return nil }
        let array = backend.openArray(key: follower.tree.key(of: node), in: parent)
        states[node] = .array
        arrays[node] = array
        return array
      case .array:
        return arrays[node]
      case .value:
        throw conflict(.duplicate, writing: "an array", at: node)
      case .object:
        throw conflict(.valueOverMembers, writing: "an array", at: node)
      }
    } catch {
      deferError(error)
      return nil
    }
  }

  /// Keeps the first error met where the Codable API cannot throw.
  func deferError(_ error: any Error) {
    if pendingError == nil {
      pendingError = error
    }
  }

  /// Makes room in ``states`` for the nodes this run added.
  private func growStates() {
    // Mostly one node at a time (a member a key from data adds): appended one by one, which
    // costs less than the generic append of a repeated element.
    for _ in states.count..<Swift.max(follower.tree.count, states.count) {
      states.append(.empty)
    }
  }

  // MARK: - Errors

  /// The full coding path of `node`.
  ///
  /// A flat value's run writes through a ``NodeEncoder`` of the run around it, whose coding path
  /// is that run's: the runs are walked in a loop, not through each other's `codingPath`, so
  /// that a chain of flat values nested thousands deep costs no stack.
  func codingPath(to node: Int) -> [any CodingKey] {
    var parts: [[any CodingKey]] = [follower.tree.path(to: node)]
    var run = self
    while let backend = run.backend {
      if let outer = (backend as? ContainerEncodingBackend)?.nodeEncoder {
        parts.append(outer.run.follower.tree.path(to: outer.node))
        run = outer.run
      } else {
        parts.append(backend.codingPath)
        break
      }
    }
    var path: [any CodingKey] = []
    path.reserveCapacity(parts.reduce(0) { $0 + $1.count })
    for part in parts.reversed() {
      path += part
    }
    return path
  }

  /// Gives an error the underlying encoder threw below the object at `node` the full coding
  /// path from the root (see ``MappingErrors/withFullPath(_:expected:base:)``).
  @usableFromInline
  func withFullPath(_ error: any Error, below node: Int) -> any Error {
    guard node > 0 else { return error }
    return MappingErrors.withFullPath(
      error, expected: codingPath(to: node), base: backend?.codingPath ?? [])
  }

  @inline(never)
  private func conflict(
    _ conflict: MappingErrors.Conflict, writing value: Any, at node: Int
  ) -> any Error {
    MappingErrors.encoding(
      conflict, value: value, codingPath: codingPath(to: node),
      keyPath: follower.tree.keyPath(to: node))
  }

  /// An explicit `null`, as a value to compare with what another mapping wrote.
  private struct Null: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    }
  }
}
