extension MappingErrors {
  /// How messages name an ``UnmappedMembers`` mapping written with `key`.
  static func unmappedName(_ key: String) -> String {
    key.isEmpty ? "map.unmapped" : "map.unmapped(at: \(CodingPathText.quoted(key)))"
  }

  /// A mapping made after an ``UnmappedMembers`` mapping reads a member of its object.
  ///
  /// - Parameters:
  ///   - key: The unmapped mapping's key.
  ///   - later: The key of the mapping made after it.
  ///   - model: The model type.
  ///   - decoding: Whether the run decodes.
  ///   - codingPath: The path of the mapped object.
  /// - Returns: `DecodingError.dataCorrupted` or `EncodingError.invalidValue`.
  static func unmappedBeforeMapping(
    _ key: String, later: String, model: Any.Type, decoding: Bool, codingPath: [any CodingKey]
  ) -> any Error {
    let description =
      "\(unmappedName(key)) in \(model) is followed by map[\(CodingPathText.quoted(later))], "
      + "which reads a member of the same object: write \(unmappedName(key)) after every "
      + "mapping of its object, so that it knows which members they read."
    if decoding {
      return DecodingError.dataCorrupted(
        .init(codingPath: codingPath, debugDescription: description))
    }
    return EncodingError.invalidValue(
      later, .init(codingPath: codingPath, debugDescription: description))
  }

  /// A flat value read the member an ``UnmappedMembers`` mapping of a nested object is under:
  /// which of its members it read is not known.
  static func unmappedUnderFlatRead(
    _ key: String, member: String, model: Any.Type, codingPath: [any CodingKey]
  ) -> DecodingError {
    .dataCorrupted(
      .init(
        codingPath: codingPath,
        debugDescription:
          "\(unmappedName(key)) in \(model) can't tell which members of "
          + "\(CodingPathText.quoted(member)) the flat value (map[\"\"]) read: map that "
          + "object's members with key paths instead, or keep its unmapped members at the "
          + "mapped object (map.unmapped)."))
  }

  /// A member kept by an ``UnmappedMembers`` mapping is also written by a mapping.
  static func unmappedConflict(
    _ name: String, key: String, value: JSONValue, codingPath: [any CodingKey]
  ) -> EncodingError {
    .invalidValue(
      value,
      .init(
        codingPath: codingPath,
        debugDescription:
          "Member \(CodingPathText.quoted(name)) kept by \(unmappedName(key)) is also written "
          + "by a mapping; one would overwrite the other. Remove it from the unmapped members, "
          + "or stop mapping it."))
  }

  /// The value of an ``UnmappedMembers`` mapping to encode is a `JSONValue` that is not an
  /// object.
  static func unmappedNotObject(_ value: JSONValue, key: String, codingPath: [any CodingKey])
    -> EncodingError
  {
    .invalidValue(
      value,
      .init(
        codingPath: codingPath,
        debugDescription:
          "\(unmappedName(key)) holds \(kind(of: value)), not an object: its members "
          + "are written as members of the object, so it must be an object."))
  }

  /// What a value is, for messages: "null", "a number", ...
  private static func kind(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "a Boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
