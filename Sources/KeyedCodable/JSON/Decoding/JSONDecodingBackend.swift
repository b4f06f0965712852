/// The ``DecodingBackend`` of ``KeyedJSONDecoder``: a ``Keyedable`` type's mappings read the
/// parsed document directly.
///
/// Each node of the run's path tree is an object entry on the tape, found once by comparing
/// member names' bytes with the node's key. No container is made for an object on a key path,
/// and values are read with the decoder's own scalar readers, so the errors and coding paths
/// are those of ``JSONValueDecoder``.
@usableFromInline
final class JSONDecodingBackend: DecodingBackend {
  let decoder: JSONValueDecoder
  private let document: JSONDocument
  /// The mapped value's entry and coding path.
  #if DEBUG
    private var root: Int
    private var rootPath: JSONCodingPath
  #else
    @exclusivity(unchecked) private var root: Int
    @exclusivity(unchecked) private var rootPath: JSONCodingPath
  #endif
  /// The mapped object's entry, once open; `-1` before.
  #if DEBUG
    @usableFromInline var rootObject = -1
  #else
    @exclusivity(unchecked) @usableFromInline var rootObject = -1
  #endif
  /// For each open nested node, its object entry; `-1` for nodes not open. Allocated on the
  /// first nested key path.
  #if DEBUG
    @usableFromInline var objects: [Int]
  #else
    @exclusivity(unchecked) @usableFromInline var objects: [Int]
  #endif
  /// For each open node, its parent node and key, to build a coding path when one is needed.
  #if DEBUG
    private var parents: [Int]
  #else
    @exclusivity(unchecked) private var parents: [Int]
  #endif
  #if DEBUG
    private var keys: [PathKey?]
  #else
    @exclusivity(unchecked) private var keys: [PathKey?]
  #endif
  /// The value entries by converted name, per node, when a key decoding strategy converts
  /// member names.
  #if DEBUG
    private var convertedNames: [Int: [String: Int]] = [:]
  #else
    @exclusivity(unchecked) private var convertedNames: [Int: [String: Int]] = [:]
  #endif
  private let convertsNames: Bool

  init(decoder: JSONValueDecoder, object: Int, path: JSONCodingPath) {
    self.decoder = decoder
    document = decoder.document
    root = object
    rootPath = path
    objects = []
    parents = []
    keys = []
    if case .useDefaultKeys = decoder.options.keyDecodingStrategy {
      convertsNames = false
    } else {
      convertsNames = true
    }
  }

  /// Points the backend at another value, for a run that reuses it.
  ///
  /// - Parameters:
  ///   - object: The value's entry.
  ///   - path: The value's coding path.
  func reset(object: Int, path: JSONCodingPath) {
    root = object
    rootPath = path
    rootObject = -1
    objects.removeAll(keepingCapacity: true)
    parents.removeAll(keepingCapacity: true)
    keys.removeAll(keepingCapacity: true)
    if !convertedNames.isEmpty {
      convertedNames.removeAll()
    }
  }

  var userInfo: [CodingUserInfoKey: Any] { decoder.userInfo }

  func openRoot() throws {
    guard root >= 0 else {
      throw DecodingError.valueNotFound(
        [String: Any].self,
        .init(
          codingPath: rootPath.keys,
          debugDescription: "Cannot get keyed decoding container -- found null value instead"))
    }
    guard document.kind(root) == .object else {
      // The errors of a keyed container asked for at that value.
      _ = try decoder.keyedContainer(at: root, path: rootPath, keyedBy: PathKey.self)
      throw MappingErrors.internalInconsistency(
        "The value at \(root) is an object after all.", codingPath: rootPath.keys)
    }
    rootObject = root
  }

  func openObject(_ node: Int, key: PathKey, in parent: Int) throws -> NodePresence {
    guard let entry = member(key, in: parent) else { return .missing }
    switch document.kind(entry) {
    case .object:
      store(node, entry: entry, parent: parent, key: key)
      return .object
    case .null:
      return .null
    default:
      throw decoder.typeMismatch([String: Any].self, entry, at: path(of: parent).appending(key))
    }
  }

  func codingPath(ofOpen node: Int) -> [any CodingKey] {
    path(of: node).keys
  }

  func decode<Value: Decodable>(_ type: Value.Type, forKey key: PathKey, in node: Int) throws
    -> Value
  {
    guard let entry = member(key, in: node) else {
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: path(of: node).keys,
          debugDescription: "No value associated with key \(key) (\(key))."))
    }
    return try decoder.unwrap(entry, as: Value.self, at: path(of: node).appending(key))
  }

  func decodeIfPresent<Value: Decodable>(
    _ type: Value.Type, forKey key: PathKey, in node: Int
  ) throws -> Value? {
    guard let entry = member(key, in: node), document.kind(entry) != .null else { return nil }
    return try decoder.unwrap(entry, as: Value.self, at: path(of: node).appending(key))
  }

  func isAbsent(_ key: PathKey, in node: Int) throws -> Bool {
    guard let entry = member(key, in: node) else { return true }
    return document.kind(entry) == .null
  }

  func presence(of key: PathKey, in node: Int) throws -> NodePresence {
    guard let entry = member(key, in: node) else { return .missing }
    return document.kind(entry) == .null ? .null : .object
  }

  func elements(forKey key: PathKey, in node: Int) throws -> any UnkeyedDecodingContainer {
    guard let entry = member(key, in: node) else {
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: path(of: node).keys,
          debugDescription: "No value associated with key \(key) (\(key))."))
    }
    return try decoder.unkeyedContainer(at: entry, path: path(of: node).appending(key))
  }

  func memberKeys(in node: Int) -> [PathKey] {
    guard object(at: node) >= 0 else { return [] }
    if convertsNames {
      return JSONKeyedContainer<PathKey>(
        decoder: decoder, object: object(at: node), path: path(of: node)
      ).allKeys
    }
    let object = object(at: node)
    var keys: [PathKey] = []
    keys.reserveCapacity(document.memberCount(object))
    var seen = Set<String>()
    let checkRepeats = document.flags(object) & JSONDocument.mayRepeatNames != 0
    var entry = object &+ 1
    let end = document.next(object)
    while entry < end {
      let name = JSONStrings.string(at: entry, in: document)
      if !checkRepeats || seen.insert(name).inserted {
        keys.append(PathKey(name))
      }
      entry = document.next(entry &+ 1)
    }
    return keys
  }

  func rootDecoder() -> any Decoder {
    JSONSuperDecoder(decoder: decoder, entry: root, path: rootPath)
  }

  // MARK: - The fast path

  /// The object entry of the open node `node`, or `-1`.
  @inlinable
  func object(at node: Int) -> Int {
    if node == 0 {
      return rootObject
    }
    return node < objects.count ? objects[node] : -1
  }

  /// Whether the object at `node` is open.
  @inlinable
  func isOpen(_ node: Int) -> Bool {
    object(at: node) >= 0
  }

  /// Decodes member `key` of the open object `node`: the fast path of a plain mapping, inlined
  /// into the model where `Value` is concrete, so a standard scalar is read without generic
  /// code.
  ///
  /// - Returns: The value, or `nil` when it is missing or `null` and not `required`.
  /// - Throws: `keyNotFound` or `valueNotFound` for a required value that is absent, and the
  ///   value's own errors.
  @inlinable
  func decodeMember<Value: Decodable>(
    _ type: Value.Type, forKey key: PathKey, in node: Int, required: Bool
  ) throws -> Value? {
    let entry = try valueEntry(key, in: node, required: required, type: Value.self)
    guard entry >= 0 else { return nil }
    if Value.self == String.self {
      return reinterpret(try readString(entry, key, node), as: Value.self)
    } else if Value.self == Int.self {
      return reinterpret(try readInt(entry, key, node), as: Value.self)
    } else if Value.self == Double.self {
      return reinterpret(try readDouble(entry, key, node), as: Value.self)
    } else if Value.self == Bool.self {
      return reinterpret(try readBool(entry, key, node), as: Value.self)
    }
    return try read(entry, as: Value.self, key, node)
  }

  /// The value entry of member `key` of the open object `node`, or `-1` when it is missing or
  /// `null` and not `required`.
  @usableFromInline
  func valueEntry(_ key: PathKey, in node: Int, required: Bool, type: Any.Type) throws -> Int {
    guard let entry = member(key, in: node) else {
      guard required else { return -1 }
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: path(of: node).keys,
          debugDescription: "No value associated with key \(key) (\(key))."))
    }
    guard document.kind(entry) != .null else {
      guard required else { return -1 }
      throw decoder.mismatch(type, entry, at: path(of: node).appending(key))
    }
    return entry
  }

  @usableFromInline
  func readString(_ entry: Int, _ key: PathKey, _ node: Int) throws -> String {
    try decoder.unwrapString(entry, at: path(of: node).appending(key))
  }

  @usableFromInline
  func readInt(_ entry: Int, _ key: PathKey, _ node: Int) throws -> Int {
    try decoder.unwrapInteger(entry, as: Int.self, at: path(of: node).appending(key))
  }

  @usableFromInline
  func readDouble(_ entry: Int, _ key: PathKey, _ node: Int) throws -> Double {
    try decoder.unwrapFloat(entry, as: Double.self, at: path(of: node).appending(key))
  }

  @usableFromInline
  func readBool(_ entry: Int, _ key: PathKey, _ node: Int) throws -> Bool {
    try decoder.unwrapBool(entry, at: path(of: node).appending(key))
  }

  @usableFromInline
  func read<Value: Decodable>(_ entry: Int, as type: Value.Type, _ key: PathKey, _ node: Int)
    throws -> Value
  {
    try decoder.unwrapOther(entry, as: Value.self, at: path(of: node).appending(key))
  }

  // MARK: - Nodes

  /// The value entry of member `key` of the open object `node`.
  @inline(__always)
  private func member(_ key: PathKey, in node: Int) -> Int? {
    let object = object(at: node)
    guard object >= 0 else { return nil }
    if convertsNames {
      return convertedMember(key.stringValue, in: node, object: object)
    }
    return decoder.member(key.stringValue, in: object)
  }

  private func convertedMember(_ name: String, in node: Int, object: Int) -> Int? {
    if let names = convertedNames[node] {
      return names[name]
    }
    let names =
      JSONKeyedContainer<PathKey>(decoder: decoder, object: object, path: path(of: node))
      .converted ?? [:]
    convertedNames[node] = names
    return names[name]
  }

  private func store(_ node: Int, entry: Int, parent: Int, key: PathKey) {
    if node >= objects.count {
      let count = Swift.max(node + 1, objects.count * 2)
      objects.append(contentsOf: repeatElement(-1, count: count - objects.count))
      parents.append(contentsOf: repeatElement(-1, count: count - parents.count))
      keys.append(contentsOf: repeatElement(nil, count: count - keys.count))
    }
    objects[node] = entry
    parents[node] = parent
    keys[node] = key
  }

  /// The coding path of the open object `node`.
  private func path(of node: Int) -> JSONCodingPath {
    guard node > 0, node < keys.count, let key = keys[node] else { return rootPath }
    return path(of: parents[node]).appending(key)
  }
}
