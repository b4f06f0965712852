import Foundation
import KeyedCodable
import Testing

/// A `nil` optional whose mapping the plan resolved returns at once, inlined into the model,
/// when nothing asks for `null`. Every value below is encoded after one that recorded the plan
/// (the elements of one array follow the plan of the first), so each `nil` takes that path; it
/// must write exactly what the general path writes: nothing, `null` when the mapping or the
/// context asks for it, an error when the mapping is required, and only the selected keys.
@Suite("Encoding: nil optionals of a plan", .bothCoders)
struct NilOptionalTests {
  /// Optional members of standard and other types, one at a nested key path and one that asks
  /// for `null`.
  struct Profile: Codable, Keyedable, Equatable {
    var id = 0
    var nickname: String?
    var score: Double?
    var tags: [String]?
    var origin: Point?
    var city: String?
    var middle: String?

    init() {}

    init(id: Int, full: Bool) {
      self.id = id
      guard full else { return }
      nickname = "kit"
      score = 2.5
      tags = ["a"]
      origin = Point(x: 1, y: 2)
      city = "Oslo"
      middle = "J"
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try nickname <-> map["nickname"]
      try score <-> map["score"]
      try tags <-> map["tags"]
      try origin <-> map["origin"]
      try city <-> map["address.city"]
      try middle <-> map["middle"].explicitNull()
    }
  }

  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
  }

  /// An optional member that must be there.
  struct Strict: Codable, Keyedable, Equatable {
    var id = 0
    var code: String?

    init(id: Int, code: String?) {
      self.id = id
      self.code = code
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try code <-> map["code"].required()
    }
  }

  static let full =
    #"{"id":1,"nickname":"kit","score":2.5,"tags":["a"],"origin":{"x":1,"y":2},"#
    + #""address":{"city":"Oslo"},"middle":"J"}"#

  @Test("write nothing, not even the objects on their way, and null when the mapping asks")
  func nilWritesNothing() throws {
    // The second element of each array follows the plan the first recorded.
    try expectEncoded(
      [Profile(id: 1, full: true), Profile(id: 2, full: false), Profile(id: 3, full: true)],
      "[\(Self.full),{\"id\":2,\"middle\":null},\(Self.full.replacing("\"id\":1", with: "\"id\":3"))]"
    )
    // Each member nil alone, after a full value.
    var values = [Profile(id: 1, full: true)]
    var expected = [Self.full]
    for member in 0..<6 {
      var value = Profile(id: 10 + member, full: true)
      var json = Self.full.replacing("\"id\":1", with: "\"id\":\(10 + member)")
      switch member {
      case 0:
        value.nickname = nil
        json = json.replacing(#""nickname":"kit","#, with: "")
      case 1:
        value.score = nil
        json = json.replacing(#""score":2.5,"#, with: "")
      case 2:
        value.tags = nil
        json = json.replacing(#""tags":["a"],"#, with: "")
      case 3:
        value.origin = nil
        json = json.replacing(#""origin":{"x":1,"y":2},"#, with: "")
      case 4:
        value.city = nil
        json = json.replacing(#""address":{"city":"Oslo"},"#, with: "")
      default:
        value.middle = nil
        json = json.replacing(#""middle":"J""#, with: #""middle":null"#)
      }
      values.append(value)
      expected.append(json)
    }
    try expectEncoded(values, "[\(expected.joined(separator: ","))]")
    // Encoded one at a time too: each value starts a run of its own on the plan.
    for (value, json) in zip(values, expected) {
      try expectEncoded(value, json)
    }
  }

  @Test("write null for each nil when the context asks for explicit nulls")
  func contextNulls() throws {
    let values = [Profile(id: 1, full: true), Profile(id: 2, full: false)]
    try expectEncoded(
      values, with: .writingExplicitNulls(),
      "[\(Self.full),{\"id\":2,\"nickname\":null,\"score\":null,\"tags\":null,"
        + #""origin":null,"address":{"city":null},"middle":null}]"#)
    // And nothing again without the context, on the same plan.
    try expectEncoded(values, "[\(Self.full),{\"id\":2,\"middle\":null}]")
  }

  @Test("throw for a nil the mapping requires, at its own path")
  func requiredNil() throws {
    try expectEncoded([Strict(id: 1, code: "a")], #"[{"id":1,"code":"a"}]"#)
    expectError("invalidValue", at: ["Index 1", "code"]) {
      try encodeJSON([Strict(id: 1, code: "a"), Strict(id: 2, code: nil)])
    }
    expectError("invalidValue", at: ["code"]) {
      try encodeJSON(Strict(id: 2, code: nil))
    }
  }

  @Test("write only the keys a context selects")
  func selection() throws {
    let values = [Profile(id: 1, full: true), Profile(id: 2, full: false)]
    try expectEncoded(
      values, with: .selecting(["id", "middle"], in: Profile.self),
      #"[{"id":1,"middle":"J"},{"id":2,"middle":null}]"#)
  }

  @Test("decode back to the values they came from")
  func roundTrips() throws {
    let values = [Profile(id: 1, full: true), Profile(id: 2, full: false)]
    let decoded = try decode([Profile].self, from: try encodeJSON(values))
    #expect(decoded == values)
  }
}
