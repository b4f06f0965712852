import Foundation
import KeyedCodable
import Testing

/// ``JSONValue`` on ``KeyedJSONDecoder`` and ``KeyedJSONEncoder`` (read from the document and
/// written as it is) and on Foundation's coders (through containers).
@Suite struct JSONValueCodingTests {
  // MARK: - Helpers

  /// Whether two values are the same to the byte: numbers by text, strings and names by
  /// Unicode scalars, members in order.
  static func identical(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let left), .bool(let right)): return left == right
    case (.number(let left), .number(let right)): return left.text == right.text
    case (.string(let left), .string(let right)):
      return left.unicodeScalars.elementsEqual(right.unicodeScalars)
    case (.array(let left), .array(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { identical($0, $1) }
    case (.object(let left), .object(let right)):
      return left.count == right.count
        && zip(left, right).allSatisfy {
          $0.name.unicodeScalars.elementsEqual($1.name.unicodeScalars)
            && identical($0.value, $1.value)
        }
    default: return false
    }
  }

  /// The texts of every number in `value`, in document order.
  static func numberTexts(_ value: JSONValue) -> [String] {
    switch value {
    case .number(let number): return [number.text]
    case .array(let elements): return elements.flatMap(numberTexts)
    case .object(let members): return members.flatMap { numberTexts($0.value) }
    default: return []
    }
  }

  static func text(_ data: Data) -> String {
    String(decoding: data, as: UTF8.self)
  }

  // MARK: - JSONTestSuite round trips

  @Test(arguments: JSONTestData.parsingCases("y_"))
  func acceptedDocumentsRoundTripExactly(_ name: String) throws {
    let data = try JSONTestData.parsingCase(name)
    let decoded = try KeyedJSONDecoder().decode(JSONValue.self, from: data)
    for formatting: KeyedJSONEncoder.OutputFormatting in [[], [.prettyPrinted]] {
      let encoder = KeyedJSONEncoder()
      encoder.outputFormatting = formatting
      let encoded = try encoder.encode(decoded)
      let again = try KeyedJSONDecoder().decode(JSONValue.self, from: encoded)
      #expect(Self.identical(decoded, again), "\(Self.text(encoded))")
      #expect(decoded == again)
      #expect(Self.numberTexts(decoded) == Self.numberTexts(again))
    }
    // Foundation reads what was written as the same value as the original document.
    let encoded = try KeyedJSONEncoder().encode(decoded)
    if let original = try? JSONDecoder().decode(TestJSON.self, from: data) {
      #expect(try JSONDecoder().decode(TestJSON.self, from: encoded) == original)
    }
  }

  @Test func theSuiteHasAcceptedDocuments() {
    #expect(JSONTestData.parsingCases("y_").count == 95)
  }

  @Test func everyNumberKeepsItsText() throws {
    let numbers = [
      "0", "-0", "-0.0", "1.10", "1E+2", "1e-2", "0.1", "0.10000000000000001",
      "12345678901234567890123456789012345678901234567890", "1e400", "-1e-400",
      "1E999999999999999999999",
      "123.456e-789", "9007199254740993", "18446744073709551616", "5e-324",
      "2.2250738585072011e-308",
    ]
    let document = "[" + numbers.joined(separator: ",") + "]"
    let value = try KeyedJSONDecoder().decode(JSONValue.self, from: Data(document.utf8))
    #expect(Self.numberTexts(value) == numbers)
    #expect(Self.text(try KeyedJSONEncoder().encode(value)) == document)
    // Members and nested values too, with every formatting.
    let object = #"{"z":1.0,"a":[-0.0,{"n":1e400}]}"#
    let decoded = try KeyedJSONDecoder().decode(JSONValue.self, from: Data(object.utf8))
    #expect(Self.text(try KeyedJSONEncoder().encode(decoded)) == object)
    let sorted = KeyedJSONEncoder()
    sorted.outputFormatting = [.sortedKeys]
    #expect(Self.text(try sorted.encode(decoded)) == #"{"a":[-0.0,{"n":1e400}],"z":1.0}"#)
    let pretty = KeyedJSONEncoder()
    pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
    #expect(
      Self.text(try pretty.encode(decoded)) == """
        {
          "a" : [
            -0.0,
            {
              "n" : 1e400
            }
          ],
          "z" : 1.0
        }
        """)
  }

  @Test func membersKeepTheirOrder() throws {
    let json = #"{"z":1,"y":{"b":2,"a":3},"x":[{"q":null,"p":true}]}"#
    let value = try KeyedJSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    #expect(value.objectValue?.names == ["z", "y", "x"])
    #expect(Self.text(try KeyedJSONEncoder().encode(value)) == json)
  }

  @Test func stringsAndNamesKeepTheirScalars() throws {
    let json = #"{"caf\u00e9":"cafe\u0301","\ud83d\ude00":"/\\\"\n\u0000","e\u0301":2}"#
    let value = try KeyedJSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    #expect(
      value.objectValue?.names.map { Array($0.unicodeScalars) } == [
        ["c", "a", "f", "\u{E9}"], ["\u{1F600}"], ["e", "\u{301}"],
      ])
    let encoder = KeyedJSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    let again = try KeyedJSONDecoder().decode(JSONValue.self, from: try encoder.encode(value))
    #expect(Self.identical(value, again))
    #expect(value["caf\u{E9}"]?.stringValue?.unicodeScalars.count == 5)
  }

  // MARK: - Repeated names

  static let repeatedNames: [(String, String)] = [
    (#"{"a":1,"a":2}"#, #"{"a":1}"#),
    (#"{"a":1,"b":2,"a":3,"b":4,"c":5}"#, #"{"a":1,"b":2,"c":5}"#),
    (#"{"\u0061":1,"a":2}"#, #"{"a":1}"#),
    (#"{"\u00e9":1,"e\u0301":2}"#, #"{"é":1}"#),
    (#"{"x":{"a":[1],"a":[2]},"x":null}"#, #"{"x":{"a":[1]}}"#),
  ]

  @Test(arguments: repeatedNames)
  func ofRepeatedNamesTheFirstIsKept(_ json: String, _ expected: String) throws {
    let data = Data(json.utf8)
    let value = try KeyedJSONDecoder().decode(JSONValue.self, from: data)
    #expect(value.description == expected)
    // As Foundation's decoder reads the document.
    #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
  }

  @Test func repeatedNamesInALargeObjectKeepTheFirst() throws {
    let members = (0..<100).map { #""m\#($0 % 40)":\#($0)"# }
    let json = "{" + members.joined(separator: ",") + "}"
    let value = try KeyedJSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    let object = try #require(value.objectValue)
    #expect(object.count == 40)
    #expect(object.names == (0..<40).map { "m\($0)" })
    #expect(object.values == (0..<40).map { .number(JSONValue.Number($0)) })
    #expect(object["m39"] == 39)
  }

  // MARK: - In models

  struct Envelope: Codable, Equatable {
    var id: Int
    var metadata: JSONValue
    var extra: [String: JSONValue]
    var optional: JSONValue?
    var price: JSONValue.Number
    var attributes: JSONValue.Object
  }

  static let envelopeJSON = """
    {"id":1,"metadata":{"b":[1.50,null],"a":"x"},"extra":{"k":{"deep":true}},"optional":null,\
    "price":19.990,"attributes":{"size":"L","weight":1.0}}
    """

  @Test(.bothCoders) func valuesDecodeAndEncodeInsideModels() throws {
    let envelope = try decode(Envelope.self, from: Self.envelopeJSON)
    #expect(envelope.metadata == ["a": "x", "b": [1.5, nil]])
    #expect(envelope.extra == ["k": ["deep": true]])
    #expect(envelope.optional == nil)
    #expect(envelope.price == 19.99)
    #expect(envelope.attributes == ["weight": 1, "size": "L"])
    try expectEncoded(
      envelope,
      #"{"id":1,"metadata":{"a":"x","b":[1.5,null]},"extra":{"k":{"deep":true}},"price":19.99,"attributes":{"size":"L","weight":1}}"#
    )
  }

  @Test func keyedJSONKeepsTextAndOrderInsideModels() throws {
    let envelope = try KeyedJSONDecoder().decode(Envelope.self, from: Data(Self.envelopeJSON.utf8))
    #expect(envelope.price.text == "19.990")
    #expect(envelope.metadata.objectValue?.names == ["b", "a"])
    #expect(
      Self.text(try KeyedJSONEncoder().encode(envelope)) == """
        {"id":1,"metadata":{"b":[1.50,null],"a":"x"},"extra":{"k":{"deep":true}},\
        "price":19.990,"attributes":{"size":"L","weight":1.0}}
        """)
  }

  struct Settings: Codable, Keyedable {
    var version = 0
    var theme: JSONValue = nil
    var plugins: [String: JSONValue] = [:]

    mutating func map(map: KeyMap) throws {
      try version <-> map["meta.version"]
      try theme <-> map["ui.theme"]
      try plugins <-> map["ui.plugins"]
    }
  }

  @Test(.bothCoders) func valuesMapAtKeyPaths() throws {
    let json =
      #"{"meta":{"version":2},"ui":{"theme":{"dark":true,"accent":"red"},"plugins":{"p":[1,{"q":null}]}}}"#
    let settings = try decode(Settings.self, from: json)
    #expect(settings.version == 2)
    #expect(settings.theme == ["accent": "red", "dark": true])
    #expect(settings.plugins == ["p": [1, ["q": nil]]])
    try expectEncoded(settings, json)
  }

  @Test(.bothCoders) func theWrongKindThrowsWithThePath() throws {
    expectError("typeMismatch", at: ["price"]) {
      try decode(
        Envelope.self,
        from: #"{"id":1,"metadata":1,"extra":{},"price":"19.99","attributes":{}}"#)
    }
    expectError("typeMismatch", at: ["attributes"]) {
      try decode(
        Envelope.self, from: #"{"id":1,"metadata":1,"extra":{},"price":1,"attributes":[]}"#)
    }
    expectError("valueNotFound", at: ["price"]) {
      try decode(
        Envelope.self,
        from: #"{"id":1,"metadata":1,"extra":{},"price":null,"attributes":{}}"#)
    }
    expectError("keyNotFound(metadata)", at: []) {
      try decode(Envelope.self, from: #"{"id":1,"extra":{},"price":1,"attributes":{}}"#)
    }
  }

  /// Decodes a value through a super decoder and directly with the decoder it is given.
  struct Direct: Decodable, Equatable {
    var value: JSONValue
    var fromSuper: JSONValue
    var missing: JSONValue
    var number: JSONValue.Number
    var object: JSONValue.Object

    enum Keys: String, CodingKey {
      case a, b, c, absent
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      value = try JSONValue(from: decoder)
      fromSuper = try JSONValue(from: container.superDecoder(forKey: .a))
      missing = try JSONValue(from: container.superDecoder(forKey: .absent))
      number = try JSONValue.Number(from: container.superDecoder(forKey: .b))
      object = try JSONValue.Object(from: container.superDecoder(forKey: .c))
    }
  }

  @Test(.bothCoders) func valuesDecodeFromTheDecodersTheyAreGiven() throws {
    let direct = try decode(Direct.self, from: #"{"a":[1,2],"b":2.50,"c":{"d":{}}}"#)
    #expect(direct.value == ["a": [1, 2], "b": 2.5, "c": ["d": [:]]])
    #expect(direct.fromSuper == [1, 2])
    #expect(direct.missing == nil)
    #expect(direct.number == 2.5)
    #expect(direct.object == ["d": [:]])
    if TestCoder.current == .keyedJSON {
      #expect(direct.number.text == "2.50")
    }
  }

  // MARK: - Foundation's coders

  @Test func foundationsDecoderReadsTheValueThroughContainers() throws {
    let json =
      #"{"b":[true,null,"s",1.0,-0,1e2,0.10000000000000001,123456789012345678901234567890],"a":{}}"#
    let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    #expect(value == (try KeyedJSONDecoder().decode(JSONValue.self, from: Data(json.utf8))))
    // Members in the order of their names; numbers with their value, written afresh.
    #expect(value.objectValue?.names == ["a", "b"])
    #expect(
      Self.numberTexts(value) == [
        "1", "0", "100", "0.10000000000000001", "123456789012345678901234567890",
      ])
  }

  @Test func foundationsDecoderRoundsNumbersBeyondDecimal() throws {
    let value = try JSONDecoder().decode(
      JSONValue.self, from: Data("[1e200,123456789012345678901234567890123456789012345]".utf8))
    #expect(value[0] == 1e200)
    #expect(value[1]?.doubleValue == 123456789012345678901234567890123456789012345.0)
    // A number Foundation can't read as a Double is its error.
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(JSONValue.self, from: Data("[1e400]".utf8))
    }
  }

  @Test func foundationsReadsZeroE1AsADecimal() throws {
    let value = try JSONDecoder().decode(JSONValue.self, from: Data("[0e1]".utf8))
    #expect(value == [0])
  }

  @Test func foundationsEncoderWritesTheValueThroughContainers() throws {
    let value: JSONValue = [
      "list": [true, nil, "s", 1.5, -3, .number(JSONValue.Number(UInt64.max))],
      "big": .number(JSONValue.Number(text: "123456789012345678901234567890") ?? 0),
      "object": ["a": [:]],
    ]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    #expect(
      Self.text(try encoder.encode(value)) == """
        {"big":1.2345678901234568e+29,"list":[true,null,"s",1.5,-3,18446744073709551615],"object":{"a":{}}}
        """)
  }

  @Test func foundationsEncoderRejectsNumbersBeyondDouble() throws {
    let value: JSONValue = ["a": [.number(JSONValue.Number(text: "1e400") ?? 0)]]
    expectError("invalidValue", at: ["a", "Index 0"]) {
      try JSONEncoder().encode(value)
    }
    // KeyedJSONEncoder writes it.
    #expect(Self.text(try KeyedJSONEncoder().encode(value)) == #"{"a":[1e400]}"#)
  }

  @Test func keyStrategiesLeaveMemberNamesAlone() throws {
    let json = #"{"some_name":{"otherName":1}}"#
    let foundationDecoder = JSONDecoder()
    foundationDecoder.keyDecodingStrategy = .convertFromSnakeCase
    let keyedDecoder = KeyedJSONDecoder()
    keyedDecoder.keyDecodingStrategy = .convertFromSnakeCase
    let expected: JSONValue = ["some_name": ["otherName": 1]]
    #expect(try foundationDecoder.decode(JSONValue.self, from: Data(json.utf8)) == expected)
    #expect(try keyedDecoder.decode(JSONValue.self, from: Data(json.utf8)) == expected)

    let foundationEncoder = JSONEncoder()
    foundationEncoder.keyEncodingStrategy = .convertToSnakeCase
    let keyedEncoder = KeyedJSONEncoder()
    keyedEncoder.keyEncodingStrategy = .convertToSnakeCase
    #expect(Self.text(try foundationEncoder.encode(expected)) == json)
    #expect(Self.text(try keyedEncoder.encode(expected)) == json)
  }

  @Test func propertyListsHoldValuesToo() throws {
    let value: JSONValue = ["name": "Ada", "list": [1, 2.5, true], "nested": ["a": "b"]]
    let data = try PropertyListEncoder().encode(value)
    #expect(try PropertyListDecoder().decode(JSONValue.self, from: data) == value)
  }

  // MARK: - Scale

  @Test func aMillionMembersDecodeAndAreLookedUpInLinearTime() throws {
    let count = Stress.count(1_000_000)
    var json = "{"
    json.reserveCapacity(count * 16)
    for index in 0..<count {
      if index > 0 { json += "," }
      json += #""member\#(index)":\#(index)"#
    }
    json += "}"
    let value = try KeyedJSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    let object = try #require(value.objectValue)
    #expect(object.count == count)
    var found = 0
    for index in stride(from: 0, to: count, by: 1) where object["member\(index)"]?.intValue == index
    {
      found += 1
    }
    #expect(found == count)
    #expect(value[path: "member\(count - 1)"] == .number(JSONValue.Number(count - 1)))
    #expect(Self.text(try KeyedJSONEncoder().encode(value)) == json)
  }

  @Test func aMillionMembersAreAddedChangedAndRemovedInLinearTime() throws {
    let count = Stress.count(1_000_000)
    var value: JSONValue = [:]
    for index in 0..<count {
      value.objectValue?["m\(index)"] = .number(JSONValue.Number(index))
    }
    for index in stride(from: 0, to: count, by: 3) {
      value.objectValue?["m\(index)"] = .number(JSONValue.Number(-index))
    }
    value.objectValue?.removeAll { ($0.value.intValue ?? 0) % 2 == 0 }
    let object = try #require(value.objectValue)
    #expect(object.count == count / 2)
    #expect(object["m1"] == 1)
    #expect(object["m3"] == -3)
    #expect(object["m0"] == nil)
    #expect(object.names.prefix(4) == ["m1", "m3", "m5", "m7"])
    // One by one, as from an array: each removal moves the members after it.
    for index in stride(from: 1, to: 20, by: 2) {
      value.objectValue?["m\(index)"] = nil
    }
    #expect(value.objectValue?.count == count / 2 - 10)
    #expect(value.objectValue?.first?.name == "m21")
  }

  @Test func concurrentLookupsShareALargeObject() async throws {
    let object = JSONValue.Object(
      (0..<5000).map { ("m\($0)", JSONValue.number(JSONValue.Number($0))) })
    let found = await withTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var found = 0
          for index in stride(from: task, to: 5000, by: 8)
          where object["m\(index)"]?.intValue == index {
            found += 1
          }
          return found
        }
      }
      return await group.reduce(0, +)
    }
    #expect(found == 5000)
  }

  // MARK: - Depth

  /// `depth` arrays or objects, each inside the one before.
  static func nested(_ depth: Int, objects: Bool) -> JSONValue {
    var value: JSONValue = 1
    for _ in 0..<depth {
      value = objects ? ["a": value] : [value]
    }
    return value
  }

  @Test(arguments: [false, true])
  func valuesAsDeepAsJSONIsReadRoundTrip(objects: Bool) throws {
    let value = Self.nested(512, objects: objects)
    let encoded = try KeyedJSONEncoder().encode(value)
    let decoded = try KeyedJSONDecoder().decode(JSONValue.self, from: encoded)
    #expect(decoded == value)
    #expect(try JSONDecoder().decode(JSONValue.self, from: encoded) == value)
    // Foundation's encoder writes one level less.
    let shallower = Self.nested(511, objects: objects)
    #expect(
      try KeyedJSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(shallower))
        == shallower)
  }

  @Test func aValueDeeperThanJSONIsReadIsNotWritten() throws {
    let value: JSONValue = ["top": Self.nested(512, objects: false)]
    expectError("invalidValue", at: ["top"] + Array(repeating: "Index 0", count: 511)) {
      try KeyedJSONEncoder().encode(value)
    }
    #expect(value.description.hasPrefix("<JSONValue: "))
  }

  /// Values as deep as the decoders read are decoded, encoded, compared, hashed and freed on
  /// the stack of a secondary thread of Apple platforms (512 KiB).
  @Test(arguments: [false, true])
  func deepValuesNeedLittleStack(objects: Bool) throws {
    let json =
      objects
      ? String(repeating: #"{"a":"#, count: 511) + "{}" + String(repeating: "}", count: 511)
      : String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    let equal = try onThread(stackSize: 512 * 1024) {
      let decoded = try KeyedJSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
      let encoded = try KeyedJSONEncoder().encode(decoded)
      let again = try KeyedJSONDecoder().decode(JSONValue.self, from: encoded)
      return decoded == again && decoded.hashValue == again.hashValue
        && String(decoding: encoded, as: UTF8.self) == json
    }
    #expect(equal)
  }

  @Test(arguments: ["[", #"{"a":"#])
  func documentsDeeperThanJSONIsReadThrowWithThePath(_ opening: String) throws {
    // 100,000 levels: the scanner stops at the 513th, without recursion.
    let json = String(repeating: opening, count: 100_000) + "1"
    #expect(throws: DecodingError.self) {
      try KeyedJSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    }
    // Every prefix of a valid document is invalid, and none crashes.
    let valid = Data(#"{"a":[1,{"b":null,"c":"\u00e9"}],"d":-1.5e3}"#.utf8)
    for end in 0..<valid.count {
      #expect(throws: DecodingError.self) {
        try KeyedJSONDecoder().decode(JSONValue.self, from: valid.prefix(end))
      }
    }
  }
}
