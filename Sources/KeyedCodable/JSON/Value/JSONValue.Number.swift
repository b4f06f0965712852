import Foundation

extension JSONValue {
  /// A JSON number, kept as the exact text it was written with.
  ///
  /// JSON numbers have any number of digits and any exponent; `Double` rounds them and `Int`
  /// holds only some. A `Number` holds the text (``text``), so a number decoded by
  /// ``KeyedJSONDecoder`` is written back by ``KeyedJSONEncoder`` unchanged, and reads it as
  /// the type you ask for when you ask:
  ///
  /// ```swift
  /// let price = JSONValue.Number(text: "19.990")
  /// price?.text                 // "19.990"
  /// price?.doubleValue          // 19.99
  /// price?.decimalValue         // 19.99, exactly
  /// price?.intValue             // nil: not an integer
  /// ```
  ///
  /// Two numbers are equal when their decimal values are: `1`, `1.0`, `1e0` and `10E-1` are
  /// one number, so are `0` and `-0`; `0.1` and `0.10000000000000001` are two, though they
  /// round to one `Double`. Hashing agrees with equality. The comparison is exact for any
  /// number of digits and any exponent.
  ///
  /// A `Number` is `Codable` on its own too: a model can keep one member's exact text with a
  /// property of this type.
  public struct Number: Sendable {
    /// The number's JSON text, such as `"-12.50e3"`: always a valid JSON number.
    public let text: String

    /// A number whose text is known to be a valid JSON number.
    init(validText text: String) {
      self.text = text
    }

    /// Creates a number from its JSON text, or returns `nil` when `text` is not a JSON number.
    ///
    /// The text is kept as it is. JSON's grammar has no leading `+`, no leading zeros, no `.5`
    /// or `5.`, no hexadecimal, no `NaN` and no infinity.
    ///
    /// ```swift
    /// JSONValue.Number(text: "1.50")     // 1.50
    /// JSONValue.Number(text: "01")       // nil
    /// ```
    ///
    /// - Parameter text: A JSON number, such as `"42"`, `"-0.5"` or `"6.02e23"`.
    public init?(text: String) {
      var copy = text
      let isValid = copy.withUTF8 { bytes in
        guard let base = bytes.baseAddress else { return false }
        return JSONNumber.Token(base, count: bytes.count) != nil
      }
      guard isValid else { return nil }
      self.text = text
    }

    /// Creates a number from an integer, written in decimal.
    ///
    /// - Parameter value: Any integer, of any width.
    public init(_ value: some BinaryInteger) {
      text = String(value)
    }

    /// Creates a number from a `Double`, written as ``KeyedJSONEncoder`` and Foundation's
    /// `JSONEncoder` write it (the shortest text that reads back as the same `Double`, `1`
    /// rather than `1.0`), or returns `nil` for an infinity or NaN, which JSON can't hold.
    ///
    /// - Parameter value: A finite number.
    public init?(_ value: Double) {
      guard value.isFinite else { return nil }
      var bytes: [UInt8] = []
      JSONNumberWriter.append(value, to: &bytes)
      text = String(decoding: bytes, as: UTF8.self)
    }

    /// Creates a number from a `Decimal`, with all its digits, or returns `nil` for a NaN.
    ///
    /// - Parameter value: A finite decimal.
    public init?(_ value: Decimal) {
      guard value.isFinite else { return nil }
      self.init(text: value.description)
    }

    // MARK: - Reading the number

    /// The number as an `Int`, when its value is an integer that fits (`3`, `3.0`, `3e0`,
    /// `-0`); `nil` otherwise.
    public var intValue: Int? {
      integer(as: Int.self)
    }

    /// The number as a value of any fixed-width integer type, when its value is an integer
    /// the type holds; `nil` otherwise.
    ///
    /// The value is read from the digits, exactly, never through `Double`: `"9007199254740993"`
    /// is `9007199254740993` as an `Int64`, and `"1e2"` is `100`.
    ///
    /// - Parameter type: The integer type, such as `Int64` or `UInt8`.
    /// - Returns: The integer, or `nil`.
    public func integer<Integer: FixedWidthInteger>(as type: Integer.Type) -> Integer? {
      withUTF8 { start, count in
        JSONNumber.exactInteger(start, count: count, as: Integer.self)
      }
    }

    /// The number as the nearest `Double` (correctly rounded), or `nil` when it is too large
    /// (it would be infinite) or too small (it is not zero but would be) for `Double`.
    ///
    /// These are the numbers ``KeyedJSONDecoder`` and Foundation's `JSONDecoder` decode as a
    /// `Double`.
    public var doubleValue: Double? {
      withUTF8 { start, count in
        let value = JSONNumber.double(start, count: count)
        guard value.isFinite else { return nil }
        if value == 0, !JSONNumber.isZero(start, count: count) { return nil }
        return value
      }
    }

    /// The number as a `Decimal`, or `nil` when `Decimal` can't hold it.
    ///
    /// `Decimal` keeps 38 significant digits and exponents from -128 to 127; Foundation reads
    /// the text, rounding longer numbers.
    public var decimalValue: Decimal? {
      guard let value = JSONNumber.decimal(text: text),
        value.isFinite
      else { return nil }
      return value
    }

    /// Calls `body` with the text's UTF-8 bytes, which are never empty.
    func withUTF8<Result>(_ body: (UnsafePointer<UInt8>, Int) -> Result?) -> Result? {
      var copy = text
      return copy.withUTF8 { bytes in
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        return body(base, bytes.count)
      }
    }
  }
}

extension JSONValue.Number: ExpressibleByIntegerLiteral {
  /// Creates a number from an integer literal.
  ///
  /// - Parameter value: The literal.
  public init(integerLiteral value: Int) {
    self.init(value)
  }
}

extension JSONValue.Number: ExpressibleByFloatLiteral {
  /// Creates a number from a floating-point literal, written as the `Double` initializer
  /// writes it.
  ///
  /// A literal too large for `Double` (the compiler warns that it overflows to infinity) gives
  /// the largest finite `Double` of its sign.
  ///
  /// - Parameter value: The literal.
  public init(floatLiteral value: Double) {
    let finite: Double
    if value.isFinite {
      finite = value
    } else {
      finite = value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude
    }
    self.init(validText: Self(finite)?.text ?? "0")
  }
}

extension JSONValue.Number: CustomStringConvertible {
  /// The number's JSON text.
  public var description: String { text }
}
