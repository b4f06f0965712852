extension JSONValue: ExpressibleByNilLiteral {
  /// Creates `null` from `nil`.
  ///
  /// - Parameter nilLiteral: `nil`.
  public init(nilLiteral: ()) {
    self = .null
  }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  /// Creates `true` or `false`.
  ///
  /// - Parameter value: The literal.
  public init(booleanLiteral value: Bool) {
    self = .bool(value)
  }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// Creates a number from an integer literal.
  ///
  /// - Parameter value: The literal.
  public init(integerLiteral value: Int) {
    self = .number(Number(value))
  }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// Creates a number from a floating-point literal, written as Foundation's `JSONEncoder`
  /// writes the `Double` (`2.5`, `1e-07`, and `1` for `1.0`).
  ///
  /// - Parameter value: The literal.
  public init(floatLiteral value: Double) {
    self = .number(Number(floatLiteral: value))
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
  /// Creates a string.
  ///
  /// - Parameter value: The literal.
  public init(stringLiteral value: String) {
    self = .string(value)
  }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// Creates an array.
  ///
  /// - Parameter elements: The elements.
  public init(arrayLiteral elements: JSONValue...) {
    self = .array(elements)
  }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// Creates an object, with the members in the literal's order; of two members with one name,
  /// the first is kept.
  ///
  /// - Parameter elements: The members.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Object(elements))
  }
}
