/// One key of a ``KeyMap``, ready to be connected to a property by a mapping operator.
///
/// Made by subscripting the key map (`map["user.name"]`); used on the right-hand side of
/// `<->`, `<<-`, `->>`, `<?>`, `<<?` and `?>>`.
public struct Mapping {
  /// How the mapping names its value.
  enum Address {
    /// A key path to parse with the mapping's options.
    case name(String)
    /// A member listed by ``KeysCollection``: never parsed.
    case member(Key)
  }

  let map: KeyMap
  let address: Address
  let options: KeyOptions
  /// Whether optional storage must find the key (see ``required()``).
  private(set) var isRequired = false

  init(map: KeyMap, key: Address, options: KeyOptions) {
    self.map = map
    self.address = key
    self.options = options
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

  /// The key as the mapping was written, for error messages.
  var keyDescription: String {
    switch address {
    case .name(let name): name
    case .member(let key): key.path.joined(separator: ".")
    }
  }
}
