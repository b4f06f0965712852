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

  /// Every kind of held value: the standard scalars held as they are, and the others (an
  /// array, a nested model, a transformed value, a nil optional) held as closures.
  struct Mixed: Codable, Keyedable, Equatable {
    var flag = true
    var count = 3
    var ratio = 0.5
    var title = "t\u{E9}\"x"
    var list = [1, 2]
    var nested = Ticket()
    var missing: Int?
    var small: Int8 = -4
    var day = Date(timeIntervalSince1970: 86_400)

    mutating func map(map: KeyMap) throws {
      try flag <-> map["a.flag"]
      try count <-> map["b.count"]
      try ratio <-> map["a.ratio"]
      try list <-> map["b.list"]
      try title <-> map["a.inner.title"]
      try nested <-> map["c"]
      try missing <-> map["a.missing"]
      try small <-> map["b.small"]
      try day <-> map["a.day"].using(.unixSeconds)
    }
  }

  @Test func everyKindOfHeldValueIsWrittenInItsPlace() throws {
    var mixed = Mixed()
    mixed.nested = Self.issue
    let text = String(decoding: try KeyedJSONEncoder().encode(mixed), as: UTF8.self)
    #expect(
      text
        == #"{"a":{"flag":true,"ratio":0.5,"inner":{"title":"t\#u{E9}\"x"},"day":86400},"#
        + #""b":{"count":3,"list":[1,2],"small":-4},"c":"# + Self.grouped + "}")
    #expect(try KeyedJSONDecoder().decode(Mixed.self, from: Data(text.utf8)) == mixed)
  }

  /// 40 mappings alternating between two objects: past the first writes, the held writes are
  /// sorted once when `map(map:)` returns instead of kept in order as they come.
  struct Alternating: Codable, Keyedable, Equatable {
    var values = (0..<40).map { $0 }
    var names = (0..<40).map { "n\($0)" }

    mutating func map(map: KeyMap) throws {
      for index in 0..<40 {
        let object = index % 2 == 0 ? "even" : "odd"
        try values[index] <-> map["\(object).v\(index)"]
        try names[index] <-> map["\(object == "even" ? "odd" : "even").s\(index)"]
      }
    }
  }

  @Test func manyHeldWritesKeepTheOrderOfTheirObjects() throws {
    var model = Alternating()
    model.values = model.values.map { $0 * 3 }
    // "even" is reached first: its members in mapping order, then "odd"'s.
    var even: [String] = []
    var odd: [String] = []
    for index in 0..<40 {
      let value = #""v\#(index)":\#(index * 3)"#
      let name = #""s\#(index)":"n\#(index)""#
      if index % 2 == 0 {
        even.append(value)
        odd.append(name)
      } else {
        odd.append(value)
        even.append(name)
      }
    }
    let expected =
      #"{"even":{"# + even.joined(separator: ",") + #"},"odd":{"# + odd.joined(separator: ",")
      + "}}"
    for _ in 0..<3 {
      let text = String(decoding: try KeyedJSONEncoder().encode(model), as: UTF8.self)
      #expect(text == expected)
    }
    let data = try KeyedJSONEncoder().encode([model, model])
    #expect(try KeyedJSONDecoder().decode([Alternating].self, from: data) == [model, model])
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
