/// Key paths interned as a tree of numbered nodes.
///
/// Node `0` is the object being mapped. Every other node is one member of its parent node, so a
/// key path is identified by the number of its last node and two mappings that share a prefix
/// share the nodes of that prefix. Containers are cached by node number: by the structure of the
/// path, never by re-joined text, so `"a.b|c"` and `"a|b|c"` with different delimiters can
/// never be confused.
///
/// A table may continue another one (``init(continuing:)``): its node numbers then start where
/// the other table's end, which lets one decode add nodes without copying a shared table.
///
/// A class, shared by reference. A table is only changed by the key map that made it, before
/// it is published in a plan; published tables are never changed again, which is what makes
/// sharing them across threads safe.
final class PathTable: @unchecked Sendable {
  /// A node's member name under its parent: the key of the ``children`` index.
  struct Child: Hashable, Sendable {
    var parent: Int
    var name: String
  }

  /// The number of the first node this table holds.
  let first: Int
  /// For each node, the number of its parent node (`-1` for the root).
  @exclusivity(unchecked)
  private(set) var parents: [Int] = []
  /// For each node, its member name as a coding key.
  @exclusivity(unchecked)
  private(set) var keys: [PathKey] = []
  /// For each node, whether any node of this table has it as parent.
  @exclusivity(unchecked)
  private(set) var hasChildren: [Bool] = []
  /// The nodes of this table by parent and name.
  @exclusivity(unchecked)
  private var children: [Child: Int] = [:]
  /// Parents outside this table (nodes of the table it continues) that gained children here.
  @exclusivity(unchecked)
  private(set) var adoptedParents: Set<Int> = []

  /// A table holding only the root node, for key maps whose type has no plan yet.
  ///
  /// Never changed: key maps add their nodes to a table that continues it.
  static let rootOnly = PathTable()

  /// Creates a table that holds only the root node, `0`.
  init() {
    first = 0
    parents = [-1]
    keys = [PathKey("")]
    hasChildren = [false]
  }

  /// Creates an empty table whose nodes are numbered after those of `base`.
  init(continuing base: PathTable) {
    first = base.end
  }

  /// Creates a table holding the nodes of `base` followed by those of `continuation`, which
  /// must continue `base`.
  init(_ base: PathTable, followedBy continuation: PathTable?) {
    first = base.first
    parents = base.parents
    keys = base.keys
    hasChildren = base.hasChildren
    children = base.children
    adoptedParents = base.adoptedParents
    if let continuation {
      for index in continuation.parents.indices {
        _ = add(continuation.keys[index], to: continuation.parents[index])
      }
    }
  }

  /// The number after the last node of this table.
  var end: Int { first + parents.count }

  /// Whether `node` is a node of this table.
  func holds(_ node: Int) -> Bool { node >= first && node < end }

  /// The parent of `node`, which this table must hold.
  func parent(of node: Int) -> Int { parents[node - first] }

  /// The member name of `node`, which this table must hold.
  func key(of node: Int) -> PathKey { keys[node - first] }

  /// Whether `node`, which this table must hold, has children in this table.
  func hasChildren(_ node: Int) -> Bool { hasChildren[node - first] }

  /// The node for member `name` of `parent`, if this table holds it.
  func child(of parent: Int, named name: String) -> Int? {
    children[Child(parent: parent, name: name)]
  }

  /// Adds the node for member `key` of `parent` and returns its number.
  ///
  /// The caller checks first that no table holds that node yet.
  func add(_ key: PathKey, to parent: Int) -> Int {
    let node = end
    parents.append(parent)
    keys.append(key)
    hasChildren.append(false)
    children[Child(parent: parent, name: key.stringValue)] = node
    if holds(parent) {
      hasChildren[parent - first] = true
    } else {
      adoptedParents.insert(parent)
    }
    return node
  }
}
