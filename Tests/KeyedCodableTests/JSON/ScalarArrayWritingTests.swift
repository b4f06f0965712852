import Foundation
import KeyedCodable
import Testing

/// Arrays of `Double`, `[Double]`, `Int` and `String` have loops of their own in the JSON coder's
/// writer: the bytes, the separators, pretty printing and the errors (with their paths) are
/// Foundation's, wherever such an array appears.
struct ScalarArrayWritingTests {
  /// A model holding each array type the writer has a loop for, inside other containers.
  struct Shapes: Codable, Equatable {
    var doubles: [Double]
    var points: [[Double]]
    var rings: [[[Double]]]
    var integers: [Int]
    var strings: [String]
    var nested: [String: [[Double]]]
  }

  static func shapes(seed: UInt64, count: Int) -> Shapes {
    var random = SeededGenerator(seed: seed)
    func double() -> Double {
      switch random.next() % 6 {
      case 0: return Double(Int64(bitPattern: random.next()) >> 12)
      case 1: return Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
      case 2: return -Double(bitPattern: random.next() & 0x000F_FFFF_FFFF_FFFF)
      case 3: return Double(random.next() % 2_000_000) / 1000 - 1000
      case 4:
        return [0.0, -0.0, 1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude][
          Int(random.next() % 5)]
      default: return Double(random.next() % 1000)
      }
    }
    func text() -> String {
      let pieces = ["a", "é", "€", "𝄞", "\"", "\\", "\n", "\u{1}", "/", " ", "\u{7F}", "z"]
      return (0..<Int(random.next() % 6)).map { _ in pieces[Int(random.next() % 12)] }.joined()
    }
    let point = { (0..<Int(random.next() % 4)).map { _ in double() } }
    return Shapes(
      doubles: (0..<count).map { _ in double() },
      points: (0..<count).map { _ in point() },
      rings: (0..<3).map { _ in (0..<count).map { _ in point() } },
      integers: (0..<count).map { _ in Int(bitPattern: UInt(random.next())) } + [.min, .max, 0],
      strings: (0..<count).map { _ in text() },
      nested: ["a": (0..<count).map { _ in point() }, "b": []])
  }

  @Test(arguments: [UInt64(1), 2, 3, 4, 5])
  func theBytesAreFoundations(seed: UInt64) {
    let value = Self.shapes(seed: seed, count: 50)
    EncoderPair().expectSame(value)
    EncoderPair([.sortedKeys, .prettyPrinted]).expectSame(value)
    EncoderPair([.sortedKeys, .withoutEscapingSlashes]).expectSame(value)
    // And the text decodes back to the same value.
    let text = try? KeyedJSONEncoder().encode(value)
    #expect(text.flatMap { try? KeyedJSONDecoder().decode(Shapes.self, from: $0) } == value)
  }

  @Test func emptyArraysAndTopLevelArrays() {
    let pair = EncoderPair([.sortedKeys, .prettyPrinted])
    pair.expectSame([Double]())
    pair.expectSame([[Double]]())
    pair.expectSame([[Double]](repeating: [], count: 3))
    pair.expectSame([1.5, -2, 3e-7])
    pair.expectSame([[1.5], [], [-2, 3e-7]])
    pair.expectSame([Int]())
    pair.expectSame([String]())
    pair.expectSame(["", "x"])
  }

  @Test func aNonFiniteNumberThrowsAtItsPath() throws {
    let encoder = KeyedJSONEncoder()
    let cases: [(any Encodable, [String])] = [
      ([1, Double.nan], ["Index 1"]),
      ([[1, 2], [3, -Double.infinity]], ["Index 1", "Index 1"]),
      (["list": [[0.5], [Double.nan]]], ["list", "Index 1", "Index 0"]),
      ([[[1.0]], [[2.0], [3, .infinity]]], ["Index 1", "Index 1", "Index 1"]),
    ]
    for (value, path) in cases {
      do {
        _ = try encoder.encode(value)
        Issue.record("encoded a non-finite number in \(value)")
      } catch EncodingError.invalidValue(_, let context) {
        #expect(context.codingPath.map(\.stringValue) == path)
      }
      // Foundation throws at the same path.
      do {
        _ = try JSONEncoder().encode(value)
        Issue.record("Foundation encoded \(value)")
      } catch EncodingError.invalidValue(_, let context) {
        #expect(context.codingPath.map(\.stringValue) == path)
      }
    }
  }

  @Test func nonFiniteNumbersAsStringsInEveryLoop() {
    let pair = EncoderPair()
    for encoder in [pair.foundation] {
      encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    }
    pair.ours.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    pair.expectSame([1, .nan, -.infinity, .infinity] as [Double])
    pair.expectSame([[1, .nan], [], [.infinity]] as [[Double]])
    pair.expectSame(["a": [[-Double.infinity]]] as [String: [[Double]]])
  }
}
