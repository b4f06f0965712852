/// The ``EncodingBackend`` of ``KeyedJSONEncoder``: a ``Keyedable`` type's mappings write JSON
/// bytes directly, in mapping order.
///
/// Each node of the run's path tree is an object frame of the ``JSONStreamEncoder``, opened
/// when its first member is written. Mappings whose key paths share a prefix are written while
/// their object is still open; a mapping that writes into an object after another object was
/// started beside it can't be streamed, and throws ``JSONStreamEncoder/Restart`` (the value is
/// then encoded through Foundation's encoder, see ``KeyedJSONEncoder``).
@usableFromInline
final class JSONEncodingBackend: EncodingBackend {
  let encoder: JSONStreamEncoder
  /// The coding path of the mapped object.
  #if DEBUG
    private var path: JSONCodingPath
  #else
    @exclusivity(unchecked) private var path: JSONCodingPath
  #endif
  /// An open node: its frame's position and identity, and the coding path of its object.
  private struct NodeFrame {
    var index: Int
    var id: Int
    /// `nil` for the mapped object, whose path is ``JSONEncodingBackend/path``.
    var path: JSONCodingPath?

    static var closed: NodeFrame { NodeFrame(index: -1, id: -1, path: nil) }
  }

  /// The open nodes' frames, by node.
  #if DEBUG
    private var frames: [NodeFrame] = []
  #else
    @exclusivity(unchecked) private var frames: [NodeFrame] = []
  #endif
  /// The number of entries of ``frames`` this run may have set.
  #if DEBUG
    private var usedFrames = 0
  #else
    @exclusivity(unchecked) private var usedFrames = 0
  #endif

  /// The member names of the run's plan, as compact JSON.
  #if DEBUG
    private var members = PathTable.rootOnly.members
  #else
    @exclusivity(unchecked) private var members = PathTable.rootOnly.members
  #endif
  /// The number of nodes of the run's plan.
  #if DEBUG
    private var planNodes = 1
  #else
    @exclusivity(unchecked) private var planNodes = 1
  #endif
  /// Whether the plan's names can be written as ``PathTable/MemberIndex`` has them: no key
  /// strategy changes them, the output is compact, and slashes are escaped.
  private let writesPlannedNames: Bool
  /// Whether slashes are escaped: otherwise a name with a slash is written from its text.
  private let escapesSlashes: Bool

  init(encoder: JSONStreamEncoder) {
    self.encoder = encoder
    path = encoder.slot.path
    escapesSlashes = encoder.writer.escapesSlashes
    writesPlannedNames = !encoder.convertsKeys
  }

  func prepare(for table: PathTable) {
    if table.members !== members {
      members = table.members
    }
    planNodes = table.count
  }

  /// Points the backend at the encoder's current slot, for a run that reuses it.
  func reset() {
    path = encoder.slot.path
    // Forget the frames of the last run in place: a run of a small object uses one or two.
    if usedFrames > 0 {
      frames.withUnsafeMutableBufferPointer { frames in
        for node in 0..<Swift.min(usedFrames, frames.count) {
          frames[node] = .closed
        }
      }
      usedFrames = 0
    }
  }

  var userInfo: [CodingUserInfoKey: Any] { encoder.userInfo }

  var codingPath: [any CodingKey] { path.keys }

  func openRoot() {
    store(encoder.openFrame(object: true), path: nil, at: 0)
  }

  func openObject(_ node: Int, key: PathKey, in parent: Int) {
    let path = path(of: parent).appending(key)
    do {
      try begin(key, in: parent)
      store(encoder.pushFrame(object: true), path: path, at: node)
    } catch {
      encoder.deferError(error)
      store((-1, -1), path: path, at: node)
    }
  }

  /// The coding path of the object at `node`.
  func path(of node: Int) -> JSONCodingPath {
    node > 0 && node < frames.count ? frames[node].path ?? path : path
  }

  func openArray(key: PathKey, in parent: Int) -> any UnkeyedEncodingContainer {
    do {
      try begin(key, in: parent)
    } catch {
      encoder.deferError(error)
      return JSONStreamUnkeyedContainer(encoder: encoder, frame: (-1, -1), path: path)
    }
    return JSONStreamUnkeyedContainer(
      encoder: encoder, frame: encoder.pushFrame(object: false),
      path: path(of: parent).appending(key))
  }

  func encode<Value: Encodable>(_ value: Value, forKey key: PathKey, in node: Int) throws {
    try begin(key, in: node)
    try encoder.encodeValue(value, at: path(of: node).appending(key))
  }

  func encodeNil(forKey key: PathKey, in node: Int) throws {
    try begin(key, in: node)
    encoder.writer.null()
  }

  /// Writes the value of a mapping the plan resolved to a plain member: the fast path of
  /// ``EncodeRun/encode(_:_:)``, inlined into the model, where a standard scalar is written
  /// without generic code.
  ///
  /// - Returns: Whether the value was written; `false` when the mapping must take the general
  ///   path.
  /// - Throws: ``JSONStreamEncoder/Restart`` when the object can't be written to any more, and
  ///   `EncodingError.invalidValue` for a value JSON can't hold.
  @inlinable
  func encodePlanned<Value: Encodable>(_ value: Value, _ member: PlainMember, in run: EncodeRun)
    throws -> Bool
  {
    guard run.claimPlanned(member) else { return false }
    try beginPlanned(member.position, in: member.parent, of: run)
    if Value.self == String.self {
      write(reinterpret(value, as: String.self))
    } else if Value.self == Int.self {
      write(reinterpret(value, as: Int.self))
    } else if Value.self == Double.self {
      try write(reinterpret(value, as: Double.self), member.position, member.parent, of: run)
    } else if Value.self == Bool.self {
      write(reinterpret(value, as: Bool.self))
    } else {
      try encodeValue(value, member.position, member.parent, of: run)
    }
    return true
  }

  /// Writes the name of the member of the plan's entry at `position`, in the object at `node`.
  @usableFromInline
  func beginPlanned(_ position: Int, in node: Int, of run: EncodeRun) throws {
    let member = run.follower.entries[position].node
    if writesPlannedNames, member > 0, member < planNodes, node < frames.count,
      escapesSlashes || !members.hasSlash[member]
    {
      let frame = frames[node]
      return try encoder.beginMember(frame.index, id: frame.id, member: members.jsonMember(member))
    }
    try begin(run.follower.entries[position].memberKey, in: node)
  }

  @usableFromInline
  func write(_ value: Double, _ position: Int, _ node: Int, of run: EncodeRun) throws {
    guard value.isFinite else {
      return try encoder.double(
        value, at: path(of: node).appending(run.follower.entries[position].memberKey))
    }
    encoder.writer.double(value)
  }

  @usableFromInline
  func encodeValue<Value: Encodable>(
    _ value: Value, _ position: Int, _ node: Int, of run: EncodeRun
  ) throws {
    try encoder.encodeValue(
      value, at: path(of: node).appending(run.follower.entries[position].memberKey))
  }

  @usableFromInline
  func write(_ value: String) {
    encoder.writer.string(value)
  }

  @usableFromInline
  func write(_ value: Int) {
    encoder.writer.integer(value)
  }

  @usableFromInline
  func write(_ value: Bool) {
    encoder.writer.bool(value)
  }

  /// Writes the name of member `key` of the object at `node`.
  @usableFromInline
  func begin(_ key: PathKey, in node: Int) throws {
    guard node < frames.count else { throw JSONStreamEncoder.Restart() }
    let frame = frames[node]
    // The run never writes one key twice, so without a key strategy no name repeats; with one,
    // two keys may convert to one name (`aB` and `a_b`), which Foundation writes once.
    try encoder.beginMember(
      frame.index, id: frame.id, name: encoder.name(for: key, at: path(of: node)),
      mayRepeat: encoder.convertsKeys)
  }

  private func store(_ frame: (index: Int, id: Int), path: JSONCodingPath?, at node: Int) {
    if node >= frames.count {
      let missing = Swift.max(node + 1, frames.count * 2, 4) - frames.count
      frames.append(contentsOf: repeatElement(.closed, count: missing))
    }
    frames[node] = NodeFrame(index: frame.index, id: frame.id, path: path)
    usedFrames = Swift.max(usedFrames, node &+ 1)
  }
}

/// Implemented by `[String: Value]`: encoded member by member with the keys as they are,
/// whatever the key encoding strategy (Foundation leaves dictionary keys alone too).
protocol JSONStringKeyedEncodableDictionary {
  func encodeMembers(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws
}

extension Dictionary: JSONStringKeyedEncodableDictionary where Key == String, Value: Encodable {
  func encodeMembers(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws {
    let frame = encoder.pushFrame(object: true)
    for (name, value) in self {
      // A dictionary's keys are unique, and written as they are.
      try encoder.beginMember(frame.index, id: frame.id, name: name, mayRepeat: false)
      try encoder.encodeValue(value, at: path().appending(encoder.dictionaryMemberKey(name)))
    }
    try encoder.closeFrames(above: frame.index)
  }
}

/// Implemented by `[Element]`: encoded element by element, without a container.
protocol JSONEncodableArray: RandomAccessCollection where Index == Int {
  func encodeElements(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws
}

extension Array: JSONEncodableArray where Element: Encodable {}

// Generic over the collection rather than written for `Array`, as
// ``JSONDecodableArray/decodeElements(from:array:at:)`` is: no metadata lookup per array.
extension JSONEncodableArray where Element: Encodable {
  func encodeElements(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws {
    let frame = encoder.pushFrame(object: false)
    // The elements are read from the array's storage: in this generic code, a subscript of the
    // collection goes through its witness, a coroutine whose frame the runtime allocates, once
    // per element. Indices, not `enumerated()`: this generic code would look up the metadata
    // of an enumerated sequence on every call.
    let encodedInPlace: Void? = try withContiguousStorageIfAvailable { elements in
      var index = 0
      while index < elements.count {
        try encoder.beginElement(frame.index, id: frame.id)
        try encoder.encodeValue(elements[index], at: path().appending(index: index))
        index &+= 1
      }
    }
    if encodedInPlace == nil {
      var index = startIndex
      while index < endIndex {
        try encoder.beginElement(frame.index, id: frame.id)
        try encoder.encodeValue(self[index], at: path().appending(index: index &- startIndex))
        index &+= 1
      }
    }
    try encoder.closeFrames(above: frame.index)
  }
}
