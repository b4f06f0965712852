/// What an ``EncodeRun`` needs from the output it writes: the seam between the mappings and a
/// format.
///
/// Like ``DecodingBackend``, a backend is addressed by the nodes of the run's path tree. The run
/// decides which objects to open and in what order, checks that no two mappings overwrite each
/// other, and merges values that share a key path; the backend only opens objects and arrays
/// and writes members. ``ContainerEncodingBackend`` writes to any `Encoder` through its keyed
/// containers; a coder that knows its format can provide its own (see
/// ``EncodingBackendProvider``).
protocol EncodingBackend: AnyObject {
  /// The `userInfo` of the underlying encoder.
  var userInfo: [CodingUserInfoKey: Any] { get }

  /// The coding path of the mapped object, from the root of the document.
  var codingPath: [any CodingKey] { get }

  /// Starts a run whose plan has `table` as its key paths: node numbers below `table.count` are
  /// the table's, as long as the run lasts.
  ///
  /// Called before the run writes anything. A backend that writes member names as bytes takes
  /// them from the table here (see ``PathTable/MemberIndex``).
  func prepare(for table: PathTable)

  /// Opens the mapped object itself, node `0`, as an object.
  func openRoot()

  /// Opens a new object as member `key` of the open object `parent`, as node `node`.
  func openObject(_ node: Int, key: PathKey, in parent: Int)

  /// Opens a new array as member `key` of the open object `parent`.
  func openArray(key: PathKey, in parent: Int) -> any UnkeyedEncodingContainer

  /// Writes `value` as member `key` of the open object `node`.
  ///
  /// - Throws: The encoder's errors, with the full coding path from the root.
  func encode<Value: Encodable>(_ value: Value, forKey key: PathKey, in node: Int) throws

  /// Writes `null` as member `key` of the open object `node`.
  func encodeNil(forKey key: PathKey, in node: Int) throws
}

/// An `Encoder` that brings an ``EncodingBackend`` of its own, used by ``KeyedEncoder`` instead of
/// writing through the encoder's containers.
protocol EncodingBackendProvider: Encoder {
  /// A backend that writes this encoder's value.
  func makeEncodingBackend() -> any EncodingBackend
}
