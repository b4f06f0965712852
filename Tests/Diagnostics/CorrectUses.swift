// Correct mappings, with no annotations: Scripts/diagnostics.sh checks that this file
// type-checks without a diagnostic. It uses every operator with every kind of mapping, so the
// overloads that give the messages of WrongTypes.swift and WrongShapes.swift cannot make a
// correct mapping ambiguous or unavailable unnoticed.

import Foundation
import KeyedCodable

protocol Shape {}
struct Circle: Shape, Codable { var radius = 0.0 }

extension TypeRegistry where Base == any Shape {
  static let shapes = TypeRegistry(typeKey: "type", ["circle": Circle.self])
}

enum Level: String, Codable { case info, warn, unknown }

struct Player: Codable {
  var name = ""
  var score = 0
}

struct CorrectUses: Codable, Keyedable {
  var name = ""
  var nickname: String?
  var forcedName: String! = ""
  var count = 0
  var optionalCount: Int?
  var retries = 0
  var numbers: [Int] = []
  var strings: [String] = []
  var optionalStrings: [String]?
  var created = Date()
  var updated: Date?
  var homepage: URL?
  var links: [URL] = []
  var rates: [String: Decimal] = [:]
  var level = Level.info
  var price: Decimal?
  var shape: (any Shape)?
  var shapes: [any Shape] = []
  var fallbackShape: (any Shape)?
  var anyShape: any Shape = Circle()
  var patchName: Presence<String> = .absent
  var patchDate: Presence<Date> = .absent
  var players: [Player] = []
  var avatar = Data()
  var extra: [String: JSONValue] = [:]
  var extraObject: JSONValue = [:]
  let id = 0

  mutating func map(map: KeyMap) throws {
    // Plain mappings, each operator, required and optional storage.
    try name <-> map["user.name"]
    try nickname <-> map["user.nickname"]
    try forcedName <-> map["user.forced"].required()
    try count <<- map["count"]
    try optionalCount <<- map["optionalCount"]
    try id ->> map["id"]
    try optionalCount ->> map["optionalCount"].explicitNull()
    try count <?> map["count"]
    try optionalCount <<? map["optionalCount"]
    try count ?>> map["count"]
    try patchName <-> map["patch.name"]
    // Transforms, on required and optional storage, with each operator.
    try created <-> map["created"].using(.iso8601)
    try updated <-> map["updated"].using(.iso8601)
    try created <<- map["created"].using(.rfc3339)
    try updated ->> map["updated"].using(.unixSeconds)
    try created <?> map["created"].using(.iso8601(fractionalDigits: 3))
    try updated <<? map["updated"].using(.dateFormat("yyyy-MM-dd"))
    try updated ?>> map["updated"].using(.unixMilliseconds)
    try patchDate <-> map["patch.date"].using(.iso8601)
    try homepage <-> map["homepage"].using(.url)
    try links <-> map["* links"].using(.array(.url))
    try rates <-> map["rates"].using(.dictionary(.decimal))
    try level <-> map["level"].using(.rawValue(fallback: .unknown))
    try price <-> map["price"].using(.decimal)
    try avatar <-> map["avatar"].using(.base64)
    try count <-> map["countText"].using(.numericString())
    // Defaults.
    try retries <-> map["retries"].default(3)
    try numbers <-> map["numbers"].default([], when: .absentOrInvalid)
    try optionalCount <-> map["optionalCount"].default(nil, when: .invalid)
    try updated <-> map["updated"].using(.iso8601).default(Date(), when: .invalid)
    try updated <-> map["updated"].using(.iso8601).default(nil, when: .invalid)
    try nickname <-> map["nickname"].trimmedNilIfEmpty().default(nil, when: .invalid)
    try level <-> map["level"].using(.rawValue()).default(.info, when: .absentOrInvalid)
    // Modifiers and rules.
    try name <-> map["name"].trimmed()
    try name <-> map["name"].trimmed().validate(.nonEmpty)
    try name <-> map["name"].validate(.pattern("^[A-Z]+$"))
    try name <-> map["name"].validate(.count(1...10))
    try name <-> map["name"].modified { $0.lowercased() }
    try nickname <-> map["nickname"].trimmedNilIfEmpty()
    try count <-> map["count"].clamped(to: 0...10)
    try count <-> map["count"].minimum(0).maximum(10)
    try count <-> map["count"].validate(.range(0...150))
    try count <-> map["count"].validate("even") { $0 % 2 == 0 }
    try numbers <-> map["numbers"].sorted(.descending)
    try numbers <-> map["* numbers"].validateEach(.range(0...100))
    try strings <-> map["* strings"].validateEach(.nonEmpty)
    try strings <-> map["strings"].validate(.nonEmpty)
    try optionalStrings <-> map["strings"].validateEach(.pattern("^a"))
    try players <-> map["players"].sorted(by: \.score, .descending)
    try players <-> map["players"].sorted { $0.name < $1.name }
    try updated <-> map["updated"].using(.iso8601).required()
    // Polymorphic values, single and in arrays, with and without a default.
    try shape <-> map["shape"].polymorphic(.shapes)
    try shapes <-> map["* shapes"].polymorphic(.shapes)
    try shapes <-> map["shapes"].polymorphic((any Shape).self)
    try fallbackShape <-> map["fallback"].polymorphic(.shapes).default(nil, when: .invalid)
    try shape <<- map["shape"].polymorphic(.shapes).default(nil, when: .absentOrInvalid)
    try shape ->> map["shape"].polymorphic(.shapes)
    // A property of the existential type itself, not optional: with every operator.
    try anyShape <-> map["any"].polymorphic(.shapes)
    try anyShape <<- map["any"].polymorphic(.shapes)
    try anyShape ->> map["any"].polymorphic(.shapes)
    try anyShape <?> map["any"].polymorphic(.shapes)
    try anyShape <<? map["any"].polymorphic(.shapes)
    try anyShape ?>> map["any"].polymorphic(.shapes)
    // Unmapped members, last: into a dictionary or an object, in each direction.
    try extra <-> map.unmapped(at: "meta")
    try extra <<- map.unmapped(at: "meta", KeyOptions(delimiter: "/"))
    try extra ->> map.unmapped(at: "meta")
    try extraObject <-> map.unmapped
    try extraObject <<- map.unmapped
    try extraObject ->> map.unmapped
  }
}
