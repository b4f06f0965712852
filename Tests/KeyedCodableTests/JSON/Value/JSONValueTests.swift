import Foundation
import KeyedCodable
import Testing

/// ``JSONValue``'s literals, typed accessors, subscripts and description.
@Suite struct JSONValueTests {
  // MARK: - Literals

  @Test func literalsMakeEachKind() {
    let value: JSONValue = [
      "null": nil, "true": true, "int": -42, "double": 2.5, "string": "text", "array": [1, "two"],
      "object": ["a": 1],
    ]
    #expect(value["null"] == .null)
    #expect(value["true"] == .bool(true))
    #expect(value["int"] == .number(JSONValue.Number(-42)))
    #expect(value["int"]?.numberValue?.text == "-42")
    #expect(value["double"]?.numberValue?.text == "2.5")
    #expect(value["string"] == .string("text"))
    #expect(value["array"] == .array([.number(1), .string("two")]))
    #expect(value["object"] == .object(["a": 1]))
    #expect(
      value.objectValue?.names == ["null", "true", "int", "double", "string", "array", "object"])
  }

  @Test func floatLiteralsAreWrittenAsJSONEncoderWritesTheDouble() {
    let values: [JSONValue] = [1.0, 0.1, 1e-7, 1e16, -0.0, 123.456]
    #expect(
      values.map { $0.numberValue?.text } == ["1", "0.1", "1e-07", "1e+16", "-0", "123.456"])
  }

  @Test func stringInterpolationMakesAString() {
    let name = "Ada"
    let value: JSONValue = "Hello, \(name)"
    #expect(value == .string("Hello, Ada"))
  }

  @Test func dictionaryLiteralsKeepTheFirstOfEqualNames() {
    let value: JSONValue = ["a": 1, "b": 2, "a": 3]
    #expect(value.description == #"{"a":1,"b":2}"#)
  }

  // MARK: - Accessors

  @Test func accessorsReadOnlyTheirKind() {
    let values: [JSONValue] = [nil, true, 7, 7.5, "7", [7], ["seven": 7]]
    #expect(values.map(\.isNull) == [true, false, false, false, false, false, false])
    #expect(values.map(\.boolValue) == [nil, true, nil, nil, nil, nil, nil])
    #expect(values.map(\.intValue) == [nil, nil, 7, nil, nil, nil, nil])
    #expect(values.map(\.doubleValue) == [nil, nil, 7, 7.5, nil, nil, nil])
    #expect(values.map(\.stringValue) == [nil, nil, nil, nil, "7", nil, nil])
    #expect(values.map { $0.arrayValue?.count } == [nil, nil, nil, nil, nil, 1, nil])
    #expect(values.map { $0.objectValue?.count } == [nil, nil, nil, nil, nil, nil, 1])
    #expect(values.map { $0.numberValue?.text } == [nil, nil, "7", "7.5", nil, nil, nil])
  }

  @Test func intValueReadsIntegralSpellingsExactly() throws {
    let texts = ["3", "3.0", "3e0", "30e-1", "-0", "9223372036854775807", "9223372036854775808"]
    let numbers = try texts.map { try #require(JSONValue.Number(text: $0)) }
    #expect(numbers.map(\.intValue) == [3, 3, 3, 3, 0, .max, nil])
    #expect(numbers.map { $0.integer(as: UInt64.self) } == [3, 3, 3, 3, 0, 1 << 63 - 1, 1 << 63])
    #expect(numbers.map { $0.integer(as: Int8.self) } == [3, 3, 3, 3, 0, nil, nil])
  }

  @Test func doubleValueIsNilOutsideDoublesRange() throws {
    let texts = ["0.1", "1e308", "1e309", "-1e309", "1e-320", "1e-400", "0e-400"]
    let numbers = try texts.map { try #require(JSONValue.Number(text: $0)) }
    #expect(numbers.map(\.doubleValue) == [0.1, 1e308, nil, nil, Double("1e-320"), nil, 0])
  }

  @Test func decimalValueKeepsTheDigits() throws {
    let number = try #require(JSONValue.Number(text: "0.10000000000000001"))
    #expect(number.decimalValue == Decimal(string: "0.10000000000000001"))
    #expect(JSONValue.Number(text: "1e400")?.decimalValue == nil)
  }

  @Test(arguments: [
    "0", "-0", "1", "-1", "10", "1.5", "-0.0", "1e5", "1E5", "1e+5", "1e-5", "1.0e-05",
    "123456789012345678901234567890", "0.000001",
  ])
  func numbersAcceptJSONText(_ text: String) {
    #expect(JSONValue.Number(text: text)?.text == text)
  }

  @Test(arguments: [
    "", "-", "+1", "01", "-01", ".5", "5.", "1e", "1e+", "0x10", "NaN", "Infinity", "1 ", " 1",
    "1.5.5", "١",
  ])
  func numbersRejectOtherText(_ text: String) {
    #expect(JSONValue.Number(text: text) == nil)
  }

  @Test func numbersFromValues() {
    #expect(JSONValue.Number(UInt64.max).text == "18446744073709551615")
    #expect(JSONValue.Number(Int8.min).text == "-128")
    #expect(JSONValue.Number(Double.infinity) == nil)
    #expect(JSONValue.Number(Double.nan) == nil)
    #expect(JSONValue.Number(0.1 + 0.2)?.text == "0.30000000000000004")
    #expect(JSONValue.Number(Decimal(string: "12.50") ?? 0)?.text == "12.5")
    #expect(JSONValue.Number(Decimal.nan) == nil)
  }

  // MARK: - Changing values

  @Test func arrayValueChangesTheArrayInPlace() {
    var value: JSONValue = [1, 2]
    value.arrayValue?.append(3)
    #expect(value == [1, 2, 3])
    var notAnArray: JSONValue = "text"
    notAnArray.arrayValue?.append(3)
    #expect(notAnArray == "text")
    notAnArray.arrayValue = [true]
    #expect(notAnArray == [true])
    notAnArray.arrayValue = nil
    #expect(notAnArray == nil)
  }

  @Test func objectValueChangesTheObjectInPlace() {
    var value: JSONValue = ["name": "Ada", "age": 36]
    value.objectValue?["email"] = "ada@example.com"
    value.objectValue?["age"] = nil
    value.objectValue?["name"] = "Ada Lovelace"
    #expect(value.description == #"{"name":"Ada Lovelace","email":"ada@example.com"}"#)
    var notAnObject: JSONValue = 1
    notAnObject.objectValue?["name"] = "Ada"
    #expect(notAnObject == 1)
  }

  @Test func nestedChangesGoThroughTheAccessors() {
    var value: JSONValue = ["user": ["tags": ["a"]]]
    value.objectValue?["user"]?.objectValue?["tags"]?.arrayValue?.append("b")
    #expect(value == ["user": ["tags": ["a", "b"]]])
  }

  @Test func changingACopyLeavesTheOriginal() {
    let original: JSONValue = ["a": [1]]
    var copy = original
    copy.objectValue?["a"]?.arrayValue?.append(2)
    #expect(original == ["a": [1]])
    #expect(copy == ["a": [1, 2]])
  }

  // MARK: - Subscripts

  @Test func memberAndIndexSubscripts() {
    let value: JSONValue = ["list": [10, ["name": "x"]], "n": 1]
    #expect(value["list"]?[0] == 10)
    #expect(value["list"]?[1]?["name"] == "x")
    #expect(value["list"]?[2] == nil)
    #expect(value["list"]?[-1] == nil)
    #expect(value["missing"] == nil)
    #expect(value["n"]?["name"] == nil)
    #expect(value[0] == nil)
    #expect(JSONValue.string("s")["a"] == nil)
  }

  struct PathCase: Sendable, CustomStringConvertible {
    let path: String
    let options: KeyOptions
    let expected: JSONValue?
    var description: String { "\(path) with \(options)" }

    init(_ path: String, _ expected: JSONValue?, _ options: KeyOptions = .default) {
      self.path = path
      self.options = options
      self.expected = expected
    }
  }

  static let pathDocument: JSONValue = [
    "data": ["user": ["name": "Ada", "": "empty name"], "* items": [1]],
    "a.b": "dotted", "a": ["b": "nested"], "meta/legacy": "slash", "meta": ["legacy": "deep"],
    "": "root empty name",
  ]

  static let pathCases: [PathCase] = [
    PathCase("data.user.name", "Ada"),
    PathCase("data.user.", "empty name"),
    PathCase("data.user.missing", nil),
    PathCase("data.user.name.first", nil),
    PathCase("a.b", "nested"),
    PathCase("a.b", "dotted", KeyOptions(delimiter: nil)),
    PathCase("meta/legacy", "deep", KeyOptions(delimiter: "/")),
    PathCase("meta/legacy", "slash"),
    PathCase("", pathDocument),
    PathCase("", "root empty name", KeyOptions(flat: nil)),
    PathCase("data.* items", [1]),
    PathCase("data.user.0", nil),
  ]

  @Test(arguments: pathCases)
  func keyPathsReadAsMappingsReadThem(_ pathCase: PathCase) {
    #expect(Self.pathDocument[path: pathCase.path, pathCase.options] == pathCase.expected)
  }

  @Test func keyPathsOfNonObjectsAreNil() {
    let value: JSONValue = [["a": 1]]
    #expect(value[path: "a"] == nil)
    #expect(JSONValue.null[path: "a.b"] == nil)
  }

  // MARK: - Description

  @Test func descriptionIsCompactJSONWithNumbersAsWritten() throws {
    let value = try KeyedJSONDecoder().decode(
      JSONValue.self,
      from: Data(#"{ "b" : [ 1.50 , -0 , 1E+2 ] , "a" : "x/y\n\u00e9" , "c" : null }"#.utf8))
    #expect(value.description == #"{"b":[1.50,-0,1E+2],"a":"x/y\n\#u{E9}","c":null}"#)
    #expect(JSONValue.object([:]).description == "{}")
    #expect(JSONValue.array([]).description == "[]")
    #expect("\(JSONValue.Number(12))" == "12")
  }
}
