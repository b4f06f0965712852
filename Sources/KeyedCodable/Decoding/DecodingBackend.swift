/// What a ``DecodeRun`` needs from the data it reads: the seam between the mappings and a format.
///
/// A run addresses objects by the nodes of its path tree (see ``NodeTree``): node `0` is the
/// mapped object, every other node a member of its parent. The run decides which node to open
/// and when, what an absent value means for the mapping, and which error to throw; the backend
/// only opens objects and reads members. A backend is picked once per run:
/// ``ContainerDecodingBackend`` reads from any `Decoder` through its keyed containers, and a
/// coder that knows its format can provide its own (see ``DecodingBackendProvider``).
protocol DecodingBackend: AnyObject {
  /// The `userInfo` of the underlying decoder.
  var userInfo: [CodingUserInfoKey: Any] { get }

  /// Starts a run whose plan has `table` as its key paths: node numbers below `table.count` are
  /// the table's, as long as the run lasts.
  ///
  /// Called before the run opens anything. A backend that reads whole objects at once prepares
  /// for the table's member names here (see ``PathTable/MemberIndex``).
  func prepare(for table: PathTable)

  /// Opens the mapped object itself, node `0`.
  ///
  /// - Throws: The decoder's error when the value there is not an object (`typeMismatch`, or
  ///   `valueNotFound` for `null`).
  func openRoot() throws

  /// Opens the object held by member `key` of the open object `parent`, as node `node`.
  ///
  /// - Returns: ``NodePresence/object`` when it is open, or why there is no object.
  /// - Throws: `typeMismatch` when the member holds something other than an object or `null`.
  func openObject(_ node: Int, key: PathKey, in parent: Int) throws -> NodePresence

  /// The full coding path of the open object at `node`, from the root of the document.
  func codingPath(ofOpen node: Int) -> [any CodingKey]

  /// Decodes member `key` of the open object `node`, which must be present and not `null`.
  ///
  /// - Throws: `keyNotFound`, `valueNotFound`, `typeMismatch` or `dataCorrupted` as the
  ///   underlying format reports them, with their full coding paths.
  func decode<Value: Decodable>(_ type: Value.Type, forKey key: PathKey, in node: Int) throws
    -> Value

  /// Decodes member `key` of the open object `node`, or returns `nil` when it is missing or
  /// `null`.
  func decodeIfPresent<Value: Decodable>(
    _ type: Value.Type, forKey key: PathKey, in node: Int
  ) throws -> Value?

  /// Whether member `key` of the open object `node` is missing or `null`.
  func isAbsent(_ key: PathKey, in node: Int) throws -> Bool

  /// Whether member `key` of the open object `node` is missing, `null`, or holds a value
  /// (``NodePresence/object``, whatever the value is).
  func presence(of key: PathKey, in node: Int) throws -> NodePresence

  /// The elements of the array held by member `key` of the open object `node`.
  ///
  /// - Throws: `keyNotFound`, `valueNotFound` or `typeMismatch` when there is no array.
  func elements(forKey key: PathKey, in node: Int) throws -> any UnkeyedDecodingContainer

  /// The members of the open object `node`, in the order the format lists them.
  func memberKeys(in node: Int) -> [PathKey]

  /// The members of the open object `node` whose names are not in `excluded`, decoded as
  /// ``JSONValue``s, the first of repeated names kept (see ``UnmappedMembers``).
  ///
  /// In the document's order when the backend knows it, otherwise in the order of the names.
  ///
  /// - Throws: The decoder's error for a member that fails to decode.
  func unmappedMembers(in node: Int, excluding excluded: Set<String>) throws
    -> [(name: String, value: JSONValue)]

  /// A decoder for the mapped object itself, for a value decoded from its members (a flat
  /// mapping).
  func rootDecoder() -> any Decoder
}

/// A `Decoder` that brings a ``DecodingBackend`` of its own, used by ``KeyedDecoder`` instead of
/// reading through the decoder's containers.
protocol DecodingBackendProvider: Decoder {
  /// A backend positioned at this decoder's value.
  func makeDecodingBackend() -> any DecodingBackend
}

/// What a decode run found at a node.
enum NodePresence: UInt8 {
  /// Not looked at yet.
  case unopened
  /// An object, open in the backend.
  case object
  /// The member that would hold the object is missing.
  case missing
  /// The member that would hold the object is `null`.
  case null
}
