/// A transform of optional values: `nil` stays `nil`, other values go through ``wrapped``;
/// made by ``ValueMapping/default(_:when:)->ValueMapping<OptionalTransform<Transform>>`` for optional storage.
///
/// It lets a mapping whose transform makes a non-optional value, such as
/// `polymorphic(_:)`, take `nil` as its default:
///
/// ```swift
/// var payload: (any Payload)?
/// try payload <-> map["payload"].polymorphic(.payloads).default(nil, when: .invalid)
/// ```
public struct OptionalTransform<Wrapped: ValueTransform>: ValueTransform {
  /// The transform of the values that are there.
  public let wrapped: Wrapped

  /// Creates the transform.
  ///
  /// - Parameter wrapped: The transform of the values that are there.
  public init(_ wrapped: Wrapped) {
    self.wrapped = wrapped
  }

  /// `nil` for `nil`, or the value `wrapped` makes.
  ///
  /// - Parameter representation: The document's representation, or `nil`.
  /// - Returns: The value, or `nil`.
  /// - Throws: The error of `wrapped`.
  public func decode(_ representation: Wrapped.Representation?) throws -> Wrapped.Value? {
    guard let representation else { return nil }
    return try wrapped.decode(representation)
  }

  /// `nil` for `nil`, or the representation `wrapped` makes.
  ///
  /// - Parameter value: The property value, or `nil`.
  /// - Returns: The representation, or `nil`.
  /// - Throws: The error of `wrapped`.
  public func encode(_ value: Wrapped.Value?) throws -> Wrapped.Representation? {
    guard let value else { return nil }
    return try wrapped.encode(value)
  }
}
