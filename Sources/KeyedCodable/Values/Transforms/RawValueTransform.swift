/// An enumeration (or any `RawRepresentable` type) from its raw value, with an optional
/// fallback for unknown values; made by ``ValueTransform/rawValue(_:fallback:)``.
///
/// ```swift
/// enum Status: String, Codable { case active, suspended, unknown }
/// try status <-> map["status"].using(.rawValue(fallback: .unknown))
/// ```
///
/// An unknown raw value is `DecodingError.dataCorrupted` at the value's path, or, with a
/// fallback, gives the fallback and is recorded in the decode's report.
public struct RawValueTransform<Value: RawRepresentable & Sendable>: ValueTransform
where Value.RawValue: Codable {
  /// The value for unknown raw values, if any.
  public let fallback: Value?

  /// Creates the transform.
  ///
  /// - Parameter fallback: The value for unknown raw values; `nil` to throw for them.
  public init(fallback: Value? = nil) {
    self.fallback = fallback
  }

  /// The value whose raw value is `rawValue`, or the fallback.
  ///
  /// - Parameter rawValue: The raw value.
  /// - Returns: The value.
  /// - Throws: ``ValueTransformError`` for an unknown raw value without a fallback.
  public func decode(_ rawValue: Value.RawValue) throws -> Value {
    if let value = Value(rawValue: rawValue) {
      return value
    }
    let error = ValueTransformError(
      "\(CodingPathText.shown(rawValue)) is not a raw value of "
        + "\(Value.self)\(Self.knownValues).")
    guard let fallback else { throw error }
    DecodingReporter.recordReplacement(with: fallback, because: error)
    return fallback
  }

  /// The value's raw value.
  ///
  /// - Parameter value: The value.
  /// - Returns: Its raw value.
  public func encode(_ value: Value) -> Value.RawValue {
    value.rawValue
  }

  /// The known raw values, for the message, when the type lists its cases.
  private static var knownValues: String {
    guard let cases = Value.self as? any CaseIterable.Type else { return "" }
    let values = cases.allCaseValues.compactMap { ($0 as? Value)?.rawValue }.map {
      CodingPathText.shown($0)
    }
    return values.isEmpty ? "" : "; known values are \(values.joined(separator: ", "))"
  }
}

extension CaseIterable {
  /// Every case, as `Any`.
  fileprivate static var allCaseValues: [Any] { allCases.map { $0 } }
}

extension ValueTransform {
  /// An enumeration from its raw value, with an optional fallback for unknown values.
  ///
  /// ```swift
  /// try status <-> map["status"].using(.rawValue(fallback: .unknown))
  /// try level <-> map["level"].using(.rawValue(LogLevel.self))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The enumeration; inferred from the property when omitted.
  ///   - fallback: The value for unknown raw values; `nil` to throw for them.
  /// - Returns: The transform.
  public static func rawValue<Value>(_ type: Value.Type = Value.self, fallback: Value? = nil)
    -> Self
  where Self == RawValueTransform<Value> {
    RawValueTransform(fallback: fallback)
  }
}
