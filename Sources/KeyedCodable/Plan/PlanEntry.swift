/// Where one mapping reads or writes its value, resolved from its key once.
@usableFromInline
enum MappingTarget: Sendable {
  /// The value is the current object itself (the key is the flat marker).
  case flat
  /// The value is member `key` of the object at node `parent`; `node` is its own node (`-1`
  /// for a listed member read while decoding, which needs no node of its own).
  /// `lossy` marks an array whose invalid elements are dropped.
  case value(parent: Int, node: Int, key: PathKey, lossy: Bool)
  /// The object at `node`, whose members are listed by ``KeysCollection``.
  case container(node: Int)
}

/// One mapping of a model, as its `map(map:)` made it the first time.
///
/// A class, so that a mapping can carry it and check it without copying anything. The fields
/// of a plain member target are repeated as stored properties for the fast path.
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
  @usableFromInline let options: KeyOptions

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

  /// Whether a mapping made with this key, these options (`nil` for the default ones) and
  /// (when known) this value type is the one this entry recorded.
  @inlinable
  func matches(_ name: String, _ options: KeyOptions?, valueType: ObjectIdentifier?) -> Bool {
    guard key == name, valueType == nil || self.valueType == valueType else { return false }
    guard let options else { return hasDefaultOptions }
    return self.options == options
  }
}

/// What the fast path of every mapping reads of a ``PlanEntry``, packed into one small value:
/// a plan keeps them side by side in mapping order (``MappingPlan/quickEntries``), so that a run
/// reads its entries one after the other in one block of memory instead of following a
/// reference to each entry's own object.
///
/// On twitter.json, the load of each entry's key through its reference was the slowest
/// instruction of a mapping (four tenths of the time of ``MappingRun/reference(named:options:)``
/// in a sampling profile): a run's entries are scattered over the heap, and the document's bytes
/// and tape stream through the caches between two runs of a model.
@usableFromInline
struct QuickEntry: BitwiseCopyable {
  /// The bytes of the entry's key string, as the string stores them (see ``KeyBits``).
  @usableFromInline let key: KeyBits
  /// The type of the mapped value.
  @usableFromInline let valueType: ObjectIdentifier
  /// For a plain member: the node of the object holding it, and its own node.
  @usableFromInline let parent: Int32
  @usableFromInline let node: Int32
  /// ``PlanEntry/hasDefaultOptions``, ``PlanEntry/isPlainMember`` and
  /// ``PlanEntry/valueIsOptional``.
  @usableFromInline let hasDefaultOptions: Bool
  @usableFromInline let isPlainMember: Bool
  @usableFromInline let valueIsOptional: Bool

  init(_ entry: PlanEntry) {
    key = KeyBits(entry.key)
    valueType = entry.valueType
    // Nodes are fewer than a plan's limit (``PlanFollower/recordingLimit``); one that isn't
    // leaves the entry to the slow path.
    let fits = Int32(exactly: entry.parent) != nil && Int32(exactly: entry.node) != nil
    parent = Int32(truncatingIfNeeded: entry.parent)
    node = Int32(truncatingIfNeeded: entry.node)
    hasDefaultOptions = entry.hasDefaultOptions
    isPlainMember = entry.isPlainMember && fits
    valueIsOptional = entry.valueIsOptional
  }
}

/// The bytes of a `String` value: the two words of a native string (the storage's address and
/// the count and flags), or the characters of a small one.
///
/// Equal bits are the same string: a small string holds its characters, and two large ones with
/// the same storage object and count are one string (storage is immutable). Different bits say
/// nothing: two copies of one text made apart differ. A key written as a literal (the usual
/// `map["name"]`) has the same bits every time the code runs, so the comparison that finds a
/// run's next mapping where its plan expects it is two integer comparisons.
@usableFromInline
struct KeyBits: Equatable, BitwiseCopyable {
  @usableFromInline var low: UInt64 = 0
  @usableFromInline var high: UInt64 = 0

  /// The bits of `string` (12 bytes of 16 where pointers are 32 bits wide).
  @inlinable @inline(__always)
  init(_ string: String) {
    #if _pointerBitWidth(_64)
      (low, high) = unsafeBitCast(string, to: (UInt64, UInt64).self)
    #else
      withUnsafeMutableBytes(of: &self) { target in
        withUnsafeBytes(of: string) { source in
          if let base = source.baseAddress {
            target.copyMemory(
              from: UnsafeRawBufferPointer(
                start: base, count: Swift.min(source.count, target.count)))
          }
        }
      }
    #endif
  }
}
