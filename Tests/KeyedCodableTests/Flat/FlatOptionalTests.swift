import Foundation
import KeyedCodable
import Testing

/// An optional flat value is `nil` when none of the members it reads holds a value, so `nil`
/// encodes to nothing and decodes back to `nil` (issue 13, a fuzz finding).
@Suite(.bothCoders) struct FlatOptionalTests {
  // MARK: - The model of the issue: a synthesized member type, all optional

  struct Paging: Codable, Equatable {
    var next: String?
    var prev: String?
  }

  struct Page: Codable, Keyedable, Equatable {
    var title: String?
    var paging: Paging?

    init() {}

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try title <-> map["title"]
      try paging <-> map[""]
    }
  }

  @Test func optionalFlatIsNilWhenNoneOfItsMembersIsPresent() throws {
    var page = Page()
    page.title = "t"
    try expectEncoded(page, #"{"title":"t"}"#)
    let decoded = try decode(Page.self, from: try encodeJSON(page))
    #expect(decoded == page)
    #expect(decoded.paging == nil)
    #expect(try decode(Page.self, from: "{}").paging == nil)
  }

  @Test func optionalFlatIsNilWhenItsMembersAreNull() throws {
    let page = try decode(Page.self, from: #"{"title":"t","next":null,"prev":null}"#)
    #expect(page.paging == nil)
    #expect(page.title == "t")
  }

  @Test func optionalFlatIsSetWhenOneMemberIsPresent() throws {
    let page = try roundTrip(Page.self, #"{"title":"t","next":"n2"}"#)
    #expect(page.paging == Paging(next: "n2", prev: nil))
    try expectEncoded(page, #"{"title":"t","next":"n2"}"#)
  }

  @Test func optionalFlatOfTheWrongTypeStillThrows() {
    expectError("typeMismatch", at: ["next"]) {
      try decode(Page.self, from: #"{"next":3}"#)
    }
  }

  @Test func aNullDocumentGivesANilFlatValueAsAnEmptyObjectDoes() throws {
    struct OnlyFlat: Codable, Keyedable, Equatable {
      var paging: Paging?
      init(from decoder: Decoder) throws {
        try KeyedDecoder(with: decoder).decode(to: &self)
      }
      mutating func map(map: KeyMap) throws {
        try paging <-> map[""]
      }
    }
    #expect(try decode(OnlyFlat.self, from: "null").paging == nil)
    #expect(try decode(OnlyFlat.self, from: "{}").paging == nil)
    // A member mapping still needs an object: a null document is not one.
    expectError("valueNotFound", at: []) { try decode(Page.self, from: "null") }
  }

  // MARK: - Mixed member types

  struct Location: Codable, Equatable {
    var latitude: Double
    var longitude: Double
    var label: String?
  }

  struct Place: Codable, Keyedable, Equatable {
    var name: String?
    var location: Location?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try name <-> map["name"]
      try location <-> map[""]
    }
  }

  @Test(arguments: [
    (#"{"name":"x"}"#, nil),
    (#"{"name":"x","latitude":1}"#, nil),
    (#"{"name":"x","label":"here"}"#, nil),
    (#"{"name":"x","latitude":1,"longitude":null}"#, nil),
    (
      #"{"name":"x","latitude":1,"longitude":2}"#,
      Location(latitude: 1, longitude: 2, label: nil)
    ),
    (
      #"{"name":"x","latitude":1,"longitude":2,"label":"here"}"#,
      Location(latitude: 1, longitude: 2, label: "here")
    ),
  ])
  func mixedMembersFollowTheRequiredOnesAndThePresentOnes(json: String, expected: Location?)
    throws
  {
    let place = try roundTrip(Place.self, json)
    #expect(place.location == expected)
    #expect(place.name == "x")
  }

  // MARK: - Keyedable member types, nested flat inside flat

  struct Stamp: Codable, Keyedable, Equatable {
    var created: String?
    var author: String?

    init(created: String? = nil, author: String? = nil) {
      self.created = created
      self.author = author
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try created <-> map["meta.created"]
      try author <-> map["meta.author.name"]
    }
  }

  struct Audit: Codable, Keyedable, Equatable {
    var stamp: Stamp?
    var reviewer: String?

    init(stamp: Stamp? = nil, reviewer: String? = nil) {
      self.stamp = stamp
      self.reviewer = reviewer
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try stamp <-> map[""]
      try reviewer <-> map["reviewer"]
    }
  }

  struct Document: Codable, Keyedable, Equatable {
    var id: Int?
    var audit: Audit?

    init(id: Int? = nil, audit: Audit? = nil) {
      self.id = id
      self.audit = audit
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try audit <-> map[""]
    }
  }

  @Test func aKeyedableFlatValueIsNilWhenItsKeyPathsAreAbsent() throws {
    // Empty intermediate objects hold no member: the encoder never writes them.
    for json in [#"{"id":1}"#, #"{"id":1,"meta":{}}"#, #"{"id":1,"meta":{"author":{}}}"#] {
      let document = try decode(Document.self, from: json)
      #expect(document == Document(id: 1), "\(json)")
      try expectEncoded(document, #"{"id":1}"#)
    }
  }

  @Test func nestedFlatValuesAreSetFromTheInnermostPresentMember() throws {
    let json = #"{"id":1,"meta":{"author":{"name":"Ann"}}}"#
    let document = try roundTrip(Document.self, json)
    #expect(document == Document(id: 1, audit: Audit(stamp: Stamp(author: "Ann"))))
    try expectEncoded(document, json)

    let reviewed = try roundTrip(Document.self, #"{"reviewer":"Bo"}"#)
    #expect(reviewed == Document(audit: Audit(reviewer: "Bo")))
  }

  @Test func nilNestedFlatValuesRoundTrip() throws {
    for value in [
      Document(id: 2), Document(id: 2, audit: Audit(reviewer: "Bo")),
      Document(audit: Audit(stamp: Stamp(created: "today"))),
    ] {
      let decoded = try decode(Document.self, from: try encodeJSON(value))
      #expect(decoded == value)
    }
  }

  // MARK: - Flat inside arrays

  struct Feed: Codable, Keyedable, Equatable {
    var pages: [Page] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try pages <-> map["data.pages"]
    }
  }

  @Test func everyElementOfAnArrayDecidesItsOwnFlatValue() throws {
    let json = #"{"data":{"pages":[{"title":"a"},{"title":"b","prev":"a"},{},{"next":"d"}]}}"#
    let feed = try roundTrip(Feed.self, json)
    #expect(feed.pages.map(\.paging) == [nil, Paging(prev: "a"), nil, Paging(next: "d")])
    try expectEncoded(feed, json)
  }

  // MARK: - Members that hold containers

  struct Links: Codable, Equatable {
    var tags: [String]?
    var extra: Paging?
  }

  struct Post: Codable, Keyedable, Equatable {
    var links: Links?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try links <-> map[""]
    }
  }

  @Test func anEmptyArrayOrObjectMemberIsAPresentValue() throws {
    // Synthesized Codable writes `[]` and `{}` for non-nil members, so they round-trip.
    for (json, expected) in [
      (#"{"tags":[]}"#, Links(tags: [])),
      (#"{"extra":{}}"#, Links(extra: Paging())),
      ("{}", nil),
      (#"{"tags":null,"extra":null}"#, nil),
    ] {
      let post = try roundTrip(Post.self, json)
      #expect(post.links == expected, "\(json)")
    }
  }

  // MARK: - If-present and non-optional flat values are unchanged

  struct Defaults: Codable, Keyedable {
    var paging = Paging(next: "keep", prev: nil)
    var required = Paging()

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try paging <?> map[""]
      try required <-> map[""]
    }
  }

  @Test func anIfPresentFlatValueKeepsItsValueWhenNoneOfItsMembersIsPresent() throws {
    let empty = try decode(Defaults.self, from: "{}")
    #expect(empty.paging == Paging(next: "keep", prev: nil))
    // A non-optional flat value is required: it decodes whatever members are there.
    #expect(empty.required == Paging())

    let present = try decode(Defaults.self, from: #"{"prev":"p"}"#)
    #expect(present.paging == Paging(next: nil, prev: "p"))
    #expect(present.required == Paging(next: nil, prev: "p"))
  }
}
