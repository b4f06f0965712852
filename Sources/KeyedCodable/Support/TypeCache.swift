/// A few values by type, for lookups made once per decoded or encoded value: 16 slots, each
/// type in one of a pair of them.
///
/// A dictionary keyed by `ObjectIdentifier` computes a SipHash for every lookup, which costs
/// more than reading a small value. The slot pair comes from a multiplicative hash of the
/// metadata address (see ``JSONTypeKindCache``): the runtime allocates metadata at addresses
/// that share their low bits, so slots picked by those bits alone had one document's types
/// evict each other. A value that loses its slot is only looked up again.
struct TypeCache<Value> {
  private var types = [ObjectIdentifier?](repeating: nil, count: 16)
  private var values = [Value?](repeating: nil, count: 16)

  /// The first slot of the pair of `type` (the other is `slot ^ 1`).
  @inline(__always)
  private static func slot(of type: ObjectIdentifier) -> Int {
    let hash = UInt64(truncatingIfNeeded: UInt(bitPattern: type)) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: hash &>> 60)
  }

  /// The value kept for `type`, if any.
  @inline(__always)
  func value(for type: ObjectIdentifier) -> Value? {
    let slot = Self.slot(of: type)
    if types[slot] == type { return values[slot] }
    return types[slot ^ 1] == type ? values[slot ^ 1] : nil
  }

  /// Keeps `value` for `type`: in its slot already, or an empty one of its pair, or in place of
  /// what held the first.
  mutating func set(_ value: Value, for type: ObjectIdentifier) {
    var slot = Self.slot(of: type)
    if types[slot] != type, types[slot] != nil, types[slot ^ 1] == type || types[slot ^ 1] == nil {
      slot ^= 1
    }
    types[slot] = type
    values[slot] = value
  }

  /// Forgets the value kept for `type`.
  mutating func remove(_ type: ObjectIdentifier) {
    let first = Self.slot(of: type)
    for slot in (first & ~1)...(first | 1) where types[slot] == type {
      types[slot] = nil
      values[slot] = nil
    }
  }
}
