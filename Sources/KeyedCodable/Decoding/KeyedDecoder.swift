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
    let run = makeRun(for: Model.self)
    let map = KeyMap(decoding: run)
    try run.run { try object.map(map: map) }
  }

  /// Decodes the mappings of a class instance into `object`.
  ///
  /// - Parameter object: The instance to fill; its `map(map:)` (including those of its
  ///   superclasses, through `super.map(map:)`) says where each property comes from.
  /// - Throws: `DecodingError` whose `codingPath` is the full path of the failing value.
  public func decode<Model: Keyedable & AnyObject>(to object: Model) throws {
    // The dynamic type: a subclass instance maps with the subclass's own plan.
    var object = object
    let run = makeRun(for: type(of: object))
    let map = KeyMap(decoding: run)
    try run.run { try object.map(map: map) }
  }

  /// A run over the decoder's own backend when it has one, over its containers otherwise.
  private func makeRun(for modelType: Any.Type) -> DecodeRun {
    DecodeRun(backend: backend(for: decoder), model: modelType)
  }
}

/// The backend a decode run reads `decoder` through: the decoder's own, or its containers.
///
/// Asks only the decoders that are known to bring a backend, by comparing their type: a dynamic
/// cast to ``DecodingBackendProvider`` would cost more than many mappings for every other
/// decoder.
func backend(for decoder: any Decoder) -> any DecodingBackend {
  let type = ObjectIdentifier(Swift.type(of: decoder))
  if type == ObjectIdentifier(JSONValueDecoder.self), let json = decoder as? JSONValueDecoder {
    return json.makeDecodingBackend()
  }
  if type == ObjectIdentifier(JSONSuperDecoder.self), let json = decoder as? JSONSuperDecoder {
    return json.makeDecodingBackend()
  }
  return ContainerDecodingBackend(decoder)
}
