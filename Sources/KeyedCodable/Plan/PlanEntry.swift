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
