import Foundation
import KeyedCodable
import Testing

/// `[String: Value]` and `[Int: Value]` are read member by member, the common values in code of
/// their own: values, errors and their paths are Foundation's.
struct DictionaryReadingTests {
  struct Inner: Codable, Equatable {
    var a: Int?
    var b: String
  }

  struct Maps: Codable, Equatable {
    var byID: [Int: String]
    var counts: [String: Int]
    var flags: [String: Bool]?
    var scores: [Int: Double]?
    var nested: [Int: Inner]?
  }

  /// Objects in which at most one member fails for each value type: Foundation reads members
  /// in the order of a hashed dictionary, so of two failing members either may be reported.
  /// `V` and `W` are two values of the type read, `X` one of another type.
  static let integerKeyed = [
    #"{}"#,
    #"{"1":V,"-2":W,"+3":V,"007":W,"0":V,"-05":W}"#,
    #"{"9223372036854775807":V,"-9223372036854775808":W}"#,
    // Names that are not integers: the standard library's error, at the name.
    #"{"1":V,"x":W}"#,
    #"{"":V}"#,
    #"{"-":V}"#,
    #"{"+":V}"#,
    #"{" 1":V}"#,
    #"{"1 ":V}"#,
    #"{"1.0":V}"#,
    #"{"0x1":V}"#,
    #"{"--1":V}"#,
    #"{"9223372036854775808":V}"#,
    #"{"-9223372036854775809":V}"#,
    #"{"99999999999999999999":V}"#,
    #"{"١":V}"#,
    // A name with an escape that spells an integer.
    #"{"\u0031":V,"2":W}"#,
    // Values of the wrong kind, null values, and values that are not objects.
    #"{"1":V,"2":X}"#,
    #"{"1":null}"#,
    #"{"x":X}"#,
    #"["1",V]"#,
    #"[]"#,
    #""a""#,
    #"null"#,
  ]

  static let stringKeyed = [
    #"{}"#,
    #"{"a":V,"b":W,"":V,"ü":W,"\u00e9":V,"e\u0301":W}"#,
    #"{"a":V,"a":W}"#,
    #"{"a":V,"b":X}"#,
    #"{"a":V,"b":null}"#,
    #"["a",V]"#,
    #""a""#,
    #"null"#,
  ]

  /// `template` with `V`, `W` and `X` replaced.
  static func fill(_ template: String, _ v: String, _ w: String, _ x: String) -> String {
    template.replacingOccurrences(of: "V", with: v).replacingOccurrences(of: "W", with: w)
      .replacingOccurrences(of: "X", with: x)
  }

  @Test(arguments: integerKeyed)
  func anIntegerKeyedDictionaryReadsAsFoundationReadsIt(template: String) {
    let strings = Self.fill(template, #""a""#, #""b""#, "3")
    DecoderPair().expectSame([Int: String].self, from: strings)
    DecoderPair().expectSame([[Int: String]].self, from: "[\(strings)]")
    DecoderPair().expectSame(
      Maps.self, from: #"{"byID":\#(strings),"counts":{"a":1}}"#)
    let integers = Self.fill(template, "1", "-2", "true")
    DecoderPair().expectSame([Int: Int].self, from: integers)
    let doubles = Self.fill(template, "1.5", "-2e3", #""x""#)
    DecoderPair().expectSame([Int: Double?].self, from: doubles)
    DecoderPair().expectSame(
      Maps.self, from: #"{"byID":{},"counts":{"a":1},"scores":\#(doubles)}"#)
  }

  @Test(arguments: stringKeyed)
  func aStringKeyedDictionaryReadsAsFoundationReadsIt(template: String) {
    let integers = Self.fill(template, "1", "-2", #""3""#)
    DecoderPair().expectSame([String: Int].self, from: integers)
    DecoderPair().expectSame([String: Int8].self, from: integers)
    DecoderPair().expectSame([String: [String: Int]].self, from: #"{"x":\#(integers)}"#)
    DecoderPair().expectSame(Maps.self, from: #"{"byID":{},"counts":\#(integers)}"#)
    DecoderPair().expectSame([String: String].self, from: Self.fill(template, #""x""#, #""""#, "1"))
    DecoderPair().expectSame([String: Double].self, from: Self.fill(template, "0.5", "1e2", "true"))
    let flags = Self.fill(template, "true", "false", "0")
    DecoderPair().expectSame([String: Bool].self, from: flags)
    DecoderPair().expectSame(Maps.self, from: #"{"byID":{},"counts":{},"flags":\#(flags)}"#)
  }

  @Test func dictionariesOfModelsReadAsFoundationReadsThem() {
    DecoderPair().expectSame(
      Maps.self,
      from: #"{"byID":{},"counts":{},"nested":{"1":{"b":"x"},"2":{"a":2,"b":"y"}}}"#)
    DecoderPair().expectSame(
      Maps.self, from: #"{"byID":{},"counts":{},"nested":{"1":{"b":"x"},"2":{"a":2}}}"#)
    DecoderPair().expectSame(
      Maps.self, from: #"{"byID":{},"counts":{},"nested":{"1":{"b":"x"},"y":{"b":"z"}}}"#)
    DecoderPair().expectSame([Int: [Int: Inner]].self, from: #"{"1":{"2":{"a":"3","b":""}}}"#)
  }

  @Test func aNameThatIsNotAnIntegerThrowsTheStandardLibrarysError() throws {
    let data = Data(#"{"outer":{"1":"a","one":"b"}}"#.utf8)
    do {
      _ = try KeyedJSONDecoder().decode([String: [Int: String]].self, from: data)
      Issue.record("decoded a name that is not an integer")
    } catch DecodingError.typeMismatch(let type, let context) {
      #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
      #expect(context.codingPath.map(\.stringValue) == ["outer", "one"])
      #expect(context.debugDescription == "Expected Int key but found String key instead.")
    }
  }

  @Test func ofNamesSpellingOneIntegerTheLastWins() throws {
    // The standard library's `init(from:)` assigns each member's value in document order.
    let data = Data(#"{"1":"a","01":"b","+1":"c","2":"d","-0":"e","0":"f"}"#.utf8)
    let ours = try KeyedJSONDecoder().decode([Int: String].self, from: data)
    #expect(ours == [1: "c", 2: "d", 0: "f"])
  }

  @Test func ofRepeatedNamesTheFirstWins() throws {
    let data = Data(#"{"1":"a","2":"b","1":"c"}"#.utf8)
    #expect(try KeyedJSONDecoder().decode([Int: String].self, from: data) == [1: "a", 2: "b"])
    let strings = Data(#"{"k":"a","j":"b","k":"c"}"#.utf8)
    #expect(
      try KeyedJSONDecoder().decode([String: String].self, from: strings) == ["k": "a", "j": "b"])
  }

  @Test func aKeyDecodingStrategyConvertsIntegerNamesAsFoundationDoes() {
    let pair = DecoderPair()
    pair.ours.keyDecodingStrategy = .convertFromSnakeCase
    pair.foundation.keyDecodingStrategy = .convertFromSnakeCase
    for json in [#"{"1_0":"a","2":"b"}"#, #"{"_1":"a"}"#, #"{"x_y":"a"}"#] {
      pair.expectSame([Int: String].self, from: json)
      pair.expectSame([String: String].self, from: json)
    }
  }

  @Test func aLargeDictionary() throws {
    var random = SeededGenerator(seed: 5)
    var byID: [Int: String] = [:]
    var counts: [String: Int] = [:]
    for _ in 0..<3_000 {
      let number = Int(truncatingIfNeeded: random.next() % 1_000_000) - 500_000
      byID[number] = String(number, radix: 36)
      counts[String(number, radix: 16)] = number
    }
    let value = Maps(
      byID: byID, counts: counts, flags: counts.mapValues { $0 % 2 == 0 },
      scores: byID.mapValues { _ in 0.25 }, nested: nil)
    let data = try JSONEncoder().encode(value)
    #expect(try KeyedJSONDecoder().decode(Maps.self, from: data) == value)
  }
}
