// Rules used on values they cannot check: `numbers <-> map["n"].validateEach(.nonEmpty)` on an
// `[Int]`. Without these, the compiler says "contextual member reference to static property
// 'nonEmpty' requires 'Self' constraint in the protocol extension". Each unavailable member
// below has no constraint, so it is found only when the real one's constraint fails: a rule on
// a value of the right type is never ambiguous. Their bodies can't be called (the compiler
// refuses every use); each returns a rule that rejects every value rather than trapping.

extension ValidationRule {
  /// Unavailable: ``nonEmpty`` checks a `String` or a collection.
  @available(
    *, unavailable,
    message:
      "'nonEmpty' checks a String or a collection, and the value this rule checks is neither; with validateEach(_:) the rule checks each element of the array"
  )
  public static var nonEmpty: ValidationRule {
    ValidationRule("unavailable") { _ in false }
  }

  /// Unavailable: ``count(_:)`` checks a `String` or a collection.
  ///
  /// - Parameter range: The allowed counts.
  /// - Returns: Nothing: unavailable.
  @available(
    *, unavailable,
    message:
      "'count(_:)' checks a String or a collection, and the value this rule checks is neither; with validateEach(_:) the rule checks each element of the array"
  )
  public static func count(_ range: ClosedRange<Int>) -> ValidationRule {
    ValidationRule("unavailable") { _ in false }
  }

  /// Unavailable: ``pattern(_:)`` checks a `String`.
  ///
  /// - Parameter pattern: An `NSRegularExpression` pattern.
  /// - Returns: Nothing: unavailable.
  @available(
    *, unavailable,
    message:
      "'pattern(_:)' checks a String, and the value this rule checks is not one; with validateEach(_:) the rule checks each element of the array"
  )
  public static func pattern(_ pattern: String) -> ValidationRule {
    ValidationRule("unavailable") { _ in false }
  }
}
