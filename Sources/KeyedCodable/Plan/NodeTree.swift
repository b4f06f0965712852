/// The nodes one run knows: those of its plan's ``PathTable``, then those the run adds.
///
/// A run whose mappings all follow its plan never adds a node, and reads the shared table only.
/// A key path the plan doesn't know (a branch the first run didn't take, a member listed by
/// ``KeysCollection``) gets nodes numbered after the table's, kept in this value, so the shared
/// table is never copied or changed.
struct NodeTree {
  /// The plan's table, shared with every other run of the type.
  private(set) var base: PathTable
  /// For each added node, its parent.
  private var addedParents: [Int] = []
  /// For each added node, its member name.
  private var addedKeys: [PathKey] = []
  /// For each added node, whether an added node has it as parent.
  private var addedHasChildren: [Bool] = []
  /// The added nodes by parent and name.
  private var addedChildren: [PathTable.Child: Int] = [:]
  /// Nodes of ``base`` that gained children among the added nodes.
  private var adoptedParents: Set<Int> = []

  init(base: PathTable) {
    self.base = base
  }

  /// Forgets the added nodes, and takes `newBase` as the table when one is given.
  @inline(__always)
  mutating func restart(base newBase: PathTable?) {
    if let newBase {
      base = newBase
    }
    if !addedParents.isEmpty || !adoptedParents.isEmpty {
      forgetAddedNodes()
    }
  }

  /// Forgets the nodes added to the table, keeping the storage.
  @inline(never)
  private mutating func forgetAddedNodes() {
    addedParents.removeAllForReuse()
    addedKeys.removeAllForReuse()
    addedHasChildren.removeAllForReuse()
    addedChildren.removeAllForReuse()
    adoptedParents.removeAllForReuse()
  }

  /// The number of nodes known: the table's and the added ones.
  var count: Int { base.count + addedParents.count }

  /// The parent of `node` (`-1` for the root and for unknown nodes).
  func parent(of node: Int) -> Int {
    if node < base.count { return node >= 0 ? base.parents[node] : -1 }
    let index = node - base.count
    return index < addedParents.count ? addedParents[index] : -1
  }

  /// The member name of `node`.
  func key(of node: Int) -> PathKey {
    if node < base.count { return node >= 0 ? base.keys[node] : .empty }
    let index = node - base.count
    return index < addedKeys.count ? addedKeys[index] : .empty
  }

  /// Whether any known key path continues below `node`.
  func hasChildren(_ node: Int) -> Bool {
    if node < base.count {
      guard node >= 0 else { return false }
      return base.hasChildren[node] || (!adoptedParents.isEmpty && adoptedParents.contains(node))
    }
    let index = node - base.count
    return index < addedHasChildren.count && addedHasChildren[index]
  }

  /// The node for member `name` of `parent`, if one is known.
  func existingChild(of parent: Int, named name: String) -> Int? {
    switch base.asciiChildren.node(of: parent, named: name, parents: base.parents, keys: base.keys)
    {
    case .found(let node):
      return node
    case .absent:
      return addedChildren.isEmpty
        ? nil : addedChildren[PathTable.Child(parent: parent, name: name)]
    case .unknown:
      let child = PathTable.Child(parent: parent, name: name)
      return base.children[child] ?? (addedChildren.isEmpty ? nil : addedChildren[child])
    }
  }

  /// The node for member `key` of `parent`, added if no node is known for it.
  mutating func child(of parent: Int, key: PathKey) -> Int {
    if let node = existingChild(of: parent, named: key.stringValue) {
      return node
    }
    let node = count
    addedParents.append(parent)
    addedKeys.append(key)
    addedHasChildren.append(false)
    addedChildren[PathTable.Child(parent: parent, name: key.stringValue)] = node
    if parent < base.count {
      adoptedParents.insert(parent)
    } else {
      addedHasChildren[parent - base.count] = true
    }
    return node
  }

  /// The node at the end of `path`, starting from the mapped object, added where needed.
  ///
  /// `hint` is a node that may already be the answer (from a ``Key``); it is checked against
  /// `path` before it is used.
  mutating func node(at path: some BidirectionalCollection<String>, hint: Int = -1) -> Int {
    if hint >= 0, hint < count, isNode(hint, at: path) {
      return hint
    }
    var node = 0
    for name in path {
      node = child(of: node, key: PathKey(planSegment: name))
    }
    return node
  }

  private func isNode(_ node: Int, at path: some BidirectionalCollection<String>) -> Bool {
    var current = node
    for name in path.reversed() {
      guard current > 0, key(of: current).stringValue == name else { return false }
      current = parent(of: current)
    }
    return current == 0
  }

  /// The coding keys from the mapped object down to `node`.
  func path(to node: Int) -> [PathKey] {
    var keys: [PathKey] = []
    var current = node
    while current > 0 {
      keys.append(key(of: current))
      current = parent(of: current)
    }
    return keys.reversed()
  }

  /// The member names from the mapped object down to `node`, joined with dots for messages.
  func keyPath(to node: Int) -> String {
    path(to: node).map(\.stringValue).joined(separator: ".")
  }

  /// A table of the first `limit` nodes known (all of them if there are fewer): made when a run
  /// publishes a plan it stopped recording (see ``PlanFollower/recordingLimit``).
  func table(nodes limit: Int) -> PathTable {
    let count = Swift.min(limit, self.count)
    guard count < self.count else { return table() }
    let parents = (0..<count).map { parent(of: $0) }
    let keys = (0..<count).map { key(of: $0) }
    var hasChildren = [Bool](repeating: false, count: count)
    var children: [PathTable.Child: Int] = [:]
    for node in 1..<Swift.max(count, 1) where parents[node] >= 0 {
      hasChildren[parents[node]] = true
      children[PathTable.Child(parent: parents[node], name: keys[node].stringValue)] = node
    }
    return PathTable(parents: parents, keys: keys, hasChildren: hasChildren, children: children)
  }

  /// A table of every node known: made when a run publishes the plan it recorded.
  func table() -> PathTable {
    guard !addedParents.isEmpty else { return base }
    var hasChildren = base.hasChildren
    for parent in adoptedParents {
      hasChildren[parent] = true
    }
    return PathTable(
      parents: base.parents + addedParents, keys: base.keys + addedKeys,
      hasChildren: hasChildren + addedHasChildren,
      children: base.children.merging(addedChildren) { first, _ in first })
  }
}
