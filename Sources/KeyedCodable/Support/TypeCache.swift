/// A few values by type, for lookups made once per decoded or encoded value: a direct-mapped
/// cache of 16 slots, without hashing.
///
/// A dictionary keyed by `ObjectIdentifier` computes a SipHash for every lookup, which costs
/// more than reading a small value; the few types one document uses rarely share a slot, and a
/// value that loses its slot is only looked up again.
struct TypeCache<Value> {
  private var types = [ObjectIdentifier?](repeating: nil, count: 16)
  private var values = [Value?](repeating: nil, count: 16)

  /// The slot of `type`: metadata addresses are aligned, so the bits above the lowest four.
  @inline(__always)
  private static func slot(of type: ObjectIdentifier) -> Int {
    Int(truncatingIfNeeded: UInt(bitPattern: type) &>> 4) & 15
  }

  /// The value kept for `type`, if any.
  @inline(__always)
  func value(for type: ObjectIdentifier) -> Value? {
    let slot = Self.slot(of: type)
    return types[slot] == type ? values[slot] : nil
  }

  /// Keeps `value` for `type`, in place of whatever shared its slot.
  mutating func set(_ value: Value, for type: ObjectIdentifier) {
    let slot = Self.slot(of: type)
    types[slot] = type
    values[slot] = value
  }

  /// Forgets the value kept for `type`.
  mutating func remove(_ type: ObjectIdentifier) {
    let slot = Self.slot(of: type)
    if types[slot] == type {
      types[slot] = nil
      values[slot] = nil
    }
  }
}
