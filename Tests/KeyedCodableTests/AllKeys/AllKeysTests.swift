import Foundation
import KeyedCodable
import Testing

/// Enumerating members with `keys.all` and reading each one back exactly.
@Suite(.bothCoders) struct AllKeysTests {
  struct Versions: Decodable, Keyedable {
    var notes: [String: String] = [:]
    var rootMembers: [String] = []
    var keyPaths: [[String]] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      guard case .decoding(let keys) = map.type else { return }
      rootMembers = keys.all.map(\.stringValue).sorted()
      for key in keys.all(for: "release.versions") {
        var note: String?
        try note <<- map[key]
        notes[key.stringValue] = note
        keyPaths.append(key.path)
      }
    }
  }

  @Test func listedKeysReadBackExactlyTheirMember() throws {
    let json = """
      {"release":{"versions":{"v1.2":"dots","* draft":"marker","":"empty","a.b.c":"path","plain":"p"}},
       "v1":{"2":"decoy"},"other":1}
      """
    let value = try decode(Versions.self, from: json)
    #expect(value.rootMembers == ["other", "release", "v1"])
    #expect(
      value.notes == [
        "v1.2": "dots", "* draft": "marker", "": "empty", "a.b.c": "path", "plain": "p",
      ])
    #expect(Set(value.keyPaths) == Set(value.notes.keys.map { ["release", "versions", $0] }))
  }

  @Test(arguments: [
    "{}", #"{"release":null}"#, #"{"release":{"versions":7}}"#, #"{"release":[1]}"#,
  ])
  func thereAreNoKeysWhereThereIsNoObject(_ json: String) throws {
    let value = try decode(Versions.self, from: json)
    #expect(value.notes.isEmpty)
  }

  struct Nested: Decodable, Keyedable {
    var counts: [String: Int] = [:]

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      guard case .decoding(let keys) = map.type else { return }
      for group in keys.all(for: CodingKeys.groups) {
        for member in keys.all(for: group) {
          var count = 0
          try count <<- map[member]
          counts[member.path.joined(separator: "/")] = count
        }
      }
    }

    enum CodingKeys: String, CodingKey {
      case groups = "data.groups"
    }
  }

  @Test func listedKeysCanBeListedInTurn() throws {
    let value = try decode(
      Nested.self, from: #"{"data":{"groups":{"a.x":{"1":1,"2":2},"b":{"3":3}}}}"#)
    #expect(value.counts == ["data/groups/a.x/1": 1, "data/groups/a.x/2": 2, "data/groups/b/3": 3])
  }

  @Test func aRequiredValueAtAListedKeyReportsItsPath() {
    expectError("typeMismatch", at: ["data", "groups", "a", "1"]) {
      try decode(Nested.self, from: #"{"data":{"groups":{"a":{"1":"one"}}}}"#)
    }
  }

  struct Literal: Codable, Keyedable {
    var dotted: String?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try dotted <-> map[Key(stringValue: "a.b")]
    }
  }

  @Test func aKeyMadeFromAStringIsNeverParsed() throws {
    let value = try roundTrip(Literal.self, #"{"a.b":"literal","a":{"b":"nested"}}"#)
    #expect(value.dotted == "literal")
    try expectEncoded(value, #"{"a.b":"literal"}"#)
  }

  @Test func keysCompareByPath() {
    #expect(Key(stringValue: "a") == Key(stringValue: "a"))
    #expect(Key(stringValue: "a") != Key(stringValue: "b"))
    #expect(Key(intValue: 3).stringValue == "3")
    #expect(Key(intValue: 3).intValue == 3)
    #expect(Key(stringValue: "a").path == ["a"])
  }
}
