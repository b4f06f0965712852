import Foundation
import KeyedCodable
import Testing

// Reports: every value a lossy mapping drops or replaces is recorded with its full coding path,
// the mapping's key path and the error behind it; the caller gets the report of its own decode.

/// A member of a team: its tags are a lossy array.
struct KnowMember: Codable, Keyedable, Equatable {
  var name = ""
  var tags: [Int] = []

  init() {}

  mutating func map(map: KeyMap) throws {
    try name <-> map["name"]
    try tags <-> map["* tags"]
  }

  init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
}

/// A team of members, one of which may be dropped from the lossy `bench`.
struct KnowTeam: Codable, Keyedable {
  var users: [KnowMember] = []
  var bench: [KnowMember] = []

  init() {}

  mutating func map(map: KeyMap) throws {
    try users <-> map["users"]
    try bench <-> map["* squad.bench"]
  }

  init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
}

enum KnowColor: String, Codable, CaseIterable, Sendable {
  case red, green, unknown
}

/// One mapping for each kind of report entry.
struct KnowEverything: Codable, Keyedable {
  var tags: [Int] = []
  var rates: [String: Double] = [:]
  var active = false
  var level = 0
  var color = KnowColor.red
  var palette: [KnowColor] = []
  var links: [URL] = []
  var scores: [Int] = []

  init() {}

  mutating func map(map: KeyMap) throws {
    try tags <-> map["* tags"]
    try rates <-> map["* rates"]
    try active <-> map["active"].converting(.lossy)
    try level <-> map["level"].default(1, when: .absentOrInvalid)
    try color <-> map["color"].using(.rawValue(fallback: .unknown))
    try palette <-> map["palette"].using(.array(.rawValue(fallback: .unknown)))
    try links <-> map["* links"].using(.array(.url))
    try scores <-> map["meta.* scores"].validateEach(.atLeast(0))
  }

  init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
}

@Suite("Know: reports", .bothCoders)
struct ReportTests {
  static let teamJSON = #"""
    {"users": [
      {"name": "Ann", "tags": [1, 2]},
      {"name": "Bob", "tags": []},
      {"name": "Cy", "tags": [3, "x", 4, null]}
    ],
    "squad": {"bench": [{"name": "Dee", "tags": ["y"]}, {"tags": [5]}, {"name": "Eve", "tags": []}]}}
    """#

  static let everythingJSON = #"""
    {"tags": [1, "two", 3],
     "rates": {"USD": 1, "EUR": "high"},
     "active": "yes",
     "level": "max",
     "color": "purple",
     "palette": ["red", "blue", "green"],
     "links": ["https://a.example", "", "https://b.example"],
     "meta": {"scores": [1, -2, 3]}}
    """#

  // MARK: - Nested models and arrays of them

  @Test func aDroppedElementInsideAnArrayOfModelsHasItsFullPath() throws {
    let (team, report) = try decodeWithReport(KnowTeam.self, from: Self.teamJSON)
    #expect(team.users.map(\.tags) == [[1, 2], [], [3, 4]])
    #expect(team.bench.map(\.name) == ["Dee", "Eve"])
    #expect(
      report.entries.map(\.pathDescription) == [
        "users[2].tags[1]", "users[2].tags[3]", "squad.bench[0].tags[0]", "squad.bench[1]",
      ])
    #expect(report.entries.map(\.keyPath) == ["* tags", "* tags", "* tags", "* squad.bench"])
    #expect(report.entries.map(\.event) == Array(repeating: .droppedElement, count: 4))
    #expect(
      report.entries.map(\.description) == [
        "Dropped array element at users[2].tags[1]: Expected to decode Int but found a string instead.",
        "Dropped array element at users[2].tags[3]: Cannot get value of type Int -- found null value instead",
        "Dropped array element at squad.bench[0].tags[0]: Expected to decode Int but found a string instead.",
        #"Dropped array element at squad.bench[1]: No value associated with key "name" ("name")."#,
      ])
  }

  @Test func theCodingPathKeepsElementIndices() throws {
    let (_, report) = try decodeWithReport(KnowTeam.self, from: Self.teamJSON)
    let entry = try #require(report.entries.first)
    #expect(entry.codingPath.map(\.stringValue) == ["users", "Index 2", "tags", "Index 1"])
    #expect(entry.codingPath.map(\.intValue) == [nil, 2, nil, 1])
  }

  @Test func theUnderlyingErrorIsTheElementsOwnError() throws {
    let (_, report) = try decodeWithReport(KnowTeam.self, from: Self.teamJSON)
    #expect(
      report.entries.map { shape(of: $0.error) } == [
        ErrorShape(kind: "typeMismatch", path: ["users", "Index 2", "tags", "Index 1"]),
        ErrorShape(kind: "valueNotFound", path: ["users", "Index 2", "tags", "Index 3"]),
        ErrorShape(kind: "typeMismatch", path: ["squad", "bench", "Index 0", "tags", "Index 0"]),
        ErrorShape(kind: "keyNotFound(name)", path: ["squad", "bench", "Index 1"]),
      ])
  }

  @Test func aTopLevelArrayOfModelsReportsFromTheRoot() throws {
    let json = #"[{"name": "A", "tags": []}, {"name": "B", "tags": [true]}]"#
    let (members, report) = try decodeWithReport([KnowMember].self, from: json)
    #expect(members.map(\.tags) == [[], []])
    #expect(report.entries.map(\.pathDescription) == ["[1].tags[0]"])
    #expect(
      report.description
        == "Dropped array element at [1].tags[0]: Expected to decode Int but found a Boolean instead."
    )
  }

  /// Report entries say what a type mismatch found in the words of the one-line error
  /// descriptions ("a number", "a Boolean"), not in the coders' own ("number", "bool"); the
  /// entry's error keeps the coder's message. (Fixed: entries kept the coders' words.)
  @Test func entriesSayWhatWasFoundAsTheReadableFormsDo() throws {
    let json = #"{"name": "A", "tags": [1, true, "x", null, [], {}]}"#
    let (member, report) = try decodeWithReport(KnowMember.self, from: json)
    #expect(member.tags == [1])
    #expect(
      report.entries.map(\.description) == [
        "Dropped array element at tags[1]: Expected to decode Int but found a Boolean instead.",
        "Dropped array element at tags[2]: Expected to decode Int but found a string instead.",
        "Dropped array element at tags[3]: Cannot get value of type Int -- found null value instead",
        "Dropped array element at tags[4]: Expected to decode Int but found an array instead.",
        "Dropped array element at tags[5]: Expected to decode Int but found a dictionary instead.",
      ])
    let found = ["a Boolean", "a string", nil, "an array", "a dictionary"]
    for (entry, found) in zip(report.entries, found) {
      if let found {
        #expect(readableDescription(of: entry.error).hasSuffix("found \(found)"))
      }
    }
    #expect(message(of: report.entries[0].error).hasSuffix("found bool instead."))
    let reporter = DecodingReporter()
    _ = try decode(
      KnowMember.self, from: #"{"name": 7, "tags": []}"#,
      with: MappingContext.converting(.lossy).reporting(to: reporter))
    #expect(
      reporter.report.entries.map(\.description) == [
        "Converted 7 to String at name: Expected to decode String but found a number instead."
      ])
  }

  // MARK: - Every kind of entry

  @Test func everyKindOfEntryIsRecordedInTheOrderOfTheMappings() throws {
    let (value, report) = try decodeWithReport(KnowEverything.self, from: Self.everythingJSON)
    #expect(value.tags == [1, 3])
    #expect(value.rates == ["USD": 1])
    #expect(value.active == true)
    #expect(value.level == 1)
    #expect(value.color == .unknown)
    #expect(value.palette == [.red, .unknown, .green])
    #expect(value.links == [URL(string: "https://a.example")!, URL(string: "https://b.example")!])
    #expect(value.scores == [1, 3])
    let known = #"known values are "red", "green", "unknown"."#
    #expect(
      report.entries.map(\.description).prefix(7) == [
        "Dropped array element at tags[1]: Expected to decode Int but found a string instead.",
        "Dropped dictionary entry at rates.EUR: Expected to decode Double but found a string instead.",
        #"Converted "yes" to Bool at active: Expected to decode Bool but found a string instead."#,
        "Replaced an invalid value with the default 1 at level: Expected to decode Int but found a string instead.",
        #"Replaced an invalid value with the default unknown at color: "purple" is not a raw value of KnowColor; \#(known)"#,
        #"Replaced an invalid value with the default unknown at palette[1]: "blue" is not a raw value of KnowColor; \#(known)"#,
        #"Dropped array element at links[1]: "" is not a valid URL."#,
      ])
    // The message of a rule comes after a prefix today (see ValidationTests'
    // theMessageIsTheRuleSentenceAlone).
    #expect(report.entries.count == 8)
    let score = report.entries.last?.description ?? ""
    #expect(score.hasPrefix("Dropped array element at meta.scores[1]: "))
    #expect(score.hasSuffix(#"The value -2 breaks the rule "at least 0"."#))
    #expect(
      report.entries.map(\.event) == [
        .droppedElement, .droppedEntry, .converted(from: #""yes""#, to: "Bool"),
        .defaulted(value: "1"), .defaulted(value: "unknown"), .defaulted(value: "unknown"),
        .droppedElement, .droppedElement,
      ])
    #expect(
      report.entries.map(\.keyPath) == [
        "* tags", "* rates", "active", "level", "color", "palette", "* links", "meta.* scores",
      ])
    #expect(
      report.entries.map(\.pathDescription) == [
        "tags[1]", "rates.EUR", "active", "level", "color", "palette[1]", "links[1]",
        "meta.scores[1]",
      ])
  }

  @Test func eventsDescribeThemselves() {
    #expect(DecodingReport.Event.droppedElement.description == "Dropped array element")
    #expect(DecodingReport.Event.droppedEntry.description == "Dropped dictionary entry")
    #expect(
      DecodingReport.Event.converted(from: "1", to: "Bool").description == "Converted 1 to Bool")
    #expect(
      DecodingReport.Event.defaulted(value: "0").description
        == "Replaced an invalid value with the default 0")
  }

  @Test func theUnderlyingErrorsOfTransformsAreKept() throws {
    let (_, report) = try decodeWithReport(KnowEverything.self, from: Self.everythingJSON)
    let color = try #require(report.entries.first { $0.keyPath == "color" })
    #expect(
      (color.error as? ValueTransformError)?.message
        == #""purple" is not a raw value of KnowColor; known values are "red", "green", "unknown"."#
    )
    let score = try #require(report.entries.last)
    #expect(
      shape(of: score.error)
        == ErrorShape(kind: "dataCorrupted", path: ["meta", "scores", "Index 1"]))
    let level = try #require(report.entries.first { $0.keyPath == "level" })
    #expect(shape(of: level.error) == ErrorShape(kind: "typeMismatch", path: ["level"]))
  }

  struct Rates: Codable, Keyedable {
    var rates: [String: Int] = [:]
    var converted: [String: URL] = [:]
    mutating func map(map: KeyMap) throws {
      try rates <-> map["* rates"]
      try converted <-> map["* links"].using(.dictionary(.url))
    }
    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  static let ratesJSON = #"""
    {"rates": {"d": "x", "a": 1, "c": null, "b": "y", "e": 2, "f": []},
     "links": {"z": "", "x": "https://x.example", "y": ""}}
    """#

  @Test func everyDroppedEntryOfADictionaryIsReported() throws {
    let (value, report) = try decodeWithReport(Rates.self, from: Self.ratesJSON)
    #expect(value.rates == ["a": 1, "e": 2])
    #expect(value.converted == ["x": URL(string: "https://x.example")!])
    #expect(
      report.entries.map(\.pathDescription).sorted() == [
        "links.y", "links.z", "rates.b", "rates.c", "rates.d", "rates.f",
      ])
    #expect(report.entries.allSatisfy { $0.event == .droppedEntry })
  }

  @Test func theEntriesOfADictionaryTransformAreReportedInKeyOrder() throws {
    for _ in 0..<10 {
      let (_, report) = try decodeWithReport(Rates.self, from: Self.ratesJSON)
      #expect(report.entries.suffix(2).map(\.pathDescription) == ["links.y", "links.z"])
    }
  }

  @Test
  func theDroppedEntriesOfALossyDictionaryAreReportedInKeyOrder() throws {
    for _ in 0..<20 {
      let (_, report) = try decodeWithReport(Rates.self, from: Self.ratesJSON)
      #expect(
        report.entries.map(\.pathDescription) == [
          "rates.b", "rates.c", "rates.d", "rates.f", "links.y", "links.z",
        ])
    }
  }

  @Test func aValidDocumentGivesAnEmptyReport() throws {
    let (_, report) = try decodeWithReport(
      KnowTeam.self, from: #"{"users": [{"name": "A", "tags": [1]}], "squad": {"bench": []}}"#)
    #expect(report.isEmpty)
    #expect(report.entries.isEmpty)
    #expect(report.description == "Nothing dropped or replaced.")
    #expect(report == DecodingReport())
  }

  @Test func anAbsentValueWithADefaultIsNotReported() throws {
    let json =
      #"{"tags": [], "rates": {}, "active": true, "color": "red", "palette": [], "links": [], "meta": {"scores": []}}"#
    let (value, report) = try decodeWithReport(KnowEverything.self, from: json)
    #expect(value.level == 1)
    #expect(report.isEmpty)
  }

  @Test func aDroppedElementWithUnicodeKeysReadsAsSwiftCode() throws {
    struct Odd: Codable, Keyedable {
      var values: [Int] = []
      mutating func map(map: KeyMap) throws { try values <-> map["données.* clé spéciale"] }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let (value, report) = try decodeWithReport(
      Odd.self, from: #"{"données": {"clé spéciale": [1, "😀"]}}"#)
    #expect(value.values == [1])
    #expect(report.entries.map(\.pathDescription) == [#"données["clé spéciale"][1]"#])
    #expect(report.entries.map(\.keyPath) == ["données.* clé spéciale"])
  }

  @Test func conversionsAndDefaultsInsideArraysOfModelsHaveTheirFullPaths() throws {
    struct Flag: Codable, Keyedable {
      var on = false
      var weight = 0
      mutating func map(map: KeyMap) throws {
        try on <-> map["state.on"].converting(.lossy)
        try weight <-> map["weight"].default(1, when: .invalid)
      }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let json = #"""
      [{"state": {"on": true}, "weight": 2}, {"state": {"on": 1}, "weight": "heavy"},
       {"state": {"on": "NO"}, "weight": 3}]
      """#
    let (flags, report) = try decodeWithReport([Flag].self, from: json)
    #expect(flags.map(\.on) == [true, true, false])
    #expect(flags.map(\.weight) == [2, 1, 3])
    #expect(
      report.entries.map(\.description) == [
        "Converted 1 to Bool at [1].state.on: Expected to decode Bool but found a number instead.",
        "Replaced an invalid value with the default 1 at [1].weight: Expected to decode Int but found a string instead.",
        #"Converted "NO" to Bool at [2].state.on: Expected to decode Bool but found a string instead."#,
      ])
    #expect(report.entries.map(\.keyPath) == ["state.on", "weight", "state.on"])
  }

  @Test func conversionsAllowedByTheContextAreReportedToo() throws {
    let reporter = DecodingReporter()
    let member = try decode(
      KnowMember.self, from: #"{"name": 42, "tags": ["7", 8, "x"]}"#,
      with: MappingContext.converting(.lossy).reporting(to: reporter))
    #expect(member.name == "42")
    // The lossy array's elements are decoded by the coder, not by a mapping: no conversion.
    #expect(member.tags == [8])
    #expect(
      reporter.report.entries.map(\.description) == [
        "Converted 42 to String at name: Expected to decode String but found a number instead.",
        "Dropped array element at tags[0]: Expected to decode Int but found a string instead.",
        "Dropped array element at tags[2]: Expected to decode Int but found a string instead.",
      ])
  }

  // MARK: - Reporters

  @Test func aReporterInTheContextCollectsTheEntries() throws {
    let reporter = DecodingReporter()
    let team = try decode(KnowTeam.self, from: Self.teamJSON, with: .reporting(to: reporter))
    #expect(team.users.count == 3)
    #expect(reporter.report.entries.count == 4)
    #expect(reporter.report.entries.first?.pathDescription == "users[2].tags[1]")
  }

  @Test func aReporterAccumulatesAcrossDecodesUntilReset() throws {
    let reporter = DecodingReporter()
    _ = try decode(KnowTeam.self, from: Self.teamJSON, with: .reporting(to: reporter))
    _ = try decode(KnowTeam.self, from: Self.teamJSON, with: .reporting(to: reporter))
    #expect(reporter.report.entries.count == 8)
    reporter.reset()
    #expect(reporter.report.isEmpty)
    _ = try decode(
      [KnowMember].self, from: #"[{"name": "A", "tags": ["z"]}]"#, with: .reporting(to: reporter))
    #expect(reporter.report.entries.map(\.pathDescription) == ["[0].tags[0]"])
  }

  @Test func decodeWithReportAlsoFeedsTheReporterOfTheGivenContext() throws {
    let reporter = DecodingReporter()
    _ = try decode(
      KnowMember.self, from: #"{"name": "A", "tags": ["a"]}"#, with: .reporting(to: reporter))
    let data = Data(#"{"name": "B", "tags": [1, "b"]}"#.utf8)
    let (_, report) =
      TestCoder.current == .foundation
      ? try JSONDecoder().decodeWithReport(
        KnowMember.self, from: data, with: .reporting(to: reporter))
      : try KeyedJSONDecoder().decodeWithReport(
        KnowMember.self, from: data, with: .reporting(to: reporter))
    // The returned report holds this decode alone; the context's reporter holds both.
    #expect(report.entries.map(\.pathDescription) == ["tags[1]"])
    #expect(reporter.report.entries.map(\.pathDescription) == ["tags[0]", "tags[1]"])
  }

  @Test func aDecodeThatThrowsStillLeavesWhatItRecordedInTheReporter() throws {
    let reporter = DecodingReporter()
    let json = #"{"users": [{"name": "A", "tags": ["x"]}, {"tags": []}]}"#
    expectError("keyNotFound(name)", at: ["users", "Index 1"]) {
      try decode(KnowTeam.self, from: json, with: .reporting(to: reporter))
    }
    #expect(reporter.report.entries.map(\.pathDescription) == ["users[0].tags[0]"])
  }

  // MARK: - Values

  @Test func aReportIsAValueThatCanCrossTasks() async throws {
    let (_, report) = try decodeWithReport(KnowTeam.self, from: Self.teamJSON)
    let copy = await Task.detached { report }.value
    #expect(copy == report)
    #expect(copy.description == report.description)
    #expect(copy.entries.map(\.pathDescription) == report.entries.map(\.pathDescription))
  }

  @Test func entriesCompareByEventPathAndKeyPath() throws {
    let (_, first) = try decodeWithReport(KnowMember.self, from: #"{"name": "A", "tags": ["x"]}"#)
    let (_, second) = try decodeWithReport(KnowMember.self, from: #"{"name": "A", "tags": [null]}"#)
    let (_, third) = try decodeWithReport(
      KnowMember.self, from: #"{"name": "A", "tags": [1, "x"]}"#)
    // Different errors, same event and place: equal.
    #expect(first == second)
    #expect(first != third)
    #expect(DecodingReport(entries: first.entries + third.entries).entries.count == 2)
  }
}

// MARK: - Concurrency

@Suite("Know: reports under concurrency")
struct ReportConcurrencyTests {
  /// A team of three members with tags `[0, 1, 2, 3]`, where the members up to `task % 3` have
  /// the tag at `task % 4` replaced by a string naming the task and the iteration.
  static func json(task: Int, iteration: Int) -> String {
    let users = (0..<3).map { user in
      let tags = (0..<4).map { tag in
        user <= task % 3 && tag == task % 4 ? "\"t\(task)-\(iteration)\"" : "\(tag)"
      }
      return #"{"name": "u\#(user)", "tags": [\#(tags.joined(separator: ", "))]}"#
    }
    return #"{"users": [\#(users.joined(separator: ", "))], "squad": {"bench": []}}"#
  }

  static func expectedPaths(task: Int) -> [String] {
    (0...(task % 3)).map { "users[\($0)].tags[\(task % 4)]" }
  }

  @Test func concurrentDecodesEachGetTheirOwnExactReport() async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for iteration in 0..<200 {
            let data = Data(Self.json(task: task, iteration: iteration).utf8)
            let report: DecodingReport
            let team: KnowTeam
            switch (task + iteration) % 4 {
            case 0:
              (team, report) = try JSONDecoder().decodeWithReport(KnowTeam.self, from: data)
            case 1:
              (team, report) = try KeyedJSONDecoder().decodeWithReport(KnowTeam.self, from: data)
            case 2:
              let reporter = DecodingReporter()
              team = try JSONDecoder().decode(
                KnowTeam.self, from: data, with: .reporting(to: reporter))
              report = reporter.report
            default:
              let reporter = DecodingReporter()
              team = try KeyedJSONDecoder().decode(
                KnowTeam.self, from: data, with: .reporting(to: reporter))
              report = reporter.report
            }
            let paths = Self.expectedPaths(task: task)
            #expect(report.entries.map(\.pathDescription) == paths)
            #expect(
              report.entries.map(\.description)
                == paths.map {
                  "Dropped array element at \($0): Expected to decode Int but found a string instead."
                })
            #expect(
              report.entries.allSatisfy { $0.keyPath == "* tags" && $0.event == .droppedElement })
            #expect(team.users.map(\.tags.count) == (0..<3).map { $0 <= task % 3 ? 3 : 4 })
          }
        }
      }
      try await group.waitForAll()
    }
  }
}

extension ReportConcurrencyTests {
  /// A reporter shared by concurrent decodes keeps every entry up to its limit, and counts the
  /// others: none is lost, also when decodes race to fill the report.
  @Test(arguments: [Int.max, DecodingReport.defaultEntryLimit, 7])
  func oneReporterSharedByConcurrentDecodesKeepsEveryEntry(limit: Int) async throws {
    let reporter = DecodingReporter(entryLimit: limit)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for iteration in 0..<200 {
            let data = Data(Self.json(task: task, iteration: iteration).utf8)
            _ =
              task.isMultiple(of: 2)
              ? try JSONDecoder().decode(KnowTeam.self, from: data, with: .reporting(to: reporter))
              : try KeyedJSONDecoder().decode(
                KnowTeam.self, from: data, with: .reporting(to: reporter))
          }
        }
      }
      try await group.waitForAll()
    }
    let expected = (0..<8).map { Self.expectedPaths(task: $0).count * 200 }.reduce(0, +)
    #expect(reporter.report.entries.count == min(expected, limit))
    #expect(reporter.report.omittedEntryCount == expected - min(expected, limit))
    #expect(reporter.report.entries.allSatisfy { $0.event == .droppedElement })
  }
}

// MARK: - Debug handler

/// Entries a debug handler received, for one test.
final class KnowEntryLog: @unchecked Sendable {
  // Unchecked: every access holds the lock.
  private let lock = NSLock()
  private var stored: [DecodingReport.Entry] = []

  func append(_ entry: DecodingReport.Entry) {
    lock.lock()
    defer { lock.unlock() }
    stored.append(entry)
  }

  var entries: [DecodingReport.Entry] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}

/// The debug handler is global: other suites running at the same time feed it too, so the test
/// keeps only the entries of its own probe key, and removes the handler when it ends.
@Suite("Know: report debug handler", .serialized)
struct ReportDebugHandlerTests {
  struct Probe: Codable, Keyedable {
    var values: [Int] = []
    mutating func map(map: KeyMap) throws { try values <-> map["* knowDebugHandlerProbe"] }
    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  static let json = #"{"knowDebugHandlerProbe": [1, "x", 2, false]}"#

  func probeEntries(_ log: KnowEntryLog) -> [String] {
    log.entries.filter { $0.keyPath == "* knowDebugHandlerProbe" }.map(\.description)
  }

  @Test(arguments: TestCoder.allCases)
  func theDebugHandlerSeesEveryEntryOfEveryDecodeInDebugBuilds(coder: TestCoder) throws {
    #if DEBUG
      let log = KnowEntryLog()
      DecodingReporter.setDebugHandler { log.append($0) }
      defer { DecodingReporter.setDebugHandler(nil) }
      // No reporter at all: the handler still hears of the dropped elements.
      let probe = try TestCoder.$current.withValue(coder) {
        try decode(Probe.self, from: Self.json)
      }
      #expect(probe.values == [1, 2])
      let expected = [
        "Dropped array element at knowDebugHandlerProbe[1]: Expected to decode Int but found a string instead.",
        "Dropped array element at knowDebugHandlerProbe[3]: Expected to decode Int but found a Boolean instead.",
      ]
      #expect(probeEntries(log) == expected)
      // With a report too, both get the entries.
      let (_, report) = try TestCoder.$current.withValue(coder) {
        try decodeWithReport(Probe.self, from: Self.json)
      }
      #expect(report.entries.map(\.description) == expected)
      #expect(probeEntries(log) == expected + expected)
      // Removed: nothing more arrives.
      DecodingReporter.setDebugHandler(nil)
      _ = try TestCoder.$current.withValue(coder) { try decode(Probe.self, from: Self.json) }
      #expect(probeEntries(log) == expected + expected)
    #endif
  }
}
