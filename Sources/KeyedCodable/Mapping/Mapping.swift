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

  @usableFromInline let map: KeyMap
  /// The plan's entry, when the plan expected this key: the operator needs no lookup at all.
  ///
  /// Unowned: the entry belongs to the plan of ``map``, which this mapping keeps alive.
  @usableFromInline unowned(unsafe) let entry: PlanEntry?
  /// The key still to be looked up (or parsed) for the value's type, when ``entry`` is `nil`.
  @usableFromInline let pending: Pending
  /// Whether optional storage must find the key (see ``required()``).
  @usableFromInline var isRequired = false
  /// What the mapping does besides reading and writing its value.
  ///
  /// A context for the value, conversions, explicit nulls, debugging; `nil` for a plain mapping,
  /// which takes the fast paths.
  @usableFromInline var extras: MappingExtras?

  @inlinable
  init(map: KeyMap, entry: PlanEntry) {
    self.map = map
    self.entry = entry
    pending = .none
  }

  @inlinable
  init(map: KeyMap, pending: Pending) {
    self.map = map
    entry = nil
    self.pending = pending
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
