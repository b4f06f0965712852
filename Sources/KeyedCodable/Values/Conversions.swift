/// Lossy conversions a mapping may apply when a value has another JSON type than its property.
///
/// Decoding is strict by default: a `Bool` property reads only `true` and `false`. Allow
/// conversions per mapping with ``Mapping/converting(_:)``, or for a whole decode with
/// ``MappingContext/converting(_:)-swift.type.method``:
///
/// ```swift
/// try isActive <-> map["active"].converting(.lossy)        // true, 1, "yes", "TRUE"
/// try count <-> map["count"].converting(.numbersFromStrings) // 42 or "42"
/// ```
///
/// Conversions apply to the standard scalar types (`Bool`, `String`, the integer types, `Double`
/// and `Float`) and their optionals, and only after the strict decode failed with
/// `DecodingError.typeMismatch`, so values of the right type cost nothing more. A value that no
/// allowed conversion accepts still throws the strict decode's error; so do numbers that do not
/// fit the property (`1.5` or `"1.5"` for an `Int`, `"300"` for an `Int8`).
///
/// Encoding is not affected: a property is written as its own type.
public struct Conversions: OptionSet, Sendable, Hashable {
  /// The raw bits.
  public let rawValue: UInt8

  /// Creates a set of conversions from its raw bits.
  ///
  /// - Parameter rawValue: The raw bits.
  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  /// `Bool` from the numbers `0` and `1`.
  public static let boolFromNumbers = Conversions(rawValue: 1 << 0)
  /// `Bool` from the strings `"true"`, `"false"`, `"yes"`, `"no"`, `"1"` and `"0"`, in any
  /// letter case, with no surrounding spaces.
  public static let boolFromStrings = Conversions(rawValue: 1 << 1)
  /// `String` from a number, written as JSON writes it (`42`, `-0.5`, `1e+21`).
  public static let stringFromNumbers = Conversions(rawValue: 1 << 2)
  /// `String` from `true` and `false`, as `"true"` and `"false"`.
  public static let stringFromBools = Conversions(rawValue: 1 << 3)
  /// Integers, `Double` and `Float` from numeric strings.
  ///
  /// An integer type reads an optional `-` and ASCII digits (`"42"`, `"-7"`, `"007"`), and
  /// nothing else: not `"1.0"`, `"1e3"`, `"+1"`, `" 42"` or non-ASCII digits. `Double` and
  /// `Float` read the JSON number grammar (`"1.5"`, `"-0"`, `"1e3"`), correctly rounded, and
  /// reject what does not fit: `"1e999"`, `"1e-999"` (not zero), `"NaN"` and `"inf"`.
  public static let numbersFromStrings = Conversions(rawValue: 1 << 4)

  /// Every conversion.
  public static let lossy: Conversions = [
    .boolFromNumbers, .boolFromStrings, .stringFromNumbers, .stringFromBools, .numbersFromStrings,
  ]
}

extension Mapping {
  /// This mapping, allowing `conversions` when the value has another type than the property.
  ///
  /// ```swift
  /// try isActive <-> map["active"].converting(.lossy)
  /// ```
  ///
  /// A conversion that is applied is recorded in the decode's report (see ``DecodingReport``).
  ///
  /// - Parameter conversions: The conversions; ``Conversions/lossy`` allows them all, `[]`
  ///   none, even when the context allows some.
  /// - Returns: A copy of the mapping.
  public func converting(_ conversions: Conversions = .lossy) -> Mapping {
    withExtras { $0.conversions = conversions }
  }
}

// MARK: - Converting

/// A JSON scalar read without knowing its type, for a conversion.
enum ScalarToken: Decodable, CustomStringConvertible {
  case bool(Bool)
  case integer(Int64)
  case unsigned(UInt64)
  case double(Double)
  case string(String)

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(UInt64.self) {
      self = .unsigned(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else {
      self = .string(try container.decode(String.self))
    }
  }

  var description: String {
    switch self {
    case .bool(let value): "\(value)"
    case .integer(let value): "\(value)"
    case .unsigned(let value): "\(value)"
    case .double(let value): NumericTextParsing.jsonText(of: value)
    case .string(let value): "\"\(value)\""
    }
  }
}

/// Implemented by the types conversions produce.
protocol LossyConvertible {
  /// The value converted from `token` with `conversions`, or `nil` when none applies.
  static func converting(_ token: ScalarToken, _ conversions: Conversions) -> Self?
}

extension Bool: LossyConvertible {
  static func converting(_ token: ScalarToken, _ conversions: Conversions) -> Bool? {
    switch token {
    case .integer(let value) where conversions.contains(.boolFromNumbers):
      return value == 0 ? false : value == 1 ? true : nil
    case .unsigned(let value) where conversions.contains(.boolFromNumbers):
      return value == 0 ? false : value == 1 ? true : nil
    case .double(let value) where conversions.contains(.boolFromNumbers):
      return value == 0 ? false : value == 1 ? true : nil
    case .string(let text) where conversions.contains(.boolFromStrings):
      switch text.lowercased() {
      case "true", "yes", "1": return true
      case "false", "no", "0": return false
      default: return nil
      }
    default:
      return nil
    }
  }
}

extension String: LossyConvertible {
  static func converting(_ token: ScalarToken, _ conversions: Conversions) -> String? {
    switch token {
    case .integer(let value) where conversions.contains(.stringFromNumbers):
      return String(value)
    case .unsigned(let value) where conversions.contains(.stringFromNumbers):
      return String(value)
    case .double(let value) where conversions.contains(.stringFromNumbers):
      return value.isFinite ? NumericTextParsing.jsonText(of: value) : nil
    case .bool(let value) where conversions.contains(.stringFromBools):
      return value ? "true" : "false"
    default:
      return nil
    }
  }
}

extension Int: LossyConvertible {}
extension Int8: LossyConvertible {}
extension Int16: LossyConvertible {}
extension Int32: LossyConvertible {}
extension Int64: LossyConvertible {}
extension UInt: LossyConvertible {}
extension UInt8: LossyConvertible {}
extension UInt16: LossyConvertible {}
extension UInt32: LossyConvertible {}
extension UInt64: LossyConvertible {}

extension FixedWidthInteger {
  static func converting(_ token: ScalarToken, _ conversions: Conversions) -> Self? {
    guard case .string(let text) = token, conversions.contains(.numbersFromStrings) else {
      return nil
    }
    return NumericTextParsing.integer(text, as: Self.self)
  }
}

extension Double: LossyConvertible {
  static func converting(_ token: ScalarToken, _ conversions: Conversions) -> Double? {
    guard case .string(let text) = token, conversions.contains(.numbersFromStrings) else {
      return nil
    }
    return NumericTextParsing.double(text)
  }
}

extension Float: LossyConvertible {
  static func converting(_ token: ScalarToken, _ conversions: Conversions) -> Float? {
    guard case .string(let text) = token, conversions.contains(.numbersFromStrings) else {
      return nil
    }
    return NumericTextParsing.float(text)
  }
}

extension Optional: LossyConvertible where Wrapped: LossyConvertible {
  static func converting(_ token: ScalarToken, _ conversions: Conversions) -> Wrapped?? {
    Wrapped.converting(token, conversions).map { .some($0) }
  }
}

/// Numbers read from and written as text, strictly.
enum NumericTextParsing {
  /// The integer `text` spells (`-?[0-9]+`, ASCII digits only), if `type` holds it.
  static func integer<Integer: FixedWidthInteger>(_ text: String, as type: Integer.Type)
    -> Integer?
  {
    var utf8 = Substring(text).utf8[...]
    let isNegative = utf8.first == UInt8(ascii: "-")
    if isNegative {
      utf8 = utf8.dropFirst()
    }
    guard !utf8.isEmpty else { return nil }
    var magnitude: Integer = 0
    for byte in utf8 {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let digit = Integer(byte - UInt8(ascii: "0"))
      let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
      // Negative numbers accumulate downwards, so `Int.min` fits.
      let (next, overflow2) =
        isNegative
        ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
      guard !overflow1, !overflow2 else { return nil }
      magnitude = next
    }
    return magnitude
  }

  /// The finite `Double` the JSON number `text` spells, correctly rounded; `nil` for other text
  /// and for numbers too large or too small (but not zero) to hold.
  static func double(_ text: String) -> Double? {
    binaryFloat(text, JSONNumber.double)
  }

  /// The finite `Float` the JSON number `text` spells, correctly rounded once.
  static func float(_ text: String) -> Float? {
    binaryFloat(text, JSONNumber.float)
  }

  private static func binaryFloat<Result: BinaryFloatingPoint>(
    _ text: String, _ parse: (UnsafePointer<UInt8>, Int) -> Result
  ) -> Result? {
    var text = text
    return text.withUTF8 { bytes -> Result? in
      guard let start = bytes.baseAddress, !bytes.isEmpty else { return nil }
      let value = parse(start, bytes.count)
      guard value.isFinite else { return nil }
      // A non-zero number that rounded to zero does not fit either.
      if value == 0, !JSONNumber.isZero(start, count: bytes.count) {
        return nil
      }
      return value
    }
  }

  /// Whether `text` is a JSON number token.
  static func isJSONNumber(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      guard let start = bytes.baseAddress, !bytes.isEmpty else { return false }
      return !JSONNumber.double(start, count: bytes.count).isNaN
    }
  }

  /// `value` written as JSON writes it: the shortest text that reads back the same.
  static func jsonText(of value: Double) -> String {
    var bytes: [UInt8] = []
    JSONNumberWriter.append(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension DecodeRun {
  /// The value at `target` converted from another type, when the mapping or the context allows
  /// a conversion that accepts it; `nil` otherwise.
  func convert<Value: Decodable>(
    _ type: Value.Type, at target: MappingTarget, _ mapping: Mapping, after error: any Error
  ) throws -> Value? {
    let conversions =
      mapping.extras?.conversions ?? MappingContext.Binding.box?.context.conversions ?? []
    guard !conversions.isEmpty, let convertible = Value.self as? any LossyConvertible.Type,
      case .value(let parent, _, let key, false) = target,
      let token = try? backend.decode(ScalarToken.self, forKey: key, in: parent),
      let value = convertible.converting(token, conversions) as? Value
    else { return nil }
    report(
      .converted(from: token.description, to: "\(Value.self)"),
      at: codingPath(to: parent) + [key], keyPath: mapping.keyDescription, error: error)
    return value
  }
}
