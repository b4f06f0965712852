import Foundation
import KeyedCodable
import KeyedExamples
import Testing

// The snippets of the README's tour of context, values, modifiers and reports, as a user copies
// them: each must compile and do what the README says.

@Suite("README tour", .bothCoders)
struct ReadmeTourTests {
  enum Status: String, Codable, Sendable {
    case active, suspended, unknown
  }

  enum Level: String, Codable, Sendable {
    case debug, info, error
  }

  struct Values: Codable, Keyedable {
    var homepage: URL?
    var status = Status.unknown
    var avatar = Data()
    var price = Decimal(0)
    var links: [URL] = []
    var createdAt = Date(timeIntervalSince1970: 0)
    var sentAt: Date?
    var birthday: Date?
    var clickedAt: Date?
    var retries = 0
    var level = Level.debug
    var isActive = false
    var rates: [String: Double] = [:]
    var nickname: Presence<String> = .absent
    var middleName: String?
    var name = ""
    var age = 0
    var scores: [Int] = []
    var email = ""

    mutating func map(map: KeyMap) throws {
      try homepage <-> map["homepage"].using(.url)
      try status <-> map["status"].using(.rawValue(fallback: .unknown))
      try avatar <-> map["avatar"].using(.base64)
      try price <-> map["price"].using(.decimal)
      try links <-> map["* links"].using(.array(.url))
      try createdAt <-> map["created_at"].using(.iso8601)
      try sentAt <-> map["sent"].using(.rfc2822)
      try birthday <-> map["birthday"].using(.dateFormat("yyyy-MM-dd"))
      try clickedAt <-> map["clicked"].using(.unixMilliseconds)
      try retries <-> map["retries"].default(3)
      try level <-> map["level"].using(.rawValue()).default(.info, when: .absentOrInvalid)
      try isActive <-> map["active"].converting(.lossy)
      try rates <-> map["* rates"]
      try nickname <-> map["nickname"]
      try middleName <-> map["middleName"].explicitNull()
      try name <-> map["name"].trimmed().validate(.nonEmpty)
      try age <-> map["age"].validate(.range(0...150))
      try scores <-> map["* scores"].validateEach(.range(0...100)).sorted(.descending)
      try email <-> map["email"].modified { $0.lowercased() }
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }
  }

  static let json = #"""
    {
      "homepage": "https://example.com", "status": "retired", "avatar": "aGk=", "price": 0.1,
      "links": ["https://a.example", "not a url", "https://b.example"],
      "created_at": "2024-02-29T12:30:05Z", "sent": "Thu, 29 Feb 2024 12:30:05 +0000",
      "birthday": "1990-05-17", "clicked": 1709209805250, "retries": null, "level": "loud",
      "active": "yes", "rates": {"eur": 1.1, "usd": "n/a"}, "nickname": null,
      "name": "  Ann  ", "age": 42, "scores": [50, 120, 90, 70], "email": "Ann@Example.COM"
    }
    """#

  @Test func theValuesTourDecodesAsTheReadmeSays() throws {
    let (values, report) = try decodeWithReport(Values.self, from: Self.json)
    #expect(values.homepage == URL(string: "https://example.com"))
    #expect(values.status == .unknown)
    #expect(values.avatar == Data("hi".utf8))
    #expect(values.price == Decimal(string: "0.1"))
    #expect(values.links.map(\.absoluteString) == ["https://a.example", "https://b.example"])
    #expect(values.createdAt.timeIntervalSince1970 == 1_709_209_805)
    #expect(values.sentAt?.timeIntervalSince1970 == 1_709_209_805)
    #expect(values.birthday?.timeIntervalSince1970 == 642_902_400)
    #expect(values.clickedAt?.timeIntervalSince1970 == 1_709_209_805.25)
    #expect(values.retries == 3)
    #expect(values.level == .info)
    #expect(values.isActive)
    #expect(values.rates == ["eur": 1.1])
    #expect(values.nickname == .null)
    #expect(values.name == "Ann")
    #expect(values.scores == [90, 70, 50])
    #expect(values.email == "ann@example.com")
    #expect(
      report.entries.map(\.pathDescription) == [
        "status", "links[1]", "level", "active", "rates.usd", "scores[1]",
      ])
  }

  @Test func theValuesTourEncodesBack() throws {
    var values = try decode(Values.self, from: Self.json)
    values.middleName = nil
    try expectEncoded(
      values,
      #"""
      {"homepage": "https://example.com", "status": "unknown", "avatar": "aGk=", "price": 0.1,
       "links": ["https://a.example", "https://b.example"], "created_at": "2024-02-29T12:30:05Z",
       "sent": "Thu, 29 Feb 2024 12:30:05 +0000", "birthday": "1990-05-17",
       "clicked": 1709209805250, "retries": 3, "level": "info", "active": true,
       "rates": {"eur": 1.1}, "nickname": null, "middleName": null, "name": "Ann", "age": 42,
       "scores": [90, 70, 50], "email": "ann@example.com"}
      """#)
  }

  @Test func anInvalidAgeNamesTheRuleAndTheValue() throws {
    let json = Self.json.replacingOccurrences(of: #""age": 42"#, with: #""age": 200"#)
    expectError("dataCorrupted", at: ["age"]) { try decode(Values.self, from: json) }
    do {
      _ = try decode(Values.self, from: json)
    } catch {
      #expect(message(of: error) == #"The value 200 breaks the rule "in 0...150"."#)
    }
  }
}
