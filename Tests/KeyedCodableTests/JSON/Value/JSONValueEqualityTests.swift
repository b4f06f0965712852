import Foundation
import KeyedCodable
import Testing

/// How ``JSONValue``s compare and hash: numbers by exact decimal value, objects whatever the
/// order of their members.
@Suite struct JSONValueEqualityTests {
  /// Two number texts of one decimal value.
  static let equalNumbers: [(String, String)] = [
    ("1", "1.0"), ("1", "1e0"), ("1", "10E-1"), ("1", "0.1e1"), ("100", "1e2"), ("100", "1E+2"),
    ("0", "-0"), ("0", "0.000"), ("0", "-0.0e-99"), ("0", "0e999999999999999999999999"),
    ("-1.5", "-15e-1"), ("0.001", "1e-3"), ("123.4500", "12345e-2"),
    ("12345678901234567890123", "1.2345678901234567890123e22"),
    // Exponents beyond Int64 are compared exactly.
    ("1e1000000000000000000000", "10e999999999999999999999"),
    ("1e-1000000000000000000000", "0.1e-999999999999999999999"),
    // Around 10^18, where the exponent's form changes.
    ("1e1000000000000000000", "10e999999999999999999"),
    ("1e999999999999999999", "0.001e1000000000000000002"),
    ("1e-1000000000000000000", "0.1e-999999999999999999"),
    ("5e99999999999999999999", "0.00005e100000000000000000004"),
  ]

  /// Two number texts of two decimal values.
  static let differentNumbers: [(String, String)] = [
    ("1", "-1"), ("1", "2"), ("1", "10"), ("0.1", "0.10000000000000001"), ("1e2", "1e3"),
    ("1e1000000000000000000000", "1e1000000000000000000001"),
    ("1e1000000000000000000", "1e999999999999999999"),
    ("12345678901234567890123", "12345678901234567890124"), ("0", "1e-999999999999999999999"),
    ("9007199254740993", "9007199254740992"), ("-5e99999999999999999999", "5e99999999999999999999"),
  ]

  @Test(arguments: equalNumbers)
  func numbersOfOneValueAreEqualAndHashAlike(_ lhs: String, _ rhs: String) throws {
    let left = try #require(JSONValue.Number(text: lhs))
    let right = try #require(JSONValue.Number(text: rhs))
    #expect(left == right)
    #expect(right == left)
    #expect(left.hashValue == right.hashValue)
    #expect(JSONValue.number(left) == JSONValue.number(right))
  }

  @Test(arguments: differentNumbers)
  func numbersOfTwoValuesDiffer(_ lhs: String, _ rhs: String) throws {
    let left = try #require(JSONValue.Number(text: lhs))
    let right = try #require(JSONValue.Number(text: rhs))
    #expect(left != right)
    #expect(right != left)
    // Different hashes as a rule (a collision is possible but these are not expected to hit one).
    #expect(left.hashValue != right.hashValue)
  }

  @Test func objectsAreEqualWhateverTheOrderOfTheirMembers() {
    let ab: JSONValue = ["a": 1, "b": [2, ["c": 3, "d": 4]]]
    let ba: JSONValue = ["b": [2, ["d": 4, "c": 3]], "a": 1.0]
    #expect(ab == ba)
    #expect(ab.hashValue == ba.hashValue)
    #expect(Set([ab, ba]).count == 1)
    #expect(ab != ["a": 1, "b": [2, ["c": 3, "d": 5]]])
    #expect(ab != ["a": 1])
    #expect(ab != ["a": 1, "b": [2, ["c": 3, "d": 4]], "e": nil])
    #expect(ab != ["a": 1, "c": [2, ["c": 3, "d": 4]]])
  }

  @Test func largeObjectsCompareWithTheirIndexes() {
    let names = (0..<1000).map { "member\($0)" }
    let forward = JSONValue.Object(names.map { ($0, JSONValue.string($0)) })
    let backward = JSONValue.Object(names.reversed().map { ($0, JSONValue.string($0)) })
    #expect(forward == backward)
    #expect(forward.hashValue == backward.hashValue)
    var changed = backward
    changed["member500"] = "other"
    #expect(forward != changed)
  }

  @Test func kindsNeverEqualOneAnother() {
    let values: [JSONValue] = [nil, false, true, 0, 1, "", "1", "true", [], [:], [nil], ["": nil]]
    for (position, value) in values.enumerated() {
      for (otherPosition, other) in values.enumerated() {
        #expect((value == other) == (position == otherPosition), "\(value) and \(other)")
      }
    }
  }

  @Test func arraysMindTheirOrder() {
    let oneTwo: JSONValue = [1, 2]
    #expect(oneTwo != [2, 1])
    #expect(oneTwo == [1.0, 2e0])
  }

  @Test func stringsAndNamesCompareAsSwiftStrings() {
    // "é" precomposed and decomposed: canonically equivalent.
    #expect(JSONValue.string("\u{E9}") == .string("e\u{301}"))
    let precomposed: JSONValue = ["caf\u{E9}": 1]
    let decomposed: JSONValue = ["cafe\u{301}": 1]
    #expect(precomposed == decomposed)
    #expect(precomposed.hashValue == decomposed.hashValue)
    #expect(precomposed["cafe\u{301}"] == 1)
  }

  @Test func valuesWorkAsDictionaryKeys() {
    var counts: [JSONValue: Int] = [:]
    for value: JSONValue in [1, 1.0, "1", ["a": 1, "b": 2], ["b": 2, "a": 1], nil] {
      counts[value, default: 0] += 1
    }
    #expect(counts[1] == 2)
    #expect(counts["1"] == 1)
    #expect(counts[["a": 1, "b": 2]] == 2)
    #expect(counts[nil] == 1)
  }
}
