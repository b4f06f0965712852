/// A coding path, built one key at a time without copying arrays.
///
/// Each nested value adds one node that points to its parent; the `[any CodingKey]` a
/// `Decoder` or an error needs is made only when someone asks for it.
indirect enum JSONCodingPath {
  /// The root of the document.
  case root
  /// A member of the object at the parent path.
  case key(any CodingKey, JSONCodingPath)
  /// An element of the array at the parent path.
  case index(Int, JSONCodingPath)

  /// The path as coding keys, from the root.
  var keys: [any CodingKey] {
    var keys: [any CodingKey] = []
    var node = self
    while true {
      switch node {
      case .root:
        return keys.reversed()
      case .key(let key, let parent):
        keys.append(key)
        node = parent
      case .index(let index, let parent):
        keys.append(PathKey(index: index))
        node = parent
      }
    }
  }

  /// The path of member `key` below this one.
  @inline(__always)
  func appending(_ key: some CodingKey) -> JSONCodingPath {
    .key(key, self)
  }

  /// The path of element `index` below this one.
  @inline(__always)
  func appending(index: Int) -> JSONCodingPath {
    .index(index, self)
  }

  /// The coding keys from the root down to member `key` of this path, without adding a node.
  func keys(appending key: (any CodingKey)?) -> [any CodingKey] {
    guard let key else { return keys }
    return keys + [key]
  }
}
