import Foundation
import KeyedCodable
import Testing

/// The flat key: a value decoded from, and encoded into, the members of the current object.
@Suite(.bothCoders) struct FlatTests {
  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
  }

  struct RequiredFlat: Codable, Keyedable {
    var point = Point(x: 0, y: 0)
    var name = ""

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try point <-> map[""]
      try name <-> map["name"]
    }
  }

  @Test func aRequiredFlatValueReadsTheCurrentObject() throws {
    let value = try roundTrip(RequiredFlat.self, #"{"x":1,"y":2,"name":"p"}"#)
    #expect(value.point == Point(x: 1, y: 2))
    #expect(value.name == "p")
    try expectEncoded(value, #"{"x":1,"y":2,"name":"p"}"#)
    expectError("keyNotFound(y)", at: []) {
      try decode(RequiredFlat.self, from: #"{"x":1,"name":"p"}"#)
    }
  }

  struct OptionalFlat: Codable, Keyedable {
    var point: Point?
    var renamed: Point!

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try point <-> map[""]
      try renamed <<- map["~", KeyOptions(flat: "~")]
    }
  }

  @Test func anOptionalFlatValueIsNilWhenAMemberItNeedsIsAbsent() throws {
    for json in [#"{"x":1}"#, #"{"x":1,"y":null}"#, "{}"] {
      let value = try decode(OptionalFlat.self, from: json)
      #expect(value.point == nil)
      #expect(value.renamed == nil)
      try expectEncoded(value, "{}")
    }
  }

  @Test func anOptionalFlatValueStillRejectsAMemberOfTheWrongType() {
    expectError("typeMismatch", at: ["y"]) {
      try decode(OptionalFlat.self, from: #"{"x":1,"y":"2"}"#)
    }
  }

  @Test func aFlatMarkerCanBeReplaced() throws {
    let value = try decode(OptionalFlat.self, from: #"{"x":1,"y":2}"#)
    #expect(value.point == Point(x: 1, y: 2))
    #expect(value.renamed == Point(x: 1, y: 2))
  }

  struct Inner: Codable, Keyedable {
    var street: String?
    var number: Int?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try street <-> map["address.street"]
      try number <-> map["address.number"]
    }
  }

  struct Outer: Codable, Keyedable {
    var inner: Inner?
    var city: String?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try inner <-> map[""]
      try city <-> map["address.city"]
    }
  }

  @Test func aFlatKeyedableValueSharesNestedObjectsWithItsNeighbours() throws {
    let json = #"{"address":{"street":"Main","number":5,"city":"Oslo"}}"#
    let value = try roundTrip(Outer.self, json)
    #expect(value.inner?.street == "Main")
    #expect(value.inner?.number == 5)
    #expect(value.city == "Oslo")
    try expectEncoded(value, json)
  }

  struct Clash: Encodable, Keyedable {
    var point = Point(x: 1, y: 2)
    var x = 5

    mutating func map(map: KeyMap) throws {
      try point <-> map[""]
      try x <-> map["x"]
    }
  }

  @Test func aFlatValueAndAMappingWritingTheSameKeyThrow() {
    expectError("invalidValue", at: ["x"]) { try encodeJSON(Clash()) }
  }

  struct ScalarFlat: Encodable, Keyedable {
    var text: String? = "plain"

    mutating func map(map: KeyMap) throws {
      try text <-> map[""]
    }
  }

  @Test func aFlatValueThatIsNotAnObjectCannotBeEncoded() {
    expectError("invalidValue", at: []) { try encodeJSON(ScalarFlat()) }
  }
}
