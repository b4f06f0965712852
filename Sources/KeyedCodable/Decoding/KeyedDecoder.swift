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
    #if !KEYED_CODABLE_MAPPING_ONLY
      if let json = jsonDecoder {
        var map = json.keyMap(for: Model.self)
        defer { json.recycle(&map) }
        try map.run.run { try object.map(map: map) }
        return
      }
    #endif
    guard let pool = RunPool.current else {
      let map = keyMap(for: Model.self, pool: nil)
      try map.run.run { try object.map(map: map) }
      return
    }
    try pool.nested(decodingAt: decoder.codingPath) {
      var map = keyMap(for: Model.self, pool: pool)
      defer { pool.recycleDecoding(&map) }
      try map.run.run { try object.map(map: map) }
    }
  }

  /// Decodes the mappings of a class instance into `object`.
  ///
  /// - Parameter object: The instance to fill; its `map(map:)` (including those of its
  ///   superclasses, through `super.map(map:)`) says where each property comes from.
  /// - Throws: `DecodingError` whose `codingPath` is the full path of the failing value.
  public func decode<Model: Keyedable & AnyObject>(to object: Model) throws {
    // The dynamic type: a subclass instance maps with the subclass's own plan.
    var object = object
    #if !KEYED_CODABLE_MAPPING_ONLY
      if let json = jsonDecoder {
        var map = json.keyMap(for: type(of: object))
        defer { json.recycle(&map) }
        try map.run.run { try object.map(map: map) }
        return
      }
    #endif
    guard let pool = RunPool.current else {
      let map = keyMap(for: type(of: object), pool: nil)
      try map.run.run { try object.map(map: map) }
      return
    }
    try pool.nested(decodingAt: decoder.codingPath) {
      var map = keyMap(for: type(of: object), pool: pool)
      defer { pool.recycleDecoding(&map) }
      try map.run.run { try object.map(map: map) }
    }
  }

  #if !KEYED_CODABLE_MAPPING_ONLY
    /// The decoder as ``KeyedJSONDecoder``'s own, which keeps runs for reuse; other decoders are
    /// told apart by comparing types, before any dynamic cast.
    private var jsonDecoder: JSONValueDecoder? {
      Self.jsonDecoder(decoder)
    }

    /// `decoder` as a ``JSONValueDecoder``, or `nil`: the existential is opened, the type
    /// compared, and the reference taken as it is (a dynamic cast costs a few hundred
    /// instructions, once per decoded object).
    private static func jsonDecoder<Opened: Decoder>(_ decoder: Opened) -> JSONValueDecoder? {
      guard Opened.self == JSONValueDecoder.self else { return nil }
      // `Opened` is `JSONValueDecoder`: the value is that reference, read as its own type.
      return withUnsafePointer(to: decoder) {
        $0.withMemoryRebound(to: JSONValueDecoder.self, capacity: 1) { $0.pointee }
      }
    }
  #endif

  /// A key map over the decoder's own backend when it has one, over its containers otherwise
  /// (from the thread's ``RunPool``).
  ///
  /// Asks only the decoders that are known to bring a backend, by comparing their type: a
  /// dynamic cast to ``DecodingBackendProvider`` would cost more than many mappings for every
  /// other decoder. (``JSONValueDecoder`` reuses its runs: see ``decode(to:)-(Model)``.)
  private func keyMap(for modelType: Any.Type, pool: RunPool?) -> KeyMap {
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
