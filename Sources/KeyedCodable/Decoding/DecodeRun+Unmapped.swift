extension DecodeRun {
  /// Decodes the members of the object of `unmapped` that no other mapping of the run reads
  /// (see ``UnmappedMembers``).
  ///
  /// - Returns: The members, without repeated names (the first is kept), in the document's order
  ///   on ``KeyedJSONDecoder`` and in the order of their names on other decoders; empty when
  ///   there is no object; `nil` when a key selection leaves the mapping out.
  /// - Throws: `DecodingError` with the full coding path when the object is not an object, or
  ///   a member fails to decode as a ``JSONValue``.
  func decodeUnmapped(_ unmapped: UnmappedMembers) throws -> [(name: String, value: JSONValue)]? {
    guard !isFinished else {
      throw MappingErrors.usedAfterRun(
        MappingErrors.unmappedName(unmapped.key), decoding: true)
    }
    if selection != nil {
      return nil
    }
    let (node, _) = follower.unmappedNode(unmapped.key, unmapped.options)
    let scope = UnmappedScope(node: node, key: unmapped.key, tree: follower.tree)
    var read = reads(of: scope, since: .start)
    unmappedMarks.append(
      UnmappedMark(scope: scope, snapshot: follower.snapshot(pendingKeys: pendingKeys.count)))
    if read.flat, let flatReads {
      if node == 0 {
        read.names.formUnion(flatReads.names)
      } else if let first = scope.path.first, flatReads.names.contains(first) {
        throw MappingErrors.unmappedUnderFlatRead(
          unmapped.key, member: first, model: model, codingPath: modelCodingPath)
      }
    }
    guard !read.all else { return [] }
    // A mapping without a key of its own, for the messages of the objects on the way.
    let mapping = Mapping(map: unmapped.map, pendingReference: Int.min)
    do {
      guard try objectIsOpen(node, for: mapping, required: false) else { return [] }
      return try backend.unmappedMembers(in: node, excluding: read.names)
    } catch {
      throw MappingErrors.noted(
        error, model: model, expected: nil, keyPath: MappingErrors.unmappedName(unmapped.key))
    }
  }
}

extension DecodingBackend {
  /// The members of the open object `node` whose names are not in `excluded`, decoded as
  /// ``JSONValue``s, the first of repeated names kept, in the order of their names: through
  /// ``memberKeys(in:)``, for decoders that don't tell the document's order.
  func unmappedMembersByName(in node: Int, excluding excluded: Set<String>) throws
    -> [(name: String, value: JSONValue)]
  {
    var members: [(name: String, value: JSONValue)] = []
    var seen = Set<String>()
    for key in memberKeys(in: node) {
      let name = key.stringValue
      guard !excluded.contains(name), seen.insert(name).inserted else { continue }
      members.append((name, try decode(JSONValue.self, forKey: key, in: node)))
    }
    members.sort { $0.name < $1.name }
    return members
  }
}

/// The root-level members the flat values of one decode run read (see ``MemberRecordingDecoder``).
final class MemberReads {
  var names: Set<String> = []
}

/// A decoder that forwards to another one and notes the names of the members read from its
/// keyed container, for a flat value decoded in a run that collects unmapped members (see
/// ``UnmappedMembers``): the members it reads are not unmapped.
///
/// Only the members of the object itself are noted: nested containers are the base's own.
struct MemberRecordingDecoder: Decoder {
  let base: any Decoder
  let reads: MemberReads

  /// The recording decoder `decoder` is, or reads through as an optional flat value's
  /// ``PresenceTrackingDecoder``, if any.
  static func recording(_ decoder: any Decoder) -> MemberRecordingDecoder? {
    if let recording = decoder as? MemberRecordingDecoder {
      return recording
    }
    if let tracking = decoder as? PresenceTrackingDecoder {
      return tracking.base as? MemberRecordingDecoder
    }
    return nil
  }

  var codingPath: [any CodingKey] { base.codingPath }
  var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

  func container<Member: CodingKey>(
    keyedBy type: Member.Type
  ) throws -> KeyedDecodingContainer<Member> {
    KeyedDecodingContainer(
      MemberRecordingContainer(base: try base.container(keyedBy: Member.self), reads: reads))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try base.unkeyedContainer()
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    try base.singleValueContainer()
  }
}

/// The keyed container of a ``MemberRecordingDecoder``: every read is forwarded, and its key
/// noted.
struct MemberRecordingContainer<Member: CodingKey>: KeyedDecodingContainerProtocol {
  let base: KeyedDecodingContainer<Member>
  let reads: MemberReads

  var codingPath: [any CodingKey] { base.codingPath }
  var allKeys: [Member] { base.allKeys }

  private func note(_ key: Member) {
    reads.names.insert(key.stringValue)
  }

  func contains(_ key: Member) -> Bool {
    note(key)
    return base.contains(key)
  }

  func decodeNil(forKey key: Member) throws -> Bool {
    note(key)
    return try base.decodeNil(forKey: key)
  }

  func decode<Value: Decodable>(_ type: Value.Type, forKey key: Member) throws -> Value {
    note(key)
    return try base.decode(Value.self, forKey: key)
  }

  func decodeIfPresent<Value: Decodable>(
    _ type: Value.Type, forKey key: Member
  ) throws -> Value? {
    note(key)
    return try base.decodeIfPresent(Value.self, forKey: key)
  }

  func nestedContainer<Nested: CodingKey>(
    keyedBy type: Nested.Type, forKey key: Member
  ) throws -> KeyedDecodingContainer<Nested> {
    note(key)
    return try base.nestedContainer(keyedBy: Nested.self, forKey: key)
  }

  func nestedUnkeyedContainer(forKey key: Member) throws -> any UnkeyedDecodingContainer {
    note(key)
    return try base.nestedUnkeyedContainer(forKey: key)
  }

  func superDecoder() throws -> any Decoder {
    reads.names.insert("super")
    return try base.superDecoder()
  }

  func superDecoder(forKey key: Member) throws -> any Decoder {
    note(key)
    return try base.superDecoder(forKey: key)
  }
}
