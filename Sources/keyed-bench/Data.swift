import Foundation
import KeyedCodable

/// A small deterministic generator, so every run and every implementation sees the same data.
struct Generator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state >> 11
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  mutating func double() -> Double {
    Double(int(0...1_000_000)) / 1000
  }

  mutating func bool() -> Bool {
    next() % 2 == 0
  }

  mutating func word() -> String {
    let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po"]
    return (0..<int(2...5)).map { _ in syllables[int(0...9)] }.joined()
  }
}

/// JSON coders shared by all implementations of a run.
enum Coders {
  static func decoder() -> JSONDecoder { JSONDecoder() }
  static func encoder() -> JSONEncoder { JSONEncoder() }
  static func jsonDecoder() -> KeyedJSONDecoder { KeyedJSONDecoder() }
  static func jsonEncoder() -> KeyedJSONEncoder { KeyedJSONEncoder() }
}
