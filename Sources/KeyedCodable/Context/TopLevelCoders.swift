import Foundation

/// A decoder that reads a whole document, such as `JSONDecoder`, `PropertyListDecoder` and
/// ``KeyedJSONDecoder``; KeyedCodable adds calls that take a ``MappingContext`` to it.
///
/// Conform another top-level decoder in one line to get the same calls:
///
/// ```swift
/// extension YAMLDecoder: KeyedTopLevelDecoder {}
/// let user = try YAMLDecoder().decode(User.self, from: text, with: .configuration(favorites))
/// ```
public protocol KeyedTopLevelDecoder {
  /// What the decoder reads: `Data`, a `String`, ...
  associatedtype Input

  /// Decodes a value of type `type` from `input`.
  ///
  /// - Parameters:
  ///   - type: The type of the value.
  ///   - input: The document.
  /// - Returns: The value.
  /// - Throws: The decoder's errors.
  func decode<Value: Decodable>(_ type: Value.Type, from input: Input) throws -> Value
}

/// An encoder that writes a whole document, such as `JSONEncoder`, `PropertyListEncoder` and
/// ``KeyedJSONEncoder``; KeyedCodable adds calls that take a ``MappingContext`` to it.
public protocol KeyedTopLevelEncoder {
  /// What the encoder writes: `Data`, a `String`, ...
  associatedtype Output

  /// Encodes `value`.
  ///
  /// - Parameter value: The value.
  /// - Returns: The document.
  /// - Throws: The encoder's errors.
  func encode<Value: Encodable>(_ value: Value) throws -> Output
}

extension JSONDecoder: KeyedTopLevelDecoder {}
extension PropertyListDecoder: KeyedTopLevelDecoder {}
#if !KEYED_CODABLE_MAPPING_ONLY
  extension KeyedJSONDecoder: KeyedTopLevelDecoder {
    /// ``KeyedJSONDecoder`` reads `Data` in the context calls.
    public typealias Input = Data
  }
#endif

extension JSONEncoder: KeyedTopLevelEncoder {}
extension PropertyListEncoder: KeyedTopLevelEncoder {}
#if !KEYED_CODABLE_MAPPING_ONLY
  extension KeyedJSONEncoder: KeyedTopLevelEncoder {}
#endif

extension KeyedTopLevelDecoder {
  /// Decodes a value of type `type` from `input` with `context`, which every ``Keyedable``
  /// model of the document reads through its ``KeyMap``.
  ///
  /// ```swift
  /// let user = try JSONDecoder().decode(User.self, from: data, with: .configuration(favorites))
  /// ```
  ///
  /// Works on every platform the package supports, for any decodable type.
  ///
  /// - Parameters:
  ///   - type: The type of the value.
  ///   - input: The document.
  ///   - context: The context: configurations, values, selections, registries, presets.
  /// - Returns: The value.
  /// - Throws: The decoder's errors, and those of the mappings that require context.
  public func decode<Value: Decodable>(
    _ type: Value.Type, from input: Input, with context: MappingContext
  ) throws -> Value {
    try withMappingContext(context) { try decode(type, from: input) }
  }

  /// Decodes a value and reports what lossy mappings dropped or replaced on the way.
  ///
  /// ```swift
  /// let (feed, report) = try decoder.decodeWithReport(Feed.self, from: data)
  /// if !report.isEmpty { logger.warning("\(report)") }
  /// ```
  ///
  /// The report keeps the first `entryLimit` entries and counts the others in
  /// ``DecodingReport/omittedEntryCount``, so that its memory stays bounded whatever the
  /// document holds.
  ///
  /// - Parameters:
  ///   - type: The type of the value.
  ///   - input: The document.
  ///   - context: A context to decode with; its own reporter, if any, receives the entries too.
  ///   - entryLimit: The most entries the report keeps.
  /// - Returns: The value and the report of this decode alone.
  /// - Throws: The decoder's errors.
  public func decodeWithReport<Value: Decodable>(
    _ type: Value.Type, from input: Input, with context: MappingContext = MappingContext(),
    entryLimit: Int = DecodingReport.defaultEntryLimit
  ) throws -> (value: Value, report: DecodingReport) {
    let reporter = DecodingReporter(forwardingTo: context.reporter, entryLimit: entryLimit)
    let value = try withMappingContext(context.reporting(to: reporter)) {
      try decode(type, from: input)
    }
    return (value, reporter.report)
  }

  /// Decodes `input` into an existing value: only the mappings whose keys the document (or the
  /// context's key selection) provides change it.
  ///
  /// ```swift
  /// try decoder.update(&game, from: patch, with: .selecting(["personalRating"], in: Videogame.self))
  /// ```
  ///
  /// Optional properties whose keys are missing become `nil`, as in any decode; use the
  /// if-present operators (`<?>`) or a key selection to keep them.
  ///
  /// - Parameters:
  ///   - value: The value to update.
  ///   - input: The document.
  ///   - context: A context to decode with.
  /// - Throws: The decoder's errors; `value` is unchanged when the decode throws.
  public func update<Value: Keyedable>(
    _ value: inout Value, from input: Input, with context: MappingContext = MappingContext()
  ) throws {
    let slot = UpdateSlot(value)
    try withMappingContext(context) {
      try UpdateSlot.$current.withValue(slot) {
        _ = try decode(UpdatedValue<Value>.self, from: input)
      }
    }
    if let updated = slot.value as? Value {
      value = updated
    }
  }
}

extension KeyedTopLevelEncoder {
  /// Encodes `value` with `context`, which every ``Keyedable`` model reads through its
  /// ``KeyMap``.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - context: The context: configurations, values, selections, presets.
  /// - Returns: The document.
  /// - Throws: The encoder's errors, and those of the mappings that require context.
  public func encode<Value: Encodable>(_ value: Value, with context: MappingContext) throws
    -> Output
  {
    try withMappingContext(context) { try encode(value) }
  }

  /// Encodes only the keys in `keys` of `value` (or of each element, for an array of models).
  ///
  /// ```swift
  /// let body = try encoder.encode(game, selecting: ["videogameId", "personalRating", "hoursPlayed"])
  /// ```
  ///
  /// - Parameters:
  ///   - value: A ``Keyedable`` model, or an array, set, dictionary or optional of them.
  ///   - keys: Key paths as the document spells them; a key the model does not map throws.
  /// - Returns: The document.
  /// - Throws: `EncodingError.invalidValue` for a key the model does not map, and the encoder's
  ///   errors.
  public func encode<Value: Encodable>(_ value: Value, selecting keys: [String]) throws -> Output {
    try encode(value, with: .selecting(keys, in: modelType(of: Value.self)))
  }
}

/// The value an ``KeyedTopLevelDecoder/update(_:from:with:)`` call updates, for the decode it
/// runs.
final class UpdateSlot: @unchecked Sendable {
  // Unchecked: the slot is only used by the synchronous decode of the call that made it.
  var value: Any

  init(_ value: Any) {
    self.value = value
  }

  @TaskLocal static var current: UpdateSlot?
}

/// Decodes into the value of the current ``UpdateSlot``.
private struct UpdatedValue<Value: Keyedable>: Decodable {
  init(from decoder: any Decoder) throws {
    guard let slot = UpdateSlot.current, var value = slot.value as? Value else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "No value to update."))
    }
    try KeyedDecoder(with: decoder).decode(to: &value)
    slot.value = value
  }
}

// MARK: - Foundation's configurations

@available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
extension DecodableWithConfiguration
where Self: Keyedable & Decodable, DecodingConfiguration: Sendable {
  /// Decodes the model with `configuration`, which `map(map:)` reads with
  /// ``KeyMap/configuration(_:)``.
  ///
  /// Lets a ``Keyedable`` type adopt Foundation's `DecodableWithConfiguration` by naming its
  /// configuration type:
  ///
  /// ```swift
  /// extension User: DecodableWithConfiguration {
  ///     typealias DecodingConfiguration = Favorites
  /// }
  /// let user = try JSONDecoder().decode(User.self, from: data, configuration: favorites)
  /// ```
  ///
  /// - Parameters:
  ///   - decoder: The decoder.
  ///   - configuration: The configuration (a `Sendable` type).
  /// - Throws: The errors of the decode.
  public init(from decoder: any Decoder, configuration: DecodingConfiguration) throws {
    let context = (MappingContext.current ?? MappingContext()).configuration(configuration)
    self = try withMappingContext(context) { try Self(from: decoder) }
  }
}

@available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
extension EncodableWithConfiguration
where Self: Keyedable & Encodable, EncodingConfiguration: Sendable {
  /// Encodes the model with `configuration`, which `map(map:)` reads with
  /// ``KeyMap/configuration(_:)``.
  ///
  /// Lets a ``Keyedable`` type adopt Foundation's `EncodableWithConfiguration` by naming its
  /// configuration type.
  ///
  /// - Parameters:
  ///   - encoder: The encoder.
  ///   - configuration: The configuration (a `Sendable` type).
  /// - Throws: The errors of the encode.
  public func encode(to encoder: any Encoder, configuration: EncodingConfiguration) throws {
    let context = (MappingContext.current ?? MappingContext()).configuration(configuration)
    try withMappingContext(context) { try encode(to: encoder) }
  }
}

extension KeyedDecoder {
  /// Decodes the mappings of a value type into `object` with `configuration`, which
  /// `map(map:)` reads with ``KeyMap/configuration(_:)``.
  ///
  /// For a hand-written `init(from:configuration:)`:
  ///
  /// ```swift
  /// init(from decoder: Decoder, configuration: Favorites) throws {
  ///     try KeyedDecoder(with: decoder).decode(to: &self, configuration: configuration)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - object: The value to fill.
  ///   - configuration: The configuration.
  /// - Throws: `DecodingError` whose `codingPath` is the full path of the failing value.
  public func decode<Model: Keyedable, Configuration: Sendable>(
    to object: inout Model, configuration: Configuration
  ) throws {
    let context = (MappingContext.current ?? MappingContext()).configuration(configuration)
    try withMappingContext(context) { try decode(to: &object) }
  }
}

extension KeyedEncoder {
  /// Encodes the mappings of `object` with `configuration`, which `map(map:)` reads with
  /// ``KeyMap/configuration(_:)``.
  ///
  /// - Parameters:
  ///   - object: The value to write.
  ///   - configuration: The configuration.
  /// - Throws: `EncodingError` whose `codingPath` is the full path of the failing value.
  public func encode<Model: Keyedable, Configuration: Sendable>(
    from object: Model, configuration: Configuration
  ) throws {
    let context = (MappingContext.current ?? MappingContext()).configuration(configuration)
    try withMappingContext(context) { try encode(from: object) }
  }
}
