import Foundation
import KeyedCodable
import Testing

/// Modifiers change a decoded value before it is stored, in the same mapping line, compose in
/// the order they are written, and leave encoding alone: the property is written as it is.
@Suite("Know: modifiers", .bothCoders)
struct ModifierTests {
  // MARK: - Models

  struct Profile: Codable, Keyedable {
    var name = ""
    var nickname: String?
    var volume = 0
    var age = 0
    var rating = 0.0
    var scores: [Int] = []
    var ranks: [Int] = []
    var email = ""

    init() {}

    mutating func map(map: KeyMap) throws {
      try name <-> map["name"].trimmed()
      try nickname <-> map["nickname"].trimmedNilIfEmpty()
      try volume <-> map["volume"].clamped(to: 0...10)
      try age <-> map["age"].minimum(0)
      try rating <-> map["rating"].maximum(5.0)
      try scores <-> map["scores"].sorted()
      try ranks <-> map["ranks"].sorted(.descending)
      try email <-> map["email"].modified { $0.lowercased() }
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  /// A complete profile document; `changes` replaces members.
  static func profileJSON(_ changes: [String: String] = [:]) -> String {
    var members: [String: String] = [
      "name": #""Ann""#, "volume": "5", "age": "30", "rating": "4.5", "scores": "[]",
      "ranks": "[]", "email": #""ann@example.com""#,
    ]
    for (key, value) in changes { members[key] = value }
    let body = members.keys.sorted().map { "\"\($0)\": \(members[$0]!)" }.joined(separator: ", ")
    return "{\(body)}"
  }

  struct Player: Codable, Equatable, Sendable {
    let name: String
    let score: Int
  }

  struct Leaderboard: Codable, Keyedable {
    var byScore: [Player] = []
    var byScoreDescending: [Player] = []
    var byNameLength: [Player] = []

    init() {}

    mutating func map(map: KeyMap) throws {
      try byScore <-> map["players"].sorted(by: \Player.score)
      try byScoreDescending <-> map["players"].sorted(by: \Player.score, .descending)
      try byNameLength
        <-> map["players"].sorted { (a: Player, b: Player) in
          a.name.count < b.name.count
        }
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  /// Modifiers on optional storage.
  struct Optionals: Codable, Keyedable {
    var volume: Int?
    var name: String?
    var scores: [Int]?

    init() {}

    mutating func map(map: KeyMap) throws {
      try volume <-> map["volume"].clamped(to: 0...10)
      try name <-> map["name"].trimmed()
      try scores <-> map["scores"].sorted()
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  /// Modifiers written one after the other, and after a transform.
  struct Chains: Codable, Keyedable {
    var code = ""
    var shout = ""
    var topThree: [Int] = []
    var homepage: URL?
    var percent = 0
    var words: [String] = []

    init() {}

    mutating func map(map: KeyMap) throws {
      try code <-> map["code"].trimmed().validate(.nonEmpty)
      try shout <-> map["shout"].trimmed().modified { $0.uppercased() }
      try topThree <-> map["scores"].sorted(.descending).modified { Array($0.prefix(3)) }
      try homepage <-> map["homepage"].using(.url).modified { $0.appendingPathComponent("v2") }
      try percent <-> map["percent"].modified { $0 * 100 }.clamped(to: 0...100)
      try words <-> map["words"].modified { $0.map { $0.lowercased() } }.sorted()
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  static let chainsJSON = #"""
    {"code": "  AB ", "shout": " hi ", "scores": [4, 9, 1, 7, 3],
     "homepage": "https://example.com/api", "percent": 3, "words": ["b", "C", "a"]}
    """#

  // MARK: - Trimming

  @Test func trimmedRemovesLeadingAndTrailingWhitespaceAndLineBreaksOnly() throws {
    let profile = try decode(
      Profile.self, from: Self.profileJSON(["name": #"" \t\n Ann  Lee \r\n""#]))
    #expect(profile.name == "Ann  Lee")
  }

  @Test func trimmedRemovesUnicodeSpacesAsFoundationDefinesThem() throws {
    // Foundation's whitespace set holds U+00A0 (no-break space), U+3000 (ideographic space) and
    // U+200B (zero-width space); spaces inside the string stay.
    let profile = try decode(
      Profile.self, from: Self.profileJSON(["name": #""\u00A0\u3000\u200BZoë 日本 👋\u3000""#]))
    #expect(profile.name == "Zoë 日本 👋")
  }

  @Test func trimmedOfOnlyWhitespaceIsTheEmptyString() throws {
    let profile = try decode(Profile.self, from: Self.profileJSON(["name": #""   \n ""#]))
    #expect(profile.name == "")
  }

  @Test(arguments: [
    (#""  Nick ""#, "Nick" as String?),
    (#""   ""#, nil),
    (#""""#, nil),
    (#""\n\t""#, nil),
    ("null", nil),
  ])
  func trimmedNilIfEmptyGivesNilWhenNothingIsLeft(json: String, expected: String?) throws {
    let profile = try decode(Profile.self, from: Self.profileJSON(["nickname": json]))
    #expect(profile.nickname == expected)
  }

  @Test func trimmedNilIfEmptyOfAMissingKeyIsNil() throws {
    let profile = try decode(Profile.self, from: Self.profileJSON())
    #expect(profile.nickname == nil)
  }

  @Test func trimmedStillRequiresAString() {
    expectError("typeMismatch", at: ["name"]) {
      try decode(Profile.self, from: Self.profileJSON(["name": "5"]))
    }
  }

  // MARK: - Clamping

  @Test(arguments: [(-5, 0), (0, 0), (7, 7), (10, 10), (11, 10), (Int.max, 10), (Int.min, 0)])
  func clampedMovesTheValueIntoTheRange(value: Int, expected: Int) throws {
    let profile = try decode(Profile.self, from: Self.profileJSON(["volume": "\(value)"]))
    #expect(profile.volume == expected)
  }

  @Test func minimumRaisesOnlyValuesBelowIt() throws {
    #expect(try decode(Profile.self, from: Self.profileJSON(["age": "-3"])).age == 0)
    #expect(try decode(Profile.self, from: Self.profileJSON(["age": "0"])).age == 0)
    #expect(try decode(Profile.self, from: Self.profileJSON(["age": "200"])).age == 200)
  }

  @Test func maximumLowersOnlyValuesAboveIt() throws {
    #expect(try decode(Profile.self, from: Self.profileJSON(["rating": "9.75"])).rating == 5.0)
    #expect(try decode(Profile.self, from: Self.profileJSON(["rating": "5"])).rating == 5.0)
    #expect(try decode(Profile.self, from: Self.profileJSON(["rating": "-1.5"])).rating == -1.5)
  }

  @Test func clampingDoesNotTurnAMissingOptionalIntoABound() throws {
    let missing = try decode(Optionals.self, from: "{}")
    #expect(missing.volume == nil)
    #expect(missing.name == nil)
    #expect(missing.scores == nil)
    let null = try decode(Optionals.self, from: #"{"volume": null, "name": null, "scores": null}"#)
    #expect(null.volume == nil)
    #expect(null.name == nil)
    #expect(null.scores == nil)
    let present = try decode(
      Optionals.self, from: #"{"volume": 99, "name": " x ", "scores": [2, 1]}"#)
    #expect(present.volume == 10)
    #expect(present.name == "x")
    #expect(present.scores == [1, 2])
  }

  // MARK: - Sorting

  @Test func sortedOrdersAscendingByDefaultAndDescendingWhenAsked() throws {
    let profile = try decode(
      Profile.self,
      from: Self.profileJSON(["scores": "[3, -1, 2, 2, 10]", "ranks": "[3, -1, 2, 2, 10]"]))
    #expect(profile.scores == [-1, 2, 2, 3, 10])
    #expect(profile.ranks == [10, 3, 2, 2, -1])
  }

  @Test func sortedKeepsEmptyAndSingleElementArrays() throws {
    let empty = try decode(Profile.self, from: Self.profileJSON(["scores": "[]", "ranks": "[7]"]))
    #expect(empty.scores == [])
    #expect(empty.ranks == [7])
  }

  @Test func sortedStillFailsOnAnInvalidElementAtItsPath() {
    expectError("typeMismatch", at: ["scores", "Index 1"]) {
      try decode(Profile.self, from: Self.profileJSON(["scores": #"[1, "2", 3]"#]))
    }
  }

  static let playersJSON = #"""
    {"players": [
      {"name": "Cy", "score": 2}, {"name": "Al", "score": 1}, {"name": "Bea", "score": 2},
      {"name": "Dee", "score": 1}, {"name": "E", "score": 3}
    ]}
    """#

  @Test func sortedByAKeyPathIsStableInBothOrders() throws {
    let board = try decode(Leaderboard.self, from: Self.playersJSON)
    #expect(board.byScore.map(\.name) == ["Al", "Dee", "Cy", "Bea", "E"])
    // Equal scores keep their document order in a descending sort too.
    #expect(board.byScoreDescending.map(\.name) == ["E", "Cy", "Bea", "Al", "Dee"])
  }

  @Test func sortedByAClosureIsStable() throws {
    let board = try decode(Leaderboard.self, from: Self.playersJSON)
    #expect(board.byNameLength.map(\.name) == ["E", "Cy", "Al", "Bea", "Dee"])
  }

  @Test func sortedKeepsTheOrderOfCanonicallyEquivalentStrings() throws {
    struct Words: Codable, Keyedable {
      var words: [String] = []
      mutating func map(map: KeyMap) throws { try words <-> map["words"].sorted() }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    // "é" precomposed and "e" + combining acute accent are equal Swift strings.
    let words = try decode(Words.self, from: #"{"words": ["f", "\u00E9", "e\u0301", "a"]}"#)
    // Swift orders strings by their scalars, not by locale: "f" < "é".
    #expect(
      words.words.map { Array($0.unicodeScalars) } == [["a"], ["f"], ["\u{E9}"], ["e", "\u{301}"]])
  }

  @Test func sortingALargeArrayKeepsEveryElement() throws {
    let values = (0..<5_000).map { ($0 * 7_919) % 5_000 }
    let json = Self.profileJSON(["scores": "[\(values.map(String.init).joined(separator: ","))]"])
    let profile = try decode(Profile.self, from: json)
    #expect(profile.scores == Array(0..<5_000))
  }

  // MARK: - Closures

  @Test func modifiedAppliesTheClosure() throws {
    let profile = try decode(Profile.self, from: Self.profileJSON(["email": #""ANN@Example.COM""#]))
    #expect(profile.email == "ann@example.com")
  }

  struct Strict: Codable, Keyedable {
    var slug = ""
    var tags: [String] = []

    mutating func map(map: KeyMap) throws {
      try slug
        <-> map["meta.slug"].modified { (text: String) in
          guard !text.contains(" ") else { throw ValueTransformError("A slug has no spaces.") }
          return text
        }
      try tags
        <-> map["tags"].modified { (tags: [String]) in
          guard tags.count < 3 else { throw TooMany(count: tags.count) }
          return tags
        }
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  struct TooMany: Error, CustomStringConvertible {
    let count: Int
    var description: String { "\(count) is too many" }
  }

  @Test func anErrorThrownByTheClosureFailsTheDecodeAtTheValuesPath() throws {
    do {
      _ = try decode(Strict.self, from: #"{"meta": {"slug": "a b"}, "tags": []}"#)
      Issue.record("Expected an error")
    } catch {
      #expect(shape(of: error) == ErrorShape(kind: "dataCorrupted", path: ["meta", "slug"]))
      #expect(message(of: error) == "A slug has no spaces.")
      guard case DecodingError.dataCorrupted(let context) = error else { return }
      #expect(
        context.underlyingError as? ValueTransformError
          == ValueTransformError("A slug has no spaces."))
    }
    do {
      _ = try decode(Strict.self, from: #"{"meta": {"slug": "ok"}, "tags": ["a", "b", "c"]}"#)
      Issue.record("Expected an error")
    } catch {
      #expect(shape(of: error) == ErrorShape(kind: "dataCorrupted", path: ["tags"]))
      // The closure's own error is kept as the underlying error, and its description ends the
      // message.
      #expect(message(of: error).hasSuffix("3 is too many"))
      guard case DecodingError.dataCorrupted(let context) = error else { return }
      #expect((context.underlyingError as? TooMany)?.count == 3)
    }
  }

  // MARK: - Composition

  @Test func modifiersComposeInTheOrderWritten() throws {
    let chains = try decode(Chains.self, from: Self.chainsJSON)
    #expect(chains.code == "AB")
    #expect(chains.shout == "HI")
    #expect(chains.topThree == [9, 7, 4])
    #expect(chains.homepage == URL(string: "https://example.com/api/v2"))
    // 3 × 100 is then clamped: the clamp runs after the closure.
    #expect(chains.percent == 100)
    #expect(chains.words == ["a", "b", "c"])
  }

  @Test func trimmingBeforeValidationRejectsBlankStrings() throws {
    let json = Self.chainsJSON.replacingOccurrences(of: #""  AB ""#, with: #"" \n ""#)
    do {
      _ = try decode(Chains.self, from: json)
      Issue.record("Expected an error")
    } catch {
      #expect(shape(of: error) == ErrorShape(kind: "dataCorrupted", path: ["code"]))
      #expect(message(of: error).hasSuffix(#"The value "" breaks the rule "not empty"."#))
    }
  }

  @Test func validationBeforeTrimmingSeesTheUntrimmedString() throws {
    struct Late: Codable, Keyedable {
      var code = ""
      mutating func map(map: KeyMap) throws {
        try code <-> map["code"].validate(.nonEmpty).trimmed()
      }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    #expect(try decode(Late.self, from: #"{"code": "   "}"#).code == "")
  }

  @Test func aTransformFailureComesBeforeTheModifier() {
    let json = Self.chainsJSON.replacingOccurrences(
      of: #""https://example.com/api""#, with: #""""#)
    expectError("dataCorrupted", at: ["homepage"]) { try decode(Chains.self, from: json) }
  }

  @Test func modifiersWorkInNestedModelsAndArraysOfThem() throws {
    struct Team: Codable, Keyedable {
      var members: [Profile] = []
      mutating func map(map: KeyMap) throws { try members <-> map["team.members"] }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let json =
      #"{"team": {"members": ["# + Self.profileJSON(["name": #"" A ""#, "volume": "-1"]) + ", "
      + Self.profileJSON(["name": #""B  ""#, "scores": "[2, 1]"]) + "]}}"
    let team = try decode(Team.self, from: json)
    #expect(team.members.map(\.name) == ["A", "B"])
    #expect(team.members.map(\.volume) == [0, 5])
    #expect(team.members.map(\.scores) == [[], [1, 2]])
  }

  @Test func aLossyArrayIsSortedAfterItsInvalidElementsAreDropped() throws {
    struct Lossy: Codable, Keyedable {
      var scores: [Int] = []
      mutating func map(map: KeyMap) throws { try scores <-> map["* scores"].sorted() }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let (lossy, report) = try decodeWithReport(
      Lossy.self, from: #"{"scores": [3, "x", 1, null, 2]}"#)
    #expect(lossy.scores == [1, 2, 3])
    #expect(report.entries.map(\.pathDescription) == ["scores[1]", "scores[3]"])
  }

  @Test func theIfPresentOperatorKeepsTheValueWhenTheKeyIsMissing() throws {
    struct Settings: Codable, Keyedable {
      var volume = 4
      mutating func map(map: KeyMap) throws { try volume <?> map["volume"].clamped(to: 0...10) }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    #expect(try decode(Settings.self, from: "{}").volume == 4)
    #expect(try decode(Settings.self, from: #"{"volume": 40}"#).volume == 10)
  }

  // MARK: - Defaults

  struct Defaults: Codable, Keyedable {
    var tags: [String] = ["unset"]
    var volume = -1

    mutating func map(map: KeyMap) throws {
      try tags <-> map["tags"].sorted().default([])
      try volume <-> map["volume"].clamped(to: 0...10).default(5, when: .absentOrInvalid)
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  @Test func aDefaultWrittenAfterTheModifiersReplacesAnAbsentValue() throws {
    let absent = try decode(Defaults.self, from: "{}")
    #expect(absent.tags == [])
    #expect(absent.volume == 5)
    let present = try decode(Defaults.self, from: #"{"tags": ["b", "a"], "volume": 70}"#)
    #expect(present.tags == ["a", "b"])
    #expect(present.volume == 10)
    let invalid = try decode(Defaults.self, from: #"{"tags": [], "volume": "loud"}"#)
    #expect(invalid.volume == 5)
  }

  @Test
  func aDefaultWrittenBeforeAModifierIsKept() throws {
    struct Early: Codable, Keyedable {
      var tags: [String] = ["unset"]
      var volume = -1
      mutating func map(map: KeyMap) throws {
        try tags <-> map["tags"].default([]).sorted()
        try volume <-> map["volume"].default(5).clamped(to: 0...10)
      }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let absent = try decode(Early.self, from: "{}")
    #expect(absent.tags == [])
    #expect(absent.volume == 5)
  }

  @Test func aKeyPathSortAfterATransformComposesWithThen() throws {
    // `sorted(by:)` exists on `Mapping` only; after a transform, `then` adds it.
    struct Ranked: Codable, Keyedable {
      var players: [Player] = []
      mutating func map(map: KeyMap) throws {
        try players
          <-> map["players"].modified { $0.filter { $0.score > 1 } }
          .then(SortedByKeyTransform(by: \Player.score, .descending))
      }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let ranked = try decode(Ranked.self, from: Self.playersJSON)
    #expect(ranked.players.map(\.name) == ["E", "Cy", "Bea"])
  }

  // MARK: - Encoding

  @Test func encodingWritesThePropertyUnchanged() throws {
    var profile = Profile()
    profile.name = "  padded  "
    profile.nickname = "   "
    profile.volume = 99
    profile.age = -4
    profile.rating = 12.5
    profile.scores = [3, 1, 2]
    profile.ranks = [1, 2, 3]
    profile.email = "ANN@EXAMPLE.COM"
    try expectEncoded(
      profile,
      #"""
      {"name": "  padded  ", "nickname": "   ", "volume": 99, "age": -4, "rating": 12.5,
       "scores": [3, 1, 2], "ranks": [1, 2, 3], "email": "ANN@EXAMPLE.COM"}
      """#)
  }

  @Test func encodingAChainWritesThePropertyUnchanged() throws {
    var chains = try decode(Chains.self, from: Self.chainsJSON)
    chains.code = " x "
    chains.percent = 700
    chains.topThree = [1, 2, 3, 4]
    chains.words = ["Z", "a"]
    try expectEncoded(
      chains,
      #"""
      {"code": " x ", "shout": "HI", "scores": [1, 2, 3, 4],
       "homepage": "https://example.com/api/v2", "percent": 700, "words": ["Z", "a"]}
      """#)
  }

  @Test func aDecodedValueReencodesAsItWasStored() throws {
    let profile = try decode(
      Profile.self,
      from: Self.profileJSON(["name": #"" Ann ""#, "volume": "12", "scores": "[2, 1]"]))
    try expectEncoded(
      profile,
      #"""
      {"name": "Ann", "volume": 10, "age": 30, "rating": 4.5, "scores": [1, 2], "ranks": [],
       "email": "ann@example.com"}
      """#)
  }
}
