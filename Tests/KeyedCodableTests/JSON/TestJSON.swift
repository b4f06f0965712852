import Foundation
import KeyedCodable

/// Any JSON document, decoded through the Codable containers only (a single value container
/// first, then an unkeyed one, then a keyed one), so that two decoders can be compared on any
/// input.
///
/// Numbers are read as `Double`; a number that doesn't fit a `Double` is read as a `Decimal`
/// when it fits one. Equality is exact: numbers compare by bit pattern (`-0.0` is not `0.0`)
/// and strings by their Unicode scalars (no canonical equivalence).
enum TestJSON: Codable, Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  /// A number that doesn't fit a `Double` but fits a `Decimal`.
  case decimal(Decimal)
  case string(String)
  case array([TestJSON])
  case object([String: TestJSON])

  /// Any member name, or an array index.
  struct MemberKey: CodingKey, Hashable, Sendable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
      self.stringValue = stringValue
    }

    init(intValue: Int) {
      stringValue = "\(intValue)"
      self.intValue = intValue
    }

    init(_ name: String) {
      stringValue = name
    }
  }

  init(from decoder: any Decoder) throws {
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
      return
    }
    // Each attempt moves on only when the value is of another kind: any other error (a string
    // with invalid content, a number that doesn't fit) is the outcome.
    do {
      self = .bool(try single.decode(Bool.self))
      return
    } catch DecodingError.typeMismatch {}
    do {
      self = .string(try single.decode(String.self))
      return
    } catch DecodingError.typeMismatch {}
    do {
      self = .number(try single.decode(Double.self))
      return
    } catch DecodingError.typeMismatch {
      // Not a number: an array or an object.
    } catch {
      // A number that doesn't fit a Double.
      guard let decimal = try? single.decode(Decimal.self) else { throw error }
      self = .decimal(decimal)
      return
    }
    if var array = try? decoder.unkeyedContainer() {
      var elements: [TestJSON] = []
      while !array.isAtEnd {
        elements.append(try array.decode(TestJSON.self))
      }
      self = .array(elements)
      return
    }
    let object = try decoder.container(keyedBy: MemberKey.self)
    var members: [String: TestJSON] = [:]
    for key in object.allKeys {
      members[key.stringValue] = try object.decode(TestJSON.self, forKey: key)
    }
    self = .object(members)
  }

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .number(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .decimal(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements {
        try container.encode(element)
      }
    case .object(let members):
      var container = encoder.container(keyedBy: MemberKey.self)
      for (name, value) in members {
        try container.encode(value, forKey: MemberKey(name))
      }
    }
  }

  static func == (lhs: TestJSON, rhs: TestJSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null):
      return true
    case (.bool(let left), .bool(let right)):
      return left == right
    case (.number(let left), .number(let right)):
      return left.bitPattern == right.bitPattern
    case (.decimal(let left), .decimal(let right)):
      return left == right
    case (.string(let left), .string(let right)):
      return left.unicodeScalars.elementsEqual(right.unicodeScalars)
    case (.array(let left), .array(let right)):
      return left == right
    case (.object(let left), .object(let right)):
      guard left.count == right.count else { return false }
      for (name, value) in left {
        guard
          let other = right.first(where: {
            $0.key.unicodeScalars.elementsEqual(name.unicodeScalars)
          }),
          other.value == value
        else { return false }
      }
      return true
    default:
      return false
    }
  }

  /// `depth` arrays, each the only element of the one around it, the innermost one empty.
  static func nested(_ depth: Int) -> TestJSON {
    var value = TestJSON.array([])
    for _ in 1..<depth {
      value = .array([value])
    }
    return value
  }
}

extension TestJSON: CustomStringConvertible {
  /// The value as compact JSON-like text: numbers as Swift prints them, strings with every
  /// scalar outside printable ASCII written `\u{…}`, members sorted by name.
  var description: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return "\(value)"
    case .number(let value): return "\(value)"
    case .decimal(let value): return "Decimal(\(value))"
    case .string(let value): return Self.quoted(value)
    case .array(let elements): return "[" + elements.map(\.description).joined(separator: ",") + "]"
    case .object(let members):
      let sorted = members.sorted { $0.key < $1.key }
      return "{"
        + sorted.map { Self.quoted($0.key) + ":" + $0.value.description }
        .joined(separator: ",") + "}"
    }
  }

  private static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      if scalar.value >= 0x20, scalar.value < 0x7F, scalar != "\"", scalar != "\\" {
        result.unicodeScalars.append(scalar)
      } else {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      }
    }
    return result + "\""
  }
}

extension TestJSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  init(nilLiteral: ()) { self = .null }
  init(booleanLiteral value: Bool) { self = .bool(value) }
  init(floatLiteral value: Double) { self = .number(value) }
  init(integerLiteral value: Int) { self = .number(Double(value)) }
  init(stringLiteral value: String) { self = .string(value) }
  init(arrayLiteral elements: TestJSON...) { self = .array(elements) }
  init(dictionaryLiteral elements: (String, TestJSON)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { first, _ in first }))
  }
}
