import Foundation
import KeyedCodable
import Testing

/// Missing versus null: `Presence<T>` decodes absent, null or a value and encodes each back
/// exactly; `.explicitNull()` per mapping and `MappingContext.writingExplicitNulls()` write
/// `null` for a nil optional.
@Suite("Values: presence and explicit null", .bothCoders)
struct PresenceTests {
  struct ProfilePatch: Codable, Keyedable, Equatable {
    var nickname: Presence<String> = .absent
    var age: Presence<Int> = .absent
    var city: Presence<String> = .absent

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try nickname <-> map["nickname"]
      try age <-> map["age"]
      try city <-> map["address.city"]
    }
  }

  // MARK: - Decoding

  @Test func aMissingKeyIsAbsentNullIsNullAndAValueIsAValue() throws {
    let patch = try decode(ProfilePatch.self, from: #"{"nickname": null, "age": 42}"#)
    #expect(patch.nickname == .null)
    #expect(patch.age == .value(42))
    #expect(patch.city == .absent)
    #expect(patch.nickname.isPresent && patch.nickname.wrapped == nil)
    #expect(patch.age.wrapped == 42)
    #expect(!patch.city.isPresent)
  }

  @Test(arguments: [
    ("{}", Presence<String>.absent),
    (#"{"address": null}"#, .absent),
    (#"{"address": {}}"#, .absent),
    (#"{"address": {"city": null}}"#, .null),
    (#"{"address": {"city": "Oslo"}}"#, .value("Oslo")),
    (#"{"address": {"city": ""}}"#, .value("")),
  ])
  func aNestedKeyPathIsAbsentWhenAnObjectOnTheWayIsMissingOrNull(
    json: String, expected: Presence<String>
  ) throws {
    #expect(try decode(ProfilePatch.self, from: json).city == expected)
  }

  @Test func aPresentValueOfTheWrongTypeFailsAtItsPath() throws {
    expectError("typeMismatch", at: ["age"]) {
      try decode(ProfilePatch.self, from: #"{"age": "42"}"#)
    }
    expectError("typeMismatch", at: ["address", "city"]) {
      try decode(ProfilePatch.self, from: #"{"address": {"city": 1}}"#)
    }
    expectError("typeMismatch", at: ["address"]) {
      try decode(ProfilePatch.self, from: #"{"address": "Oslo"}"#)
    }
  }

  // MARK: - Encoding

  @Test func absentWritesNothingNullWritesNullAndAValueWritesTheValue() throws {
    try expectEncoded(ProfilePatch(), "{}")
    try expectEncoded(
      with(ProfilePatch()) {
        $0.nickname = .null
        $0.age = .value(3)
        $0.city = .null
      }, #"{"nickname": null, "age": 3, "address": {"city": null}}"#)
    try expectEncoded(
      with(ProfilePatch()) { $0.city = .value("Oslo") }, #"{"address": {"city": "Oslo"}}"#)
  }

  @Test(arguments: [
    "{}", #"{"nickname": null}"#, #"{"nickname": "Ann", "age": null}"#,
    #"{"address": {"city": null}}"#, #"{"address": {"city": "Oslo"}, "age": 0}"#,
  ])
  func aPatchReadsBackExactlyAsItWasWritten(json: String) throws {
    let patch = try decode(ProfilePatch.self, from: json)
    try expectEncoded(patch, json)
    #expect(try decode(ProfilePatch.self, from: try encodeJSON(patch)) == patch)
  }

  @Test func presenceSharesItsObjectWithTheMappingsBesideIt() throws {
    struct Address: Codable, Keyedable {
      var city: Presence<String> = .absent
      var zip: String?
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try city <-> map["address.city"]
        try zip <-> map["address.zip"]
      }
    }
    try expectEncoded(
      with(Address()) {
        $0.city = .null
        $0.zip = "0150"
      }, #"{"address": {"city": null, "zip": "0150"}}"#)
    try expectEncoded(with(Address()) { $0.zip = "0150" }, #"{"address": {"zip": "0150"}}"#)
    let address = try decode(Address.self, from: #"{"address": {"zip": "0150"}}"#)
    #expect(address.city == .absent && address.zip == "0150")
  }

  @Test
  func aDefaultForInvalidValuesReplacesAnInvalidPresentValue() throws {
    struct Patch: Codable, Keyedable {
      var limit: Presence<Int> = .absent
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try limit <-> map["limit"].default(10, when: .invalid)
      }
    }
    #expect(try decode(Patch.self, from: "{}").limit == .absent)
    #expect(try decode(Patch.self, from: #"{"limit": null}"#).limit == .null)
    let (patch, report) = try decodeReporting(Patch.self, from: #"{"limit": "many"}"#)
    #expect(patch.limit == .value(10))
    #expect(report == ["Replaced an invalid value with the default 10 at limit via limit"])
  }

  @Test func absentWritesNothingEvenWhenTheContextWritesExplicitNulls() throws {
    try expectEncoded(ProfilePatch(), with: .writingExplicitNulls(), "{}")
    try expectEncoded(
      with(ProfilePatch()) { $0.age = .null }, with: .writingExplicitNulls(), #"{"age": null}"#)
  }

  // MARK: - With transforms, models, operators

  struct LinkPatch: Codable, Keyedable {
    var homepage: Presence<URL> = .absent
    var owner: Presence<Owner> = .absent
    var ids: Presence<[Int]> = .absent
    var readOnly: Presence<Int> = .absent
    var writeOnly: Presence<Int> = .absent

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try homepage <-> map["homepage"].using(.url)
      try owner <-> map["owner"]
      try ids <-> map["* ids"]
      try readOnly <<- map["readOnly"]
      try writeOnly ->> map["writeOnly"]
    }
  }

  struct Owner: Codable, Keyedable, Equatable {
    var name = ""
    var site: URL?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try name <-> map["name"]
      try site <-> map["site"].using(.url)
    }
  }

  @Test func presenceWorksThroughATransform() throws {
    #expect(try decode(LinkPatch.self, from: "{}").homepage == .absent)
    #expect(try decode(LinkPatch.self, from: #"{"homepage": null}"#).homepage == .null)
    #expect(
      try decode(LinkPatch.self, from: #"{"homepage": "https://a.example"}"#).homepage
        == .value(URL(string: "https://a.example")!))
    expectError("dataCorrupted", at: ["homepage"], message: #""" is not a valid URL."#) {
      try decode(LinkPatch.self, from: #"{"homepage": ""}"#)
    }
    try expectEncoded(with(LinkPatch()) { $0.homepage = .null }, #"{"homepage": null}"#)
    try expectEncoded(
      with(LinkPatch()) { $0.homepage = .value(URL(string: "https://b.example")!) },
      #"{"homepage": "https://b.example"}"#)
  }

  @Test func presenceOfANestedModelFailsAtTheFullPathInsideIt() throws {
    let patch = try decode(LinkPatch.self, from: #"{"owner": {"name": "Ann"}}"#)
    #expect(patch.owner == .value(with(Owner()) { $0.name = "Ann" }))
    expectError("dataCorrupted", at: ["owner", "site"]) {
      try decode(LinkPatch.self, from: #"{"owner": {"name": "Ann", "site": ""}}"#)
    }
    expectError("keyNotFound(name)", at: ["owner"]) {
      try decode(LinkPatch.self, from: #"{"owner": {}}"#)
    }
  }

  @Test func presenceOfALossyArrayDropsElementsAndReportsThem() throws {
    let (patch, report) = try decodeReporting(LinkPatch.self, from: #"{"ids": [1, "x", 3]}"#)
    #expect(patch.ids == .value([1, 3]))
    #expect(report == ["Dropped array element at ids[1] via * ids"])
    #expect(try decode(LinkPatch.self, from: #"{"ids": null}"#).ids == .null)
    #expect(try decode(LinkPatch.self, from: "{}").ids == .absent)
    try expectEncoded(with(LinkPatch()) { $0.ids = .value([1, 3]) }, #"{"ids": [1, 3]}"#)
  }

  @Test func theOneWayOperatorsReadOrWriteOnly() throws {
    let patch = try decode(LinkPatch.self, from: #"{"readOnly": null, "writeOnly": 5}"#)
    #expect(patch.readOnly == .null)
    #expect(patch.writeOnly == .absent)
    try expectEncoded(
      with(LinkPatch()) {
        $0.readOnly = .value(1)
        $0.writeOnly = .null
      }, #"{"writeOnly": null}"#)
  }

  @Test func presenceReadsWithTheConversionsOfItsMapping() throws {
    struct Switch: Codable, Keyedable {
      var on: Presence<Bool> = .absent
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws { try on <-> map["on"].converting(.lossy) }
    }
    #expect(try decode(Switch.self, from: #"{"on": "yes"}"#).on == .value(true))
    #expect(try decode(Switch.self, from: #"{"on": 0}"#).on == .value(false))
    #expect(try decode(Switch.self, from: #"{"on": null}"#).on == .null)
    expectError("typeMismatch", at: ["on"]) { try decode(Switch.self, from: #"{"on": 2}"#) }
  }

  // MARK: - Explicit null per mapping

  struct Person: Codable, Keyedable {
    var name = ""
    var middleName: String?
    var nickname: String?
    var homepage: URL?
    var spouse: String?
    var tags: [String]?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try name <-> map["name"]
      try middleName <-> map["middleName"].explicitNull()
      try nickname <-> map["nickname"]
      try homepage <-> map["links.homepage"].using(.url).explicitNull()
      try spouse <-> map["spouse"].explicitNull(false)
      try tags <-> map["* tags"].explicitNull()
    }
  }

  @Test func explicitNullWritesNullForANilOptional() throws {
    try expectEncoded(
      with(Person()) { $0.name = "Ann" },
      #"{"name": "Ann", "middleName": null, "links": {"homepage": null}, "tags": null}"#)
  }

  @Test func explicitNullWritesTheValueWhenThereIsOne() throws {
    try expectEncoded(
      with(Person()) {
        $0.name = "Ann"
        $0.middleName = "B"
        $0.homepage = URL(string: "https://ann.example")
        $0.tags = []
      },
      #"{"name": "Ann", "middleName": "B", "links": {"homepage": "https://ann.example"}, "tags": []}"#
    )
  }

  @Test func explicitNullDoesNotChangeDecoding() throws {
    let person = try decode(
      Person.self, from: #"{"name": "Ann", "middleName": null, "links": null, "tags": null}"#)
    #expect(person.middleName == nil && person.homepage == nil && person.tags == nil)
    #expect(try decode(Person.self, from: #"{"name": "Ann"}"#).middleName == nil)
  }

  @Test func theContextWritesNullForEveryNilOptionalExceptAMappingThatOptsOut() throws {
    try expectEncoded(
      with(Person()) { $0.name = "Ann" }, with: .writingExplicitNulls(),
      #"{"name": "Ann", "middleName": null, "nickname": null, "links": {"homepage": null}, "tags": null}"#
    )
    try expectEncoded(
      with(Person()) { $0.name = "Ann" }, with: .writingExplicitNulls(false),
      #"{"name": "Ann", "middleName": null, "links": {"homepage": null}, "tags": null}"#)
  }

  @Test func theContextReachesNestedModelsAndArraysOfThem() throws {
    struct Team: Codable, Keyedable {
      var lead = Person()
      var members: [Person] = []
      var deputy: Person?
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try lead <-> map["lead"]
        try members <-> map["members"]
        try deputy <-> map["deputy"]
      }
    }
    let person =
      #"{"name": "", "middleName": null, "nickname": null, "links": {"homepage": null}, "tags": null}"#
    try expectEncoded(
      with(Team()) { $0.members = [Person()] }, with: .writingExplicitNulls(),
      #"{"lead": \#(person), "members": [\#(person)], "deputy": null}"#)
  }

  // MARK: - Explicit null with required and if-present

  struct Strict: Codable, Keyedable {
    var id: Int?
    var code: String?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try id <-> map["meta.id"].required().explicitNull()
      try code <?> map["code"].required().explicitNull()
    }
  }

  @Test func aRequiredMappingStillThrowsForNilWithExplicitNull() throws {
    expectError(
      "invalidValue", at: ["meta", "id"],
      message: #"Required key path "meta.id" has no value to encode (it is nil)."#
    ) {
      try encodeJSON(Strict())
    }
    expectError("invalidValue", at: ["meta", "id"]) {
      try encodeJSON(Strict(), with: .writingExplicitNulls())
    }
  }

  @Test func aRequiredMappingStillThrowsForNullWhenDecoding() throws {
    expectError("valueNotFound", at: ["meta", "id"]) {
      try decode(Strict.self, from: #"{"meta": {"id": null}}"#)
    }
    expectError("keyNotFound(meta)", at: []) { try decode(Strict.self, from: "{}") }
  }

  @Test func theIfPresentOperatorIgnoresRequiredButWritesTheExplicitNull() throws {
    try expectEncoded(with(Strict()) { $0.id = 1 }, #"{"meta": {"id": 1}, "code": null}"#)
    let strict = try decode(Strict.self, from: #"{"meta": {"id": 1}}"#)
    #expect(strict.code == nil)
  }

  @Test func explicitNullWorksForImplicitlyUnwrappedOptionals() throws {
    struct Legacy: Codable, Keyedable {
      var name: String!
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws { try name <-> map["name"].explicitNull() }
    }
    try expectEncoded(Legacy(), #"{"name": null}"#)
    #expect(try decode(Legacy.self, from: #"{"name": null}"#).name == nil)
  }

  @Test func explicitNullOnAFlatMappingWritesNothing() throws {
    struct Location: Codable, Equatable {
      var lat: Double
      var lon: Double
    }
    struct Place: Codable, Keyedable {
      var name = ""
      var location: Location?
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try name <-> map["name"]
        try location <-> map[""].explicitNull()
      }
    }
    try expectEncoded(with(Place()) { $0.name = "x" }, #"{"name": "x"}"#)
    try expectEncoded(
      with(Place()) { $0.location = Location(lat: 1, lon: 2) }, #"{"name": "", "lat": 1, "lon": 2}"#
    )
  }
}
