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
  /// For each entry, its place in the order a streaming writer needs; empty when the mappings
  /// never come back to an object after leaving it.
  ///
  /// Mapped in the order `user.login`, `tags`, `user.name`, the object `user` is closed when
  /// `tags` is written, and `user.name` can't join it in a stream of bytes. The JSON coder then
  /// writes such a model's values in this order (`user.login`, `user.name`, `tags`): the objects
  /// in the order the mappings first reach them, and each object's members in mapping order
  /// (see ``EncodeRun``).
  let streamRanks: [Int]

  /// Whether a mapping collects the members no other mapping reads (``KeyMap/unmapped``): its
  /// decodes then note which members flat values read.
  let usesUnmapped: Bool

  /// Whether the mappings come back to an object after leaving it (see ``streamRanks``).
  var revisits: Bool { !streamRanks.isEmpty }

  /// What runs read of each entry on their fast paths, side by side (see ``QuickEntry``).
  let quickEntries: FixedBuffer<QuickEntry>

  /// Nodes after ``table``'s that the entries refer to, in order.
  ///
  /// A plan made for one encode (see ``PlanFollower``) keeps the shared table of the type's
  /// plan and lists its own nodes here, which a run following it adds to its tree before it
  /// starts, instead of making a table of its own. Empty for every shared plan.
  let addedNodes: [AddedNode]

  /// A node a plan adds to its ``table`` (see ``addedNodes``).
  struct AddedNode: Sendable {
    /// Its parent: a node of the table or an earlier added node.
    let parent: Int
    /// Its member name.
    let key: PathKey
  }

  init(entries: [PlanEntry], table: PathTable, isStable: Bool, addedNodes: [AddedNode] = []) {
    self.entries = entries
    quickEntries = FixedBuffer(entries.map(QuickEntry.init))
    self.table = table
    self.isStable = isStable
    self.addedNodes = addedNodes
    var index: [String: Int] = [:]
    for (position, entry) in entries.enumerated() where index[entry.key] == nil {
      index[entry.key] = position
    }
    entryIndex = index
    let unmapped = ObjectIdentifier(UnmappedListing.self)
    usesUnmapped = entries.contains { $0.valueType == unmapped }
    let nodes = Nodes(table: table, added: addedNodes)
    mayOverlap = Self.mayOverlap(entries, nodes)
    streamRanks = Self.streamRanks(entries, nodes)
  }

  /// The nodes of a plan: its table's, then its ``addedNodes``.
  struct Nodes {
    let table: PathTable
    let added: [AddedNode]
    /// The nodes of the table that added nodes have as parent.
    private let adopted: Set<Int>

    init(table: PathTable, added: [AddedNode]) {
      self.table = table
      self.added = added
      adopted = added.isEmpty ? [] : Set(added.lazy.map(\.parent))
    }

    /// The number of nodes.
    var count: Int { table.count + added.count }

    /// The parent of `node` (`-1` for the root and for unknown nodes).
    func parent(of node: Int) -> Int {
      if node < table.count { return node >= 0 ? table.parents[node] : -1 }
      let index = node - table.count
      return index < added.count ? added[index].parent : -1
    }

    /// The member name of `node`.
    func key(of node: Int) -> PathKey {
      if node < table.count { return node >= 0 ? table.keys[node] : .empty }
      let index = node - table.count
      return index < added.count ? added[index].key : .empty
    }

    /// Whether any node has `node` as parent.
    func hasChildren(_ node: Int) -> Bool {
      guard node >= 0, node < count else { return false }
      return (node < table.count && table.hasChildren[node])
        || (!adopted.isEmpty && adopted.contains(node))
    }
  }

  /// The nodes of this plan (see ``Nodes``).
  var nodes: Nodes { Nodes(table: table, added: addedNodes) }

  /// The object node an entry writes into: the parent of a member, the object of a container,
  /// the mapped object for a flat value.
  private static func object(of entry: PlanEntry) -> Int {
    switch entry.target {
    case .flat: 0
    case .value(let parent, _, _, _): parent
    case .container(let node): node
    }
  }

  /// The nodes from the mapped object's child down to `node`, or `nil` for a node the table
  /// doesn't hold.
  private static func chain(to node: Int, in table: Nodes) -> [Int]? {
    var nodes: [Int] = []
    var current = node
    while current > 0 {
      guard current < table.count, nodes.count < table.count else { return nil }
      nodes.append(current)
      current = table.parent(of: current)
    }
    return nodes.reversed()
  }

  /// See ``streamRanks``: empty when a stream of bytes can take the entries in mapping order.
  ///
  /// Linear in the entries times the depth of their key paths.
  private static func streamRanks(_ entries: [PlanEntry], _ table: Nodes) -> [Int] {
    // Members of the mapped object alone never come back to an object (the common plan).
    guard entries.contains(where: { object(of: $0) != 0 }) else { return [] }
    var chains: [[Int]] = []
    chains.reserveCapacity(entries.count)
    var open: [Int] = []
    var closed = Set<Int>()
    var revisits = false
    for entry in entries {
      guard let chain = chain(to: object(of: entry), in: table) else { return [] }
      var shared = 0
      while shared < open.count, shared < chain.count, open[shared] == chain[shared] {
        shared += 1
      }
      closed.formUnion(open[shared...])
      if chain[shared...].contains(where: closed.contains) {
        revisits = true
      }
      open = chain
      chains.append(chain)
    }
    guard revisits else { return [] }
    // Each object ranks by the position of the first entry that reaches it; an entry sorts by
    // the ranks of the objects on its way, then by its own position. The numbers never tie: a
    // position stands either for an object's first entry or for the entry itself.
    var firstReached: [Int: Int] = [:]
    var keys: [[Int]] = []
    keys.reserveCapacity(entries.count)
    for (position, chain) in chains.enumerated() {
      var key: [Int] = []
      key.reserveCapacity(chain.count + 1)
      for node in chain {
        if let first = firstReached[node] {
          key.append(first)
        } else {
          firstReached[node] = position
          key.append(position)
        }
      }
      key.append(position)
      keys.append(key)
    }
    let order = keys.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }
    var ranks = [Int](repeating: 0, count: entries.count)
    for (rank, position) in order.enumerated() {
      ranks[position] = rank
    }
    return ranks
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
    MappingPlan(entries: entries, table: table, isStable: false, addedNodes: addedNodes)
  }

  private static func mayOverlap(_ entries: [PlanEntry], _ table: Nodes) -> Bool {
    // A flag per node: nodes are fewer than a plan's limit (see
    // ``PlanFollower/recordingLimit``), and made with the table.
    var written = [Bool](repeating: false, count: table.count)
    for entry in entries {
      switch entry.target {
      case .flat:
        return true
      case .value(_, let node, _, _):
        guard node >= 0 else { continue }
        guard node < table.count else { return true }
        if written[node] || table.hasChildren(node) {
          return true
        }
        written[node] = true
      case .container:
        continue
      }
    }
    return false
  }
}
