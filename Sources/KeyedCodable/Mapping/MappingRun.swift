/// What one run of a model's `map(map:)` shares in both directions: following the plan, and
/// knowing when the run is over.
///
/// ``DecodeRun`` and ``EncodeRun`` add what each direction does with a mapping. The ``KeyMap`` a
/// model receives is the facade in front of one of them.
@usableFromInline
class MappingRun {
  #if DEBUG
    /// The dynamic type whose `map(map:)` runs.
    final private(set) var model: Any.Type
    /// The identity of ``model``, which owns the plan.
    final private(set) var modelType: ObjectIdentifier
  #else
    /// The dynamic type whose `map(map:)` runs.
    @exclusivity(unchecked) final private(set) var model: Any.Type
    /// The identity of ``model``, which owns the plan.
    @exclusivity(unchecked) final private(set) var modelType: ObjectIdentifier
  #endif

  // Unchecked exclusivity in release builds only: the run is used by one thread, through calls
  // that never overlap, and these properties are touched on every mapping. Debug builds (and so
  // `swift test` and the sanitizer runs) keep the checks.
  #if DEBUG
    /// The plan, the cursor and the key paths of this run.
    @usableFromInline final var follower: PlanFollower
    /// Whether the run is over; a mapping used after its `map(map:)` returned throws.
    @usableFromInline final var isFinished = false
    /// Whether every mapping must take the general path: the run is over, or the context
    /// restricts it.
    @usableFromInline final var takesSlowPath = false
  #else
    /// The plan, the cursor and the key paths of this run.
    @exclusivity(unchecked) @usableFromInline final var follower: PlanFollower
    /// Whether the run is over; a mapping used after its `map(map:)` returned throws.
    @exclusivity(unchecked) @usableFromInline final var isFinished = false
    /// Whether every mapping must take the general path: the run is over, or the context
    /// restricts it.
    @exclusivity(unchecked) @usableFromInline final var takesSlowPath = false
  #endif

  #if DEBUG
    /// The keys of this run's mappings that the plan did not resolve, in the order they were
    /// made (see ``Mapping/reference``).
    @usableFromInline final var pendingKeys: [Mapping.Pending] = []
  #else
    /// The keys of this run's mappings that the plan did not resolve, in the order they were
    /// made (see ``Mapping/reference``).
    @exclusivity(unchecked) @usableFromInline final var pendingKeys: [Mapping.Pending] = []
  #endif

  #if DEBUG
    /// The keys this run is restricted to, by the context.
    final private(set) var selection: KeySelection?
    /// Which selected key paths selected a mapping so far.
    private var selectionUsed: [Bool] = []
    /// Whether the context asks for every `nil` optional to be written as `null`.
    final private(set) var contextWritesExplicitNulls = false
  #else
    /// The keys this run is restricted to, by the context.
    @exclusivity(unchecked) final private(set) var selection: KeySelection?
    /// Which selected key paths selected a mapping so far.
    @exclusivity(unchecked) private var selectionUsed: [Bool] = []
    /// Whether the context asks for every `nil` optional to be written as `null`.
    @exclusivity(unchecked) final private(set) var contextWritesExplicitNulls = false
  #endif

  #if DEBUG
    /// The ``UnmappedMembers`` mappings this run made.
    ///
    /// Checked when the run ends: no mapping after one of them may read a member of its object
    /// (see ``checkUnmappedOrder()``). Empty, and never looked at beyond that, for models that
    /// don't use them.
    final var unmappedMarks: [UnmappedMark] = []
  #else
    /// The ``UnmappedMembers`` mappings this run made.
    ///
    /// Checked when the run ends: no mapping after one of them may read a member of its object
    /// (see ``checkUnmappedOrder()``). Empty, and never looked at beyond that, for models that
    /// don't use them. Read once per run: unchecked exclusivity in release builds, as the other
    /// state of a run.
    @exclusivity(unchecked) final var unmappedMarks: [UnmappedMark] = []
  #endif

  /// Starts a run of `model`'s `map(map:)`.
  ///
  /// - Parameters:
  ///   - model: The dynamic type whose `map(map:)` runs.
  ///   - plan: The plan published for it, if any.
  ///   - recording: Whether the run records a plan.
  ///   - decoding: Whether the run decodes.
  ///   - readsContext: Whether a context that changes how runs behave may be bound (see
  ///     ``PlanRegistry/planAndContextFlag(for:decoding:)``).
  init(model: Any.Type, plan: MappingPlan?, recording: Bool, decoding: Bool, readsContext: Bool) {
    self.model = model
    modelType = ObjectIdentifier(model)
    follower = PlanFollower(plan: plan, recording: recording, decoding: decoding)
    if readsContext {
      readContext(decoding: decoding)
    }
  }

  /// Lets go of what the last value's input made grow (nodes for keys the plan didn't know,
  /// recorded mappings), for a run kept in a ``RunPool`` until the next value: nothing an input
  /// made stays alive after its decode or encode.
  func trimForReuse() {
    follower.trimForReuse()
    if pendingKeys.capacity > KeptStorage.limit {
      pendingKeys = []
    }
  }

  /// Starts another run of `model` on this object, for runs that are kept and reused (see
  /// ``JSONValueDecoder``): as if it were new.
  final func restartRun(
    model: Any.Type, plan: MappingPlan?, recording: Bool, readsContext: Bool
  ) {
    self.model = model
    modelType = ObjectIdentifier(model)
    follower.restart(plan: plan, recording: recording)
    restartState(readsContext: readsContext)
  }

  /// Starts another run of the model and plan the last run followed, if it followed a plan of
  /// `modelType` (see ``restartRun(model:plan:recording:readsContext:)``): the model, the plan
  /// and its arrays stay as they are.
  ///
  /// - Returns: `false`, having changed nothing, when the last run was of another model or
  ///   recorded its mappings.
  @inline(__always)
  final func restartSamePlan(of modelType: ObjectIdentifier, readsContext: Bool) -> Bool {
    guard modelType == self.modelType, follower.plan != nil else { return false }
    follower.restartSamePlan()
    restartState(readsContext: readsContext)
    return true
  }

  /// What a run starts with besides its model and plan.
  @inline(__always)
  private final func restartState(readsContext: Bool) {
    isFinished = false
    takesSlowPath = false
    if !pendingKeys.isEmpty {
      pendingKeys.removeAllForReuse()
    }
    if selection != nil {
      selection = nil
      selectionUsed = []
    }
    contextWritesExplicitNulls = false
    if !unmappedMarks.isEmpty {
      unmappedMarks.removeAll()
    }
    if debugContext != nil {
      debugContext = nil
    }
    if readsContext {
      readContext(decoding: follower.isDecoding)
    }
  }

  /// Takes what the current context says about this run: a key selection, explicit nulls,
  /// debugging.
  private func readContext(decoding: Bool) {
    guard let context = MappingContext.current else { return }
    selection = context.selections[modelType]
    if let selection {
      selectionUsed = Array(repeating: false, count: selection.paths.count)
    }
    contextWritesExplicitNulls = !decoding && context.writesExplicitNulls
    takesSlowPath = selection != nil || contextWritesExplicitNulls
    debugContext = decoding && !context.debuggedTypes.isEmpty ? context : nil
  }

  #if DEBUG
    /// The context, when it asks for models to be printed (see ``DecodeRun``).
    final private(set) var debugContext: MappingContext?
  #else
    /// The context, when it asks for models to be printed (see ``DecodeRun``).
    @exclusivity(unchecked) final private(set) var debugContext: MappingContext?
  #endif

  /// Runs `body` with the context changed by a mapping's scope (see
  /// ``Mapping/configured(with:)``).
  ///
  /// - Parameters:
  ///   - scope: The change, given the type of the mapped value.
  ///   - valueType: The type of the mapped value.
  ///   - affectsRuns: Whether the change makes runs below look at the context.
  ///   - body: The decode or encode of the value.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  final func scoped<Result>(
    _ scope: (inout MappingContext, Any.Type) -> Void, _ valueType: Any.Type, affectsRuns: Bool,
    _ body: () throws -> Result
  ) throws -> Result {
    var context = MappingContext.current ?? MappingContext()
    scope(&context, valueType)
    if affectsRuns {
      PlanRegistry.shared.noteContextsAffectRuns()
      noteContextsAffectRuns()
    }
    return try MappingContext.Binding.withValue(context, body)
  }

  /// Tells the coder of this run that a context that changes how runs behave is bound from now
  /// on, for coders that read ``PlanRegistry/contextsAffectRuns`` once per document.
  ///
  /// The runs of a coder that looks the flag up for each run (the container backends) have
  /// nothing to do: ``DecodeRun`` and ``EncodeRun`` override it for their JSON coders.
  func noteContextsAffectRuns() {}

  /// The mapping for `name` read with `options` (`nil` for the default ones), carrying the
  /// position of the plan's entry when the plan expects this key next, so the operator that uses
  /// it needs no lookup at all.
  @inlinable @inline(__always)
  final func mapping(named name: String, options: KeyOptions?, in map: KeyMap) -> Mapping {
    Mapping(map: map, reference: reference(named: name, options: options))
  }

  /// The reference of a mapping of `name` read with `options` (see ``Mapping/reference``).
  ///
  /// The position of the plan's entry when the plan expects this key next, or the key kept with
  /// the run. Out of line, with the mapping made in the model: the model's code is smaller, and
  /// releases only the key map when it drops the mapping.
  @usableFromInline
  final func reference(named name: String, options: KeyOptions?) -> Int {
    if let position = follower.matchNext(name, options) {
      return position
    }
    return pendingReference(named: name, options: options)
  }

  /// ``reference(named:options:)`` for a key the plan did not expect, out of line: the call
  /// for an expected key saves fewer registers.
  @inline(never)
  private final func pendingReference(named name: String, options: KeyOptions?) -> Int {
    pendingKeys.append(.name(name, options ?? .default))
    return -pendingKeys.count
  }

  /// A mapping whose key the plan did not resolve: the key is kept with the run.
  @usableFromInline
  final func pendingMapping(_ key: Mapping.Pending, in map: KeyMap) -> Mapping {
    pendingKeys.append(key)
    return Mapping(map: map, pendingReference: -pendingKeys.count)
  }

  /// Where `mapping` reads or writes a value of type `valueType`.
  ///
  /// A mapping the plan resolved knows its target, unless its value has another type than the
  /// plan recorded; a listed member names its own; any other key is matched or parsed (see
  /// ``PlanFollower/target(entry:pending:valueType:)``).
  final func target(of mapping: Mapping, valueType: Any.Type) -> MappingTarget {
    let reference = mapping.reference
    if reference >= 0 {
      let entry = reference < follower.entries.count ? follower.entries[reference] : nil
      if let entry, entry.isPlainMember, entry.valueType == ObjectIdentifier(valueType) {
        return entry.target
      }
      return follower.target(entry: entry, pending: .none, valueType: valueType)
    }
    let pending = mapping.pending
    if case .member(let key) = pending {
      return follower.memberTarget(key)
    }
    return follower.target(entry: nil, pending: pending, valueType: valueType)
  }

  /// The coding path of the mapped object, from the root of the document.
  var modelCodingPath: [any CodingKey] { [] }

  /// Throws when `mapping` is used after the run it belongs to ended.
  @usableFromInline
  final func checkInUse(_ mapping: Mapping) throws {
    guard isFinished else { return }
    throw MappingErrors.usedAfterRun(mapping.keyDescription, decoding: follower.isDecoding)
  }

  /// Runs one `map(map:)` call and ends the run.
  ///
  /// - Parameter body: The call.
  /// - Returns: The plan the run recorded, if it recorded one.
  /// - Throws: The error of the call; a run that throws shares nothing it learned.
  ///
  /// A nested model's run runs inside the call of its parent's, once per level of nesting: this
  /// frame is kept small (the end of the run is out of line), so that deep documents decode on
  /// small stacks.
  @discardableResult
  final func run(_ body: () throws -> Void) throws -> MappingPlan? {
    do {
      try body()
    } catch {
      abandon()
      throw error
    }
    return try complete()
  }

  /// Ends a run that threw: it shares nothing it learned.
  @inline(never)
  final func abandon() {
    isFinished = true
    takesSlowPath = true
    follower.finish(modelType: modelType, publishing: false)
  }

  /// Ends a run that completed: publishes what it learned, and throws for a key selection that
  /// named something the run never mapped.
  @discardableResult @inline(never)
  final func complete() throws -> MappingPlan? {
    isFinished = true
    takesSlowPath = true
    if !unmappedMarks.isEmpty {
      do {
        try checkUnmappedOrder()
      } catch {
        follower.finish(modelType: modelType, publishing: false)
        throw error
      }
    }
    let plan = follower.finish(modelType: modelType, publishing: true)
    if selection != nil {
      try checkSelectionUsed()
    }
    return plan
  }

  /// Throws when the key selection names a key the run never mapped.
  ///
  /// Out of line: the errors it makes are of the standard library's resilient types, whose
  /// metadata a function looks up when it starts, whether it throws or not. Inside
  /// ``complete()``, that was four metadata lookups for every run (a fifth of its time on
  /// citm_catalog.json).
  @inline(never)
  private final func checkSelectionUsed() throws {
    if let selection, let unused = selectionUsed.firstIndex(of: false) {
      throw MappingErrors.noted(
        MappingErrors.unmappedSelection(
          selection.names[unused], model: model, decoding: follower.isDecoding,
          codingPath: modelCodingPath),
        model: model, expected: nil, keyPath: nil)
    }
  }

  // MARK: - Key selections

  /// Whether `mapping` is selected: `false` when the context restricts this run to other keys,
  /// and the mapping then does nothing (see ``skips(_:)``).
  @inlinable
  final func isSelected(_ mapping: Mapping) -> Bool {
    !takesSlowPath || !skips(mapping)
  }

  /// Whether the context restricts this run to other keys than `mapping`'s: the mapping then
  /// does nothing.
  ///
  /// A mapping is selected when a selected key path equals its key path or contains it.
  @usableFromInline
  final func skips(_ mapping: Mapping) -> Bool {
    guard let selection, !isFinished else { return false }
    let path: [String]
    if case .member(let key) = mapping.pending {
      path = key.path
    } else {
      let (name, options) = mapping.keyAndOptions
      let parsed = ParsedKey(name, options: options)
      path = parsed.isFlat ? [] : parsed.lossySegments ?? parsed.segments
    }
    let selectors = selection.selectors(of: path)
    for selector in selectors {
      selectionUsed[selector] = true
    }
    return selectors.isEmpty
  }
}
