import Foundation

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
  /// The slot of the mapped object: its coding path, made when first asked for (see
  /// ``path``).
  #if DEBUG
    private var slot: (base: JSONCodingPath, step: JSONPathStep)
    private var madePath: JSONCodingPath?
  #else
    @exclusivity(unchecked) private var slot: (base: JSONCodingPath, step: JSONPathStep)
    @exclusivity(unchecked) private var madePath: JSONCodingPath?
  #endif

  /// The coding path of the mapped object, made the first time it is asked for: a model
  /// written without errors or nested values of its own needs none.
  private var path: JSONCodingPath {
    if let madePath { return madePath }
    let made = slot.base.appending(slot.step)
    madePath = made
    return made
  }
  /// An open node: its frame's position and identity, and what makes the coding path of its
  /// object.
  private struct NodeFrame {
    var index: Int
    var id: Int
    /// The coding path of the node's object, made the first time it is asked for (see
    /// ``JSONEncodingBackend/path(of:)``): most objects of a model never need one.
    var path: JSONCodingPath?
    /// The node's key in its parent's object, for a node the plan doesn't know (the plan's
    /// table has the others').
    var key: PathKey?
    /// The node of the parent's object; `-1` for the mapped object, whose path is
    /// ``JSONEncodingBackend/path``, and for a closed node.
    var parent: Int

    static var closed: NodeFrame { NodeFrame(index: -1, id: -1, path: nil, key: nil, parent: -1) }
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
  /// The key paths of the run's plan.
  #if DEBUG
    private var table = PathTable.rootOnly
  #else
    @exclusivity(unchecked) private var table = PathTable.rootOnly
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
    slot = encoder.slotPlace
    escapesSlashes = encoder.writer.escapesSlashes
    writesPlannedNames = !encoder.convertsKeys
  }

  func prepare(for table: PathTable) {
    if table !== self.table {
      self.table = table
    }
    if table.members !== members {
      members = table.members
    }
    planNodes = table.count
  }

  /// Points the backend at the encoder's current slot, for a run that reuses it.
  func reset() {
    slot = encoder.slotPlace
    if madePath != nil {
      madePath = nil
    }
    // Forget the frames of the last run in place: a run of a small object uses one or two.
    if usedFrames > 0 {
      frames.withUnsafeMutableBufferPointer { frames in
        for node in 0..<Swift.min(usedFrames, frames.count) {
          // Field by field: most frames hold no path and no key of their own, and writing a
          // whole frame releases both.
          frames[node].index = -1
          frames[node].id = -1
          frames[node].parent = -1
          if frames[node].path != nil {
            frames[node].path = nil
          }
          if frames[node].key != nil {
            frames[node].key = nil
          }
        }
      }
      usedFrames = 0
    }
  }

  var userInfo: [CodingUserInfoKey: Any] { encoder.userInfo }

  var codingPath: [any CodingKey] { path.keys }

  func openRoot() {
    store(encoder.openFrame(object: true), key: nil, in: 0, at: 0)
  }

  func openObject(_ node: Int, key: PathKey, in parent: Int) {
    do {
      if try !beginPlannedNode(node, in: parent) {
        try begin(key, in: parent)
      }
      store(encoder.pushFrame(object: true), key: key, in: parent, at: node)
    } catch {
      encoder.deferError(error)
      store((-1, -1), key: key, in: parent, at: node)
    }
  }

  /// Writes the name of the plan's `node` in the object at `parent` as the plan has it, when it
  /// can (see ``writesPlannedNames``).
  ///
  /// - Returns: Whether the name was written.
  /// - Throws: ``JSONStreamEncoder/Restart`` when the object can't be written to any more.
  @inline(__always)
  private func beginPlannedNode(_ node: Int, in parent: Int) throws -> Bool {
    guard writesPlannedNames, node > 0, node < members.namedNodes, parent < frames.count,
      escapesSlashes || !members.hasSlash[node]
    else { return false }
    try encoder.beginMember(
      frames[parent].index, id: frames[parent].id, member: members.jsonMember(node))
    return true
  }

  /// The coding path of the object at `node`, made from its parents' keys the first time it is
  /// asked for and kept until the run ends.
  ///
  /// Linear in the number of the node's parents without a path yet; a loop, so that a key path
  /// of any length can't exhaust the stack.
  func path(of node: Int) -> JSONCodingPath {
    guard node > 0, node < frames.count, frames[node].parent >= 0 else { return path }
    if let known = frames[node].path { return known }
    let parent = frames[node].parent
    if parent == 0 || (parent < frames.count && frames[parent].path != nil) {
      // A member of the mapped object, or of an object whose path is known.
      let made = path(of: parent).appending(key(of: node))
      frames[node].path = made
      return made
    }
    // The nodes up to the nearest one with a path (or the mapped object), then their paths
    // from the top down.
    var pending: [Int] = []
    var current = node
    var made = path
    while current > 0, current < frames.count, frames[current].parent >= 0,
      pending.count < frames.count
    {
      if let known = frames[current].path {
        made = known
        break
      }
      pending.append(current)
      current = frames[current].parent
    }
    for waiting in pending.reversed() {
      made = made.appending(key(of: waiting))
      frames[waiting].path = made
    }
    return made
  }

  /// The key of the open `node`.
  private func key(of node: Int) -> PathKey {
    if node < planNodes, node < table.keys.count {
      return table.keys[node]
    }
    return frames[node].key ?? PathKey("")
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
    try encoder.encodeValue(value, below: path(of: node), .key(key))
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
    try beginPlanned(member, of: run)
    if Value.self == String.self {
      write(reinterpret(value, as: String.self))
    } else if Value.self == Int.self {
      write(reinterpret(value, as: Int.self))
    } else if Value.self == Double.self {
      try write(reinterpret(value, as: Double.self), member.position, member.parent, of: run)
    } else if Value.self == Bool.self {
      write(reinterpret(value, as: Bool.self))
    } else if Value.self == [Int].self {
      try write(reinterpret(value, as: [Int].self), member.position, member.parent, of: run)
    } else if Value.self == [String].self {
      try write(reinterpret(value, as: [String].self), member.position, member.parent, of: run)
    } else if Value.self == [Double].self {
      try write(reinterpret(value, as: [Double].self), member.position, member.parent, of: run)
    } else {
      try encodeValue(value, member.position, member.parent, of: run)
    }
    return true
  }

  /// Writes `date` as `transform`'s text for a mapping the plan resolved to a plain member (see
  /// ``EncodeRun/encodeISO8601(_:_:_:)``).
  ///
  /// - Returns: Whether the date was written; `false` when the mapping must take the general
  ///   path.
  /// - Throws: ``ValueTransformError`` for a date the transform can't write, before anything is
  ///   written; ``JSONStreamEncoder/Restart`` when the object can't be written to any more.
  func encodePlanned(
    _ date: Date, with transform: ISO8601DateTransform, _ member: PlainMember, in run: EncodeRun
  ) throws -> Bool {
    try transform.checkWritable(date)
    guard run.claimPlanned(member) else { return false }
    try beginPlanned(member, of: run)
    var writer = encoder.writer
    transform.appendQuoted(date, to: &writer)
    return true
  }

  /// Writes the name of `member`, a plain member the plan resolved.
  ///
  /// The member's node comes with it (from the plan's quick entries): the plan's entry itself,
  /// an object elsewhere in memory, is only read for a name that isn't written from the plan's
  /// table.
  @usableFromInline
  func beginPlanned(_ member: PlainMember, of run: EncodeRun) throws {
    if try !beginPlannedNode(member.node, in: member.parent) {
      try begin(run.follower.entries[member.position].memberKey, in: member.parent)
    }
  }

  @usableFromInline
  func write(_ value: Double, _ position: Int, _ node: Int, of run: EncodeRun) throws {
    guard value.isFinite else {
      return try encoder.double(
        value, at: path(of: node).appending(run.follower.entries[position].memberKey))
    }
    withWriter { $0.double(value) }
  }

  // Arrays of one scalar type, written without the generic path's type lookup: a model's
  // identifiers, tags and series (citm_catalog.json's 8,685 areas each have an `[Int]`).

  @usableFromInline
  func write(_ value: [Int], _ position: Int, _ node: Int, of run: EncodeRun) throws {
    try encoder.encodeIntegerArray(
      value, at: path(of: node).appending(run.follower.entries[position].memberKey))
  }

  @usableFromInline
  func write(_ value: [String], _ position: Int, _ node: Int, of run: EncodeRun) throws {
    try encoder.encodeStringArray(
      value, at: path(of: node).appending(run.follower.entries[position].memberKey))
  }

  @usableFromInline
  func write(_ value: [Double], _ position: Int, _ node: Int, of run: EncodeRun) throws {
    try encoder.encodeDoubleArray(
      value, at: path(of: node).appending(run.follower.entries[position].memberKey))
  }

  @usableFromInline
  func encodeValue<Value: Encodable>(
    _ value: Value, _ position: Int, _ node: Int, of run: EncodeRun
  ) throws {
    try encoder.encodeValue(
      value, below: path(of: node), .key(run.follower.entries[position].memberKey))
  }

  @usableFromInline
  func write(_ value: String) {
    withWriter { $0.string(value) }
  }

  /// Runs `body` with the encoder's writer, lent without a retain: this backend holds the
  /// encoder, which holds the writer.
  @inline(__always)
  private func withWriter(_ body: (JSONWriter) -> Void) {
    Unmanaged.passUnretained(encoder.writer)._withUnsafeGuaranteedRef(body)
  }

  @usableFromInline
  func write(_ value: Int) {
    encoder.writer.integer(value)
  }

  @usableFromInline
  func write(_ value: Bool) {
    withWriter { $0.bool(value) }
  }

  /// Writes the name of member `key` of the object at `node`.
  @usableFromInline
  func begin(_ key: PathKey, in node: Int) throws {
    guard node < frames.count else { throw JSONStreamEncoder.Restart() }
    // The run never writes one key twice, so without a key strategy no name repeats; with one,
    // two keys may convert to one name (`aB` and `a_b`), which Foundation writes once.
    try encoder.beginMember(
      frames[node].index, id: frames[node].id, name: encoder.name(for: key, at: path(of: node)),
      mayRepeat: encoder.convertsKeys)
  }

  private func store(
    _ frame: (index: Int, id: Int), key: PathKey?, in parent: Int, at node: Int
  ) {
    if node >= frames.count {
      let missing = Swift.max(node + 1, frames.count * 2, 4) - frames.count
      frames.append(contentsOf: repeatElement(.closed, count: missing))
    }
    frames[node] = NodeFrame(
      index: frame.index, id: frame.id, path: nil, key: node < planNodes ? nil : key,
      parent: key == nil ? -1 : parent)
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

/// Implemented by `[Int: Value]`: encoded member by member.
///
/// Each key is written as its decimal name, in the dictionary's order, as the standard
/// library's `encode(to:)` writes it through a keyed container. Only without a key encoding strategy, which Foundation's encoder applies
/// to those names as to any key's (see ``JSONStreamEncoder/encodeScalar(_:kind:at:)``).
protocol JSONIntKeyedEncodableDictionary {
  func encodeMembers(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws
}

extension Dictionary: JSONIntKeyedEncodableDictionary where Key == Int, Value: Encodable {
  func encodeMembers(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws {
    let frame = encoder.pushFrame(object: true)
    for (key, value) in self {
      // Distinct integers have distinct names.
      let name = String(key)
      try encoder.beginMember(frame.index, id: frame.id, name: name, mayRepeat: false)
      try encoder.encodeValue(value, at: path().appending(PathKey(dictionaryMember: name)))
    }
    try encoder.closeFrames(above: frame.index)
  }
}

/// A dictionary type ``JSONStreamEncoder`` writes member by member, as its type-kind cache has
/// it.
enum JSONEncodableDictionaryKind {
  /// `[String: Value]`.
  case stringKeyed(any JSONStringKeyedEncodableDictionary.Type)
  /// `[Int: Value]`.
  case intKeyed(any JSONIntKeyedEncodableDictionary.Type)
}

/// Implemented by `[Element]`: encoded element by element, without a container.
protocol JSONEncodableArray: RandomAccessCollection where Index == Int {
  /// Whether the elements encode themselves, into a slot of the encoder: neither standard
  /// scalars (see ``isStandardScalar(_:)``) nor arrays.
  static var elementsTakeSlots: Bool { get }

  /// Writes the array at `path`, whose elements are standard scalars or arrays.
  func encodeElements(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws

  /// Writes the array at `path`, whose elements take slots (see ``elementsTakeSlots``).
  func encodeSlotElements(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws
}

/// An array type ``JSONStreamEncoder`` writes element by element, as its type-kind cache has it.
struct JSONEncodableArrayKind {
  let type: any JSONEncodableArray.Type
  /// Its ``JSONEncodableArray/elementsTakeSlots``.
  let elementsTakeSlots: Bool
}

extension Array: JSONEncodableArray where Element: Encodable {}

/// Implemented by `Optional`: `nil` is written as `null`, any other value as the wrapped value
/// is, as `Optional`'s own `encode(to:)` writes it through a single value container, without
/// the container.
protocol JSONEncodableOptional {
  func encodeOptional(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws
}

extension Optional: JSONEncodableOptional where Wrapped: Encodable {
  func encodeOptional(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws {
    switch self {
    case .none:
      encoder.writer.null()
    case .some(let wrapped):
      try encoder.encodeValue(wrapped, at: path())
    }
  }
}

// Generic over the collection rather than written for `Array`, as
// ``JSONDecodableArray/decodeElements(from:array:at:)`` is: no metadata lookup per array.
extension JSONEncodableArray where Element: Encodable {
  static var elementsTakeSlots: Bool {
    !isStandardScalar(Element.self) && !(Element.self is any JSONEncodableArray.Type)
  }

  func encodeElements(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws {
    let frame = encoder.pushFrame(object: false)
    // Coordinates, series, identifiers and tags: arrays of one scalar type are written by a loop
    // for that type alone, with no type test per element.
    if Self.self == [Double].self {
      try reinterpret(self, as: [Double].self).withUnsafeBufferPointer {
        try encoder.encodeDoubles($0, in: frame, at: path)
      }
      return try encoder.closeFrames(above: frame.index)
    }
    if Self.self == [[Double]].self {
      try reinterpret(self, as: [[Double]].self).withUnsafeBufferPointer {
        try encoder.encodeDoubleArrays($0, in: frame, at: path)
      }
      return try encoder.closeFrames(above: frame.index)
    }
    if Self.self == [Int].self {
      try reinterpret(self, as: [Int].self).withUnsafeBufferPointer {
        try encoder.encodeIntegers($0, in: frame)
      }
      return try encoder.closeFrames(above: frame.index)
    }
    if Self.self == [String].self {
      try reinterpret(self, as: [String].self).withUnsafeBufferPointer {
        try encoder.encodeStrings($0, in: frame)
      }
      return try encoder.closeFrames(above: frame.index)
    }
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

  func encodeSlotElements(to encoder: JSONStreamEncoder, at path: () -> JSONCodingPath) throws {
    let frame = encoder.pushFrame(object: false)
    // Each element is given the array's path, made once, and its index: a model's own path is
    // made only when it is asked for.
    if !isEmpty {
      let arrayPath = path()
      // Models go straight to their own `encode(to:)`, without a type test per element.
      let encodesItself = encoder.encodesItself(Element.self)
      let encodedInPlace: Void? = try withContiguousStorageIfAvailable { elements in
        var index = 0
        while index < elements.count {
          try encoder.beginElement(frame.index, id: frame.id)
          if encodesItself {
            try encoder.encodeNested(elements[index], below: arrayPath, .index(index))
          } else {
            try encoder.encodeValue(elements[index], below: arrayPath, .index(index))
          }
          index &+= 1
        }
      }
      if encodedInPlace == nil {
        var index = startIndex
        while index < endIndex {
          try encoder.beginElement(frame.index, id: frame.id)
          try encoder.encodeValue(self[index], below: arrayPath, .index(index &- startIndex))
          index &+= 1
        }
      }
    }
    try encoder.closeFrames(above: frame.index)
  }
}
