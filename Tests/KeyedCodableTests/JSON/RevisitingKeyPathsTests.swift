import Foundation
import KeyedCodable
import Testing

/// A model whose key paths come back to an object after leaving it is written by the JSON
/// coder's own writer, in a fixed order: objects in the order the mappings first reach them,
/// each object's members in mapping order.
struct RevisitingKeyPathsTests {
  struct Ticket: Codable, Keyedable, Equatable {
    var login = ""
    var tags: [String] = []
    var name = ""
    var avatar: String?
    var number = 0
    var labelName = ""
    var labelColor = ""

    mutating func map(map: KeyMap) throws {
      try login <-> map["user.login"]
      try tags <-> map["tags"]
      try name <-> map["user.name"]
      try labelName <-> map["label.name"]
      try avatar <-> map["user.profile.avatar"]
      try number <-> map["number"]
      try labelColor <-> map["label.color"]
    }
  }

  static let issue = Ticket(
    login: "ann", tags: ["a", "b"], name: "Ann", avatar: "x.png", number: 7, labelName: "bug",
    labelColor: "red")

  static let grouped =
    #"{"user":{"login":"ann","name":"Ann","profile":{"avatar":"x.png"}},"tags":["a","b"],"#
    + #""label":{"name":"bug","color":"red"},"number":7}"#

  @Test func membersAreGroupedByObjectInTheOrderTheMappingsFirstReachThem() throws {
    let data = try KeyedJSONEncoder().encode(Self.issue)
    #expect(String(decoding: data, as: UTF8.self) == Self.grouped)
    // The same bytes every time (Foundation's order changes from run to run).
    for _ in 0..<5 {
      #expect(try KeyedJSONEncoder().encode(Self.issue) == data)
    }
    #expect(try KeyedJSONDecoder().decode(Ticket.self, from: data) == Self.issue)
    #expect(try JSONDecoder().decode(Ticket.self, from: data) == Self.issue)
  }

  @Test func theSameDocumentAsFoundationsEncoder() throws {
    let ours = try KeyedJSONEncoder().encode(Self.issue)
    let foundation = try JSONEncoder().encode(Self.issue)
    #expect(
      try canonicalJSON(String(decoding: ours, as: UTF8.self))
        == (try canonicalJSON(String(decoding: foundation, as: UTF8.self))))
  }

  @Test func nilOptionalsAndSortedKeysAndArraysOfModels() throws {
    var issue = Self.issue
    issue.avatar = nil
    let data = try KeyedJSONEncoder().encode(issue)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"user":{"login":"ann","name":"Ann"},"tags":["a","b"],"#
        + #""label":{"name":"bug","color":"red"},"number":7}"#)
    let encoder = KeyedJSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(Self.issue), as: UTF8.self)
        == #"{"label":{"color":"red","name":"bug"},"number":7,"tags":["a","b"],"#
        + #""user":{"login":"ann","name":"Ann","profile":{"avatar":"x.png"}}}"#)
    let many = Array(repeating: Self.issue, count: 3)
    #expect(
      String(decoding: try KeyedJSONEncoder().encode(many), as: UTF8.self)
        == "[" + Array(repeating: Self.grouped, count: 3).joined(separator: ",") + "]")
  }

  struct Failing: Codable, Keyedable {
    var a = 1.0
    var b = Double.nan
    var c = 2.0
    mutating func map(map: KeyMap) throws {
      try a <-> map["x.a"]
      try c <-> map["c"]
      try b <-> map["x.b"]
    }
  }

  @Test func anErrorOfAHeldWriteNamesItsPathAndModel() throws {
    do {
      _ = try KeyedJSONEncoder().encode(Failing())
      Issue.record("encoded")
    } catch let error as EncodingError {
      guard case .invalidValue(_, let context) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(context.codingPath.map(\.stringValue) == ["x", "b"])
      #expect(error.readableDescription.contains("(Failing)"), "\(error.readableDescription)")
    }
  }

  struct Conflicting: Codable, Keyedable {
    var whole = ["k": 1]
    var inner = 2
    var other = 3
    mutating func map(map: KeyMap) throws {
      try whole <-> map["a"]
      try other <-> map["b"]
      try inner <-> map["a.k"]
    }
  }

  @Test func aConflictStillThrowsAsOnFoundationsEncoder() throws {
    #expect(throws: EncodingError.self) { try KeyedJSONEncoder().encode(Conflicting()) }
    #expect(throws: EncodingError.self) { try JSONEncoder().encode(Conflicting()) }
  }
}
