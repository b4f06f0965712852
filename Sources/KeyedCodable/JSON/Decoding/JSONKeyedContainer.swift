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

  /// The value entries by converted name, when a key decoding strategy converts names.
  var converted: [String: Int]? { conversion?.entries }

  init(state: JSONKeyedContainerState) {
    self.state = state
  }

  /// A container of its own for the object at `object`, whose coding path is `path`.
  init(decoder: JSONValueDecoder, object: Int, path: JSONCodingPath) {
    state = JSONKeyedContainerState(decoder: decoder, object: object, path: path)
  }

  var codingPath: [any CodingKey] { path.keys }

  var allKeys: [Key] {
    if let conversion {
      return conversion.order.compactMap { Key(stringValue: $0) }
    }
    let document = decoder.document
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
    if let conversion {
      return conversion.entries[key.stringValue]
    }
    return decoder.member(key.stringValue, in: object)
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
          codingPath: path.keys,
          debugDescription: decoder.missingKeyMessage(key)))
    }
    return entry
  }

  func contains(_ key: Key) -> Bool {
    entry(key) != nil
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    decoder.document.kind(try required(key)) == .null
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try decoder.unwrapBool(try required(key), at: path.appending(key))
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try decoder.unwrapString(try required(key), at: path.appending(key))
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try decoder.unwrapFloat(try required(key), as: Double.self, at: path.appending(key))
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try decoder.unwrapFloat(try required(key), as: Float.self, at: path.appending(key))
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try decoder.unwrapInteger(try required(key), as: Int.self, at: path.appending(key))
  }

  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try decoder.unwrapInteger(try required(key), as: Int8.self, at: path.appending(key))
  }

  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try decoder.unwrapInteger(try required(key), as: Int16.self, at: path.appending(key))
  }

  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try decoder.unwrapInteger(try required(key), as: Int32.self, at: path.appending(key))
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try decoder.unwrapInteger(try required(key), as: Int64.self, at: path.appending(key))
  }

  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try decoder.unwrapInteger(try required(key), as: UInt.self, at: path.appending(key))
  }

  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try decoder.unwrapInteger(try required(key), as: UInt8.self, at: path.appending(key))
  }

  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try decoder.unwrapInteger(try required(key), as: UInt16.self, at: path.appending(key))
  }

  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try decoder.unwrapInteger(try required(key), as: UInt32.self, at: path.appending(key))
  }

  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try decoder.unwrapInteger(try required(key), as: UInt64.self, at: path.appending(key))
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
      try decoder.unwrapInteger(try required(key), as: Int128.self, at: path.appending(key))
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
      try decoder.unwrapInteger(try required(key), as: UInt128.self, at: path.appending(key))
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
      return try decoder.unwrapInteger(entry, as: Int128.self, at: path.appending(key))
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
      return try decoder.unwrapInteger(entry, as: UInt128.self, at: path.appending(key))
    }
  #endif

  // The two generic methods are on the path of every nested value, once per level of nesting:
  // they look the member up out of line, so that their own frames stay small (see
  // ``JSONValueDecoder/unwrapNested(_:as:at:)``).

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder.unwrapNested(try requiredEntry(key), as: T.self, at: path.appending(key))
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
    guard let entry = entry(key), decoder.document.kind(entry) != .null else { return nil }
    return entry
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapBool(entry, at: path.appending(key))
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapString(entry, at: path.appending(key))
  }

  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapFloat(entry, as: Double.self, at: path.appending(key))
  }

  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapFloat(entry, as: Float.self, at: path.appending(key))
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapInteger(entry, as: Int.self, at: path.appending(key))
  }

  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapInteger(entry, as: Int8.self, at: path.appending(key))
  }

  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapInteger(entry, as: Int16.self, at: path.appending(key))
  }

  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapInteger(entry, as: Int32.self, at: path.appending(key))
  }

  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapInteger(entry, as: Int64.self, at: path.appending(key))
  }

  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapInteger(entry, as: UInt.self, at: path.appending(key))
  }

  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapInteger(entry, as: UInt8.self, at: path.appending(key))
  }

  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapInteger(entry, as: UInt16.self, at: path.appending(key))
  }

  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapInteger(entry, as: UInt32.self, at: path.appending(key))
  }

  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    guard let entry = present(key) else { return nil }
    return try decoder.unwrapInteger(entry, as: UInt64.self, at: path.appending(key))
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let entry = presentEntry(key) else { return nil }
    return try decoder.unwrapNested(entry, as: T.self, at: path.appending(key))
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
    if let conversion {
      member = conversion.entries[key.stringValue] ?? -1
    } else {
      member = decoder.member(key.stringValue, in: object) ?? -1
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
  let decoder: JSONValueDecoder
  /// The object's tape entry.
  private(set) var object: Int
  /// The object's coding path.
  private(set) var path: JSONCodingPath
  /// The object's member names after a key decoding strategy other than `useDefaultKeys`;
  /// `nil` with the default keys.
  private(set) var conversion: ConvertedNames?

  init(decoder: JSONValueDecoder, object: Int, path: JSONCodingPath) {
    self.decoder = decoder
    self.object = object
    self.path = path
    conversion = nil
    convertNames()
  }

  /// Points the state at the object at `object`, whose coding path is `path`.
  @inline(__always)
  func point(at object: Int, path: JSONCodingPath) {
    self.object = object
    self.path = path
    if decoder.convertsKeys {
      convertNames()
    }
  }

  /// Works out ``conversion`` for the object.
  private func convertNames() {
    switch decoder.options.keyDecodingStrategy {
    case .useDefaultKeys:
      conversion = nil
    case .convertFromSnakeCase:
      conversion = Self.convertNames(decoder, object) { name in
        JSONKeyConversion.fromSnakeCase(name)
      }
    case .custom(let convert):
      let keys = path.keys
      conversion = Self.convertNames(decoder, object) { name in
        convert(keys + [PathKey(name)]).stringValue
      }
    }
  }

  /// The member names of an object after a key decoding strategy.
  final class ConvertedNames {
    /// The value entries by converted name.
    let entries: [String: Int]
    /// The converted names in document order, for ``allKeys``.
    let order: [String]

    init(entries: [String: Int], order: [String]) {
      self.entries = entries
      self.order = order
    }
  }

  /// The member names of the object at `object`, each converted with `convert`.
  private static func convertNames(
    _ decoder: JSONValueDecoder, _ object: Int, _ convert: (String) -> String
  ) -> ConvertedNames {
    let document = decoder.document
    var names: [String: Int] = [:]
    var order: [String] = []
    var key = object &+ 1
    let end = document.next(object)
    while key < end {
      let name = convert(JSONStrings.string(at: key, in: document))
      if names[name] == nil {
        names[name] = key &+ 1
        order.append(name)
      }
      key = document.next(key &+ 1)
    }
    return ConvertedNames(entries: names, order: order)
  }
}
