/// Decodes a ``Keyedable`` value from any `Decoder` by running its `map(map:)` function.
///
/// Call it from `init(from:)`:
///
/// ```swift
/// init(from decoder: Decoder) throws {              // a struct
///     try KeyedDecoder(with: decoder).decode(to: &self)
/// }
///
/// required init(from decoder: Decoder) throws {     // a class
///     try KeyedDecoder(with: decoder).decode(to: self)
/// }
/// ```
public struct KeyedDecoder {
  private let decoder: any Decoder

  /// Creates a keyed decoder that reads from `decoder`.
  ///
  /// - Parameter decoder: The decoder passed to `init(from:)`.
  public init(with decoder: any Decoder) {
    self.decoder = decoder
  }

  /// Decodes the mappings of a value type into `object`.
  ///
  /// - Parameter object: The value to fill; its `map(map:)` says where each property comes from.
  /// - Throws: `DecodingError` whose `codingPath` is the full path of the failing value.
  public func decode<Model: Keyedable>(to object: inout Model) throws {
    try makeMap(for: Model.self).run { try object.map(map: $0) }
  }

  /// Decodes the mappings of a class instance into `object`.
  ///
  /// - Parameter object: The instance to fill; its `map(map:)` (including those of its
  ///   superclasses, through `super.map(map:)`) says where each property comes from.
  /// - Throws: `DecodingError` whose `codingPath` is the full path of the failing value.
  public func decode<Model: Keyedable & AnyObject>(to object: Model) throws {
    // The dynamic type: a subclass instance maps with the subclass's own plan.
    var object = object
    try makeMap(for: type(of: object)).run { try object.map(map: $0) }
  }

  private func makeMap(for modelType: Any.Type) -> KeyMap {
    let typeID = ObjectIdentifier(modelType)
    let plan = PlanRegistry.shared.plan(for: typeID, decoding: true)
    return KeyMap(
      mode: .decoding, decoder: decoder, encoder: nil, modelType: typeID, plan: plan,
      recording: plan == nil)
  }
}
