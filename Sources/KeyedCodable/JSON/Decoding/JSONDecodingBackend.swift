import Foundation

/// The ``DecodingBackend`` of ``KeyedJSONDecoder``: a ``Keyedable`` type's mappings read the
/// parsed document directly.
///
/// The first mapping that reads a member of an object reads all of the object's members at once:
/// one pass over the names compares their bytes with those of the plan's key paths
/// (``PathTable/MemberIndex``, prepared once per plan) and notes the value entry of every member
/// the plan knows. Each later mapping then finds its value with one array read. No container is
/// made for an object on a key path, and values are read with the decoder's own scalar readers,
/// so the errors and coding paths are those of ``JSONValueDecoder``. Mappings the plan doesn't
/// know (a branch, a listed member) look members up by name.
@usableFromInline
final class JSONDecodingBackend: DecodingBackend {
  /// The decoder that made the backend, the only one whose runs it serves: read with
  /// ``lent(_:)``.
  ///
  /// Not retained here, so that reading through it costs no reference counting: ``owner``
  /// keeps it alive while the backend may be used. A backend without an owner is a spare run's,
  /// kept between decodes inside that very decoder (see ``detach()``), which nothing else can
  /// reach: it is never used before ``reset(object:below:_:)`` gives it its owner back.
  private let decoderReference: Unmanaged<JSONValueDecoder>
  /// The decoder that made the backend, retained for the caller (see ``decoderReference``).
  var decoder: JSONValueDecoder { decoderReference.takeUnretainedValue() }
  /// Keeps ``decoder`` alive; `nil` while the run is kept between decodes (see ``detach()``).
  private var owner: JSONValueDecoder?

  /// Runs `body` with the decoder, lent without a retain.
  @inline(__always)
  private func lent<Result>(_ body: (JSONValueDecoder) throws -> Result) rethrows -> Result {
    try decoderReference._withUnsafeGuaranteedRef(body)
  }
  /// The document of the decoder that made the backend, the only one whose runs it serves: the
  /// same object for every decode of a kept decoder, which parses each document into it (see
  /// ``JSONDocument/reparse(_:)``).
  private let document: JSONDocument
  /// The mapped value's entry, and its coding path as the decoder has it: the path above and
  /// the value's key or index, joined when first asked for (see ``rootPath``).
  #if DEBUG
    private var root: Int
    private var rootSlot: (base: JSONCodingPath, step: JSONPathStep)
    private var madeRootPath: JSONCodingPath?
  #else
    @exclusivity(unchecked) private var root: Int
    @exclusivity(unchecked) private var rootSlot: (base: JSONCodingPath, step: JSONPathStep)
    @exclusivity(unchecked) private var madeRootPath: JSONCodingPath?
  #endif

  /// The coding path of the mapped value, made the first time it is asked for: most models are
  /// decoded without errors or nested values of their own.
  private var rootPath: JSONCodingPath {
    if let madeRootPath { return madeRootPath }
    let made = rootSlot.base.appending(rootSlot.step)
    madeRootPath = made
    return made
  }
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
  /// One past the highest node opened since the last ``reset(object:below:_:)``: the nodes of
  /// ``objects`` the next reset marks as not open. The three arrays keep their elements from run
  /// to run (appending them again for every object cost a tenth of decoding a model's object);
  /// ``parents`` and ``keys`` are only read for open nodes.
  #if DEBUG
    private var openedEnd = 0
  #else
    @exclusivity(unchecked) private var openedEnd = 0
  #endif
  /// The converted member names of each node's object and the object's tape entry, when a key
  /// decoding strategy converts member names: kept from run to run, so that the next object
  /// of a node with the same raw names uses the names converted for the last (see
  /// ``JSONKeyedContainerState/convertedNames(of:decoder:path:reusing:)``).
  #if DEBUG
    private var convertedNames:
      [Int: (object: Int, names: JSONKeyedContainerState.ConvertedNames)] =
        [:]
  #else
    @exclusivity(unchecked) private var convertedNames:
      [Int: (object: Int, names: JSONKeyedContainerState.ConvertedNames)] = [:]
  #endif
  private let convertsNames: Bool
  /// The object whose member was found by name last, the name entry of that member, and
  /// whether the member after it may be taken for the next name that matches it (see
  /// ``member(_:in:)``).
  #if DEBUG
    private var lastObject = -1
    private var lastName = -1
    private var readsOn = ReadingOn.unknown
  #else
    @exclusivity(unchecked) private var lastObject = -1
    @exclusivity(unchecked) private var lastName = -1
    @exclusivity(unchecked) private var readsOn = ReadingOn.unknown
  #endif

  /// Whether names are found by reading on from the member found last, in the object of
  /// ``lastObject``.
  private enum ReadingOn {
    /// Not worked out: the object had one lookup so far.
    case unknown
    /// Its names are plain and can't repeat: a match after the member found last is the only
    /// member with that name.
    case yes
    case no
  }
  /// The hasher of member names (see ``JSONNameIndex/NameHasher``), read once.
  private let hasher = JSONNameIndex.NameHasher.shared

  // Reading whole objects (see the type's overview). Unchecked exclusivity in release builds
  // only (see ``MappingRun``): read on every mapping.

  /// The key paths of the run's plan.
  #if DEBUG
    private var table = PathTable.rootOnly
  #else
    @exclusivity(unchecked) private var table = PathTable.rootOnly
  #endif
  /// For each node of ``table``, the entry of its value in its parent's object.
  ///
  /// `-1` when the object has no such member; valid once the parent's members were read in this
  /// run (``stamps``). Plain memory: written for every member read, with no copy-on-write checks.
  private var values: UnsafeMutablePointer<Int>
  /// For each node of ``table``, the ``stamp`` of the run that read its object's members.
  private var stamps: UnsafeMutablePointer<UInt32>
  /// The orders in which the objects of ``table`` last listed their mapped members (see
  /// ``JSONMemberOrders``), each member's prediction of the next: ``primaryOrders`` when the
  /// table is ``primaryTable``, otherwise kept in ``memberOrders``.
  private var following: UnsafeMutablePointer<Int32>
  /// The orders of ``primaryTable``, in the allocation of ``values`` and ``stamps``: a backend
  /// that reads one type of model (a run per top-level call) needs no allocation of its own for
  /// them.
  private var primaryOrders: UnsafeMutablePointer<Int32>
  /// The table whose orders ``primaryOrders`` holds: the first this backend was prepared for
  /// since its storage was made.
  private var primaryTable: PathTable?
  /// The orders of the other tables this backend was prepared for, the last few of them.
  #if DEBUG
    private var memberOrders = JSONMemberOrders()
  #else
    @exclusivity(unchecked) private var memberOrders = JSONMemberOrders()
  #endif
  /// The number of nodes ``values``, ``stamps`` and ``primaryOrders`` have room for.
  private var nodeCapacity = 16
  /// The one allocation of ``values``, ``primaryOrders`` and ``stamps``, in that order.
  private var storage: UnsafeMutableRawPointer

  /// The bytes of ``storage`` for `nodes` nodes: an `Int`, two `Int32`s and a `UInt32` each.
  private static func storageSize(_ nodes: Int) -> Int { nodes &* 20 }

  /// Allocates the storage of `nodes` nodes, and points ``values``, ``stamps`` and
  /// ``primaryOrders`` into it: no value read, no run stamped, no order known.
  private static func makeStorage(_ nodes: Int) -> (
    UnsafeMutableRawPointer, UnsafeMutablePointer<Int>, UnsafeMutablePointer<Int32>,
    UnsafeMutablePointer<UInt32>
  ) {
    let storage = UnsafeMutableRawPointer.allocate(
      byteCount: storageSize(nodes), alignment: MemoryLayout<Int>.alignment)
    let values = storage.initializeMemory(as: Int.self, repeating: -1, count: nodes)
    let orders = (storage + nodes &* 8).initializeMemory(
      as: Int32.self, repeating: 0, count: 2 &* nodes)
    let stamps = (storage + nodes &* 16).initializeMemory(
      as: UInt32.self, repeating: 0, count: nodes)
    return (storage, values, orders, stamps)
  }

  /// Identifies the current run, so that nothing read by an earlier run is taken for current.
  #if DEBUG
    private var stamp: UInt32 = 0
  #else
    @exclusivity(unchecked) private var stamp: UInt32 = 0
  #endif

  deinit {
    storage.deallocate()
    memberOrders.removeAll()
  }

  init(decoder: JSONValueDecoder, object: Int, below base: JSONCodingPath, _ step: JSONPathStep) {
    (storage, values, primaryOrders, stamps) = Self.makeStorage(nodeCapacity)
    following = primaryOrders
    decoderReference = Unmanaged.passUnretained(decoder)
    owner = decoder
    document = decoder.document
    root = object
    rootSlot = (base, step)
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
  ///   - base: The coding path of the array or object holding the value.
  ///   - step: The value's index or key in it.
  func reset(object: Int, below base: JSONCodingPath, _ step: JSONPathStep) {
    rootSlot.base = base
    reset(object: object, step: step)
  }

  /// Whether `base` is the path of the array or object holding the last value: the elements of
  /// an array share the array's path, which the backend then keeps as it is (see
  /// ``reset(object:step:)``) rather than retaining it again and releasing it.
  @inline(__always)
  func holdsBase(_ base: JSONCodingPath) -> Bool {
    rootSlot.base.isSameNode(as: base)
  }

  /// Points the backend at another value, in the array or object that held the last one (see
  /// ``holdsBase(_:)``).
  ///
  /// - Parameters:
  ///   - object: The value's entry.
  ///   - step: The value's index or key in the array or object.
  func reset(object: Int, step: JSONPathStep) {
    if owner == nil {
      // A run kept between decodes (see ``detach()``), reused by the decoder that kept it.
      owner = decoder
    }
    root = object
    rootSlot.step = step
    if madeRootPath != nil {
      madeRootPath = nil
    }
    rootObject = -1
    // Only the nodes the last run opened (see ``openedEnd``).
    if openedEnd > 0 {
      if objects.capacity > KeptStorage.limit {
        objects = []
        parents = []
        keys = []
      } else {
        for node in 0..<openedEnd {
          objects[node] = -1
        }
      }
      openedEnd = 0
    }
    if !convertedNames.isEmpty, !decoder.keepsConvertedNames {
      // A custom conversion may depend on the path, which another model may read differently.
      convertedNames.removeAll()
    }
  }

  /// Lets go of the decoder and of everything that refers to its document's entries, for a run
  /// kept between decodes (see ``JSONValueDecoder/park()``): the run no longer keeps the decoder
  /// alive, so a decoder nothing else refers to can be kept, and the next document (parsed into
  /// the same ``JSONDocument``) finds nothing of the last one's entries.
  ///
  /// The next ``reset(object:below:_:)`` takes the decoder again.
  func detach() {
    owner = nil
    rootSlot = (.root, .none)
    madeRootPath = nil
    rootObject = -1
    lastObject = -1
    lastName = -1
    readsOn = .unknown
    if !convertedNames.isEmpty {
      convertedNames.removeAll()
    }
  }

  func prepare(for table: PathTable) {
    var switched = table !== self.table
    if nodeCapacity < table.count {
      storage.deallocate()
      nodeCapacity = Swift.max(table.count, nodeCapacity * 2)
      (storage, values, primaryOrders, stamps) = Self.makeStorage(nodeCapacity)
      primaryTable = nil
      switched = true
    }
    if switched {
      self.table = table
      following = orders(for: table)
    }
    startRunOnSameTable()
  }

  /// Starts a run on the table the backend was last prepared for (see ``prepare(for:)``): the
  /// members read by the last run are stale from now on.
  @inline(__always)
  func startRunOnSameTable() {
    stamp &+= 1
    if stamp == 0 {
      // After 2³² runs: forget every stamp rather than take an old one for current.
      stamps.update(repeating: 0, count: nodeCapacity)
      stamp = 1
    }
  }

  /// The member orders of `table` (see ``following``).
  private func orders(for table: PathTable) -> UnsafeMutablePointer<Int32> {
    if primaryTable === table {
      return primaryOrders
    }
    if primaryTable == nil {
      primaryTable = table
      primaryOrders.update(repeating: 0, count: 2 &* table.count)
      return primaryOrders
    }
    return memberOrders.orders(for: table)
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
      try lent { try $0.checkObject(at: root, path: rootPath) }
      throw MappingErrors.internalInconsistency(
        "The value at \(root) is an object after all.", codingPath: rootPath.keys)
    }
    rootObject = root
  }

  func openObject(_ node: Int, key: PathKey, in parent: Int) throws -> NodePresence {
    let entry = planned(node, in: parent) ?? member(key, in: parent) ?? -1
    guard entry >= 0 else { return .missing }
    switch document.kind(entry) {
    case .object:
      store(node, entry: entry, parent: parent, key: key)
      return .object
    case .null:
      return .null
    default:
      throw lent { $0.typeMismatch([String: Any].self, entry, at: path(of: parent).appending(key)) }
    }
  }

  func codingPath(ofOpen node: Int) -> [any CodingKey] {
    path(of: node).keys
  }

  // `decode` and `decodeIfPresent` are on the path of a nested model's value, once per level of
  // nesting: the member is looked up out of line, so that their frames stay small.

  func decode<Value: Decodable>(_ type: Value.Type, forKey key: PathKey, in node: Int) throws
    -> Value
  {
    try lent {
      try $0.unwrapNested(
        try requiredMember(key, in: node), as: Value.self, below: path(of: node), .key(key))
    }
  }

  func decodeIfPresent<Value: Decodable>(
    _ type: Value.Type, forKey key: PathKey, in node: Int
  ) throws -> Value? {
    let entry = presentMember(key, in: node)
    guard entry >= 0 else { return nil }
    return try lent { try $0.unwrapNested(entry, as: Value.self, below: path(of: node), .key(key)) }
  }

  /// The value entry of member `key` of the open object `node`.
  ///
  /// - Throws: `keyNotFound` when the object has no such member.
  @inline(never)
  private func requiredMember(_ key: PathKey, in node: Int) throws -> Int {
    guard let entry = member(key, in: node) else {
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: decoder.errorKeys(of: path(of: node)),
          debugDescription: decoder.missingKeyMessage(key)))
    }
    return entry
  }

  /// The value entry of member `key` of the open object `node`, or `-1` when it is missing or
  /// `null`.
  @inline(never)
  private func presentMember(_ key: PathKey, in node: Int) -> Int {
    guard let entry = member(key, in: node), document.kind(entry) != .null else { return -1 }
    return entry
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
          codingPath: decoder.errorKeys(of: path(of: node)),
          debugDescription: decoder.missingKeyMessage(key)))
    }
    return try lent { try $0.unkeyedContainer(at: entry, path: path(of: node).appending(key)) }
  }

  /// The elements that decode of the array at member `key` of the open object `node`, read
  /// from the tape with no unkeyed container (see
  /// ``LossyDecodableArray/decodeDroppingInvalidElements(json:array:at:dropped:)``).
  ///
  /// - Parameters:
  ///   - type: The array's type.
  ///   - key: The member's key.
  ///   - node: The object's node.
  ///   - dropped: Called with the position, the error and the array's coding path of every
  ///     element left out.
  /// - Returns: `nil` when the member is missing or not an array: ``elements(forKey:in:)`` then
  ///   throws the error a container would.
  func decodeLossy<Elements: LossyDecodableArray>(
    _ type: Elements.Type, forKey key: PathKey, in node: Int,
    dropped: (_ position: Int, _ error: any Error, _ arrayPath: [any CodingKey]) -> Void
  ) -> Elements? {
    guard let entry = member(key, in: node), document.kind(entry) == .array else { return nil }
    let path = path(of: node).appending(key)
    var arrayPath: [any CodingKey]?
    return Elements.decodeDroppingInvalidElements(json: decoder, array: entry, at: path) {
      position, error in
      if arrayPath == nil {
        arrayPath = path.keys
      }
      dropped(position, error, arrayPath ?? [])
    }
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
    let checkRepeats = lent { $0.mayRepeatNames(in: object) }
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

  /// Reads the members straight from the document, in its order (see
  /// ``DecodingBackend/unmappedMembers(in:excluding:)``); through the keys, in the order of the
  /// names, when a key strategy converts them.
  func unmappedMembers(in node: Int, excluding excluded: Set<String>) throws
    -> [(name: String, value: JSONValue)]
  {
    if convertsNames {
      return try unmappedMembersByName(in: node, excluding: excluded)
    }
    let object = object(at: node)
    guard object >= 0 else { return [] }
    var members: [(name: String, value: JSONValue)] = []
    var seen = Set<String>()
    let checkRepeats = lent { $0.mayRepeatNames(in: object) }
    var entry = object &+ 1
    let end = document.next(object)
    while entry < end {
      let name = JSONStrings.string(at: entry, in: document)
      let value = entry &+ 1
      if !checkRepeats || seen.insert(name).inserted, !excluded.contains(name) {
        members.append((name, lent { $0.jsonValue(at: value) }))
      }
      entry = document.next(value)
    }
    return members
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

  /// The date the plan's member at `node` of the open object `parent` spells in ISO 8601, read
  /// from the document's bytes; `nil` when the object isn't open, the member is missing, not a
  /// string or has escapes, or the text isn't a date (see
  /// ``DecodeRun/plannedISO8601Date(_:)``).
  func plannedISO8601Date(_ node: Int, in parent: Int) -> Date? {
    guard isOpen(parent), let entry = planned(node, in: parent), entry >= 0,
      document.kind(entry) == .string, document.flags(entry) & JSONDocument.hasEscapes == 0
    else { return nil }
    return InternetDate.parseISO8601(bytes: document.span(entry))
  }

  /// Decodes the value of a mapping the plan resolved to a plain member: the fast path of
  /// ``DecodeRun/decode(_:_:required:)``, inlined into the model.
  ///
  /// - Returns: The value, or `nil` when it is absent and not required.
  /// - Throws: `DecodingError` with the full coding path, after the run's recovery (see
  ///   ``DecodeRun/recover(_:planned:_:_:after:)``).
  @inlinable
  func decodePlanned<Value: Decodable>(
    _ type: Value.Type, _ member: PlainMember, _ mapping: Mapping, in run: DecodeRun,
    required: Bool
  ) throws -> Value? {
    do {
      if !isOpen(member.parent) {
        guard try run.objectIsOpen(member.parent, for: mapping, required: required) else {
          return nil
        }
      }
      return try decodeMember(Value.self, node: member.node, in: member.parent, required: required)
    } catch {
      return try run.recover(Value.self, planned: member.position, mapping, required, after: error)
    }
  }

  /// Decodes the member at `node` of the open object `parent`: the fast path of a plain mapping
  /// of the plan, inlined into the model where `Value` is concrete, so a standard scalar is read
  /// without generic code.
  ///
  /// - Parameters:
  ///   - type: The type of the value.
  ///   - node: The member's node in the plan's table.
  ///   - parent: The node of the open object holding it.
  ///   - required: Whether a missing member or `null` throws.
  /// - Returns: The value, or `nil` when it is missing or `null` and not `required`.
  /// - Throws: `keyNotFound` or `valueNotFound` for a required value that is absent, and the
  ///   value's own errors.
  @inlinable
  func decodeMember<Value: Decodable>(
    _ type: Value.Type, node: Int, in parent: Int, required: Bool
  ) throws -> Value? {
    if Value.self == String.self {
      return reinterpret(try readString(node, parent, required), as: Value?.self)
    } else if Value.self == Int.self {
      return reinterpret(try readInt(node, parent, required), as: Value?.self)
    } else if Value.self == Double.self {
      return reinterpret(try readDouble(node, parent, required), as: Value?.self)
    } else if Value.self == Bool.self {
      return reinterpret(try readBool(node, parent, required), as: Value?.self)
    } else if Value.self == [Int].self {
      return reinterpret(try readArray(of: Int.self, node, parent, required), as: Value?.self)
    } else if Value.self == [String].self {
      return reinterpret(try readArray(of: String.self, node, parent, required), as: Value?.self)
    } else if Value.self == [Double].self {
      return reinterpret(try readArray(of: Double.self, node, parent, required), as: Value?.self)
    }
    return try read(Value.self, node, parent, required)
  }

  /// Reads an `[Int]`, `[String]` or `[Double]` member as ``read(_:_:_:_:)`` does, without its
  /// type lookup: a model's identifiers, tags and series (citm_catalog.json's 8,685 areas each
  /// have an `[Int]`).
  @usableFromInline
  func readArray(of element: Int.Type, _ node: Int, _ parent: Int, _ required: Bool) throws
    -> [Int]?
  {
    try readScalarArray(node, parent, required)
  }

  @usableFromInline
  func readArray(of element: String.Type, _ node: Int, _ parent: Int, _ required: Bool) throws
    -> [String]?
  {
    try readScalarArray(node, parent, required)
  }

  @usableFromInline
  func readArray(of element: Double.Type, _ node: Int, _ parent: Int, _ required: Bool) throws
    -> [Double]?
  {
    try readScalarArray(node, parent, required)
  }

  /// The body of the ``readArray(of:_:_:_:)`` functions.
  @inline(__always)
  private func readScalarArray<Element: Decodable>(_ node: Int, _ parent: Int, _ required: Bool)
    throws -> [Element]?
  {
    let entry = try valueEntry(
      node, parent, required: required, type: [Element].self, handsOverNull: true)
    guard entry >= 0 else { return nil }
    // The member's path is an autoclosure: no key is copied unless it is asked for.
    return try lent {
      try $0.unwrapScalarArray(entry, as: [Element].self, at: memberPath(node, parent))
    }
  }

  @usableFromInline
  func readString(_ node: Int, _ parent: Int, _ required: Bool) throws -> String? {
    let entry = try valueEntry(node, parent, required: required, type: String.self)
    guard entry >= 0 else { return nil }
    guard document.kind(entry) == .string else {
      throw lent { $0.mismatch(String.self, entry, at: memberPath(node, parent)) }
    }
    return lent { $0.string(at: entry) }
  }

  @usableFromInline
  func readInt(_ node: Int, _ parent: Int, _ required: Bool) throws -> Int? {
    let entry = try valueEntry(node, parent, required: required, type: Int.self)
    guard entry >= 0 else { return nil }
    if let value = plainInteger(entry) {
      return value
    }
    return try lent { try $0.unwrapInteger(entry, as: Int.self, at: memberPath(node, parent)) }
  }

  @usableFromInline
  func readDouble(_ node: Int, _ parent: Int, _ required: Bool) throws -> Double? {
    let entry = try valueEntry(node, parent, required: required, type: Double.self)
    guard entry >= 0 else { return nil }
    // Integers of up to 2⁵³ are exact as a Double (a negative zero is left to the general path).
    if let value = plainInteger(entry), value != 0, value.magnitude <= 1 << 53 {
      return Double(value)
    }
    return try lent { try $0.unwrapFloat(entry, as: Double.self, at: memberPath(node, parent)) }
  }

  @usableFromInline
  func readBool(_ node: Int, _ parent: Int, _ required: Bool) throws -> Bool? {
    let entry = try valueEntry(node, parent, required: required, type: Bool.self)
    guard entry >= 0 else { return nil }
    switch document.kind(entry) {
    case .true: return true
    case .false: return false
    default: return try lent { try $0.unwrapBool(entry, at: memberPath(node, parent)) }
    }
  }

  /// The value of the number at `entry` when the scanner found it a plain integer of up to 18
  /// digits (see ``JSONNumber/plainInteger(_:count:)``).
  @inline(__always)
  private func plainInteger(_ entry: Int) -> Int? {
    let isPlain = JSONDocument.isPlainInteger | UInt64(JSONKind.number.rawValue)
    guard document.tape[entry] & 0x1F == isPlain else { return nil }
    return JSONNumber.plainInteger(
      document.bytes + document.offset(entry), count: document.length(entry))
  }

  @usableFromInline
  func read<Value: Decodable>(
    _ type: Value.Type, _ node: Int, _ parent: Int, _ required: Bool
  ) throws -> Value? {
    // A required `null` is handed to the value, as Foundation's container hands it: a type that
    // decodes itself throws the error of the container it asks for (`[String]` names
    // `Array<Any>`), and one that reads `null` is decoded.
    let entry = try valueEntry(
      node, parent, required: required, type: Value.self, handsOverNull: true)
    guard entry >= 0 else { return nil }
    return try lent {
      try $0.unwrapOther(
        entry, as: Value.self, below: path(of: parent), .key(table.keys[node]))
    }
  }

  /// The value entry of the member at `node` of the open object `parent`, or `-1` when it is
  /// missing or `null` and not `required`.
  ///
  /// A required `null` throws `valueNotFound(type)`, or is returned when `handsOverNull`.
  @inline(__always)
  private func valueEntry(
    _ node: Int, _ parent: Int, required: Bool, type: Any.Type, handsOverNull: Bool = false
  ) throws -> Int {
    let entry = planned(node, in: parent) ?? member(table.keys[node], in: parent) ?? -1
    guard entry >= 0 else {
      guard required else { return -1 }
      let key = table.keys[node]
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: path(of: parent).keys,
          debugDescription: "No value associated with key \(key) (\(key))."))
    }
    guard document.kind(entry) != .null else {
      guard required else { return -1 }
      if handsOverNull { return entry }
      throw lent { $0.mismatch(type, entry, at: memberPath(node, parent)) }
    }
    return entry
  }

  /// The coding path of the member at `node` of the object `parent`.
  private func memberPath(_ node: Int, _ parent: Int) -> JSONCodingPath {
    path(of: parent).appending(table.keys[node])
  }

  // MARK: - Reading whole objects

  /// The value entry of the plan's member at `node` of the open object `parent` (`-1` when the
  /// object has no such member), reading all the object's members first if this run hasn't; `nil`
  /// for a node the plan doesn't know, or an object whose members are only found by name.
  @inline(__always)
  private func planned(_ node: Int, in parent: Int) -> Int? {
    guard node > 0, node < table.count, !convertsNames else { return nil }
    if stamps[parent] != stamp {
      guard readMembers(of: parent) else { return nil }
    }
    return values[node]
  }

  /// Reads the members of the open object `node` that the plan knows into ``values``.
  ///
  /// - Returns: `false` when the object has a member name with escapes or bytes outside ASCII:
  ///   its members are then found by name (as decoded strings).
  private func readMembers(of node: Int) -> Bool {
    let object = object(at: node)
    guard object >= 0, document.flags(object) & JSONDocument.hasComplexNames == 0 else {
      return false
    }
    stamps[node] = stamp
    let members = table.members
    for position in members.childPositions(of: node) {
      values[Int(members.children[position])] = -1
    }
    let mask = Int(members.slotMask[node])
    guard mask != 0 else { return true }
    let start = Int(members.slotStart[node])
    let bytes = document.bytes
    let values = values
    let following = following
    let hasher = hasher
    members.withLookup { lookup in
      var name = object &+ 1
      let end = document.next(object)
      // Where the prediction of the next mapped member is (see ``following``).
      var slot = node &* 2
      while name < end {
        let text = UnsafePointer(bytes + document.offset(name))
        let words = JSONNameIndex.NameWords(inDocument: text, count: document.length(name))
        var child = Int(following[slot])
        if child == 0 || !lookup.isChild(child, named: text, words: words) {
          child = lookup.child(
            named: text, words: words, fingerprint: hasher.fingerprint(words, at: text),
            start: start, mask: mask)
          if child != 0 {
            following[slot] = Int32(truncatingIfNeeded: child)
          }
        }
        let value = name &+ 1
        if child != 0 {
          // The first of two members with one name is read, as Foundation's decoder does.
          if values[child] < 0 {
            values[child] = value
          }
          slot = child &* 2 &+ 1
        }
        name = document.next(value)
      }
    }
    return true
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
    return member(key.stringValue, inObject: object)
  }

  /// The value entry of the member named `name` of the object at `object`.
  ///
  /// Names asked for in the document's order (a model that lists all keys and reads each) are
  /// found by comparing the name with the member after the one found last, before looking them
  /// up: in an object whose names are plain and can't repeat (worked out on its second lookup),
  /// a match there is the member the lookup would find.
  private func member(_ name: String, inObject object: Int) -> Int? {
    if object == lastObject {
      if case .unknown = readsOn {
        readsOn =
          document.flags(object) & JSONDocument.hasComplexNames == 0
            && !lent { $0.mayRepeatNames(in: object) } ? .yes : .no
      }
      if case .yes = readsOn, lastName >= 0 {
        let next = document.next(lastName &+ 1)
        if next < document.next(object),
          name.utf8.withContiguousStorageIfAvailable({
            JSONStrings.plainName(at: next, in: document, equals: $0)
          }) == true
        {
          lastName = next
          return next &+ 1
        }
      }
    } else {
      lastObject = object
      readsOn = .unknown
    }
    let found = lent { $0.member(name, in: object) }
    lastName = found.map { $0 &- 1 } ?? -1
    return found
  }

  /// The value entry of the first member of the object at `object`, open at `node`, whose
  /// converted name is `name`.
  private func convertedMember(_ name: String, in node: Int, object: Int) -> Int? {
    if convertedNames[node]?.object != object {
      var previous = convertedNames.removeValue(forKey: node)?.names
      guard
        let names = JSONKeyedContainerState.convertedNames(
          of: object, decoder: decoder, path: path(of: node), reusing: &previous)
      else { return nil }
      convertedNames[node] = (object, names)
    }
    return convertedNames[node]?.names.entry(name) ?? nil
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
    if node >= openedEnd {
      openedEnd = node &+ 1
    }
  }

  /// The coding path of the open object `node`.
  private func path(of node: Int) -> JSONCodingPath {
    guard node > 0, node < keys.count, objects[node] >= 0, let key = keys[node] else {
      return rootPath
    }
    return path(of: parents[node]).appending(key)
  }
}
