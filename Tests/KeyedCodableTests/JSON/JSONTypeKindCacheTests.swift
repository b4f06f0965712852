import Testing

@testable import KeyedCodable

/// The JSON coders' cache of how they handle each type works out a type's kind once per run,
/// however many types share its slots.
struct JSONTypeKindCacheTests {
  struct Level<Inner> {}

  /// `count` distinct types: `Int`, `Level<Int>`, `Level<Level<Int>>`, ...
  static func distinctTypes(_ count: Int) -> [Any.Type] {
    func grow<T>(_ type: T.Type, into types: inout [Any.Type]) {
      types.append(type)
      if types.count < count {
        grow(Level<T>.self, into: &types)
      }
    }
    var types: [Any.Type] = []
    grow(Int.self, into: &types)
    return types
  }

  @Test(arguments: [1, 3, 40, 64, 65, 200, 1500])
  func eachTypeIsClassifiedOnce(count: Int) {
    let types = Self.distinctTypes(count)
    var cache = JSONTypeKindCache<Int, Int, Int>()
    var classified: [ObjectIdentifier: Int] = [:]
    func kind(_ type: Any.Type) -> Int? {
      let kind = cache.kind(of: type) { type in
        classified[ObjectIdentifier(type), default: 0] += 1
        let position = types.firstIndex { $0 == type } ?? -1
        return .array(position)
      }
      if case .array(let position) = kind { return position }
      return nil
    }
    // More types than slots must evict some; they come back in order, backwards and in turns.
    let orders = [
      Array(types.indices), Array(types.indices.reversed()),
      types.indices.flatMap { [$0, types.count - 1 - $0] },
    ]
    for order in orders {
      for position in order {
        #expect(kind(types[position]) == position)
      }
    }
    #expect(classified.count == count)
    #expect(classified.values.allSatisfy { $0 == 1 })
    // The table grows only when a pair is full, and no further than 1,024 slots.
    #expect(cache.slotCount >= 64 && cache.slotCount <= 1024)
    if count == 1 { #expect(cache.slotCount == 64) }
    if count > 64 { #expect(cache.slotCount > 64) }
  }
}
