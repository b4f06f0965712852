/// Where one mapping reads or writes its value, resolved from its key once.
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
struct PlanEntry: Sendable {
  /// The key string the mapping was written with.
  var key: String
  /// The options it was written with.
  var options: KeyOptions
  /// The type of the mapped value (its lossy and optional traits decide the target).
  var valueType: ObjectIdentifier
  /// Where the value lives.
  var target: MappingTarget

  /// Whether a mapping made now is the one this entry recorded.
  func matches(key: String, options: KeyOptions, valueType: ObjectIdentifier) -> Bool {
    self.valueType == valueType && self.key == key && self.options == options
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
  /// Whether every run so far made exactly these mappings. Encoding a type whose runs differ
  /// first collects the run's keys (see ``KeyedEncoder``).
  let isStable: Bool

  init(entries: [PlanEntry], table: PathTable, isStable: Bool) {
    self.entries = entries
    self.table = table
    self.isStable = isStable
    var index: [String: Int] = [:]
    for (position, entry) in entries.enumerated() where index[entry.key] == nil {
      index[entry.key] = position
    }
    entryIndex = index
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

  private struct Slot: Hashable {
    var type: ObjectIdentifier
    var isDecoding: Bool
  }

  private let lock = Lock()
  private var plans: [Slot: MappingPlan] = [:]

  /// The plan for `type` in one direction, if one was published.
  func plan(for type: ObjectIdentifier, decoding: Bool) -> MappingPlan? {
    lock.withLock { plans[Slot(type: type, isDecoding: decoding)] }
  }

  /// Publishes `plan` unless another thread published a different one since `previous` was read.
  func publish(
    _ plan: MappingPlan, for type: ObjectIdentifier, decoding: Bool,
    replacing previous: MappingPlan?
  ) {
    let slot = Slot(type: type, isDecoding: decoding)
    lock.withLock {
      if plans[slot] === previous {
        plans[slot] = plan
      }
    }
  }
}
