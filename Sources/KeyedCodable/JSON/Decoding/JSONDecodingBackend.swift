/// The ``DecodingBackend`` of ``KeyedJSONDecoder``: a ``Keyedable`` type's mappings read the
/// parsed document directly.
///
/// Each node of the run's path tree is an object entry on the tape, found once by comparing
/// member names' bytes with the node's key. No container is made for an object on a key path,
/// and values are read with the decoder's own scalar readers, so the errors and coding paths
/// are those of ``JSONValueDecoder``.
final class JSONDecodingBackend: DecodingBackend {
  let decoder: JSONValueDecoder
  private let document: JSONDocument
  /// The mapped value's entry and coding path.
  private let root: Int
  private let rootPath: JSONCodingPath
  /// For each open node, its object entry; `-1` for nodes not open.
  private var objects: [Int]
  /// For each open node, its parent node and key, to build a coding path when one is needed.
  private var parents: [Int]
  private var keys: [PathKey?]
  /// The value entries by converted name, per node, when a key decoding strategy converts
  /// member names.
  private var convertedNames: [Int: [String: Int]] = [:]
  private let convertsNames: Bool

  init(decoder: JSONValueDecoder, object: Int, path: JSONCodingPath) {
    self.decoder = decoder
    document = decoder.document
    root = object
    rootPath = path
    objects = [-1]
    parents = [-1]
    keys = [nil]
    if case .useDefaultKeys = decoder.options.keyDecodingStrategy {
      convertsNames = false
    } else {
      convertsNames = true
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
    _ = try decoder.keyedContainer(at: root, path: rootPath, keyedBy: PathKey.self)
    objects[0] = root
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
    guard node < objects.count, objects[node] >= 0 else { return [] }
    if convertsNames {
      return JSONKeyedContainer<PathKey>(
        decoder: decoder, object: objects[node], path: path(of: node)
      ).allKeys
    }
    let object = objects[node]
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

  // MARK: - Nodes

  /// The value entry of member `key` of the open object `node`.
  @inline(__always)
  private func member(_ key: PathKey, in node: Int) -> Int? {
    guard node < objects.count else { return nil }
    let object = objects[node]
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
