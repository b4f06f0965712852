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

  /// The number of keys of the path.
  var count: Int {
    var count = 0
    var node = self
    while true {
      switch node {
      case .root: return count
      case .key(_, let parent), .index(_, let parent):
        count &+= 1
        node = parent
      }
    }
  }

  /// The path as coding keys, from the root: one array, filled from its end.
  var keys: [any CodingKey] {
    let count = count
    guard count > 0 else { return [] }
    return [any CodingKey](unsafeUninitializedCapacity: count) { buffer, initialized in
      let base = buffer.baseAddress.unsafelyUnwrapped
      let written = forEachKeyFromTheEnd(count: count) { (base + $0).initialize(to: $1) }
      guard written == count else {
        // Not reached: the path has `count` keys above the root. Were it reached, the keys
        // written so far are let go of and the array is empty.
        (base + (count &- written)).deinitialize(count: written)
        initialized = 0
        return
      }
      initialized = count
    }
  }

  /// Writes the path as coding keys, from the root, into `keys`, in the storage `keys` already
  /// has when nothing else refers to it.
  ///
  /// A new array of existentials is allocated by the standard library's unspecialized code,
  /// which looks up the metadata of its storage class on every allocation and again when the
  /// storage is freed: more than the keys themselves for a path of a few keys. The arrays of
  /// the errors a `try?` chain throws away are free again when the next one is made.
  ///
  /// - Parameter keys: The array to overwrite; copied first if it is shared (an error a caller
  ///   kept still refers to it), so no error's path changes after it was thrown.
  func write(into keys: inout [any CodingKey]) {
    let count = count
    if keys.count > count {
      keys.removeLast(keys.count &- count)
    } else if keys.count < count {
      keys.append(
        contentsOf: repeatElement(IndexKey(index: 0) as any CodingKey, count: count &- keys.count))
    }
    keys.withUnsafeMutableBufferPointer { buffer in
      // A path that ended early (not reached) leaves the first keys as they were.
      _ = forEachKeyFromTheEnd(count: count) { buffer[$0] = $1 }
    }
  }

  /// Calls `body` with each of the `count` keys of the path and its position from the root,
  /// the last key first.
  ///
  /// - Returns: The number of keys passed to `body`: `count`, unless the path has fewer.
  @inline(__always)
  private func forEachKeyFromTheEnd(
    count: Int, _ body: (_ position: Int, _ key: any CodingKey) -> Void
  ) -> Int {
    var node = self
    var position = count
    while position > 0 {
      switch node {
      case .root:
        return count &- position
      case .key(let key, let parent):
        position &-= 1
        body(position, key)
        node = parent
      case .index(let index, let parent):
        position &-= 1
        body(position, IndexKey(index: index))
        node = parent
      }
    }
    return count
  }

  /// Whether `other` is this very path: the same node, or both the root.
  ///
  /// Compares the two values' bytes, which for an indirect enum are the address of the node
  /// (or the root's tag): equal bytes are the same path. Two equal paths made apart are not the
  /// same node; callers use this only to skip copies that would change nothing.
  @inline(__always)
  func isSameNode(as other: JSONCodingPath) -> Bool {
    withUnsafeBytes(of: self) { mine in
      withUnsafeBytes(of: other) { theirs in
        if mine.count == MemoryLayout<UInt>.size {
          return mine.loadUnaligned(as: UInt.self) == theirs.loadUnaligned(as: UInt.self)
        }
        return mine.elementsEqual(theirs)
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

/// The last key of a coding path kept apart from the path above it, so that a value nested in an
/// array or in a `Keyedable` model's object gets its place without a node of its own until its
/// path is asked for (an error, a container of a plain `Codable` type).
enum JSONPathStep {
  /// No key: the path above is the whole path.
  case none
  /// An element of the array at the path above.
  case index(Int)
  /// A member of the object at the path above.
  case key(PathKey)
  /// The member ``JSONValueDecoder`` or ``JSONStreamEncoder`` notes apart (its container and
  /// key; see ``JSONValueDecoder/decodeMember(_:as:of:key:)`` and
  /// ``JSONStreamEncoder/encodeMember(_:of:key:)``): only that coder resolves it, and this step
  /// appends nothing to a path.
  case member
}

extension JSONCodingPath {
  /// This path followed by `step`.
  @inline(__always)
  func appending(_ step: JSONPathStep) -> JSONCodingPath {
    switch step {
    case .none: self
    case .index(let index): .index(index, self)
    case .key(let key): .key(key, self)
    case .member: self
    }
  }
}
