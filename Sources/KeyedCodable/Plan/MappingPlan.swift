/// Where one mapping reads or writes its value, resolved from its key once.
@usableFromInline
enum MappingTarget: Sendable {
  /// The value is the current object itself (the key is the flat marker).
  case flat
  /// The value is member `key` of the object at node `parent`; `node` is its own node.
  /// `lossy` marks an array whose invalid elements are dropped.
  case value(parent: Int, node: Int, key: PathKey, lossy: Bool)
  /// The object at `node`, whose members are listed by ``KeysCollection``.
  case container(node: Int)
}

/// One mapping of a model, as its `map(map:)` made it the first time.
///
/// A class, so that a mapping can carry it and check it without copying anything. The fields
/// of a plain member target are repeated as stored properties for the inlined fast path.
@usableFromInline
final class PlanEntry: Sendable {
  // Stored properties are laid out in declaration order: the fields every decode and encode
  // reads come first, so they share the entry's first cache line.

  /// The key string the mapping was written with.
  @usableFromInline let key: String
  /// Whether `options` are ``KeyOptions/default``.
  @usableFromInline let hasDefaultOptions: Bool
  /// Whether the target is a member read and written as it is (not flat, not a lossy array).
  @usableFromInline let isPlainMember: Bool
  /// Whether the value's type is an `Optional` (possible when a generic caller maps `T?` as `T`).
  @usableFromInline let valueIsOptional: Bool
  /// The type of the mapped value (its lossy and optional traits decide the target).
  @usableFromInline let valueType: ObjectIdentifier
  /// For a plain member: the node of the object holding it.
  @usableFromInline let parent: Int
  /// For a plain member: its coding key.
  @usableFromInline let memberKey: PathKey
  /// For a plain member: its own node.
  @usableFromInline let node: Int
  /// Where the value lives.
  @usableFromInline let target: MappingTarget
  /// The options it was written with.
  let options: KeyOptions

  init(key: String, options: KeyOptions, valueType: Any.Type, target: MappingTarget) {
    self.key = key
    self.options = options
    hasDefaultOptions = options == .default
    self.valueType = ObjectIdentifier(valueType)
    valueIsOptional = valueType is any OptionalValue.Type
    self.target = target
    if case .value(let parent, let node, let key, false) = target {
      isPlainMember = true
      self.parent = parent
      self.node = node
      memberKey = key
    } else {
      isPlainMember = false
      parent = 0
      node = 0
      memberKey = .empty
    }
  }

  /// Whether a mapping made now with the same key is the one this entry recorded.
  func matches(_ name: String, _ options: KeyOptions, valueType: ObjectIdentifier) -> Bool {
    self.valueType == valueType && key == name && self.options == options
  }
}

/// What KeyedCodable learned from running a model's `map(map:)`: every key, parsed once.
///
/// A plan is made by the first decode (or encode) of a type and shared, read-only, by every later
/// one on any thread. A later run walks its mappings in order and only compares each key string
/// with the recorded one; a key the plan does not know (a branch the first run did not take) is
/// parsed on the spot.
final class MappingPlan: Sendable {
  /// The mappings in the order `map(map:)` made them.
  let entries: [PlanEntry]
  /// The key paths of all entries.
  let table: PathTable
  /// The first entry for each key string, to find the place again after a branch.
  let entryIndex: [String: Int]
  /// Whether every run so far made exactly these mappings.
  ///
  /// Encoding a type whose runs differ first collects the run's keys (see ``KeyedEncoder``).
  let isStable: Bool
  /// Whether two mappings may write the same place: a flat value, a key path mapped twice, or a
  /// value at a key path that other mappings continue.
  ///
  /// Only then does an encode keep what it wrote at each key path, to compare a second write
  /// with the first (see ``EncodedValue``); other models pay nothing for the check.
  let mayOverlap: Bool

  init(entries: [PlanEntry], table: PathTable, isStable: Bool) {
    self.entries = entries
    self.table = table
    self.isStable = isStable
    var index: [String: Int] = [:]
    for (position, entry) in entries.enumerated() where index[entry.key] == nil {
      index[entry.key] = position
    }
    entryIndex = index
    mayOverlap = Self.mayOverlap(entries, table)
  }

  private static func mayOverlap(_ entries: [PlanEntry], _ table: PathTable) -> Bool {
    var written = Set<Int>()
    for entry in entries {
      switch entry.target {
      case .flat:
        return true
      case .value(_, let node, _, _):
        guard node >= 0 else { continue }
        if !written.insert(node).inserted || (table.holds(node) && table.hasChildren(node)) {
          return true
        }
      case .container:
        continue
      }
    }
    return false
  }

  /// The same plan, marked as coming from a model whose runs differ.
  func unstable() -> MappingPlan {
    MappingPlan(entries: entries, table: table, isStable: false)
  }
}

/// The plans of all models mapped so far, one per type and direction.
final class PlanRegistry: @unchecked Sendable {
  /// The registry every ``KeyMap`` uses.
  static let shared = PlanRegistry()

  private let lock = Lock()
  private var decodingPlans: [ObjectIdentifier: MappingPlan] = [:]
  private var encodingPlans: [ObjectIdentifier: MappingPlan] = [:]

  /// The plan for `type` in one direction, if one was published.
  func plan(for type: ObjectIdentifier, decoding: Bool) -> MappingPlan? {
    lock.withLock { decoding ? decodingPlans[type] : encodingPlans[type] }
  }

  /// Publishes `plan` unless another thread published a different one since `previous` was read.
  func publish(
    _ plan: MappingPlan, for type: ObjectIdentifier, decoding: Bool,
    replacing previous: MappingPlan?
  ) {
    lock.withLock {
      if decoding {
        if decodingPlans[type] === previous { decodingPlans[type] = plan }
      } else {
        if encodingPlans[type] === previous { encodingPlans[type] = plan }
      }
    }
  }
}
