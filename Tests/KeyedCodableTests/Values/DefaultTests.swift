import Foundation
import KeyedCodable
import Testing

/// Defaults: `.default(x)` when the key is missing or `null`; `.default(x, when: .invalid)` and
/// `.absentOrInvalid`; non-optional properties need no `T!`; encoding still writes the value; a
/// default used after an error is recorded in the report.
@Suite("Values: defaults", .bothCoders)
struct DefaultTests {
  enum Theme: String, Codable, Sendable {
    case light, dark, system
  }

  struct Preferences: Codable, Keyedable, Equatable {
    var retries = 0
    var ratio = 0.0
    var name = ""
    var tags: [String] = []
    var theme = Theme.light
    var strict = 0
    var lenient = 0

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try retries <-> map["retries"].default(3)
      try ratio <-> map["limits.ratio"].default(0.5)
      try name <-> map["name"].default("anonymous")
      try tags <-> map["tags"].default(["new"])
      try theme <-> map["theme"].using(.rawValue()).default(.system)
      try strict <-> map["strict"].default(7, when: .invalid)
      try lenient <-> map["lenient"].default(9, when: .absentOrInvalid)
    }
  }

  // MARK: - Absent

  @Test func aDefaultReplacesAMissingKey() throws {
    let preferences = try decode(Preferences.self, from: #"{"strict": 1}"#)
    #expect(preferences.retries == 3)
    #expect(preferences.ratio == 0.5)
    #expect(preferences.name == "anonymous")
    #expect(preferences.tags == ["new"])
    #expect(preferences.theme == .system)
    #expect(preferences.strict == 1)
    #expect(preferences.lenient == 9)
  }

  @Test func aDefaultReplacesNullAndANullOrMissingObjectOnThePath() throws {
    let json = """
      {"retries": null, "limits": null, "name": null, "tags": null, "theme": null,
       "strict": 1, "lenient": null}
      """
    let preferences = try decode(Preferences.self, from: json)
    #expect(preferences.retries == 3)
    #expect(preferences.ratio == 0.5)
    #expect(preferences.name == "anonymous")
    #expect(preferences.tags == ["new"])
    #expect(preferences.theme == .system)
    #expect(preferences.lenient == 9)
    #expect(try decode(Preferences.self, from: #"{"limits": {}, "strict": 1}"#).ratio == 0.5)
    #expect(
      try decode(Preferences.self, from: #"{"limits": {"ratio": null}, "strict": 1}"#).ratio == 0.5)
  }

  @Test func aPresentValueWinsOverTheDefault() throws {
    let json = """
      {"retries": 0, "limits": {"ratio": 0.25}, "name": "", "tags": [], "theme": "dark",
       "strict": 1, "lenient": 2}
      """
    let preferences = try decode(Preferences.self, from: json)
    #expect(preferences.retries == 0)
    #expect(preferences.ratio == 0.25)
    #expect(preferences.name == "")
    #expect(preferences.tags == [])
    #expect(preferences.theme == .dark)
    #expect(preferences.lenient == 2)
  }

  @Test func aDefaultForAbsentValuesDoesNotHideAnInvalidOne() throws {
    expectError("typeMismatch", at: ["retries"]) {
      try decode(Preferences.self, from: #"{"retries": "3", "strict": 1}"#)
    }
    expectError("typeMismatch", at: ["limits"]) {
      try decode(Preferences.self, from: #"{"limits": 5, "strict": 1}"#)
    }
    expectError("dataCorrupted", at: ["theme"]) {
      try decode(Preferences.self, from: #"{"theme": "sepia", "strict": 1}"#)
    }
    expectError("typeMismatch", at: ["tags", "Index 1"]) {
      try decode(Preferences.self, from: #"{"tags": ["a", 2], "strict": 1}"#)
    }
  }

  // MARK: - Invalid

  @Test func aDefaultForInvalidValuesDoesNotCoverAnAbsentOne() throws {
    expectError("keyNotFound(strict)", at: []) { try decode(Preferences.self, from: "{}") }
    expectError("valueNotFound", at: ["strict"]) {
      try decode(Preferences.self, from: #"{"strict": null}"#)
    }
  }

  @Test func aDefaultReplacesAnInvalidValueAndTheReportRecordsIt() throws {
    let (preferences, report) = try decodeWithReport(
      Preferences.self, from: #"{"strict": "x", "lenient": [1]}"#)
    #expect(preferences.strict == 7)
    #expect(preferences.lenient == 9)
    #expect(
      lines(of: report) == [
        "Replaced an invalid value with the default 7 at strict via strict",
        "Replaced an invalid value with the default 9 at lenient via lenient",
      ])
    #expect(
      report.entries.map { shape(of: $0.error) } == [
        ErrorShape(kind: "typeMismatch", path: ["strict"]),
        ErrorShape(kind: "typeMismatch", path: ["lenient"]),
      ])
    #expect(
      report.description
        == "Replaced an invalid value with the default 7 at strict: "
        + message(of: report.entries[0].error) + "\n"
        + "Replaced an invalid value with the default 9 at lenient: "
        + message(of: report.entries[1].error))
  }

  @Test func aDefaultUsedForAnAbsentValueIsNotReported() throws {
    let (_, report) = try decodeWithReport(Preferences.self, from: #"{"strict": 1}"#)
    #expect(report.isEmpty)
    #expect(report.description == "Nothing dropped or replaced.")
  }

  @Test func aDefaultReplacesAnIntThatDoesNotFit() throws {
    let (preferences, report) = try decodeReporting(
      Preferences.self, from: #"{"strict": 1.5, "lenient": 1e300}"#)
    #expect(preferences.strict == 7)
    #expect(preferences.lenient == 9)
    #expect(report.count == 2)
  }

  @Test func aDefaultForInvalidValuesReplacesAFailedTransformAndAWrongObjectOnThePath() throws {
    struct Feed: Codable, Keyedable {
      var homepage = URL(fileURLWithPath: "/")
      var pageSize = 0
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try homepage
          <-> map["homepage"].using(.url).default(
            URL(string: "https://default.example")!, when: .absentOrInvalid)
        try pageSize <-> map["paging.size"].default(20, when: .absentOrInvalid)
      }
    }
    let (feed, report) = try decodeReporting(Feed.self, from: #"{"homepage": "", "paging": 5}"#)
    #expect(feed.homepage == URL(string: "https://default.example"))
    #expect(feed.pageSize == 20)
    #expect(
      report == [
        "Replaced an invalid value with the default https://default.example at homepage via homepage",
        "Replaced an invalid value with the default 20 at paging.size via paging.size",
      ])
  }

  // MARK: - Encoding

  @Test func encodingWritesTheValueEvenWhenItEqualsTheDefault() throws {
    let expected = """
      {"retries": 3, "limits": {"ratio": 0.5}, "name": "anonymous", "tags": ["new"],
       "theme": "system", "strict": 1, "lenient": 9}
      """
    let preferences = try decode(Preferences.self, from: #"{"strict": 1}"#)
    try expectEncoded(preferences, expected)
    let changed = with(preferences) {
      $0.retries = 5
      $0.theme = .dark
    }
    try expectEncoded(
      changed,
      """
      {"retries": 5, "limits": {"ratio": 0.5}, "name": "anonymous", "tags": ["new"],
       "theme": "dark", "strict": 1, "lenient": 9}
      """)
    #expect(try roundTrip(Preferences.self, expected) == preferences)
  }

  // MARK: - Optional storage and other operators

  struct Options: Codable, Keyedable {
    var theme: Theme?
    var limit: Int?
    var kept = 1
    var decodeOnly = 1
    var encodeOnly = 1

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try theme <-> map["theme"].using(.rawValue()).default(.light)
      try limit <-> map["limit"].default(10, when: .absentOrInvalid)
      try kept <?> map["kept"].default(2)
      try decodeOnly <<- map["decodeOnly"].default(3)
      try encodeOnly ->> map["encodeOnly"].default(4)
    }
  }

  @Test func anOptionalPropertyTakesTheDefaultInsteadOfNil() throws {
    let options = try decode(Options.self, from: "{}")
    #expect(options.theme == .light)
    #expect(options.limit == 10)
    let explicit = try decode(Options.self, from: #"{"theme": null, "limit": "many"}"#)
    #expect(explicit.theme == .light)
    #expect(explicit.limit == 10)
  }

  @Test func theIfPresentOperatorTakesTheDefaultWhenTheKeyIsAbsent() throws {
    #expect(try decode(Options.self, from: "{}").kept == 2)
    #expect(try decode(Options.self, from: #"{"kept": 5}"#).kept == 5)
  }

  @Test func aDecodeOnlyDefaultIsNotWrittenAndAnEncodeOnlyOneIsNotRead() throws {
    let options = try decode(Options.self, from: #"{"decodeOnly": 8, "encodeOnly": 8}"#)
    #expect(options.decodeOnly == 8)
    #expect(options.encodeOnly == 1)
    #expect(try decode(Options.self, from: "{}").decodeOnly == 3)
    try expectEncoded(options, #"{"theme": "light", "limit": 10, "kept": 2, "encodeOnly": 1}"#)
  }

  @Test func aNilOptionalWithADefaultIsNotWritten() throws {
    try expectEncoded(Options(), #"{"kept": 1, "encodeOnly": 1}"#)
  }

  @Test func aRequiredMappingWithADefaultTakesTheDefault() throws {
    struct Required: Codable, Keyedable {
      var level: Int?
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try level <-> map["level"].default(1).required()
      }
    }
    #expect(try decode(Required.self, from: "{}").level == 1)
    #expect(try decode(Required.self, from: #"{"level": null}"#).level == 1)
  }

  // MARK: - Collections

  @Test func aLossyArrayWithADefaultDropsElementsAndTakesTheDefaultOnlyWhenAbsent() throws {
    struct Tagged: Codable, Keyedable {
      var tags: [Int] = []
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try tags <-> map["* tags"].default([0])
      }
    }
    let (tagged, report) = try decodeReporting(Tagged.self, from: #"{"tags": [1, "x", 3]}"#)
    #expect(tagged.tags == [1, 3])
    #expect(report == ["Dropped array element at tags[1] via * tags"])
    #expect(try decode(Tagged.self, from: "{}").tags == [0])
    #expect(try decode(Tagged.self, from: #"{"tags": null}"#).tags == [0])
    #expect(try decode(Tagged.self, from: #"{"tags": []}"#).tags == [])
  }

  @Test func aStrictArrayWithADefaultForInvalidValuesReplacesTheWholeArray() throws {
    struct Tagged: Codable, Keyedable {
      var tags: [Int] = []
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try tags <-> map["tags"].default([], when: .absentOrInvalid)
      }
    }
    let (tagged, report) = try decodeReporting(Tagged.self, from: #"{"tags": [1, "x", 3]}"#)
    #expect(tagged.tags == [])
    #expect(report == ["Replaced an invalid value with the default [] at tags via tags"])
  }

  // MARK: - Nested models

  struct Counter: Codable, Keyedable, Equatable {
    var count = 0

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try count <-> map["count"].default(1, when: .absentOrInvalid)
    }
  }

  struct Board: Codable, Keyedable {
    var counters: [Counter] = []
    var main = Counter()

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try counters <-> map["data.counters"]
      try main <-> map["main"].default(with(Counter()) { $0.count = 100 })
    }
  }

  @Test func defaultsInModelsInsideAnArrayAreReportedAtTheirFullPath() throws {
    let (board, report) = try decodeReporting(
      Board.self, from: #"{"data": {"counters": [{"count": 2}, {}, {"count": "x"}]}}"#)
    #expect(board.counters.map(\.count) == [2, 1, 1])
    #expect(board.main.count == 100)
    #expect(
      report == ["Replaced an invalid value with the default 1 at data.counters[2].count via count"]
    )
  }

  @Test func aModelDefaultIsUsedWhenItsObjectIsAbsent() throws {
    #expect(try decode(Board.self, from: #"{"data": {"counters": []}}"#).main.count == 100)
    #expect(
      try decode(Board.self, from: #"{"data": {"counters": []}, "main": null}"#).main.count == 100)
    #expect(
      try decode(Board.self, from: #"{"data": {"counters": []}, "main": {}}"#).main.count == 1)
  }

  @Test
  func aModelWhoseMappingsDefaultWhenInvalidIsStillNotMadeFromANonObject() throws {
    for value in ["5", #""x""#, "[]", "true"] {
      expectError("typeMismatch", at: ["main"]) {
        try decode(Board.self, from: #"{"data": {"counters": []}, "main": \#(value)}"#)
      }
      expectError("typeMismatch", at: []) { try decode(Counter.self, from: value) }
      expectError("typeMismatch", at: ["data", "counters", "Index 1"]) {
        try decode(Board.self, from: #"{"data": {"counters": [{}, \#(value)]}}"#)
      }
    }
    expectError("valueNotFound", at: []) { try decode(Counter.self, from: "null") }
    expectError("valueNotFound", at: ["data", "counters", "Index 0"]) {
      try decode(Board.self, from: #"{"data": {"counters": [null]}}"#)
    }
  }

  @Test func aConversionComesBeforeTheDefaultForInvalidValues() throws {
    struct Loose: Codable, Keyedable {
      var count = 0
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try count <-> map["count"].default(-1, when: .invalid).converting(.numbersFromStrings)
      }
    }
    let (converted, report) = try decodeReporting(Loose.self, from: #"{"count": "5"}"#)
    #expect(converted.count == 5)
    #expect(report == [#"Converted "5" to Int at count via count"#])
    let (defaulted, defaultReport) = try decodeReporting(Loose.self, from: #"{"count": "five"}"#)
    #expect(defaulted.count == -1)
    #expect(defaultReport == ["Replaced an invalid value with the default -1 at count via count"])
  }

  // MARK: - Composition

  @Test func aDefaultGivenBeforeAModifierIsKept() throws {
    // A modifier keeps the value's type, so the default stays, before or after it.
    struct Trimmed: Codable, Keyedable {
      var before = ""
      var after = ""
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try before <-> map["before"].default("anonymous").trimmed()
        try after <-> map["after"].trimmed().default("anonymous")
      }
    }
    let trimmed = try decode(Trimmed.self, from: #"{"before": "  Ann ", "after": " Bob  "}"#)
    #expect(trimmed.before == "Ann")
    #expect(trimmed.after == "Bob")
    #expect(try decode(Trimmed.self, from: #"{"before": "x"}"#).after == "anonymous")
    #expect(try decode(Trimmed.self, from: #"{"after": "x"}"#).before == "anonymous")
  }
}
