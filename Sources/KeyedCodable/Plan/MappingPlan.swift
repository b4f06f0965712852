/// What KeyedCodable learned from running a model's `map(map:)`: every key, parsed once.
///
/// A plan is made by the first decode (or encode) of a type and shared, read-only, by every later
/// one on any thread. A later run walks its mappings in order and only compares each key string
/// with the recorded one (see ``PlanFollower``); a key the plan does not know (a branch the first
/// run did not take) is parsed on the spot.
@usableFromInline
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

  /// Whether a mapping writes member `name` of the mapped object as a plain member.
  ///
  /// Looks through the entries: called once per value that needs it (a polymorphic value, for
  /// its type member), never on a path every value takes.
  func mapsMember(_ name: String) -> Bool {
    entries.contains { $0.isPlainMember && $0.parent == 0 && $0.memberKey.stringValue == name }
  }

  /// The same plan, marked as coming from a model whose runs differ.
  func unstable() -> MappingPlan {
    MappingPlan(entries: entries, table: table, isStable: false)
  }

  private static func mayOverlap(_ entries: [PlanEntry], _ table: PathTable) -> Bool {
    var written = Set<Int>()
    for entry in entries {
      switch entry.target {
      case .flat:
        return true
      case .value(_, let node, _, _):
        guard node >= 0 else { continue }
        if !written.insert(node).inserted || (node < table.count && table.hasChildren[node]) {
          return true
        }
      case .container:
        continue
      }
    }
    return false
  }
}
