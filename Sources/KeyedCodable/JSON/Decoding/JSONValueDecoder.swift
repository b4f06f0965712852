import Foundation

/// The `Decoder` that ``KeyedJSONDecoder`` hands to `init(from:)`: reads one parsed document.
///
/// Like Foundation's decoder, one instance serves a whole decode. It points at the value being
/// decoded (``value``, ``path``) and moves down into a nested value and back up around that
/// value's `init(from:)`, instead of making a decoder per value. Containers keep their own
/// position, so they stay valid whatever the decoder points at later.
///
/// A ``Keyedable`` type's ``KeyedDecoder`` asks it for a ``DecodingBackend`` (see
/// ``JSONDecodingBackend``): the type's mappings then read the document directly.
final class JSONValueDecoder: Decoder, DecodingBackendProvider {
  let document: JSONDocument
  /// The options, shared with the other decodes that use them.
  let settings: KeyedJSONDecoder.Settings
  /// The strategies and user info.
  var options: KeyedJSONDecoder.Options {
    @inline(__always) _read { yield settings.options }
  }
  var userInfo: [CodingUserInfoKey: Any] { settings.userInfo }
  /// Whether the key decoding strategy is other than `useDefaultKeys`.
  let convertsKeys: Bool
  /// Whether the key decoding strategy converts a name by the name alone
  /// (`convertFromSnakeCase`), so that names converted for one object serve another.
  let keepsConvertedNames: Bool
  /// The tape entry of the value being decoded.
  #if DEBUG
    var value = 0
  #else
    @exclusivity(unchecked) var value = 0
  #endif
  /// The number of values being decoded inside one another, and the fresh stacks they started
  /// (see ``StackGuard``).
  #if DEBUG
    private var depth = 0
    private var freshStacks = 0
  #else
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var freshStacks = 0
  #endif
  /// The coding path of ``value``: the path of the array or object holding it and its index or
  /// key, joined only when asked for (see ``path``), so that a model nested in an array or in
  /// another model's object is decoded without a path node of its own.
  #if DEBUG
    private(set) var pathBase = JSONCodingPath.root
    private(set) var pathStep = JSONPathStep.none
  #else
    @exclusivity(unchecked) private(set) var pathBase = JSONCodingPath.root
    @exclusivity(unchecked) private(set) var pathStep = JSONPathStep.none
  #endif

  /// The container and key of ``value`` while ``pathStep`` is ``JSONPathStep/member``: the
  /// member of a plain `Codable` type's keyed container that is being decoded (see
  /// ``decodeMember(_:as:of:key:)``).
  ///
  /// Neither is retained nor copied: both belong to the frame of the container method that
  /// decodes the member, which outlives the step (it swaps the step in and out around the
  /// member's decode), and what keeps the path beyond it (a container, an error, a `Keyedable`
  /// value's backend) joins it first (see ``path``).
  #if DEBUG
    private var memberState: Unmanaged<JSONKeyedContainerState>?
    private var memberKey: UnsafeRawPointer?
    private var memberKeyType: any CodingKey.Type = IndexKey.self
  #else
    @exclusivity(unchecked) private var memberState: Unmanaged<JSONKeyedContainerState>?
    @exclusivity(unchecked) private var memberKey: UnsafeRawPointer?
    @exclusivity(unchecked) private var memberKeyType: any CodingKey.Type = IndexKey.self
  #endif

  /// The coding path of ``value``, made on every call.
  var path: JSONCodingPath {
    @inline(__always) get {
      if case .member = pathStep {
        return memberPath()
      }
      return pathBase.appending(pathStep)
    }
  }

  /// The coding path of ``value`` while ``pathStep`` is ``JSONPathStep/member``.
  @inline(never)
  private func memberPath() -> JSONCodingPath {
    guard let memberState, let memberKey else { return pathBase }
    return .key(Self.key(memberKeyType, at: memberKey), memberState.takeUnretainedValue().path)
  }

  /// A copy of the key of type `Key` at `address`.
  static func key<Key: CodingKey>(_ type: Key.Type, at address: UnsafeRawPointer)
    -> any CodingKey
  {
    address.assumingMemoryBound(to: Key.self).pointee
  }

  /// The number of containers and `Keyedable` runs opened on this decoder so far: a type whose
  /// `init(from:)` opened none is learned as reading a single value (see
  /// ``decodeMember(_:as:of:key:)``).
  #if DEBUG
    private var opened = 0
  #else
    @exclusivity(unchecked) private var opened = 0
  #endif

  /// ``pathBase`` and ``pathStep``, with a ``JSONPathStep/member`` step joined: for what keeps
  /// the path of ``value`` after the member's decode (a `Keyedable` value's backend).
  private var pathSlot: (base: JSONCodingPath, step: JSONPathStep) {
    opened &+= 1
    if case .member = pathStep {
      return (path, .none)
    }
    return (pathBase, pathStep)
  }

  /// Runs `body` with the decoder pointed at `entry`, whose coding path is `path`: a custom
  /// strategy's closure, which decodes the value through this decoder.
  private func pointed<Value>(
    at entry: Int, path: JSONCodingPath, _ body: () throws -> Value
  ) rethrows -> Value {
    let outerValue = value
    let outerBase = pathBase
    let outerStep = pathStep
    value = entry
    pathBase = path
    pathStep = .none
    defer {
      value = outerValue
      pathBase = outerBase
      pathStep = outerStep
    }
    return try body()
  }
  /// The member-name indexes of the large objects read last (see ``JSONNameIndex``).
  #if DEBUG
    private var nameIndexes = JSONNameIndex.Cache()
  #else
    @exclusivity(unchecked) private var nameIndexes = JSONNameIndex.Cache()
  #endif
  /// The string values of 16 bytes or more made so far (see ``JSONRepeatedStrings``).
  #if DEBUG
    private var repeatedStrings = JSONRepeatedStrings()
  #else
    @exclusivity(unchecked) private var repeatedStrings = JSONRepeatedStrings()
  #endif
  /// The formatter of the `.iso8601` strategy on systems without `Date.ISO8601FormatStyle`,
  /// made on first use, once per decode.
  private var iso8601Formatter: ISO8601DateFormatter?
  /// The `.formatted` strategy's formatter and the pattern standing in for it, made on first
  /// use, once per decode (see ``JSONFormattedDates``).
  #if DEBUG
    private var formattedDates: JSONFormattedDates?
  #else
    @exclusivity(unchecked) private var formattedDates: JSONFormattedDates?
  #endif
  /// How the types met so far are decoded.
  #if DEBUG
    private var typeKinds: TypeKinds
  #else
    @exclusivity(unchecked) private var typeKinds: TypeKinds
  #endif
  /// The `allKeys` of objects of one member met so far (see ``keys(ofOneMember:make:)``).
  #if DEBUG
    private var keyLists = JSONKeyLists()
  #else
    @exclusivity(unchecked) private var keyLists = JSONKeyLists()
  #endif

  /// The runs this coder keeps for the next Keyedable value.
  typealias SpareRuns = JSONSpareRuns<DecodeRun, JSONDecodingBackend>

  /// Runs that finished, ready for the next Keyedable value (see ``decodeKeyed(_:as:)``).
  #if DEBUG
    private var spareRuns = SpareRuns()
  #else
    @exclusivity(unchecked) private var spareRuns = SpareRuns()
  #endif
  /// The decoding plans looked up so far, by model type.
  #if DEBUG
    private var plans: TypeCache<MappingPlan>
  #else
    @exclusivity(unchecked) private var plans: TypeCache<MappingPlan>
  #endif

  /// What a decoder learns that holds for any document decoded with the same options.
  ///
  /// How each type met is decoded, and the plans of the models met: a ``KeyedJSONDecoder``
  /// hands what one decode learned to the next, so that a small document doesn't pay for
  /// learning its types (protocol conformance checks) and for the tables again.
  struct Learned {
    /// How each type met is decoded.
    var typeKinds: TypeKinds
    /// The plans of the models met.
    var plans: TypeCache<MappingPlan>
  }

  /// What this decoder has learned so far, for the next decode.
  var learned: Learned {
    Learned(typeKinds: typeKinds, plans: plans)
  }
  /// Whether runs must look at the current ``MappingContext`` when they start (see
  /// ``PlanRegistry/planAndContextFlag(for:decoding:)``): read once per decode, and set when a
  /// mapping's scope starts affecting runs (see ``MappingRun/scoped(_:_:affectsRuns:_:)``).
  #if DEBUG
    var contextsAffectRuns: Bool
  #else
    @exclusivity(unchecked) var contextsAffectRuns: Bool
  #endif

  /// The messages of the `keyNotFound` errors thrown so far, by key (see
  /// ``missingKeyMessage(_:)``).
  private var missingKeyMessages: [MissingKey: String] = [:]
  /// The names of the types errors named so far (see ``name(of:)``).
  private var typeNames: [ObjectIdentifier: String] = [:]

  /// A key of a `keyNotFound` error: its type and its values.
  private struct MissingKey: Hashable {
    let type: ObjectIdentifier
    let name: String
    let integer: Int?
  }

  /// The message of a `keyNotFound` error for `key`, Foundation's text.
  ///
  /// A key's description names its type, which costs more than decoding a small object does; a
  /// lossy array whose elements lack a member throws one such error per element, so messages
  /// are kept for the rest of the decode.
  ///
  /// The last message is compared first: the elements of a lossy array that lack a member all
  /// lack the same one, and comparing two keys costs less than hashing one.
  func missingKeyMessage<Key: CodingKey>(_ key: Key) -> String {
    let id = MissingKey(
      type: ObjectIdentifier(Key.self), name: key.stringValue, integer: key.intValue)
    if let last = lastMissingKey, last.key == id {
      return last.message
    }
    let message = Self.text(for: id, in: &missingKeyMessages) {
      "No value associated with key \(key) (\"\(key.stringValue)\")."
    }
    lastMissingKey = (id, message)
    return message
  }

  /// The key and message ``missingKeyMessage(_:)`` returned last.
  private var lastMissingKey: (key: MissingKey, message: String)?

  /// `type`'s name as `"\(type)"` writes it, for error messages: kept for the rest of the
  /// decode, as a lossy array may throw an error naming the same type for many elements.
  func name(of type: Any.Type) -> String {
    Self.text(for: ObjectIdentifier(type), in: &typeNames) { "\(type)" }
  }

  /// The text `texts` keeps for `key`, or the one `make` writes, kept if `texts` has fewer than
  /// 64 (the keys of error messages come from code, but a key type may name members after data).
  private static func text<ID: Hashable>(
    for key: ID, in texts: inout [ID: String], _ make: () -> String
  ) -> String {
    if let text = texts[key] {
      return text
    }
    let text = make()
    if texts.count < 64 {
      texts[key] = text
    }
    return text
  }

  /// Creates a decoder at the root of `document`.
  ///
  /// - Parameters:
  ///   - document: The parsed document.
  ///   - options: The strategies and user info.
  convenience init(document: JSONDocument, options: KeyedJSONDecoder.Options) {
    self.init(document: document, settings: KeyedJSONDecoder.Settings(options))
  }

  /// Creates a decoder at the root of `document`.
  ///
  /// - Parameters:
  ///   - document: The parsed document.
  ///   - settings: The strategies and user info, made once for every decode that uses them.
  ///   - learned: What an earlier decode with the same options learned, if any.
  init(document: JSONDocument, settings: KeyedJSONDecoder.Settings, learned: Learned? = nil) {
    self.document = document
    self.settings = settings
    let options = settings.options
    if let learned {
      typeKinds = learned.typeKinds
      plans = learned.plans
    } else {
      typeKinds = TypeKinds()
      plans = TypeCache<MappingPlan>()
    }
    switch options.keyDecodingStrategy {
    case .useDefaultKeys: (convertsKeys, keepsConvertedNames) = (false, false)
    case .convertFromSnakeCase: (convertsKeys, keepsConvertedNames) = (true, true)
    case .custom: (convertsKeys, keepsConvertedNames) = (true, false)
    }
    contextsAffectRuns = PlanRegistry.shared.contextsAffectRuns
  }

  var codingPath: [any CodingKey] { path.keys }

  /// Decodes the whole document as `T`.
  func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
    try unwrap(0, as: T.self, at: .root)
  }

  // MARK: - Decoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    opened &+= 1
    // An array's element (the common case: a page of small objects) gets its path's last node
    // only if the path is asked for.
    // A dictionary's value, or a `Keyedable` model's member, keeps its key apart too.
    switch pathStep {
    case .index(let index):
      return try keyedContainer(at: value, below: pathBase, index: index, keyedBy: Key.self)
    case .key(let key):
      return try keyedContainer(at: value, below: pathBase, key: key, keyedBy: Key.self)
    default:
      return try keyedContainer(at: value, below: path, index: -1, keyedBy: Key.self)
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    opened &+= 1
    if case .member = pathStep {
      return try unkeyedContainer(at: value, path: path)
    }
    // The step stays apart in the container's frame: an element's path is joined only when
    // asked for.
    return try unkeyedContainer(at: value, below: pathBase, pathStep)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    self
  }

  func makeDecodingBackend() -> any DecodingBackend {
    let slot = pathSlot
    return JSONDecodingBackend(decoder: self, object: value, below: slot.base, slot.step)
  }

  // MARK: - Runs of Keyedable values

  /// Decodes the current value into `object` with its `map(map:)`, following `model`'s plan.
  ///
  /// A document of many small objects makes a run per object; reusing the key map, the run and
  /// the backend (and the plan, looked up once per type and decode) keeps their cost to
  /// resetting a few fields. A run is kept again only when nothing refers to its key map any
  /// more (a mapping kept after its run must keep throwing when used).
  ///
  /// - Parameters:
  ///   - object: The value to fill.
  ///   - model: The type whose plan the run follows.
  /// - Throws: What the mappings throw, with the full coding path.
  func decodeKeyed<Model: Keyedable>(_ object: inout Model, as model: Any.Type) throws {
    let type = ObjectIdentifier(model)
    let (spare, reused) = spareRuns.take { makeRun(for: model, plan: plan(for: type)) }
    if reused {
      point(spare.backend)
      // Most often the kept run mapped this type last, with the plan it would be given now (a
      // published decoding plan never changes).
      if !spare.run.restartSamePlan(
        of: type, readsContext: contextsAffectRuns, on: spare.backend)
      {
        spare.run.restart(model: model, plan: plan(for: type), readsContext: contextsAffectRuns)
      }
    }
    do {
      try spare.run.run { try object.map(map: spare.map) }
    } catch {
      spareRuns.keep(consume spare)
      throw error
    }
    spareRuns.keep(consume spare)
  }

  /// Points the backend of a kept run at the current value (see ``pathSlot``): the elements of
  /// an array share the array's path, which the backend keeps without a copy.
  @inline(__always)
  private func point(_ backend: JSONDecodingBackend) {
    if case .member = pathStep {
      let slot = pathSlot
      backend.reset(object: value, below: slot.base, slot.step)
    } else {
      opened &+= 1
      if backend.holdsBase(pathBase) {
        backend.reset(object: value, step: pathStep)
      } else {
        backend.reset(object: value, below: pathBase, pathStep)
      }
    }
  }

  /// The decoding plan published for the type `type`, if there is one yet.
  private func plan(for type: ObjectIdentifier) -> MappingPlan? {
    if let plan = plans.value(for: type) {
      return plan
    }
    let plan = PlanRegistry.shared.plan(for: type, decoding: true)
    if let plan {
      // A published decoding plan never changes.
      plans.set(plan, for: type)
    }
    return plan
  }

  /// A new run of `model`'s `map(map:)` on the current value, for ``decodeKeyed(_:as:)``.
  @inline(never)
  private func makeRun(for model: Any.Type, plan: MappingPlan?) -> SpareRuns.Spare {
    let slot = pathSlot
    let backend = JSONDecodingBackend(decoder: self, object: value, below: slot.base, slot.step)
    let run = DecodeRun(json: backend, model: model, plan: plan, readsContext: contextsAffectRuns)
    return .init(map: KeyMap(decoding: run), run: run, backend: backend)
  }

  /// Lets go of the runs kept for reuse when the top-level decode ends: their backends refer to
  /// this decoder, which would otherwise never be freed.
  func finish() {
    spareRuns.removeAll()
    containers.removeAll()
    unkeyedFrames.removeAll()
  }

  /// Ends a top-level decode so that the decoder can be kept for the next one (see
  /// ``KeyedJSONDecoder``): lets go of the unkeyed frames made, which refer to the decoder, and
  /// the kept containers and runs let go of it (see ``JSONKeyedContainerState/detach()`` and
  /// ``JSONDecodingBackend/detach()``), or are let go when something else still refers to them.
  ///
  /// What refers to this decoder afterwards is what the decoded types kept of it, if anything: a
  /// decoder nothing refers to any more is kept (see ``restart()``), one that is still referred to
  /// is not.
  ///
  /// Lets go of the caches of the document's tape entries too (indexes of large objects, long
  /// strings, the coding path of the last error), which a decoder kept would otherwise take for
  /// the next document's, and which hold memory; and of what was read of the `.formatted`
  /// strategy's formatter, which the next decode reads again. What holds for any document
  /// decoded with the same options stays: how types are decoded, plans, runs, messages, the
  /// ISO 8601 formatter, the key lists of one-member objects.
  func park() {
    containers.park { $0.detach() }
    if !unkeyedFrames.isEmpty {
      unkeyedFrames.removeAll()
    }
    spareRuns.eachBackend { $0.detach() }
    // Each only if used: most small documents use none.
    if !nameIndexes.isEmpty {
      nameIndexes = JSONNameIndex.Cache()
    }
    if !repeatedStrings.isEmpty {
      repeatedStrings = JSONRepeatedStrings()
    }
    if lastErrorKeys.entry >= 0 || !lastErrorKeys.keys.isEmpty {
      lastErrorKeys = (-1, [])
    }
    // The `.formatted` strategy's formatter is the user's, which may change between decodes.
    if formattedDates != nil {
      formattedDates = nil
    }
  }

  /// Points a kept decoder at the root of the next document, parsed into ``document`` in place.
  ///
  /// Called on a decoder nothing but its ``KeyedJSONDecoder`` refers to, after ``park()``.
  func restart() {
    value = 0
    depth = 0
    freshStacks = 0
    pathBase = .root
    pathStep = .none
    memberState = nil
    memberKey = nil
    opened = 0
    contextsAffectRuns = PlanRegistry.shared.contextsAffectRuns
  }

  /// The keyed containers made so far, to be handed out again (see ``JSONContainerBoxes``).
  #if DEBUG
    private var containers = JSONContainerBoxes<JSONKeyedContainerState>()
  #else
    @exclusivity(unchecked) private var containers = JSONContainerBoxes<JSONKeyedContainerState>()
  #endif

  /// The keyed container of the object at `entry`, whose coding path is `path`: a kept one
  /// when one of `Key` is free.
  func keyedContainer<Key: CodingKey>(
    at entry: Int, path: @autoclosure () -> JSONCodingPath, keyedBy type: Key.Type
  ) throws -> KeyedDecodingContainer<Key> {
    try keyedContainer(at: entry, below: path(), index: -1, keyedBy: Key.self)
  }

  /// The keyed container of the object at `entry`, element `index` of the array at `base`
  /// (`index` is `-1` when `base` is the object's own path): a kept one when one of `Key` is
  /// free.
  ///
  /// The element's path is joined only when asked for: pointing a kept container at the next
  /// element then neither makes a node nor frees the last element's.
  func keyedContainer<Key: CodingKey>(
    at entry: Int, below base: @autoclosure () -> JSONCodingPath, index: Int,
    keyedBy type: Key.Type
  ) throws -> KeyedDecodingContainer<Key> {
    try keyedContainer(at: entry, below: base(), index: index, key: nil, keyedBy: Key.self)
  }

  /// The keyed container of the object at `entry`, member `key` of the object at `base`.
  ///
  /// A kept one when one of `Key` is free; the member's path is joined only when asked for.
  func keyedContainer<Key: CodingKey>(
    at entry: Int, below base: @autoclosure () -> JSONCodingPath, key memberKey: PathKey,
    keyedBy type: Key.Type
  ) throws -> KeyedDecodingContainer<Key> {
    try keyedContainer(at: entry, below: base(), index: -1, key: memberKey, keyedBy: Key.self)
  }

  /// The keyed container of the object at `entry`, whose path is `base` followed by `index` or
  /// `memberKey` when either is given: the two methods above, inlined into each so that the
  /// first has no key to pass or check.
  @inline(__always)
  private func keyedContainer<Key: CodingKey>(
    at entry: Int, below base: @autoclosure () -> JSONCodingPath, index: Int,
    key memberKey: PathKey?, keyedBy type: Key.Type
  ) throws -> KeyedDecodingContainer<Key> {
    try checkObject(at: entry, path: Self.joined(base(), index: index, key: memberKey))
    let key = ObjectIdentifier(Key.self)
    if let kept = containers.reuse(
      for: key, depth: depth,
      pointing: { $0.point(at: entry, below: base(), index: index, key: memberKey) })
    {
      return kept.container(as: KeyedDecodingContainer<Key>.self)
    }
    let state = JSONKeyedContainerState(
      decoder: self, object: entry, below: base(), index: index, key: memberKey)
    let container = KeyedDecodingContainer(JSONKeyedContainer<Key>(state: state))
    containers.keep(container, state: state, for: key, depth: depth)
    return container
  }

  /// The path of element `index` (when it is not `-1`) or member `key` (when it is not `nil`)
  /// of the array or object at `base`; `base` itself otherwise.
  static func joined(_ base: JSONCodingPath, index: Int, key: PathKey?) -> JSONCodingPath {
    if index >= 0 { return base.appending(index: index) }
    if let key { return .key(key, base) }
    return base
  }

  /// Checks that the value at `entry` is an object.
  ///
  /// - Throws: `valueNotFound` for `null`, `typeMismatch` for any other value, as Foundation
  ///   words them.
  func checkObject(at entry: Int, path: @autoclosure () -> JSONCodingPath) throws {
    switch document.kind(entry) {
    case .object:
      return
    case .null:
      throw DecodingError.valueNotFound(
        [String: Any].self,
        .init(
          codingPath: errorKeys(of: path()),
          debugDescription: "Cannot get keyed decoding container -- found null value instead"))
    default:
      throw typeMismatch([String: Any].self, entry, at: path())
    }
  }

  /// The unkeyed container of the array at `entry`.
  func unkeyedContainer(at entry: Int, path: @autoclosure () -> JSONCodingPath) throws
    -> JSONUnkeyedContainer
  {
    try unkeyedContainer(at: entry, below: path(), .none)
  }

  /// The unkeyed container of the array at `entry`, the element or member `step` of the array
  /// or object at `base` (never a ``JSONPathStep/member`` step).
  func unkeyedContainer(
    at entry: Int, below base: @autoclosure () -> JSONCodingPath, _ step: JSONPathStep
  ) throws -> JSONUnkeyedContainer {
    switch document.kind(entry) {
    case .array:
      return JSONUnkeyedContainer(frame: unkeyedFrame(array: entry, below: base(), step))
    case .null:
      throw DecodingError.valueNotFound(
        [Any].self,
        .init(
          codingPath: errorKeys(of: base().appending(step)),
          debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
    default:
      throw typeMismatch([Any].self, entry, at: base().appending(step))
    }
  }

  /// The frames of unkeyed containers kept for reuse, one per nesting depth up to
  /// ``keptFrameDepth`` (see ``unkeyedFrame(array:below:_:)``).
  #if DEBUG
    private var unkeyedFrames: [JSONUnkeyedFrame?] = []
  #else
    @exclusivity(unchecked) private var unkeyedFrames: [JSONUnkeyedFrame?] = []
  #endif

  /// The deepest nesting whose unkeyed frames are kept.
  private static var keptFrameDepth: Int { 64 }

  /// A frame for an unkeyed container of the array at `entry`: the one kept for this depth when
  /// no container holds it any more, pointed at the array, or a new one, kept in its place.
  ///
  /// A container the model still holds (an outer array read element by element, a container
  /// kept in a property) keeps its frame: the new container then gets a frame of its own.
  private func unkeyedFrame(
    array entry: Int, below base: JSONCodingPath, _ step: JSONPathStep
  ) -> JSONUnkeyedFrame {
    let slot = depth
    if slot < unkeyedFrames.count, isKnownUniquelyReferenced(&unkeyedFrames[slot]),
      let frame = unkeyedFrames[slot]
    {
      frame.point(at: entry, below: base, step)
      return frame
    }
    let frame = JSONUnkeyedFrame(decoder: self, array: entry, below: base, step)
    if slot >= 0, slot < Self.keptFrameDepth {
      if slot >= unkeyedFrames.count {
        unkeyedFrames.append(
          contentsOf: repeatElement(nil, count: slot &+ 1 &- unkeyedFrames.count))
      }
      unkeyedFrames[slot] = frame
    }
    return frame
  }

  // MARK: - Members

  /// The value entry of the member named `name` of the object at `object`, or `nil`.
  ///
  /// The first member with that name, as Foundation's `JSONDecoder` reads it. Names are compared
  /// by their bytes, except in an object with escaped names or names outside ASCII, where they
  /// are compared as Swift strings are (canonical equivalence), as in Foundation.
  ///
  /// Small objects are scanned from their first member; large ones are indexed on their first
  /// lookup (see ``JSONNameIndex``), so a lookup costs the same whatever the names are.
  func member(_ name: String, in object: Int) -> Int? {
    let count = document.memberCount(object)
    guard count > 0 else { return nil }
    let isPlain = document.flags(object) & JSONDocument.hasComplexNames == 0
    if count >= JSONNameIndex.minimumCount {
      guard isPlain else {
        return nameIndexes.member(name, bytes: nil, in: object, document: document)
      }
      return name.utf8.withContiguousStorageIfAvailable({ bytes in
        nameIndexes.member(name, bytes: bytes, in: object, document: document)
      }) ?? nameIndexes.member(name, bytes: nil, in: object, document: document)
    }
    if isPlain, let found = name.utf8.withContiguousStorageIfAvailable({ scan($0, in: object) }) {
      return found
    }
    return decodedMember(name, in: object)
  }

  /// The value entry of the first member whose name's bytes are `bytes` in the small object at
  /// `object`, whose names are all plain (no ``JSONDocument/hasComplexNames``).
  private func scan(_ bytes: UnsafeBufferPointer<UInt8>, in object: Int) -> Int? {
    // Names of 16 MiB or more, whose lengths the tape keeps aside, are compared out of line:
    // this loop calls nothing, and compares each name's length with one instruction.
    guard bytes.count < JSONDocument.longLength else { return scanLong(bytes, in: object) }
    return scanNames(bytes, in: object)
  }

  /// ``scan(_:in:)`` for a name of 16 MiB or more.
  @inline(never)
  private func scanLong(_ bytes: UnsafeBufferPointer<UInt8>, in object: Int) -> Int? {
    scanNames(bytes, in: object)
  }

  /// The loop of ``scan(_:in:)``.
  @inline(__always)
  private func scanNames(_ bytes: UnsafeBufferPointer<UInt8>, in object: Int) -> Int? {
    var key = object &+ 1
    let end = document.next(object)
    while key < end {
      if JSONStrings.plainName(at: key, in: document, equals: bytes) {
        return key &+ 1
      }
      key = document.next(key &+ 1)
    }
    return nil
  }

  /// The value entry of the first member whose decoded name equals `name`, in a small object.
  private func decodedMember(_ name: String, in object: Int) -> Int? {
    var key = object &+ 1
    let end = document.next(object)
    while key < end {
      if JSONStrings.name(at: key, in: document, equals: name) { return key &+ 1 }
      key = document.next(key &+ 1)
    }
    return nil
  }

  /// The `allKeys` of an object whose one member's name is at `name`: as `make` makes them
  /// the first time the decode meets the name for `Key` (see ``JSONKeyLists``).
  @inline(__always)
  func keys<Key: CodingKey>(ofOneMember name: Int, make: () -> [Key]) -> [Key] {
    keyLists.keys(
      named: document.bytes + document.offset(name), count: document.length(name), make: make)
  }

  /// Whether two members of the object at `object` may have the same name: the names of the
  /// members are then listed once each, as Foundation lists them.
  func mayRepeatNames(in object: Int) -> Bool {
    let flags = document.flags(object)
    let count = document.memberCount(object)
    guard count > 1 else { return false }
    if count >= JSONNameIndex.minimumCount {
      return nameIndexes.repeatsNames(in: object, document: document)
    }
    if flags & JSONDocument.hasComplexNames != 0 { return true }
    var name = object &+ 1
    let end = document.next(object)
    while name < end {
      var other = object &+ 1
      while other < name {
        if JSONNameIndex.sameName(other, name, in: document) { return true }
        other = document.next(other &+ 1)
      }
      name = document.next(name &+ 1)
    }
    return false
  }

  // MARK: - Values

  /// Decodes the value at `entry` as `T`.
  ///
  /// Standard scalars, strings, dates, data, URLs, decimals, UUIDs and string-keyed dictionaries are
  /// read here, following the decoder's strategies; any other type decodes itself with this
  /// decoder pointed at the value.
  ///
  /// - Parameters:
  ///   - entry: The value's tape entry.
  ///   - type: The type to decode.
  ///   - path: The value's coding path, made only for an error or a nested value.
  /// - Returns: The value.
  /// - Throws: `DecodingError` at `path` when the value doesn't fit `T`.
  @inline(__always)
  func unwrap<T: Decodable>(
    _ entry: Int, as type: T.Type, at path: @autoclosure () -> JSONCodingPath
  )
    throws -> T
  {
    if T.self == String.self {
      return reinterpret(try unwrapString(entry, at: path()), as: T.self)
    } else if T.self == Int.self {
      return reinterpret(try unwrapInteger(entry, as: Int.self, at: path()), as: T.self)
    } else if T.self == Double.self {
      return reinterpret(try unwrapFloat(entry, as: Double.self, at: path()), as: T.self)
    } else if T.self == Bool.self {
      return reinterpret(try unwrapBool(entry, at: path()), as: T.self)
    }
    return try unwrapOther(entry, as: T.self, at: path())
  }

  /// Decodes the value at `entry`, the member or element `step` of the object or array at
  /// `base`, as `T`, for the generic methods of containers: as ``unwrap(_:as:at:)``, with the
  /// least stack for a value that decodes itself.
  ///
  /// Decoding a nested value recurses through the frames between the container method that
  /// asks for it and the value's `init(from:)`, once per level of nesting: a document 512 levels
  /// deep must decode on a thread of 512 KiB. A type that decodes itself goes straight to its
  /// `init(from:)` from this one small frame; every other type is read out of line. The value
  /// gets its place without a path node of its own until its path is asked for.
  @inline(__always)
  func unwrapNested<T: Decodable>(
    _ entry: Int, as type: T.Type, below base: @autoclosure () -> JSONCodingPath,
    _ step: JSONPathStep
  ) throws -> T {
    if T.self != String.self, T.self != Int.self, T.self != Double.self, T.self != Bool.self,
      TypeKinds.decodesItself(typeKinds.kind(of: T.self, classify: Self.classify))
    {
      return try decodeNested(entry, as: T.self, below: base(), step)
    }
    return try unwrapOutOfLine(entry, as: T.self, path: { base().appending(step) })
  }

  /// Decodes the value at `entry`, member `key` of the object `object` reads, as `T`, for the
  /// generic methods of keyed containers: as ``unwrapNested(_:as:below:_:)``.
  @inline(__always)
  func decodeMember<T: Decodable, Key: CodingKey>(
    _ entry: Int, as type: T.Type, of object: JSONKeyedContainerState, key: Key
  ) throws -> T {
    if T.self != String.self, T.self != Int.self, T.self != Double.self, T.self != Bool.self {
      let kind = typeKinds.kind(of: T.self, classify: Self.classify)
      if case .array(let arrayKind) = kind {
        return try decodeArrayMember(
          entry, arrayKind, as: T.self, path: { object.path.appending(key) })
      }
      if case .other = kind {
        // A type that opens no container reads a single value: its members are then given
        // their place as those of an enum with raw values.
        let before = opened
        let decoded = try decodeNested(entry, as: T.self, at: object.path.appending(key))
        if opened == before {
          typeKinds.learn(.singleValue, for: T.self)
        }
        return decoded
      }
      if case .singleValue = kind {
        return try decodeSingleValue(entry, as: T.self, of: object, key: key)
      }
    }
    return try unwrapOutOfLine(entry, as: T.self, path: { object.path.appending(key) })
  }

  /// Decodes the value at `entry`, a member whose type `T` is an array of kind `kind`: the
  /// kind is not looked up again, and identifiers, indices, tags and series (`[Int]`,
  /// `[String]`, `[Double]`) are read in code specialized for them.
  @inline(never)
  private func decodeArrayMember<T: Decodable>(
    _ entry: Int, _ kind: JSONArrayDecoding, as type: T.Type, path: () -> JSONCodingPath
  ) throws -> T {
    if T.self == [Int].self {
      return reinterpret(try unwrapScalarArray(entry, as: [Int].self, at: path()), as: T.self)
    } else if T.self == [String].self {
      return reinterpret(try unwrapScalarArray(entry, as: [String].self, at: path()), as: T.self)
    } else if T.self == [Double].self {
      return reinterpret(try unwrapScalarArray(entry, as: [Double].self, at: path()), as: T.self)
    }
    // Anything but an array near the top of the stack takes the general way, which throws the
    // array's own errors or counts the stack.
    guard document.kind(entry) == .array, depth < StackGuard.uncheckedDepth else {
      return try unwrapOutOfLine(entry, as: T.self, path: path)
    }
    return try decodeArray(kind, as: T.self, entry, at: path())
  }

  /// Decodes the value at `entry`, member `key` of the object `object` reads, as `T`, a type
  /// that reads a single value (``JSONTypeKindCache/Kind/singleValue``), without making the
  /// member's coding path unless it is asked for.
  ///
  /// The standard library's `init(from:)` of an enum with raw values, and that of a wrapper type
  /// seen to open no container, read one value through a single-value container, which needs no
  /// path: no node is made for the member, nor for its object when that object is an array's
  /// element. A container or an error asked for inside makes the path as for any other type
  /// (see ``path``), so a type learned wrongly (one that opens a container only for some
  /// values) is still decoded with its paths, only less quickly.
  @inline(never)
  private func decodeSingleValue<T: Decodable, Key: CodingKey>(
    _ entry: Int, as type: T.Type, of object: JSONKeyedContainerState, key: Key
  ) throws -> T {
    try withUnsafePointer(to: key) { key in
      let outerValue = value
      var outerStep = JSONPathStep.member
      var outerState: Unmanaged<JSONKeyedContainerState>? = Unmanaged.passUnretained(object)
      var outerKey: UnsafeRawPointer? = UnsafeRawPointer(key)
      var outerKeyType: any CodingKey.Type = Key.self
      swap(&pathStep, &outerStep)
      swap(&memberState, &outerState)
      swap(&memberKey, &outerKey)
      swap(&memberKeyType, &outerKeyType)
      value = entry
      depth &+= 1
      defer {
        value = outerValue
        swap(&pathStep, &outerStep)
        swap(&memberState, &outerState)
        swap(&memberKey, &outerKey)
        swap(&memberKeyType, &outerKeyType)
        depth &-= 1
      }
      if depth > StackGuard.uncheckedDepth {
        return try decodeDeep(T.self)
      }
      return try T(from: self)
    }
  }

  /// ``unwrap(_:as:at:)`` for a type that doesn't decode itself, out of line.
  ///
  /// The path is forwarded as it is, not wrapped in a closure of its own at each call.
  @inline(never)
  private func unwrapOutOfLine<T: Decodable>(
    _ entry: Int, as type: T.Type, path: () -> JSONCodingPath
  ) throws -> T {
    if T.self == String.self {
      return reinterpret(try unwrapString(entry, at: path()), as: T.self)
    } else if T.self == Int.self {
      return reinterpret(try unwrapInteger(entry, as: Int.self, at: path()), as: T.self)
    } else if T.self == Double.self {
      return reinterpret(try unwrapFloat(entry, as: Double.self, at: path()), as: T.self)
    } else if T.self == Bool.self {
      return reinterpret(try unwrapBool(entry, at: path()), as: T.self)
    }
    return try unwrapKnown(entry, as: T.self, path: path)
  }

  /// Decodes the value at `entry` as any type but the four most common ones.
  ///
  /// A type that decodes itself goes straight to its `init(from:)` from this small frame (see
  /// ``unwrapNested(_:as:below:_:)``); the types this decoder reads are read out of line.
  func unwrapOther<T: Decodable>(
    _ entry: Int, as type: T.Type, at path: @autoclosure () -> JSONCodingPath
  ) throws -> T {
    if TypeKinds.decodesItself(typeKinds.kind(of: T.self, classify: Self.classify)) {
      return try decodeNested(entry, as: T.self, at: path())
    }
    return try unwrapKnown(entry, as: T.self, path: path)
  }

  /// Decodes the value at `entry`, the element or member `step` of the array or object at
  /// `base`: as ``unwrap(_:as:at:)``, without making the value's coding path unless it is asked
  /// for.
  func unwrap<T: Decodable>(
    _ entry: Int, as type: T.Type, below base: @autoclosure () -> JSONCodingPath,
    _ step: JSONPathStep
  ) throws -> T {
    if T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self {
      return try unwrap(entry, as: T.self, at: base().appending(step))
    }
    return try unwrapOther(entry, as: T.self, below: base(), step)
  }

  /// ``unwrapOther(_:as:at:)`` for the element or member `step` of the array or object at
  /// `base` (see ``unwrap(_:as:below:_:)``).
  func unwrapOther<T: Decodable>(
    _ entry: Int, as type: T.Type, below base: @autoclosure () -> JSONCodingPath,
    _ step: JSONPathStep
  ) throws -> T {
    if TypeKinds.decodesItself(typeKinds.kind(of: T.self, classify: Self.classify)) {
      return try decodeNested(entry, as: T.self, below: base(), step)
    }
    return try unwrapKnown(entry, as: T.self, path: { base().appending(step) })
  }

  /// Decodes the value at `entry`, whose coding path is `path`, as an array of a standard
  /// scalar: as ``unwrapOther(_:as:at:)`` does, without looking up the kind of `[Element]`.
  @inline(__always)
  func unwrapScalarArray<Element: Decodable>(
    _ entry: Int, as type: [Element].Type, at path: @autoclosure () -> JSONCodingPath
  ) throws -> [Element] {
    // Anything but an array near the top of the stack takes the general way, which throws the
    // array's own errors or counts the stack.
    guard document.kind(entry) == .array, depth < StackGuard.uncheckedDepth else {
      return try unwrapOther(entry, as: [Element].self, at: path())
    }
    return try [Element].decodeElements(from: self, array: entry, at: path)
  }

  /// Whether values of `type` decode themselves (see ``unwrapOther(_:as:below:_:)``).
  func decodesItself(_ type: Any.Type) -> Bool {
    if type == String.self || type == Int.self || type == Double.self || type == Bool.self {
      return false
    }
    return TypeKinds.decodesItself(typeKinds.kind(of: type, classify: Self.classify))
  }

  /// Decodes the value at `entry` as an array, a dictionary or a scalar this decoder reads.
  @inline(never)
  private func unwrapKnown<T: Decodable>(
    _ entry: Int, as type: T.Type, path: () -> JSONCodingPath
  ) throws -> T {
    switch typeKinds.kind(of: T.self, classify: Self.classify) {
    case .array(let arrayType) where document.kind(entry) == .array:
      // Deep down, the whole array goes on a fresh stack if one is needed, not each element.
      guard depth < StackGuard.uncheckedDepth else {
        return try descend(atDepth: depth &+ 1) {
          try decodeArray(arrayType, as: T.self, entry, at: path())
        }
      }
      return try decodeArray(arrayType, as: T.self, entry, at: path())
    case .dictionary(let dictionaryType) where document.kind(entry) == .object:
      guard depth < StackGuard.uncheckedDepth else {
        return try descend(atDepth: depth &+ 1) {
          try decodeDictionary(dictionaryType, as: T.self, entry, at: path())
        }
      }
      return try decodeDictionary(dictionaryType, as: T.self, entry, at: path())
    case .scalar:
      return try unwrapScalarOrNested(entry, as: T.self, at: path())
    case .jsonValue(let valueType):
      return try unwrapJSONValue(valueType, entry, as: T.self, at: path())
    case .optional(let optionalType):
      return try decodeOptional(optionalType, as: T.self, entry, at: path)
    default:
      return try decodeNested(entry, as: T.self, at: path())
    }
  }

  typealias TypeKinds = JSONTypeKindCache<
    JSONArrayDecoding, JSONDictionaryDecoding, any JSONDecodableOptional.Type
  >

  /// How `type` is decoded: by this decoder element by element or member by member, or by its
  /// own `init(from:)`.
  private static func classify(_ type: Any.Type) -> TypeKinds.Kind {
    if JSONScalarTypes.contains(type) { return .scalar }
    if let valueType = JSONValueType(type) { return .jsonValue(valueType) }
    if let arrayType = type as? any JSONDecodableArray.Type { return .array(.array(arrayType)) }
    if let setType = type as? any JSONDecodableSet.Type { return .array(.set(setType)) }
    if let dictionaryType = type as? any JSONStringKeyedDictionary.Type {
      return .dictionary(.stringKeyed(dictionaryType))
    }
    if let dictionaryType = type as? any JSONIntKeyedDictionary.Type {
      return .dictionary(.intKeyed(dictionaryType))
    }
    if let optionalType = type as? any JSONDecodableOptional.Type {
      return .optional(optionalType)
    }
    if type is any RawRepresentable.Type {
      return .singleValue
    }
    return .other
  }

  /// Decodes an optional of type `O`, which is `T`.
  private func decodeOptional<O: JSONDecodableOptional, T>(
    _ type: O.Type, as target: T.Type, _ entry: Int, at path: () -> JSONCodingPath
  ) throws -> T {
    reinterpret(try O.decodeOptional(from: self, entry, at: path), as: T.self)
  }

  /// Decodes an array or a set, as `kind` says, which is `T`.
  private func decodeArray<T>(
    _ kind: JSONArrayDecoding, as target: T.Type, _ entry: Int,
    at path: @autoclosure () -> JSONCodingPath
  ) throws -> T {
    switch kind {
    case .array(let arrayType):
      return try decodeArray(arrayType, as: T.self, entry, at: path())
    case .set(let setType):
      return try decodeSet(setType, as: T.self, entry, at: path())
    }
  }

  /// Decodes an array of type `A`, which is `T`.
  private func decodeArray<A: JSONDecodableArray, T>(
    _ type: A.Type, as target: T.Type, _ entry: Int, at path: @autoclosure () -> JSONCodingPath
  ) throws -> T {
    reinterpret(try A.decodeElements(from: self, array: entry, at: path), as: T.self)
  }

  /// Decodes a set of type `S`, which is `T`.
  private func decodeSet<S: JSONDecodableSet, T>(
    _ type: S.Type, as target: T.Type, _ entry: Int, at path: @autoclosure () -> JSONCodingPath
  ) throws -> T {
    reinterpret(try S.decodeElements(from: self, array: entry, at: path), as: T.self)
  }

  /// Decodes a dictionary, as `kind` says, which is `T`.
  private func decodeDictionary<T>(
    _ kind: JSONDictionaryDecoding, as target: T.Type, _ entry: Int,
    at path: @autoclosure () -> JSONCodingPath
  ) throws -> T {
    switch kind {
    case .stringKeyed(let dictionaryType):
      return try decodeDictionary(dictionaryType, as: T.self, entry, at: path())
    case .intKeyed(let dictionaryType):
      return try decodeDictionary(dictionaryType, as: T.self, entry, at: path())
    }
  }

  /// Decodes a string-keyed dictionary of type `D`, which is `T`.
  private func decodeDictionary<D: JSONStringKeyedDictionary, T>(
    _ type: D.Type, as target: T.Type, _ entry: Int, at path: @autoclosure () -> JSONCodingPath
  ) throws -> T {
    reinterpret(try D.decodeMembers(from: self, object: entry, at: path), as: T.self)
  }

  /// Decodes an integer-keyed dictionary of type `D`, which is `T`.
  private func decodeDictionary<D: JSONIntKeyedDictionary, T>(
    _ type: D.Type, as target: T.Type, _ entry: Int, at path: @autoclosure () -> JSONCodingPath
  ) throws -> T {
    reinterpret(try D.decodeMembers(from: self, object: entry, at: path), as: T.self)
  }

  /// Points the decoder at `entry` while `T` decodes itself.
  ///
  /// Inlined into its callers: one frame less per level of nesting.
  @inline(__always)
  func decodeNested<T: Decodable>(
    _ entry: Int, as type: T.Type, at path: @autoclosure () -> JSONCodingPath
  ) throws -> T {
    try decodeNested(entry, as: T.self, below: path(), .none)
  }

  /// Points the decoder at `entry`, the element or member `step` of the array or object at
  /// `base`, while `T` decodes itself (see ``decodeNested(_:as:at:)``).
  @inline(__always)
  func decodeNested<T: Decodable>(
    _ entry: Int, as type: T.Type, below base: @autoclosure () -> JSONCodingPath,
    _ step: JSONPathStep
  ) throws -> T {
    let outerValue = value
    // Swapped in and out rather than copied: the outer path is moved aside and back without
    // touching its reference count.
    var outerBase = base()
    var outerStep = step
    swap(&pathBase, &outerBase)
    swap(&pathStep, &outerStep)
    value = entry
    depth &+= 1
    defer {
      value = outerValue
      swap(&pathBase, &outerBase)
      swap(&pathStep, &outerStep)
      depth &-= 1
    }
    if depth > StackGuard.uncheckedDepth {
      return try decodeDeep(T.self)
    }
    return try T(from: self)
  }

  /// Runs `body`, which decodes the elements of the array at `base` with
  /// ``decodeElement(_:as:index:)``, with `base` swapped in as the path above the current value
  /// once for all of them (an element's ``decodeNested(_:as:below:_:)`` would copy it for each).
  func withElementPaths(below base: consuming JSONCodingPath, _ body: () throws -> Void) rethrows {
    var outerBase = base
    var outerStep = JSONPathStep.none
    swap(&pathBase, &outerBase)
    swap(&pathStep, &outerStep)
    defer {
      swap(&pathBase, &outerBase)
      swap(&pathStep, &outerStep)
    }
    try body()
  }

  /// Decodes `entry`, element `index` of the array whose path ``withElementPaths(below:_:)``
  /// swapped in, as `T`, which decodes itself.
  @inline(__always)
  func decodeElement<T: Decodable>(_ entry: Int, as type: T.Type, index: Int) throws -> T {
    let outerValue = value
    pathStep = .index(index)
    value = entry
    depth &+= 1
    defer {
      value = outerValue
      depth &-= 1
    }
    if depth > StackGuard.uncheckedDepth {
      return try decodeDeep(T.self)
    }
    return try T(from: self)
  }

  /// Decodes the current value, nested deeper than ``StackGuard/uncheckedDepth``, as `T`: on a
  /// thread of its own when this one's stack runs low (see ``StackGuard``).
  ///
  /// - Throws: `dataCorrupted` deeper than ``StackGuard/maximumNesting`` (a type whose
  ///   `init(from:)` decodes itself again without end), and the value's own errors.
  @inline(never)
  private func decodeDeep<T: Decodable>(_ type: T.Type) throws -> T {
    try descend(atDepth: depth) { try T(from: self) }
  }

  /// Runs `body`, the decode of a value `depth` levels deep at the current path: on a thread of
  /// its own when this one's stack runs low (see ``StackGuard``).
  ///
  /// - Throws: `dataCorrupted` deeper than ``StackGuard/maximumNesting`` or where no fresh stack
  ///   can be started, and what `body` throws.
  private func descend<Value>(atDepth depth: Int, _ body: () throws -> Value) throws -> Value {
    switch StackGuard.descent(atDepth: depth, freshStacks: freshStacks) {
    case .here:
      return try body()
    case .freshStack:
      freshStacks &+= 1
      return try StackGuard.onFreshStack(
        orThrow: StackGuard.tooDeepToDecode(.stack, codingPath: path.keys), body)
    case .tooDeep(let limit):
      throw StackGuard.tooDeepToDecode(limit, codingPath: path.keys)
    }
  }

  /// The value at `entry` as one of the scalar types this decoder reads itself, or as any other
  /// type decoding itself.
  ///
  /// Returns `T` itself, never `T?`: this code is not specialized, and an `Optional<T>` would
  /// cost a metadata lookup for every value.
  private func unwrapScalarOrNested<T: Decodable>(
    _ entry: Int, as type: T.Type, at path: @autoclosure () -> JSONCodingPath
  )
    throws -> T
  {
    let type = ObjectIdentifier(T.self)
    if type == ObjectIdentifier(Float.self) {
      return reinterpret(try unwrapFloat(entry, as: Float.self, at: path()), as: T.self)
    } else if type == ObjectIdentifier(Int64.self) {
      return reinterpret(try unwrapInteger(entry, as: Int64.self, at: path()), as: T.self)
    } else if type == ObjectIdentifier(Int32.self) {
      return reinterpret(try unwrapInteger(entry, as: Int32.self, at: path()), as: T.self)
    } else if type == ObjectIdentifier(Int16.self) {
      return reinterpret(try unwrapInteger(entry, as: Int16.self, at: path()), as: T.self)
    } else if type == ObjectIdentifier(Int8.self) {
      return reinterpret(try unwrapInteger(entry, as: Int8.self, at: path()), as: T.self)
    } else if type == ObjectIdentifier(UInt.self) {
      return reinterpret(try unwrapInteger(entry, as: UInt.self, at: path()), as: T.self)
    } else if type == ObjectIdentifier(UInt64.self) {
      return reinterpret(try unwrapInteger(entry, as: UInt64.self, at: path()), as: T.self)
    } else if type == ObjectIdentifier(UInt32.self) {
      return reinterpret(try unwrapInteger(entry, as: UInt32.self, at: path()), as: T.self)
    } else if type == ObjectIdentifier(UInt16.self) {
      return reinterpret(try unwrapInteger(entry, as: UInt16.self, at: path()), as: T.self)
    } else if type == ObjectIdentifier(UInt8.self) {
      return reinterpret(try unwrapInteger(entry, as: UInt8.self, at: path()), as: T.self)
    } else if type == ObjectIdentifier(Date.self) {
      return reinterpret(try unwrapDate(entry, at: path()), as: T.self)
    } else if type == ObjectIdentifier(Data.self) {
      return reinterpret(try unwrapData(entry, at: path()), as: T.self)
    } else if type == ObjectIdentifier(URL.self) {
      return reinterpret(try unwrapURL(entry, at: path()), as: T.self)
    } else if type == ObjectIdentifier(Decimal.self) {
      return reinterpret(try unwrapDecimal(entry, at: path()), as: T.self)
    } else if type == ObjectIdentifier(UUID.self) {
      return reinterpret(try unwrapUUID(entry, at: path()), as: T.self)
    }
    return try decodeNested(entry, as: T.self, at: path())
  }

  func unwrapString(_ entry: Int, at path: @autoclosure () -> JSONCodingPath) throws -> String {
    guard document.kind(entry) == .string else {
      throw mismatch(String.self, entry, at: path())
    }
    return JSONStrings.string(at: entry, in: document)
  }

  /// ``unwrapString(_:at:)`` for a container's `String` member or element: a string of 16
  /// bytes or more that the document repeats is made once (see ``string(at:)``).
  @inline(__always)
  func unwrapStringValue(_ entry: Int, at path: @autoclosure () -> JSONCodingPath) throws
    -> String
  {
    guard document.kind(entry) == .string else {
      throw mismatch(String.self, entry, at: path())
    }
    return string(at: entry)
  }

  /// The string value at tape entry `entry`, a string: one of 16 bytes or more that the
  /// document repeats is made once (see ``JSONRepeatedStrings``).
  @inline(__always)
  func string(at entry: Int) -> String {
    guard document.length(entry) >= JSONRepeatedStrings.minimumLength else {
      return JSONStrings.string(at: entry, in: document)
    }
    return longString(at: entry)
  }

  /// ``string(at:)`` for a string of 16 bytes or more, out of line: the generic functions that
  /// read values of many types stay small.
  @inline(never)
  private func longString(at entry: Int) -> String {
    guard !repeatedStrings.isOff else { return JSONStrings.string(at: entry, in: document) }
    return repeatedStrings.string(at: entry, in: document)
  }

  func unwrapBool(_ entry: Int, at path: @autoclosure () -> JSONCodingPath) throws -> Bool {
    switch document.kind(entry) {
    case .true: return true
    case .false: return false
    // A `null` too is a type mismatch for a `Bool` in Foundation's decoder, not a value not
    // found as for other types: "Expected to decode Bool but found null instead."
    default: throw typeMismatch(Bool.self, entry, at: path())
    }
  }

  func unwrapInteger<Integer: FixedWidthInteger>(
    _ entry: Int, as type: Integer.Type, at path: @autoclosure () -> JSONCodingPath
  ) throws -> Integer {
    guard document.kind(entry) == .number else { throw mismatch(Integer.self, entry, at: path()) }
    // Most numbers are short plain integers, read without a number token.
    if document.flags(entry) & JSONDocument.isPlainInteger != 0,
      let value = JSONNumber.plainInteger(
        document.bytes + document.offset(entry), count: document.length(entry)),
      let exact = Integer(exactly: value)
    {
      return exact
    }
    let span = document.span(entry)
    guard let start = span.baseAddress,
      let value = JSONNumber.exactInteger(start, count: span.count, as: Integer.self)
    else { throw numberDoesNotFit(Integer.self, entry, at: path()) }
    return value
  }

  /// Decodes the value at `entry` as a `Double` or a `Float`.
  ///
  /// A number is correctly rounded to the type; one whose magnitude is too large for it (it
  /// would be infinite) or too small (a number that is not zero would be ±0.0) does not fit:
  /// Foundation rejects both too, as not representable. A string is read with the
  /// non-conforming float strategy.
  ///
  /// - Parameters:
  ///   - entry: The value's tape entry.
  ///   - type: `Double` or `Float`.
  ///   - path: The value's coding path.
  /// - Returns: The number.
  /// - Throws: `dataCorrupted` at `path` for a number that doesn't fit, `typeMismatch` or
  ///   `valueNotFound` for any other value.
  func unwrapFloat<Float: BinaryFloatingPoint & LosslessStringConvertible>(
    _ entry: Int, as type: Float.Type, at path: @autoclosure () -> JSONCodingPath
  ) throws -> Float {
    switch document.kind(entry) {
    case .number:
      // Integers of up to 2²⁴ are exact in both types (a negative zero is left to the general
      // path).
      if document.flags(entry) & JSONDocument.isPlainInteger != 0,
        let value = JSONNumber.plainInteger(
          document.bytes + document.offset(entry), count: document.length(entry)),
        value != 0, value.magnitude <= 1 << 24
      {
        return Float(value)
      }
      let span = document.span(entry)
      guard let start = span.baseAddress else {
        throw numberDoesNotFit(Float.self, entry, at: path())
      }
      let value: Float =
        Float.self == Swift.Float.self
        ? Float(JSONNumber.float(start, count: span.count))
        : Float(JSONNumber.double(start, count: span.count))
      guard value.isFinite else { throw numberDoesNotFit(Float.self, entry, at: path()) }
      if value == 0, !JSONNumber.isZero(start, count: span.count) {
        throw numberNotRepresentable(entry, at: path())
      }
      return value
    case .string:
      if case .convertFromString(let positive, let negative, let nan) =
        options.nonConformingFloatDecodingStrategy
      {
        let text = JSONStrings.string(at: entry, in: document)
        if text == positive { return .infinity }
        if text == negative { return -.infinity }
        if text == nan { return .nan }
      }
      throw mismatch(Float.self, entry, at: path())
    default:
      throw mismatch(Float.self, entry, at: path())
    }
  }

  /// Decodes the value at `entry` as a `Date`, with the date decoding strategy.
  ///
  /// - Parameters:
  ///   - entry: The value's tape entry.
  ///   - path: The value's coding path.
  /// - Returns: The date.
  /// - Throws: `valueNotFound(Date.self)` for `null`, before any strategy runs (a `.custom`
  ///   closure is not called), as Foundation does; the strategy's errors otherwise.
  func unwrapDate(_ entry: Int, at path: @autoclosure () -> JSONCodingPath) throws -> Date {
    if document.kind(entry) == .null { throw mismatch(Date.self, entry, at: path()) }
    switch options.dateDecodingStrategy {
    case .deferredToDate:
      // What `Date.init(from:)` reads, without a container.
      return Date(
        timeIntervalSinceReferenceDate: try unwrapFloat(entry, as: Double.self, at: path()))
    case .secondsSince1970:
      return Date(timeIntervalSince1970: try unwrapFloat(entry, as: Double.self, at: path()))
    case .millisecondsSince1970:
      return Date(
        timeIntervalSince1970: try unwrapFloat(entry, as: Double.self, at: path()) / 1000)
    case .iso8601:
      guard document.kind(entry) == .string else { throw mismatch(String.self, entry, at: path()) }
      let plain = document.flags(entry) & JSONDocument.hasEscapes == 0
      guard
        let date = JSONISO8601.date(
          bytes: plain ? document.span(entry) : nil,
          text: { JSONStrings.string(at: entry, in: document) }, formatter: &iso8601Formatter)
      else {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: path().keys,
            debugDescription: "Expected date string to be ISO8601-formatted."))
      }
      return date
    case .formatted(let formatter):
      guard document.kind(entry) == .string else { throw mismatch(String.self, entry, at: path()) }
      let dates = JSONFormattedDates.kept(in: &formattedDates, for: formatter)
      let plain = document.flags(entry) & JSONDocument.hasEscapes == 0
      guard
        let date = dates.date(
          bytes: plain ? document.span(entry) : nil,
          text: { JSONStrings.string(at: entry, in: document) })
      else {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: path().keys,
            debugDescription: "Date string does not match format expected by formatter."))
      }
      return date
    case .custom(let closure):
      return try pointed(at: entry, path: path()) { try closure(self) }
    }
  }

  /// Decodes the value at `entry` as `Data`, with the data decoding strategy.
  ///
  /// - Parameters:
  ///   - entry: The value's tape entry.
  ///   - path: The value's coding path.
  /// - Returns: The data.
  /// - Throws: `valueNotFound(Data.self)` for `null`, before any strategy runs (a `.custom`
  ///   closure is not called), as Foundation does; the strategy's errors otherwise.
  func unwrapData(_ entry: Int, at path: @autoclosure () -> JSONCodingPath) throws -> Data {
    if document.kind(entry) == .null { throw mismatch(Data.self, entry, at: path()) }
    switch options.dataDecodingStrategy {
    case .deferredToData:
      return try decodeNested(entry, as: Data.self, at: path())
    case .base64:
      // Canonical text is read from the document's bytes, or from them unescaped into a
      // buffer (a text Foundation's encoder wrote has `/` escaped); any other is left to
      // Foundation.
      if document.kind(entry) == .string {
        let span = document.span(entry)
        let data =
          document.flags(entry) & JSONDocument.hasEscapes == 0
          ? JSONBase64.data(fromCanonical: span)
          : JSONStrings.withUnescaped(span, JSONBase64.data(fromCanonical:))
        if let data { return data }
      }
      let text = try unwrapString(entry, at: path())
      guard let data = Data(base64Encoded: text) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: path().keys, debugDescription: "Encountered Data is not valid Base64."))
      }
      return data
    case .custom(let closure):
      return try pointed(at: entry, path: path()) { try closure(self) }
    }
  }

  /// Decodes the value at `entry` as a `URL`.
  ///
  /// - Throws: `valueNotFound(URL.self)` for `null`, as Foundation does; what reading a string
  ///   throws for other values that are not strings; `dataCorrupted` for an invalid URL.
  func unwrapURL(_ entry: Int, at path: @autoclosure () -> JSONCodingPath) throws -> URL {
    if document.kind(entry) == .null { throw mismatch(URL.self, entry, at: path()) }
    let text = try unwrapString(entry, at: path())
    guard let url = URL(string: text) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: path().keys, debugDescription: "Invalid URL string."))
    }
    return url
  }

  /// Decodes the string at `entry` as a `UUID`, as `UUID`'s own `init(from:)` does, without
  /// its `sscanf` for text in the canonical form (see ``UUIDText``).
  ///
  /// - Throws: What reading a string throws for a value that is not one; `dataCorrupted` with
  ///   `UUID`'s message for a string that is not a UUID.
  func unwrapUUID(_ entry: Int, at path: @autoclosure () -> JSONCodingPath) throws -> UUID {
    let text = try unwrapString(entry, at: path())
    guard let uuid = UUIDText.uuid(text) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: path().keys,
          debugDescription: "Attempted to decode UUID from invalid UUID string."))
    }
    return uuid
  }

  /// Decodes the number at `entry` as a `Decimal`.
  ///
  /// - Throws: `valueNotFound(Decimal.self)` for `null`; for any other value that is not a
  ///   number, even a string the non-conforming float strategy names, `typeMismatch` with
  ///   Foundation's empty message; `dataCorrupted` for a number `Decimal` can't hold.
  func unwrapDecimal(_ entry: Int, at path: @autoclosure () -> JSONCodingPath) throws -> Decimal {
    switch document.kind(entry) {
    case .number:
      break
    case .null:
      throw mismatch(Decimal.self, entry, at: path())
    default:
      throw DecodingError.typeMismatch(
        Decimal.self, .init(codingPath: path().keys, debugDescription: ""))
    }
    let span = document.span(entry)
    if let start = span.baseAddress, let decimal = JSONNumber.decimal(start, count: span.count) {
      return decimal
    }
    let text = String(decoding: span, as: UTF8.self)
    guard let decimal = Decimal(string: text, locale: JSONNumber.posixLocale) else {
      throw numberDoesNotFit(Decimal.self, entry, at: path())
    }
    return decimal
  }

  /// The coding key of the member `name` of a `[String: Value]`, as Foundation's paths have it.
  ///
  /// With the default key strategy, Foundation decodes the dictionary through its own
  /// `init(from:)`, whose keys carry the integer value of a name that reads as an `Int`; with
  /// any other strategy it reads the members itself, with keys that have no integer value.
  ///
  /// - Parameter name: The member's name.
  /// - Returns: The key.
  func dictionaryMemberKey(_ name: String) -> PathKey {
    if case .useDefaultKeys = options.keyDecodingStrategy {
      return PathKey(dictionaryMember: name)
    }
    return PathKey(name)
  }

  // MARK: - Errors

  /// `valueNotFound` for `null`, `typeMismatch` for anything else, as Foundation reports them.
  func mismatch(_ type: Any.Type, _ entry: Int, at path: JSONCodingPath) -> DecodingError {
    if document.kind(entry) == .null {
      return .valueNotFound(
        type,
        .init(
          codingPath: errorKeys(entry, at: path),
          debugDescription: "Cannot get value of type \(name(of: type)) -- found null value instead"
        ))
    }
    return typeMismatch(type, entry, at: path)
  }

  /// `typeMismatch` naming what was found.
  ///
  /// Cheap enough for the `try?` chains of user-written JSON value types, which throw several
  /// of these per value: the message is kept per type and kind of value found, and the coding
  /// path is built in one allocation.
  func typeMismatch(_ type: Any.Type, _ entry: Int, at path: JSONCodingPath) -> DecodingError {
    let kind = document.kind(entry)
    let message = Self.text(
      for: MismatchMessage(type: ObjectIdentifier(type), found: kind), in: &mismatchMessages
    ) {
      "Expected to decode \(name(of: type)) but found \(describe(entry)) instead."
    }
    return .typeMismatch(
      type, .init(codingPath: errorKeys(entry, at: path), debugDescription: message))
  }

  /// The coding keys of `path`, the path of the value at `entry`, for an error: kept for the
  /// value being decoded, which a `try?` chain asks for as several types in turn.
  ///
  /// A tape entry is one place in the document, so its path is the same whoever asks. The keys
  /// of the next value are written into the same array when the errors that had it were thrown
  /// away (see ``JSONCodingPath/write(into:)``).
  private func errorKeys(_ entry: Int, at path: JSONCodingPath) -> [any CodingKey] {
    guard entry == value else { return errorKeys(of: path) }
    if lastErrorKeys.entry != entry {
      lastErrorKeys.entry = entry
      path.write(into: &lastErrorKeys.keys)
    }
    return lastErrorKeys.keys
  }

  /// The coding keys of `path`, for an error, written into the array the errors made before
  /// had when nothing refers to it any more (see ``JSONCodingPath/write(into:)``).
  ///
  /// The elements of a lossy array that lack a member each throw a `keyNotFound` error that the
  /// array lets go of: a new array of existentials for each was about a quarter of the error.
  func errorKeys(of path: JSONCodingPath) -> [any CodingKey] {
    lastErrorKeys.entry = -1
    path.write(into: &lastErrorKeys.keys)
    return lastErrorKeys.keys
  }

  /// The coding keys ``errorKeys(_:at:)`` or ``errorKeys(of:)`` made last, and the entry of
  /// their value (`-1` for the keys of a path ``errorKeys(of:)`` was given).
  private var lastErrorKeys: (entry: Int, keys: [any CodingKey]) = (-1, [])

  /// A `typeMismatch` message: the type expected and the kind of value found.
  private struct MismatchMessage: Hashable {
    let type: ObjectIdentifier
    let found: JSONKind
  }

  /// The messages of the `typeMismatch` errors thrown so far (see ``typeMismatch(_:_:at:)``).
  private var mismatchMessages: [MismatchMessage: String] = [:]

  /// `dataCorrupted` for a number the type can't hold.
  func numberDoesNotFit(_ type: Any.Type, _ entry: Int, at path: JSONCodingPath) -> DecodingError {
    let text = String(decoding: document.span(entry), as: UTF8.self)
    return .dataCorrupted(
      .init(
        codingPath: path.keys,
        debugDescription: "Parsed JSON number <\(text)> does not fit in \(name(of: type))."))
  }

  /// `dataCorrupted` for a number that is not zero but rounds to zero in the type read, with
  /// the text of Foundation's error for it (Foundation reports it at the root, as invalid JSON).
  func numberNotRepresentable(_ entry: Int, at path: JSONCodingPath) -> DecodingError {
    let text = String(decoding: document.span(entry), as: UTF8.self)
    return .dataCorrupted(
      .init(
        codingPath: path.keys, debugDescription: "Number \(text) is not representable in Swift."))
  }

  /// The words Foundation uses for the kind of the value at `entry`.
  func describe(_ entry: Int) -> String {
    switch document.kind(entry) {
    case .null: "null"
    case .true, .false: "bool"
    case .number: "number"
    case .string: "a string"
    case .array: "an array"
    case .object: "a dictionary"
    }
  }
}

// MARK: - Single value container

extension JSONValueDecoder: SingleValueDecodingContainer {
  func decodeNil() -> Bool {
    document.kind(value) == .null
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    try unwrapBool(value, at: path)
  }

  func decode(_ type: String.Type) throws -> String {
    try unwrapString(value, at: path)
  }

  func decode(_ type: Double.Type) throws -> Double {
    try unwrapFloat(value, as: Double.self, at: path)
  }

  func decode(_ type: Float.Type) throws -> Float {
    try unwrapFloat(value, as: Float.self, at: path)
  }

  func decode(_ type: Int.Type) throws -> Int {
    try unwrapInteger(value, as: Int.self, at: path)
  }

  func decode(_ type: Int8.Type) throws -> Int8 {
    try unwrapInteger(value, as: Int8.self, at: path)
  }

  func decode(_ type: Int16.Type) throws -> Int16 {
    try unwrapInteger(value, as: Int16.self, at: path)
  }

  func decode(_ type: Int32.Type) throws -> Int32 {
    try unwrapInteger(value, as: Int32.self, at: path)
  }

  func decode(_ type: Int64.Type) throws -> Int64 {
    try unwrapInteger(value, as: Int64.self, at: path)
  }

  func decode(_ type: UInt.Type) throws -> UInt {
    try unwrapInteger(value, as: UInt.self, at: path)
  }

  func decode(_ type: UInt8.Type) throws -> UInt8 {
    try unwrapInteger(value, as: UInt8.self, at: path)
  }

  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try unwrapInteger(value, as: UInt16.self, at: path)
  }

  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try unwrapInteger(value, as: UInt32.self, at: path)
  }

  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try unwrapInteger(value, as: UInt64.self, at: path)
  }

  #if compiler(>=6.0)
    /// Decodes the value as an `Int128`, exactly, over its whole range.
    ///
    /// - Parameter type: `Int128`.
    /// - Returns: The number.
    /// - Throws: `dataCorrupted` for a number that is not an integer or doesn't fit,
    ///   `typeMismatch` or `valueNotFound` for any other value.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    func decode(_ type: Int128.Type) throws -> Int128 {
      try unwrapInteger(value, as: Int128.self, at: path)
    }

    /// Decodes the value as a `UInt128`, exactly, over its whole range.
    ///
    /// - Parameter type: `UInt128`.
    /// - Returns: The number.
    /// - Throws: `dataCorrupted` for a number that is not an integer or doesn't fit,
    ///   `typeMismatch` or `valueNotFound` for any other value.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 {
      try unwrapInteger(value, as: UInt128.self, at: path)
    }
  #endif

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try unwrap(value, as: T.self, at: path)
  }
}

// MARK: - Dictionaries

/// How ``JSONValueDecoder`` reads a dictionary type it reads member by member.
enum JSONDictionaryDecoding {
  /// `[String: Value]`.
  case stringKeyed(any JSONStringKeyedDictionary.Type)
  /// `[Int: Value]`.
  case intKeyed(any JSONIntKeyedDictionary.Type)
}

/// Implemented by `[String: Value]`: decoded member by member, with the member names as they
/// are, whatever the key decoding strategy (Foundation leaves dictionary keys alone too).
protocol JSONStringKeyedDictionary {
  static func decodeMembers(
    from decoder: JSONValueDecoder, object entry: Int, at path: () -> JSONCodingPath
  ) throws -> Self
}

extension Dictionary: JSONStringKeyedDictionary where Key == String, Value: Decodable {
  static func decodeMembers(
    from decoder: JSONValueDecoder, object entry: Int, at path: () -> JSONCodingPath
  ) throws -> [String: Value] {
    // The common values are read in code specialized for them: in this unspecialized code,
    // each call on the dictionary looks up the metadata of its storage, and each value goes
    // through the general way of reading a value.
    if Value.self == String.self {
      return reinterpret(
        try [String: String].members(from: decoder, object: entry, at: path), as: Self.self)
    } else if Value.self == Int.self {
      return reinterpret(
        try [String: Int].members(from: decoder, object: entry, at: path), as: Self.self)
    } else if Value.self == Double.self {
      return reinterpret(
        try [String: Double].members(from: decoder, object: entry, at: path), as: Self.self)
    } else if Value.self == Bool.self {
      return reinterpret(
        try [String: Bool].members(from: decoder, object: entry, at: path), as: Self.self)
    }
    return try members(from: decoder, object: entry, at: path)
  }

  /// The dictionary of the object at `entry`.
  @inline(__always)
  private static func members(
    from decoder: JSONValueDecoder, object entry: Int, at path: () -> JSONCodingPath
  ) throws -> [String: Value] {
    let document = decoder.document
    guard document.kind(entry) == .object else {
      throw decoder.mismatch([String: Value].self, entry, at: path())
    }
    var result = Self()
    let count = document.memberCount(entry)
    // Room made for nothing is still new storage: an empty dictionary stays the shared one.
    guard count > 0 else { return result }
    result.reserveCapacity(count)
    var key = entry &+ 1
    let end = document.next(entry)
    // The lookup of a name is left out when no name can repeat.
    let repeats = decoder.mayRepeatNames(in: entry)
    // A value that decodes itself gets its place with its key apart from the dictionary's path
    // (see `decodeNested(_:as:below:_:)`): that path is then made once, not once per value.
    let nests = decoder.decodesItself(Value.self)
    let base = nests ? path() : .root
    while key < end {
      let name = JSONStrings.string(at: key, in: document)
      // The first of two members with one name wins, as in Foundation.
      if !repeats || result[name] == nil {
        let value =
          nests
          ? try decoder.decodeNested(
            key &+ 1, as: Value.self, below: base, .key(decoder.dictionaryMemberKey(name)))
          : try decoder.unwrap(
            key &+ 1, as: Value.self, at: path().appending(decoder.dictionaryMemberKey(name)))
        result.updateValue(value, forKey: name)
      }
      key = document.next(key &+ 1)
    }
    return result
  }
}

/// Implemented by `[Int: Value]`: decoded member by member.
///
/// The names are read as the standard library's `init(from:)` reads them (`Int(name)` of each
/// name, in document order). An object that takes another way there (a key decoding strategy, which converts the names first; a
/// name that is not an integer, which throws; a name that may repeat) goes through that
/// `init(from:)`.
protocol JSONIntKeyedDictionary {
  static func decodeMembers(
    from decoder: JSONValueDecoder, object entry: Int, at path: () -> JSONCodingPath
  ) throws -> Self
}

extension Dictionary: JSONIntKeyedDictionary where Key == Int, Value: Decodable {
  static func decodeMembers(
    from decoder: JSONValueDecoder, object entry: Int, at path: () -> JSONCodingPath
  ) throws -> [Int: Value] {
    guard let integers = JSONDictionaries.integerNames(decoder, entry) else {
      return try decoder.decodeNested(entry, as: Self.self, at: path())
    }
    if Value.self == String.self {
      return reinterpret(
        try [Int: String].members(integers, from: decoder, object: entry, at: path),
        as: Self.self)
    } else if Value.self == Int.self {
      return reinterpret(
        try [Int: Int].members(integers, from: decoder, object: entry, at: path), as: Self.self)
    }
    return try members(integers, from: decoder, object: entry, at: path)
  }

  /// The dictionary of the object at `entry`, whose names spell `integers` (see
  /// ``JSONDictionaries/integerNames(_:_:)``), as the standard library's `init(from:)` makes
  /// it: each value in document order, a later name spelling the same integer (`"1"`, `"01"`)
  /// replacing the value.
  @inline(__always)
  private static func members(
    _ integers: [Int], from decoder: JSONValueDecoder, object entry: Int,
    at path: () -> JSONCodingPath
  ) throws -> [Int: Value] {
    var result = Self()
    guard !integers.isEmpty else { return result }
    result.reserveCapacity(integers.count)
    let document = decoder.document
    var key = entry &+ 1
    for integer in integers {
      let value = try decoder.unwrap(
        key &+ 1, as: Value.self,
        at: path().appending(PathKey(dictionaryMember: JSONStrings.string(at: key, in: document))))
      result[integer] = value
      key = document.next(key &+ 1)
    }
    return result
  }
}

/// How ``JSONValueDecoder`` reads the names of `[Int: Value]` (see ``JSONIntKeyedDictionary``).
enum JSONDictionaries {
  /// The integers the member names of the object at `entry` spell, in document order, or `nil`
  /// when the standard library's `Dictionary<Int, _>.init(from:)` must read it: the decoder
  /// converts names, the value is not an object, a name is not an integer (`Int(name)` is
  /// `nil`: the error is that `init(from:)`'s), or two names may be the same.
  static func integerNames(_ decoder: JSONValueDecoder, _ entry: Int) -> [Int]? {
    guard case .useDefaultKeys = decoder.options.keyDecodingStrategy else { return nil }
    let document = decoder.document
    guard document.kind(entry) == .object, !decoder.mayRepeatNames(in: entry) else {
      return nil
    }
    var integers: [Int] = []
    integers.reserveCapacity(document.memberCount(entry))
    var key = entry &+ 1
    let end = document.next(entry)
    while key < end {
      guard document.flags(key) & JSONDocument.hasEscapes == 0,
        let integer = integer(document.bytes + document.offset(key), count: document.length(key))
      else { return nil }
      integers.append(integer)
      key = document.next(key &+ 1)
    }
    return integers
  }

  /// The integer `count` bytes at `start` spell as `Int(_:)` reads a string: an optional `+` or
  /// `-`, then one or more ASCII digits, in range; `nil` for anything else.
  static func integer(_ start: UnsafePointer<UInt8>, count: Int) -> Int? {
    var index = 0
    var negative = false
    if count > 0, start[0] == UInt8(ascii: "-") || start[0] == UInt8(ascii: "+") {
      negative = start[0] == UInt8(ascii: "-")
      index = 1
    }
    guard index < count else { return nil }
    var magnitude: UInt64 = 0
    while index < count {
      let digit = start[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
      guard !overflow, !carry else { return nil }
      magnitude = sum
      index &+= 1
    }
    if negative {
      guard magnitude <= UInt64(Int.max) &+ 1 else { return nil }
      return Int(truncatingIfNeeded: 0 &- magnitude)
    }
    guard magnitude <= UInt64(Int.max) else { return nil }
    return Int(truncatingIfNeeded: magnitude)
  }
}

// MARK: - Optionals

/// Implemented by `Optional`: `null` is `nil`, any other value is read as the wrapped type, as
/// `Optional`'s own `init(from:)` reads it through a single value container, with the same
/// errors and paths, without the container.
protocol JSONDecodableOptional {
  static func decodeOptional(
    from decoder: JSONValueDecoder, _ entry: Int, at path: () -> JSONCodingPath
  ) throws -> Self
}

extension Optional: JSONDecodableOptional where Wrapped: Decodable {
  static func decodeOptional(
    from decoder: JSONValueDecoder, _ entry: Int, at path: () -> JSONCodingPath
  ) throws -> Self {
    if decoder.document.kind(entry) == .null { return nil }
    return .some(try decoder.unwrap(entry, as: Wrapped.self, at: path()))
  }
}

// MARK: - Arrays

/// How ``JSONValueDecoder`` reads a type it reads element by element.
enum JSONArrayDecoding {
  /// An array of decodable elements.
  case array(any JSONDecodableArray.Type)
  /// A set of decodable elements.
  case set(any JSONDecodableSet.Type)
}

/// Implemented by `[Element]`: decoded element by element, straight from the tape, with the same
/// errors and paths as through an unkeyed container.
///
/// The protocol refines `RangeReplaceableCollection`, and its implementation is an extension
/// method rather than a requirement: the array's conformance to `RangeReplaceableCollection`
/// is then part of the witness table the decoder opens from its type cache. Through a
/// requirement, the witness of `Array`'s conditional conformance looked that conformance up
/// (`swift_getWitnessTable`, about 300 instructions) for every array decoded.
protocol JSONDecodableArray: RangeReplaceableCollection where Element: Decodable {}

extension Array: JSONDecodableArray where Element: Decodable {}

/// Implemented by `Set<Element>`: decoded element by element as an array, then inserted.
protocol JSONDecodableSet {
  static func decodeElements(
    from decoder: JSONValueDecoder, array entry: Int, at path: () -> JSONCodingPath
  ) throws -> Self
}

/// A set is read as the array it is written as, then its elements are inserted in order, as the
/// standard library's `init(from:)` inserts them: of equal elements, the first stays.
///
/// Sets of strings and integers are built in code specialized for them: in the standard
/// library's unspecialized `init(from:)`, each insertion hashes through witness tables and looks
/// up the set's metadata (more than half the cost of decoding `Set<String>` and `Set<Int>`).
extension Set: JSONDecodableSet where Element: Decodable {
  static func decodeElements(
    from decoder: JSONValueDecoder, array entry: Int, at path: () -> JSONCodingPath
  ) throws -> Set<Element> {
    if Element.self == String.self {
      return reinterpret(
        inserting(try [String].decodeElements(from: decoder, array: entry, at: path)),
        as: Self.self)
    } else if Element.self == Int.self {
      return reinterpret(
        inserting(try [Int].decodeElements(from: decoder, array: entry, at: path)), as: Self.self)
    }
    return inserting(try [Element].decodeElements(from: decoder, array: entry, at: path))
  }

  /// A set of `elements`, inserted in order.
  @inline(__always)
  private static func inserting<Member: Hashable>(_ elements: [Member]) -> Set<Member> {
    var set = Set<Member>(minimumCapacity: elements.count)
    for element in elements {
      set.insert(element)
    }
    return set
  }
}

// The implementation is generic over the collection, not written for `Array`: this code is not
// specialized, and in an extension of `Array` every call on the array being built looks up the
// metadata of `Array<Element>` (hundreds of instructions per array) instead of using the witness
// table it is given.
extension JSONDecodableArray {
  /// The elements of the array at `entry`, as this collection.
  static func decodeElements(
    from decoder: JSONValueDecoder, array entry: Int, at path: () -> JSONCodingPath
  ) throws -> Self {
    // Arrays of the common scalars are built as concrete arrays: in this unspecialized code,
    // allocating the storage of `[Element]` looks up its metadata (about 200 instructions per
    // array, 13% of decoding canada.json's coordinates).
    if Element.self == Double.self {
      return reinterpret(
        try decodeScalars(Double.self, from: decoder, array: entry, at: path), as: Self.self)
    } else if Element.self == Int.self {
      return reinterpret(
        try decodeScalars(Int.self, from: decoder, array: entry, at: path), as: Self.self)
    } else if Element.self == String.self {
      return reinterpret(
        try decodeScalars(String.self, from: decoder, array: entry, at: path), as: Self.self)
    } else if Element.self == Bool.self {
      return reinterpret(
        try decodeScalars(Bool.self, from: decoder, array: entry, at: path), as: Self.self)
    } else if Element.self == [Double].self {
      return reinterpret(
        try decodeDoubleArrays(from: decoder, array: entry, at: path), as: Self.self)
    }
    return try decodeOthers(from: decoder, array: entry, at: path)
  }

  /// The elements of the array at `entry` as a `[[Double]]`.
  ///
  /// The points of GeoJSON and of most coordinate lists: each inner array is read as
  /// ``decodeScalars(_:from:array:at:)`` reads it, without going through the type of each
  /// element. An element that is not an array takes the general way, which throws its error.
  @inline(never)
  private static func decodeDoubleArrays(
    from decoder: JSONValueDecoder, array entry: Int, at path: () -> JSONCodingPath
  ) throws -> [[Double]] {
    let document = decoder.document
    let count = document.memberCount(entry)
    // Room made for nothing is still a new buffer: an empty array stays the shared empty one.
    guard count > 0 else { return [] }
    var result: [[Double]] = []
    result.reserveCapacity(count)
    var element = entry &+ 1
    for index in 0..<count {
      if document.kind(element) == .array {
        // Numbers nest nothing below them: no stack is needed beyond this one.
        result.append(
          try decodeScalars(
            Double.self, from: decoder, array: element, at: { path().appending(index: index) }))
      } else {
        result.append(
          try decoder.unwrap(element, as: [Double].self, at: path().appending(index: index)))
      }
      element = document.next(element)
    }
    return result
  }

  /// The elements of the array at `entry` when they are not `Double`, `Int`, `String` or `Bool`.
  ///
  /// Values that decode themselves are given the array's path, made once, and their index:
  /// their own path is made only when it is asked for.
  @inline(never)
  private static func decodeOthers(
    from decoder: JSONValueDecoder, array entry: Int, at path: () -> JSONCodingPath
  ) throws -> Self {
    let document = decoder.document
    let count = document.memberCount(entry)
    var result = Self()
    // Room made for nothing is still a new buffer: an empty array stays the shared empty one.
    guard count > 0 else { return result }
    result.reserveCapacity(count)
    var element = entry &+ 1
    if decoder.decodesItself(Element.self) {
      // The array's path is swapped in once for all its elements, each then only its index.
      try decoder.withElementPaths(below: path()) {
        for index in 0..<count {
          // Straight to the element's own `init(from:)`: its type decodes itself.
          result.append(try decoder.decodeElement(element, as: Element.self, index: index))
          element = document.next(element)
        }
      }
      return result
    }
    for index in 0..<count {
      result.append(
        try decoder.unwrap(element, as: Element.self, at: path().appending(index: index)))
      element = document.next(element)
    }
    return result
  }

  /// The elements of the array at `entry` as a `[Scalar]`, in code specialized for `Scalar`.
  @inline(__always)
  private static func decodeScalars<Scalar: Decodable>(
    _ type: Scalar.Type, from decoder: JSONValueDecoder, array entry: Int,
    at path: () -> JSONCodingPath
  ) throws -> [Scalar] {
    let document = decoder.document
    let count = document.memberCount(entry)
    // Room made for nothing is still a new buffer: an empty array stays the shared empty one.
    guard count > 0 else { return [] }
    var result: [Scalar] = []
    result.reserveCapacity(count)
    var element = entry &+ 1
    for index in 0..<count {
      result.append(
        try decoder.unwrap(element, as: Scalar.self, at: path().appending(index: index)))
      element = document.next(element)
    }
    return result
  }
}
