import Foundation

/// `Decimal` from a JSON number or a numeric string, without binary floating-point rounding;
/// made by ``ValueTransform/decimal`` and ``ValueTransform/decimalString``.
///
/// A number is read from its text by the coders that keep it (Foundation's `JSONDecoder` and
/// ``KeyedJSONDecoder``: `0.1` stays exactly 0.1); a string must spell a JSON number (`"0.1"`,
/// `"-2.50"`, `"1e3"`), with no spaces or other characters. ``ValueTransform/decimal`` writes a
/// number, ``ValueTransform/decimalString`` a string.
public struct DecimalTransform: ValueTransform {
  /// Whether encoding writes a string.
  public let writesString: Bool

  /// Creates the transform.
  ///
  /// - Parameter writesString: Whether encoding writes a string instead of a number.
  public init(writesString: Bool = false) {
    self.writesString = writesString
  }

  /// The decimal a number or a string holds.
  ///
  /// - Parameter representation: The number or string.
  /// - Returns: The decimal.
  public func decode(_ representation: NumberOrString<Decimal>) -> Decimal {
    representation.value
  }

  /// The decimal, as a number or a string.
  ///
  /// - Parameter value: The decimal.
  /// - Returns: What to write.
  public func encode(_ value: Decimal) -> NumberOrString<Decimal> {
    NumberOrString(value, asString: writesString)
  }
}

/// A number read from a JSON number or from a string that spells one, for the number
/// transforms.
public struct NumberOrString<Number: NumericText>: Codable, Sendable {
  /// The number.
  public let value: Number
  /// Whether it is written as a string.
  let asString: Bool

  init(_ value: Number, asString: Bool) {
    self.value = value
    self.asString = asString
  }

  /// Reads a number, or a string that spells one.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.typeMismatch` for other values, `dataCorrupted` for a string that
  ///   does not spell a number of the type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self) {
      guard let value = Number(strictText: text) else {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: decoder.codingPath,
            debugDescription:
              "\(CodingPathText.shown(text)) is not a "
              + "number of type \(Number.self)."))
      }
      self.init(value, asString: true)
    } else {
      self.init(try container.decode(Number.self), asString: false)
    }
  }

  /// Writes the number, as a string when asked to.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: The encoder's errors.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if asString {
      try container.encode(value.strictText)
    } else {
      try container.encode(value)
    }
  }
}

/// A number type the number transforms read from strings and write as strings.
public protocol NumericText: Codable, Sendable {
  /// The number `text` spells, strictly: JSON's number grammar (for integer types, only an
  /// optional `-` and ASCII digits), no spaces, in range.
  init?(strictText text: String)
  /// The number as text that ``init(strictText:)`` reads back.
  var strictText: String { get }
}

extension Decimal: NumericText {
  /// The decimal a JSON number spells, digit for digit.
  ///
  /// - Parameter text: The text.
  public init?(strictText text: String) {
    guard NumericTextParsing.isJSONNumber(text),
      let value = JSONNumber.decimal(text: text)
    else { return nil }
    self = value
  }

  /// The decimal's digits.
  public var strictText: String { description }
}

extension Int: NumericText {
  /// The integer `text` spells: an optional `-` and ASCII digits.
  ///
  /// - Parameter text: The text.
  public init?(strictText text: String) {
    guard let value = NumericTextParsing.integer(text, as: Int.self) else { return nil }
    self = value
  }

  /// The integer's digits.
  public var strictText: String { String(self) }
}

extension Int64: NumericText {
  /// The integer `text` spells: an optional `-` and ASCII digits.
  ///
  /// - Parameter text: The text.
  public init?(strictText text: String) {
    guard let value = NumericTextParsing.integer(text, as: Int64.self) else { return nil }
    self = value
  }

  /// The integer's digits.
  public var strictText: String { String(self) }
}

extension UInt64: NumericText {
  /// The integer `text` spells: ASCII digits.
  ///
  /// - Parameter text: The text.
  public init?(strictText text: String) {
    guard let value = NumericTextParsing.integer(text, as: UInt64.self) else { return nil }
    self = value
  }

  /// The integer's digits.
  public var strictText: String { String(self) }
}

extension Double: NumericText {
  /// The finite double a JSON number spells, correctly rounded.
  ///
  /// - Parameter text: The text.
  public init?(strictText text: String) {
    guard let value = NumericTextParsing.double(text) else { return nil }
    self = value
  }

  /// The shortest text that reads back the same double.
  public var strictText: String { NumericTextParsing.jsonText(of: self) }
}

/// A number as a numeric string, and back; made by ``ValueTransform/numericString(_:)``.
///
/// Reads a string that spells a number of the property's type (see
/// ``Conversions/numbersFromStrings`` for the rules) or a plain number, and writes a string:
/// for APIs that send numbers as strings and expect them back that way.
public struct NumericStringTransform<Number: NumericText>: ValueTransform {
  /// Creates the transform.
  public init() {}

  /// The number.
  ///
  /// - Parameter representation: A string or a number.
  /// - Returns: The number.
  public func decode(_ representation: NumberOrString<Number>) -> Number {
    representation.value
  }

  /// The number as a string.
  ///
  /// - Parameter value: The number.
  /// - Returns: The string to write.
  /// - Throws: ``ValueTransformError`` for infinity and NaN, which no numeric string spells.
  public func encode(_ value: Number) throws -> NumberOrString<Number> {
    if let double = value as? Double, !double.isFinite {
      throw ValueTransformError("\(double) cannot be written as a numeric string.")
    }
    return NumberOrString(value, asString: true)
  }
}

extension ValueTransform where Self == DecimalTransform {
  /// `Decimal` from a JSON number or a numeric string, written as a number.
  public static var decimal: DecimalTransform { DecimalTransform() }

  /// `Decimal` from a JSON number or a numeric string, written as a string.
  public static var decimalString: DecimalTransform { DecimalTransform(writesString: true) }
}

extension ValueTransform {
  /// A number from a numeric string (or a number), written as a string.
  ///
  /// ```swift
  /// var id: Int64 = 0
  /// try id <-> map["id"].using(.numericString())   // "9007199254740993" ↔ 9007199254740993
  /// ```
  ///
  /// - Parameter type: The number type; inferred from the property when omitted.
  /// - Returns: The transform.
  public static func numericString<Number>(_ type: Number.Type = Number.self) -> Self
  where Self == NumericStringTransform<Number> {
    NumericStringTransform()
  }
}
