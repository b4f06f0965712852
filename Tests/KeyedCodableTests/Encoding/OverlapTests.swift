import Foundation
import KeyedCodable
import Testing

/// Two mappings that write the same place: equal values are written once, different values
/// throw (issue 7: 1.x models that map a nested value and one of its members).
@Suite(.bothCoders) struct OverlapTests {
  // MARK: - The 1.x model of the issue

  struct Details: Codable, Keyedable, Equatable {
    var description: String!

    init(description: String) {
      self.description = description
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try description <-> map["details.description"]
    }
  }

  struct Inner: Codable, Keyedable, Equatable {
    var greeting: String!
    var description: String!
    var details: Details!

    init(greeting: String, description: String, details: Details) {
      self.greeting = greeting
      self.description = description
      self.details = details
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try greeting <-> map["inner.greeting"]
      try description <-> map["inner.details.description"]
      try details <-> map["inner"]
    }
  }

  static let innerJSON =
    #"{"inner":{"greeting":"Hallo world","details":{"description":"Its nice here"}}}"#

  @Test func aNestedValueAndItsOwnMemberMappedTwiceRoundTrip() throws {
    let inner = try roundTrip(Inner.self, Self.innerJSON)
    #expect(inner.greeting == "Hallo world")
    #expect(inner.description == "Its nice here")
    #expect(inner.details == Details(description: "Its nice here"))
    try expectEncoded(inner, Self.innerJSON)
  }

  @Test func aNestedValueAndAMemberThatDifferThrowNamingBothMappings() throws {
    let inner = Inner(
      greeting: "Hi", description: "Mine", details: Details(description: "Theirs"))
    do {
      _ = try encodeJSON(inner)
      Issue.record("expected an error")
    } catch {
      #expect(
        shape(of: error)
          == ErrorShape(kind: "invalidValue", path: ["inner", "details", "description"]))
      #expect(
        message(of: error)
          == #"Key path "inner.details.description" is written twice with different values: "#
          + #""Mine" by map["inner.details.description"], then "Theirs" by map["inner"]; "#
          + "one would overwrite the other.")
    }
  }

  struct Envelope: Codable, Keyedable, Equatable {
    var items: [Inner] = []

    init(items: [Inner]) {
      self.items = items
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try items <-> map["data.items"]
    }
  }

  @Test func arraysOfOverlappingModelsRoundTripAndReportTheElement() throws {
    let json = #"{"data":{"items":[\#(Self.innerJSON),\#(Self.innerJSON)]}}"#
    let envelope = try roundTrip(Envelope.self, json)
    #expect(envelope.items.count == 2)
    try expectEncoded(envelope, json)

    var broken = envelope
    broken.items[1].description = "changed"
    expectError(
      "invalidValue", at: ["data", "items", "Index 1", "inner", "details", "description"]
    ) {
      try encodeJSON(broken)
    }
  }

  // MARK: - An envelope with a whole value and a member of it

  struct Person: Codable, Equatable {
    var name: String
    var city: String
  }

  struct Account: Codable, Keyedable, Equatable {
    var user: Person?
    var city: String?
    var cityFirst = false

    init(user: Person?, city: String?, cityFirst: Bool) {
      self.user = user
      self.city = city
      self.cityFirst = cityFirst
    }

    init(from decoder: Decoder) throws {
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

    static func == (lhs: Account, rhs: Account) -> Bool {
      lhs.user == rhs.user && lhs.city == rhs.city
    }
  }

  @Test(arguments: [false, true])
  func aWholeValueAndAnEqualMemberAreWrittenOnce(cityFirst: Bool) throws {
    let account = Account(
      user: Person(name: "Ann", city: "Oslo"), city: "Oslo", cityFirst: cityFirst)
    let json = #"{"data":{"user":{"name":"Ann","city":"Oslo"}}}"#
    try expectEncoded(account, json)
    #expect(try decode(Account.self, from: try encodeJSON(account)) == account)
    let decoded = try roundTrip(Account.self, json)
    #expect(
      decoded == Account(user: Person(name: "Ann", city: "Oslo"), city: "Oslo", cityFirst: false))
  }

  @Test(arguments: [false, true])
  func aWholeValueAndADifferentMemberThrow(cityFirst: Bool) {
    let account = Account(
      user: Person(name: "Ann", city: "Oslo"), city: "Bergen", cityFirst: cityFirst)
    do {
      _ = try encodeJSON(account)
      Issue.record("expected an error")
    } catch {
      #expect(shape(of: error) == ErrorShape(kind: "invalidValue", path: ["data", "user", "city"]))
      let (first, second) =
        cityFirst
        ? (#""Bergen" by map["data.user.city"]"#, #""Oslo" by map["data.user"]"#)
        : (#""Oslo" by map["data.user"]"#, #""Bergen" by map["data.user.city"]"#)
      #expect(message(of: error).contains("\(first), then \(second)"), "\(message(of: error))")
    }
  }

  @Test(arguments: [false, true])
  func aNilMemberNeverConflicts(cityFirst: Bool) throws {
    try expectEncoded(
      Account(user: Person(name: "Ann", city: "Oslo"), city: nil, cityFirst: cityFirst),
      #"{"data":{"user":{"name":"Ann","city":"Oslo"}}}"#)
    try expectEncoded(
      Account(user: nil, city: "Bergen", cityFirst: cityFirst),
      #"{"data":{"user":{"city":"Bergen"}}}"#)
  }

  // MARK: - Every kind of overlap, in both orders

  /// Two values of possibly different types written at one key path, in the chosen order.
  struct Pair<First: Codable, Second: Codable>: Encodable, Keyedable {
    var first: First?
    var second: Second?
    var firstKey: String
    var secondKey: String
    var reversed = false

    mutating func map(map: KeyMap) throws {
      if reversed {
        try second <-> map[secondKey]
        try first <-> map[firstKey]
      } else {
        try first <-> map[firstKey]
        try second <-> map[secondKey]
      }
    }
  }

  func pair<First: Codable, Second: Codable>(
    _ first: First, at firstKey: String, _ second: Second, at secondKey: String, reversed: Bool
  ) -> Pair<First, Second> {
    Pair(first: first, second: second, firstKey: firstKey, secondKey: secondKey, reversed: reversed)
  }

  @Test(arguments: [false, true])
  func equalScalarsAtOneKeyPathAreWrittenOnce(reversed: Bool) throws {
    try expectEncoded(pair(1, at: "a.x", 1, at: "a.x", reversed: reversed), #"{"a":{"x":1}}"#)
    try expectEncoded(pair("s", at: "x", "s", at: "x", reversed: reversed), #"{"x":"s"}"#)
    try expectEncoded(pair(true, at: "x", true, at: "x", reversed: reversed), #"{"x":true}"#)
    // The same number whatever its Swift type: JSON writes both as 3.
    try expectEncoded(pair(3, at: "x", 3.0, at: "x", reversed: reversed), #"{"x":3}"#)
    try expectEncoded(pair(UInt8(3), at: "x", Int64(3), at: "x", reversed: reversed), #"{"x":3}"#)
  }

  @Test(arguments: [false, true])
  func differentScalarsAtOneKeyPathThrow(reversed: Bool) {
    expectError("invalidValue", at: ["a", "x"]) {
      try encodeJSON(pair(1, at: "a.x", 2, at: "a.x", reversed: reversed))
    }
    expectError("invalidValue", at: ["x"]) {
      try encodeJSON(pair("1", at: "x", 1, at: "x", reversed: reversed))
    }
    expectError("invalidValue", at: ["x"]) {
      try encodeJSON(pair(3, at: "x", 3.5, at: "x", reversed: reversed))
    }
  }

  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
  }

  /// Encodes its members in the opposite order from ``Point``.
  struct ReversedPoint: Codable, Equatable {
    var x: Int
    var y: Int

    enum CodingKeys: String, CodingKey {
      case x, y
    }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(y, forKey: .y)
      try container.encode(x, forKey: .x)
    }
  }

  @Test(arguments: [false, true])
  func equalObjectsInAnyMemberOrderAreWrittenOnce(reversed: Bool) throws {
    try expectEncoded(
      pair(Point(x: 1, y: 2), at: "p", ReversedPoint(x: 1, y: 2), at: "p", reversed: reversed),
      #"{"p":{"x":1,"y":2}}"#)
    expectError("invalidValue", at: ["p"]) {
      try encodeJSON(
        pair(Point(x: 1, y: 2), at: "p", ReversedPoint(x: 1, y: 3), at: "p", reversed: reversed))
    }
  }

  @Test(arguments: [false, true])
  func anObjectAndOneOfItsMembersMerge(reversed: Bool) throws {
    try expectEncoded(
      pair(Point(x: 1, y: 2), at: "p", 2, at: "p.y", reversed: reversed), #"{"p":{"x":1,"y":2}}"#)
    expectError("invalidValue", at: ["p", "y"]) {
      try encodeJSON(pair(Point(x: 1, y: 2), at: "p", 5, at: "p.y", reversed: reversed))
    }
  }

  /// A model whose key paths come from each instance, so one encode may leave the plan another
  /// published.
  struct InstanceKeys: Encodable, Keyedable {
    var point = Point(x: 1, y: 2)
    var number = 2
    var pointKey: String
    var numberKey: String

    mutating func map(map: KeyMap) throws {
      try point <-> map[pointKey]
      try number <-> map[numberKey]
    }
  }

  @Test func aRunThatLeavesItsPlanStillMergesAValueWithALaterMember() throws {
    // The first encode publishes a plan with a flat value and "x"; the second writes "p" before
    // "p.y", which that plan never saw: "p" must still merge with "p.y".
    try expectEncoded(
      InstanceKeys(number: 1, pointKey: "", numberKey: "x"), #"{"x":1,"y":2}"#)
    try expectEncoded(
      InstanceKeys(pointKey: "p", numberKey: "p.y"), #"{"p":{"x":1,"y":2}}"#)
    expectError("invalidValue", at: ["p", "y"]) {
      try encodeJSON(
        InstanceKeys(point: Point(x: 1, y: 2), number: 5, pointKey: "p", numberKey: "p.y"))
    }
    try expectEncoded(
      InstanceKeys(pointKey: "q", numberKey: "q.y"), #"{"q":{"x":1,"y":2}}"#)
  }

  @Test(arguments: [false, true])
  func equalArraysAreWrittenOnce(reversed: Bool) throws {
    try expectEncoded(
      pair([1, 2], at: "list", [1, 2], at: "list", reversed: reversed), #"{"list":[1,2]}"#)
    try expectEncoded(
      pair(
        [Point(x: 1, y: 2)], at: "o.list", [ReversedPoint(x: 1, y: 2)], at: "o.list",
        reversed: reversed),
      #"{"o":{"list":[{"x":1,"y":2}]}}"#)
    expectError("invalidValue", at: ["list"]) {
      try encodeJSON(pair([1, 2], at: "list", [2, 1], at: "list", reversed: reversed))
    }
    expectError("invalidValue", at: ["list"]) {
      try encodeJSON(pair([1, 2], at: "list", [1, 2, 3], at: "list", reversed: reversed))
    }
  }

  struct Holder: Codable, Equatable {
    var list: [Int]
    var name: String
  }

  @Test(arguments: [false, true])
  func anArrayMemberOfAMergedValueIsComparedWhole(reversed: Bool) throws {
    try expectEncoded(
      pair(Holder(list: [1], name: "n"), at: "h", [1], at: "h.list", reversed: reversed),
      #"{"h":{"list":[1],"name":"n"}}"#)
    expectError("invalidValue", at: ["h", "list"]) {
      try encodeJSON(
        pair(Holder(list: [1], name: "n"), at: "h", [1, 1], at: "h.list", reversed: reversed))
    }
  }

  /// The same data as ``Details``, through synthesized Codable.
  struct PlainDetails: Codable, Equatable {
    struct Body: Codable, Equatable {
      var description: String
    }
    var details: Body
  }

  @Test(arguments: [false, true])
  func aKeyedableValueAndAPlainCodableValueCompareByWhatTheyWrite(reversed: Bool) throws {
    try expectEncoded(
      pair(
        Details(description: "d"), at: "inner", PlainDetails(details: .init(description: "d")),
        at: "inner", reversed: reversed),
      #"{"inner":{"details":{"description":"d"}}}"#)
    expectError("invalidValue", at: ["inner"]) {
      try encodeJSON(
        pair(
          Details(description: "d"), at: "inner", PlainDetails(details: .init(description: "e")),
          at: "inner", reversed: reversed))
    }
  }

  @Test(arguments: [false, true])
  func aFlatValueAndAnEqualMemberAreWrittenOnce(reversed: Bool) throws {
    try expectEncoded(
      pair(Point(x: 1, y: 2), at: "", 1, at: "x", reversed: reversed), #"{"x":1,"y":2}"#)
    expectError("invalidValue", at: ["x"]) {
      try encodeJSON(pair(Point(x: 1, y: 2), at: "", 5, at: "x", reversed: reversed))
    }
  }

  @Test(arguments: [false, true])
  func aMemberUnderAScalarStillThrows(reversed: Bool) {
    expectError("invalidValue", at: ["a"]) {
      try encodeJSON(pair(1, at: "a", 1, at: "a.b", reversed: reversed))
    }
  }

  @Test(arguments: [false, true])
  func nilNeverConflictsWithAValue(reversed: Bool) throws {
    var value = pair(1, at: "x", 2, at: "x", reversed: reversed)
    value.second = nil
    try expectEncoded(value, #"{"x":1}"#)
    value.second = 2
    value.first = nil
    try expectEncoded(value, #"{"x":2}"#)
  }

  // MARK: - Property lists

  @Test(arguments: [false, true])
  func propertyListsWriteEqualOverlapsOnceAndRejectDifferentOnes(cityFirst: Bool) throws {
    let encoder = PropertyListEncoder()
    let account = Account(
      user: Person(name: "Ann", city: "Oslo"), city: "Oslo", cityFirst: cityFirst)
    let data = try encoder.encode(account)
    #expect(try PropertyListDecoder().decode(Account.self, from: data) == account)
    let plist = try PropertyListSerialization.propertyList(from: data, format: nil)
    #expect(
      (plist as? NSDictionary)
        == (["data": ["user": ["name": "Ann", "city": "Oslo"]]] as NSDictionary))

    let inner = try PropertyListDecoder().decode(
      Inner.self, from: try encoder.encode(try decode(Inner.self, from: Self.innerJSON)))
    #expect(inner == (try decode(Inner.self, from: Self.innerJSON)))

    var different = account
    different.city = "Bergen"
    // PropertyListEncoder wraps every error in one at the top level; ours is the underlying one.
    do {
      _ = try encoder.encode(different)
      Issue.record("expected an error")
    } catch EncodingError.invalidValue(_, let context) {
      let underlying = try #require(context.underlyingError)
      #expect(
        shape(of: underlying) == ErrorShape(kind: "invalidValue", path: ["data", "user", "city"]))
    }
  }
}
