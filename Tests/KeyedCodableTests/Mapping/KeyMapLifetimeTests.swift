import Foundation
import KeyedCodable
import Testing

/// A key map, and every mapping it made, is only valid during its `map(map:)` call.
/// Serialized: the tests share the models' static stashes.
@Suite(.serialized, .bothCoders) struct KeyMapLifetimeTests {
  /// Where a model leaves a mapping it should not keep.
  final class Stash: @unchecked Sendable {
    var mapping: Mapping?
  }

  struct Keeper: Codable, Keyedable {
    static let stash = Stash()
    var name: String?
    var city: String?
    /// Use the mapping kept by an earlier run instead of a new one.
    var reuse = false

    init(reuse: Bool) {
      self.reuse = reuse
    }

    init(from decoder: Decoder) throws {
      reuse = decoder.userInfo[.reuse] as? Bool == true
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try name <-> map["name"]
      let mapping = map["address.city"]
      if reuse, let kept = Self.stash.mapping {
        try city <-> kept
      } else {
        Self.stash.mapping = mapping
        try city <-> mapping
      }
    }
  }

  @Test func aMappingKeptAfterItsRunThrowsWhenADecodeUsesItAgain() throws {
    let json = #"{"name":"Ann","address":{"city":"Oslo"}}"#
    // A first decode keeps its mapping (and warms the plan's fast path).
    let first = try decode(Keeper.self, from: json)
    #expect(first.city == "Oslo")
    // The second decode of the same type reads through the kept mapping: it must throw, not
    // read the first run's cached object.
    let decoder = JSONDecoder()
    decoder.userInfo[.reuse] = true
    do {
      _ = try decoder.decode(Keeper.self, from: Data(json.utf8))
      Issue.record("expected an error")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.isEmpty)
      #expect(
        context.debugDescription
          == "The key map for \"address.city\" was used after the map(map:) call it was passed "
          + "to returned; a KeyMap is only valid during that call.")
    }
  }

  @Test func aMappingKeptAfterItsRunThrowsWhenAnEncodeUsesIt() throws {
    _ = try encodeJSON(Keeper(reuse: false))
    do {
      _ = try encodeJSON(Keeper(reuse: true))
      Issue.record("expected an error")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.debugDescription.contains("was used after the map(map:) call"))
    }
  }

  @Test func aMappingKeptByADecodeThrowsInAnEncode() throws {
    _ = try decode(Keeper.self, from: #"{"name":"Ann"}"#)
    // The mapping belongs to the finished decode, so it reports the misuse as that decode's.
    expectError("dataCorrupted", at: []) { try encodeJSON(Keeper(reuse: true)) }
  }

  @Test func aMappingUsedAfterItsRunThrowsForEveryKindOfKey() throws {
    struct Listing: Decodable, Keyedable {
      static let stash = Stash()
      var values: [String: Int] = [:]
      init(from decoder: Decoder) throws {
        try KeyedDecoder(with: decoder).decode(to: &self)
      }
      mutating func map(map: KeyMap) throws {
        guard case .decoding(let keys) = map.type else { return }
        for key in keys.all {
          Self.stash.mapping = map[key]
          var value: Int?
          try value <<- map[key]
          values[key.stringValue] = value
        }
      }
    }
    let listing = try decode(Listing.self, from: #"{"a":1}"#)
    #expect(listing.values == ["a": 1])
    var value: Int?
    let kept = try #require(Listing.stash.mapping)
    expectError("dataCorrupted", at: []) { try value <<- kept }
    expectError("dataCorrupted", at: []) { try value <<? kept }
  }

  /// Elements of one array: the JSON coder reuses the run of an element for the next one, unless
  /// something still refers to its key map.
  struct Sibling: Codable, Keyedable {
    static let stash = Stash()
    var reuse = false
    var city: String?

    init(reuse: Bool, city: String?) {
      self.reuse = reuse
      self.city = city
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try reuse <-> map["reuse"]
      if reuse, let kept = Self.stash.mapping {
        try city <-> kept
      } else {
        let mapping = map["address.city"]
        Self.stash.mapping = mapping
        try city <-> mapping
      }
    }
  }

  @Test func aMappingKeptByAnElementThrowsWhenTheNextElementUsesIt() throws {
    let json =
      #"[{"reuse":false,"address":{"city":"Oslo"}},{"reuse":true,"address":{"city":"Rome"}}]"#
    do {
      let siblings = try KeyedJSONDecoder().decode([Sibling].self, from: Data(json.utf8))
      Issue.record("read \(siblings.map(\.city)) through a kept mapping")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.contains("was used after the map(map:) call"))
    }
    do {
      let data = try KeyedJSONEncoder().encode([
        Sibling(reuse: false, city: "Oslo"), Sibling(reuse: true, city: "Rome"),
      ])
      Issue.record("wrote \(String(decoding: data, as: UTF8.self)) through a kept mapping")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.debugDescription.contains("was used after the map(map:) call"))
    }
    // Without a kept mapping, the same elements read and write each their own values.
    Sibling.stash.mapping = nil
    let plain =
      #"[{"reuse":false,"address":{"city":"Oslo"}},{"reuse":false,"address":{"city":"Rome"}}]"#
    let siblings = try KeyedJSONDecoder().decode([Sibling].self, from: Data(plain.utf8))
    #expect(siblings.map(\.city) == ["Oslo", "Rome"])
  }

  // MARK: - Re-entrant types

  /// A type whose mapping decodes values of its own type: runs of one type nest.
  final class Node: Codable, Keyedable, Equatable {
    var name: String?
    var children: [Node]?
    var first: Node?

    required init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: self)
    }

    func map(map: KeyMap) throws {
      try name <-> map["meta.name"]
      try children <-> map["* children"]
      try first <-> map["links.first"]
    }

    static func == (lhs: Node, rhs: Node) -> Bool {
      lhs.name == rhs.name && lhs.children == rhs.children && lhs.first == rhs.first
    }
  }

  @Test func nestedRunsOfOneTypeEachFollowTheirOwnObject() throws {
    let json = """
      {"meta":{"name":"root"},"links":{"first":{"meta":{"name":"a"}}},
       "children":[{"meta":{"name":"a"},"children":[{"meta":{"name":"a1"}},7]},{"meta":{"name":"b"}}]}
      """
    let root = try roundTrip(Node.self, json)
    #expect(root.name == "root")
    #expect(root.first?.name == "a")
    #expect(root.children?.map(\.name) == ["a", "b"])
    #expect(root.children?.first?.children?.map(\.name) == ["a1"])
    try expectEncoded(
      root,
      """
      {"meta":{"name":"root"},"links":{"first":{"meta":{"name":"a"}}},
       "children":[{"meta":{"name":"a"},"children":[{"meta":{"name":"a1"}}]},{"meta":{"name":"b"}}]}
      """)
  }
}

extension CodingUserInfoKey {
  fileprivate static let reuse = CodingUserInfoKey(rawValue: "lifetime.reuse")!
}
