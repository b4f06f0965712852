extension JSONValue {
  /// The value of the member named `name`, when this value is an object that has one; `nil`
  /// otherwise.
  ///
  /// ```swift
  /// let user: JSONValue = ["name": "Ada", "address": ["city": "London"]]
  /// user["name"]                       // "Ada"
  /// user["address"]?["city"]           // "London"
  /// user["age"]                        // nil
  /// ```
  ///
  /// To change a member, go through ``objectValue``: `user.objectValue?["age"] = 36`.
  ///
  /// - Parameter name: A member name, compared as Swift strings are.
  public subscript(name: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members[name]
  }

  /// The element at `index`, when this value is an array that long; `nil` otherwise.
  ///
  /// ```swift
  /// let list: JSONValue = ["a", "b"]
  /// list[1]            // "b"
  /// list[2]            // nil
  /// ```
  ///
  /// - Parameter index: A position from 0. A negative or too large one gives `nil`.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, index >= 0, index < elements.count else {
      return nil
    }
    return elements[index]
  }

  /// The value at a key path written as in mappings (`"user.address.city"`), when every
  /// segment names a member of an object; `nil` otherwise.
  ///
  /// The path is read with `options` as a ``KeyMap`` subscript reads a key: segments split on
  /// the delimiter, empty segments are members named `""`, and the flat key (`""` by default)
  /// is this value itself. A lossy-array marker means nothing here and is read as part of a
  /// name. Segments name object members only: an array's elements are read with the index
  /// subscript.
  ///
  /// ```swift
  /// let document: JSONValue = ["data": ["user": ["name": "Ada"]], "a.b": 1]
  /// document[path: "data.user.name"]                              // "Ada"
  /// document[path: "a.b", KeyOptions(delimiter: nil)]             // 1
  /// document[path: "data.users"]                                  // nil
  /// ```
  ///
  /// - Parameters:
  ///   - path: A key path.
  ///   - options: How to read the key path; ``KeyOptions/default`` unless given.
  public subscript(path path: String, options: KeyOptions = .default) -> JSONValue? {
    let key = ParsedKey(path, options: options)
    if key.isFlat { return self }
    var value = self
    for segment in key.segments {
      guard case .object(let members) = value, let member = members[segment] else {
        return nil
      }
      value = member
    }
    return value
  }
}
