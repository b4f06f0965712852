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
  @usableFromInline
  enum Mode {
    /// Reads values from ``decoder``.
    case decoding
    /// Writes values to ``encoder``.
    case encoding
    /// Records the keys of an encode without writing anything (see ``KeyedEncoder``).
    case collecting
  }

  /// A cached decoding container for one node of the path table.
  @usableFromInline
  enum DecodingSlot {
    /// Not looked at yet.
    case unopened
    /// The object at this node.
    case open(DecodingContainerBox)
    /// The member is missing (`isNull == false`) or `null`.
    case absent(isNull: Bool)
  }

  /// What one node of the path table holds in the encoded output so far.
  @usableFromInline
  enum EncodingState: UInt8 {
    /// Nothing written yet.
    case empty
    /// A value written in one piece by the underlying encoder.
    case value
    /// An object whose members KeyedCodable writes one by one.
    case object
    /// An array, written by a merged value.
    case array
  }

  @usableFromInline let mode: Mode
  let decoder: (any Decoder)?
  let encoder: (any Encoder)?
  /// The dynamic type whose `map(map:)` runs, which owns the plan.
  let modelType: ObjectIdentifier

  /// The plan published for ``modelType`` when this run started, if any.
  let plan: MappingPlan?
  /// The plan's entries (empty without a plan), for the check of each mapping.
  @usableFromInline let entries: [PlanEntry]
  /// How many of ``entries`` subscripts may hand out: all of them, or none while this run
  /// records a plan (it needs the type of every value) and once it is finished.
  @exclusivity(unchecked)
  @usableFromInline var plannedLimit = 0
  /// The published plan's path table, or a table holding only the root.
  let base: PathTable
  /// Nodes this run added after ``base``, once it adds one.
  @exclusivity(unchecked)
  var local: PathTable?
  /// The mappings of this run, when it records a new plan.
  @exclusivity(unchecked)
  var recorded: [PlanEntry]?
  /// The position in ``plan`` of the next expected mapping.
  @exclusivity(unchecked)
  @usableFromInline var cursor = 0
  /// Whether this run made a mapping its plan does not list.
  @exclusivity(unchecked)
  var diverged = false
  /// Whether the run is over; a key map used after its `map(map:)` returned throws.
  @exclusivity(unchecked)
  var isFinished = false

  /// The decoder's keyed container for the mapped object, once opened.
  @exclusivity(unchecked)
  @usableFromInline var rootDecodingContainer: DecodingContainerBox?
  /// Containers of nested objects by node number; allocated on the first nested key path.
  @exclusivity(unchecked)
  @usableFromInline var decodingSlots: [DecodingSlot] = []

  /// What each node holds in the output so far, by node.
  @exclusivity(unchecked)
  @usableFromInline var encodingStates: [EncodingState] = []
  /// The container of the mapped object itself, once opened.
  @exclusivity(unchecked)
  @usableFromInline var rootEncodingContainer: EncodingContainerBox?
  /// The containers of nested objects, by node; allocated on the first nested key path.
  @exclusivity(unchecked)
  var nestedEncodingContainers: [EncodingContainerBox?] = []
  /// The arrays merged values opened, by node.
  @exclusivity(unchecked)
  var encodingArrays: [Int: any UnkeyedEncodingContainer] = [:]
  /// The last value type ``isNone(_:)`` checked, and whether it is an `Optional`.
  @exclusivity(unchecked)
  var lastCheckedType: ObjectIdentifier?
  @exclusivity(unchecked)
  var lastCheckedTypeIsOptional = false
  /// An error met while a merged value was being encoded, thrown when its mapping ends.
  @exclusivity(unchecked)
  var pendingEncodingError: (any Error)?
  /// Whether this encode keeps what it writes at each node, because its plan says two mappings
  /// may write the same place (see ``MappingPlan/mayOverlap``).
  @usableFromInline let recordsWrites: Bool
  /// What was written at each node, and by which mapping, while ``recordsWrites``.
  @exclusivity(unchecked)
  var writtenValues: [Int: (value: EncodedValue, writer: String)] = [:]
  /// The key of the mapping being encoded, while ``recordsWrites``.
  @exclusivity(unchecked)
  var activeWriter = ""

  init(
    mode: Mode, decoder: (any Decoder)?, encoder: (any Encoder)?, modelType: ObjectIdentifier,
    plan: MappingPlan?, recording: Bool
  ) {
    self.mode = mode
    self.decoder = decoder
    self.encoder = encoder
    self.modelType = modelType
    self.plan = plan
    base = plan?.table ?? .rootOnly
    entries = plan?.entries ?? []
    recorded = recording ? [] : nil
    plannedLimit = recording ? 0 : entries.count
    recordsWrites = mode == .encoding && (plan?.mayOverlap ?? true)
    if mode == .encoding {
      encodingStates = Array(repeating: .empty, count: base.end)
    }
  }

  /// Whether this key map decodes.
  @inlinable var isDecoding: Bool { mode == .decoding }

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

  /// The mapping for a key path written as a string, read with the default options.
  ///
  /// - Parameter key: The key path: `"id"`, `"address.city"`, `"* items"`, `""`.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  @inlinable
  public subscript(_ key: String) -> Mapping {
    if cursor < plannedLimit {
      let entry = entries[cursor]
      if entry.hasDefaultOptions, entry.key == key {
        cursor += 1
        return Mapping(map: self, entry: entry)
      }
    }
    return mapping(named: key)
  }

  /// The mapping for a key path written as a string, read with the given options.
  ///
  /// - Parameters:
  ///   - key: The key path, read with `options`.
  ///   - options: The markers that give the key its structure.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  @inlinable
  public subscript(_ key: String, _ options: KeyOptions) -> Mapping {
    mapping(named: key, options: options)
  }

  /// The mapping for a coding key, whose `stringValue` is read as a key path.
  ///
  /// A ``Key`` returned by ``KeysCollection`` is not parsed again: it addresses exactly the
  /// member it was listed for, whatever characters its name holds.
  ///
  /// - Parameter key: The coding key, such as a case of the type's `CodingKeys`.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  @inlinable
  public subscript<Coding: CodingKey>(_ key: Coding) -> Mapping {
    if Coding.self == Key.self, let member = key as? Key {
      return self[member]
    }
    return self[key.stringValue]
  }

  /// The mapping for a coding key, whose `stringValue` is read as a key path with `options`.
  ///
  /// - Parameters:
  ///   - key: The coding key, such as a case of the type's `CodingKeys`.
  ///   - options: The markers that give the key its structure.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  @inlinable
  public subscript<Coding: CodingKey>(_ key: Coding, _ options: KeyOptions) -> Mapping {
    if Coding.self == Key.self, let member = key as? Key {
      return self[member]
    }
    return mapping(named: key.stringValue, options: options)
  }

  /// The mapping for a member listed by ``KeysCollection``, addressed exactly.
  ///
  /// - Parameter key: A key from ``KeysCollection/all`` or
  ///   ``KeysCollection/all(for:options:)-(String,_)``, or one made with
  ///   ``Key/init(stringValue:)`` to name a member of the current object literally.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  @inlinable
  public subscript(_ key: Key) -> Mapping {
    Mapping(map: self, pending: .member(key))
  }

  /// The mapping for a member listed by ``KeysCollection``, addressed exactly.
  ///
  /// - Parameters:
  ///   - key: A key from ``KeysCollection``, or one made with ``Key/init(stringValue:)``.
  ///   - options: Unused: a ``Key`` is never parsed. Accepted so that code written for other
  ///     keys compiles unchanged.
  /// - Returns: A mapping to connect to a property with a mapping operator.
  @inlinable
  public subscript(_ key: Key, _ options: KeyOptions) -> Mapping {
    self[key]
  }
}
