/// Encodes a ``Keyedable`` value to any `Encoder` by running its `map(map:)` function.
///
/// `Keyedable & Encodable` types use it through their default `encode(to:)`. A type that writes
/// its own `encode(to:)` calls it the same way:
///
/// ```swift
/// func encode(to encoder: Encoder) throws {
///     try KeyedEncoder(with: encoder).encode(from: self)
/// }
/// ```
///
/// Keys are written in the order the mappings are made. Values the output cannot hold without
/// losing one of them (two mappings writing the same key path, members written under a key that
/// holds a number) throw `EncodingError.invalidValue` instead of overwriting silently.
public struct KeyedEncoder {
  private let encoder: any Encoder

  /// Creates a keyed encoder that writes to `encoder`.
  ///
  /// - Parameter encoder: The encoder passed to `encode(to:)`.
  public init(with encoder: any Encoder) {
    self.encoder = encoder
  }

  /// Encodes the mappings of `object`.
  ///
  /// - Parameter object: The value to write; its `map(map:)` says where each property goes.
  /// - Throws: `EncodingError` whose `codingPath` is the full path of the failing value.
  public func encode<Model: Keyedable>(from object: Model) throws {
    try encode(from: object, typeField: nil)
  }

  /// Encodes the mappings of `object`, after a member naming its type (see ``TypeRegistry``).
  ///
  /// - Parameters:
  ///   - object: The value to write.
  ///   - typeField: The member's key and the type's name, or `nil` for none.
  /// - Throws: `EncodingError` whose `codingPath` is the full path of the failing value.
  func encode<Model: Keyedable>(from object: Model, typeField: (key: String, name: String)?)
    throws
  {
    var object = object
    let model = type(of: object)
    let modelType = ObjectIdentifier(model)
    var (plan, readsContext) = PlanRegistry.shared.planAndContextFlag(
      for: modelType, decoding: false)
    if plan == nil || plan?.isStable == false {
      // Learn every key path of this encode before writing, so a value that shares its key path
      // with other mappings is known to be shared before it is written.
      let collector = EncodeRun(collectingFor: model, plan: plan, userInfo: encoder.userInfo)
      let map = KeyMap(encoding: collector)
      plan = try collector.run {
        if let typeField {
          try typeField.name ->> map[Key(stringValue: typeField.key)]
        }
        try object.map(map: map)
      }
    }
    let run = EncodeRun(
      backend: backend(for: encoder), model: model, plan: plan, readsContext: readsContext)
    let userInfo = encoder.userInfo
    run.collectKeyPaths = { [object] in
      var object = object
      let collector = EncodeRun(collectingFor: model, plan: nil, userInfo: userInfo)
      let map = KeyMap(encoding: collector)
      return try collector.run {
        if let typeField {
          try typeField.name ->> map[Key(stringValue: typeField.key)]
        }
        try object.map(map: map)
      }
    }
    let map = KeyMap(encoding: run)
    try run.run {
      // The mapped object is always an object, even when every optional is nil.
      run.openRoot()
      if let typeField {
        try typeField.name ->> map[Key(stringValue: typeField.key)]
      }
      try object.map(map: map)
    }
  }
}

/// The backend an encode run writes to `encoder` through: the encoder's own, or its containers.
///
/// Asks only the encoders that are known to bring a backend, by comparing their type (see
/// ``backend(for:)-(any Decoder)``).
func backend(for encoder: any Encoder) -> any EncodingBackend {
  if ObjectIdentifier(Swift.type(of: encoder)) == ObjectIdentifier(JSONStreamEncoder.self),
    let json = encoder as? JSONStreamEncoder
  {
    return json.makeEncodingBackend()
  }
  return ContainerEncodingBackend(encoder)
}
