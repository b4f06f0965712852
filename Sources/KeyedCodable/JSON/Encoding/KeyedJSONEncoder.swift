import Foundation

/// Encodes values as JSON: a drop-in replacement for Foundation's `JSONEncoder`, several times
/// faster, and fastest for ``Keyedable`` types whose key paths nest.
///
/// Use it where you use `JSONEncoder`; the API, the strategies and the output format (compact or
/// pretty-printed, escaping, numbers) are the same:
///
/// ```swift
/// let encoder = KeyedJSONEncoder()
/// encoder.outputFormatting = [.sortedKeys]
/// let data = try encoder.encode(user)
/// ```
///
/// Values are written straight into one growing buffer, in the order they are encoded, instead
/// of into a tree of dictionaries that is serialized afterwards. Without `.sortedKeys`, members
/// therefore come out in the order the type encodes them (Foundation's order is the hash order
/// of its dictionaries). A type that writes into a container after it moved on to another one,
/// or writes one key twice, is encoded through Foundation's `JSONEncoder` with the same options
/// instead (the output is then Foundation's: the last value of a repeated key wins). Two names
/// that are equal as Swift strings, such as `"\u{E9}"` and `"e\u{301}"`, are one key, as they
/// are for Foundation.
///
/// An encoder can be shared: any number of tasks may encode with it at once. Its properties are
/// read when an encode starts. Keep one for many encodes: after a document of 64 KiB or less it
/// keeps its working state (what it learned about the types it wrote) for the next encode with
/// the same options, so that small documents cost less than with a new encoder each.
public final class KeyedJSONEncoder: @unchecked Sendable {
  // @unchecked: the options are only read and written under `state`'s lock, and an encode works
  // on its own copy of them.

  /// How to format the output.
  public struct OutputFormatting: OptionSet, Sendable {
    /// The bits of the options.
    public let rawValue: UInt

    /// Creates formatting options from their raw value.
    ///
    /// - Parameter rawValue: The bits of the options.
    public init(rawValue: UInt) {
      self.rawValue = rawValue
    }

    /// Line breaks and two spaces of indentation, with `" : "` after member names.
    public static let prettyPrinted = OutputFormatting(rawValue: 1 << 0)
    /// Members sorted by name, so equal values always give the same bytes.
    ///
    /// Names are ordered by their UTF-8 bytes, that is by their Unicode scalars, as
    /// Foundation's `JSONEncoder` orders them: `"B"` before `"a"`, and a decomposed `"e\u{301}"`
    /// before `"~"` and a precomposed `"\u{E9}"` after it.
    public static let sortedKeys = OutputFormatting(rawValue: 1 << 1)
    /// Slashes written as they are instead of as `\/`.
    public static let withoutEscapingSlashes = OutputFormatting(rawValue: 1 << 3)
  }

  /// How to encode a `Date`.
  public enum DateEncodingStrategy {
    /// Encode the `Date` as its own `Codable` implementation does: seconds since January 1, 2001.
    case deferredToDate
    /// Encode the `Date` as a number of seconds since January 1, 1970.
    case secondsSince1970
    /// Encode the `Date` as a number of milliseconds since January 1, 1970.
    case millisecondsSince1970
    /// Encode the `Date` as an ISO 8601 string in UTC (`1985-04-12T23:20:50Z`), truncated to
    /// the second, exactly as Foundation's `Date.ISO8601FormatStyle` writes it.
    ///
    /// Dates from 1583 to 9999 are written by KeyedCodable's own date engine, straight into the
    /// output; others (Julian dates, years with five digits, infinite dates) by Foundation.
    case iso8601
    /// Encode the `Date` as a string written by the given formatter.
    case formatted(DateFormatter)
    /// Encode the `Date` with a closure, given an encoder for the value.
    case custom(@Sendable (_ date: Date, _ encoder: any Encoder) throws -> Void)
  }

  /// How to encode `Data`.
  public enum DataEncodingStrategy {
    /// Encode the `Data` as its own `Codable` implementation does: an array of bytes.
    case deferredToData
    /// Encode the `Data` as a Base64 string.
    case base64
    /// Encode the `Data` with a closure, given an encoder for the value.
    case custom(@Sendable (_ data: Data, _ encoder: any Encoder) throws -> Void)
  }

  /// How to write non-conforming floating-point numbers (infinities and NaN), which JSON can't
  /// express as numbers.
  public enum NonConformingFloatEncodingStrategy: Sendable {
    /// Throw `EncodingError.invalidValue` (the default).
    case `throw`
    /// Write these strings for positive infinity, negative infinity and NaN.
    case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  /// How to write coding keys as member names.
  public enum KeyEncodingStrategy: Sendable {
    /// Use each key's `stringValue` as it is (the default).
    case useDefaultKeys
    /// Convert `camelCase` keys to `snake_case`, as Foundation does: `firstName` becomes
    /// `first_name`, `myURLValue` becomes `my_url_value`; words start at uppercase and
    /// titlecase letters (general categories Lu and Lt).
    case convertToSnakeCase
    /// Convert each key with a closure, given the coding path of the member (the last key is the
    /// member's).
    case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
  }

  /// Every option of an encode, read once when it starts.
  struct Options {
    var outputFormatting: OutputFormatting = []
    var dateEncodingStrategy = DateEncodingStrategy.deferredToDate
    var dataEncodingStrategy = DataEncodingStrategy.base64
    var nonConformingFloatEncodingStrategy = NonConformingFloatEncodingStrategy.throw
    var keyEncodingStrategy = KeyEncodingStrategy.useDefaultKeys
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// The size of the last document this encoder wrote that didn't fit the writer's first
    /// buffer, so the next one starts with a buffer of that size instead of growing to it
    /// (see ``KeyedJSONEncoder/noteOutputSize(_:hint:)``).
    var outputSizeHint = 0
  }

  /// The options, and an encoder kept for the next encode with them.
  private struct State {
    var options = Options()
    /// Counts the changes of ``options``: an encoder made before the last one isn't kept.
    var generation = 0
    /// The encoder of the last encode that wrote a small document, ready for the next one
    /// (see ``encoded(_:as:reporting:)``).
    var spare: JSONStreamEncoder?
  }

  private let state = Locked(State())

  /// The largest document after which the encoder that wrote it is kept for the next encode: its
  /// working storage (open frames, member names, sort buffers) grows with the documents it
  /// writes, so only an encoder that has written nothing larger is kept.
  static var largestDocumentKeepingTheEncoder: Int { 65536 }

  /// The largest document a kept encoder copies into its `Data` rather than handing its buffer
  /// over (see ``encoded(_:as:reporting:)``).
  static var largestCopiedDocument: Int { 4096 }

  /// The first buffer of a writer: the size of the documents this encoder writes, at least
  /// 1 KiB and at most 4 MiB.
  static func firstCapacity(hint: Int) -> Int {
    Swift.min(Swift.max(hint, 1024), 4 << 20)
  }

  /// Remembers the size of a document written with a first buffer made for `hint` bytes, when
  /// the buffer had to grow or was four times too large: so an encoder that writes documents
  /// of one size doesn't grow its buffer step by step (doubling from 1 KiB, each step a copy)
  /// for every one, and touches its lock again only when the size changes.
  private func noteOutputSize(_ size: Int, hint: Int) {
    let capacity = Self.firstCapacity(hint: hint)
    guard size > capacity || (hint > 1024 && size < capacity / 4) else { return }
    state.withLock { $0.options.outputSizeHint = size }
  }

  /// Creates an encoder with the default options.
  public init() {}

  deinit {
    // The kept encoder's runs and containers refer to it.
    state.withLock { $0.spare }?.finish()
  }

  /// How the output is formatted; compact and unsorted by default.
  public var outputFormatting: OutputFormatting {
    get { state.withLock { $0.options.outputFormatting } }
    set { update { $0.outputFormatting = newValue } }
  }

  /// How dates are encoded; `.deferredToDate` by default.
  public var dateEncodingStrategy: DateEncodingStrategy {
    get { state.withLock { $0.options.dateEncodingStrategy } }
    set { update { $0.dateEncodingStrategy = newValue } }
  }

  /// How `Data` is encoded; `.base64` by default.
  public var dataEncodingStrategy: DataEncodingStrategy {
    get { state.withLock { $0.options.dataEncodingStrategy } }
    set { update { $0.dataEncodingStrategy = newValue } }
  }

  /// How infinities and NaN are written; `.throw` by default.
  public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy {
    get { state.withLock { $0.options.nonConformingFloatEncodingStrategy } }
    set { update { $0.nonConformingFloatEncodingStrategy = newValue } }
  }

  /// How coding keys become member names; `.useDefaultKeys` by default.
  public var keyEncodingStrategy: KeyEncodingStrategy {
    get { state.withLock { $0.options.keyEncodingStrategy } }
    set { update { $0.keyEncodingStrategy = newValue } }
  }

  /// Context for the types being encoded, available as `userInfo` of every encoder they get.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { state.withLock { $0.options.userInfo } }
    set { update { $0.userInfo = newValue } }
  }

  /// Encodes a value as a JSON document.
  ///
  /// - Parameter value: The value to encode.
  /// - Returns: The document, in UTF-8.
  /// - Throws: `EncodingError.invalidValue` with the full coding path when a value can't be
  ///   written (a non-finite number with the `.throw` strategy, a top-level value that encodes
  ///   nothing), and the value's own errors.
  public func encode<T: Encodable>(_ value: T) throws -> Data {
    try encoded(value, as: T.self, reporting: value).data
  }

  /// Encodes a value as the bytes of a JSON document.
  ///
  /// - Parameter value: The value to encode.
  /// - Returns: The document, in UTF-8.
  /// - Throws: The errors of ``encode(_:)``.
  public func encodeBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
    try encoded(value, as: T.self, reporting: value).bytes
  }

  /// Encodes a value that needs a configuration, as Foundation's `JSONEncoder` does.
  ///
  /// ```swift
  /// let json = try KeyedJSONEncoder().encode(user, configuration: favorites)
  /// ```
  ///
  /// - Parameters:
  ///   - value: The value to encode, an `EncodableWithConfiguration` value.
  ///   - configuration: The configuration handed to `encode(to:configuration:)`.
  /// - Returns: The document, in UTF-8.
  /// - Throws: The errors of ``encode(_:)``.
  @available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
  public func encode<T: EncodableWithConfiguration>(
    _ value: T, configuration: T.EncodingConfiguration
  ) throws -> Data {
    try encoded(
      Configured(value: value, configuration: configuration), as: T.self, reporting: value
    ).data
  }

  /// Encodes a value whose configuration a provider type supplies, as Foundation's
  /// `JSONEncoder` does.
  ///
  /// - Parameters:
  ///   - value: The value to encode, an `EncodableWithConfiguration` value.
  ///   - configuration: The type that provides the configuration.
  /// - Returns: The document, in UTF-8.
  /// - Throws: The errors of ``encode(_:)``.
  @available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
  public func encode<T, C>(_ value: T, configuration: C.Type) throws -> Data
  where
    T: EncodableWithConfiguration, C: EncodingConfigurationProviding,
    T.EncodingConfiguration == C.EncodingConfiguration
  {
    try encode(value, configuration: C.encodingConfiguration)
  }

  /// Changes the options, and drops the encoder kept for the old ones.
  private func update(_ change: (inout Options) -> Void) {
    let dropped = state.withLock { state in
      change(&state.options)
      state.generation &+= 1
      defer { state.spare = nil }
      return state.spare
    }
    dropped?.finish()
  }

  /// Encodes `value`; errors about the top-level value name `type` and carry `original`.
  ///
  /// The encoder of the last encode is used again when it wrote a small document and the
  /// options haven't changed since (see ``JSONStreamEncoder/restart(capacity:)``): a small
  /// document then costs no new encoder, and the types it meets are known already. Encodes
  /// running at once each take their own.
  private func encoded<T: Encodable>(
    _ value: T, as type: Any.Type, reporting original: @autoclosure () -> Any
  ) throws -> Encoded {
    // The options are copied only for a new encoder: a kept one has them.
    let (spare, options, generation, hint) = state.withLock { state in
      defer { state.spare = nil }
      return (
        state.spare, state.spare == nil ? state.options : nil, state.generation,
        state.options.outputSizeHint
      )
    }
    let capacity = Self.firstCapacity(hint: hint)
    let encoder: JSONStreamEncoder
    if let spare {
      spare.restart(capacity: capacity)
      encoder = spare
    } else {
      encoder = JSONStreamEncoder(options: options ?? Options(), capacity: capacity)
    }
    let encoded: Encoded
    do {
      encoded = try Self.encoded(
        value, as: type, reporting: original(), with: encoder, finishing: false)
    } catch {
      encoder.finish()
      throw error
    }
    guard case .stream(let writer) = encoded else {
      encoder.finish()
      return encoded
    }
    noteOutputSize(writer.count, hint: hint)
    guard writer.count <= Self.largestDocumentKeepingTheEncoder else {
      encoder.finish()
      return encoded
    }
    // The document leaves the encoder's writer before another call may take the encoder: a
    // small one copied into its `Data` (a storage object and its bytes, none up to 14 bytes),
    // the writer keeping its buffer; a larger one in a writer of its own (an object, the
    // buffer handed over, and a new buffer for the kept writer), rather than copied.
    let document: Encoded =
      writer.count <= Self.largestCopiedDocument
      ? .data(writer.withBytes { Data($0) }) : .stream(writer.detached())
    let isKept = state.withLock { state in
      guard state.generation == generation, state.spare == nil else { return false }
      state.spare = encoder
      return true
    }
    if !isKept {
      encoder.finish()
    }
    return document
  }

  /// The options as they are now, for an encode that starts.
  var currentOptions: Options {
    state.withLock { $0.options }
  }

  /// Encodes `value` with `options`; errors about the top-level value name `type` and carry
  /// `original`.
  static func encoded<T: Encodable>(
    _ value: T, as type: Any.Type, reporting original: @autoclosure () -> Any, options: Options
  ) throws -> Encoded {
    let encoder = JSONStreamEncoder(
      options: options, capacity: firstCapacity(hint: options.outputSizeHint))
    return try encoded(value, as: type, reporting: original(), with: encoder)
  }

  /// Encodes `value` with `encoder`, or with Foundation's encoder when the stream can't write
  /// it; errors about the top-level value name `type` and carry `original`.
  ///
  /// `finishing` false leaves the encoder's kept runs and containers to the caller, which keeps
  /// the encoder for the next encode or calls ``JSONStreamEncoder/finish()``.
  private static func encoded<T: Encodable>(
    _ value: T, as type: Any.Type, reporting original: @autoclosure () -> Any,
    with encoder: JSONStreamEncoder,
    finishing: Bool = true
  ) throws -> Encoded {
    defer {
      if finishing { encoder.finish() }
    }
    do {
      return .stream(try encoder.encodeRoot(value, as: type, reporting: original()))
    } catch is JSONStreamEncoder.Restart {
      return .data(try Self.foundationEncoder(encoder.options).encode(value))
    }
  }

  /// A finished document: the stream's own buffer, or what Foundation's encoder made of a value
  /// the stream could not write.
  enum Encoded {
    case stream(JSONWriter)
    /// A finished document: what Foundation's encoder made, or a small document copied out of
    /// a kept encoder's writer.
    case data(Data)

    /// The document as `Data`, taking over the stream's buffer without copying it.
    var data: Data {
      switch self {
      case .stream(let output): output.takeData()
      case .data(let data): data
      }
    }

    /// Calls `body` with the document's bytes.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
      -> Result
    {
      switch self {
      case .stream(let output): try output.withBytes(body)
      case .data(let data):
        try data.withUnsafeBytes { try body($0.bindMemory(to: UInt8.self)) }
      }
    }

    /// The document as an array of bytes.
    var bytes: [UInt8] {
      switch self {
      case .stream(let output): output.array
      case .data(let data): Array(data)
      }
    }
  }

  /// A value with its configuration, encoded with `encode(to:configuration:)`.
  @available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
  private struct Configured<Value: EncodableWithConfiguration>: Encodable {
    let value: Value
    let configuration: Value.EncodingConfiguration

    func encode(to encoder: any Encoder) throws {
      try value.encode(to: encoder, configuration: configuration)
    }
  }

  /// Foundation's encoder with the same options, for values the stream can't write (see the
  /// type's documentation).
  static func foundationEncoder(_ options: Options) -> JSONEncoder {
    let encoder = JSONEncoder()
    var formatting: JSONEncoder.OutputFormatting = []
    if options.outputFormatting.contains(.prettyPrinted) { formatting.insert(.prettyPrinted) }
    if options.outputFormatting.contains(.sortedKeys) { formatting.insert(.sortedKeys) }
    if options.outputFormatting.contains(.withoutEscapingSlashes) {
      formatting.insert(.withoutEscapingSlashes)
    }
    encoder.outputFormatting = formatting
    switch options.dateEncodingStrategy {
    case .deferredToDate: encoder.dateEncodingStrategy = .deferredToDate
    case .secondsSince1970: encoder.dateEncodingStrategy = .secondsSince1970
    case .millisecondsSince1970: encoder.dateEncodingStrategy = .millisecondsSince1970
    case .iso8601: encoder.dateEncodingStrategy = .iso8601
    case .formatted(let formatter): encoder.dateEncodingStrategy = .formatted(formatter)
    case .custom(let closure): encoder.dateEncodingStrategy = .custom(closure)
    }
    switch options.dataEncodingStrategy {
    case .deferredToData: encoder.dataEncodingStrategy = .deferredToData
    case .base64: encoder.dataEncodingStrategy = .base64
    case .custom(let closure): encoder.dataEncodingStrategy = .custom(closure)
    }
    switch options.nonConformingFloatEncodingStrategy {
    case .throw: encoder.nonConformingFloatEncodingStrategy = .throw
    case .convertToString(let positive, let negative, let nan):
      encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: positive, negativeInfinity: negative, nan: nan)
    }
    switch options.keyEncodingStrategy {
    case .useDefaultKeys: encoder.keyEncodingStrategy = .useDefaultKeys
    case .convertToSnakeCase: encoder.keyEncodingStrategy = .convertToSnakeCase
    case .custom(let closure): encoder.keyEncodingStrategy = .custom(closure)
    }
    encoder.userInfo = options.userInfo
    return encoder
  }
}
