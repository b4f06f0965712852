/// The standard Codable errors KeyedCodable throws itself, with the full coding path and a
/// message that names the key path as the mapping wrote it.
enum MappingErrors {
  /// A member on the way to a required value is missing or `null`.
  ///
  /// - Parameters:
  ///   - key: The absent member.
  ///   - isNull: Whether the member is `null` rather than missing.
  ///   - codingPath: The path of the object that lacks the member.
  ///   - keyPath: The mapping's key path.
  /// - Returns: `keyNotFound` for a missing member, `valueNotFound` for `null`.
  static func absentMember(
    _ key: PathKey, isNull: Bool, codingPath: [any CodingKey], keyPath: String
  ) -> DecodingError {
    if isNull {
      return .valueNotFound(
        [String: Any].self,
        .init(
          codingPath: codingPath + [key],
          debugDescription:
            "No value for key path \"\(keyPath)\": member \"\(key.stringValue)\" is null."))
    }
    return .keyNotFound(
      key,
      .init(
        codingPath: codingPath,
        debugDescription:
          "No value for key path \"\(keyPath)\": member \"\(key.stringValue)\" is missing."))
  }

  /// Why a value cannot be written where a mapping puts it.
  enum Conflict {
    /// Another mapping already wrote a value at the same key path.
    case duplicate
    /// Members were already written into the object at this key path.
    case valueOverMembers
    /// The key path already holds a value, so members cannot be written into it.
    case membersIntoValue
    /// The mapped object's own members can only be shared by a value that encodes as an object.
    case flatValueNotKeyed
    /// A required mapping has no value.
    case requiredValueMissing
  }

  /// An encoding conflict at a key path.
  ///
  /// - Parameters:
  ///   - conflict: What went wrong.
  ///   - value: The value that could not be written.
  ///   - codingPath: The full path of the key path.
  ///   - keyPath: The key path as text.
  /// - Returns: `EncodingError.invalidValue` with a message naming the key path.
  static func encoding(
    _ conflict: Conflict, value: Any, codingPath: [any CodingKey], keyPath: String
  ) -> EncodingError {
    let description =
      switch conflict {
      case .duplicate:
        "Key path \"\(keyPath)\" is encoded twice; the second value would overwrite the first."
      case .valueOverMembers:
        "Cannot encode a single value at key path \"\(keyPath)\": members were already written "
          + "into it."
      case .membersIntoValue:
        "Cannot write members under key path \"\(keyPath)\": it already holds a value that is "
          + "not an object."
      case .flatValueNotKeyed:
        "A flat mapping must hold a value that encodes as an object, whose members join those of "
          + "the object around it."
      case .requiredValueMissing:
        "Required key path \"\(keyPath)\" has no value to encode (it is nil)."
      }
    return .invalidValue(value, .init(codingPath: codingPath, debugDescription: description))
  }

  /// Two mappings write different values at one key path.
  ///
  /// - Parameters:
  ///   - first: What the first mapping wrote.
  ///   - second: What the second mapping would write.
  ///   - writers: The keys of the two mappings, as written in `map(map:)`.
  ///   - value: The second value.
  ///   - codingPath: The full path of the key path.
  ///   - keyPath: The key path as text.
  /// - Returns: `EncodingError.invalidValue` with a message naming both mappings and values.
  static func differentValues(
    _ first: EncodedValue, _ second: EncodedValue, writers: (String, String), value: Any,
    codingPath: [any CodingKey], keyPath: String
  ) -> EncodingError {
    let description =
      "Key path \"\(keyPath)\" is written twice with different values: \(first.summary()) by "
      + "map[\"\(writers.0)\"], then \(second.summary()) by map[\"\(writers.1)\"]; one would "
      + "overwrite the other."
    return .invalidValue(value, .init(codingPath: codingPath, debugDescription: description))
  }
}
