import Foundation
import KeyedCodable
import Testing

/// Validation rules per mapping: a value that breaks one throws `DecodingError.dataCorrupted` at
/// its full coding path, naming the rule and showing the value; with `validateEach` and the
/// lossy marker, invalid elements are dropped and reported instead.
@Suite("Know: validation", .bothCoders)
struct ValidationTests {
  // MARK: - Models

  struct Person: Codable, Keyedable {
    var age = 0
    var name = ""
    var code = ""
    var tags: [String] = []
    var email = ""
    var height = 0.0
    var initial = ""

    init() {}

    mutating func map(map: KeyMap) throws {
      try age <-> map["age"].validate(.range(0...150))
      try name <-> map["name"].validate(.nonEmpty)
      try code <-> map["code"].validate(.pattern("^[A-Z]{3}$"))
      try tags <-> map["tags"].validate(.count(1...3))
      try email <-> map["email"].validate("contains @") { $0.contains("@") }
      try height <-> map["body.height"].validate(.atLeast(0.5)).validate(.atMost(2.5))
      try initial <-> map["initial"].validate(.range("A"..."M"))
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  /// A valid person document; `changes` replaces members.
  static func personJSON(_ changes: [String: String] = [:]) -> String {
    var members: [String: String] = [
      "age": "30", "name": #""Ann""#, "code": #""ABC""#, "tags": #"["a"]"#,
      "email": #""ann@example.com""#, "body": #"{"height": 1.7}"#, "initial": #""C""#,
    ]
    for (key, value) in changes { members[key] = value }
    let body = members.keys.sorted().map { "\"\($0)\": \(members[$0]!)" }.joined(separator: ", ")
    return "{\(body)}"
  }

  /// Expects decoding `json` as `T` to throw `dataCorrupted` at `path` whose message ends with
  /// `expectedMessage`, and a `ValidationError` naming `rule`, described by `expectedMessage`, as
  /// the underlying error.
  ///
  /// The message should be `expectedMessage` alone; today a prefix comes before it (see
  /// ``theMessageIsTheRuleSentenceAlone()``).
  func expectRejected<T: Decodable>(
    _ type: T.Type, _ json: String, at path: [String], rule: String,
    message expectedMessage: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let value = try decode(T.self, from: json)
      Issue.record("Expected an error, got \(value)", sourceLocation: sourceLocation)
    } catch {
      #expect(
        shape(of: error) == ErrorShape(kind: "dataCorrupted", path: path),
        "\(error) with \(TestCoder.current)", sourceLocation: sourceLocation)
      #expect(
        message(of: error).hasSuffix(expectedMessage), "\(message(of: error))",
        sourceLocation: sourceLocation)
      guard case DecodingError.dataCorrupted(let context) = error else { return }
      let underlying = context.underlyingError as? ValidationError
      #expect(underlying?.rule == rule, sourceLocation: sourceLocation)
      #expect(underlying?.description == expectedMessage, sourceLocation: sourceLocation)
    }
  }

  // MARK: - Valid values pass

  @Test func valuesThatMeetEveryRuleDecode() throws {
    let person = try decode(Person.self, from: Self.personJSON())
    #expect(person.age == 30)
    #expect(person.code == "ABC")
    #expect(person.height == 1.7)
  }

  @Test func rangeBoundsAreInclusive() throws {
    #expect(try decode(Person.self, from: Self.personJSON(["age": "0"])).age == 0)
    #expect(try decode(Person.self, from: Self.personJSON(["age": "150"])).age == 150)
    let lowest = try decode(Person.self, from: Self.personJSON(["body": #"{"height": 0.5}"#]))
    #expect(lowest.height == 0.5)
    let highest = try decode(Person.self, from: Self.personJSON(["body": #"{"height": 2.5}"#]))
    #expect(highest.height == 2.5)
  }

  // MARK: - Each built-in rule

  @Test func rangeRejectsAndNamesTheRange() {
    expectRejected(
      Person.self, Self.personJSON(["age": "151"]), at: ["age"], rule: "in 0...150",
      message: #"The value 151 breaks the rule "in 0...150"."#)
    expectRejected(
      Person.self, Self.personJSON(["age": "-1"]), at: ["age"], rule: "in 0...150",
      message: #"The value -1 breaks the rule "in 0...150"."#)
  }

  @Test func rangeOfStrings() {
    expectRejected(
      Person.self, Self.personJSON(["initial": #""Z""#]), at: ["initial"], rule: "in A...M",
      message: #"The value "Z" breaks the rule "in A...M"."#)
  }

  @Test func atLeastAndAtMostOnANestedKeyPath() {
    expectRejected(
      Person.self, Self.personJSON(["body": #"{"height": 0.25}"#]), at: ["body", "height"],
      rule: "at least 0.5", message: #"The value 0.25 breaks the rule "at least 0.5"."#)
    expectRejected(
      Person.self, Self.personJSON(["body": #"{"height": 3}"#]), at: ["body", "height"],
      rule: "at most 2.5", message: #"The value 3.0 breaks the rule "at most 2.5"."#)
  }

  @Test func nonEmptyRejectsTheEmptyStringButNotWhitespace() throws {
    expectRejected(
      Person.self, Self.personJSON(["name": #""""#]), at: ["name"], rule: "not empty",
      message: #"The value "" breaks the rule "not empty"."#)
    #expect(try decode(Person.self, from: Self.personJSON(["name": #"" ""#])).name == " ")
  }

  @Test func nonEmptyOnAnArray() {
    struct Basket: Codable, Keyedable {
      var items: [Int] = []
      mutating func map(map: KeyMap) throws { try items <-> map["items"].validate(.nonEmpty) }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    expectRejected(
      Basket.self, #"{"items": []}"#, at: ["items"], rule: "not empty",
      message: #"The value [] breaks the rule "not empty"."#)
  }

  @Test func countCountsArrayElements() {
    expectRejected(
      Person.self, Self.personJSON(["tags": "[]"]), at: ["tags"], rule: "with 1...3 elements",
      message: #"The value [] breaks the rule "with 1...3 elements"."#)
    expectRejected(
      Person.self, Self.personJSON(["tags": #"["a", "b", "c", "d"]"#]), at: ["tags"],
      rule: "with 1...3 elements",
      message: #"The value ["a", "b", "c", "d"] breaks the rule "with 1...3 elements"."#)
  }

  @Test func countCountsCharactersOfAStringNotScalars() throws {
    struct Handle: Codable, Keyedable {
      var handle = ""
      mutating func map(map: KeyMap) throws { try handle <-> map["handle"].validate(.count(1...3)) }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    // A family emoji is 5 scalars, and "é" written decomposed is 2: three characters in all.
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
    let decoded = try decode(Handle.self, from: "{\"handle\": \"\(family)e\u{301}x\"}")
    #expect(decoded.handle == family + "e\u{301}x")
    expectRejected(
      Handle.self, #"{"handle": "abcd"}"#, at: ["handle"], rule: "with 1...3 elements",
      message: #"The value "abcd" breaks the rule "with 1...3 elements"."#)
  }

  @Test(arguments: ["ABC", "XYZ"])
  func patternAcceptsAWholeMatch(code: String) throws {
    #expect(try decode(Person.self, from: Self.personJSON(["code": "\"\(code)\""])).code == code)
  }

  @Test(arguments: ["ABCD", "xABC", "AB", "", "abc", "AB\nC", "ABC\n"])
  func patternRejectsAPartialMatch(code: String) {
    let escaped = code.replacingOccurrences(of: "\n", with: "\\n")
    let shown = code.replacingOccurrences(of: "\n", with: "\\n")
    expectRejected(
      Person.self, Self.personJSON(["code": "\"\(escaped)\""]), at: ["code"],
      rule: #"matching "^[A-Z]{3}$""#,
      message: #"The value "\#(shown)" breaks the rule "matching "^[A-Z]{3}$""."#)
  }

  @Test func patternMatchesUnicodeLetters() throws {
    struct City: Codable, Keyedable {
      var name = ""
      mutating func map(map: KeyMap) throws {
        try name <-> map["name"].validate(.pattern(#"^\p{L}+( \p{L}+)*$"#))
      }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    #expect(try decode(City.self, from: #"{"name": "São Paulo"}"#).name == "São Paulo")
    #expect(try decode(City.self, from: #"{"name": "東京"}"#).name == "東京")
    expectError("dataCorrupted", at: ["name"]) {
      try decode(City.self, from: #"{"name": "Tokyo 2"}"#)
    }
  }

  @Test func anInvalidPatternRejectsEveryValueAndSaysSo() {
    struct Broken: Codable, Keyedable {
      var code = ""
      mutating func map(map: KeyMap) throws { try code <-> map["code"].validate(.pattern("[")) }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    expectRejected(
      Broken.self, #"{"code": "["}"#, at: ["code"], rule: #"matching "[" (an invalid pattern)"#,
      message: #"The value "[" breaks the rule "matching "[" (an invalid pattern)"."#)
  }

  // MARK: - Closures

  @Test func aClosureRuleIsNamedInTheMessage() {
    expectRejected(
      Person.self, Self.personJSON(["email": #""ann""#]), at: ["email"], rule: "contains @",
      message: #"The value "ann" breaks the rule "contains @"."#)
  }

  @Test func anUnnamedClosureRuleIsACustomRule() {
    struct Even: Codable, Keyedable {
      var n = 0
      mutating func map(map: KeyMap) throws { try n <-> map["n"].validate { $0 % 2 == 0 } }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    expectRejected(
      Even.self, #"{"n": 3}"#, at: ["n"], rule: "custom rule",
      message: #"The value 3 breaks the rule "custom rule"."#)
  }

  @Test func aRuleValueCanBeBuiltAndCheckedDirectly() {
    let rule = ValidationRule<Int>("even") { $0 % 2 == 0 }
    #expect(rule.name == "even")
    #expect(rule.isSatisfied(by: 4))
    #expect(!rule.isSatisfied(by: 5))
    #expect(ValidationRule<Int>.range(1...2).name == "in 1...2")
    #expect(ValidationRule<Int>.atLeast(1).name == "at least 1")
    #expect(ValidationRule<Double>.atMost(2.5).name == "at most 2.5")
    #expect(ValidationRule<[Int]>.nonEmpty.name == "not empty")
    #expect(ValidationRule<String>.count(0...4).name == "with 0...4 elements")
    #expect(ValidationRule<String>.pattern("a+").name == #"matching "a+""#)
    #expect(ValidationRule<String>.pattern("a+").isSatisfied(by: "aaa"))
    #expect(!ValidationRule<String>.pattern("a+").isSatisfied(by: "aab"))
  }

  // MARK: - Paths

  struct Roster: Codable, Keyedable {
    var people: [Person] = []
    mutating func map(map: KeyMap) throws { try people <-> map["club.people"] }
    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  @Test func theErrorCarriesTheFullPathThroughNestedModelsAndArrays() {
    let json =
      #"{"club": {"people": ["# + Self.personJSON() + ", " + Self.personJSON() + ", "
      + Self.personJSON(["body": #"{"height": 9}"#]) + "]}}"
    expectRejected(
      Roster.self, json, at: ["club", "people", "Index 2", "body", "height"], rule: "at most 2.5",
      message: #"The value 9.0 breaks the rule "at most 2.5"."#)
  }

  @Test func theErrorCarriesTheFullPathInATopLevelArray() {
    let json = "[" + Self.personJSON() + ", " + Self.personJSON(["age": "999"]) + "]"
    expectRejected(
      [Person].self, json, at: ["Index 1", "age"], rule: "in 0...150",
      message: #"The value 999 breaks the rule "in 0...150"."#)
  }

  // MARK: - Long and unusual values

  @Test func aLongValueIsShortenedInTheMessage() {
    let long = String(repeating: "x", count: 10_000)
    expectRejected(
      Person.self, Self.personJSON(["email": "\"\(long)\""]), at: ["email"], rule: "contains @",
      message: "The value \"\(String(repeating: "x", count: 58))… breaks the rule \"contains @\".")
  }

  @Test func shorteningNeverSplitsACharacter() {
    // A flag is two scalars and one character.
    let flag = "\u{1F1EB}\u{1F1F7}"
    let long = String(repeating: flag, count: 100)
    expectRejected(
      Person.self, Self.personJSON(["email": "\"\(long)\""]), at: ["email"], rule: "contains @",
      message: "The value \"\(String(repeating: flag, count: 58))… breaks the rule \"contains @\".")
  }

  @Test
  func aShortenedValueNeverEndsInsideAnEscape() throws {
    // 57 letters, then a tab (escaped as two characters) at the place of the cut.
    let text = String(repeating: "x", count: 57) + "\t" + String(repeating: "y", count: 100)
    let json = Self.personJSON(["email": "\"\(text.replacingOccurrences(of: "\t", with: "\\t"))\""])
    do {
      _ = try decode(Person.self, from: json)
      Issue.record("Expected an error")
    } catch DecodingError.dataCorrupted(let context) {
      let shown = try #require((context.underlyingError as? ValidationError)?.value)
      #expect(shown.hasPrefix("\"" + String(repeating: "x", count: 57)))
      #expect(shown.count <= 60)
      #expect(!shown.contains(#/\\(u[0-9A-F]{0,3})?…$/#), "\(shown)")
    }
    // A zero-width joiner inside an emoji is escaped as six characters.
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
    let emoji = String(repeating: family, count: 30)
    do {
      _ = try decode(Person.self, from: Self.personJSON(["email": "\"\(emoji)\""]))
      Issue.record("Expected an error")
    } catch DecodingError.dataCorrupted(let context) {
      let shown = try #require((context.underlyingError as? ValidationError)?.value)
      #expect(!shown.contains(#/\\(u[0-9A-F]{0,3})?…$/#), "\(shown)")
    }
  }

  @Test func aValueWithLineBreaksAndQuotesIsEscaped() {
    expectRejected(
      Person.self, Self.personJSON(["email": #""a\"b\nc""#]), at: ["email"], rule: "contains @",
      message: #"The value "a\"b\nc" breaks the rule "contains @"."#)
  }

  @Test func aLongArrayIsShortenedInTheMessage() {
    let tags = (0..<50).map { "\"t\($0)\"" }.joined(separator: ", ")
    let shown =
      String(("[" + (0..<50).map { "\"t\($0)\"" }.joined(separator: ", ")).prefix(59)) + "…"
    expectRejected(
      Person.self, Self.personJSON(["tags": "[\(tags)]"]), at: ["tags"],
      rule: "with 1...3 elements",
      message: "The value \(shown) breaks the rule \"with 1...3 elements\".")
  }

  // MARK: - Optionals

  struct Optionals: Codable, Keyedable {
    var age: Int?
    var name: String?
    var required: Int?

    init() {}

    mutating func map(map: KeyMap) throws {
      try age <-> map["age"].validate(.range(0...150))
      try name <-> map["name"].trimmed().validate(.nonEmpty)
      try required <-> map["required"].validate(.atLeast(1)).required()
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  @Test func aMissingOrNullOptionalPassesEveryRule() throws {
    let missing = try decode(Optionals.self, from: #"{"required": 1}"#)
    #expect(missing.age == nil)
    #expect(missing.name == nil)
    let null = try decode(Optionals.self, from: #"{"age": null, "name": null, "required": 1}"#)
    #expect(null.age == nil)
    #expect(null.name == nil)
  }

  @Test func aPresentOptionalIsValidated() {
    expectRejected(
      Optionals.self, #"{"age": 200, "required": 1}"#, at: ["age"], rule: "in 0...150",
      message: #"The value 200 breaks the rule "in 0...150"."#)
    expectRejected(
      Optionals.self, #"{"name": "  ", "required": 1}"#, at: ["name"], rule: "not empty",
      message: #"The value "" breaks the rule "not empty"."#)
  }

  @Test func aRequiredValidatedOptionalStillRequiresItsKey() {
    expectError("keyNotFound(required)", at: []) {
      try decode(Optionals.self, from: "{}")
    }
    expectError("valueNotFound", at: ["required"]) {
      try decode(Optionals.self, from: #"{"required": null}"#)
    }
    expectRejected(
      Optionals.self, #"{"required": 0}"#, at: ["required"], rule: "at least 1",
      message: #"The value 0 breaks the rule "at least 1"."#)
  }

  @Test func theIfPresentOperatorValidatesOnlyWhatIsThere() throws {
    struct Settings: Codable, Keyedable {
      var retries = 3
      mutating func map(map: KeyMap) throws { try retries <?> map["retries"].validate(.atMost(5)) }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    #expect(try decode(Settings.self, from: "{}").retries == 3)
    expectRejected(
      Settings.self, #"{"retries": 9}"#, at: ["retries"], rule: "at most 5",
      message: #"The value 9 breaks the rule "at most 5"."#)
  }

  @Test func aDefaultReplacesAValueThatBreaksTheRuleWhenAsked() throws {
    struct Defaulted: Codable, Keyedable {
      var age = 0
      mutating func map(map: KeyMap) throws {
        try age <-> map["age"].validate(.range(0...150)).default(18, when: .invalid)
      }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let (value, report) = try decodeWithReport(Defaulted.self, from: #"{"age": 400}"#)
    #expect(value.age == 18)
    let entry = try #require(report.entries.first)
    #expect(report.entries.count == 1)
    #expect(entry.event == .defaulted(value: "18"))
    #expect(entry.description.hasPrefix("Replaced an invalid value with the default 18 at age: "))
    #expect(entry.description.hasSuffix(#"The value 400 breaks the rule "in 0...150"."#))
  }

  // MARK: - Each element, lossy

  struct Scores: Codable, Keyedable {
    var scores: [Int] = []
    var strict: [Int]?
    var names: [String] = []

    init() {}

    mutating func map(map: KeyMap) throws {
      try scores <-> map["* scores"].validateEach(.range(0...100))
      try strict <-> map["strict"].validateEach(.atLeast(0))
      try names <-> map["* names"].validateEach(.pattern("^[a-z]+$"))
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  @Test func validateEachWithTheLossyMarkerDropsAndReportsInvalidElements() throws {
    let (value, report) = try decodeWithReport(
      Scores.self, from: #"{"scores": [50, 200, -1, "x", 70, null], "names": ["ok", "No", "a b"]}"#)
    #expect(value.scores == [50, 70])
    #expect(value.names == ["ok"])
    #expect(
      report.entries.map(\.pathDescription) == [
        "scores[1]", "scores[2]", "scores[3]", "scores[5]", "names[1]", "names[2]",
      ])
    let rules = [
      #"The value 200 breaks the rule "in 0...100"."#,
      #"The value -1 breaks the rule "in 0...100"."#,
      "Expected to decode Int but found a string instead.",
      "Cannot get value of type Int -- found null value instead",
      #"The value "No" breaks the rule "matching "^[a-z]+$""."#,
      #"The value "a b" breaks the rule "matching "^[a-z]+$""."#,
    ]
    for (entry, rule) in zip(report.entries, rules) {
      #expect(entry.description.hasPrefix("Dropped array element at \(entry.pathDescription): "))
      #expect(entry.description.hasSuffix(rule), "\(entry.description)")
    }
    #expect(report.entries.allSatisfy { $0.event == .droppedElement })
    #expect(
      report.entries.map(\.keyPath) == Array(repeating: "* scores", count: 4) + [
        "* names", "* names",
      ])
    let first = try #require(report.entries.first)
    #expect(
      shape(of: first.error) == ErrorShape(kind: "dataCorrupted", path: ["scores", "Index 1"]))
  }

  @Test func validateEachWhenEveryElementIsInvalidGivesAnEmptyArray() throws {
    let (value, report) = try decodeWithReport(
      Scores.self, from: #"{"scores": [101, 102, 103], "names": []}"#)
    #expect(value.scores == [])
    #expect(report.entries.map(\.pathDescription) == ["scores[0]", "scores[1]", "scores[2]"])
  }

  @Test func validateEachOfAnEmptyArrayReportsNothing() throws {
    let (value, report) = try decodeWithReport(Scores.self, from: #"{"scores": [], "names": []}"#)
    #expect(value.scores == [])
    #expect(report.isEmpty)
  }

  @Test func validateEachWithoutTheLossyMarkerThrowsAtTheFirstInvalidElement() {
    expectRejected(
      Scores.self, #"{"scores": [], "strict": [1, -2, -3], "names": []}"#,
      at: ["strict", "Index 1"],
      rule: "at least 0", message: #"The value -2 breaks the rule "at least 0"."#)
  }

  @Test func validateEachOnAMissingOptionalArrayIsNil() throws {
    let value = try decode(Scores.self, from: #"{"scores": [], "names": []}"#)
    #expect(value.strict == nil)
  }

  // MARK: - The exact message

  @Test
  func theMessageIsTheRuleSentenceAlone() throws {
    let cases: [(String, [String], String)] = [
      (Self.personJSON(["age": "200"]), ["age"], #"The value 200 breaks the rule "in 0...150"."#),
      (
        Self.personJSON(["body": #"{"height": 3}"#]), ["body", "height"],
        #"The value 3.0 breaks the rule "at most 2.5"."#
      ),
      (Self.personJSON(["name": #""""#]), ["name"], #"The value "" breaks the rule "not empty"."#),
      (
        Self.personJSON(["email": #""ann""#]), ["email"],
        #"The value "ann" breaks the rule "contains @"."#
      ),
    ]
    for (json, path, sentence) in cases {
      do {
        _ = try decode(Person.self, from: json)
        Issue.record("Expected an error")
      } catch {
        #expect(shape(of: error) == ErrorShape(kind: "dataCorrupted", path: path))
        #expect(message(of: error) == sentence)
      }
    }
    // Also through `validateEach`, as the report shows it.
    let (_, report) = try decodeWithReport(Scores.self, from: #"{"scores": [7, 200], "names": []}"#)
    #expect(
      report.entries.map(\.description) == [
        #"Dropped array element at scores[1]: The value 200 breaks the rule "in 0...100"."#
      ])
  }

  // MARK: - Encoding

  @Test func encodingWritesInvalidValuesUnchecked() throws {
    var person = Person()
    person.age = 999
    person.name = ""
    person.code = "lower"
    person.tags = []
    person.email = "nope"
    person.height = -1
    person.initial = "Z"
    try expectEncoded(
      person,
      #"""
      {"age": 999, "name": "", "code": "lower", "tags": [], "email": "nope",
       "body": {"height": -1}, "initial": "Z"}
      """#)
  }
}
