import Foundation

/// The keyed container of one JSON object, for ``JSONValueDecoder``.
///
/// Members are found by comparing their names' bytes with the key's (see
/// ``JSONValueDecoder/member(_:in:)``), with no dictionary built per object. With a key
/// decoding strategy other than `useDefaultKeys`, the converted names are computed once per
/// container instead.
struct JSONKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  /// What the container reads: one reference, so that the container stays cheap to copy (the
  /// standard library's container box copies it for every value decoded), and so that a kept
  /// container can be pointed at another object (see ``JSONContainerBoxes``).
  let state: JSONKeyedContainerState

  var decoder: JSONValueDecoder { state.decoder }
  /// The object's tape entry.
  var object: Int { state.object }
  /// The object's coding path.
  var path: JSONCodingPath { state.path }
  private var conversion: JSONKeyedContainerState.ConvertedNames? { state.conversion }

  init(state: JSONKeyedContainerState) {
    self.state = state
  }

  /// Runs `body` with the decoder, lent without a retain: the state holds the decoder, and this
  /// container holds the state.
  @inline(__always)
  private func withDecoder<Result>(_ body: (JSONValueDecoder) throws -> Result) rethrows -> Result {
    try state.withDecoder(body)
  }

  /// A container of its own for the object at `object`, whose coding path is `path`.
  init(decoder: JSONValueDecoder, object: Int, path: JSONCodingPath) {
    state = JSONKeyedContainerState(decoder: decoder, object: object, path: path)
  }

  var codingPath: [any CodingKey] { path.keys }

  var allKeys: [Key] {
    let document = state.document
    if conversion == nil, document.memberCount(object) == 1 {
      // An enum with associated values, read by the `init(from:)` the compiler writes. Its list
      // is kept, so that a repeat reads no `Key?`: the runtime looks up the metadata of an
      // optional of a generic key (about 300 instructions) in any function that makes one.
      let name = object &+ 1
      return withDecoder { $0.keys(ofOneMember: name) { Self.keys(named: name, in: document) } }
    }
    return keysOfAllMembers()
  }

  /// The key of the member name at `name`, as a list: empty when `Key` has none for it.
  @inline(never)
  private static func keys(named name: Int, in document: JSONDocument) -> [Key] {
    Key(stringValue: JSONStrings.string(at: name, in: document)).map { [$0] } ?? []
  }

  /// The keys of the members, each name once, in the document's order.
  @inline(never)
  private func keysOfAllMembers() -> [Key] {
    if let conversion {
      return conversion.order.compactMap { Key(stringValue: $0) }
    }
    let document = state.document
    var keys: [Key] = []
    var seen = Set<String>()
    let checkRepeats = decoder.mayRepeatNames(in: object)
    keys.reserveCapacity(document.memberCount(object))
    var entry = object &+ 1
    let end = document.next(object)
    while entry < end {
      let name = JSONStrings.string(at: entry, in: document)
      if !checkRepeats || seen.insert(name).inserted, let key = Key(stringValue: name) {
        keys.append(key)
      }
      entry = document.next(entry &+ 1)
    }
    return keys
  }

  /// The value entry of `key`'s member, or `nil`.
  @inline(__always)
  private func entry(_ key: Key) -> Int? {
    if state.conversion != nil {
      return state.convertedEntry(key.stringValue)
    }
    return state.member(key.stringValue)
  }

  /// The value entry of `key`'s member.
  ///
  /// - Throws: `keyNotFound` when the object has no such member.
  @inline(__always)
  private func required(_ key: Key) throws -> Int {
    guard let entry = entry(key) else {
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: decoder.errorKeys(of: path),
          debugDescription: decoder.missingKeyMessage(key)))
    }
    return entry
  }

  func contains(_ key: Key) -> Bool {
    entry(key) != nil
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    state.document.kind(try required(key)) == .null
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try withDecoder { try $0.unwrapBool(try required(key), at: path.appending(key)) }
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try withDecoder { try $0.unwrapStringValue(try required(key), at: path.appending(key)) }
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try withDecoder {
      try $0.unwrapFloat(try required(key), as: Double.self, at: path.appending(key))
    }
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try withDecoder {
      try $0.unwrapFloat(try required(key), as: Float.self, at: path.appending(key))
    }
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try withDecoder {
      try $0.unwrapInteger(try required(key), as: Int.self, at: path.appending(key))
    }
  }

  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try withDecoder {
      try $0.unwrapInteger(try required(key), as: Int8.self, at: path.appending(key))
    }
  }

  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try withDecoder {
      try $0.unwrapInteger(try required(key), as: Int16.self, at: path.appending(key))
    }
  }

  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try withDecoder {
      try $0.unwrapInteger(try required(key), as: Int32.self, at: path.appending(key))
    }
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try withDecoder {
      try $0.unwrapInteger(try required(key), as: Int64.self, at: path.appending(key))
    }
  }

  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try withDecoder {
      try $0.unwrapInteger(try required(key), as: UInt.self, at: path.appending(key))
    }
  }

  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try withDecoder {
      try $0.unwrapInteger(try required(key), as: UInt8.self, at: path.appending(key))
    }
  }

  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try withDecoder {
      try $0.unwrapInteger(try required(key), as: UInt16.self, at: path.appending(key))
    }
  }

  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try withDecoder {
      try $0.unwrapInteger(try required(key), as: UInt32.self, at: path.appending(key))
    }
  }

  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try withDecoder {
      try $0.unwrapInteger(try required(key), as: UInt64.self, at: path.appending(key))
    }
  }

  #if compiler(>=6.0)
    /// Decodes the member `key` as an `Int128`, exactly, over its whole range.
    ///
    /// - Parameters:
    ///   - type: `Int128`.
    ///   - key: The member's key.
    /// - Returns: The number.
    /// - Throws: `keyNotFound` when the member is missing; as the other integer types otherwise.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
      try withDecoder {
        try $0.unwrapInteger(try required(key), as: Int128.self, at: path.appending(key))
      }
    }

    /// Decodes the member `key` as a `UInt128`, exactly, over its whole range.
    ///
    /// - Parameters:
    ///   - type: `UInt128`.
    ///   - key: The member's key.
    /// - Returns: The number.
    /// - Throws: `keyNotFound` when the member is missing; as the other integer types otherwise.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
      try withDecoder {
        try $0.unwrapInteger(try required(key), as: UInt128.self, at: path.appending(key))
      }
    }

    /// Decodes the member `key` as an `Int128`, or `nil` when it is missing or `null`.
    ///
    /// - Parameters:
    ///   - type: `Int128`.
    ///   - key: The member's key.
    /// - Returns: The number, or `nil`.
    /// - Throws: As the other integer types do.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
      guard let entry = present(key) else { return nil }
      return try withDecoder {
        try $0.unwrapInteger(entry, as: Int128.self, at: path.appending(key))
      }
    }

    /// Decodes the member `key` as a `UInt128`, or `nil` when it is missing or `null`.
    ///
    /// - Parameters:
    ///   - type: `UInt128`.
    ///   - key: The member's key.
    /// - Returns: The number, or `nil`.
    /// - Throws: As the other integer types do.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
      guard let entry = present(key) else { return nil }
      return try withDecoder {
        try $0.unwrapInteger(entry, as: UInt128.self, at: path.appending(key))
      }
    }
  #endif

  // The two generic methods are on the path of every nested value, once per level of nesting:
  // they look the member up out of line, so that their own frames stay small (see
  // ``JSONValueDecoder/decodeMember(_:as:of:key:)``).

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try withDecoder { try $0.decodeMember(try requiredEntry(key), as: T.self, of: state, key: key) }
  }

  /// ``required(_:)``, out of line.
  @inline(never)
  private func requiredEntry(_ key: Key) throws -> Int {
    try required(key)
  }

  /// ``present(_:)``, out of line.
  @inline(never)
  private func presentEntry(_ key: Key) -> Int? {
    present(key)
  }

  /// The value entry of `key`'s member, or `nil` when it is missing or `null`.
  @inline(__always)
  private func present(_ key: Key) -> Int? {
    guard let entry = entry(key), state.document.kind(entry) != .null else { return nil }
    return entry
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapBool(entry, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapStringValue(entry, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapFloat(entry, as: Double.self, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapFloat(entry, as: Float.self, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapInteger(entry, as: Int.self, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapInteger(entry, as: Int8.self, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapInteger(entry, as: Int16.self, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapInteger(entry, as: Int32.self, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapInteger(entry, as: Int64.self, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapInteger(entry, as: UInt.self, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapInteger(entry, as: UInt8.self, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapInteger(entry, as: UInt16.self, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapInteger(entry, as: UInt32.self, at: path.appending(key)) }
  }

  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    guard let entry = present(key) else { return nil }
    return try withDecoder { try $0.unwrapInteger(entry, as: UInt64.self, at: path.appending(key)) }
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let entry = presentEntry(key) else { return nil }
    return try withDecoder { try $0.decodeMember(entry, as: T.self, of: state, key: key) }
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try decoder.keyedContainer(
      at: try required(key), path: path.appending(key), keyedBy: NestedKey.self)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder.unkeyedContainer(at: try required(key), path: path.appending(key))
  }

  func superDecoder() throws -> any Decoder {
    try superDecoder(named: PathKey.superKey)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    try superDecoder(named: key)
  }

  /// A decoder for the member `key`, or for `null` when it is missing, as Foundation gives.
  private func superDecoder(named key: some CodingKey) throws -> any Decoder {
    let member: Int
    if state.conversion != nil {
      member = state.convertedEntry(key.stringValue) ?? -1
    } else {
      member = state.member(key.stringValue) ?? -1
    }
    return JSONSuperDecoder(
      decoder: decoder, entry: member, path: path.appending(key))
  }
}

/// A decoder for one member, made by `superDecoder()`: a fresh ``JSONValueDecoder`` view that
/// points at that member for as long as it is used.
struct JSONSuperDecoder: Decoder, DecodingBackendProvider {
  let decoder: JSONValueDecoder
  /// The member's entry, or `-1` when it is missing (decoded as `null`).
  let entry: Int
  let path: JSONCodingPath

  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { decoder.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard entry >= 0 else { throw missing([String: Any].self, "keyed decoding container") }
    return try decoder.keyedContainer(at: entry, path: path, keyedBy: Key.self)
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard entry >= 0 else { throw missing([Any].self, "unkeyed decoding container") }
    return try decoder.unkeyedContainer(at: entry, path: path)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    JSONSuperValueContainer(base: self)
  }

  func makeDecodingBackend() -> any DecodingBackend {
    makeJSONBackend()
  }

  /// The backend of a run on the superclass's value.
  func makeJSONBackend() -> JSONDecodingBackend {
    JSONDecodingBackend(decoder: decoder, object: entry, below: path, .none)
  }

  private func missing(_ type: Any.Type, _ what: String) -> DecodingError {
    .valueNotFound(
      type,
      .init(
        codingPath: path.keys,
        debugDescription: "Cannot get \(what) -- found null value instead"))
  }
}

/// The single value container of a ``JSONSuperDecoder``.
struct JSONSuperValueContainer: SingleValueDecodingContainer {
  let base: JSONSuperDecoder

  var codingPath: [any CodingKey] { base.codingPath }

  func decodeNil() -> Bool {
    base.entry < 0 || base.decoder.document.kind(base.entry) == .null
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    guard base.entry >= 0 else { throw missing(T.self) }
    return try base.decoder.unwrap(base.entry, as: T.self, at: base.path)
  }

  /// `valueNotFound` for a missing member, read as `null`.
  private func missing(_ type: Any.Type) -> DecodingError {
    .valueNotFound(
      type,
      .init(
        codingPath: base.codingPath,
        debugDescription: "Cannot get value of type \(type) -- found null value instead"))
  }

  #if compiler(>=6.0)
    /// Decodes the member as an `Int128`.
    ///
    /// - Parameter type: `Int128`.
    /// - Returns: The number.
    /// - Throws: `valueNotFound` when the member is missing or `null`; as the other integer
    ///   types otherwise.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    func decode(_ type: Int128.Type) throws -> Int128 {
      guard base.entry >= 0 else { throw missing(Int128.self) }
      return try base.decoder.unwrapInteger(base.entry, as: Int128.self, at: base.path)
    }

    /// Decodes the member as a `UInt128`.
    ///
    /// - Parameter type: `UInt128`.
    /// - Returns: The number.
    /// - Throws: `valueNotFound` when the member is missing or `null`; as the other integer
    ///   types otherwise.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 {
      guard base.entry >= 0 else { throw missing(UInt128.self) }
      return try base.decoder.unwrapInteger(base.entry, as: UInt128.self, at: base.path)
    }
  #endif
}

/// The object a ``JSONKeyedContainer`` reads, and how: a class, so that a kept container can be
/// pointed at another object (see ``JSONContainerBoxes``).
final class JSONKeyedContainerState {
  /// The decoder of the object, not retained here (read with ``withDecoder(_:)``): ``owner``
  /// keeps it alive while a container may read through the state.
  ///
  /// A state without an owner is a kept container's, kept between decodes inside that very
  /// decoder (see ``detach()``), where nothing else can reach it: it is used again only after
  /// ``point(at:below:index:key:)`` gives it its owner back.
  private let decoderReference: Unmanaged<JSONValueDecoder>
  /// Keeps the decoder alive; `nil` while a kept container waits for the next decode.
  @exclusivity(unchecked) private var owner: JSONValueDecoder?
  /// The decoder's document: the same object for every decode of a kept decoder.
  let document: JSONDocument
  /// Whether the decoder's key decoding strategy converts names.
  private let convertsKeys: Bool

  /// The decoder, retained for the caller.
  var decoder: JSONValueDecoder { decoderReference.takeUnretainedValue() }

  /// Runs `body` with the decoder, lent without a retain.
  @inline(__always)
  func withDecoder<Result>(_ body: (JSONValueDecoder) throws -> Result) rethrows -> Result {
    try decoderReference._withUnsafeGuaranteedRef(body)
  }
  /// The object's tape entry.
  private(set) var object: Int
  /// The object's coding path, joined from ``pathAbove`` and ``pendingIndex`` or
  /// ``pendingKey`` the first time it is asked for.
  var path: JSONCodingPath {
    @inline(__always) get {
      if pendingIndex >= 0 {
        joinPendingIndex()
      } else if pendingKey != nil {
        joinPendingKey()
      }
      return pathAbove
    }
  }

  /// Joins ``pendingIndex`` to ``pathAbove``.
  @inline(never)
  private func joinPendingIndex() {
    pathAbove = pathAbove.appending(index: pendingIndex)
    pendingIndex = -1
  }

  /// The path of the array or object holding the object while ``pendingIndex`` or
  /// ``pendingKey`` is set; the object's own path after.
  @exclusivity(unchecked) private var pathAbove: JSONCodingPath
  /// The object's index in the array at ``pathAbove``, not joined to it yet; `-1` for none.
  @exclusivity(unchecked) private var pendingIndex: Int
  /// The object's key in the object at ``pathAbove``, not joined to it yet; `nil` for none.
  ///
  /// A dictionary's value, or a ``Keyedable`` model's member read through a container, thus
  /// gets no path node of its own (an allocation, and a free when the state moves on) unless
  /// its path is asked for. A ``PathKey``, not any key: an optional existential costs more to
  /// pass, copy and destroy through value witnesses than the node it saves (members of
  /// synthesized models, whose keys are their own `CodingKeys`, measured 15% slower).
  @exclusivity(unchecked) private var pendingKey: PathKey?
  /// The object's member names after a key decoding strategy other than `useDefaultKeys`;
  /// `nil` with the default keys.
  @exclusivity(unchecked) private(set) var conversion: ConvertedNames?

  // Members read in the document's order (see ``member(_:)``).

  /// The name entry of the member after the last one found by reading on.
  @exclusivity(unchecked) private var cursor = 0
  /// The name entry of the last member found by reading on, or `0`.
  @exclusivity(unchecked) private var lastFound = 0
  /// The entry after the object.
  @exclusivity(unchecked) private var end = 0
  /// A filter of the names of the members before ``cursor``: 512 bits, two per name set (see
  /// ``NameFilter``).
  @exclusivity(unchecked) private var passed = NameFilter()
  /// How many more members reading on may compare before lookups go to
  /// ``JSONValueDecoder/member(_:in:)`` for the rest of the object; `0` from the start for an
  /// object of fewer than ``minimumCount`` members, one whose names have escapes or aren't
  /// ASCII, with a key decoding strategy, and while ``retryIn`` counts down.
  @exclusivity(unchecked) private var budget = 0

  /// How many more objects this state (kept from object to object of one type) is pointed at
  /// before it reads on again, after reading on failed in an earlier object.
  @exclusivity(unchecked) private var retryIn = 0

  /// A lookup that reading on leaves to ``JSONValueDecoder/member(_:in:)``.
  private static let lookElsewhere = -2
  /// The fewest members an object needs to be read on: a scan of a smaller one from its first
  /// member costs as little (a lookup that reads on costs about 130 instructions, a scan of an
  /// object of five members about 80), and more when the model reads in another order than the
  /// document's (from 4, 8 measured 1.3% fewer instructions on `small`, 3.3% on one object of
  /// five members in Foundation's hash order per decode; 16 measured 1.2% more on citm).
  private static let minimumCount = 8
  /// How many objects a state skips reading on for after it failed.
  private static let objectsBeforeRetry = 16

  convenience init(decoder: JSONValueDecoder, object: Int, path: JSONCodingPath) {
    self.init(decoder: decoder, object: object, below: path, index: -1, key: nil)
  }

  /// A state for the object at `object`: element `index` of the array at `base`, member `key`
  /// of the object at `base`, or whose path is `base` when `index` is `-1` and `key` is `nil`.
  init(
    decoder: JSONValueDecoder, object: Int, below base: JSONCodingPath, index: Int,
    key: PathKey?
  ) {
    decoderReference = Unmanaged.passUnretained(decoder)
    owner = decoder
    document = decoder.document
    convertsKeys = decoder.convertsKeys
    self.object = object
    pathAbove = base
    pendingIndex = index
    pendingKey = index < 0 ? key : nil
    conversion = nil
    convertNames()
    startReading()
  }

  /// Points the state at the object at `object`: element `index` of the array at `base`,
  /// member `key` of the object at `base`, or whose path is `base` when `index` is `-1` and
  /// `key` is `nil`.
  ///
  /// `base` is consumed: the caller's path moves into the state without a retain.
  @inline(__always)
  func point(
    at object: Int, below base: consuming JSONCodingPath, index: Int, key: PathKey?
  ) {
    if owner == nil {
      // A container kept between decodes (see ``detach()``), reused by the decoder that kept it.
      owner = decoder
    }
    self.object = object
    var base = base
    swap(&pathAbove, &base)
    pendingIndex = index
    if index < 0, let key {
      pendingKey = key
    } else if pendingKey != nil {
      pendingKey = nil
    }
    if convertsKeys {
      convertNames()
    }
    startReading()
  }

  /// Lets go of the decoder and of what refers to the document's entries, for a container kept
  /// between decodes (see ``JSONValueDecoder/park()``), so that a decoder nothing else refers to
  /// can be kept; the next ``point(at:below:index:key:)`` takes the decoder again.
  func detach() {
    owner = nil
    object = 0
    pathAbove = .root
    pendingIndex = -1
    pendingKey = nil
    conversion = nil
    budget = 0
    retryIn = 0
  }

  /// Joins ``pendingKey`` to ``pathAbove``.
  @inline(never)
  private func joinPendingKey() {
    guard let key = pendingKey else { return }
    pathAbove = .key(key, pathAbove)
    pendingKey = nil
  }

  /// Starts reading the object's members in order from its first.
  @inline(__always)
  private func startReading() {
    guard retryIn == 0 else {
      retryIn &-= 1
      budget = 0
      return
    }
    let document = self.document
    let count = document.memberCount(object)
    guard count >= Self.minimumCount, conversion == nil,
      document.flags(object) & JSONDocument.hasComplexNames == 0
    else {
      budget = 0
      return
    }
    cursor = object &+ 1
    lastFound = 0
    end = document.next(object)
    passed = NameFilter()
    budget = count &* 2 &+ 16
  }

  /// The value entry of the first member named `name`, or `nil` when there is none.
  ///
  /// A model's `init(from:)` mostly reads members in the order the document has them, skipping
  /// some. So a lookup first reads on from the member after the last one it found
  /// (``cursor``), comparing names, and a filter of the names passed so far tells whether an
  /// earlier member may have the name: only then are the members before the cursor compared,
  /// from the first, so the member found is always the first of its name, as Foundation reads
  /// it. A name that is missing reads to the object's end and leaves the cursor where it was;
  /// the member found last, asked for again, is found again at once.
  ///
  /// The members compared this way are limited to twice the object's members (and 16), and a
  /// name found before the cursor shows that the model reads in another order: either way,
  /// lookups then go to ``JSONValueDecoder/member(_:in:)`` (a scan of a small object, an index
  /// of a large one) for the rest of the object and the next 16 objects the state reads, so
  /// reading on never costs more than linear work, and little in documents whose order is
  /// another than the model's (Foundation's `JSONEncoder` writes members in hash order).
  @inline(__always)
  func member(_ name: String) -> Int? {
    if budget > 0,
      let found = name.utf8.withContiguousStorageIfAvailable({ readOnAtCursor(to: $0) }),
      found != Self.lookElsewhere
    {
      return found < 0 ? nil : found
    }
    return withDecoder { $0.member(name, in: object) }
  }

  /// A filter of 512 bits of a set of member names: each name sets two, picked from a hash of
  /// its words, so a name outside the set is taken for one in it with a chance of about
  /// `(2n / 512)²` for `n` names: under 1% for the 25 members of a twitter status, 2% for the 40
  /// of its user (one bit among 128, the filter before, took 18% and 27%, and each mistake cost
  /// a comparison with every member before the cursor).
  struct NameFilter {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
      (0, 0, 0, 0, 0, 0, 0, 0)

    /// The two bits of a name, from its words: bit numbers below 512.
    @inline(__always)
    static func bits(_ name: JSONNameIndex.NameWords) -> (Int, Int) {
      let mixed =
        (name.head &+ (name.tail &<< 1) ^ UInt64(truncatingIfNeeded: name.count))
        &* 0x9E37_79B9_7F4A_7C15
      return (Int(truncatingIfNeeded: mixed &>> 55), Int(truncatingIfNeeded: (mixed &>> 46) & 511))
    }

    /// Whether both of `bits` are set: whether the name may be in the set.
    @inline(__always)
    mutating func contains(_ bits: (Int, Int)) -> Bool {
      withUnsafeMutableBytes(of: &words) { raw in
        guard let words = raw.baseAddress?.assumingMemoryBound(to: UInt64.self) else {
          return true
        }
        return words[bits.0 &>> 6] & (1 &<< UInt64(bits.0 & 63)) != 0
          && words[bits.1 &>> 6] & (1 &<< UInt64(bits.1 & 63)) != 0
      }
    }

    /// Sets `bits`: adds a name to the set.
    @inline(__always)
    mutating func insert(_ bits: (Int, Int)) {
      withUnsafeMutableBytes(of: &words) { raw in
        guard let words = raw.baseAddress?.assumingMemoryBound(to: UInt64.self) else { return }
        words[bits.0 &>> 6] |= 1 &<< UInt64(bits.0 & 63)
        words[bits.1 &>> 6] |= 1 &<< UInt64(bits.1 & 63)
      }
    }
  }

  /// Reading on, inlined for the member at the cursor.
  ///
  /// The common case of ``readOn(to:)``: the member at the cursor has the name, and no member
  /// before it can have it (its bits are clear in ``passed``). That case takes no budget;
  /// anything else goes the general way. Measured: about 45 fewer instructions per member
  /// found than the general way alone (its prologue, its epilogue and its other cases).
  @inline(__always)
  private func readOnAtCursor(to bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let entry = cursor
    let document = self.document
    let count = bytes.count
    if entry < end, document.hasLength(entry, count), let base = bytes.baseAddress {
      let words = JSONNameIndex.NameWords(base, count: count)
      let start = document.bytes + document.offset(entry)
      if JSONNameIndex.NameWords(inDocument: start, count: count) == words,
        count <= 16 || JSONStrings.equal(start + 8, base + 8, count: count &- 16)
      {
        let bits = NameFilter.bits(words)
        if !passed.contains(bits) {
          let value = entry &+ 1
          lastFound = entry
          cursor = document.next(value)
          passed.insert(bits)
          return value
        }
      }
    }
    return readOn(to: bytes)
  }

  /// ``member(_:)`` by reading on: the value entry of the first member whose plain name is
  /// `bytes`, `-1` when there is none, or ``lookElsewhere`` when the budget runs out.
  @inline(never)
  private func readOn(to bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let document = self.document
    let count = bytes.count
    let words = bytes.baseAddress.map { JSONNameIndex.NameWords($0, count: count) } ?? .empty
    let budget = budget
    var steps = 0
    /// Whether the name at `start`, whose words are `other`, is `bytes`.
    @inline(__always)
    func matches(_ other: JSONNameIndex.NameWords, at start: UnsafePointer<UInt8>) -> Bool {
      guard other == words else { return false }
      guard count > 16, let base = bytes.baseAddress else { return true }
      return JSONStrings.equal(start + 8, base + 8, count: count &- 16)
    }
    /// Whether the name of the member at `entry` is `bytes`.
    @inline(__always)
    func matches(_ entry: Int) -> Bool {
      guard document.hasLength(entry, count) else { return false }
      let start = document.bytes + document.offset(entry)
      return matches(JSONNameIndex.NameWords(inDocument: start, count: count), at: start)
    }
    let bits = NameFilter.bits(words)
    if passed.contains(bits) {
      // The member found last, asked for again (`contains` or `decodeNil` before `decode`).
      if lastFound != 0, matches(lastFound) {
        return lastFound &+ 1
      }
      var entry = object &+ 1
      while entry < cursor {
        if matches(entry) {
          // The model reads in another order than the document's.
          _ = runOut()
          return entry &+ 1
        }
        steps &+= 1
        guard steps < budget else { return runOut() }
        entry = document.next(entry &+ 1)
      }
    }
    let first = cursor
    var entry = first
    while entry < end {
      let start = document.bytes + document.offset(entry)
      let other = JSONNameIndex.NameWords(inDocument: start, count: document.length(entry))
      if matches(other, at: start) {
        self.budget = budget &- steps
        let value = entry &+ 1
        lastFound = entry
        cursor = document.next(value)
        if entry != first {
          pass(from: first, to: entry)
        }
        passed.insert(bits)
        return value
      }
      steps &+= 1
      guard steps < budget else { return runOut() }
      entry = document.next(entry &+ 1)
    }
    self.budget = budget &- steps
    return -1
  }

  /// Adds the names of the members from `first` up to `entry` to ``passed``: the members a
  /// lookup skipped to find the one at `entry` (rare in a model that reads in the document's
  /// order, so they are read again here rather than collected on the way).
  private func pass(from first: Int, to entry: Int) {
    let document = self.document
    var skipped = first
    while skipped < entry {
      let start = document.bytes + document.offset(skipped)
      passed.insert(
        NameFilter.bits(
          JSONNameIndex.NameWords(inDocument: start, count: document.length(skipped))))
      skipped = document.next(skipped &+ 1)
    }
  }

  /// Ends reading on for the rest of the object and the next few objects.
  private func runOut() -> Int {
    budget = 0
    retryIn = Self.objectsBeforeRetry
    return Self.lookElsewhere
  }

  /// The value entry of the first member whose converted name is `name` (see
  /// ``ConvertedNames/entry(_:)``), or `nil`; only with a key decoding strategy.
  @inline(__always)
  func convertedEntry(_ name: String) -> Int? {
    conversion?.entry(name) ?? nil
  }

  /// Works out ``conversion`` for the object.
  ///
  /// With `convertFromSnakeCase`, whose conversion depends on a name alone, the names of the
  /// last object converted are kept (``ConvertedNames/Names``): an object whose raw names are
  /// the same, in the same order (the next element of an array of one type, mostly), only has
  /// its members' value entries listed. A `custom` conversion, which may depend on the path,
  /// converts every object's names.
  private func convertNames() {
    var previous = conversion
    // The previous values array unshared before it is filled again.
    conversion = nil
    conversion = Self.convertedNames(
      of: object, decoder: decoder, path: path, reusing: &previous)
  }

  /// The member names of the object at `object`, whose coding path is `path`, after the
  /// decoder's key decoding strategy (`nil` with the default keys), for a keyed container or a
  /// Keyedable model's node.
  ///
  /// `previous` is what the last call made for an object read in the same place: its names are
  /// used again when the object has the same raw names, and its values array is filled anew.
  /// It is consumed (left `nil`).
  static func convertedNames(
    of object: Int, decoder: JSONValueDecoder, path: @autoclosure () -> JSONCodingPath,
    reusing previous: inout ConvertedNames?
  ) -> ConvertedNames? {
    switch decoder.options.keyDecodingStrategy {
    case .useDefaultKeys:
      previous = nil
      return nil
    case .convertFromSnakeCase:
      var values = previous?.values ?? []
      let kept = previous?.names
      previous = nil
      values.removeAll(keepingCapacity: true)
      if let kept, kept.isReusable {
        if kept.match(object, in: decoder.document, values: &values) {
          return ConvertedNames(names: kept, values: values)
        }
        values.removeAll(keepingCapacity: true)
      }
      return convertNames(decoder, object, reusable: true, values: values) { name in
        JSONKeyConversion.fromSnakeCase(name)
      }
    case .custom(let convert):
      previous = nil
      let keys = path().keys
      return convertNames(decoder, object, reusable: false, values: []) { name in
        convert(keys + [PathKey(name)]).stringValue
      }
    }
  }

  /// The member names of an object after a key decoding strategy, and where their values are.
  struct ConvertedNames {
    /// The converted names, which objects with the same raw names share.
    let names: Names
    /// The value entry of each member, in document order.
    var values: [Int]

    /// The member after the one found last: where a model that reads members in the
    /// document's order finds the next, without hashing its name.
    private var next = 0

    init(names: Names, values: [Int]) {
      self.names = names
      self.values = values
    }

    /// The value entry of the first member whose converted name is `name`, or `nil`.
    @inline(__always)
    mutating func entry(_ name: String) -> Int? {
      let guess = next
      if guess < values.count, guess < names.firsts.count, names.firsts[guess] == name {
        next = guess &+ 1
        return values[guess]
      }
      guard let member = names.members[name], member < values.count else { return nil }
      next = member &+ 1
      return values[member]
    }

    /// The converted names in document order, each once, for ``JSONKeyedContainer/allKeys``.
    var order: [String] { names.order }

    /// The converted member names of an object, and its raw names to tell whether another
    /// object has the same.
    final class Names {
      /// The position in document order of the first member of each converted name.
      let members: [String: Int]
      /// The converted names in document order, each once.
      let order: [String]
      /// The converted name of each member in document order, `nil` for a member whose name
      /// an earlier member has.
      let firsts: [String?]
      /// Whether another object with the same raw names may use these (the conversion depends
      /// on the name alone).
      let isReusable: Bool
      /// The raw names' bytes, one after another, as the document has them (escapes included).
      private let raw: [UInt8]
      /// The end of each raw name in ``raw``.
      private let ends: [Int]

      init(
        members: [String: Int], order: [String], firsts: [String?], raw: [UInt8], ends: [Int],
        isReusable: Bool
      ) {
        self.members = members
        self.order = order
        self.firsts = firsts
        self.raw = raw
        self.ends = ends
        self.isReusable = isReusable
      }

      /// Whether the object at `object` has these raw names in this order, appending the
      /// value entry of each of its members to `values` as it compares them.
      ///
      /// Linear in the length of the object's names: one comparison of bytes each.
      func match(_ object: Int, in document: JSONDocument, values: inout [Int]) -> Bool {
        guard document.memberCount(object) == ends.count else { return false }
        return raw.withUnsafeBufferPointer { raw in
          var key = object &+ 1
          let end = document.next(object)
          var start = 0
          for nameEnd in ends {
            let length = nameEnd &- start
            guard key < end, document.hasLength(key, length) else { return false }
            if length > 0 {
              guard let base = raw.baseAddress,
                JSONStrings.equal(
                  document.bytes + document.offset(key), base + start, count: length)
              else { return false }
            }
            values.append(key &+ 1)
            start = nameEnd
            key = document.next(key &+ 1)
          }
          return key >= end
        }
      }
    }
  }

  /// The member names of the object at `object`, each converted with `convert`, with their
  /// value entries appended to `values` (empty); `reusable` when the conversion depends on the
  /// name alone, so that another object with the same raw names may use them.
  private static func convertNames(
    _ decoder: JSONValueDecoder, _ object: Int, reusable: Bool, values: [Int],
    _ convert: (String) -> String
  ) -> ConvertedNames {
    let document = decoder.document
    var members: [String: Int] = [:]
    var order: [String] = []
    var firsts: [String?] = []
    var raw: [UInt8] = []
    var ends: [Int] = []
    var values = values
    var key = object &+ 1
    let end = document.next(object)
    while key < end {
      let name = convert(JSONStrings.string(at: key, in: document))
      if members[name] == nil {
        members[name] = values.count
        order.append(name)
        firsts.append(name)
      } else {
        firsts.append(nil)
      }
      if reusable {
        raw.append(contentsOf: document.span(key))
        ends.append(raw.count)
      }
      values.append(key &+ 1)
      key = document.next(key &+ 1)
    }
    return ConvertedNames(
      names: .init(
        members: members, order: order, firsts: firsts, raw: raw, ends: ends,
        isReusable: reusable),
      values: values)
  }
}
