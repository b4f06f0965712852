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
  @inline(never)
  static func absentMember(
    _ key: PathKey, isNull: Bool, codingPath: [any CodingKey], keyPath: String
  ) -> any Error {
    if isNull {
      return DecodingError.valueNotFound(
        [String: Any].self,
        .init(
          codingPath: codingPath + [key],
          debugDescription:
            "No value for key path \"\(keyPath)\": member \"\(key.stringValue)\" is null."))
    }
    return DecodingError.keyNotFound(
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
  @inline(never)
  static func encoding(
    _ conflict: Conflict, value: Any, codingPath: [any CodingKey], keyPath: String
  ) -> any Error {
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
    return EncodingError.invalidValue(
      value, .init(codingPath: codingPath, debugDescription: description))
  }

  /// Two mappings write different values at one key path.
  ///
  /// - Parameters:
  ///   - first: What the first mapping wrote.
  ///   - second: What the second mapping would write.
  ///   - writers: The two writers, as messages name them (see ``mapping(_:)``).
  ///   - value: The second value.
  ///   - codingPath: The full path of the key path.
  ///   - keyPath: The key path as text.
  /// - Returns: `EncodingError.invalidValue` with a message naming both mappings and values.
  @inline(never)
  static func differentValues(
    _ first: EncodedValue, _ second: EncodedValue, writers: (String, String), value: Any,
    codingPath: [any CodingKey], keyPath: String
  ) -> any Error {
    let description =
      "Key path \"\(keyPath)\" is written twice with different values: \(first.summary()) by "
      + "\(writers.0), then \(second.summary()) by \(writers.1); one would overwrite the other."
    return EncodingError.invalidValue(
      value, .init(codingPath: codingPath, debugDescription: description))
  }

  /// A mapping as messages name it: its key as written in `map(map:)`, `map["a.b"]`.
  static func mapping(_ key: String) -> String {
    "map[\"\(key)\"]"
  }

  /// What messages call the registry that writes the type member of a polymorphic value.
  static let typeRegistry = "the type registry"

  /// A polymorphic value's model writes a value at its type member that is not one of its
  /// type's names (see ``TypeRegistry``).
  ///
  /// - Parameters:
  ///   - written: What the model writes.
  ///   - names: The names the type is registered under.
  ///   - model: The model type.
  ///   - writer: The key of the model's mapping, as written in `map(map:)`.
  ///   - value: The value written.
  ///   - codingPath: The full path of the type member.
  ///   - keyPath: The type member's key path as text.
  /// - Returns: `EncodingError.invalidValue` naming the names and what was written.
  static func typeNameMismatch(
    _ written: EncodedValue, names: [String], model: Any.Type, writer: String, value: Any,
    codingPath: [any CodingKey], keyPath: String
  ) -> EncodingError {
    let listed = names.map { CodingPathText.quoted($0) }.joined(separator: ", ")
    let description =
      "Key path \"\(keyPath)\" must hold a name \(model) is registered under (\(listed)), as "
      + "the type registry reads it back; \(mapping(writer)) writes \(written.summary())."
    return .invalidValue(value, .init(codingPath: codingPath, debugDescription: description))
  }

  /// A mapping used after the `map(map:)` call it was made in returned.
  ///
  /// - Parameters:
  ///   - keyPath: The mapping's key as written.
  ///   - decoding: Whether the run decoded.
  /// - Returns: `DecodingError.dataCorrupted` or `EncodingError.invalidValue` at the root.
  static func usedAfterRun(_ keyPath: String, decoding: Bool) -> any Error {
    let description =
      "The key map for \"\(keyPath)\" was used after the map(map:) call it was passed to "
      + "returned; a KeyMap is only valid during that call."
    if decoding {
      return DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: description))
    }
    return EncodingError.invalidValue(
      keyPath, .init(codingPath: [], debugDescription: description))
  }

  /// The error of a ``Keyedable`` type that has no empty value for the default `init(from:)` to
  /// fill in: a property without a default value, and no `init(from:)` of its own.
  ///
  /// - Parameters:
  ///   - model: The type.
  ///   - codingPath: The path of the value being decoded.
  /// - Returns: The error.
  @inline(never)
  static func noEmptyValue(_ model: Any.Type, codingPath: [any CodingKey]) -> any Error {
    DecodingError.dataCorrupted(
      .init(
        codingPath: codingPath,
        debugDescription: noEmptyValuePrefix + "\(model) needs an empty value to fill in: give "
          + "each stored property a default value (or make it optional), or write "
          + "`init(from:)` that calls `KeyedDecoder(with: decoder).decode(to: &self)`."))
  }

  private static let noEmptyValuePrefix = "Keyedable: "

  /// Whether `error` is a `DecodingError`.
  ///
  /// Out of line, as the error makers are: a function that tests for a `DecodingError` (a
  /// resilient type) itself looks up its metadata whenever it starts, even when nothing throws.
  @inline(never)
  static func isDecodingError(_ error: any Error) -> Bool {
    error is DecodingError
  }

  /// Whether `error` is a `DecodingError.keyNotFound` or `.valueNotFound`: a missing member or
  /// `null` (out of line, as ``isDecodingError(_:)``).
  @inline(never)
  static func isAbsence(_ error: any Error) -> Bool {
    switch error {
    case DecodingError.keyNotFound, DecodingError.valueNotFound: true
    default: false
    }
  }

  /// Whether `error` is ``noEmptyValue(_:codingPath:)``'s.
  @inline(never)
  static func isNoEmptyValue(_ error: any Error) -> Bool {
    guard case DecodingError.dataCorrupted(let context) = error else { return false }
    return context.debugDescription.hasPrefix(noEmptyValuePrefix)
  }

  /// A state KeyedCodable's own code should never reach, reported instead of trapping.
  ///
  /// - Parameters:
  ///   - description: What went wrong.
  ///   - codingPath: Where.
  /// - Returns: `DecodingError.dataCorrupted` naming the problem as a KeyedCodable bug.
  @inline(never)
  static func internalInconsistency(_ description: String, codingPath: [any CodingKey])
    -> any Error
  {
    DecodingError.dataCorrupted(
      .init(
        codingPath: codingPath,
        debugDescription: "KeyedCodable internal error (please report it): \(description)"))
  }

  /// Gives an error an encoder threw below an object the full coding path from the root.
  ///
  /// Foundation's `JSONEncoder` leaves the keys of containers opened with
  /// `nestedContainer(keyedBy:forKey:)` out of the paths of the errors it throws (a `NaN` at
  /// `"a.b.c"` is reported at `["c"]`). When the error's path starts with the encoder's own path
  /// (`base`) but not with `expected`, the path of the object written to, the keys between them
  /// are put back. Errors whose path is already complete, and errors of any other kind, are
  /// returned unchanged.
  ///
  /// - Parameters:
  ///   - error: The error the encoder threw.
  ///   - expected: The full path of the object the value was written into.
  ///   - base: The path of the encoder the run writes to.
  /// - Returns: The error with its full path.
  static func withFullPath(
    _ error: any Error, expected: [any CodingKey], base: [any CodingKey]
  ) -> any Error {
    guard case EncodingError.invalidValue(let value, let context) = error else { return error }
    let reported = context.codingPath
    guard reported.count > base.count, !startsWith(reported, expected), startsWith(reported, base)
    else { return error }
    return EncodingError.invalidValue(
      value,
      .init(
        codingPath: expected + reported[base.count...],
        debugDescription: context.debugDescription, underlyingError: context.underlyingError))
  }

  /// Whether `path` begins with the keys of `prefix`.
  private static func startsWith(_ path: [any CodingKey], _ prefix: [any CodingKey]) -> Bool {
    path.count >= prefix.count
      && zip(path, prefix).allSatisfy {
        $0.stringValue == $1.stringValue && $0.intValue == $1.intValue
      }
  }

  /// A lossy array whose container does not move past an invalid element.
  ///
  /// - Parameters:
  ///   - position: The index of the element.
  ///   - codingPath: The path of the array.
  /// - Returns: `DecodingError.dataCorrupted` at the element's path.
  @inline(never)
  static func cannotSkipElement(at position: Int, codingPath: [any CodingKey]) -> any Error {
    DecodingError.dataCorrupted(
      .init(
        codingPath: codingPath + [PathKey(index: position)],
        debugDescription:
          "Cannot step over the invalid element at index \(position) of a lossy array."))
  }

  /// A write into an array a merged value could not open (the reason was thrown already).
  ///
  /// - Parameter codingPath: The array's path.
  /// - Returns: `EncodingError.invalidValue` at the array's path.
  @inline(never)
  static func arrayNotOpened(codingPath: [any CodingKey]) -> any Error {
    EncodingError.invalidValue(
      "an array",
      .init(codingPath: codingPath, debugDescription: "This array could not be opened."))
  }

  /// A key selection names a key the model does not map.
  ///
  /// - Parameters:
  ///   - key: The selected key, as the caller wrote it.
  ///   - model: The model type.
  ///   - decoding: Whether the run decodes.
  ///   - codingPath: The coding path of the model.
  /// - Returns: `DecodingError.dataCorrupted` or `EncodingError.invalidValue`.
  @inline(never)
  static func unmappedSelection(
    _ key: String, model: Any.Type, decoding: Bool, codingPath: [any CodingKey]
  ) -> any Error {
    let message =
      "The key selection names \"\(key)\", which \(model) does not map. Select key paths as "
      + "the model's map(map:) writes them."
    if decoding {
      return DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: message))
    }
    return EncodingError.invalidValue(
      key, .init(codingPath: codingPath, debugDescription: message))
  }

  /// `error` with a note naming the model whose mapping threw it and the type it expected, for
  /// the readable forms (see ``ErrorNote``).
  ///
  /// Only an error without an underlying error gets a note: one that has an underlying error
  /// keeps it where code that catches it looks for it.
  ///
  /// An error that already has a note keeps it: the innermost model knows best.
  ///
  /// - Parameters:
  ///   - error: The error a mapping throws.
  ///   - model: The model type.
  ///   - expected: The type the mapping reads or writes, when the error is about that value.
  ///   - keyPath: The mapping's key path, as written, if the error comes from a mapping.
  /// - Returns: The error, with a note when it had no underlying error.
  @inline(never)
  static func noted(
    _ error: any Error, model: Any.Type, expected: Any.Type?, keyPath: String?
  ) -> any Error {
    let underlying: (any Error)?
    switch error {
    case DecodingError.keyNotFound(_, let context), DecodingError.valueNotFound(_, let context),
      DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context):
      underlying = context.underlyingError
    case EncodingError.invalidValue(_, let context):
      underlying = context.underlyingError
    default:
      return error
    }
    guard underlying == nil else { return error }
    return ErrorNote.attach(
      to: error, modelType: model, expectedType: expected, keyPath: keyPath)
  }

  /// Whether `error` is about the value at `valuePath` itself (its member is missing, `null`,
  /// of the wrong type or invalid), rather than about an object on its way or a value inside it.
  ///
  /// - Parameters:
  ///   - error: A decoding error.
  ///   - valuePath: The full coding path of a mapping's value.
  /// - Returns: Whether the error names that value.
  static func isAbout(_ error: any Error, valueAt valuePath: [any CodingKey]) -> Bool {
    func same(_ path: [any CodingKey]) -> Bool {
      path.count == valuePath.count
        && zip(path, valuePath).allSatisfy {
          $0.stringValue == $1.stringValue && $0.intValue == $1.intValue
        }
    }
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      return same(context.codingPath + [key])
    case DecodingError.valueNotFound(_, let context), DecodingError.typeMismatch(_, let context),
      DecodingError.dataCorrupted(let context):
      return same(context.codingPath)
    default:
      return false
    }
  }
}
