/// The ``EncodingBackend`` of ``KeyedJSONEncoder``: a ``Keyedable`` type's mappings write JSON
/// bytes directly, in mapping order.
///
/// Each node of the run's path tree is an object frame of the ``JSONStreamEncoder``, opened
/// when its first member is written. Mappings whose key paths share a prefix are written while
/// their object is still open; a mapping that writes into an object after another object was
/// started beside it can't be streamed, and throws ``JSONStreamEncoder/Restart`` (the value is
/// then encoded through Foundation's encoder, see ``KeyedJSONEncoder``).
final class JSONEncodingBackend: EncodingBackend {
  let encoder: JSONStreamEncoder
  /// The coding path of the mapped object.
  private let path: JSONCodingPath
  /// For each open node, its frame's position and identity.
  private var frames: [(index: Int, id: Int)] = []

  init(encoder: JSONStreamEncoder) {
    self.encoder = encoder
    path = encoder.slot.path
  }

  var userInfo: [CodingUserInfoKey: Any] { encoder.userInfo }

  var codingPath: [any CodingKey] { path.keys }

  func openRoot() {
    store(encoder.openFrame(object: true), at: 0)
  }

  func openObject(_ node: Int, key: PathKey, in parent: Int) {
    do {
      try begin(key, in: parent)
      store(encoder.pushFrame(object: true), at: node)
    } catch {
      encoder.deferError(error)
      store((-1, -1), at: node)
    }
  }

  func openArray(key: PathKey, in parent: Int) -> any UnkeyedEncodingContainer {
    do {
      try begin(key, in: parent)
    } catch {
      encoder.deferError(error)
      return JSONStreamUnkeyedContainer(encoder: encoder, frame: (-1, -1), path: path)
    }
    return JSONStreamUnkeyedContainer(
      encoder: encoder, frame: encoder.pushFrame(object: false), path: path.appending(key))
  }

  func encode<Value: Encodable>(_ value: Value, forKey key: PathKey, in node: Int) throws {
    try begin(key, in: node)
    try encoder.encodeValue(value, at: path.appending(key))
  }

  func encodeNil(forKey key: PathKey, in node: Int) throws {
    try begin(key, in: node)
    encoder.writer.null()
  }

  /// Writes the name of member `key` of the object at `node`.
  @inline(__always)
  private func begin(_ key: PathKey, in node: Int) throws {
    guard node < frames.count else { throw JSONStreamEncoder.Restart() }
    let frame = frames[node]
    try encoder.beginMember(frame.index, id: frame.id, name: encoder.name(for: key, at: path))
  }

  private func store(_ frame: (index: Int, id: Int), at node: Int) {
    if node >= frames.count {
      let missing = Swift.max(node + 1, frames.count * 2) - frames.count
      frames.append(contentsOf: repeatElement((index: -1, id: -1), count: missing))
    }
    frames[node] = frame
  }
}

/// Implemented by `[String: Value]`: encoded member by member with the keys as they are,
/// whatever the key encoding strategy (Foundation leaves dictionary keys alone too).
protocol JSONStringKeyedEncodableDictionary {
  func encodeMembers(to encoder: JSONStreamEncoder, at path: JSONCodingPath) throws
}

extension Dictionary: JSONStringKeyedEncodableDictionary where Key == String, Value: Encodable {
  func encodeMembers(to encoder: JSONStreamEncoder, at path: JSONCodingPath) throws {
    let frame = encoder.pushFrame(object: true)
    for (name, value) in self {
      try encoder.beginMember(frame.index, id: frame.id, name: name)
      try encoder.encodeValue(value, at: path.appending(PathKey(name)))
    }
    try encoder.closeFrames(above: frame.index)
  }
}
