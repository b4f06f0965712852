/// The nodes one run knows: those of its plan's ``PathTable``, then those the run adds.
///
/// A run whose mappings all follow its plan never adds a node, and reads the shared table only.
/// A key path the plan doesn't know (a branch the first run didn't take, a member listed by
/// ``KeysCollection``) gets nodes numbered after the table's, kept in this value, so the shared
/// table is never copied or changed.
struct NodeTree {
  /// The plan's table, shared with every other run of the type.
  private(set) var base: PathTable
  /// A node the run added, after the table's.
  private struct AddedNode {
    /// Its parent.
    var parent: Int
    /// Its member name.
    var key: PathKey
    /// Whether an added node has it as parent.
    var hasChildren = false
    /// The fingerprint of its parent and name
    /// (``PathTable/ASCIIChildren/fingerprint(of:parent:)``), while ``addedByName`` is off.
    var fingerprint: UInt64 = 0
    /// Its slot in ``addedSlots``, or `-1`.
    var slot: Int32 = -1
  }

  /// The added nodes, in order: node `base.count + i` is `added[i]`.
  private var added: [AddedNode] = []
  /// The added nodes by fingerprint, open addressing at a load of at most one half: an added
  /// node's position in ``added`` plus one in each used slot, `0` in a free one.
  private var addedSlots: [Int32] = []
  /// Whether the added nodes are found through ``addedChildren`` instead of ``addedSlots``:
  /// from the first name that isn't ASCII, which may equal an ASCII name as a `String` (the
  /// Kelvin sign and `K`) without sharing its bytes.
  private var addedByName = false
  /// The added nodes by parent and name, while ``addedByName`` is on.
  private var addedChildren: [PathTable.Child: Int] = [:]
  /// Nodes of ``base`` that gained children among the added nodes.
  private var adoptedParents: Set<Int> = []
  /// The node of ``base`` last added to ``adoptedParents`` (`-1` for none), so that members
  /// added one after the other to one object insert it once.
  private var lastAdoptedParent = -1

  init(base: PathTable) {
    self.base = base
  }

  /// Forgets the added nodes, and takes `newBase` as the table when one is given.
  @inline(__always)
  mutating func restart(base newBase: PathTable?) {
    if let newBase {
      base = newBase
    }
    if !added.isEmpty {
      forgetAddedNodes()
    }
  }

  /// Forgets the nodes added to the table, keeping the storage.
  @inline(never)
  private mutating func forgetAddedNodes() {
    if addedSlots.count > KeptStorage.limit {
      addedSlots = []
    } else {
      // Only the slots this run used, not the whole table a larger run left.
      addedSlots.withUnsafeMutableBufferPointer { slots in
        for node in added where node.slot >= 0 && Int(node.slot) < slots.count {
          slots[Int(node.slot)] = 0
        }
      }
    }
    added.removeAllForReuse()
    if addedByName {
      addedByName = false
      addedChildren.removeAllForReuse()
    }
    if !adoptedParents.isEmpty {
      adoptedParents.removeAllForReuse()
    }
    lastAdoptedParent = -1
  }

  /// The nodes added to the table, in order, for a plan made for one encode (see
  /// ``MappingPlan/addedNodes``).
  var addedNodes: [MappingPlan.AddedNode] {
    added.map { MappingPlan.AddedNode(parent: $0.parent, key: $0.key) }
  }

  /// Adds a plan's ``MappingPlan/addedNodes`` to a tree whose base is the plan's table and
  /// that has added nothing yet: they get the numbers the plan's entries refer to.
  mutating func add(_ nodes: [MappingPlan.AddedNode]) {
    for node in nodes {
      _ = child(of: node.parent, key: node.key)
    }
  }

  /// The number of nodes known: the table's and the added ones.
  var count: Int { base.count + added.count }

  /// The parent of `node` (`-1` for the root and for unknown nodes).
  func parent(of node: Int) -> Int {
    if node < base.count { return node >= 0 ? base.parents[node] : -1 }
    let index = node - base.count
    return index < added.count ? added[index].parent : -1
  }

  /// The member name of `node`.
  func key(of node: Int) -> PathKey {
    if node < base.count { return node >= 0 ? base.keys[node] : .empty }
    let index = node - base.count
    return index < added.count ? added[index].key : .empty
  }

  /// Whether any known key path continues below `node`.
  func hasChildren(_ node: Int) -> Bool {
    if node < base.count {
      guard node >= 0 else { return false }
      return base.hasChildren[node] || (!adoptedParents.isEmpty && adoptedParents.contains(node))
    }
    let index = node - base.count
    return index < added.count && added[index].hasChildren
  }

  /// The node for member `name` of `parent`, if one is known.
  mutating func existingChild(of parent: Int, named name: String) -> Int? {
    existingChild(
      of: parent, named: name,
      fingerprint: PathTable.ASCIIChildren.fingerprint(of: name, parent: parent))
  }

  /// ``existingChild(of:named:)``, given the fingerprint of `parent` and `name`
  /// (``PathTable/ASCIIChildren/fingerprint(of:parent:)``).
  private mutating func existingChild(of parent: Int, named name: String, fingerprint: UInt64?)
    -> Int?
  {
    switch base.asciiChildren.node(
      of: parent, named: name, fingerprint: fingerprint, parents: base.parents, keys: base.keys)
    {
    case .found(let node):
      return node
    case .absent:
      return added.isEmpty
        ? nil : addedNode(of: parent, named: name, fingerprint: fingerprint)
    case .unknown:
      if let node = base.children[PathTable.Child(parent: parent, name: name)] {
        return node
      }
      return added.isEmpty
        ? nil : addedNode(of: parent, named: name, fingerprint: fingerprint)
    }
  }

  /// The added node for member `name` of `parent`, if any.
  ///
  /// An ASCII name is found by its fingerprint and one comparison of its bytes, without hashing
  /// a `String`; from the first name that isn't ASCII on, by its name (see ``addedByName``).
  private mutating func addedNode(of parent: Int, named name: String, fingerprint: UInt64?)
    -> Int?
  {
    if !addedByName, let fingerprint {
      let mask = addedSlots.count &- 1
      guard mask > 0 else { return nil }
      var slot = Int(truncatingIfNeeded: fingerprint) & mask
      while true {
        let entry = Int(addedSlots[slot])
        guard entry > 0 else { return nil }
        let index = entry &- 1
        // Both names are ASCII: equal as strings exactly when their bytes are.
        if added[index].fingerprint == fingerprint, added[index].parent == parent,
          added[index].key.stringValue == name
        {
          return base.count &+ index
        }
        slot = (slot &+ 1) & mask
      }
    }
    if !addedByName {
      indexAddedNodesByName(upTo: added.count)
    }
    return addedChildren[PathTable.Child(parent: parent, name: name)]
  }

  /// The node for member `key` of `parent`, added if no node is known for it.
  mutating func child(of parent: Int, key: PathKey) -> Int {
    let name = key.stringValue
    let fingerprint = PathTable.ASCIIChildren.fingerprint(of: name, parent: parent)
    if let node = existingChild(of: parent, named: name, fingerprint: fingerprint) {
      return node
    }
    let node = count
    let index = added.count
    added.append(AddedNode(parent: parent, key: key))
    if !addedByName, let fingerprint {
      added[index].fingerprint = fingerprint
      indexAdded(index)
    } else {
      if !addedByName {
        indexAddedNodesByName(upTo: index)
      }
      addedChildren[PathTable.Child(parent: parent, name: name)] = node
    }
    if parent < base.count {
      if parent != lastAdoptedParent {
        adoptedParents.insert(parent)
        lastAdoptedParent = parent
      }
    } else {
      added[parent - base.count].hasChildren = true
    }
    return node
  }

  /// Puts the added node at `index` (in ``added``) in ``addedSlots``, growing it to keep its
  /// load at most one half.
  private mutating func indexAdded(_ index: Int) {
    if addedSlots.count < (index &+ 1) &* 2 {
      var capacity = Swift.max(addedSlots.count, 8)
      while capacity < (index &+ 1) &* 2 {
        capacity &*= 2
      }
      addedSlots = [Int32](repeating: 0, count: capacity)
      for earlier in 0..<index where added[earlier].slot >= 0 {
        place(earlier)
      }
    }
    place(index)
  }

  /// Puts the added node at `index` in the first free slot from its fingerprint's.
  private mutating func place(_ index: Int) {
    let mask = addedSlots.count &- 1
    var slot = Int(truncatingIfNeeded: added[index].fingerprint) & mask
    while addedSlots[slot] != 0 {
      slot = (slot &+ 1) & mask
    }
    addedSlots[slot] = Int32(truncatingIfNeeded: index &+ 1)
    added[index].slot = Int32(truncatingIfNeeded: slot)
  }

  /// Switches the added nodes to ``addedChildren``: the first `count` of them, all ASCII, are
  /// put there.
  private mutating func indexAddedNodesByName(upTo count: Int) {
    addedByName = true
    addedChildren.removeAll(keepingCapacity: true)
    for index in 0..<count {
      addedChildren[
        PathTable.Child(parent: added[index].parent, name: added[index].key.stringValue)] =
        base.count + index
    }
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
  func table(nodes limit: Int, use: PathTable.Use) -> PathTable {
    let count = Swift.min(limit, self.count)
    guard count < self.count else { return table(use: use) }
    let parents = (0..<count).map { parent(of: $0) }
    let keys = (0..<count).map { key(of: $0) }
    var hasChildren = [Bool](repeating: false, count: count)
    var children: [PathTable.Child: Int] = [:]
    for node in 1..<Swift.max(count, 1) where parents[node] >= 0 {
      hasChildren[parents[node]] = true
      children[PathTable.Child(parent: parents[node], name: keys[node].stringValue)] = node
    }
    return PathTable(
      parents: parents, keys: keys, hasChildren: hasChildren, children: children, use: use)
  }

  /// A table of every node known: made when a run publishes the plan it recorded.
  func table(use: PathTable.Use) -> PathTable {
    guard !added.isEmpty else { return base }
    var hasChildren = base.hasChildren
    for parent in adoptedParents {
      hasChildren[parent] = true
    }
    // Room for every name at once: merging into the table's own dictionary would copy it and
    // then grow it again.
    var children = [PathTable.Child: Int](minimumCapacity: base.children.count + added.count)
    for (child, node) in base.children {
      children[child] = node
    }
    // An added node's name is never the table's: `child(of:key:)` finds those first.
    for (index, node) in added.enumerated() {
      children[PathTable.Child(parent: node.parent, name: node.key.stringValue)] =
        base.count + index
    }
    return PathTable(
      parents: base.parents + added.map(\.parent), keys: base.keys + added.map(\.key),
      hasChildren: hasChildren + added.map(\.hasChildren), children: children, use: use)
  }
}
