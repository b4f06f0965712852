/// Key paths interned as a tree of numbered nodes: the published, immutable form.
///
/// Node `0` is the object being mapped. Every other node is one member of its parent node, so a
/// key path is identified by the number of its last node and two mappings that share a prefix
/// share the nodes of that prefix. Backends cache what they opened by node number: by the
/// structure of the path, never by re-joined text, so `"a.b|c"` and `"a|b|c"` with different
/// delimiters can never be confused.
///
/// A table is made once, from the ``NodeTree`` of the run that records a plan, and never changes
/// afterwards, which is what lets every thread share the table of a published ``MappingPlan``.
final class PathTable: Sendable {
  /// A node's member name under its parent: the key of the ``children`` index.
  struct Child: Hashable, Sendable {
    var parent: Int
    var name: String
  }

  /// For each node, the number of its parent node (`-1` for the root).
  let parents: [Int]
  /// For each node, its member name as a coding key.
  let keys: [PathKey]
  /// For each node, whether any node has it as parent.
  let hasChildren: [Bool]
  /// The nodes by parent and name.
  let children: [Child: Int]
  /// The member names of the nodes as bytes, by parent, for backends that read an object's
  /// members in one pass.
  let members: MemberIndex
  /// The children whose names are ASCII, found without hashing a `String`.
  let asciiChildren: ASCIIChildren

  /// Which runs read a table, and so which parts of its ``MemberIndex`` are made.
  enum Use {
    /// Runs that decode: the lookup tables of member names.
    case decoding
    /// Runs that encode: the member names as compact JSON.
    case encoding
    /// Both (the table of runs without a plan).
    case both
  }

  /// A table holding only the root node, for runs whose type has no plan yet.
  static let rootOnly = PathTable(
    parents: [-1], keys: [.empty], hasChildren: [false], children: [:], use: .both)

  init(
    parents: [Int], keys: [PathKey], hasChildren: [Bool], children: [Child: Int], use: Use
  ) {
    self.parents = parents
    self.keys = keys
    self.hasChildren = hasChildren
    self.children = children
    members = MemberIndex(parents: parents, keys: keys, use: use)
    asciiChildren = ASCIIChildren(parents: parents, keys: keys)
  }

  /// The number of nodes.
  var count: Int { parents.count }
}
