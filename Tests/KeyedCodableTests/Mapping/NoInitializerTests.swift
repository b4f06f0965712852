import Foundation
import KeyedCodable
import Testing

// A Keyedable type that can be made empty needs no `init(from:)`: conforming is enough, on
// every coder. One that can't says so when it decodes, instead of decoding through the
// compiler's synthesized `init(from:)` while it encodes through `map(map:)`.

/// A struct whose properties all have default values, and no initializer.
struct NoInitBook: Codable, Keyedable, Equatable {
  var id = 0
  var title = ""
  var author: String?
  var pages: Int?
  var tags: [String] = []

  mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
    try title <-> map["title"]
    try author <-> map["author.name"]
    try pages <-> map["meta.stats.pages"]
    try tags <-> map["meta.* tags"]
  }
}

/// A final class with default values and no initializer.
final class NoInitShelf: Codable, Keyedable {
  var books: [NoInitBook] = []
  var label: String?

  func map(map: KeyMap) throws {
    try books <-> map["books"]
    try label <-> map["info.label"]
  }
}

/// A class that others derive from declares its empty value `required`.
class NoInitVehicle: Codable, Keyedable {
  var make = ""
  var wheels: Int?

  required init() {}

  func map(map: KeyMap) throws {
    try make <-> map["make"]
    try wheels <-> map["specs.wheels"]
  }
}

final class NoInitTruck: NoInitVehicle {
  var payload: Double?

  override func map(map: KeyMap) throws {
    try super.map(map: map)
    try payload <-> map["specs.payload"]
  }
}

/// A struct with a `let` property and no initializer: it has no empty value.
struct NoEmptyValue: Codable, Keyedable {
  let id: Int

  mutating func map(map: KeyMap) throws {}
}

/// An encode-only struct with `let` properties still compiles and encodes.
struct EncodeOnlyRequest: Encodable, Keyedable {
  let userID: Int

  mutating func map(map: KeyMap) throws {
    try userID ->> map["user.id"]
  }
}

@Suite(.bothCoders)
struct NoInitializerTests {
  static let bookJSON = #"""
    {"id": 42, "title": "Dune", "author": {"name": "Frank Herbert"},
     "meta": {"stats": {"pages": 412}, "tags": ["sf", 3, "classic"]}}
    """#

  @Test func aStructWithDefaultsDecodesAndEncodesThroughItsMappings() throws {
    let book = try decode(NoInitBook.self, from: Self.bookJSON)
    #expect(
      book
        == NoInitBook(
          id: 42, title: "Dune", author: "Frank Herbert", pages: 412, tags: ["sf", "classic"]))
    try expectEncoded(
      book,
      #"{"id":42,"title":"Dune","author":{"name":"Frank Herbert"},"meta":{"stats":{"pages":412},"tags":["sf","classic"]}}"#
    )
    // The key path is followed, not looked up as one member: absent values are nil.
    #expect(
      try decode(NoInitBook.self, from: #"{"id":1,"title":"x","meta":{"tags":[]}}"#).author == nil)
  }

  @Test func classesWithDefaultsDecodeAndEncode() throws {
    let shelf = try decode(
      NoInitShelf.self, from: #"{"books":[\#(Self.bookJSON)],"info":{"label":"SF"}}"#)
    #expect(shelf.books.map(\.title) == ["Dune"])
    #expect(shelf.label == "SF")
    let truck = try decode(
      NoInitTruck.self, from: #"{"make":"Volvo","specs":{"wheels":6,"payload":12.5}}"#)
    #expect(truck.make == "Volvo")
    #expect(truck.wheels == 6)
    #expect(truck.payload == 12.5)
    try expectEncoded(truck, #"{"make":"Volvo","specs":{"wheels":6,"payload":12.5}}"#)
  }

  @Test func aTypeWithoutAnEmptyValueThrowsNamingTheCause() throws {
    expectError("dataCorrupted", at: ["items", "Index 0"]) {
      try decode([String: [NoEmptyValue]].self, from: #"{"items":[{"id":1},{"id":2}]}"#)
    }
    do {
      _ = try decode(NoEmptyValue.self, from: #"{"id":1}"#)
      Issue.record("decoded through the synthesized init(from:)")
    } catch {
      #expect(message(of: error).contains("NoEmptyValue needs an empty value to fill in"))
      #expect(message(of: error).contains("init(from:)"))
    }
    try expectEncoded(EncodeOnlyRequest(userID: 7), #"{"user":{"id":7}}"#)
  }
}

@Suite struct NoInitializerOtherCodersTests {
  @Test func aStructWithDefaultsWorksOnPropertyLists() throws {
    let book = NoInitBook(id: 7, title: "Solaris", author: "Lem", pages: 204, tags: ["pl"])
    for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
      let encoder = PropertyListEncoder()
      encoder.outputFormat = format
      let data = try encoder.encode(book)
      #expect(try PropertyListDecoder().decode(NoInitBook.self, from: data) == book)
    }
  }
}
