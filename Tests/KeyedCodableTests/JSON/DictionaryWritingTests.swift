import Foundation
import KeyedCodable
import Testing

/// `[Int: Value]` is written member by member, each key as its decimal name: the bytes,
/// errors and paths are Foundation's, and a key strategy converts the names as Foundation's
/// encoder converts them.
struct DictionaryWritingTests {
  struct Inner: Codable, Equatable {
    var a: Int?
    var b: Double
  }

  struct Maps: Codable, Equatable {
    var byID: [Int: String]
    var nested: [Int: [Int: Inner]]?
    var counts: [String: Int]?
  }

  @Test func integerKeyedDictionariesAreWrittenAsFoundationWritesThem() {
    let pair = EncoderPair()
    pair.expectSame([Int: String]())
    pair.expectSame([1: "a", -2: "b", 0: "c", Int.max: "max", Int.min: "min"])
    pair.expectSame([3: [1, 2], 4: []] as [Int: [Int]])
    pair.expectSame([7: Inner(a: nil, b: 0.5), -7: Inner(a: 1, b: -2)])
    pair.expectSame(
      Maps(
        byID: [10: "ten", 20: "twenty"], nested: [1: [2: Inner(a: 3, b: 4)], 5: [:]],
        counts: ["x": 1]))
    pair.expectSame([[1: "a"], [:], [2: "b", 3: "c"]] as [[Int: String]])
    pair.expectSame([1: nil, 2: 2.5] as [Int: Double?])
  }

  @Test func anInvalidValueIsReportedAtItsKey() {
    EncoderPair().expectSame([1: 1.0, 2: .infinity] as [Int: Double])
    EncoderPair().expectSame(Maps(byID: [:], nested: [4: [5: Inner(a: nil, b: .nan)]]))
  }

  /// Without `.sortedKeys`, the members are in the dictionary's order, as the standard
  /// library's `encode(to:)` hands them to a keyed container (Foundation's encoder writes them
  /// in the order of a hashed table of its own).
  @Test func withoutSortingTheOrderIsTheDictionarys() throws {
    let value = Dictionary(uniqueKeysWithValues: (0..<50).map { ($0 * 37 % 101, "v\($0)") })
    let ours = try KeyedJSONEncoder().encode(value)
    let expected = "{" + value.map { #""\#($0.key)":"\#($0.value)""# }.joined(separator: ",") + "}"
    #expect(String(decoding: ours, as: UTF8.self) == expected)
    #expect(try JSONDecoder().decode([Int: String].self, from: ours) == value)
  }

  @Test func aKeyStrategyConvertsTheNamesAsFoundationsEncoderDoes() {
    let snake = EncoderPair()
    snake.ours.keyEncodingStrategy = .convertToSnakeCase
    snake.foundation.keyEncodingStrategy = .convertToSnakeCase
    snake.expectSame([12: "a", -3: "b"])
    snake.expectSame(Maps(byID: [1: "x"], nested: [2: [3: Inner(a: 1, b: 2)]], counts: ["aB": 1]))
    let custom = EncoderPair()
    custom.ours.keyEncodingStrategy = .custom { path in
      AnyKey(stringValue: "k" + (path.last?.stringValue ?? ""))
    }
    custom.foundation.keyEncodingStrategy = .custom { path in
      AnyKey(stringValue: "k" + (path.last?.stringValue ?? ""))
    }
    custom.expectSame([12: "a", -3: "b"])
    custom.expectSame(Maps(byID: [1: "x"], nested: [2: [3: Inner(a: 1, b: 2)]]))
  }
}
