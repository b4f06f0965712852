import Foundation
import KeyedCodable
import Testing

@testable import KeyedCodable

/// The readable forms of `DecodingError` and `EncodingError`: the one-line sentence, the
/// detailed form with a fragment of the document, notes, and path rendering.
@Suite("Readable errors")
struct ReadableErrorTests {
  // MARK: - Models

  struct Address: Codable {
    let city: String
    let zipCode: Int
  }

  struct User: Codable {
    let id: Int
    let name: String
    let address: Address
    let tags: [String]?
  }

  struct Small: Codable {
    let n: Int8
  }

  struct Event: Codable {
    let createdAt: Date
  }

  /// Two integers read from an unkeyed container.
  struct Pair: Decodable {
    let first: Int
    let second: Int

    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      first = try container.decode(Int.self)
      second = try container.decode(Int.self)
    }
  }

  struct Pairs: Decodable {
    let pair: Pair
  }

  struct Customer: Codable, Keyedable {
    var zip: Int!

    init() {}

    mutating func map(map: KeyMap) throws {
      try zip <-> map["address.geo.zip"].required()
    }

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }
  }

  struct Account: Codable, Keyedable {
    var id: Int?

    init() {}

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"].required()
    }

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }
  }

  struct Place: Encodable {
    let latitude: Double
  }

  /// A coding key with any string and integer value; ``index(_:)`` names it as unkeyed
  /// containers do.
  struct TestKey: CodingKey, Sendable, CustomStringConvertible {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
      self.stringValue = stringValue
      intValue = nil
    }

    init(intValue: Int) {
      stringValue = String(intValue)
      self.intValue = intValue
    }

    init(_ stringValue: String, intValue: Int? = nil) {
      self.stringValue = stringValue
      self.intValue = intValue
    }

    static func index(_ index: Int) -> TestKey {
      TestKey("Index \(index)", intValue: index)
    }

    var description: String { "\(stringValue)/\(intValue.map(String.init) ?? "nil")" }
  }

  struct SomeError: Error, Equatable {
    let code: Int
  }

  // MARK: - Helpers

  /// The error decoding `json` as `T` throws with `coder`.
  func decodingError<T: Decodable>(
    _ type: T.Type, _ json: String, with coder: TestCoder,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> DecodingError {
    try decodingError(T.self, Data(json.utf8), with: coder, sourceLocation: sourceLocation)
  }

  /// The error decoding `data` as `T` throws with `coder`.
  func decodingError<T: Decodable>(
    _ type: T.Type, _ data: Data, with coder: TestCoder,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> DecodingError {
    do {
      let value = try TestCoder.$current.withValue(coder) { try decode(T.self, fromData: data) }
      Issue.record("Expected an error, got \(value) with \(coder)", sourceLocation: sourceLocation)
    } catch let error as DecodingError {
      return error
    }
    throw SomeError(code: 0)
  }

  /// A `keyNotFound` error for `key` in the object at `path`.
  func keyNotFound(
    _ key: String, at path: [TestKey], message: String = "No value.",
    underlying: (any Error)? = nil
  ) -> DecodingError {
    .keyNotFound(
      TestKey(key),
      .init(codingPath: path, debugDescription: message, underlyingError: underlying))
  }

  /// Attaches a note for `User`, expecting `Int` at `address.zipCode`.
  func noted(_ error: any Error) -> any Error {
    ErrorNote.attach(
      to: error, modelType: User.self, expectedType: Int.self, keyPath: "address.zipCode")
  }

  /// The readable line of a `DecodingError` or `EncodingError`.
  func line(_ error: any Error) -> String {
    readableDescription(of: error)
  }

  /// The document lines of the detailed form of `error` for `document`.
  func fragment(_ error: DecodingError, _ document: String) -> String {
    fragment(error, Data(document.utf8))
  }

  /// The document lines of the detailed form of `error` for `document`.
  func fragment(_ error: DecodingError, _ document: Data) -> String {
    let lines = error.detailedDescription(document: document).split(
      separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0.hasPrefix("  document:") }) else { return "" }
    return lines[start...].joined(separator: "\n")
  }

  // MARK: - Paths

  static let pathCases: [([TestKey], String)] = [
    ([], "the top level"),
    ([TestKey("address"), TestKey("zipCode")], "address.zipCode"),
    (
      [TestKey("users"), .index(2), TestKey("address"), TestKey("zipCode")],
      "users[2].address.zipCode"
    ),
    ([.index(0), .index(1)], "[0][1]"),
    ([.index(0), TestKey("id")], "[0].id"),
    ([TestKey("a.b"), TestKey("c")], #"["a.b"].c"#),
    ([TestKey("meta"), TestKey("content type")], #"meta["content type"]"#),
    ([TestKey("")], #"[""]"#),
    ([TestKey("x"), TestKey("tab\there")], #"x["tab\there"]"#),
    ([TestKey("q\"uote")], #"["q\"uote"]"#),
    ([TestKey("[0]")], #"["[0]"]"#),
    ([TestKey("back\\slash")], #"back\slash"#),
    ([TestKey("zero\u{200B}width")], #"["zero\u200Bwidth"]"#),
    ([TestKey("no\u{A0}break")], #"["no\u00A0break"]"#),
    ([TestKey("line\nbreak")], #"["line\nbreak"]"#),
    ([TestKey("bell\u{07}")], #"["bell\u0007"]"#),
    ([TestKey("café"), TestKey("日本")], "café.日本"),
    ([TestKey("emoji😀")], "emoji😀"),
    ([TestKey("super"), TestKey("id")], "super.id"),
    // A synthesized key with an Int raw value, and a dictionary's Int key, are member names.
    ([TestKey("first", intValue: 1)], "first"),
    ([TestKey("scores"), TestKey(intValue: 5)], "scores.5"),
    // Named like an element but without an integer value: a member name.
    ([TestKey("Index 3")], #"["Index 3"]"#),
  ]

  @Test(arguments: pathCases)
  func pathsReadAsSwiftCode(path: [TestKey], expected: String) {
    #expect(CodingPathText.render(path) == expected)
  }

  @Test func pathsOfTheCodersReadTheSame() throws {
    let foundation = try decodingError([User].self, #"[{"id": 1}]"#, with: .foundation)
    let keyed = try decodingError([User].self, #"[{"id": 1}]"#, with: .keyedJSON)
    #expect(foundation.readableDescription == #"Key "name" not found at [0]"#)
    #expect(keyed.readableDescription == foundation.readableDescription)
  }

  static let typeNameCases: [(String, String)] = [
    ("Int", "Int"),
    ("Array<Int>", "[Int]"),
    ("Dictionary<String, Any>", "[String: Any]"),
    ("Optional<Int>", "Int?"),
    ("Array<Dictionary<String, Array<Optional<Int>>>>", "[[String: [Int?]]]"),
    ("Optional<any Error>", "(any Error)?"),
    ("Optional<Dictionary<String, Any>>", "[String: Any]?"),
    ("Swift.Array<Int>", "[Int]"),
    ("Set<Int>", "Set<Int>"),
    ("Box<Array<User.Address>>", "Box<[User.Address]>"),
    ("() -> ()", "() -> ()"),
    ("(Int, String)", "(Int, String)"),
    ("Array<(Int, String)>", "Array<(Int, String)>"),
    ("Dictionary<String", "Dictionary<String"),
    ("Array<Int>>", "Array<Int>>"),
    ("", ""),
  ]

  @Test(arguments: typeNameCases)
  func typeNamesUseTheShorthandOfSwiftCode(name: String, expected: String) {
    #expect(CodingPathText.typeName(name) == expected)
  }

  // MARK: - One line, for every kind

  @Test func keyNotFoundNamesTheKeyAndTheObjectThatLacksIt() {
    #expect(
      keyNotFound("zipCode", at: [TestKey("address")]).readableDescription
        == #"Key "zipCode" not found at address"#)
    #expect(
      line(noted(keyNotFound("zipCode", at: [TestKey("address")])))
        == #"Key "zipCode" not found at address (User): expected Int"#)
    #expect(
      line(noted(keyNotFound("id", at: [])))
        == #"Key "id" not found at the top level (User): expected Int"#)
    #expect(
      keyNotFound("first name", at: [TestKey("users"), .index(2)]).readableDescription
        == #"Key "first name" not found at users[2]"#)
    #expect(
      DecodingError.keyNotFound(TestKey.index(4), .init(codingPath: [], debugDescription: ""))
        .readableDescription == "Element [4] not found at the top level")
  }

  @Test func valueNotFoundNamesTheTypeOfTheError() {
    let error = DecodingError.valueNotFound(
      Int.self,
      .init(
        codingPath: [TestKey("address"), TestKey("zipCode")],
        debugDescription: "Cannot get value of type Int -- found null value instead"))
    #expect(error.readableDescription == "Null value at address.zipCode: expected Int")
    #expect(line(noted(error)) == "Null value at address.zipCode (User): expected Int")
    // The error's own type wins over the note's.
    let object = DecodingError.valueNotFound(
      [String: Any].self, .init(codingPath: [TestKey("address")], debugDescription: ""))
    #expect(line(noted(object)) == "Null value at address (User): expected [String: Any]")
    let atEnd = DecodingError.valueNotFound(
      Int.self,
      .init(
        codingPath: [TestKey("pair"), .index(1)], debugDescription: "Unkeyed container is at end."))
    #expect(atEnd.readableDescription == "Missing element at pair[1]: expected Int")
    // Foundation's message for a super decoder asked of an array at its end.
    let superAtEnd = DecodingError.valueNotFound(
      (any Decoder).self,
      .init(
        codingPath: [TestKey("pair"), .index(1)],
        debugDescription: "Cannot get superDecoder() -- unkeyed container is at end."))
    #expect(superAtEnd.readableDescription == "Missing element at pair[1]: expected Decoder")
  }

  @Test func typeMismatchSaysWhatWasFound() {
    func mismatch(_ message: String) -> DecodingError {
      .typeMismatch(
        Int.self,
        .init(codingPath: [TestKey("address"), TestKey("zipCode")], debugDescription: message))
    }
    #expect(
      line(noted(mismatch("Expected to decode Int but found a string instead.")))
        == "Type mismatch at address.zipCode (User): expected Int, found a string")
    #expect(
      mismatch("Expected to decode Int but found number instead.").readableDescription
        == "Type mismatch at address.zipCode: expected Int, found a number")
    #expect(
      mismatch("Expected to decode Int but found bool instead.").readableDescription
        == "Type mismatch at address.zipCode: expected Int, found a Boolean")
    #expect(
      mismatch("Expected to decode Int but found a dictionary instead.").readableDescription
        == "Type mismatch at address.zipCode: expected Int, found a dictionary")
    // Other messages are kept, without their final period.
    #expect(
      mismatch("Zip codes are numbers.").readableDescription
        == "Type mismatch at address.zipCode: expected Int, Zip codes are numbers")
    #expect(mismatch("").readableDescription == "Type mismatch at address.zipCode: expected Int")
  }

  @Test func dataCorruptedKeepsTheMessage() {
    let error = DecodingError.dataCorrupted(
      .init(
        codingPath: [TestKey("address"), TestKey("zipCode")],
        debugDescription: "Parsed JSON number <1.5> does not fit in Int."))
    #expect(
      error.readableDescription
        == "Invalid data at address.zipCode: Parsed JSON number <1.5> does not fit in Int.")
    #expect(
      line(noted(error))
        == "Invalid data at address.zipCode (User): Parsed JSON number <1.5> does not fit in Int.")
    let root = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Bad."))
    #expect(root.readableDescription == "Invalid data at the top level: Bad.")
    let empty = DecodingError.dataCorrupted(.init(codingPath: [TestKey("a")], debugDescription: ""))
    #expect(empty.readableDescription == "Invalid data at a")
  }

  @Test func invalidJSONNamesLineAndColumn() {
    let syntax = JSONSyntaxError(
      .unexpectedCharacter(UInt8(ascii: "x")), offset: 7, line: 1, column: 8)
    let keyed = DecodingError.dataCorrupted(
      .init(
        codingPath: [], debugDescription: "The given data was not valid JSON.",
        underlyingError: syntax))
    #expect(
      keyed.readableDescription == "Invalid JSON: Unexpected character 'x' at line 1, column 8.")
    // Foundation's JSONDecoder on Apple platforms: the sentence is in the NSError.
    let cocoa = NSError(
      domain: NSCocoaErrorDomain, code: 3840,
      userInfo: [NSDebugDescriptionErrorKey: "Unexpected character 'x' around line 1, column 8."])
    let apple = DecodingError.dataCorrupted(
      .init(
        codingPath: [], debugDescription: "The given data was not valid JSON.",
        underlyingError: cocoa))
    #expect(
      apple.readableDescription == "Invalid JSON: Unexpected character 'x' around line 1, column 8."
    )
    // Foundation's JSONDecoder on Linux: no position at all.
    let linux = DecodingError.dataCorrupted(
      .init(codingPath: [], debugDescription: "The given data was not valid JSON."))
    #expect(linux.readableDescription == "Invalid JSON: The given data was not valid JSON.")
  }

  @Test func invalidValueShowsTheValueShortened() {
    let error = EncodingError.invalidValue(
      Double.nan,
      .init(
        codingPath: [TestKey("location"), TestKey("latitude")],
        debugDescription: "Unable to encode Double.nan directly in JSON."))
    #expect(
      error.readableDescription
        == "Cannot encode nan at location.latitude: Unable to encode Double.nan directly in JSON.")
    let placed = ErrorNote.attach(
      to: error, modelType: Place.self, expectedType: Double.self, keyPath: "location.latitude")
    #expect(
      line(placed)
        == "Cannot encode nan at location.latitude (Place): Unable to encode Double.nan directly "
        + "in JSON.")
    let long = EncodingError.invalidValue(
      String(repeating: "x", count: 100) + "\nend",
      .init(codingPath: [], debugDescription: "Too long."))
    #expect(
      long.readableDescription
        == "Cannot encode \(String(repeating: "x", count: 59))… at the top level: Too long.")
    let multiLine = EncodingError.invalidValue(
      "a\nb", .init(codingPath: [TestKey("k")], debugDescription: "First.\nSecond."))
    #expect(multiLine.readableDescription == "Cannot encode a b at k: First. Second.")
  }

  @Test func theLineNeverBreaks() {
    let error = DecodingError.dataCorrupted(
      .init(codingPath: [TestKey("a\nb")], debugDescription: "One\ntwo\r\nthree\tfour"))
    #expect(error.readableDescription == #"Invalid data at ["a\nb"]: One two  three four"#)
  }

  // MARK: - Errors thrown by the decoders

  @Test(arguments: TestCoder.allCases)
  func aMissingNestedKey(coder: TestCoder) throws {
    let error = try decodingError(
      User.self, #"{"id": 1, "name": "Ann", "address": {"city": "Paris"}}"#, with: coder)
    #expect(error.readableDescription == #"Key "zipCode" not found at address"#)
  }

  @Test(arguments: TestCoder.allCases)
  func aMissingKeyInAnArrayElement(coder: TestCoder) throws {
    let json = #"[{"id": 1, "name": "A", "address": {"city": "P", "zipCode": 1}}, {"name": "B"}]"#
    let error = try decodingError([User].self, json, with: coder)
    #expect(error.readableDescription == #"Key "id" not found at [1]"#)
  }

  @Test(arguments: TestCoder.allCases)
  func aNullValue(coder: TestCoder) throws {
    let member = try decodingError(
      User.self, #"{"id": 1, "name": "A", "address": {"city": "P", "zipCode": null}}"#,
      with: coder)
    #expect(member.readableDescription == "Null value at address.zipCode: expected Int")
    let object = try decodingError(
      User.self, #"{"id": 1, "name": "A", "address": null}"#, with: coder)
    #expect(object.readableDescription == "Null value at address: expected [String: Any]")
    let root = try decodingError(User.self, "null", with: coder)
    #expect(root.readableDescription == "Null value at the top level: expected [String: Any]")
    let element = try decodingError([[Int]].self, "[[1], [2, null]]", with: coder)
    #expect(element.readableDescription == "Null value at [1][1]: expected Int")
  }

  @Test(arguments: TestCoder.allCases)
  func aWrongType(coder: TestCoder) throws {
    let string = try decodingError(
      User.self, #"{"id": 1, "name": "A", "address": {"city": "P", "zipCode": "75001"}}"#,
      with: coder)
    #expect(
      string.readableDescription == "Type mismatch at address.zipCode: expected Int, found a string"
    )
    let element = try decodingError(
      User.self,
      #"{"id": 1, "name": "A", "address": {"city": "P", "zipCode": 1}, "tags": ["a", 2]}"#,
      with: coder)
    #expect(
      element.readableDescription == "Type mismatch at tags[1]: expected String, found a number")
    let bool = try decodingError(
      User.self, #"{"id": true, "name": "A", "address": {"city": "P", "zipCode": 1}}"#, with: coder)
    #expect(bool.readableDescription == "Type mismatch at id: expected Int, found a Boolean")
    let array = try decodingError(
      User.self, #"{"id": 1, "name": "A", "address": [1]}"#, with: coder)
    #expect(
      array.readableDescription
        == "Type mismatch at address: expected [String: Any], found an array")
  }

  @Test(arguments: TestCoder.allCases)
  func anArrayThatEndsTooSoon(coder: TestCoder) throws {
    let error = try decodingError(Pairs.self, #"{"pair": [1]}"#, with: coder)
    #expect(error.readableDescription == "Missing element at pair[1]: expected Int")
  }

  @Test(arguments: TestCoder.allCases)
  func aKeyedableMappingThatMissesAnObject(coder: TestCoder) throws {
    let missing = try decodingError(Customer.self, #"{"address": {}}"#, with: coder)
    // The mapping names its model and the type of its value.
    // An object on the way is missing: the model is named, the value's type is not.
    #expect(missing.readableDescription == #"Key "geo" not found at address (Customer)"#)
    let null = try decodingError(Customer.self, #"{"address": {"geo": null}}"#, with: coder)
    #expect(
      null.readableDescription
        == "Null value at address.geo (Customer): expected [String: Any]")
    let last = try decodingError(Customer.self, #"{"address": {"geo": {}}}"#, with: coder)
    #expect(
      last.readableDescription == #"Key "zip" not found at address.geo (Customer): expected Int"#)
  }

  /// Where the decoders differ: `JSONDecoder` on Linux loses the path of an invalid date.
  @Test func aDateInTheWrongFormat() throws {
    let data = Data(#"{"createdAt": "yesterday"}"#.utf8)
    let keyed = KeyedJSONDecoder()
    keyed.dateDecodingStrategy = .iso8601
    #expect {
      try keyed.decode(Event.self, from: data)
    } throws: { error in
      readableDescription(of: error)
        == "Invalid data at createdAt: Expected date string to be ISO8601-formatted."
    }
    #if os(Linux)
      let foundation = JSONDecoder()
      foundation.dateDecodingStrategy = .iso8601
      #expect {
        try foundation.decode(Event.self, from: data)
      } throws: { error in
        readableDescription(of: error)
          == "Invalid data at the top level: Expected date string to be ISO8601-formatted."
      }
    #endif
  }

  /// Where the decoders differ: `JSONDecoder` on Linux gives no position for invalid JSON and
  /// reports a number that does not fit its type as invalid JSON at the top level.
  @Test func invalidJSONAndNumbersThatDoNotFit() throws {
    let keyedSyntax = try decodingError(User.self, #"{"id": x}"#, with: .keyedJSON)
    #expect(
      keyedSyntax.readableDescription
        == "Invalid JSON: Unexpected character 'x' at line 1, column 8.")
    let keyedEmpty = try decodingError(User.self, "", with: .keyedJSON)
    #expect(
      keyedEmpty.readableDescription == "Invalid JSON: The document is empty at line 1, column 1.")
    let keyedNumber = try decodingError(Small.self, #"{"n": 300}"#, with: .keyedJSON)
    #expect(
      keyedNumber.readableDescription
        == "Invalid data at n: Parsed JSON number <300> does not fit in Int8.")

    let foundationSyntax = try decodingError(User.self, #"{"id": x}"#, with: .foundation)
    #expect(foundationSyntax.readableDescription.hasPrefix("Invalid JSON: "))
    #if os(Linux)
      #expect(
        foundationSyntax.readableDescription == "Invalid JSON: The given data was not valid JSON.")
      let foundationNumber = try decodingError(Small.self, #"{"n": 300}"#, with: .foundation)
      #expect(
        foundationNumber.readableDescription == "Invalid JSON: The given data was not valid JSON.")
      let foundationEmpty = try decodingError(User.self, "", with: .foundation)
      #expect(
        foundationEmpty.readableDescription == "Invalid JSON: The given data was not valid JSON.")
    #endif
  }

  @Test(arguments: TestCoder.allCases)
  func encodingErrorsOfTheEncoders(coder: TestCoder) throws {
    let value = ["a": Double.nan]
    #expect {
      try TestCoder.$current.withValue(coder) { try encodeJSON(value) }
    } throws: { error in
      readableDescription(of: error)
        == "Cannot encode nan at a: Unable to encode Double.nan directly in JSON."
    }
    #expect {
      try TestCoder.$current.withValue(coder) { try encodeJSON(Account()) }
    } throws: { error in
      readableDescription(of: error)
        == #"Cannot encode nil at id (Account): Required key path "id" has no value to encode "#
        + "(it is nil)."
    }
  }

  // MARK: - Notes

  @Test func attachingANoteKeepsKindPathAndMessage() throws {
    let original = keyNotFound(
      "zipCode", at: [TestKey("address")], message: "Missing.", underlying: SomeError(code: 7))
    let attached = noted(original)
    guard case DecodingError.keyNotFound(let key, let context) = attached else {
      Issue.record("Expected keyNotFound, got \(attached)")
      return
    }
    #expect(key.stringValue == "zipCode")
    #expect(context.codingPath.map(\.stringValue) == ["address"])
    #expect(context.debugDescription == "Missing.")
    let note = try #require(context.underlyingError as? ErrorNote)
    #expect(note.modelType == "User")
    #expect(note.expectedType == "Int")
    #expect(note.keyPath == "address.zipCode")
    #expect(note.underlying as? SomeError == SomeError(code: 7))
  }

  @Test func everyKindTakesANote() {
    let context = DecodingError.Context(codingPath: [TestKey("a")], debugDescription: "M.")
    let errors: [any Error] = [
      DecodingError.keyNotFound(TestKey("b"), context),
      DecodingError.valueNotFound(Int.self, context),
      DecodingError.typeMismatch(Int.self, context),
      DecodingError.dataCorrupted(context),
      EncodingError.invalidValue(1, .init(codingPath: [TestKey("a")], debugDescription: "M.")),
    ]
    for error in errors {
      let attached = noted(error)
      #expect(line(attached).contains(" (User)"), "\(attached)")
      #expect(shape(of: attached) == shape(of: error))
      #expect(message(of: attached) == "M.")
    }
  }

  @Test func theFirstNoteStays() {
    let inner = ErrorNote.attach(
      to: keyNotFound("zip", at: [TestKey("geo")]), modelType: Address.self,
      expectedType: String.self, keyPath: "geo.zip")
    let outer = noted(inner)
    #expect(line(outer) == #"Key "zip" not found at geo (Address): expected String"#)
  }

  @Test func otherErrorsAreLeftAlone() {
    let error = ErrorNote.attach(
      to: SomeError(code: 3), modelType: User.self, expectedType: nil, keyPath: nil)
    #expect(error as? SomeError == SomeError(code: 3))
  }

  @Test func aNoteDescribesItself() {
    let note = ErrorNote(
      modelType: "User", expectedType: "Optional<Int>", keyPath: "address.zipCode",
      underlying: SomeError(code: 1))
    #expect(
      note.description
        == #"In the mapping of User at key path "address.zipCode", expecting Int?; "#
        + "underlying error: SomeError(code: 1)")
    let bare = ErrorNote(modelType: "User", expectedType: nil, keyPath: nil, underlying: nil)
    #expect(bare.description == "In the mapping of User")
  }

  // MARK: - Any error

  enum NetworkError: Error {
    case decodingFailed(any Error)
    case offline
  }

  struct APIError: Error {
    let status: Int
    let underlying: any Error
  }

  @Test func readableDescriptionOfAnyErrorFindsTheCodingError() {
    let decoding = keyNotFound("id", at: [])
    #expect(readableDescription(of: decoding) == #"Key "id" not found at the top level"#)
    #expect(
      readableDescription(of: APIError(status: 500, underlying: decoding))
        == #"Key "id" not found at the top level"#)
    #expect(
      readableDescription(of: NetworkError.decodingFailed(decoding))
        == #"Key "id" not found at the top level"#)
    #expect(
      readableDescription(
        of: APIError(status: 500, underlying: NetworkError.decodingFailed(noted(decoding))))
        == #"Key "id" not found at the top level (User): expected Int"#)
    let cocoa = NSError(domain: "Test", code: 1, userInfo: [NSUnderlyingErrorKey: decoding])
    #expect(readableDescription(of: cocoa) == #"Key "id" not found at the top level"#)
    let encoding = EncodingError.invalidValue(1, .init(codingPath: [], debugDescription: "No."))
    #expect(readableDescription(of: encoding) == "Cannot encode 1 at the top level: No.")
  }

  @Test func readableDescriptionOfOtherErrorsIsTheirDescription() {
    #expect(readableDescription(of: SomeError(code: 4)) == "SomeError(code: 4)")
    #expect(readableDescription(of: NetworkError.offline) == "offline")
    #expect(
      readableDescription(of: APIError(status: 404, underlying: SomeError(code: 2)))
        == String(describing: APIError(status: 404, underlying: SomeError(code: 2))))
  }

  // MARK: - Detailed form

  static let userDocument = """
    {
      "id": 1,
      "name": "Ann",
      "address": { "city": "Paris" }
    }

    """

  @Test func detailedFormWithADocument() throws {
    let error = try #require(
      noted(
        keyNotFound(
          "zipCode", at: [TestKey("address")],
          message: #"No value for key path "address.zipCode": member "zipCode" is missing."#))
        as? DecodingError)
    #expect(
      error.detailedDescription(document: Data(Self.userDocument.utf8)) == """
        Key "zipCode" not found at address (User): expected Int
          coding path: address
          key path:    address.zipCode
          model:       User
          expected:    Int
          message:     No value for key path "address.zipCode": member "zipCode" is missing.
          document:
             2 |   "id": 1,
             3 |   "name": "Ann",
             4 |   "address": { "city": "Paris" }
               |              ^
             5 | }
        """)
  }

  @Test func detailedFormWithoutADocument() throws {
    let error = try #require(
      noted(
        DecodingError.typeMismatch(
          Int.self,
          .init(
            codingPath: [TestKey("address"), TestKey("zipCode")],
            debugDescription: "Expected to decode Int but found a string instead.",
            underlyingError: SomeError(code: 9))))
        as? DecodingError)
    #expect(
      error.detailedDescription() == """
        Type mismatch at address.zipCode (User): expected Int, found a string
          coding path: address.zipCode
          key path:    address.zipCode
          model:       User
          expected:    Int
          message:     Expected to decode Int but found a string instead.
          underlying:  SomeError(code: 9)
        """)
    let plain = keyNotFound("id", at: [], message: "")
    #expect(
      plain.detailedDescription() == """
        Key "id" not found at the top level
          coding path: the top level
        """)
  }

  @Test func detailedFormOfAnEncodingError() throws {
    let error = try #require(
      ErrorNote.attach(
        to: EncodingError.invalidValue(
          Double.infinity,
          .init(
            codingPath: [TestKey("location"), TestKey("latitude")],
            debugDescription: "Unable to encode Double.inf directly in JSON.")),
        modelType: Place.self, expectedType: Double.self, keyPath: "location.latitude")
        as? EncodingError)
    #expect(
      error.detailedDescription() == """
        Cannot encode inf at location.latitude (Place): Unable to encode Double.inf directly in JSON.
          coding path: location.latitude
          key path:    location.latitude
          model:       Place
          value:       inf (Double)
          message:     Unable to encode Double.inf directly in JSON.
        """)
  }

  @Test func anUnderlyingCodingErrorIsShownAsItsLine() {
    let inner = keyNotFound("id", at: [TestKey("user")])
    let outer = DecodingError.dataCorrupted(
      .init(codingPath: [TestKey("user")], debugDescription: "Bad user.", underlyingError: inner))
    #expect(
      outer.detailedDescription() == """
        Invalid data at user: Bad user.
          coding path: user
          message:     Bad user.
          underlying:  Key "id" not found at user
        """)
  }

  @Test(arguments: TestCoder.allCases)
  func theCaretPointsAtTheFailingValue(coder: TestCoder) throws {
    let json = """
      {
        "id": 1,
        "name": "Ann",
        "address": { "city": "Paris", "zipCode": "75001" },
        "tags": ["a", "b"]
      }
      """
    let error = try decodingError(User.self, json, with: coder)
    #expect(
      fragment(error, json) == """
          document:
             2 |   "id": 1,
             3 |   "name": "Ann",
             4 |   "address": { "city": "Paris", "zipCode": "75001" },
               |                                            ^
             5 |   "tags": ["a", "b"]
        """)
  }

  @Test(arguments: TestCoder.allCases)
  func theCaretPointsAtAnArrayElement(coder: TestCoder) throws {
    let json = #"{"id": 1, "name": "A", "address": {"city": "P", "zipCode": 1}, "tags": ["a", 2]}"#
    let error = try decodingError(User.self, json, with: coder)
    #expect(
      fragment(error, json) == """
          document:
             1 | {"id": 1, "name": "A", "address": {"city": "P", "zipCode": 1}, "tags": ["a", 2]}
               |                                                                              ^
        """)
  }

  @Test(arguments: TestCoder.allCases)
  func theCaretPointsAtTheArrayThatEndsTooSoon(coder: TestCoder) throws {
    let error = try decodingError(Pairs.self, #"{"pair": [1]}"#, with: coder)
    #expect(
      fragment(error, #"{"pair": [1]}"#) == """
          document:
             1 | {"pair": [1]}
               |          ^
        """)
  }

  @Test(arguments: TestCoder.allCases)
  func theCaretPointsAtASyntaxError(coder: TestCoder) throws {
    let json = "{\n  \"id\": 1,\n  \"name\": tru\n}"
    let error = try decodingError(User.self, json, with: coder)
    #expect(
      fragment(error, json) == """
          document:
             1 | {
             2 |   "id": 1,
             3 |   "name": tru
               |           ^
             4 | }
        """)
  }

  @Test(arguments: TestCoder.allCases)
  func theCaretPointsAtTheEndOfATruncatedDocument(coder: TestCoder) throws {
    let json = "{\"id\": 1,\n"
    let error = try decodingError(User.self, json, with: coder)
    #expect(
      fragment(error, json) == """
          document:
             1 | {"id": 1,
             2 |
               | ^
        """)
  }

  @Test(arguments: TestCoder.allCases)
  func anEmptyDocument(coder: TestCoder) throws {
    let error = try decodingError(User.self, "", with: coder)
    #expect(
      fragment(error, "") == """
          document:
             1 |
               | ^
        """)
  }

  @Test func theCaretFindsTheBraceOfALargeObject() throws {
    // Objects of eight members or more are indexed; their brace is found another way.
    let json = """
      {"id": 1, "name": "A", "address": {
          "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "city": "P"}}
      """
    let error = try decodingError(User.self, json, with: .keyedJSON)
    #expect(
      fragment(error, json) == """
          document:
             1 | {"id": 1, "name": "A", "address": {
               |                                   ^
             2 |     "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "city": "P"}}
        """)
  }

  @Test func pathsOfSnakeCaseMembersAreFollowed() {
    let error = DecodingError.typeMismatch(
      Int.self,
      .init(codingPath: [TestKey("zipCode")], debugDescription: "Expected to decode Int."))
    #expect(
      fragment(error, #"{"zip_code": "x"}"#) == """
          document:
             1 | {"zip_code": "x"}
               |              ^
        """)
  }

  @Test func theFragmentSaysWhyItIsMissing() {
    let error = DecodingError.typeMismatch(
      Int.self,
      .init(codingPath: [TestKey("address"), TestKey("x")], debugDescription: "Wrong."))
    #expect(
      fragment(error, Self.userDocument)
        == #"  document: the path could not be followed (no member "x")"#)
    let tooFar = DecodingError.typeMismatch(
      Int.self,
      .init(codingPath: [TestKey("tags"), .index(5)], debugDescription: "Wrong."))
    #expect(
      fragment(tooFar, #"{"tags": [1, 2, 3]}"#)
        == "  document: the path could not be followed (no element [5]: the array has 3 elements)")
    let intoAString = DecodingError.typeMismatch(
      Int.self,
      .init(codingPath: [TestKey("name"), TestKey("first")], debugDescription: "Wrong."))
    #expect(
      fragment(intoAString, #"{"name": "Ann"}"#)
        == "  document: the path could not be followed (name is a string, not an object or an "
        + "array)")
    let intoTheRoot = DecodingError.typeMismatch(
      Int.self, .init(codingPath: [TestKey("a")], debugDescription: "Wrong."))
    #expect(
      fragment(intoTheRoot, "42")
        == "  document: the path could not be followed (the top level is a number, not an "
        + "object or an array)")
    let byName = DecodingError.typeMismatch(
      Int.self, .init(codingPath: [TestKey("first")], debugDescription: "Wrong."))
    #expect(
      fragment(byName, "[1]")
        == #"  document: the path could not be followed (the top level is an array, not an "#
        + #"object with member "first")"#)
    #expect(
      fragment(error, "{\"a\": ")
        == "  document: the document is not valid JSON: The document ends in the middle of a "
        + "value at line 1, column 7.")
  }

  @Test func aSyntaxErrorAndAValidDocument() throws {
    let keyed = try decodingError(User.self, #"{"id": x}"#, with: .keyedJSON)
    #expect(
      fragment(keyed, #"{"id": 1}"#)
        == "  document: the document is valid JSON: the error is about another one")
    #if os(Linux)
      // JSONDecoder reports a number that does not fit as invalid JSON.
      let foundation = try decodingError(Small.self, #"{"n": 300}"#, with: .foundation)
      #expect(
        fragment(foundation, #"{"n": 300}"#)
          == "  document: the document is valid JSON (JSONDecoder also reports a number that does "
          + "not fit its type, such as 1.5 for an Int, as invalid JSON)")
    #endif
  }

  @Test func documentsInOtherEncodingsAndWithAByteOrderMark() throws {
    let json = "{\"id\": 1,\n \"name\": 2}"
    var utf16 = Data([0xFF, 0xFE])
    for unit in json.utf16 {
      utf16.append(UInt8(unit & 0xFF))
      utf16.append(UInt8(unit >> 8))
    }
    let error = try decodingError(User.self, utf16, with: .keyedJSON)
    #expect(error.readableDescription == "Type mismatch at name: expected String, found a number")
    #expect(
      fragment(error, utf16) == """
          document:
             1 | {"id": 1,
             2 |  "name": 2}
               |          ^
        """)
    let bom = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"id": x}"#.utf8)
    let syntax = try decodingError(User.self, bom, with: .keyedJSON)
    #expect(
      fragment(syntax, bom) == """
          document:
             1 | {"id": x}
               |        ^
        """)
  }

  @Test func tabsAndControlCharactersTakeOneColumn() throws {
    // A raw control character in a string is a syntax error: the caret points at it.
    let json = "{\"id\":\t\"1\",\r\n\t\"name\": \"a\u{01}b\"}"
    let error = try decodingError(User.self, json, with: .keyedJSON)
    #expect(
      fragment(error, json) == """
          document:
             1 | {"id": "1",
             2 |  "name": "a\u{FFFD}b"}
               |            ^
        """)
  }

  @Test func longLinesAreClippedAroundTheCaret() throws {
    let pad = String(repeating: "abcdefghij", count: 30)
    let middle = #"{"pad": ""# + pad + #"", "id": "x", "more": ""# + pad + #""}"#
    let error = try decodingError(User.self, middle, with: .keyedJSON)
    let text = fragment(error, middle)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    let shown = try #require(lines.dropFirst().first)
    let caret = try #require(lines.last)
    #expect(shown.hasPrefix("     1 | …"))
    #expect(shown.hasSuffix("…"))
    #expect(shown.dropFirst("     1 | ".count).count == 100)
    #expect(shown.contains(#"", "id": "x", "more": ""#))
    // The caret sits under the quote of "x".
    let column = caret.count - 1
    let characters = Array(shown)
    #expect(characters[column] == "\"")
    #expect(characters[column + 1] == "x")

    // The start of a long line: no marker on the left.
    let start = #"{"id": "x", "pad": ""# + pad + #""}"#
    let first = try decodingError(User.self, start, with: .keyedJSON)
    #expect(
      fragment(first, start) == """
          document:
             1 | {"id": "x", "pad": "\(pad.prefix(79))…
               |        ^
        """)

    // The end of a long line: no marker on the right.
    let end = #"{"pad": ""# + pad + #"", "id": "x"}"#
    let last = try decodingError(User.self, end, with: .keyedJSON)
    #expect(
      fragment(last, end) == """
          document:
             1 | …\(pad.suffix(86))", "id": "x"}
               |\(String(repeating: " ", count: 97))^
        """)
  }

  @Test func contextLinesAreClippedLikeTheLineOfTheCaret() throws {
    let pad = String(repeating: "0123456789", count: 20)
    let json = "[\"\(pad)\",\n \"\(pad)\", 1, 2, true]"
    let error = DecodingError.typeMismatch(
      String.self,
      .init(codingPath: [.index(3)] as [TestKey], debugDescription: "Expected a string."))
    let lines = fragment(error, json).split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    // Both lines start at the same column, so the caret line lines up with both.
    #expect(lines[1].hasPrefix("     1 | …"))
    #expect(lines[2].hasPrefix("     2 | …"))
    #expect(lines[1].count <= "     1 | ".count + 100)
    #expect(lines[2].hasSuffix(#"", 1, 2, true]"#))
    let column = lines[3].count - 1
    #expect(Array(lines[2])[column] == "2")
  }

  @Test func lineNumbersAreRightAligned() throws {
    let json = "[\n" + String(repeating: "1,\n", count: 120) + "x]"
    let error = try decodingError([Int].self, json, with: .keyedJSON)
    #expect(
      fragment(error, json) == """
          document:
            120 | 1,
            121 | 1,
            122 | x]
                | ^
        """)
  }

  @Test func aHugeLineIsQuick() throws {
    let values = Array(repeating: "1", count: 200_000).joined(separator: ",")
    let json = #"{"tags": ["# + values + #", "a"], "id": "x"}"#
    let error = try decodingError(User.self, json, with: .keyedJSON)
    let text = error.detailedDescription(document: Data(json.utf8))
    let lines = text.split(separator: "\n")
    #expect(lines.count == 7)
    #expect(lines.allSatisfy { $0.count <= 120 })
    #expect(lines.suffix(2).first?.hasSuffix(#"1, "a"], "id": "x"}"#) == true)
  }

  /// No document and no path, however broken or unrelated, makes the detailed form trap.
  @Test func garbageDocumentsAndMismatchingPaths() {
    var generator = RoundTripPropertyTests.SplitMix64(seed: 42)
    let fragments: [[UInt8]] = [
      Array("{".utf8), Array("}".utf8), Array("[".utf8), Array("]".utf8), Array(",".utf8),
      Array(":".utf8), Array("\"a\"".utf8), Array("\"zipCode\"".utf8), Array("1".utf8),
      Array("null".utf8), Array("\n".utf8), Array("\t".utf8), Array("\r\n".utf8), [0xFF],
      [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98, 0x80], [0x00], [0xEF, 0xBB, 0xBF], [0xFE, 0xFF],
      Array(String(repeating: "x", count: 300).utf8),
    ]
    let paths: [[TestKey]] = [
      [], [TestKey("a")], [.index(0)], [.index(-1)], [.index(Int.max)], [TestKey("")],
      [TestKey("a"), .index(0), TestKey("zipCode")], [TestKey("Index 2")],
      Array(repeating: .index(0), count: 600),
    ]
    let context = { (path: [TestKey]) in
      DecodingError.Context(codingPath: path, debugDescription: "Garbage.")
    }
    for _ in 0..<400 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...40, using: &generator) {
        bytes += fragments[Int.random(in: 0..<fragments.count, using: &generator)]
      }
      let document = Data(bytes)
      let path = paths[Int.random(in: 0..<paths.count, using: &generator)]
      let errors: [DecodingError] = [
        .keyNotFound(TestKey("zipCode"), context(path)),
        .valueNotFound(Int.self, context(path)),
        .typeMismatch(Int.self, context(path)),
        .dataCorrupted(context(path)),
        .dataCorrupted(
          .init(
            codingPath: [], debugDescription: "The given data was not valid JSON.",
            underlyingError: JSONSyntaxError(.invalidNumber, offset: Int.max, line: 1, column: 1))),
      ]
      for error in errors {
        let text = error.detailedDescription(document: document)
        #expect(text.hasPrefix(error.readableDescription))
        #expect(text.split(separator: "\n").count <= 12)
      }
    }
  }

  /// The out-of-line tests the hot paths use instead of matching `DecodingError` themselves
  /// tell absences (a missing member, `null`) and decoding errors from everything else.
  @Test func errorTestsTellAbsencesAndDecodingErrorsApart() {
    let context = DecodingError.Context(codingPath: [], debugDescription: "")
    let missing = DecodingError.keyNotFound(PathKey("a"), context)
    let null = DecodingError.valueNotFound(Int.self, context)
    let mismatch = DecodingError.typeMismatch(Int.self, context)
    let corrupted = DecodingError.dataCorrupted(context)
    let encoding = EncodingError.invalidValue(1, .init(codingPath: [], debugDescription: ""))
    #expect(MappingErrors.isAbsence(missing))
    #expect(MappingErrors.isAbsence(null))
    #expect(!MappingErrors.isAbsence(mismatch))
    #expect(!MappingErrors.isAbsence(corrupted))
    #expect(!MappingErrors.isAbsence(encoding))
    #expect(MappingErrors.isDecodingError(mismatch))
    #expect(MappingErrors.isDecodingError(corrupted))
    #expect(!MappingErrors.isDecodingError(encoding))
    #expect(!MappingErrors.isDecodingError(CancellationError()))
    #expect(MappingErrors.isNoEmptyValue(MappingErrors.noEmptyValue(Int.self, codingPath: [])))
    #expect(!MappingErrors.isNoEmptyValue(corrupted))
  }
}
