import Foundation
import KeyedCodable
import Testing

/// The readable forms of errors thrown by Keyedable mappings: in nested models and arrays of
/// them, by transforms and validation rules, and by key selections, on both coders.
@Suite("Know: readable mapping errors", .bothCoders)
struct ReadableMappingErrorTests {
  // MARK: - Models

  /// Maps a key path through an object it does not model.
  struct User: Codable, Keyedable {
    var id = 0
    var zipCode = 0

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try zipCode <-> map["address.zipCode"]
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  struct Address: Codable, Keyedable {
    var city = ""
    var zipCode = 0

    init() {}

    mutating func map(map: KeyMap) throws {
      try city <-> map["city"]
      try zipCode <-> map["zipCode"]
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  struct Member: Codable, Keyedable {
    var id: Int!
    var name = ""
    var address = Address()
    var age = 0
    var homepage: URL?
    var nickname: String?

    init() {}

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"].required()
      try name <-> map["name"]
      try address <-> map["address"]
      try age <-> map["age"].validate(.range(0...150))
      try homepage <-> map["homepage"].using(.url)
      try nickname <-> map["profile.nickname"].required()
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  struct Directory: Codable, Keyedable {
    var members: [Member] = []

    init() {}

    mutating func map(map: KeyMap) throws {
      try members <-> map["members"]
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  /// A valid member document; `changes` replaces members, `nil` removes them.
  static func memberJSON(_ changes: [String: String?] = [:]) -> String {
    var members: [String: String] = [
      "id": "1", "name": #""Ann""#, "address": #"{"city": "Paris", "zipCode": 75001}"#,
      "age": "30", "homepage": #""https://ann.example""#, "profile": #"{"nickname": "an"}"#,
    ]
    for (key, value) in changes { members[key] = value }
    let body = members.keys.sorted().map { "\"\($0)\": \(members[$0]!)" }.joined(separator: ", ")
    return "{\(body)}"
  }

  /// A directory whose third member has `changes`.
  static func directoryJSON(third changes: [String: String?]) -> String {
    #"{"members": ["# + memberJSON() + ", " + memberJSON() + ", " + memberJSON(changes) + "]}"
  }

  /// The error decoding `json` as `T` throws with the current coder.
  func failure<T: Decodable>(
    _ type: T.Type, _ json: String, with context: MappingContext = MappingContext(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> DecodingError {
    do {
      let value = try decode(T.self, from: json, with: context)
      Issue.record("Expected an error, got \(value)", sourceLocation: sourceLocation)
    } catch let error as DecodingError {
      return error
    }
    throw ValueTransformError("no DecodingError")
  }

  // MARK: - The mapping names its model and type

  @Test func aMissingMemberOfAKeyPathNamesTheModelAndTheType() throws {
    let error = try failure(User.self, #"{"id": 1, "address": {"city": "Paris"}}"#)
    #expect(
      error.readableDescription == #"Key "zipCode" not found at address (User): expected Int"#)
    #expect(readableDescription(of: error) == error.readableDescription)
  }

  @Test func aMissingObjectOfAKeyPathNamesTheModel() throws {
    let error = try failure(User.self, #"{"id": 1}"#)
    #expect(
      error.readableDescription == #"Key "address" not found at the top level (User)"#
    )
  }

  @Test func aMissingKeyInANestedModelOfAnArrayNamesTheInnermostModel() throws {
    let error = try failure(
      Directory.self, Self.directoryJSON(third: ["address": #"{"city": "Paris"}"#]))
    #expect(
      error.readableDescription
        == #"Key "zipCode" not found at members[2].address (Address): expected Int"#)
  }

  @Test func aMissingNestedModelNamesItsType() throws {
    let error = try failure(Directory.self, Self.directoryJSON(third: ["address": nil]))
    #expect(
      error.readableDescription
        == #"Key "address" not found at members[2] (Member): expected Address"#)
  }

  @Test func aNullValueInAnArrayOfModels() throws {
    let error = try failure(Directory.self, Self.directoryJSON(third: ["name": "null"]))
    #expect(error.readableDescription == "Null value at members[2].name (Member): expected String")
  }

  @Test func aRequiredImplicitlyUnwrappedValueThatIsNull() throws {
    let error = try failure(Directory.self, Self.directoryJSON(third: ["id": "null"]))
    #expect(error.readableDescription == "Null value at members[2].id (Member): expected Int")
  }

  @Test func aRequiredOptionalBehindAMissingObject() throws {
    let error = try failure(Directory.self, Self.directoryJSON(third: ["profile": nil]))
    #expect(
      error.readableDescription
        == #"Key "profile" not found at members[2] (Member)"#)
  }

  @Test func aWrongTypeInAnArrayOfModels() throws {
    let error = try failure(Directory.self, Self.directoryJSON(third: ["age": #""old""#]))
    #expect(
      error.readableDescription
        == "Type mismatch at members[2].age (Member): expected Int, found a string")
  }

  @Test func aWrongTypeForANestedModelIsNamedByTheNestedModel() throws {
    // The nested model is the one that expected an object.
    let error = try failure(Directory.self, Self.directoryJSON(third: ["address": "[]"]))
    #expect(
      error.readableDescription
        == "Type mismatch at members[2].address (Address): expected [String: Any], found an array")
  }

  @Test func aTopLevelArrayOfModels() throws {
    let json = "[" + Self.memberJSON() + ", " + Self.memberJSON(["id": nil]) + "]"
    let error = try failure([Member].self, json)
    #expect(error.readableDescription == #"Key "id" not found at [1] (Member): expected Int"#)
  }

  /// Foundation's synthesized `Codable` inside a Keyedable model.
  struct Geo: Codable {
    let lat: Double
    let lng: Double
  }

  struct Venue: Codable, Keyedable {
    var geo: Geo?
    mutating func map(map: KeyMap) throws { try geo <-> map["location.geo"] }
    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  @Test func anErrorOfASynthesizedTypeIsNamedByTheMappingThatReadsIt() throws {
    let json =
      #"{"venues": [{"location": {"geo": {"lat": 1, "lng": 2}}}, {"location": {"geo": {"lat": 1}}}]}"#
    struct Venues: Codable, Keyedable {
      var venues: [Venue] = []
      mutating func map(map: KeyMap) throws { try venues <-> map["venues"] }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let error = try failure(Venues.self, json)
    // The type is the mapping's (`Geo`), not the missing member's (`Double`).
    #expect(
      error.readableDescription
        == #"Key "lng" not found at venues[1].location.geo (Venue)"#)
  }

  @Test func anErrorWithoutAnyKeyedableModelHasNoModel() throws {
    let error = try failure([Geo].self, #"[{"lat": 1, "lng": 2}, {"lat": "north", "lng": 2}]"#)
    #expect(
      error.readableDescription == "Type mismatch at [1].lat: expected Double, found a string")
  }

  // MARK: - Transforms and validation

  @Test func aTransformFailureInAnArrayOfModels() throws {
    let error = try failure(Directory.self, Self.directoryJSON(third: ["homepage": #""""#]))
    #expect(
      error.readableDescription == #"Invalid data at members[2].homepage: "" is not a valid URL."#)
  }

  @Test func aValidationFailureInAnArrayOfModels() throws {
    let error = try failure(Directory.self, Self.directoryJSON(third: ["age": "200"]))
    // The sentence should be the rule's alone (see theReadableFormsOfAValidationFailureAreExact).
    #expect(error.readableDescription.hasPrefix("Invalid data at members[2].age: "))
    #expect(error.readableDescription.hasSuffix(#"The value 200 breaks the rule "in 0...150"."#))
  }

  @Test
  func theReadableFormsOfAValidationFailureAreExact() throws {
    let error = try failure(Directory.self, Self.directoryJSON(third: ["age": "200"]))
    #expect(
      error.readableDescription
        == #"Invalid data at members[2].age: The value 200 breaks the rule "in 0...150"."#)
    #expect(
      readableDescription(of: LoadError.decoding(error))
        == #"Invalid data at members[2].age: The value 200 breaks the rule "in 0...150"."#)
    let json = Self.validationDocument
    let detailed = try failure(Directory.self, json)
    #expect(
      detailed.detailedDescription(document: Data(json.utf8)) == """
        Invalid data at members[1].age: The value 200 breaks the rule "in 0...150".
          coding path: members[1].age
          message:     The value 200 breaks the rule "in 0...150".
          underlying:  The value 200 breaks the rule "in 0...150".
          document:
             2 |   {"id": 1, "name": "A", "address": {"city": "P", "zipCode": 1}, "age": 3,
             3 |    "profile": {"nickname": "a"}},
             4 |   {"id": 2, "name": "B", "address": {"city": "Q", "zipCode": 2}, "age": 200,
               |                                                                         ^
             5 |    "profile": {"nickname": "b"}}
        """)
  }

  @Test func aValidationFailureWithAHugeValueStaysOnOneShortLine() throws {
    struct Note: Codable, Keyedable {
      var text = ""
      mutating func map(map: KeyMap) throws {
        try text <-> map["text"].validate(.count(0...10))
      }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let text = String(repeating: "línea\\n", count: 5_000)
    let error = try failure(Note.self, #"{"text": "\#(text)"}"#)
    let shown = String(String(repeating: #"línea\n"#, count: 9).prefix(58))
    #expect(error.readableDescription.hasPrefix("Invalid data at text: "))
    #expect(
      error.readableDescription.hasSuffix(
        #"The value "\#(shown)… breaks the rule "with 0...10 elements"."#))
    #expect(error.readableDescription.count < 300)
    #expect(!error.readableDescription.contains("\n"))
  }

  static let validationDocument = """
    {"members": [
      {"id": 1, "name": "A", "address": {"city": "P", "zipCode": 1}, "age": 3,
       "profile": {"nickname": "a"}},
      {"id": 2, "name": "B", "address": {"city": "Q", "zipCode": 2}, "age": 200,
       "profile": {"nickname": "b"}}
    ]}
    """

  @Test func theDetailedFormOfAValidationFailureShowsTheDocument() throws {
    let json = Self.validationDocument
    let error = try failure(Directory.self, json)
    let lines = error.detailedDescription(document: Data(json.utf8)).split(separator: "\n")
    // The first line and the message are checked in theReadableFormsOfAValidationFailureAreExact.
    #expect(
      lines.dropFirst().filter { !$0.hasPrefix("  message:") } == [
        "  coding path: members[1].age",
        #"  underlying:  The value 200 breaks the rule "in 0...150"."#,
        "  document:",
        #"     2 |   {"id": 1, "name": "A", "address": {"city": "P", "zipCode": 1}, "age": 3,"#,
        #"     3 |    "profile": {"nickname": "a"}},"#,
        #"     4 |   {"id": 2, "name": "B", "address": {"city": "Q", "zipCode": 2}, "age": 200,"#,
        "       |                                                                         ^",
        #"     5 |    "profile": {"nickname": "b"}}"#,
      ])
  }

  @Test func theDetailedFormOfAMappingErrorNamesKeyPathModelAndType() throws {
    let json = """
      {
        "id": 7,
        "address": { "city": "Paris" }
      }
      """
    let error = try failure(User.self, json)
    #expect(
      error.detailedDescription(document: Data(json.utf8)) == """
        Key "zipCode" not found at address (User): expected Int
          coding path: address
          key path:    address.zipCode
          model:       User
          expected:    Int
          message:     No value associated with key "zipCode" ("zipCode").
          document:
             1 | {
             2 |   "id": 7,
             3 |   "address": { "city": "Paris" }
               |              ^
             4 | }
        """)
  }

  @Test func theDetailedFormOfAMissingKeyInANestedModel() throws {
    let json = #"{"members": [{"id": 1}]}"#
    let error = try failure(Directory.self, json)
    let lines = error.detailedDescription(document: Data(json.utf8)).split(separator: "\n")
    #expect(
      lines.filter { !$0.hasPrefix("  message:") } == [
        #"Key "name" not found at members[0] (Member): expected String"#,
        "  coding path: members[0]",
        "  key path:    name",
        "  model:       Member",
        "  expected:    String",
        "  document:",
        #"     1 | {"members": [{"id": 1}]}"#,
        "       |              ^",
      ])
  }

  // MARK: - Selections

  @Test func aSelectionOfAnUnmappedKeyNamesTheKeyAndTheModel() throws {
    let error = try failure(
      Directory.self, Self.directoryJSON(third: [:]),
      with: .selecting(["nmae"], in: Member.self))
    // The error passes through Directory's mapping of `members`, which names itself.
    #expect(
      error.readableDescription
        == #"Invalid data at members[0] (Member): The key selection names "nmae", which "#
        + "Member does not map. Select key paths as the model's map(map:) writes them.")
  }

  @Test func anEncodingSelectionOfAnUnmappedKey() throws {
    var member = Member()
    member.id = 1
    member.nickname = "n"
    #expect {
      try encodeJSON(member, with: .selecting(["bogus"], in: Member.self))
    } throws: { error in
      readableDescription(of: error)
        == #"Cannot encode bogus at the top level (Member): The key selection names "bogus", which "#
        + "Member does not map. Select key paths as the model's map(map:) writes them."
    }
  }

  // MARK: - Encoding

  struct Point: Codable, Keyedable {
    var x = 0.0
    mutating func map(map: KeyMap) throws { try x <-> map["coords.x"] }
    init(x: Double) { self.x = x }
    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  struct Shape: Codable, Keyedable {
    var points: [Point] = []
    mutating func map(map: KeyMap) throws { try points <-> map["outline.points"] }
    init(points: [Point]) { self.points = points }
    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  /// Encoding errors name the innermost model whose mapping threw, as decoding errors do.
  /// (Fixed: they named no model.)
  @Test func anEncodingErrorInANestedModelHasItsFullPathAndItsModel() {
    let shape = Shape(points: [Point(x: 1), Point(x: .nan)])
    #expect {
      try encodeJSON(shape)
    } throws: { error in
      readableDescription(of: error)
        == "Cannot encode nan at outline.points[1].coords.x (Point): Unable to encode Double.nan "
        + "directly in JSON."
    }
  }

  struct Place: Codable, Keyedable {
    var latitude = 0.0
    var longitude = 0.0
    mutating func map(map: KeyMap) throws {
      try latitude <-> map["location.latitude"]
      try longitude <-> map["location.longitude"]
    }
    init(latitude: Double) { self.latitude = latitude }
    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  /// The example of the Reading Errors article, from the first encode of the type on (the
  /// mapping's fast path) and in the detailed form.
  @Test func aNonFiniteNumberNamesTheModelAndTheKeyPath() throws {
    for _ in 0..<2 {
      do {
        _ = try encodeJSON(Place(latitude: .nan))
        Issue.record("encoded a NaN")
      } catch let error as EncodingError {
        #expect(
          error.readableDescription
            == "Cannot encode nan at location.latitude (Place): Unable to encode Double.nan "
            + "directly in JSON.")
        #expect(
          error.detailedDescription() == """
            Cannot encode nan at location.latitude (Place): Unable to encode Double.nan directly in JSON.
              coding path: location.latitude
              key path:    location.latitude
              model:       Place
              value:       nan (Double)
              message:     Unable to encode Double.nan directly in JSON.
            """)
        #expect(
          shape(of: error) == ErrorShape(kind: "invalidValue", path: ["location", "latitude"]))
      }
    }
  }

  @Test func aRequiredNilInAnArrayOfModels() {
    var directory = Directory()
    var first = Member()
    first.id = 1
    first.nickname = "a"
    var second = Member()
    second.nickname = "b"
    directory.members = [first, second]
    #expect {
      try encodeJSON(directory)
    } throws: { error in
      readableDescription(of: error)
        == #"Cannot encode nil at members[1].id (Member): Required key path "id" has no value to encode (it is nil)."#
    }
  }

  // MARK: - Wrapped errors

  enum LoadError: Error {
    case decoding(any Error)
  }

  @Test func aMappingErrorWrappedInAnotherErrorIsFound() throws {
    let error = try failure(Directory.self, Self.directoryJSON(third: ["name": "7"]))
    #expect(
      readableDescription(of: LoadError.decoding(error))
        == "Type mismatch at members[2].name (Member): expected String, found a number")
    let nsError = NSError(domain: "app", code: 1, userInfo: [NSUnderlyingErrorKey: error])
    #expect(readableDescription(of: nsError) == error.readableDescription)
  }
}
