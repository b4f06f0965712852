import Foundation
import KeyedCodable
import Testing

/// Optional storage reads absent values as `nil`; non-optional storage requires its key.
@Suite(.bothCoders) struct OptionalityTests {
  struct Optionals: Codable, Keyedable {
    var name: String?
    var nick: String!
    var city: String?
    var zip: Int!

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try name <-> map["name"]
      try nick <-> map["nick"]
      try city <-> map["address.city"]
      try zip <-> map["address.geo.zip"]
    }
  }

  @Test(arguments: [
    "{}",
    #"{"name":null,"nick":null,"address":null}"#,
    #"{"address":{}}"#,
    #"{"address":{"city":null,"geo":null}}"#,
    #"{"address":{"geo":{"zip":null}}}"#,
  ])
  func optionalStorageIsNilWhenTheKeyOrItsPathIsAbsent(_ json: String) throws {
    let value = try decode(Optionals.self, from: json)
    #expect(value.name == nil)
    #expect(value.nick == nil)
    #expect(value.city == nil)
    #expect(value.zip == nil)
    try expectEncoded(value, "{}")
  }

  @Test func optionalStorageReadsPresentValues() throws {
    let value = try roundTrip(
      Optionals.self,
      #"{"name":"Ann","nick":"A","address":{"city":"Oslo","geo":{"zip":150}}}"#)
    #expect(value.name == "Ann")
    #expect(value.nick == "A")
    #expect(value.city == "Oslo")
    #expect(value.zip == 150)
  }

  @Test func optionalStorageThrowsForAPresentValueOfTheWrongType() {
    expectError("typeMismatch", at: ["name"]) { try decode(Optionals.self, from: #"{"name":5}"#) }
    expectError("typeMismatch", at: ["address", "geo", "zip"]) {
      try decode(Optionals.self, from: #"{"address":{"geo":{"zip":"150"}}}"#)
    }
  }

  @Test func optionalStorageThrowsWhenAMemberOnThePathIsNotAnObject() {
    expectError("typeMismatch", at: ["address"]) {
      try decode(Optionals.self, from: #"{"address":[1,2]}"#)
    }
    expectError("typeMismatch", at: ["address", "geo"]) {
      try decode(Optionals.self, from: #"{"address":{"geo":7}}"#)
    }
  }

  struct Required: Codable, Keyedable {
    var id = 0
    var name = ""
    var zip = 0

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try name <-> map["name"]
      try zip <-> map["address.geo.zip"]
    }
  }

  @Test func nonOptionalStorageRequiresItsKey() throws {
    expectError("keyNotFound(id)", at: []) { try decode(Required.self, from: "{}") }
    expectError("valueNotFound", at: ["id"]) { try decode(Required.self, from: #"{"id":null}"#) }
    expectError("keyNotFound(address)", at: []) {
      try decode(Required.self, from: #"{"id":1,"name":"n"}"#)
    }
    expectError("valueNotFound", at: ["address"]) {
      try decode(Required.self, from: #"{"id":1,"name":"n","address":null}"#)
    }
    expectError("keyNotFound(geo)", at: ["address"]) {
      try decode(Required.self, from: #"{"id":1,"name":"n","address":{}}"#)
    }
    expectError("valueNotFound", at: ["address", "geo"]) {
      try decode(Required.self, from: #"{"id":1,"name":"n","address":{"geo":null}}"#)
    }
    expectError("keyNotFound(zip)", at: ["address", "geo"]) {
      try decode(Required.self, from: #"{"id":1,"name":"n","address":{"geo":{}}}"#)
    }
    let value = try roundTrip(Required.self, #"{"id":1,"name":"n","address":{"geo":{"zip":9}}}"#)
    #expect(value.id == 1)
    #expect(value.name == "n")
    #expect(value.zip == 9)
  }

  @Test func errorsCarryThePathFromTheRootOfTheDocument() {
    expectError("keyNotFound(geo)", at: ["Index 1", "address"]) {
      try decode(
        [Required].self,
        from: #"[{"id":1,"name":"n","address":{"geo":{"zip":9}}},{"id":2,"name":"m","address":{}}]"#
      )
    }
  }

  @Test func missingMembersAreNamedWithTheMappingsKeyPath() {
    do {
      _ = try decode(Required.self, from: #"{"id":1,"name":"n","address":{"geo":null}}"#)
      Issue.record("expected an error")
    } catch {
      #expect(message(of: error).contains("\"address.geo.zip\""))
    }
  }

  struct RequiredOptionals: Codable, Keyedable {
    var id: Int!
    var note: String?

    init(id: Int?, note: String?) {
      self.id = id
      self.note = note
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"].required()
      try note <-> map["meta.note"].required()
    }
  }

  @Test func requiredMarksOptionalStorageAsMandatory() throws {
    expectError("keyNotFound(id)", at: []) { try decode(RequiredOptionals.self, from: "{}") }
    expectError("valueNotFound", at: ["id"]) {
      try decode(RequiredOptionals.self, from: #"{"id":null}"#)
    }
    expectError("valueNotFound", at: ["meta"]) {
      try decode(RequiredOptionals.self, from: #"{"id":1,"meta":null}"#)
    }
    expectError("keyNotFound(note)", at: ["meta"]) {
      try decode(RequiredOptionals.self, from: #"{"id":1,"meta":{}}"#)
    }
    let value = try roundTrip(RequiredOptionals.self, #"{"id":1,"meta":{"note":"n"}}"#)
    #expect(value.id == 1)
    #expect(value.note == "n")
  }

  @Test func encodingARequiredNilThrows() {
    expectError("invalidValue", at: ["meta", "note"]) {
      try encodeJSON(RequiredOptionals(id: 1, note: nil))
    }
    expectError("invalidValue", at: ["id"]) {
      try encodeJSON(RequiredOptionals(id: nil, note: "n"))
    }
  }

  struct IfPresent: Codable, Keyedable {
    var count = 7
    var label: String? = "default"
    var deep = 3

    init() {}

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try count <?> map["count"]
      try label <?> map["label"].required()
      try deep <<? map["a.b.c"]
    }
  }

  @Test(arguments: ["{}", #"{"count":null,"label":null,"a":null}"#, #"{"a":{"b":null}}"#])
  func ifPresentOperatorsKeepTheValueWhenTheKeyIsAbsent(_ json: String) throws {
    let value = try decode(IfPresent.self, from: json)
    #expect(value.count == 7)
    #expect(value.label == "default")
    #expect(value.deep == 3)
  }

  @Test func ifPresentOperatorsReadPresentValues() throws {
    let value = try decode(IfPresent.self, from: #"{"count":2,"label":"x","a":{"b":{"c":4}}}"#)
    #expect(value.count == 2)
    #expect(value.label == "x")
    #expect(value.deep == 4)
  }

  @Test func ifPresentOperatorsStillRejectTheWrongType() {
    expectError("typeMismatch", at: ["count"]) {
      try decode(IfPresent.self, from: #"{"count":"2"}"#)
    }
    expectError("typeMismatch", at: ["a"]) { try decode(IfPresent.self, from: #"{"a":true}"#) }
  }

  @Test func ifPresentOperatorsEncodeLikeTheirPlainForms() throws {
    var value = IfPresent()
    try expectEncoded(value, #"{"count":7,"label":"default"}"#)
    value.label = nil
    try expectEncoded(value, #"{"count":7}"#)
  }

  struct Directional: Codable, Keyedable {
    var serverID: Int?
    var clientTag = "tag-1"

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try serverID <<- map["id"]
      try clientTag ->> map["tag"]
    }
  }

  @Test func decodeOnlyAndEncodeOnlyMappingsWorkInOneDirection() throws {
    let value = try decode(Directional.self, from: #"{"id":5,"tag":"from-server"}"#)
    #expect(value.serverID == 5)
    #expect(value.clientTag == "tag-1")
    try expectEncoded(value, #"{"tag":"tag-1"}"#)
  }

  struct Box<Value: Codable>: Encodable, Keyedable {
    var value: Value

    mutating func map(map: KeyMap) throws {
      try value <-> map["v.w"]
    }
  }

  struct OptionalBox: Decodable {
    var box = Box<Int?>(value: 5)

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &box)
    }
  }

  @Test func optionalTypesReachingGenericCodeKeepOptionalRules() throws {
    #expect(try decode(OptionalBox.self, from: "{}").box.value == nil)
    #expect(try decode(OptionalBox.self, from: #"{"v":null}"#).box.value == nil)
    #expect(try decode(OptionalBox.self, from: #"{"v":{"w":3}}"#).box.value == 3)
    expectError("typeMismatch", at: ["v", "w"]) {
      try decode(OptionalBox.self, from: #"{"v":{"w":"3"}}"#)
    }
    try expectEncoded(Box<Int?>(value: nil), "{}")
    try expectEncoded(Box<Int?>(value: 4), #"{"v":{"w":4}}"#)
  }
}
