/// A two-way conversion between a value as a document holds it and as a property holds it.
///
/// A transform reads a `Codable` ``Representation`` (a `String`, a number, an array) and makes a
/// ``Value`` of the model's type, and back. Use one in any mapping with ``Mapping/using(_:)-(Transform)``:
///
/// ```swift
/// try homepage <-> map["homepage"].using(.url)                 // URL from a string
/// try createdAt <-> map["created_at"].using(.iso8601)          // Date from ISO 8601
/// try links <-> map["* links"].using(.array(.url))             // [URL], invalid ones dropped
/// try status <-> map["status"].using(.rawValue(fallback: .unknown))
/// ```
///
/// Write your own by conforming a `Sendable` struct; throw any error when a representation does
/// not convert, and the decode throws `DecodingError.dataCorrupted` at the value's full coding
/// path, with your error's description as its message and the error as its underlying error:
///
/// ```swift
/// struct CentsTransform: ValueTransform {
///     func decode(_ cents: Int) throws -> Decimal { Decimal(cents) / 100 }
///     func encode(_ amount: Decimal) throws -> Int {
///         let cents = NSDecimalNumber(decimal: amount * 100).intValue
///         guard Decimal(cents) == amount * 100 else {
///             throw ValueTransformError("\(amount) has a fraction of a cent.")
///         }
///         return cents
///     }
/// }
/// ```
///
/// Transforms compose with ``then(_:)``. They work in every mapping operator, with optional
/// storage, and with the lossy marker for arrays and dictionaries (see ``array(_:)`` and
/// ``dictionary(_:)``).
public protocol ValueTransform<Value, Representation>: Sendable {
  /// The type of the property.
  associatedtype Value
  /// The type the document holds.
  associatedtype Representation: Codable

  /// The property value for a representation read from the document.
  ///
  /// - Parameter representation: The decoded representation.
  /// - Returns: The value.
  /// - Throws: Any error, when the representation does not convert; the decode reports it as
  ///   `DecodingError.dataCorrupted` at the value's coding path.
  func decode(_ representation: Representation) throws -> Value

  /// The representation to write for a property value.
  ///
  /// - Parameter value: The property value.
  /// - Returns: The representation.
  /// - Throws: Any error, when the value cannot be written; the encode reports it as
  ///   `EncodingError.invalidValue` at the value's coding path.
  func encode(_ value: Value) throws -> Representation
}

/// An error a ``ValueTransform`` throws, whose message becomes the message of the decode's or
/// encode's error.
public struct ValueTransformError: Error, Sendable, CustomStringConvertible, Equatable {
  /// What is wrong with the value, as a sentence.
  public let message: String

  /// Creates an error.
  ///
  /// - Parameter message: What is wrong with the value, as a sentence.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}

// MARK: - Composition

/// Two transforms applied one after the other; made by ``ValueTransform/then(_:)``.
public struct ChainedTransform<First: ValueTransform, Second: ValueTransform>: ValueTransform
where Second.Representation == First.Value {
  /// The transform that reads the document's representation.
  public let first: First
  /// The transform applied to what the first one makes.
  public let second: Second

  /// Creates the chain `first`, then `second`.
  ///
  /// - Parameters:
  ///   - first: The transform that reads the document's representation.
  ///   - second: The transform applied to what the first one makes.
  public init(_ first: First, _ second: Second) {
    self.first = first
    self.second = second
  }

  /// Decodes with `first`, then `second`.
  ///
  /// - Parameter representation: The document's representation.
  /// - Returns: The value `second` makes.
  /// - Throws: The error of either transform.
  public func decode(_ representation: First.Representation) throws -> Second.Value {
    try second.decode(first.decode(representation))
  }

  /// Encodes with `second`, then `first`.
  ///
  /// - Parameter value: The property value.
  /// - Returns: The representation `first` makes.
  /// - Throws: The error of either transform.
  public func encode(_ value: Second.Value) throws -> First.Representation {
    try first.encode(second.encode(value))
  }
}

extension ValueTransform {
  /// This transform, then `next`, which reads what this one makes.
  ///
  /// ```swift
  /// try name <-> map["name"].using(TrimmedTransform().then(ValidatingTransform(.nonEmpty)))
  /// ```
  ///
  /// - Parameter next: The transform applied to this one's values.
  /// - Returns: The composed transform; encoding applies them in the opposite order.
  public func then<Next: ValueTransform>(_ next: Next) -> ChainedTransform<Self, Next>
  where Next.Representation == Value {
    ChainedTransform(self, next)
  }
}

// MARK: - Identity

/// The transform that changes nothing: the start of a chain of defaults, modifiers and
/// validation on a plain value.
public struct IdentityTransform<Value: Codable>: ValueTransform {
  /// Creates the identity transform.
  public init() {}

  /// Returns `representation` unchanged.
  ///
  /// - Parameter representation: The value.
  /// - Returns: The same value.
  public func decode(_ representation: Value) -> Value { representation }

  /// Returns `value` unchanged.
  ///
  /// - Parameter value: The value.
  /// - Returns: The same value.
  public func encode(_ value: Value) -> Value { value }
}
