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
/// A key map is only valid while the `map(map:)` call it was passed to runs.
public final class KeyMap {
  /// What a key map does with the mappings it is given.
  enum Mode {
    /// Reads values from ``decoder``.
    case decoding
    /// Writes values to ``encoder``.
    case encoding
    /// Records the keys of an encode without writing anything (see ``KeyedEncoder``).
    case collecting
  }

  /// A cached decoding container for one node of the path table.
  enum DecodingSlot {
    /// Not looked at yet.
    case unopened
    /// The object at this node.
    case open(KeyedDecodingContainer<PathKey>)
    /// The member is missing (`isNull == false`) or `null`.
    case absent(isNull: Bool)
  }

  /// What one node of the path table holds in the encoded output so far.
  enum EncodingSlot {
    /// Nothing written yet.
    case empty
    /// A value written in one piece by the underlying encoder.
    case value
    /// An object whose members KeyedCodable writes one by one.
    case keyed(KeyedEncodingContainer<PathKey>)
    /// An array, written by a merged value.
    case unkeyed(any UnkeyedEncodingContainer)
  }

  let mode: Mode
  let decoder: (any Decoder)?
  let encoder: (any Encoder)?
  /// The dynamic type whose `map(map:)` runs, which owns the plan.
  let modelType: ObjectIdentifier

  /// The plan published for ``modelType`` when this run started, if any.
  let plan: MappingPlan?
  /// The published plan's path table, or a table holding only the root.
  let base: PathTable
  /// Nodes this run added after ``base``.
  var local: PathTable
  /// The mappings of this run, when it records a new plan.
  var recorded: [PlanEntry]?
  /// The position in ``plan`` of the next expected mapping.
  var cursor = 0
  /// Whether this run made a mapping its plan does not list.
  var diverged = false
  /// Whether the run is over; a key map used after its `map(map:)` returned throws.
  var isFinished = false

  /// The decoder's keyed container for the mapped object, once opened.
  var rootDecodingContainer: KeyedDecodingContainer<PathKey>?
  /// Containers of nested objects by node number; allocated on the first nested key path.
  var decodingSlots: [DecodingSlot] = []

  /// What each node holds in the output; allocated on the first write.
  var encodingSlots: [EncodingSlot] = []
  /// An error met while a merged value was being encoded, thrown when its mapping ends.
  var pendingEncodingError: (any Error)?

  init(
    mode: Mode, decoder: (any Decoder)?, encoder: (any Encoder)?, modelType: ObjectIdentifier,
    plan: MappingPlan?, recording: Bool
  ) {
    self.mode = mode
    self.decoder = decoder
    self.encoder = encoder
    self.modelType = modelType
    self.plan = plan
    base = plan?.table ?? PathTable()
    local = PathTable(continuing: base)
    recorded = recording ? [] : nil
  }

  /// Whether this key map decodes.
  var isDecoding: Bool { mode == .decoding }

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
    decoder?.userInfo ?? encoder?.userInfo ?? [:]
  }

  /// The mapping for a key path written as a string.
  ///
  /// - Parameters:
  ///   - key: The key path, read with `options`: `"id"`, `"address.city"`, `"* items"`, `""`.
  ///   - options: The markers that give the key its structure.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  public subscript(_ key: String, _ options: KeyOptions = .default) -> Mapping {
    Mapping(map: self, key: .name(key), options: options)
  }

  /// The mapping for a coding key, whose `stringValue` is read as a key path.
  ///
  /// A ``Key`` returned by ``KeysCollection`` is not parsed again: it addresses exactly the
  /// member it was listed for, whatever characters its name holds.
  ///
  /// - Parameters:
  ///   - key: The coding key, such as a case of the type's `CodingKeys`.
  ///   - options: The markers that give the key its structure.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  public subscript<Coding: CodingKey>(_ key: Coding, _ options: KeyOptions = .default) -> Mapping {
    if Coding.self == Key.self, let member = key as? Key {
      return Mapping(map: self, key: .member(member), options: options)
    }
    return Mapping(map: self, key: .name(key.stringValue), options: options)
  }

  /// The mapping for a member listed by ``KeysCollection``, addressed exactly.
  ///
  /// - Parameters:
  ///   - key: A key from ``KeysCollection/all`` or ``KeysCollection/all(for:options:)``, or one
  ///     made with ``Key/init(stringValue:)`` to name a member of the current object literally.
  ///   - options: Unused: a ``Key`` is never parsed. Accepted so that code written for other
  ///     keys compiles unchanged.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  public subscript(_ key: Key, _ options: KeyOptions = .default) -> Mapping {
    Mapping(map: self, key: .member(key), options: options)
  }
}
