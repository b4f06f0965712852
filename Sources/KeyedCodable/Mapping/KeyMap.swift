/// The object a ``Keyedable`` type's `map(map:)` receives: it turns keys into mappings.
///
/// Subscript it with a key to get a ``Mapping``, then connect the mapping to a property with one
/// of the mapping operators. The same `map(map:)` runs for decoding and for encoding; ``type``
/// tells which one is under way.
///
/// ```swift
/// mutating func map(map: KeyMap) throws {
///     try id <-> map["id"]                                  // one member
///     try city <-> map["address.city"]                       // a nested key path
///     try tags <-> map[CodingKeys.tags]                      // a CodingKey
///     try raw <-> map["v1.2", KeyOptions(delimiter: nil)]   // a key containing a dot
/// }
/// ```
///
/// A key map is only valid while the `map(map:)` call it was passed to runs: a mapping used
/// later throws.
public final class KeyMap {
  /// The run behind this key map, for what both directions share.
  @usableFromInline let run: MappingRun
  /// The run, when it decodes.
  @usableFromInline let decoding: DecodeRun?
  /// The run, when it encodes (or collects the keys of an encode).
  @usableFromInline let encoding: EncodeRun?

  init(decoding run: DecodeRun) {
    self.run = run
    decoding = run
    encoding = nil
  }

  init(encoding run: EncodeRun) {
    self.run = run
    decoding = nil
    encoding = run
  }

  /// Whether this key map decodes.
  @inlinable var isDecoding: Bool { decoding != nil }

  /// Whether this key map is decoding or encoding.
  ///
  /// While decoding, the associated ``KeysCollection`` lists the members of the objects being
  /// read, for mappings whose keys are only known from the data.
  public var type: MappingType {
    isDecoding ? .decoding(keys: KeysCollection(map: self)) : .encoding
  }

  /// The `userInfo` of the underlying decoder or encoder, for context a mapping needs.
  ///
  /// ```swift
  /// let decoder = JSONDecoder()
  /// decoder.userInfo[.currency] = "EUR"
  /// // in map(map:)
  /// let currency = map.userInfo[.currency] as? String
  /// ```
  public var userInfo: [CodingUserInfoKey: Any] {
    decoding?.userInfo ?? encoding?.userInfo ?? [:]
  }

  /// The mapping for a key path written as a string, read with the default options.
  ///
  /// - Parameter key: The key path: `"id"`, `"address.city"`, `"* items"`, `""`.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  @inlinable @inline(__always)
  public subscript(_ key: String) -> Mapping {
    run.mapping(named: key, options: nil, in: self)
  }

  /// The mapping for a key path written as a string, read with the given options.
  ///
  /// - Parameters:
  ///   - key: The key path, read with `options`.
  ///   - options: The markers that give the key its structure.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  public subscript(_ key: String, _ options: KeyOptions) -> Mapping {
    run.mapping(named: key, options: options, in: self)
  }

  /// The mapping for a coding key, whose `stringValue` is read as a key path.
  ///
  /// A ``Key`` returned by ``KeysCollection`` is not parsed again: it addresses exactly the
  /// member it was listed for, whatever characters its name holds.
  ///
  /// - Parameter key: The coding key, such as a case of the type's `CodingKeys`.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  public subscript<Coding: CodingKey>(_ key: Coding) -> Mapping {
    if Coding.self == Key.self, let member = key as? Key {
      return self[member]
    }
    return run.mapping(named: key.stringValue, options: nil, in: self)
  }

  /// The mapping for a coding key, whose `stringValue` is read as a key path with `options`.
  ///
  /// - Parameters:
  ///   - key: The coding key, such as a case of the type's `CodingKeys`.
  ///   - options: The markers that give the key its structure.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  public subscript<Coding: CodingKey>(_ key: Coding, _ options: KeyOptions) -> Mapping {
    if Coding.self == Key.self, let member = key as? Key {
      return self[member]
    }
    return run.mapping(named: key.stringValue, options: options, in: self)
  }

  /// The mapping for a member listed by ``KeysCollection``, addressed exactly.
  ///
  /// - Parameter key: A key from ``KeysCollection/all`` or
  ///   ``KeysCollection/all(for:options:)-(String,_)``, or one made with
  ///   ``Key/init(stringValue:)`` to name a member of the current object literally.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  public subscript(_ key: Key) -> Mapping {
    run.pendingMapping(.member(key), in: self)
  }

  /// The mapping for a member listed by ``KeysCollection``, addressed exactly.
  ///
  /// - Parameters:
  ///   - key: A key from ``KeysCollection``, or one made with ``Key/init(stringValue:)``.
  ///   - options: Unused: a ``Key`` is never parsed. Accepted so that code written for other
  ///     keys compiles unchanged.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  public subscript(_ key: Key, _ options: KeyOptions) -> Mapping {
    self[key]
  }
}
