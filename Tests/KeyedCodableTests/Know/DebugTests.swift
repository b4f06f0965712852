import Foundation
import KeyedCodable
import Testing

/// Lines a debugging context wrote, for one test.
final class KnowLineLog: @unchecked Sendable {
  // Unchecked: every access holds the lock.
  private let lock = NSLock()
  private var stored: [String] = []

  /// Records a line.
  var write: @Sendable (String) -> Void {
    { [self] line in
      lock.lock()
      defer { lock.unlock() }
      stored.append(line)
    }
  }

  var lines: [String] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}

/// Debugging: `.debug()` per mapping and `MappingContext.debugging(_:output:)` per model type
/// print the JSON a mapping or a model sees while decoding, and nothing is printed without them.
@Suite("Know: debugging", .bothCoders)
struct DebugTests {
  // MARK: - Models

  struct Address: Codable, Keyedable {
    var city = ""
    var zip = ""

    init() {}

    mutating func map(map: KeyMap) throws {
      try city <-> map["city"]
      try zip <-> map["zip"]
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  struct Person: Codable, Keyedable {
    var name = ""
    var address = Address()
    var nickname: String?
    var deep: String?
    var values: [Double] = []

    init() {}

    mutating func map(map: KeyMap) throws {
      try name <-> map["name"].debug().trimmed()
      try address <-> map["address"].debug()
      try nickname <-> map["nickname"].debug()
      try deep <-> map["meta.info.deep"].debug()
      try values <-> map["* values"].debug()
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  /// The same mappings without `.debug()`, or with `.debug(false)`.
  struct Quiet: Codable, Keyedable {
    var name = ""
    var address = Address()

    mutating func map(map: KeyMap) throws {
      try name <-> map["name"]
      try address <-> map["address"].debug(false)
    }

    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  struct People: Codable, Keyedable {
    var people: [Quiet] = []
    mutating func map(map: KeyMap) throws { try people <-> map["group.people"] }
    init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
  }

  /// A debugging line with the JSON it shows re-serialized with sorted keys, so lines compare
  /// whatever order the decoder lists an object's members in (see
  /// ``objectMembersPrintInAStableOrder()``).
  static func normalized(_ line: String) -> String {
    guard let range = line.range(of: " sees "),
      let json = try? canonicalJSON(String(line[range.upperBound...]))
    else { return line }
    return line[..<range.upperBound] + json
  }

  static func normalized(_ lines: [String]) -> [String] { lines.map(normalized) }

  static let personJSON = #"""
    {"name": "  Ann ", "address": {"city": "Paris", "zip": "75001"},
     "values": [1, -0.5, 1e21, "x", 2.5]}
    """#

  // MARK: - Per mapping

  @Test func debuggedMappingsPrintWhatTheyReadThroughTheContextsOutput() throws {
    let log = KnowLineLog()
    let person = try decode(
      Person.self, from: Self.personJSON, with: .debugging([], output: log.write))
    #expect(person.name == "Ann")
    #expect(person.values == [1, -0.5, 1e21, 2.5])
    #expect(
      Self.normalized(log.lines)
        == Self.normalized([
          #"KeyedCodable: Person["name"] at name sees "  Ann ""#,
          #"KeyedCodable: Person["address"] at address sees {"city":"Paris","zip":"75001"}"#,
          #"KeyedCodable: Person["nickname"] at nickname sees nothing (the key is missing)"#,
          #"KeyedCodable: Person["meta.info.deep"] at meta.info.deep sees nothing (an object on the way is missing or null)"#,
          #"KeyedCodable: Person["* values"] at values sees [1,-0.5,1e+21,"x",2.5]"#,
        ]))
    // Scalars and arrays print exactly.
    #expect(log.lines[0] == #"KeyedCodable: Person["name"] at name sees "  Ann ""#)
    #expect(
      log.lines[4] == #"KeyedCodable: Person["* values"] at values sees [1,-0.5,1e+21,"x",2.5]"#)
  }

  @Test func aDebuggedMappingPrintsNullAndEscapedText() throws {
    let log = KnowLineLog()
    let json = #"""
      {"name": "tab\there \"q\" é 😀", "address": {"city": "", "zip": ""}, "nickname": null,
       "meta": {"info": null}, "values": []}
      """#
    _ = try decode(Person.self, from: json, with: .debugging([], output: log.write))
    #expect(
      Self.normalized(log.lines)
        == Self.normalized([
          #"KeyedCodable: Person["name"] at name sees "tab\there \"q\" é 😀""#,
          #"KeyedCodable: Person["address"] at address sees {"city":"","zip":""}"#,
          #"KeyedCodable: Person["nickname"] at nickname sees null"#,
          #"KeyedCodable: Person["meta.info.deep"] at meta.info.deep sees nothing (an object on the way is missing or null)"#,
          #"KeyedCodable: Person["* values"] at values sees []"#,
        ]))
    #expect(log.lines[0] == #"KeyedCodable: Person["name"] at name sees "tab\there \"q\" é 😀""#)
  }

  @Test func aDebuggedMappingInAnArrayOfModelsShowsEachElementsPath() throws {
    struct Crowd: Codable, Keyedable {
      var people: [Person] = []
      mutating func map(map: KeyMap) throws { try people <-> map["people"] }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let log = KnowLineLog()
    let json = #"""
      {"people": [{"name": "A", "address": {"city": "X", "zip": "1"}, "values": [1]},
                  {"name": "B", "address": {"city": "Y", "zip": "2"}, "values": [], "nickname": "b"}]}
      """#
    _ = try decode(Crowd.self, from: json, with: .debugging([], output: log.write))
    #expect(
      log.lines.filter { $0.contains(#"["name"]"#) || $0.contains(#"["nickname"]"#) } == [
        #"KeyedCodable: Person["name"] at people[0].name sees "A""#,
        #"KeyedCodable: Person["nickname"] at people[0].nickname sees nothing (the key is missing)"#,
        #"KeyedCodable: Person["name"] at people[1].name sees "B""#,
        #"KeyedCodable: Person["nickname"] at people[1].nickname sees "b""#,
      ])
  }

  @Test func aFlatDebuggedMappingSeesTheWholeObject() throws {
    struct Flat: Codable, Keyedable {
      var address = Address()
      mutating func map(map: KeyMap) throws { try address <-> map[""].debug() }
      init(from decoder: any Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let log = KnowLineLog()
    let flat = try decode(
      Flat.self, from: #"{"city": "Rome", "zip": "00100"}"#,
      with: .debugging([], output: log.write))
    #expect(flat.address.city == "Rome")
    #expect(
      Self.normalized(log.lines)
        == Self.normalized([
          #"KeyedCodable: Flat[""] at the top level sees {"city":"Rome","zip":"00100"}"#
        ]))
  }

  @Test func aDebuggedMappingPrintsEvenWhenTheDecodeThenFails() throws {
    let log = KnowLineLog()
    expectError("typeMismatch", at: ["address"]) {
      try decode(
        Person.self, from: #"{"name": "A", "address": [1, 2]}"#,
        with: .debugging([], output: log.write))
    }
    #expect(
      log.lines == [
        #"KeyedCodable: Person["name"] at name sees "A""#,
        #"KeyedCodable: Person["address"] at address sees [1,2]"#,
      ])
  }

  // MARK: - Per model type

  @Test func aDebuggedTypePrintsTheObjectItSeesWhereverItIs() throws {
    let log = KnowLineLog()
    let json = #"""
      {"group": {"people": [
        {"name": "A", "address": {"city": "X", "zip": "1"}},
        {"name": "B", "address": {"city": "Y", "zip": "2"}}
      ]}}
      """#
    let people = try decode(
      People.self, from: json, with: .debugging([Address.self], output: log.write))
    #expect(people.people.map(\.address.city) == ["X", "Y"])
    #expect(
      Self.normalized(log.lines)
        == Self.normalized([
          #"KeyedCodable: Address at group.people[0].address sees {"city":"X","zip":"1"}"#,
          #"KeyedCodable: Address at group.people[1].address sees {"city":"Y","zip":"2"}"#,
        ]))
  }

  @Test func theRootTypeCanBeDebugged() throws {
    let log = KnowLineLog()
    _ = try decode(
      Address.self, from: #"{"city": "Oslo", "zip": "0150"}"#,
      with: .debugging([Address.self], output: log.write))
    #expect(
      Self.normalized(log.lines)
        == Self.normalized([
          #"KeyedCodable: Address at the top level sees {"city":"Oslo","zip":"0150"}"#
        ]))
  }

  @Test func severalTypesAndDebuggedMappingsShareTheOutputInDecodeOrder() throws {
    let log = KnowLineLog()
    _ = try decode(
      Person.self, from: Self.personJSON,
      with: .debugging([Person.self, Address.self], output: log.write))
    #expect(
      Self.normalized(log.lines)
        == Self.normalized([
          #"KeyedCodable: Person at the top level sees {"name":"  Ann ","address":{"city":"Paris","zip":"75001"},"values":[1,-0.5,1e+21,"x",2.5]}"#,
          #"KeyedCodable: Person["name"] at name sees "  Ann ""#,
          #"KeyedCodable: Person["address"] at address sees {"city":"Paris","zip":"75001"}"#,
          #"KeyedCodable: Address at address sees {"city":"Paris","zip":"75001"}"#,
          #"KeyedCodable: Person["nickname"] at nickname sees nothing (the key is missing)"#,
          #"KeyedCodable: Person["meta.info.deep"] at meta.info.deep sees nothing (an object on the way is missing or null)"#,
          #"KeyedCodable: Person["* values"] at values sees [1,-0.5,1e+21,"x",2.5]"#,
        ]))
  }

  @Test func debuggingWorksAlongsideAReport() throws {
    let log = KnowLineLog()
    let reporter = DecodingReporter()
    _ = try decode(
      Person.self, from: Self.personJSON,
      with: MappingContext.debugging([Address.self], output: log.write).reporting(to: reporter))
    #expect(
      Self.normalized(log.lines).contains(
        Self.normalized(#"KeyedCodable: Address at address sees {"city":"Paris","zip":"75001"}"#)))
    #expect(reporter.report.entries.map(\.pathDescription) == ["values[3]"])
  }

  @Test
  func objectMembersPrintInAStableOrder() throws {
    // The members are in key order in the document, so either document order or key order
    // passes; what must not happen is a line that changes from one decode to the next.
    let json = #"""
      {"address": {"city": "Paris", "zip": "75001"}, "name": "Ann", "values": [1]}
      """#
    for _ in 0..<20 {
      let log = KnowLineLog()
      _ = try decode(
        Person.self, from: json, with: .debugging([Person.self, Address.self], output: log.write))
      #expect(
        log.lines.filter { $0.contains(" sees {") } == [
          #"KeyedCodable: Person at the top level sees {"address":{"city":"Paris","zip":"75001"},"name":"Ann","values":[1]}"#,
          #"KeyedCodable: Person["address"] at address sees {"city":"Paris","zip":"75001"}"#,
          #"KeyedCodable: Address at address sees {"city":"Paris","zip":"75001"}"#,
        ])
    }
  }

  // MARK: - Off by default

  @Test func nothingIsPrintedWithoutDebugOrDebuggedTypes() throws {
    let log = KnowLineLog()
    let json = #"""
      {"group": {"people": [{"name": "A", "address": {"city": "X", "zip": "1"}}]}}
      """#
    _ = try decode(People.self, from: json, with: .debugging([], output: log.write))
    _ = try decode(
      People.self, from: json, with: MappingContext().debugging([], output: log.write))
    #expect(log.lines == [])
  }

  @Test func anOutputAloneDebugsNoType() throws {
    let log = KnowLineLog()
    // Types that are not listed stay quiet, even the ones around a listed type.
    _ = try decode(
      People.self, from: #"{"group": {"people": []}}"#,
      with: .debugging([Address.self], output: log.write))
    #expect(log.lines == [])
  }
}
