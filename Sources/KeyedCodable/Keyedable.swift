/// A type whose coding is described by one `map(map:)` function.
///
/// Conform a type to `Keyedable` and connect each property to a key with a mapping operator.
/// The same function serves decoding and encoding, and a struct whose properties all have
/// default values needs nothing else:
///
/// ```swift
/// struct Coordinate: Codable, Keyedable {
///     var latitude = 0.0
///     var longitude = 0.0
///     var elevation: Double?
///
///     mutating func map(map: KeyMap) throws {
///         try latitude <-> map["latitude"]
///         try longitude <-> map["longitude"]
///         try elevation <-> map["additionalInfo.elevation"]
///     }
/// }
/// ```
///
/// `Keyedable & Decodable` types get an `init(from:)` that makes the type's empty value with
/// ``init()`` and runs `map(map:)` through ``KeyedDecoder``; `Keyedable & Encodable` types get
/// an `encode(to:)` that runs it through ``KeyedEncoder``. The compiler writes `init()` for a
/// struct whose stored properties all have default values (optionals and implicitly unwrapped
/// optionals default to `nil`), and for a final class without initializers; a non-final class
/// declares `required init() {}`.
///
/// A type that can't be made empty (a `let` property without a value, a class whose
/// initializers take arguments) writes its own `init(from:)`, as KeyedCodable 1.x models do (a
/// class passes `self` instead of `&self`):
///
/// ```swift
/// init(from decoder: Decoder) throws {
///     try KeyedDecoder.decode(&self, as: Self.self, from: decoder)
/// }
/// ```
///
/// A `Decodable` type with neither throws `DecodingError.dataCorrupted` naming the type, on
/// every coder, instead of decoding through the compiler's synthesized `init(from:)` while it
/// encodes through `map(map:)`.
///
/// `map(map:)` may run more than once per value (the first encode of a type also collects its
/// keys), so it should only map, without other side effects.
public protocol Keyedable {
  /// Connects the type's properties to their keys.
  ///
  /// - Parameter map: The key map of the decode or encode under way; subscript it with keys.
  /// - Throws: The errors of the mappings, so that a decode or encode stops at the first one.
  mutating func map(map: KeyMap) throws

  /// Creates the empty value that the default `init(from:)` fills in with `map(map:)`.
  ///
  /// The compiler writes it for a struct whose stored properties all have default values; a
  /// non-final class declares `required init() {}`. Types that write their own `init(from:)`
  /// need none: they get one that throws.
  ///
  /// - Throws: For a type without an empty value of its own, `DecodingError.dataCorrupted`
  ///   naming the type.
  init() throws
}

extension Keyedable {
  /// Throws: the type has no empty value of its own (a property without a default value).
  ///
  /// Types that write their own `init(from:)` never call it; the default `init(from:)` reports
  /// it as `DecodingError.dataCorrupted` at the value's coding path.
  ///
  /// - Throws: `DecodingError.dataCorrupted` naming the type.
  public init() throws {
    throw MappingErrors.noEmptyValue(Self.self, codingPath: [])
  }
}

extension Keyedable where Self: Decodable {
  /// Decodes the value by filling in its empty value (``init()``) with the mappings of its
  /// `map(map:)` function, through ``KeyedDecoder``.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` from a mapping or from the decoder, and
  ///   `DecodingError.dataCorrupted` naming the type when it has no empty value.
  public init(from decoder: any Decoder) throws {
    do {
      try self.init()
    } catch let error where MappingErrors.isNoEmptyValue(error) {
      throw MappingErrors.noEmptyValue(Self.self, codingPath: decoder.codingPath)
    }
    try KeyedDecoder.decode(&self, as: Self.self, from: decoder)
  }
}

extension Keyedable where Self: Encodable {
  /// Encodes the value with the mappings of its `map(map:)` function.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: `EncodingError` from a mapping or from the encoder.
  public func encode(to encoder: any Encoder) throws {
    try KeyedEncoder.encode(self, typeMember: nil, to: encoder)
  }
}
