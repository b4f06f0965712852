/// One key of a ``KeyMap``, ready to be connected to a property by a mapping operator.
///
/// Made by subscripting the key map (`map["user.name"]`); used on the right-hand side of
/// `<->`, `<<-`, `->>`, `<?>`, `<<?` and `?>>`.
public struct Mapping {
  /// The key of a mapping the plan did not resolve when it was made.
  @usableFromInline
  enum Pending {
    /// Nothing is pending: ``entry`` holds everything about the key.
    case none
    /// A key path with the options to read it with.
    case name(String, KeyOptions)
    /// A member listed by ``KeysCollection``.
    case member(Key)
  }

  // Four words, all read by the fast paths without retaining anything but `map`: a mapping is
  // made and dropped for every property of every value.

  @usableFromInline let map: KeyMap
  /// What the mapping does besides reading and writing its value.
  ///
  /// A context for the value, conversions, explicit nulls, debugging; `nil` for a plain mapping,
  /// which takes the fast paths.
  @usableFromInline var extras: MappingExtras?
  /// Where the mapping's key is: the position of the plan's entry in ``PlanFollower/entries``
  /// when the plan expected this key (`0` and up), or `-1 - position` of the key in the run's
  /// ``MappingRun/pendingKeys`` when it must still be looked up or parsed for the value's type.
  @usableFromInline let reference: Int
  /// Whether optional storage must find the key (see ``required()``).
  @usableFromInline var isRequired = false

  /// A mapping the plan expected: `position` is its entry's.
  @inlinable
  init(map: KeyMap, entryAt position: Int) {
    self.map = map
    reference = position
  }

  /// A mapping whose ``reference`` is `reference`.
  @inlinable
  init(map: KeyMap, reference: Int) {
    self.map = map
    self.reference = reference
  }

  /// A mapping whose key is `-1 - reference` in the run's pending keys.
  init(map: KeyMap, pendingReference: Int) {
    self.map = map
    reference = pendingReference
  }

  /// The plan's entry, when the plan expected this key.
  var entry: PlanEntry? {
    guard reference >= 0 else { return nil }
    let entries = map.run.follower.entries
    return reference < entries.count ? entries[reference] : nil
  }

  /// The key still to be looked up (or parsed) for the value's type, when ``entry`` is `nil`.
  var pending: Pending {
    guard reference < 0 else { return .none }
    let keys = map.run.pendingKeys
    let position = -1 - reference
    return position < keys.count ? keys[position] : .none
  }

  /// The same mapping, made mandatory for optional storage.
  ///
  /// Optional properties (`T?` and `T!`) normally become `nil` when their key is missing or
  /// `null`. A required mapping throws instead: `DecodingError.keyNotFound` for a missing key,
  /// `DecodingError.valueNotFound` for `null`. Encoding a required mapping whose value is `nil`
  /// throws `EncodingError.invalidValue`, so what is written can always be read back.
  ///
  /// `T!` is an `Optional` at run time, so it is not required by itself; mark its mapping:
  ///
  /// ```swift
  /// var id: Int!
  /// mutating func map(map: KeyMap) throws {
  ///     try id <-> map["id"].required()
  /// }
  /// ```
  ///
  /// Non-optional properties are always required; for them this changes nothing. The
  /// if-present operators (`<?>`, `<<?`, `?>>`) ignore it.
  ///
  /// - Returns: A copy of the mapping that requires its key.
  public func required() -> Mapping {
    var mapping = self
    mapping.isRequired = true
    return mapping
  }

  /// The key string and options of a mapping made from a string or a `CodingKey` (for a
  /// ``Key``: its name, read literally).
  var keyAndOptions: (String, KeyOptions) {
    Self.keyAndOptions(entry: entry, pending: pending)
  }

  /// The key string and options of a mapping whose ``entry`` and ``pending`` key are these.
  static func keyAndOptions(entry: PlanEntry?, pending: Pending) -> (String, KeyOptions) {
    switch pending {
    case .name(let name, let options): (name, options)
    case .member(let key):
      (key.stringValue, KeyOptions(delimiter: nil, flat: nil, optionalArrayElements: nil))
    case .none: (entry?.key ?? "", entry?.options ?? .default)
    }
  }

  /// The key as the mapping was written, for error messages.
  var keyDescription: String {
    switch pending {
    case .name(let name, _): name
    case .member(let key): key.path.joined(separator: ".")
    case .none: entry?.key ?? ""
    }
  }
}
