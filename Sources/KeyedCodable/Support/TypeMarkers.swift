// Marker protocols: one generic mapping function asks whether a value's type belongs to a family
// (optionals, arrays) instead of KeyedCodable declaring an overload for every combination.

/// Implemented by `Optional`, to recognise an optional that reached generic code as a plain value.
protocol OptionalValue {
  /// The `nil` value of the type.
  static var noneValue: Self { get }
  /// Whether this value is `nil`.
  var isNone: Bool { get }
}

extension Optional: OptionalValue {
  static var noneValue: Wrapped? { nil }

  var isNone: Bool {
    if case .none = self { return true }
    return false
  }
}

/// Implemented by `Array`: the lossy-array marker only has a meaning for arrays.
protocol ArrayValue {}

extension Array: ArrayValue {}

/// Whether `value` is an optional holding `nil`, whatever its static type.
///
/// Standard scalar types are answered without a dynamic cast.
@usableFromInline
func isNilOptional<Value>(_ value: Value) -> Bool {
  guard !isStandardScalar(Value.self) else { return false }
  return (value as? any OptionalValue)?.isNone ?? false
}
