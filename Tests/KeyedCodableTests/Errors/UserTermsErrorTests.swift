import Foundation
import KeyedCodable
import Testing

// Errors in the user's terms: the types a mapping reads in place of the property's are named by
// what they read, the flat key is named as such, and a report entry keeps the path and model of
// an error thrown inside the value it dropped or replaced.

protocol Pet: Sendable {}

struct Dog: Pet, Codable, Keyedable, Equatable {
  var name = ""
  var age = 0

  mutating func map(map: KeyMap) throws {
    try name <-> map["name"]
    try age <-> map["age"]
  }
}

extension TypeRegistry where Base == any Pet {
  static let pets = TypeRegistry(["dog": Dog.self])
}

@Suite("Readable errors in the user's terms", .bothCoders)
struct UserTermsErrorTests {
  struct Account: Codable, Keyedable {
    var id = 0
    mutating func map(map: KeyMap) throws {
      try id <-> map["id"].using(.numericString())
    }
  }

  struct Owner: Codable, Keyedable {
    var pet: any Pet = Dog()
    mutating func map(map: KeyMap) throws {
      try pet <-> map["pet"].polymorphic(.pets)
    }
  }

  struct FlatOwner: Codable, Keyedable {
    var dog = Dog()
    mutating func map(map: KeyMap) throws {
      try dog <-> map[""].required()
    }
  }

  struct Kennel: Codable, Keyedable {
    var dogs: [Dog] = []
    var lead: Dog?
    mutating func map(map: KeyMap) throws {
      try dogs <-> map["* dogs"]
      try lead <-> map["lead"].default(nil, when: .invalid)
    }
  }

  @Test func aNumberReadFromAStringIsNamedByItsNumberType() throws {
    do {
      _ = try decode(Account.self, from: #"{"id": "12a"}"#)
      Issue.record("decoded")
    } catch let error as DecodingError {
      let details = error.detailedDescription()
      #expect(
        details.contains("expected:    Int (from a number or a numeric string)"), "\(details)")
      #expect(!details.contains("NumberOrString"), "\(details)")
    }
  }

  @Test func aPolymorphicValueIsNamedByItsBaseType() throws {
    do {
      _ = try decode(Owner.self, from: #"{"pet": {"type": "cat"}}"#)
      Issue.record("decoded")
    } catch let error as DecodingError {
      let details = error.detailedDescription()
      #expect(!details.contains("PolymorphicValue"), "\(details)")
      #expect(details.contains("any Pet"), "\(details)")
    }
  }

  @Test func theFlatKeyIsNamedAsSuch() throws {
    do {
      _ = try decode(FlatOwner.self, from: #"{"name": "Rex", "age": "old"}"#)
      Issue.record("decoded")
    } catch let error as DecodingError {
      let details = error.detailedDescription()
      #expect(!details.split(separator: "\n").contains { $0.hasSuffix("key path:") })
      #expect(details.contains(#"key path:    "" (flat)"#) || details.contains("key path:    age"))
    }
  }

  @Test func aReportEntryKeepsThePathAndModelOfTheErrorInsideTheValue() throws {
    let json =
      #"{"dogs": [{"name": "A", "age": 1}, {"name": "B", "age": "x"}], "lead": {"name": "L", "age": "y"}}"#
    let (kennel, report) = try decodeWithReport(Kennel.self, from: json)
    #expect(kennel.dogs == [Dog(name: "A", age: 1)])
    #expect(kennel.lead == nil)
    #expect(report.entries.map(\.pathDescription) == ["dogs[1]", "lead"])
    let lines = report.entries.map(\.description)
    #expect(lines.count == 2)
    #expect(
      lines.first?.hasPrefix(
        "Dropped array element at dogs[1]: Type mismatch at dogs[1].age (Dog): expected Int")
        == true, "\(lines)")
    #expect(
      lines.last?.contains(": Type mismatch at lead.age (Dog): expected Int") == true,
      "\(lines)")
  }

  @Test func anErrorAtTheValueItselfKeepsTheShortForm() throws {
    let (_, report) = try decodeWithReport(Kennel.self, from: #"{"dogs": [7]}"#)
    #expect(report.entries.map(\.pathDescription) == ["dogs[0]"])
    #expect(report.entries.first?.description.contains("Type mismatch at") == false)
  }
}
