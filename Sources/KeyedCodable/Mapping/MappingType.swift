/// Whether a ``KeyMap`` is decoding or encoding.
///
/// ```swift
/// mutating func map(map: KeyMap) throws {
///     guard case .decoding(let keys) = map.type else { return }
///     for key in keys.all(for: "rates") {
///         var rate: Double?
///         try rate <<- map[key]
///         rates[key.stringValue] = rate
///     }
/// }
/// ```
public enum MappingType {
  /// The key map reads values; `keys` lists the members of the objects being read.
  case decoding(keys: KeysCollection)
  /// The key map writes values.
  case encoding

  /// Whether the key map reads values.
  public var isDecoding: Bool {
    if case .decoding = self { return true }
    return false
  }
}
