/// The members of the objects a ``KeyMap`` is decoding, for keys only the data knows.
///
/// Get it from ``MappingType/decoding(keys:)``. Every ``Key`` it returns can be passed back to the
/// key map to read exactly that member.
///
/// ```swift
/// mutating func map(map: KeyMap) throws {
///     guard case .decoding(let keys) = map.type else { return }
///     for key in keys.all(for: CodingKeys.vault) {
///         var method: PaymentMethod?
///         try? method <<- map[key]              // skip members that are not payment methods
///         if let method { methods.append(method) }
///     }
/// }
/// ```
///
/// Members are listed in the order the underlying decoder reports them. `JSONDecoder` reports
/// them in no particular order; sort the keys when order matters.
public struct KeysCollection {
  let map: KeyMap

  /// The members of the object being mapped.
  public var all: [Key] {
    map.decoding?.memberKeys(of: nil) ?? []
  }

  /// The members of the object at a key path.
  ///
  /// - Parameters:
  ///   - key: The key path of the object, read with `options`; the flat key (`""` by default)
  ///     means the object being mapped.
  ///   - options: The markers that give the key its structure.
  /// - Returns: The object's members, or an empty array when there is no object at `key`
  ///   (the key is missing, `null`, or holds another kind of value).
  public func all(for key: String, options: KeyOptions = .default) -> [Key] {
    map.decoding?.memberKeys(of: map[key, options]) ?? []
  }

  /// The members of the object at a coding key's key path.
  ///
  /// - Parameters:
  ///   - key: The coding key whose `stringValue` is read as a key path with `options`, or a
  ///     ``Key`` from an earlier listing, to list the members of a nested object.
  ///   - options: The markers that give the key its structure.
  /// - Returns: The object's members, or an empty array when there is no object at `key`.
  public func all<Coding: CodingKey>(for key: Coding, options: KeyOptions = .default) -> [Key] {
    map.decoding?.memberKeys(of: map[key, options]) ?? []
  }
}
