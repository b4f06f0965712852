import Foundation
import KeyedCodable
import Testing

/// The `[Int]`, `[String]` and `[Double]` members of a keyed model, which the JSON coder reads
/// and writes on its own path once the model's plan resolved them: the values, the bytes and the
/// errors (with their paths) are those of the same model on Foundation's coders, on the first
/// call (the plan is being recorded) and the calls after it (the plan is followed). The keyed
/// container writes a synthesized model's arrays of those types on the same path.
struct PlannedArrayMemberTests {
  struct Lists: Codable, Keyedable, Equatable {
    var integers: [Int] = []
    var strings: [String] = []
    var doubles: [Double] = []
    var nested: [Int] = []
    var maybe: [String]?

    init() {}

    init(integers: [Int], strings: [String], doubles: [Double], nested: [Int], maybe: [String]?) {
      self.integers = integers
      self.strings = strings
      self.doubles = doubles
      self.nested = nested
      self.maybe = maybe
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try integers <-> map["integers"]
      try strings <-> map["strings"]
      try doubles <-> map["doubles"]
      try nested <-> map["inner.values"]
      try maybe <-> map["maybe"]
    }
  }

  /// A chain of models, each holding an `[Int]`, to put an array at the deepest level JSON is
  /// written to.
  final class Chain: Codable, Keyedable {
    var values: [Int] = [1]
    var next: Chain?

    init(depth: Int) {
      next = depth > 1 ? Chain(depth: depth - 1) : nil
    }

    required init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: self)
    }

    func map(map: KeyMap) throws {
      try values <-> map["values"]
      try next <-> map["next"]
    }
  }

  /// ``Chain`` with synthesized `Codable`, whose arrays the keyed container writes.
  final class SynthesizedChain: Codable {
    var values: [Int] = [1]
    var strings: [String] = ["a"]
    var next: SynthesizedChain?

    init(depth: Int) {
      next = depth > 1 ? SynthesizedChain(depth: depth - 1) : nil
    }
  }

  static func lists(seed: UInt64) -> Lists {
    var random = SeededGenerator(seed: seed)
    func count() -> Int { Int(random.next() % 5) }
    let pieces = ["a", "é", "€", "𝄞", "\"", "\\", "\n", "\u{1}", "/", " ", "z"]
    func text() -> String {
      (0..<count()).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }
    let doubles: [Double] = [0, -0.0, 1e300, -2.5e-300, .leastNonzeroMagnitude, 0.1, 12, -7]
    return Lists(
      integers: (0..<count()).map { _ in Int(bitPattern: UInt(random.next())) },
      strings: (0..<count()).map { _ in text() },
      doubles: (0..<count()).map { _ in doubles[Int(random.next() % UInt64(doubles.count))] },
      nested: (0..<count()).map { _ in Int(random.next() % 1000) - 500 },
      maybe: random.next() % 3 == 0 ? nil : (0..<count()).map { _ in text() })
  }

  @Test(arguments: [
    JSONEncoder.OutputFormatting.sortedKeys, [.sortedKeys, .prettyPrinted],
    [.sortedKeys, .withoutEscapingSlashes],
  ])
  func theBytesAreFoundations(formatting: JSONEncoder.OutputFormatting) {
    let pair = EncoderPair(formatting)
    for seed in UInt64(1)...40 {
      pair.expectSame(Self.lists(seed: seed))
    }
    pair.expectSame(Lists())
    pair.expectSame([Lists(), Self.lists(seed: 41), Lists()])
  }

  @Test func theValuesComeBack() throws {
    let encoder = KeyedJSONEncoder()
    let decoder = KeyedJSONDecoder()
    for seed in UInt64(1)...20 {
      let value = Self.lists(seed: seed)
      #expect(try decoder.decode(Lists.self, from: encoder.encode(value)) == value)
    }
  }

  @Test func aNonFiniteNumberThrowsAtItsPathOrIsWrittenAsTheStrategySays() throws {
    var value = Self.lists(seed: 1)
    value.doubles = [1, .infinity]
    for _ in 0..<3 {
      let outcome = EncoderPair().expectSame(value)
      #expect(outcome == .error(CodingErrorShape("invalidValue", at: ["doubles", "Index 1#1"])))
    }
    let pair = EncoderPair()
    let strategy = JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    pair.foundation.nonConformingFloatEncodingStrategy = strategy
    pair.ours.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    value.doubles = [.nan, -.infinity, 2]
    for _ in 0..<3 {
      let outcome = pair.expectSame(value)
      #expect(outcome.success?.contains(#""doubles":["nan","-inf",2]"#) == true)
    }
  }

  @Test func anArrayDeeperThanJSONIsWrittenThrowsAtItsPath() throws {
    // 512 levels of objects: the last model's array would be the 513th.
    let chain = Chain(depth: 512)
    for _ in 0..<2 {
      #expect(throws: EncodingError.self) { try KeyedJSONEncoder().encode(chain) }
    }
    do {
      _ = try KeyedJSONEncoder().encode(chain)
    } catch let EncodingError.invalidValue(_, context) {
      #expect(context.codingPath.count == 512)
      #expect(context.codingPath.last?.stringValue == "values")
    }
    // One level less is written, and read back.
    let shorter = try KeyedJSONEncoder().encode(Chain(depth: 511))
    var decoded: Chain? = try KeyedJSONDecoder().decode(Chain.self, from: shorter)
    var levels = 0
    while let level = decoded {
      #expect(level.values == [1])
      levels += 1
      decoded = level.next
    }
    #expect(levels == 511)
  }

  @Test func aSynthesizedArrayDeeperThanJSONIsWrittenThrowsAtItsPath() throws {
    do {
      _ = try KeyedJSONEncoder().encode(SynthesizedChain(depth: 512))
      Issue.record("no error")
    } catch let EncodingError.invalidValue(_, context) {
      #expect(context.codingPath.count == 512)
      #expect(context.codingPath.last?.stringValue == "values")
    }
    // One level less is written, and read back.
    let text = try KeyedJSONEncoder().encode(SynthesizedChain(depth: 511))
    var decoded: SynthesizedChain? = try KeyedJSONDecoder().decode(
      SynthesizedChain.self, from: text)
    var levels = 0
    while let level = decoded {
      #expect(level.values == [1] && level.strings == ["a"])
      levels += 1
      decoded = level.next
    }
    #expect(levels == 511)
  }

  static let documents = [
    #"{"integers":[1,-2,9223372036854775807],"strings":["a","\u00e9\n",""],"doubles":[1,2.5,-0.0,1e-320],"inner":{"values":[]},"maybe":["x"]}"#,
    #"{"integers":[],"strings":[],"doubles":[],"inner":{"values":[7]}}"#,
    #"{"integers":[],"strings":[],"doubles":[],"inner":{"values":[7]},"maybe":null}"#,
    #"{"maybe":[],"inner":{"values":[1,2]},"doubles":[3],"strings":["\ud834\udd1e"],"integers":[4]}"#,
    // Absent, null, of another type, or with an element of another type.
    #"{"strings":[],"doubles":[],"inner":{"values":[]}}"#,
    #"{"integers":null,"strings":[],"doubles":[],"inner":{"values":[]}}"#,
    #"{"integers":"1","strings":[],"doubles":[],"inner":{"values":[]}}"#,
    #"{"integers":{},"strings":[],"doubles":[],"inner":{"values":[]}}"#,
    #"{"integers":[1,"2"],"strings":[],"doubles":[],"inner":{"values":[]}}"#,
    #"{"integers":[1,null],"strings":[],"doubles":[],"inner":{"values":[]}}"#,
    #"{"integers":[],"strings":[1],"doubles":[],"inner":{"values":[]}}"#,
    #"{"integers":[],"strings":null,"doubles":[],"inner":{"values":[]}}"#,
    #"{"integers":[],"strings":[],"doubles":["1"],"inner":{"values":[]}}"#,
    #"{"integers":[],"strings":[],"doubles":[true],"inner":{"values":[]}}"#,
    #"{"integers":[],"strings":[],"doubles":[],"inner":{"values":[true]}}"#,
    #"{"integers":[],"strings":[],"doubles":[],"inner":{"values":null}}"#,
    #"{"integers":[],"strings":[],"doubles":[],"inner":{}}"#,
    #"{"integers":[],"strings":[],"doubles":[],"inner":{"values":[]},"maybe":"x"}"#,
    #"{"integers":[],"strings":[],"doubles":[],"inner":{"values":[]},"maybe":[1]}"#,
  ]

  @Test(arguments: documents)
  func readsAsFoundationReadsIt(json: String) {
    let pair = DecoderPair()
    // The first decode records the model's plan; the others follow it.
    for _ in 0..<3 {
      pair.expectSame(Lists.self, from: json)
    }
  }

  /// A number that doesn't fit its element's type is reported at the element; Foundation rejects
  /// the whole document (a documented difference).
  @Test(arguments: [
    (#"{"integers":[1.5],"strings":[],"doubles":[],"inner":{"values":[]}}"#, "integers"),
    (#"{"integers":[1e30],"strings":[],"doubles":[],"inner":{"values":[]}}"#, "integers"),
    (#"{"integers":[],"strings":[],"doubles":[1e400],"inner":{"values":[]}}"#, "doubles"),
  ])
  func aNumberThatDoesNotFitIsReportedAtItsElement(json: String, member: String) {
    let pair = DecoderPair()
    for _ in 0..<3 {
      let (ours, foundation) = pair.decode(Lists.self, from: json)
      #expect(ours == .error(CodingErrorShape("dataCorrupted", at: [member, "Index 0#0"])))
      #expect(foundation == .error(.invalidJSON))
    }
  }

  @Test func theFirstCallAndTheOthersReadAlike() throws {
    let json = Data(Self.documents[0].utf8)
    let decoder = KeyedJSONDecoder()
    let first = try decoder.decode(Lists.self, from: json)
    #expect(first.integers == [1, -2, .max])
    #expect(first.strings == ["a", "é\n", ""])
    #expect(first.doubles.map(\.bitPattern) == [1, 2.5, -0.0, 1e-320].map(\.bitPattern))
    #expect(first.nested == [])
    #expect(first.maybe == ["x"])
    for _ in 0..<3 {
      #expect(try decoder.decode(Lists.self, from: json) == first)
    }
  }
}
