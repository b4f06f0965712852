import Foundation
import Testing

@testable import KeyedCodable

/// ``JSONKeyConversion`` against Foundation's `convertFromSnakeCase` and `convertToSnakeCase`
/// on every ASCII word of two characters and on Unicode scalars across the whole range, each
/// in a word where it matters (`x_a<s>b`, `x_<s>b`, `a<s>b`, `aBC<s>`).
@Suite struct JSONKeyConversionTests {
  /// Every scalar of the first planes' scripts (below U+3400), then every 13th one above (every
  /// 130th under the address sanitizer, `KEYED_TEST_STRESS=0.1`).
  static let scalars: [Unicode.Scalar] = {
    let step = Int((13 / Stress.scale).rounded())
    return (0..<0x11_0000).compactMap { value in
      value < 0x3400 || value % step == 0 ? Unicode.Scalar(value) : nil
    }
  }()

  /// Names as Foundation's `JSONDecoder` converts them with `convertFromSnakeCase`.
  static func foundationFromSnakeCase(_ names: [String]) throws -> [String] {
    // One object per name, so that names converting to the same one don't meet.
    let data = try JSONSerialization.data(withJSONObject: names.map { [$0: 1] })
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode([SingleName].self, from: data).map(\.name)
  }

  /// Names as Foundation's `JSONEncoder` converts them with `convertToSnakeCase`.
  static func foundationToSnakeCase(_ names: [String]) throws -> [String] {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let data = try encoder.encode(names.map(SingleMember.init))
    let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Int]])
    return objects.map { $0.keys.first ?? "?" }
  }

  /// The converted name of an object's only member.
  struct SingleName: Decodable {
    var name: String

    init(from decoder: any Decoder) throws {
      name = try decoder.container(keyedBy: AnyKey.self).allKeys.first?.stringValue ?? "?"
    }
  }

  /// An object with one member, named by a coding key.
  struct SingleMember: Encodable {
    var name: String

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(1, forKey: AnyKey(stringValue: name))
    }
  }

  /// Every ASCII word of one and two characters.
  static let asciiWords: [String] = {
    let characters = (0x20..<0x7F).map { String(UnicodeScalar(UInt8($0))) }
    return characters + characters.flatMap { first in characters.map { first + $0 } }
  }()

  @Test func everyASCIIWordConvertsFromSnakeCaseAsInFoundation() throws {
    let names = Self.asciiWords.flatMap { ["x_\($0)y", "Ab_\($0)", "\($0)_A\($0)"] }
    let ours = names.map(JSONKeyConversion.fromSnakeCase)
    let foundation = try Self.foundationFromSnakeCase(names)
    let differences = zip(names, zip(ours, foundation)).filter { $1.0 != $1.1 }
    #expect(differences.isEmpty, "first differences: \(differences.prefix(5))")
  }

  @Test func everyASCIIWordConvertsToSnakeCaseAsInFoundation() throws {
    let names = Self.asciiWords.flatMap { ["x\($0)y", "AB\($0)c", "\($0)Ab"] }
    let ours = names.map(JSONKeyConversion.toSnakeCase)
    let foundation = try Self.foundationToSnakeCase(names)
    let differences = zip(names, zip(ours, foundation)).filter { $1.0 != $1.1 }
    #expect(differences.isEmpty, "first differences: \(differences.prefix(5))")
  }

  @Test func randomASCIINamesConvertToSnakeCaseAsInFoundation() throws {
    // Runs of capitals, lowercase letters, digits and punctuation in every order, up to 14
    // characters: each word boundary rule meets the others.
    let alphabet = Array("AaBbZz09_-. $XyQ".utf8)
    var state: UInt64 = 0x5EED
    var names: [String] = []
    for _ in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      var bits = state
      let count = Int(bits % 14) + 1
      var name: [UInt8] = []
      for _ in 0..<count {
        bits = bits >> 4 | bits << 60
        name.append(alphabet[Int(bits % UInt64(alphabet.count))])
      }
      names.append(String(decoding: name, as: UTF8.self))
    }
    let ours = names.map(JSONKeyConversion.toSnakeCase)
    let foundation = try Self.foundationToSnakeCase(names)
    let differences = zip(names, zip(ours, foundation)).filter { $1.0 != $1.1 }
    #expect(differences.isEmpty, "first differences: \(differences.prefix(5))")
  }

  @Test func unicodeScalarsConvertFromSnakeCaseAsInFoundation() throws {
    let names = Self.scalars.flatMap { ["x_a\($0)b", "x_\($0)b"] }
    let ours = names.map(JSONKeyConversion.fromSnakeCase)
    let foundation = try Self.foundationFromSnakeCase(names)
    let differences = zip(names, zip(ours, foundation)).filter { $1.0 != $1.1 }
    #expect(differences.isEmpty, "first differences: \(differences.prefix(5))")
  }

  @Test func unicodeScalarsConvertToSnakeCaseAsInFoundation() throws {
    let names = Self.scalars.flatMap { ["a\($0)b", "aBC\($0)"] }
    let ours = names.map(JSONKeyConversion.toSnakeCase)
    let foundation = try Self.foundationToSnakeCase(names)
    let differences = zip(names, zip(ours, foundation)).filter { $1.0 != $1.1 }
    #expect(differences.isEmpty, "first differences: \(differences.prefix(5))")
  }

  @Test func namesWithNothingToConvertAreReturnedAsTheyAre() {
    for name in ["plain", "_id_", "__", "", "caf\u{E9}", "a\u{301}b", "ALLCAPS"] {
      #expect(JSONKeyConversion.fromSnakeCase(name) == name)
    }
    for name in ["plain", "a_b", "", "1x", "caf\u{E9}"] {
      #expect(JSONKeyConversion.toSnakeCase(name) == name)
    }
  }
}
