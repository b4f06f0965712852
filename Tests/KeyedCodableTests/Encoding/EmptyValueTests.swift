import Foundation
import KeyedCodable
import Testing

/// Values that write nothing, or that hand a super encoder nothing, inside `Keyedable` models:
/// an empty object is written for them, as Foundation's `JSONEncoder` writes one, also where
/// their members join another object (flat values, values merged with deeper mappings) and
/// where two writes of one place are compared.
@Suite(.bothCoders) struct EmptyValueTests {
  /// Writes a member, then asks for a super encoder and writes nothing through it.
  struct WithUnusedSuper: Codable, Equatable {
    var number = 1
    /// Whether the super encoder is `superEncoder()` rather than `superEncoder(forKey: "p")`.
    var usesDefaultKey = false

    init(usesDefaultKey: Bool = false) {
      self.usesDefaultKey = usesDefaultKey
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      number = try container.decode(Int.self, forKey: "n")
      usesDefaultKey = container.contains("super")
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(number, forKey: "n")
      if usesDefaultKey {
        _ = container.superEncoder()
      } else {
        _ = container.superEncoder(forKey: "p")
      }
    }
  }

  /// Writes what ``WithUnusedSuper`` writes, with an empty nested container for `"p"`.
  struct WithEmptyMember: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(1, forKey: "n")
      _ = container.nestedContainer(keyedBy: AnyKey.self, forKey: "p")
    }
  }

  /// Writes nothing at all.
  struct Nothing: Codable, Equatable {
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
  }

  /// A flat value whose super encoder writes nothing, next to a member of the model.
  struct Flat: Codable, Keyedable {
    var name = "a"
    var extras = WithUnusedSuper()

    init() {}

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try name <-> map["name"]
      try extras <-> map[""]
    }
  }

  @Test func aFlatValuesUnusedSuperEncoderWritesAnEmptyObject() throws {
    var flat = Flat()
    try expectEncoded(flat, #"{"name": "a", "n": 1, "p": {}}"#)
    flat.extras = WithUnusedSuper(usesDefaultKey: true)
    try expectEncoded(flat, #"{"name": "a", "n": 1, "super": {}}"#)
    #expect(try roundTrip(Flat.self, #"{"name": "b", "n": 2, "super": {}}"#).extras.number == 2)
  }

  /// A value at a key path that another mapping continues: its members and the deeper mapping
  /// share one object.
  struct Merged: Codable, Keyedable {
    var extras = WithUnusedSuper()
    var deeper = true

    init() {}

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try extras <-> map["x"]
      try deeper <-> map["x.deeper"]
    }
  }

  @Test func aMergedValuesUnusedSuperEncoderWritesAnEmptyObject() throws {
    try expectEncoded(Merged(), #"{"x": {"n": 1, "p": {}, "deeper": true}}"#)
  }

  /// Writes one key path twice: with a value that hands its super encoder nothing and with
  /// one that writes the same members.
  struct TwiceWithSuper: Encodable, Keyedable {
    var first = WithUnusedSuper()
    var second = WithEmptyMember()

    mutating func map(map: KeyMap) throws {
      try first ->> map["x"]
      try second ->> map["x"]
    }
  }

  /// Writes one key path twice: with a value that writes nothing and with an empty dictionary.
  struct TwiceEmpty: Encodable, Keyedable {
    var first = Nothing()
    var second: [String: Int] = [:]

    mutating func map(map: KeyMap) throws {
      try first ->> map["x"]
      try second ->> map["x"]
    }
  }

  /// Two writes of one place are compared as what the encoder writes: a value that writes
  /// nothing is an empty object, and so is a super encoder nothing is written through. (Fixed:
  /// they were compared as `null` and as a missing member, and the equal writes threw.)
  @Test func writesThatLeaveEmptyObjectsCompareAsEmptyObjects() throws {
    try expectEncoded(TwiceWithSuper(), #"{"x": {"n": 1, "p": {}}}"#)
    try expectEncoded(TwiceEmpty(), #"{"x": {}}"#)
  }

  /// A value that writes nothing, mapped to a key, is an empty object there.
  struct HoldsNothing: Codable, Keyedable {
    var nothing = Nothing()
    var list = [Nothing()]

    init() {}

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try nothing <-> map["a.nothing"]
      try list <-> map["a.list"]
    }
  }

  @Test func aValueThatWritesNothingIsAnEmptyObject() throws {
    try expectEncoded(HoldsNothing(), #"{"a": {"nothing": {}, "list": [{}]}}"#)
  }
}
