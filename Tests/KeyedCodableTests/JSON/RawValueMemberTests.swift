import Foundation
import KeyedCodable
import Testing

/// Members of a `RawRepresentable` type (an enum with raw values) in a plain `Codable` type's
/// keyed container: the decoder gives them their place without a coding path node, and makes
/// the path, the same as Foundation's, when an error or a container asks for it.
struct RawValueMemberTests {
  enum Status: String, Codable, Equatable {
    case open, closed
  }

  enum Level: Int, Codable, Equatable {
    case low = 1
    case high = 3
  }

  struct Ticket: Codable, Equatable {
    var id: Int
    var status: Status
    var level: Level?
  }

  let pair = DecoderPair()

  @Test func membersDecodeAsFoundationDecodesThem() throws {
    let json = #"""
      [{"id":1,"status":"open","level":3},{"id":2,"status":"closed"},
       {"id":3,"status":"open","level":null}]
      """#
    let outcome = pair.expectSame([Ticket].self, from: json)
    #expect(
      outcome
        == .value([
          Ticket(id: 1, status: .open, level: .high), Ticket(id: 2, status: .closed, level: nil),
          Ticket(id: 3, status: .open, level: nil),
        ]))
  }

  @Test func badRawValuesThrowWithTheMembersPath() throws {
    let unknown = pair.expectSame(
      [Ticket].self, from: #"[{"id":1,"status":"open"},{"id":2,"status":"merged"}]"#)
    #expect(unknown == .error(CodingErrorShape("dataCorrupted", at: ["Index 1#1", "status"])))
    let wrongType = pair.expectSame([Ticket].self, from: #"[{"id":1,"status":5}]"#)
    #expect(
      wrongType == .error(CodingErrorShape("typeMismatch(String)", at: ["Index 0#0", "status"])))
    let optionalUnknown = pair.expectSame(
      [String: Ticket].self, from: #"{"a":{"id":1,"status":"open","level":7}}"#)
    #expect(optionalUnknown == .error(CodingErrorShape("dataCorrupted", at: ["a", "level"])))
    let optionalWrongType = pair.expectSame(
      Ticket.self, from: #"{"id":1,"status":"open","level":"high"}"#)
    #expect(optionalWrongType == .error(CodingErrorShape("typeMismatch(Int)", at: ["level"])))
  }

  /// A raw-value type that decodes itself from an object, and notes the paths it was given.
  struct Code: RawRepresentable, Decodable, Equatable {
    var rawValue: String
    var path: [String] = []
    var containerPath: [String] = []
    var status: Status = .open

    init(rawValue: String) {
      self.rawValue = rawValue
    }

    enum CodingKeys: String, CodingKey {
      case code, status
    }

    init(from decoder: any Decoder) throws {
      path = decoder.codingPath.map(\.stringValue)
      let container = try decoder.container(keyedBy: CodingKeys.self)
      containerPath = container.codingPath.map(\.stringValue)
      rawValue = try container.decode(String.self, forKey: .code)
      status = try container.decode(Status.self, forKey: .status)
    }
  }

  struct Coded: Decodable, Equatable {
    var name: String
    var code: Code
    var spare: Code?
  }

  @Test func aRawValueTypeThatOpensAContainerGetsItsPath() throws {
    let json = #"""
      [{"name":"a","code":{"code":"x","status":"closed"},"spare":{"code":"y","status":"open"}}]
      """#
    let outcome = pair.expectSame([Coded].self, from: json)
    let coded = try #require(outcome.success?.first)
    #expect(coded.code.path == ["Index 0", "code"])
    #expect(coded.code.containerPath == ["Index 0", "code"])
    #expect(coded.spare?.path == ["Index 0", "spare"])
    #expect(coded.code.status == .closed)
    let missing = pair.expectSame([Coded].self, from: #"[{"name":"a","code":{"status":"open"}}]"#)
    #expect(missing == .error(CodingErrorShape("keyNotFound(code)", at: ["Index 0#0", "code"])))
    let nested = pair.expectSame(
      [Coded].self, from: #"[{"name":"a","code":{"code":"x","status":"shut"}}]"#)
    #expect(
      nested == .error(CodingErrorShape("dataCorrupted", at: ["Index 0#0", "code", "status"])))
  }

  /// A raw-value type that reads its path, then one value.
  struct Probe: RawRepresentable, Decodable, Equatable {
    var rawValue: Int
    var path: [String] = []

    init(rawValue: Int) {
      self.rawValue = rawValue
    }

    init(from decoder: any Decoder) throws {
      path = decoder.codingPath.map(\.stringValue)
      rawValue = try decoder.singleValueContainer().decode(Int.self)
    }
  }

  struct Probed: Decodable, Equatable {
    var probe: Probe
    var probes: [Probe]
    var inner: [String: Probe]
  }

  @Test func aRawValueTypeReadsThePathFoundationGivesIt() throws {
    let json = #"{"probe":1,"probes":[2,3],"inner":{"k":4}}"#
    let probed = try #require(pair.expectSame(Probed.self, from: json).success)
    #expect(probed.probe.path == ["probe"])
    #expect(probed.probes.map(\.path) == [["probes", "Index 0"], ["probes", "Index 1"]])
    #expect(probed.inner["k"]?.path == ["inner", "k"])
  }

  /// A `Keyedable` model with a raw value, nested in a plain `Codable` type: its mappings'
  /// errors have the whole path.
  struct Tag: RawRepresentable, Codable, Keyedable, Equatable {
    var rawValue = ""

    init() {}

    init?(rawValue: String) {
      self.rawValue = rawValue
    }

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try rawValue <-> map["name.text"]
    }
  }

  struct Tagged: Codable, Equatable {
    var tag: Tag
  }

  @Test func aKeyedableRawValueModelKeepsItsPath() throws {
    let good = pair.expectSame([Tagged].self, from: #"[{"tag":{"name":{"text":"t"}}}]"#)
    #expect(good.success?.first?.tag.rawValue == "t")
    let bad = pair.expectSame([Tagged].self, from: #"[{"tag":{"name":{"text":1}}}]"#)
    #expect(
      bad
        == .error(
          CodingErrorShape("typeMismatch(String)", at: ["Index 0#0", "tag", "name", "text"])))
  }
}
