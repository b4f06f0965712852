import Foundation
import Testing

@testable import KeyedCodable

/// Finished runs are kept per thread and restarted for the next value (``RunPool``): nothing of
/// one value may leak into the next, a key map kept by a model is never reused, and a kept run
/// holds no reference to the coder it worked for.
@Suite(.serialized, .bothCoders) struct RunPoolTests {
  final class Stash: @unchecked Sendable {
    var map: KeyMap?
    weak var decoder: ForwardingDecoder?
    weak var encoder: ForwardingEncoder?
  }

  /// A model that may keep the key map it was given.
  struct Keeper: Codable, Keyedable, Equatable {
    static let stash = Stash()
    var name: String?
    var city: String?

    init(name: String?, city: String?) {
      self.name = name
      self.city = city
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      if name == nil, Self.stash.map == nil {
        Self.stash.map = map
      }
      try name <-> map["name"]
      try city <-> map["address.city"]
    }
  }

  @Test func aKeyMapAModelKeepsIsNeverHandedToTheNextValue() throws {
    Keeper.stash.map = nil
    let json =
      #"[{"name":"Ann","address":{"city":"Oslo"}},{"name":"Bo"},{"address":{"city":"Rome"}}]"#
    let keepers = try decode([Keeper].self, from: json)
    #expect(
      keepers == [
        Keeper(name: "Ann", city: "Oslo"), Keeper(name: "Bo", city: nil),
        Keeper(name: nil, city: "Rome"),
      ])
    // Later values of the same type decode from their own objects.
    let more = try decode([Keeper].self, from: #"[{"name":"Cy"},{"name":"Di"}]"#)
    #expect(more.map(\.name) == ["Cy", "Di"])
    // The kept map still belongs to its finished run.
    let kept = try #require(Keeper.stash.map)
    var name: String?
    expectError("dataCorrupted", at: []) { try name <-> kept["name"] }
    #expect(name == nil)
    Keeper.stash.map = nil
  }

  /// A decoder of another decoder's data: a class, so a test can see when it is let go.
  final class ForwardingDecoder: Decoder {
    let base: any Decoder
    init(_ base: any Decoder) { self.base = base }
    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
      try base.container(keyedBy: type)
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try base.unkeyedContainer() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
      try base.singleValueContainer()
    }
  }

  /// An encoder writing through another encoder.
  final class ForwardingEncoder: Encoder {
    let base: any Encoder
    init(_ base: any Encoder) { self.base = base }
    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
      base.container(keyedBy: type)
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { base.unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer {
      base.singleValueContainer()
    }
  }

  /// A model that decodes and encodes itself through a ``ForwardingDecoder`` or
  /// ``ForwardingEncoder`` the stash watches.
  struct Forwarded: Codable, Keyedable, Equatable {
    var id = 0
    var tag: String?

    init(id: Int, tag: String?) {
      self.id = id
      self.tag = tag
    }

    init(from decoder: Decoder) throws {
      let forwarding = ForwardingDecoder(decoder)
      RunPoolTests.stash.decoder = forwarding
      try KeyedDecoder(with: forwarding).decode(to: &self)
    }

    func encode(to encoder: Encoder) throws {
      let forwarding = ForwardingEncoder(encoder)
      RunPoolTests.stash.encoder = forwarding
      try KeyedEncoder(with: forwarding).encode(from: self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try tag <-> map["meta.tag"]
    }
  }

  static let stash = Stash()

  @Test func aFinishedRunLetsGoOfItsDecoderAndEncoder() throws {
    let value = try decode(Forwarded.self, from: #"{"id":4,"meta":{"tag":"x"}}"#)
    #expect(value == Forwarded(id: 4, tag: "x"))
    #expect(Self.stash.decoder == nil)
    try expectEncoded(value, #"{"id":4,"meta":{"tag":"x"}}"#)
    #expect(Self.stash.encoder == nil)
  }

  /// A type nested in itself, deeper than a pool keeps runs.
  final class Link: Codable, Keyedable, Equatable {
    var depth = 0
    var next: Link?

    init(depth: Int, next: Link?) {
      self.depth = depth
      self.next = next
    }

    required init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: self)
    }

    func map(map: KeyMap) throws {
      try depth <-> map["meta.depth"]
      try next <-> map["links.next"]
    }

    static func == (lhs: Link, rhs: Link) -> Bool {
      lhs.depth == rhs.depth && lhs.next == rhs.next
    }
  }

  @Test func valuesNestedDeeperThanThePoolKeepsRoundTrip() throws {
    var chain: Link?
    var json = "null"
    for depth in (0..<40).reversed() {
      chain = Link(depth: depth, next: chain)
      json =
        depth == 39
        ? #"{"meta":{"depth":39}}"#
        : #"{"meta":{"depth":\#(depth)},"links":{"next":\#(json)}}"#
    }
    let decoded = try decode(Link.self, from: json)
    #expect(decoded == chain)
    var levels = 0
    var link: Link? = decoded
    while let current = link {
      #expect(current.depth == levels)
      levels += 1
      link = current.next
    }
    #expect(levels == 40)
    try expectEncoded(decoded, json)
  }

  struct Left: Codable, Keyedable, Equatable {
    var value = 0
    init(value: Int) { self.value = value }
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    mutating func map(map: KeyMap) throws { try value <-> map["left.value"] }
  }

  struct Right: Codable, Keyedable, Equatable {
    var value = ""
    var left: Left?
    init(value: String, left: Left?) {
      self.value = value
      self.left = left
    }
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    mutating func map(map: KeyMap) throws {
      try value <-> map["right.value"]
      try left <-> map["right.inner"]
    }
  }

  struct Pair: Codable, Equatable {
    var left: Left
    var right: Right
  }

  @Test func typesTakingTurnsOnOneThreadEachReadTheirOwnKeys() throws {
    let pairs = (0..<30).map {
      Pair(
        left: Left(value: $0),
        right: Right(value: "r\($0)", left: $0.isMultiple(of: 3) ? Left(value: -$0) : nil))
    }
    let json = try encodeJSON(pairs)
    #expect(try decode([Pair].self, from: json) == pairs)
    try expectEncoded(
      [pairs[0], pairs[1]],
      """
      [{"left":{"left":{"value":0}},
        "right":{"right":{"value":"r0","inner":{"left":{"value":0}}}}},
       {"left":{"left":{"value":1}},"right":{"right":{"value":"r1"}}}]
      """)
  }

  @Test func aRunThatThrewLeavesNothingForTheNextValue() throws {
    // The second pair's inner left has no value: its run throws halfway through a right.
    let bad = """
      [{"left":{"left":{"value":1}},"right":{"right":{"value":"a"}}},
       {"left":{"left":{"value":2}},"right":{"right":{"value":"b","inner":{"left":{}}}}}]
      """
    expectError("keyNotFound(value)", at: ["Index 1", "right", "right", "inner", "left"]) {
      _ = try decode([Pair].self, from: bad)
    }
    let good = """
      [{"left":{"left":{"value":3}},"right":{"right":{"value":"c","inner":{"left":{"value":4}}}}}]
      """
    #expect(
      try decode([Pair].self, from: good) == [
        Pair(left: Left(value: 3), right: Right(value: "c", left: Left(value: 4)))
      ])
  }
}

/// The internal pieces behind the pool and the plans' caches.
@Suite struct RunSupportTests {
  @Test func aTypeCacheKeepsOneValuePerSlotAndForgetsOnRequest() {
    final class Marker {}
    // Objects stand in for types: a cache is keyed by identity, and objects' addresses are
    // aligned as metadata addresses are.
    let markers = (0..<64).map { _ in Marker() }
    let ids = markers.map { ObjectIdentifier($0) }
    var cache = TypeCache<Int>()
    for (index, id) in ids.enumerated() {
      cache.set(index, for: id)
    }
    // The last value set in each slot survives; every other lookup misses, never answers wrong.
    var kept = 0
    for (index, id) in ids.enumerated() {
      if let value = cache.value(for: id) {
        #expect(value == index)
        kept += 1
      }
    }
    #expect(kept >= 1 && kept <= 16)
    let last = ids[ids.count - 1]
    #expect(cache.value(for: last) == ids.count - 1)
    cache.remove(last)
    #expect(cache.value(for: last) == nil)
    withExtendedLifetime(markers) {}
  }

  @Test func pathKeysKeepTheirIntegerValues() {
    #expect(PathKey(intValue: 3).stringValue == "3")
    #expect(PathKey(intValue: 3).intValue == 3)
    #expect(PathKey(intValue: .min).intValue == .min)
    #expect(PathKey(intValue: .max).intValue == .max)
    #expect(PathKey(stringValue: "name").intValue == nil)
    #expect(PathKey(index: 2).stringValue == "Index 2")
    #expect(PathKey(index: 2).intValue == 2)
    #expect(PathKey(dictionaryMember: "-2").intValue == -2)
    #expect(PathKey(dictionaryMember: "x2").intValue == nil)
    #expect(PathKey(Key(intValue: 7)).intValue == 7)
    #expect(Key(intValue: .min).intValue == .min)
    #expect(PathKey("a") == PathKey(stringValue: "a"))
    #expect(PathKey(intValue: 1) != PathKey(stringValue: "1"))
  }

  @Test func endedCodersThrowOrDropInsteadOfReachingAnOldDocument() throws {
    struct Probe: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    let decoder = EndedDecoder()
    #expect(throws: DecodingError.self) { try decoder.container(keyedBy: Probe.self) }
    #expect(throws: DecodingError.self) { try decoder.unkeyedContainer() }
    #expect(throws: DecodingError.self) { try decoder.singleValueContainer() }
    let encoder = EndedEncoder()
    var keyed = encoder.container(keyedBy: Probe.self)
    try keyed.encode(1, forKey: Probe(stringValue: "a"))
    var unkeyed = encoder.unkeyedContainer()
    try unkeyed.encode("x")
    var single = encoder.singleValueContainer()
    try single.encode(true)
    #expect(encoder.codingPath.isEmpty)
  }
}
