import Foundation
import KeyedCodable
import Testing

/// Members of a `RawRepresentable` type (an enum with raw values) written through a plain
/// `Codable` type's keyed container: the encoder gives them their place without a coding path
/// node, and makes the path, the same as Foundation's, when an error, a container or the value
/// itself asks for it.
struct RawValueMemberEncodingTests {
  /// The decoding tests' types (see ``RawValueMemberTests``).
  typealias Status = RawValueMemberTests.Status
  typealias Ticket = RawValueMemberTests.Ticket

  let pair = EncoderPair()

  @Test func membersEncodeAsFoundationEncodesThem() throws {
    let tickets = [
      Ticket(id: 1, status: .open, level: .high), Ticket(id: 2, status: .closed, level: nil),
    ]
    #expect(
      pair.expectSame(tickets)
        == .value(#"[{"id":1,"level":3,"status":"open"},{"id":2,"status":"closed"}]"#))
    #expect(
      pair.expectSame(["a": tickets[0]])
        == .value(#"{"a":{"id":1,"level":3,"status":"open"}}"#))
  }

  /// A number with a raw value, written by the standard library's `encode(to:)`.
  struct Measure: RawRepresentable, Codable, Equatable {
    var rawValue: Double
  }

  struct Reading: Codable, Equatable {
    var name: String
    var measure: Measure
    var spare: Measure?
  }

  @Test func aBadRawValueThrowsWithTheMembersPath() throws {
    let good = Reading(name: "a", measure: Measure(rawValue: 1.5), spare: nil)
    let bad = Reading(name: "b", measure: Measure(rawValue: .nan), spare: nil)
    let badSpare = Reading(
      name: "c", measure: Measure(rawValue: 2), spare: .init(rawValue: -.infinity))
    #expect(
      pair.expectSame([good, bad])
        == .error(CodingErrorShape("invalidValue", at: ["Index 1#1", "measure"])))
    #expect(
      pair.expectSame(["k": [good, badSpare]])
        == .error(CodingErrorShape("invalidValue", at: ["k", "Index 1#1", "spare"])))
    #expect(
      pair.expectSame([good])
        == .value(#"[{"measure":1.5,"name":"a"}]"#))
  }

  /// A raw-value type that writes its raw value and the coding path its encoder reports.
  struct Probe: RawRepresentable, Encodable, Equatable {
    var rawValue: Int

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(
        "\(rawValue)@" + encoder.codingPath.map(CodingErrorShape.describe).joined(separator: "."))
    }
  }

  struct Probed: Encodable, Equatable {
    var probe: Probe
    var probes: [Probe]
    var inner: [String: Probe]
    var spare: Probe?
    var rows: [[String: Probe]]
  }

  @Test func aRawValueTypeReadsThePathFoundationGivesIt() throws {
    let probed = Probed(
      probe: Probe(rawValue: 1), probes: [Probe(rawValue: 2)], inner: ["k": Probe(rawValue: 3)],
      spare: Probe(rawValue: 4), rows: [[:], ["r": Probe(rawValue: 5)]])
    #expect(
      pair.expectSame(probed)
        == .value(
          #"{"inner":{"k":"3@inner.k"},"probe":"1@probe","probes":["2@probes.Index 0#0"],"#
            + #""rows":[{},{"r":"5@rows.Index 1#1.r"}],"spare":"4@spare"}"#))
  }

  /// A raw-value type that writes itself as an object, with a raw-value member of its own, and
  /// notes the paths it is given before and after that member.
  struct Code: RawRepresentable, Encodable, Equatable {
    var rawValue: String
    var status = Status.open
    var ratio = Measure(rawValue: 1)
    var list: [Measure] = []
    var probe = Probe(rawValue: 7)

    init(rawValue: String) {
      self.rawValue = rawValue
    }

    enum CodingKeys: String, CodingKey {
      case code, status, before, after, container, ratio, list, probe
    }

    func encode(to encoder: any Encoder) throws {
      let before = encoder.codingPath.map(CodingErrorShape.describe).joined(separator: ".")
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(rawValue, forKey: .code)
      try container.encode(before, forKey: .before)
      try container.encode(status, forKey: .status)
      try container.encode(probe, forKey: .probe)
      try container.encode(
        encoder.codingPath.map(CodingErrorShape.describe).joined(separator: "."), forKey: .after)
      try container.encode(
        container.codingPath.map(CodingErrorShape.describe).joined(separator: "."),
        forKey: .container)
      try container.encode(ratio, forKey: .ratio)
      var list = container.nestedUnkeyedContainer(forKey: .list)
      for measure in self.list {
        try list.encode(measure)
      }
    }
  }

  struct Coded: Encodable, Equatable {
    var name: String
    var code: Code
    var spare: Code?
  }

  @Test func aRawValueTypeThatOpensAContainerGetsItsPath() throws {
    var code = Code(rawValue: "x")
    code.status = .closed
    let coded = [Coded(name: "a", code: code, spare: Code(rawValue: "y"))]
    #expect(
      pair.expectSame(coded)
        == .value(
          #"[{"code":{"after":"Index 0#0.code","before":"Index 0#0.code","code":"x","#
            + #""container":"Index 0#0.code","list":[],"probe":"7@Index 0#0.code.probe","ratio":1,"status":"closed"},"name":"a","#
            + #""spare":{"after":"Index 0#0.spare","before":"Index 0#0.spare","code":"y","#
            + #""container":"Index 0#0.spare","list":[],"probe":"7@Index 0#0.spare.probe","ratio":1,"status":"open"}}]"#
        ))
    var badRatio = Code(rawValue: "z")
    badRatio.ratio = Measure(rawValue: .nan)
    #expect(
      pair.expectSame([Coded(name: "b", code: Code(rawValue: "x"), spare: badRatio)])
        == .error(CodingErrorShape("invalidValue", at: ["Index 0#0", "spare", "ratio"])))
    var badElement = Code(rawValue: "z")
    badElement.list = [Measure(rawValue: 1), Measure(rawValue: .infinity)]
    // Foundation leaves the nested container's key out (see the JSON coder's differences).
    let outcomes = pair.encode(["m": Coded(name: "c", code: badElement, spare: nil)])
    #expect(
      outcomes.ours
        == .error(CodingErrorShape("invalidValue", at: ["m", "code", "list", "Index 1#1"])))
    #expect(
      outcomes.foundation
        == .error(CodingErrorShape("invalidValue", at: ["m", "code", "Index 1#1"])))
  }

  /// A `Keyedable` model with a raw value, nested in a plain `Codable` type: its mappings are
  /// written at its place, and their errors have the whole path.
  struct Tag: RawRepresentable, Codable, Keyedable, Equatable {
    var rawValue = 0.0

    init() {}

    init?(rawValue: Double) {
      self.rawValue = rawValue
    }

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    func encode(to encoder: any Encoder) throws {
      try KeyedEncoder(with: encoder).encode(from: self)
    }

    mutating func map(map: KeyMap) throws {
      try rawValue <-> map["name.value"]
    }
  }

  struct Tagged: Codable, Equatable {
    var id: Int
    var tag: Tag
  }

  @Test func aKeyedableRawValueModelKeepsItsPath() throws {
    let good = [Tagged(id: 1, tag: Tag(rawValue: 2) ?? Tag())]
    #expect(pair.expectSame(good) == .value(#"[{"id":1,"tag":{"name":{"value":2}}}]"#))
    let bad = [
      Tagged(id: 1, tag: Tag(rawValue: 2) ?? Tag()),
      Tagged(id: 2, tag: Tag(rawValue: .nan) ?? Tag()),
    ]
    #expect(
      pair.expectSame(bad)
        == .error(CodingErrorShape("invalidValue", at: ["Index 1#1", "tag", "name", "value"])))
  }
}
