/// The members of an object that no other mapping of the model reads, ready to be connected to
/// a `[String: JSONValue]` or `JSONValue` property by a mapping operator.
///
/// Made by ``KeyMap/unmapped`` (the mapped object's own members) or
/// ``KeyMap/unmapped(at:_:)`` (the members of a nested object). Decoding collects every member
/// of the object whose name no mapping of the model reads; encoding writes them back after the
/// mapped members, so that a document decoded and encoded again keeps what the model doesn't
/// name:
///
/// ```swift
/// struct Settings: Codable, Keyedable {
///     var theme = ""
///     var extra: [String: JSONValue] = [:]
///
///     mutating func map(map: KeyMap) throws {
///         try theme <-> map["display.theme"]
///         try extra <-> map.unmapped          // every member but "display"
///     }
/// }
/// ```
///
/// A mapping *reads* the first member of its key path below the object (`"display.theme"` reads
/// `display` of the mapped object, and `theme` of `display`), a mapping of the object itself or
/// of one around it reads all its members, and a flat value (`map[""]`) reads the members it
/// decodes. Write the unmapped mapping after every mapping of its object: a mapping after it
/// that reads one of its members makes the decode or encode throw. See <doc:UnknownMembersKept>.
public struct UnmappedMembers {
  /// The key map of the run.
  let map: KeyMap
  /// The key path of the object, as written.
  let key: String
  /// The options the key path is read with.
  let options: KeyOptions
}

extension KeyMap {
  /// The members of the mapped object that no other mapping of the model reads.
  ///
  /// Connect it to a `[String: JSONValue]` or a `JSONValue` property, after the other mappings:
  ///
  /// ```swift
  /// mutating func map(map: KeyMap) throws {
  ///     try id <-> map["id"]
  ///     try theme <-> map["display.theme"]
  ///     try extra <-> map.unmapped        // every member but "id" and "display"
  /// }
  /// ```
  public var unmapped: UnmappedMembers {
    UnmappedMembers(map: self, key: "", options: .default)
  }

  /// The members of the object at a key path that no other mapping of the model reads.
  ///
  /// ```swift
  /// try theme <-> map["display.theme"]
  /// try displayExtra <-> map.unmapped(at: "display")   // every member of display but "theme"
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key path of the object, read as ``KeyMap`` reads keys: the flat key `""` is
  ///     the mapped object itself. A lossy marker means nothing here: the object is a member
  ///     with that name.
  ///   - options: The markers that give the key its structure, as for a mapping.
  /// - Returns: The object's unmapped members, to connect to a property.
  public func unmapped(at key: String, _ options: KeyOptions = .default) -> UnmappedMembers {
    UnmappedMembers(map: self, key: key, options: options)
  }
}

// MARK: - Operators

/// Decodes the members no other mapping reads into `left`, or encodes `left`'s members after the
/// mapped ones.
///
/// Decoding sets `left` to every unread member of the object (an empty dictionary when there is
/// none, or no object); encoding writes each member in the order of the names.
///
/// ```swift
/// try extra <-> map.unmapped
/// ```
///
/// - Parameters:
///   - left: The property.
///   - right: ``KeyMap/unmapped`` or ``KeyMap/unmapped(at:_:)``.
/// - Throws: `DecodingError` when the object is not an object or a member fails to decode;
///   `EncodingError.invalidValue` when a member is also written by a mapping, or can't be
///   written; either with the full coding path; and either when a mapping made after this one
///   reads a member of its object.
public func <-> (left: inout [String: JSONValue], right: UnmappedMembers) throws {
  if right.map.isDecoding {
    try left <<- right
  } else {
    try left ->> right
  }
}

/// Decodes the members no other mapping reads into `left`, or encodes its members after the
/// mapped ones; `left` holds an object (``JSONValue/object(_:)``).
///
/// Decoding keeps the order of the document on ``KeyedJSONDecoder``, and the order of the names
/// on other decoders (which don't tell the document's); encoding writes members in the object's
/// order.
///
/// ```swift
/// var extra: JSONValue = [:]
/// try extra <-> map.unmapped
/// ```
///
/// - Parameters:
///   - left: The property.
///   - right: ``KeyMap/unmapped`` or ``KeyMap/unmapped(at:_:)``.
/// - Throws: As the dictionary form, and `EncodingError.invalidValue` when `left` is not an
///   object.
public func <-> (left: inout JSONValue, right: UnmappedMembers) throws {
  if right.map.isDecoding {
    try left <<- right
  } else {
    try left ->> right
  }
}

/// Decodes the members no other mapping reads into `left`; does nothing while encoding.
///
/// ```swift
/// try extra <<- map.unmapped
/// ```
///
/// - Parameters:
///   - left: The property.
///   - right: ``KeyMap/unmapped`` or ``KeyMap/unmapped(at:_:)``.
/// - Throws: `DecodingError` with the full coding path (see the `<->` form).
public func <<- (left: inout [String: JSONValue], right: UnmappedMembers) throws {
  guard let run = right.map.decoding, let members = try run.decodeUnmapped(right) else { return }
  var dictionary: [String: JSONValue] = [:]
  dictionary.reserveCapacity(members.count)
  for (name, value) in members {
    dictionary[name] = value
  }
  left = dictionary
}

/// Decodes the members no other mapping reads into `left`, as an object; does nothing while
/// encoding.
///
/// ```swift
/// try extra <<- map.unmapped
/// ```
///
/// - Parameters:
///   - left: The property.
///   - right: ``KeyMap/unmapped`` or ``KeyMap/unmapped(at:_:)``.
/// - Throws: `DecodingError` with the full coding path (see the `<->` form).
public func <<- (left: inout JSONValue, right: UnmappedMembers) throws {
  guard let run = right.map.decoding, let members = try run.decodeUnmapped(right) else { return }
  left = .object(JSONValue.Object(uniqueMembers: members))
}

/// Encodes the members of `left` after the mapped ones, in the order of their names; does
/// nothing while decoding.
///
/// ```swift
/// try extra ->> map.unmapped
/// ```
///
/// - Parameters:
///   - left: The members to write.
///   - right: ``KeyMap/unmapped`` or ``KeyMap/unmapped(at:_:)``.
/// - Throws: `EncodingError.invalidValue` with the full coding path when a member is also
///   written by a mapping, or can't be written (see the `<->` form).
public func ->> (left: [String: JSONValue], right: UnmappedMembers) throws {
  guard let run = right.map.encoding else { return }
  let members = left.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
  try run.encodeUnmapped(members, right)
}

/// Encodes the members of `left`, an object, after the mapped ones, in the object's order; does
/// nothing while decoding.
///
/// ```swift
/// try extra ->> map.unmapped
/// ```
///
/// - Parameters:
///   - left: The object whose members to write.
///   - right: ``KeyMap/unmapped`` or ``KeyMap/unmapped(at:_:)``.
/// - Throws: `EncodingError.invalidValue` with the full coding path when `left` is not an
///   object, or a member is also written by a mapping, or can't be written.
public func ->> (left: JSONValue, right: UnmappedMembers) throws {
  guard let run = right.map.encoding else { return }
  guard case .object(let object) = left else {
    throw MappingErrors.unmappedNotObject(
      left, key: right.key, codingPath: run.modelCodingPath)
  }
  try run.encodeUnmapped(Array(object), right)
}
