import Foundation
import KeyedCodable
import Testing

/// What the encoder writes: merged objects, no silent overwrites.
@Suite(.bothCoders) struct EncodingTests {
  struct User: Codable, Equatable {
    var name: String
  }

  struct Merge: Codable, Keyedable {
    var user: User?
    var city: String?
    var cityFirst: Bool

    init(user: User?, city: String?, cityFirst: Bool) {
      self.user = user
      self.city = city
      self.cityFirst = cityFirst
    }

    init(from decoder: Decoder) throws {
      cityFirst = false
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      if cityFirst {
        try city <-> map["data.user.city"]
        try user <-> map["data.user"]
      } else {
        try user <-> map["data.user"]
        try city <-> map["data.user.city"]
      }
    }
  }

  @Test(arguments: [false, true])
  func aValueAndAKeyPathBelowItMergeIntoOneObject(cityFirst: Bool) throws {
    let value = Merge(user: User(name: "Ann"), city: "Oslo", cityFirst: cityFirst)
    try expectEncoded(value, #"{"data":{"user":{"name":"Ann","city":"Oslo"}}}"#)
    let decoded = try decode(Merge.self, from: try encodeJSON(value))
    #expect(decoded.user == User(name: "Ann"))
    #expect(decoded.city == "Oslo")
  }

  @Test func aMergedValueAloneIsWrittenAsItself() throws {
    try expectEncoded(
      Merge(user: User(name: "Ann"), city: nil, cityFirst: false),
      #"{"data":{"user":{"name":"Ann"}}}"#)
    try expectEncoded(
      Merge(user: nil, city: "Oslo", cityFirst: true), #"{"data":{"user":{"city":"Oslo"}}}"#)
  }

  struct ScalarUnderMembers: Encodable, Keyedable {
    var id = 5
    var detail: Int? = 6
    var detailFirst: Bool

    mutating func map(map: KeyMap) throws {
      if detailFirst {
        try detail <-> map["a.b"]
        try id <-> map["a"]
      } else {
        try id <-> map["a"]
        try detail <-> map["a.b"]
      }
    }
  }

  @Test(arguments: [false, true])
  func aMemberUnderAKeyHoldingAScalarThrows(detailFirst: Bool) {
    expectError("invalidValue", at: ["a"]) {
      try encodeJSON(ScalarUnderMembers(detailFirst: detailFirst))
    }
  }

  @Test func aScalarWithoutMembersBelowItIsWritten() throws {
    var value = ScalarUnderMembers(detailFirst: false)
    value.detail = nil
    try expectEncoded(value, #"{"a":5}"#)
  }

  struct Duplicate: Encodable, Keyedable {
    var first = 1
    var second: Int? = 2

    mutating func map(map: KeyMap) throws {
      try first <-> map["meta.x"]
      try second <-> map["meta.x"]
    }
  }

  @Test func twoMappingsWritingOneKeyThrowInsteadOfOverwriting() throws {
    expectError("invalidValue", at: ["meta", "x"]) { try encodeJSON(Duplicate()) }
    var value = Duplicate()
    value.second = nil
    try expectEncoded(value, #"{"meta":{"x":1}}"#)
  }

  struct MemberClash: Encodable, Keyedable {
    var user = User(name: "Ann")
    var name = "Bob"

    mutating func map(map: KeyMap) throws {
      try user <-> map["data.user"]
      try name <-> map["data.user.name"]
    }
  }

  @Test func aMergedValuesMemberAndAMappingWritingOneKeyThrow() {
    expectError("invalidValue", at: ["data", "user", "name"]) { try encodeJSON(MemberClash()) }
  }

  @Test func errorsInsideArraysCarryThePathFromTheRoot() {
    let values = [ScalarUnderMembers(detailFirst: false), ScalarUnderMembers(detailFirst: true)]
    do {
      _ = try encodeJSON(values)
      Issue.record("expected an error")
    } catch {
      #expect(shape(of: error)?.path == ["Index 0", "a"])
      #expect(message(of: error).contains("\"a\""))
    }
  }

  struct Ordered: Encodable, Keyedable {
    var values = (0..<40).map { "value \($0)" }

    mutating func map(map: KeyMap) throws {
      for index in values.indices {
        try values[index] <-> map["group\(index % 4).item\(index)"]
      }
    }
  }

  @Test func encodingTheSameValueTwiceGivesTheSameBytes() throws {
    let first = try encodeJSON(Ordered())
    for _ in 0..<5 {
      #expect(try encodeJSON(Ordered()) == first)
    }
  }

  struct Conditional: Codable, Keyedable {
    var includeExtra: Bool
    var extra = User(name: "x")
    var detail = "d"

    init(includeExtra: Bool) {
      self.includeExtra = includeExtra
    }

    init(from decoder: Decoder) throws {
      includeExtra = true
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try includeExtra <-> map["flag"]
      if includeExtra {
        try extra <-> map["data.extra"]
      }
      try detail <-> map["data.extra.detail"]
    }
  }

  @Test func mappingsThatChangeBetweenEncodesStillMerge() throws {
    try expectEncoded(
      Conditional(includeExtra: false), #"{"flag":false,"data":{"extra":{"detail":"d"}}}"#)
    try expectEncoded(
      Conditional(includeExtra: true), #"{"flag":true,"data":{"extra":{"name":"x","detail":"d"}}}"#)
    try expectEncoded(
      Conditional(includeExtra: false), #"{"flag":false,"data":{"extra":{"detail":"d"}}}"#)
    try expectEncoded(
      Conditional(includeExtra: true), #"{"flag":true,"data":{"extra":{"name":"x","detail":"d"}}}"#)
  }
}
