/// One ``UnmappedMembers`` mapping of a run: its object, and where the run was when it was made.
struct UnmappedMark {
  /// The object whose unmapped members it reads or writes.
  let scope: UnmappedScope
  /// The run's mappings up to and including it.
  let snapshot: MadeSnapshot
}

/// The object of an ``UnmappedMembers`` mapping, as the run's nodes know it.
struct UnmappedScope {
  /// Its node.
  let node: Int
  /// The nodes from the mapped object (`0`) down to ``node``.
  let chain: [Int]
  /// The member names from the mapped object down to ``node``.
  let path: [String]
  /// The key as the mapping wrote it, for messages.
  let key: String

  init(node: Int, key: String, tree: NodeTree) {
    self.node = node
    self.key = key
    var chain: [Int] = []
    var current = node
    while current > 0, chain.count <= tree.count {
      chain.append(current)
      current = tree.parent(of: current)
    }
    chain.append(0)
    self.chain = chain.reversed()
    path = self.chain.dropFirst().map { tree.key(of: $0).stringValue }
  }
}

/// The members of an object that a run's mappings read (see ``MappingRun/reads(of:since:)``).
struct UnmappedReads {
  /// The names of the members read.
  var names: Set<String> = []
  /// Whether a mapping reads the object itself (or an object holding it) whole: then every
  /// member is read.
  var all = false
  /// Whether a flat value was mapped (it reads members of the mapped object).
  var flat = false
  /// The key of the first mapping that reads something, for messages.
  var firstKey: String?

  /// Whether any member is read.
  var isEmpty: Bool { names.isEmpty && !all && !flat }

  mutating func note(_ name: String, key: @autoclosure () -> String) {
    names.insert(name)
    if firstKey == nil { firstKey = key() }
  }

  mutating func noteAll(key: @autoclosure () -> String) {
    all = true
    if firstKey == nil { firstKey = key() }
  }
}

extension MappingRun {
  /// What the mappings this run made since `snapshot` read of the object at `scope`.
  ///
  /// A mapping reads the first member of its key path below the object; a mapping of the object
  /// itself or of an object around it (a whole value, a listing of its members) reads every
  /// member. Mappings the plan resolved are looked at by their nodes; keys the plan didn't know
  /// (or while it records) are parsed, and a key with the lossy marker reads the member without
  /// it. Linear in the mappings times the depth of their key paths.
  func reads(of scope: UnmappedScope, since snapshot: MadeSnapshot) -> UnmappedReads {
    var reads = UnmappedReads()
    let marker = ObjectIdentifier(UnmappedListing.self)
    let tree = follower.tree
    let entries = follower.entries
    // The entries made since the snapshot, by their targets.
    var made: [PlanEntry] = []
    for range in follower.madeEntries(since: snapshot) {
      for position in range where position < entries.count {
        made.append(entries[position])
      }
    }
    if let recorded = follower.recorded, snapshot.recorded < recorded.count {
      made += recorded[snapshot.recorded...]
    }
    for entry in made where entry.valueType != marker {
      note(entry.target, key: entry.key, in: scope, tree: tree, into: &reads)
    }
    if snapshot.pendingKeys < pendingKeys.count {
      // A key that resolved to one of those entries is known by its target already; the others
      // (an encode-only mapping while decoding, a key the plan doesn't know) are parsed.
      var resolved: [String: KeyOptions] = [:]
      for entry in made where resolved[entry.key] == nil {
        resolved[entry.key] = entry.options
      }
      for pending in pendingKeys[snapshot.pendingKeys...] {
        switch pending {
        case .none:
          continue
        case .member(let key):
          note(segments: key.path, key: key.description, in: scope, into: &reads)
        case .name(let name, let options):
          if let entryOptions = resolved[name], entryOptions == options {
            continue
          }
          let parsed = ParsedKey(name, options: options)
          if parsed.isFlat {
            reads.flat = true
            if reads.firstKey == nil { reads.firstKey = name }
          } else {
            note(
              segments: parsed.lossySegments ?? parsed.segments, key: name, in: scope,
              into: &reads)
          }
        }
      }
    }
    return reads
  }

  /// Notes what a mapping resolved to `target` reads of the object at `scope`.
  private func note(
    _ target: MappingTarget, key: String, in scope: UnmappedScope, tree: NodeTree,
    into reads: inout UnmappedReads
  ) {
    switch target {
    case .flat:
      reads.flat = true
      if reads.firstKey == nil { reads.firstKey = key }
    case .container(let node):
      // Listing the mapped object's members is a flat mapping (each listed key that is mapped
      // is a mapping of its own); listing a nested object's is a mapping of that object.
      guard node > 0 else {
        reads.flat = true
        if reads.firstKey == nil { reads.firstKey = key }
        return
      }
      note(node: node, key: key, in: scope, tree: tree, into: &reads)
    case .value(let parent, let node, let member, _):
      if node >= 0 {
        note(node: node, key: key, in: scope, tree: tree, into: &reads)
      } else if parent == scope.node {
        reads.note(member.stringValue, key: key)
      } else if let depth = scope.chain.firstIndex(of: parent) {
        // A listed member of an object around the scope: the scope's way, or another member.
        if depth < scope.path.count, scope.path[depth] == member.stringValue {
          reads.noteAll(key: key)
        }
      } else {
        note(node: parent, key: key, in: scope, tree: tree, into: &reads)
      }
    }
  }

  /// Notes what a mapping whose value is at `node` reads of the object at `scope`.
  private func note(
    node: Int, key: String, in scope: UnmappedScope, tree: NodeTree,
    into reads: inout UnmappedReads
  ) {
    var child = -1
    var current = node
    var steps = 0
    while current > 0, current != scope.node, steps <= tree.count {
      child = current
      current = tree.parent(of: current)
      steps += 1
    }
    if current == scope.node {
      if child < 0 {
        reads.noteAll(key: key)
      } else {
        reads.note(tree.key(of: child).stringValue, key: key)
      }
    } else if scope.chain.contains(node) {
      reads.noteAll(key: key)
    }
  }

  /// Notes what a mapping at the key path `segments` reads of the object at `scope`.
  private func note(
    segments: [String], key: String, in scope: UnmappedScope, into reads: inout UnmappedReads
  ) {
    let path = scope.path
    if segments.count > path.count, segments.starts(with: path) {
      reads.note(segments[path.count], key: key)
    } else if path.starts(with: segments) {
      reads.noteAll(key: key)
    }
  }

  /// Throws when a mapping made after an ``UnmappedMembers`` mapping reads a member of its
  /// object: the unmapped members were collected (or written) before that mapping ran.
  ///
  /// Checked by key path, whatever the data holds, so a model either always passes or always
  /// throws.
  func checkUnmappedOrder() throws {
    for mark in unmappedMarks {
      let later = reads(of: mark.scope, since: mark.snapshot)
      var offends = later.all || !later.names.isEmpty
      if later.flat, mark.scope.node == 0 {
        offends = true
      }
      guard offends else { continue }
      throw MappingErrors.unmappedBeforeMapping(
        mark.scope.key, later: later.firstKey ?? "", model: model,
        decoding: follower.isDecoding, codingPath: modelCodingPath)
    }
  }
}
