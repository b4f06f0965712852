// Equality and hashing walk a value with a stack of their own rather than by recursion, so that a
// value as deep as the decoders read (or deeper, built in code) needs no more stack than a flat
// one: the compiler's synthesized conformances would recurse once per level, in frames large
// enough to overflow a secondary thread's 512 KiB in debug builds.

extension JSONValue {
  /// Whether two values are equal: of one kind, with equal contents.
  ///
  /// Numbers compare by their exact decimal value (``Number/==(_:_:)``: `1`, `1.0` and `1e0`
  /// are equal), strings and member names as Swift strings, arrays element by element, and
  /// objects by their names and values whatever the order of their members. A Boolean never
  /// equals a number.
  ///
  /// ```swift
  /// let a: JSONValue = ["x": 1, "y": [true]]
  /// let b: JSONValue = ["y": [true], "x": 1.0]
  /// a == b          // true
  /// ```
  ///
  /// Takes time in proportion to the size of the values, and no stack however deep they are.
  ///
  /// - Parameters:
  ///   - lhs: A value.
  ///   - rhs: Another value.
  /// - Returns: `true` when the values are equal.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    var pending: [(JSONValue, JSONValue)] = []
    var left = lhs
    var right = rhs
    while true {
      switch (left, right) {
      case (.null, .null):
        break
      case (.bool(let a), .bool(let b)):
        guard a == b else { return false }
      case (.number(let a), .number(let b)):
        guard a == b else { return false }
      case (.string(let a), .string(let b)):
        guard a == b else { return false }
      case (.array(let a), .array(let b)):
        guard a.count == b.count else { return false }
        for position in a.indices.reversed() {
          pending.append((a[position], b[position]))
        }
      case (.object(let a), .object(let b)):
        guard a.count == b.count else { return false }
        guard a.pairMembers(with: b, into: &pending) else { return false }
      default:
        return false
      }
      guard let next = pending.popLast() else { return true }
      (left, right) = next
    }
  }

  /// Hashes the value, so that equal values hash alike.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(treeHash())
  }

  /// A hash of the whole value, made bottom up with a stack of its own: each array from its
  /// elements' hashes in order, each object from its members' hashes combined in a way that
  /// ignores their order (as `Dictionary` does), each number from its decimal value.
  func treeHash() -> Int {
    /// An array or object whose members are being hashed.
    struct Open {
      let value: JSONValue
      var position = 0
      var hasher = Hasher()
      /// The combined hashes of an object's members so far.
      var members = 0
    }
    var open: [Open] = []
    var next = self
    while true {
      var hash: Int
      switch next {
      case .array(let elements) where !elements.isEmpty:
        open.append(Open(value: next))
        next = elements[0]
        continue
      case .object(let object) where !object.isEmpty:
        open.append(Open(value: next))
        next = object[0].value
        continue
      default:
        hash = Self.leafHash(next)
      }
      // Hand the hash to the array or object it belongs to, finishing those that end here.
      while let last = open.indices.last {
        let position = open[last].position
        switch open[last].value {
        case .array(let elements):
          open[last].hasher.combine(hash)
          if position &+ 1 < elements.count {
            open[last].position = position &+ 1
            next = elements[position &+ 1]
            break
          }
          var finished = open.removeLast().hasher
          finished.combine(1 as UInt8)
          finished.combine(elements.count)
          hash = finished.finalize()
          continue
        case .object(let object):
          var member = Hasher()
          member.combine(object[position].name)
          member.combine(hash)
          open[last].members ^= member.finalize()
          if position &+ 1 < object.count {
            open[last].position = position &+ 1
            next = object[position &+ 1].value
            break
          }
          var finished = Hasher()
          finished.combine(2 as UInt8)
          finished.combine(object.count)
          finished.combine(open.removeLast().members)
          hash = finished.finalize()
          continue
        default:
          // Only arrays and objects are open.
          open.removeLast()
          continue
        }
        break
      }
      if open.isEmpty {
        return hash
      }
    }
  }

  /// The hash of a value that holds no other: a scalar, an empty array or an empty object.
  private static func leafHash(_ value: JSONValue) -> Int {
    var hasher = Hasher()
    switch value {
    case .null:
      hasher.combine(3 as UInt8)
    case .bool(let bool):
      hasher.combine(4 as UInt8)
      hasher.combine(bool)
    case .number(let number):
      hasher.combine(5 as UInt8)
      hasher.combine(number)
    case .string(let string):
      hasher.combine(6 as UInt8)
      hasher.combine(string)
    case .array(let elements):
      // Empty: as a finished array of no elements.
      hasher.combine(1 as UInt8)
      hasher.combine(elements.count)
    case .object(let object):
      hasher.combine(2 as UInt8)
      hasher.combine(object.count)
      hasher.combine(0)
    }
    return hasher.finalize()
  }
}
