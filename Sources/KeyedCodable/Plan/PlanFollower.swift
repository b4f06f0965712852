/// Follows a model's ``MappingPlan`` through one run of its `map(map:)`: the cursor, the
/// recording of a new plan, and the divergence of a run that maps something else.
///
/// A run with a plan compares each key with the entry it expects next (``match(_:_:valueType:)``,
/// the only place entries are matched) and takes that entry's resolved target without parsing
/// anything. A key the plan doesn't expect there is looked up by its text (after a branch the
/// first run didn't take, the run continues in step with the plan from there), or parsed.
/// A run without a plan parses every key and records the plan that later runs follow.
@usableFromInline
struct PlanFollower {
  /// The type recorded for `keys.all(for:)` entries, which list members instead of mapping a value.
  private struct MemberListing {}

  /// The plan published when this run started, if any.
  @usableFromInline private(set) var plan: MappingPlan?
  /// Whether the run decodes: a listed member that is only read needs no node of its own.
  let isDecoding: Bool
  /// The plan's entries (empty without a plan).
  @usableFromInline private(set) var entries: [PlanEntry]
  /// The plan's ``MappingPlan/quickEntries``, as many as ``entries``; kept alive by ``plan``.
  @usableFromInline private(set) var quickEntries: UnsafePointer<QuickEntry>
  /// How many of ``entries`` a subscript may hand out before the value's type is known: all of
  /// them, or none while this run records a plan (it needs the type of every value) and once the
  /// run is over.
  @usableFromInline private(set) var subscriptLimit: Int
  /// The position in ``entries`` of the next expected mapping.
  @usableFromInline private(set) var cursor = 0
  /// The mappings of this run, when it records a new plan.
  @usableFromInline var recorded: [PlanEntry]?
  /// Whether this run made a mapping its plan doesn't list where the plan expected it.
  @usableFromInline private(set) var diverged = false
  /// The key paths known to this run.
  var tree: NodeTree
  /// Whether a recording run stopped recording (see ``recordingLimit``).
  private var recordingCut = false
  /// The positions of the plan's entries this run made before its last jump (see ``take(_:)``).
  ///
  /// One range per stretch of consecutive entries; the current stretch is
  /// ``stretchStart``..<``cursor``. Only ``UnmappedMembers`` mappings read them (see
  /// ``madeEntries(since:)``).
  private(set) var madeStretches: [Range<Int>] = []
  /// Where the current stretch of consecutive entries started.
  private(set) var stretchStart = 0

  /// The most entries, and the most nodes, a recorded plan keeps.
  ///
  /// A plan is shared and kept for the life of the process, and keys can come from data (a
  /// model that maps `map[key.stringValue]` for every member it lists): a first run over a
  /// million members must not leave a million entries behind. A model's own mappings are far
  /// fewer; a run that makes more publishes the plan of its first ones, and later runs parse
  /// the rest as they come, into nodes of their own.
  static let recordingLimit = 16_384

  /// The quick entries of a follower without a plan: none.
  private static let noQuickEntries = FixedBuffer<QuickEntry>([])

  /// Starts following `plan`, or recording a new one.
  ///
  /// - Parameters:
  ///   - plan: The plan published for the model, if any.
  ///   - recording: Whether to record the run's mappings as a new plan.
  ///   - decoding: Whether the run decodes.
  init(plan: MappingPlan?, recording: Bool, decoding: Bool) {
    self.plan = plan
    isDecoding = decoding
    entries = plan?.entries ?? []
    quickEntries = UnsafePointer((plan?.quickEntries ?? Self.noQuickEntries).base)
    recorded = recording ? [] : nil
    subscriptLimit = recording ? 0 : entries.count
    tree = NodeTree(base: plan?.table ?? .rootOnly)
    if let plan, !plan.addedNodes.isEmpty {
      tree.add(plan.addedNodes)
    }
  }

  /// Starts following `plan` again, for a run object that is reused: the state of a new
  /// follower, set in place (a run of the same type keeps its plan's arrays without retaining
  /// them again).
  ///
  /// - Parameters:
  ///   - newPlan: The plan published for the model, if any.
  ///   - recording: Whether to record the run's mappings as a new plan.
  mutating func restart(plan newPlan: MappingPlan?, recording: Bool) {
    if newPlan !== plan {
      plan = newPlan
      entries = newPlan?.entries ?? []
      quickEntries = UnsafePointer((newPlan?.quickEntries ?? Self.noQuickEntries).base)
      tree.restart(base: newPlan?.table ?? .rootOnly)
    } else {
      tree.restart(base: nil)
    }
    if let newPlan, !newPlan.addedNodes.isEmpty {
      tree.add(newPlan.addedNodes)
    }
    restartState(recording: recording)
  }

  /// Starts following the same plan again, for a run of the same model that doesn't record.
  ///
  /// ``restart(plan:recording:)`` without comparing (and so retaining) the plan. Not for a plan
  /// with ``MappingPlan/addedNodes``, which is made for one encode and never shared.
  @inline(__always)
  mutating func restartSamePlan() {
    tree.restart(base: nil)
    restartState(recording: false)
  }

  /// The cursor and what the last run recorded, as a new follower has them.
  @inline(__always)
  private mutating func restartState(recording: Bool) {
    recordingCut = false
    stretchStart = 0
    if !madeStretches.isEmpty {
      madeStretches.removeAll()
    }
    if recording {
      recorded = []
      subscriptLimit = 0
    } else {
      if recorded != nil {
        recorded = nil
      }
      subscriptLimit = entries.count
    }
    cursor = 0
    diverged = false
  }

  // MARK: - Matching

  /// The position of the plan's entry for a mapping a subscript is making, if it is the entry at
  /// the cursor (the cursor then moves past it).
  ///
  /// The fast path of every mapping: one comparison of key strings. A run that records a plan,
  /// or is over, matches nothing here (see ``subscriptLimit``).
  ///
  /// - Parameters:
  ///   - name: The key string as the mapping wrote it.
  ///   - options: The options it is read with, or `nil` for ``KeyOptions/default``.
  /// - Returns: The entry's position, or `nil`.
  @inlinable @inline(__always)
  mutating func matchNext(_ name: String, _ options: KeyOptions?) -> Int? {
    let position = cursor
    guard position < subscriptLimit else { return nil }
    // The same string as the entry's key, with the default options: the entry, read from the
    // quick entries alone. Anything else compares the strings (and options) in full.
    let quick = quickEntries[position]
    if case .none = options, quick.hasDefaultOptions, quick.key == KeyBits(name) {
    } else {
      guard entries[position].matches(name, options, valueType: nil) else { return nil }
    }
    cursor = position &+ 1
    return position
  }

  /// Where the plan's entry at `position` reads or writes its value, when it is a plain member
  /// (not flat, not a lossy array) of type `valueType`: the fast paths of the runs.
  ///
  /// Returns integers only, so that a caller holds no reference to the entry across its calls.
  @inlinable @inline(__always)
  func plainMember(at position: Int, valueType: ObjectIdentifier) -> PlainMember? {
    guard position < entries.count else { return nil }
    let entry = quickEntries[position]
    guard entry.isPlainMember, entry.valueType == valueType else { return nil }
    return PlainMember(
      position: position, parent: Int(entry.parent), node: Int(entry.node),
      valueIsOptional: entry.valueIsOptional)
  }

  /// The plan's entry for a mapping whose value type is known, if the plan expects it: the entry
  /// at the cursor, or the first entry with the same key (after a branch).
  ///
  /// - Parameters:
  ///   - name: The key string as the mapping wrote it.
  ///   - options: The options it is read with, or `nil` for ``KeyOptions/default``.
  ///   - valueType: The type of the value.
  /// - Returns: The entry, with the cursor moved past it, or `nil`.
  mutating func match(_ name: String, _ options: KeyOptions?, valueType: ObjectIdentifier)
    -> PlanEntry?
  {
    if cursor < entries.count, entries[cursor].matches(name, options, valueType: valueType) {
      return take(cursor)
    }
    guard plan != nil else { return nil }
    return resync(name, options, valueType: valueType)
  }

  /// The first entry with the key of a mapping the plan didn't expect at the cursor, if it is
  /// the same mapping: the run continues in step with the plan from there.
  mutating func resync(_ name: String, _ options: KeyOptions?, valueType: ObjectIdentifier)
    -> PlanEntry?
  {
    diverged = true
    guard let found = plan?.entryIndex[name],
      entries[found].matches(name, options, valueType: valueType)
    else { return nil }
    return take(found)
  }

  mutating func take(_ position: Int) -> PlanEntry {
    if position != cursor {
      // The run jumps (a branch): the entries it made so far stay known, for `map.unmapped`.
      if cursor > stretchStart {
        madeStretches.append(stretchStart..<cursor)
      }
      stretchStart = position
    }
    cursor = position + 1
    let entry = entries[position]
    record(entry)
    return entry
  }

  // MARK: - Targets

  /// Where a mapping made by a subscript reads or writes a value of type `valueType`.
  ///
  /// A mapping the subscript matched with the plan already knows its target, unless its value
  /// has another type than the plan recorded; any other key is matched again with its type,
  /// or parsed, and recorded when this run makes a new plan.
  ///
  /// - Parameters:
  ///   - entry: The mapping's ``Mapping/entry``, read before this call (the mapping reads it from
  ///     the run that holds this follower).
  ///   - pending: The mapping's ``Mapping/pending`` key, read the same way.
  ///   - valueType: The type of the value.
  /// - Returns: Where the value is.
  mutating func target(entry: PlanEntry?, pending: Mapping.Pending, valueType: Any.Type)
    -> MappingTarget
  {
    switch pending {
    case .none:
      guard let entry else { return .flat }
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
  mutating func resolve(_ name: String, _ options: KeyOptions, valueType: Any.Type)
    -> MappingTarget
  {
    if let entry = match(name, options, valueType: ObjectIdentifier(valueType)) {
      return entry.target
    }
    let parsed = ParsedKey(name, options: options)
    let target: MappingTarget
    if parsed.isFlat {
      target = .flat
    } else if let lossySegments = parsed.lossySegments, valueType is any LossyCollection.Type {
      target = valueTarget(lossySegments, lossy: true)
    } else {
      target = valueTarget(parsed.segments, lossy: false)
    }
    record(PlanEntry(key: name, options: options, valueType: valueType, target: target))
    return target
  }

  /// The target of a ``Key``: exactly the member it names.
  mutating func memberTarget(_ key: Key) -> MappingTarget {
    let parent = tree.node(at: key.parentPath, hint: key.parentNode)
    // Decoding reads a member by its parent's object alone; only writes need the member's node.
    let node = isDecoding ? -1 : tree.child(of: parent, key: key.codingKey)
    return .value(parent: parent, node: node, key: key.codingKey, lossy: false)
  }

  /// The node of the object whose members a mapping lists (`0` for the mapped object itself),
  /// given the mapping's entry and pending key (see ``target(entry:pending:valueType:)``).
  mutating func containerNode(entry: PlanEntry?, pending: Mapping.Pending) -> Int {
    if case .member(let key) = pending {
      let parent = tree.node(at: key.parentPath, hint: key.parentNode)
      return tree.child(of: parent, key: key.codingKey)
    }
    if let entry, case .container(let node) = entry.target {
      return node
    }
    let (name, options) = Mapping.keyAndOptions(entry: entry, pending: pending)
    let listing = ObjectIdentifier(MemberListing.self)
    if let entry = match(name, options, valueType: listing),
      case .container(let node) = entry.target
    {
      return node
    }
    let parsed = ParsedKey(name, options: options)
    let node = parsed.isFlat ? 0 : tree.node(at: parsed.segments)
    record(
      PlanEntry(
        key: name, options: options, valueType: MemberListing.self, target: .container(node: node))
    )
    return node
  }

  /// The node of the object whose unmapped members a ``UnmappedMembers`` mapping reads or
  /// writes, and the position of its plan entry when the plan has one (recorded like the
  /// other mappings, so that the JSON coder's write order knows it).
  mutating func unmappedNode(_ name: String, _ options: KeyOptions) -> (node: Int, position: Int?) {
    let marker = ObjectIdentifier(UnmappedListing.self)
    if let entry = match(name, options, valueType: marker), case .container(let node) = entry.target
    {
      return (node, cursor - 1)
    }
    let parsed = ParsedKey(name, options: options)
    let node = parsed.isFlat ? 0 : tree.node(at: parsed.segments)
    record(
      PlanEntry(
        key: name, options: options, valueType: UnmappedListing.self,
        target: .container(node: node)))
    return (node, nil)
  }

  /// The positions of the plan's entries this run made, in stretches, from `snapshot` on (all
  /// of them for a snapshot at the start).
  func madeEntries(since snapshot: MadeSnapshot) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var first = true
    for stretch in madeStretches.dropFirst(snapshot.stretches) {
      let lower = first ? Swift.max(stretch.lowerBound, snapshot.cursor) : stretch.lowerBound
      first = false
      if lower < stretch.upperBound {
        ranges.append(lower..<stretch.upperBound)
      }
    }
    let lower = first ? Swift.max(stretchStart, snapshot.cursor) : stretchStart
    if lower < cursor {
      ranges.append(lower..<cursor)
    }
    return ranges
  }

  /// Where this run is in its mappings, for ``madeEntries(since:)``.
  func snapshot(pendingKeys: Int) -> MadeSnapshot {
    MadeSnapshot(
      stretches: madeStretches.count, cursor: cursor, recorded: recorded?.count ?? 0,
      pendingKeys: pendingKeys)
  }

  /// The target of member `segments.last` of the object at the other segments.
  private mutating func valueTarget(_ segments: [String], lossy: Bool) -> MappingTarget {
    let parent = tree.node(at: segments.dropLast())
    let key = PathKey(planSegment: segments.last ?? "")
    let node = tree.child(of: parent, key: key)
    return .value(parent: parent, node: node, key: key, lossy: lossy)
  }

  /// Records `entry` for the plan this run makes, until the plan has ``recordingLimit`` entries
  /// or nodes; the plan then keeps what came before.
  private mutating func record(_ entry: PlanEntry) {
    guard recorded != nil, !recordingCut else { return }
    guard let count = recorded?.count, count < Self.recordingLimit,
      tree.count <= Self.recordingLimit
    else {
      recordingCut = true
      return
    }
    recorded?.append(entry)
  }

  /// Lets go of what this run's input made (nodes added for keys the plan doesn't know, the
  /// mappings recorded), for a run kept between values.
  mutating func trimForReuse() {
    tree.restart(base: nil)
    if recorded != nil {
      recorded = nil
    }
  }

  // MARK: - Finishing

  /// Ends the run: publishes the plan it recorded, or marks its plan unstable if an encode
  /// diverged from it.
  ///
  /// - Parameters:
  ///   - modelType: The type whose `map(map:)` ran.
  ///   - publishing: Whether the run completed, so what it learned can be shared. A run that
  ///     threw may have stopped before its last mappings.
  /// - Returns: The plan this run recorded, if it recorded one.
  @discardableResult @inline(__always)
  mutating func finish(modelType: ObjectIdentifier, publishing: Bool) -> MappingPlan? {
    subscriptLimit = 0
    // Most runs follow a plan and have nothing to publish: decided here, inlined into the run.
    guard publishing, recorded != nil || (diverged && !isDecoding) else { return nil }
    return publish(modelType: modelType)
  }

  /// Publishes what a completed run learned (see ``finish(modelType:publishing:)``): the plan
  /// it recorded, or that the encoding plan it followed is unstable.
  @inline(never)
  private mutating func publish(modelType: ObjectIdentifier) -> MappingPlan? {
    guard let recorded else {
      if diverged, !isDecoding, let plan, plan.isStable {
        PlanRegistry.shared.publish(
          plan.unstable(), for: modelType, decoding: false, replacing: plan)
      }
      return nil
    }
    let made: MappingPlan
    let use: PathTable.Use = isDecoding ? .decoding : .encoding
    if let plan, !isDecoding, !recordingCut, tree.count <= Self.recordingLimit {
      // An encode that collects its key paths while its type's plan is unstable (see
      // ``KeyedEncoder``): the plan is for this encode alone, so it keeps the type's table and
      // lists the nodes this run added, rather than making a table of them all.
      made = MappingPlan(
        entries: recorded, table: tree.base, isStable: plan.isStable, addedNodes: tree.addedNodes)
    } else if recordingCut || tree.count > Self.recordingLimit {
      // Every entry recorded refers to nodes made before it, when there were no more than the
      // limit. The plan doesn't list all the run's mappings: encodes collect their keys first.
      made = MappingPlan(
        entries: recorded, table: tree.table(nodes: Self.recordingLimit, use: use),
        isStable: false)
    } else {
      made = MappingPlan(
        entries: recorded, table: tree.table(use: use), isStable: plan?.isStable ?? true)
    }
    if plan == nil {
      PlanRegistry.shared.publish(made, for: modelType, decoding: isDecoding, replacing: nil)
    }
    return made
  }
}

/// The type recorded for ``UnmappedMembers`` entries, which collect members instead of mapping
/// a value.
struct UnmappedListing {}

/// A point in a run's mappings (see ``PlanFollower/madeEntries(since:)``).
struct MadeSnapshot {
  /// The number of closed stretches of plan entries.
  var stretches: Int
  /// The cursor.
  var cursor: Int
  /// The number of entries recorded.
  var recorded: Int
  /// The number of the run's pending keys.
  var pendingKeys: Int

  /// The start of a run.
  static let start = MadeSnapshot(stretches: 0, cursor: 0, recorded: 0, pendingKeys: 0)
}

/// A plan entry that reads or writes a plain member, as the fast paths of the runs need it (see
/// ``PlanFollower/plainMember(at:valueType:)``).
@usableFromInline
struct PlainMember {
  /// The entry's position in the plan.
  @usableFromInline let position: Int
  /// The node of the object holding the member.
  @usableFromInline let parent: Int
  /// The member's own node.
  @usableFromInline let node: Int
  /// Whether the value's type is an `Optional` (possible when a generic caller maps `T?` as `T`).
  @usableFromInline let valueIsOptional: Bool

  @inlinable
  init(position: Int, parent: Int, node: Int, valueIsOptional: Bool) {
    self.position = position
    self.parent = parent
    self.node = node
    self.valueIsOptional = valueIsOptional
  }
}
