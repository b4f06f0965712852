import Testing

@testable import KeyedCodable

/// The stack of plain values the JSON encoder keeps its frames and member names in.
struct RawStackTests {
  struct Pair: Equatable {
    var first: Int
    var second: UInt64
  }

  @Test func valuesStayInPlaceAsTheStackGrowsAndShrinks() {
    var stack = RawStack<Pair>(capacity: 2)
    let empty = stack.isEmpty
    #expect(empty)
    for value in 0..<100 {
      stack.append(Pair(first: value, second: UInt64(value) * 3))
    }
    let count = stack.count
    #expect(count == 100)
    let all = (0..<100).allSatisfy { stack[$0] == Pair(first: $0, second: UInt64($0) * 3) }
    #expect(all)
    stack[7].second = 1
    let seventh = stack[7]
    #expect(seventh == Pair(first: 7, second: 1))
    let last = stack.removeLast()
    #expect(last == Pair(first: 99, second: 297))
    stack.truncate(to: 10)
    let truncated = stack.count
    #expect(truncated == 10)
    stack.append(Pair(first: -1, second: 0))
    let (tenth, ninth) = (stack[10], stack[9])
    #expect(tenth == Pair(first: -1, second: 0))
    #expect(ninth == Pair(first: 9, second: 27))
    stack.truncate(to: 0)
    let emptied = stack.isEmpty
    #expect(emptied)
  }
}
