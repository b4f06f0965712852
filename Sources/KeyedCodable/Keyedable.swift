/// A type whose coding is described by one `map(map:)` function.
///
/// Conform a type to `Keyedable` and connect each property to a key with a mapping operator.
/// The same function serves decoding and encoding:
///
/// ```swift
/// struct Coordinate: Codable, Keyedable {
///     var latitude: Double!
///     var longitude: Double!
///     var elevation: Double!
///
///     mutating func map(map: KeyMap) throws {
///         try latitude <-> map["latitude"]
///         try longitude <-> map["longitude"]
///         try elevation <-> map["additionalInfo.elevation"]
///     }
///
///     init(from decoder: Decoder) throws {
///         try KeyedDecoder(with: decoder).decode(to: &self)
///     }
/// }
/// ```
///
/// `Keyedable & Encodable` types get an `encode(to:)` that runs `map(map:)` through
/// ``KeyedEncoder``. A `Decodable` type writes its `init(from:)` as above (a class passes
/// `self` instead of `&self`).
///
/// `map(map:)` may run more than once per value (the first encode of a type also collects its
/// keys), so it should only map, without other side effects.
public protocol Keyedable {
  /// Connects the type's properties to their keys.
  ///
  /// - Parameter map: The key map of the decode or encode under way; subscript it with keys.
  /// - Throws: The errors of the mappings, so that a decode or encode stops at the first one.
  mutating func map(map: KeyMap) throws
}

extension Keyedable where Self: Encodable {
  /// Encodes the value with the mappings of its `map(map:)` function.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: `EncodingError` from a mapping or from the encoder.
  public func encode(to encoder: any Encoder) throws {
    try KeyedEncoder(with: encoder).encode(from: self)
  }
}
