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
    try Self.decode(&object, as: Model.self, from: decoder)
  }

  /// Decodes the mappings of a class instance into `object`.
  ///
  /// - Parameter object: The instance to fill; its `map(map:)` (including those of its
  ///   superclasses, through `super.map(map:)`) says where each property comes from.
  /// - Throws: `DecodingError` whose `codingPath` is the full path of the failing value.
  public func decode<Model: Keyedable & AnyObject>(to object: Model) throws {
    // The dynamic type: a subclass instance maps with the subclass's own plan.
    var object = object
    try Self.decode(&object, as: type(of: object), from: decoder)
  }

  /// Decodes the mappings of `object`, whose plan is `model`'s, from `decoder` opened to its own
  /// type.
  ///
  /// The default `init(from:)` of `Keyedable` models calls it without making a `KeyedDecoder`,
  /// so the decoder is never copied into an existential box on the way (three copies of it, each
  /// a retain and a release, for every nested model on the JSON coder).
  ///
  /// - Parameters:
  ///   - object: The value to fill.
  ///   - model: The type whose plan the run follows: `Model`, or the dynamic type of a class
  ///     instance.
  ///   - decoder: The decoder passed to `init(from:)`.
  /// - Throws: `DecodingError` whose `codingPath` is the full path of the failing value.
  static func decode<Model: Keyedable, Source: Decoder>(
    _ object: inout Model, as model: Any.Type, from decoder: Source
  ) throws {
    #if !KEYED_CODABLE_MAPPING_ONLY
      if Source.self == JSONValueDecoder.self {
        // `Source` is `JSONValueDecoder`: the value is that reference, read as its own type and
        // used without retaining it (`decoder` keeps it alive).
        let json = withUnsafePointer(to: decoder) {
          UnsafeRawPointer($0).load(as: Unmanaged<JSONValueDecoder>.self)
        }
        return try json._withUnsafeGuaranteedRef { try $0.decodeKeyed(&object, as: model) }
      }
    #endif
    guard let pool = RunPool.current else {
      let map = keyMap(for: model, from: decoder, pool: nil)
      try map.run.run { try object.map(map: map) }
      return
    }
    try pool.nested(decodingAt: decoder.codingPath) {
      var map = keyMap(for: model, from: decoder, pool: pool)
      defer { pool.recycleDecoding(&map) }
      try map.run.run { try object.map(map: map) }
    }
  }

  /// A key map over the decoder's own backend when it has one, over its containers otherwise
  /// (from the thread's ``RunPool``).
  ///
  /// Asks only the decoders that are known to bring a backend, by comparing their type: a
  /// dynamic cast to ``DecodingBackendProvider`` would cost more than many mappings for every
  /// other decoder. (``JSONValueDecoder`` reuses its runs: see ``decode(_:as:from:)``.)
  private static func keyMap(for modelType: Any.Type, from decoder: any Decoder, pool: RunPool?)
    -> KeyMap
  {
    #if !KEYED_CODABLE_MAPPING_ONLY
      if ObjectIdentifier(type(of: decoder)) == ObjectIdentifier(JSONSuperDecoder.self),
        let json = decoder as? JSONSuperDecoder
      {
        let (plan, readsContext) = PlanRegistry.shared.planAndContextFlag(
          for: ObjectIdentifier(modelType), decoding: true)
        return KeyMap(
          decoding: DecodeRun(
            json: json.makeJSONBackend(), model: modelType, plan: plan, readsContext: readsContext))
      }
    #endif
    if let pool {
      return pool.decodingMap(for: decoder, model: modelType)
    }
    return KeyMap(
      decoding: DecodeRun(containers: ContainerDecodingBackend(decoder), model: modelType))
  }
}
