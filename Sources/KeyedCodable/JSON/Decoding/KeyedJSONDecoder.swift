import Foundation

/// Decodes values from JSON: a drop-in replacement for Foundation's `JSONDecoder`, several times
/// faster, and fastest for ``Keyedable`` types whose key paths nest.
///
/// Use it where you use `JSONDecoder`; the API, the strategies, the values, the errors and their
/// coding paths are the same:
///
/// ```swift
/// let decoder = KeyedJSONDecoder()
/// decoder.dateDecodingStrategy = .iso8601
/// let user = try decoder.decode(User.self, from: data)
/// ```
///
/// It reads any `Decodable` type, including types whose conformance the compiler writes. For a
/// ``Keyedable`` type, the mappings of `map(map:)` read straight from the parsed document: a key
/// path is found by comparing bytes, nested objects need no containers, and a `String` is made
/// only for a value that is read. See <doc:JSONCoder> for what differs from Foundation.
///
/// A decoder can be shared: any number of tasks may decode with it at once. Its properties are
/// read when a decode starts. Keep one for many decodes: it hands what one decode learned about
/// the types it read to the next decode with the same options, so that small documents cost
/// less than with a new decoder each.
public final class KeyedJSONDecoder: @unchecked Sendable {
  // @unchecked: the options are only read and written under `state`'s lock, and a decode works
  // on its own copy of them.

  /// How to decode a `Date`.
  ///
  /// Whatever the strategy, `null` where a `Date` is expected throws
  /// `DecodingError.valueNotFound` before the strategy runs, as in Foundation.
  public enum DateDecodingStrategy {
    /// Decode the `Date` as its own `Codable` implementation does: seconds since January 1, 2001.
    case deferredToDate
    /// Decode the `Date` from a number of seconds since January 1, 1970.
    case secondsSince1970
    /// Decode the `Date` from a number of milliseconds since January 1, 1970.
    case millisecondsSince1970
    /// Decode the `Date` from an ISO 8601 string with a time zone (`1985-04-12T23:20:50Z`), as
    /// Foundation's `Date.ISO8601FormatStyle` reads it: with or without fractional seconds (up
    /// to nine digits, `1985-04-12T23:20:50.52Z`), second 60 as the first second of the next
    /// minute, offsets as `Z`, `±HH:MM`, `±HHMM` or `±HH`, no leading whitespace.
    ///
    /// The common form is read by KeyedCodable's own date engine, without allocating, to the
    /// same `Date` bit for bit; any other text is handed to Foundation, so what Foundation reads
    /// leniently (hour 24, February 30, text after the zone) and dates before the Gregorian
    /// reform (which it reads in the Julian calendar) give Foundation's result.
    case iso8601
    /// Decode the `Date` from a string read with the given formatter.
    case formatted(DateFormatter)
    /// Decode the `Date` with a closure, given a decoder for the value.
    case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
  }

  /// How to decode `Data`.
  ///
  /// Whatever the strategy, `null` where `Data` is expected throws
  /// `DecodingError.valueNotFound` before the strategy runs, as in Foundation.
  public enum DataDecodingStrategy {
    /// Decode the `Data` as its own `Codable` implementation does: an array of bytes.
    case deferredToData
    /// Decode the `Data` from a Base64 string.
    case base64
    /// Decode the `Data` with a closure, given a decoder for the value.
    case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
  }

  /// How to read non-conforming floating-point numbers (infinities and NaN), which JSON can't
  /// express as numbers.
  public enum NonConformingFloatDecodingStrategy: Sendable {
    /// Throw when such a value is met (the default).
    case `throw`
    /// Read these exact strings as positive infinity, negative infinity and NaN.
    case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  /// How to match the member names of JSON objects with coding keys.
  public enum KeyDecodingStrategy: Sendable {
    /// Use each member name as it is (the default).
    case useDefaultKeys
    /// Convert `snake_case` member names to `camelCase` before matching, as Foundation does:
    /// `first_name` matches `firstName`; leading and trailing underscores are kept, and the
    /// words after the first are capitalized as `String.capitalized` capitalizes them
    /// (`address_2nd_line` matches `address2NdLine`, `a_b-c` matches `aB-C`).
    case convertFromSnakeCase
    /// Convert each member name with a closure, given the coding path of the member (the last
    /// key is the member's name).
    case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
  }

  /// Every option of a decode, read once when it starts.
  struct Options {
    var dateDecodingStrategy = DateDecodingStrategy.deferredToDate
    var dataDecodingStrategy = DataDecodingStrategy.base64
    var nonConformingFloatDecodingStrategy = NonConformingFloatDecodingStrategy.throw
    var keyDecodingStrategy = KeyDecodingStrategy.useDefaultKeys
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
  }

  /// The options of a decode, and what follows from them, made once for all the decodes with
  /// these options: a decode retains it rather than copying the options (five strategies, some
  /// with closures) and converting the user info to the `[CodingUserInfoKey: Any]` a `Decoder`
  /// has (a dictionary walk and metadata lookups on every decode).
  final class Settings {
    let options: Options
    let userInfo: [CodingUserInfoKey: Any]

    init(_ options: Options) {
      self.options = options
      userInfo = options.userInfo
    }
  }

  /// The options, and what the last decode learned.
  private struct State {
    var options = Options()
    /// ``options`` as a decode takes them; `nil` when they changed since the last decode.
    var settings: Settings?
    /// Counts the changes of ``options``: what a decode made before the last one learned isn't
    /// kept.
    var generation = 0
    /// How the types met are decoded and the plans of the models met, from the last decode
    /// (see ``JSONValueDecoder/Learned``).
    var learned: JSONValueDecoder.Learned?
    /// The decoder of the last decode, kept for the next when nothing else referred to it and its
    /// document was small (see ``decoding(_:_:)``); it holds what it learned.
    var kept: JSONValueDecoder?
  }

  private let state = Locked(State())

  /// Creates a decoder with the default strategies.
  public init() {}

  /// How dates are decoded; `.deferredToDate` by default.
  public var dateDecodingStrategy: DateDecodingStrategy {
    get { state.withLock { $0.options.dateDecodingStrategy } }
    set { update { $0.dateDecodingStrategy = newValue } }
  }

  /// How `Data` is decoded; `.base64` by default.
  public var dataDecodingStrategy: DataDecodingStrategy {
    get { state.withLock { $0.options.dataDecodingStrategy } }
    set { update { $0.dataDecodingStrategy = newValue } }
  }

  /// How infinities and NaN are read; `.throw` by default.
  public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
    get { state.withLock { $0.options.nonConformingFloatDecodingStrategy } }
    set { update { $0.nonConformingFloatDecodingStrategy = newValue } }
  }

  /// How member names are matched with coding keys; `.useDefaultKeys` by default.
  public var keyDecodingStrategy: KeyDecodingStrategy {
    get { state.withLock { $0.options.keyDecodingStrategy } }
    set { update { $0.keyDecodingStrategy = newValue } }
  }

  /// Context for the types being decoded, available as `userInfo` of every decoder they get.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { state.withLock { $0.options.userInfo } }
    set { update { $0.userInfo = newValue } }
  }

  /// Decodes a value of the given type from a JSON document.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - data: The document, in UTF-8 (UTF-16 and UTF-32 are recognized too).
  /// - Returns: The decoded value.
  /// - Throws: `DecodingError.dataCorrupted` at the root when `data` is not valid JSON, and the
  ///   value's own `DecodingError`s, with full coding paths.
  public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try decoding(data) { decoder in try decoder.decodeRoot(T.self) }
  }

  /// Decodes a value of the given type from the bytes of a JSON document.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - bytes: The document, in UTF-8 (UTF-16 and UTF-32 are recognized too).
  /// - Returns: The decoded value.
  /// - Throws: `DecodingError.dataCorrupted` at the root when `bytes` is not valid JSON, and the
  ///   value's own `DecodingError`s, with full coding paths.
  public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    try decoding(bytes) { decoder in try decoder.decodeRoot(T.self) }
  }

  /// Decodes a value that needs a configuration, as Foundation's `JSONDecoder` does.
  ///
  /// ```swift
  /// let user = try KeyedJSONDecoder().decode(User.self, from: data, configuration: favorites)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to decode, a `DecodableWithConfiguration` type.
  ///   - data: The document, in UTF-8 (UTF-16 and UTF-32 are recognized too).
  ///   - configuration: The configuration handed to `init(from:configuration:)`.
  /// - Returns: The decoded value.
  /// - Throws: The errors of `decode(_:from:)`: `dataCorrupted` at the root for invalid JSON, and
  ///   the value's own `DecodingError`s, with full coding paths.
  @available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
  public func decode<T: DecodableWithConfiguration>(
    _ type: T.Type, from data: Data, configuration: T.DecodingConfiguration
  ) throws -> T {
    try decoding(data) { decoder in try T(from: decoder, configuration: configuration) }
  }

  /// Decodes a value whose configuration a provider type supplies, as Foundation's
  /// `JSONDecoder` does.
  ///
  /// - Parameters:
  ///   - type: The type to decode, a `DecodableWithConfiguration` type.
  ///   - data: The document, in UTF-8 (UTF-16 and UTF-32 are recognized too).
  ///   - configuration: The type that provides the configuration.
  /// - Returns: The decoded value.
  /// - Throws: The errors of `decode(_:from:)`: `dataCorrupted` at the root for invalid JSON, and
  ///   the value's own `DecodingError`s, with full coding paths.
  @available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
  public func decode<T, C>(_ type: T.Type, from data: Data, configuration: C.Type) throws -> T
  where
    T: DecodableWithConfiguration, C: DecodingConfigurationProviding,
    T.DecodingConfiguration == C.DecodingConfiguration
  {
    try decode(type, from: data, configuration: C.decodingConfiguration)
  }

  /// The options as they are now, for a decode that starts.
  var currentOptions: Options {
    state.withLock { $0.options }
  }

  /// Changes the options, and forgets what decodes with the old ones learned.
  private func update(_ change: (inout Options) -> Void) {
    state.withLock { state in
      change(&state.options)
      state.settings = nil
      state.generation &+= 1
      state.learned = nil
      state.kept = nil
    }
  }

  /// Parses `input` and runs `body` with a decoder at the document's root, with this decoder's
  /// options and what the last decode learned; lets go of what the decoder kept for reuse when
  /// `body` returns, and keeps what it learned for the next decode.
  ///
  /// A small document's decode costs little more than making the objects it needs: the decoder,
  /// its document's bytes and tape, and a run for a `Keyedable` model. So the decoder of the
  /// last decode is kept when its document was small (see ``JSONDocument/isReusable``) and
  /// nothing else refers to it (a type may keep the `Decoder` it was given): the next decode
  /// parses its document into the same storage and reuses the decoder, its runs and what it
  /// learned. Taken while a decode runs, so decodes running at once (or one inside another)
  /// don't share it.
  private func decoding<T>(
    _ input: some ContiguousBytes, _ body: (JSONValueDecoder) throws -> T
  ) throws -> T {
    var (settings, generation, learned, kept) = state.withLock { state in
      defer {
        state.learned = nil
        state.kept = nil
      }
      if let settings = state.settings {
        return (settings, state.generation, state.learned, state.kept)
      }
      let settings = Settings(state.options)
      state.settings = settings
      return (settings, state.generation, state.learned, state.kept)
    }
    var decoder: JSONValueDecoder
    // Taken out of `kept`, so that the decoder is the only reference to it when the decode ends.
    if let reused = kept.take() {
      do {
        try input.withUnsafeBytes { try Self.parse($0, into: reused.document) }
      } catch {
        // The next document is parsed into the same storage again.
        state.withLock { state in
          if state.generation == generation, state.kept == nil { state.kept = reused }
        }
        throw error
      }
      reused.restart()
      decoder = reused
    } else {
      let document = try input.withUnsafeBytes { try Self.parse($0) }
      decoder = JSONValueDecoder(document: document, settings: settings, learned: learned)
    }
    defer {
      decoder.park()
      if decoder.document.isReusable, isKnownUniquelyReferenced(&decoder) {
        let kept = decoder
        state.withLock { state in
          if state.generation == generation { state.kept = kept }
        }
      } else {
        decoder.finish()
        let learned = decoder.learned
        state.withLock { state in
          if state.generation == generation { state.learned = learned }
        }
      }
    }
    return try body(decoder)
  }

  /// Parses a document, reporting invalid JSON as Foundation does.
  static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSONDocument {
    do {
      return try JSONDocument(parsing: bytes)
    } catch {
      throw invalidJSON(error)
    }
  }

  /// Parses a document into `document`'s storage (see ``JSONDocument/reparse(_:)``), reporting
  /// invalid JSON as Foundation does.
  static func parse(_ bytes: UnsafeRawBufferPointer, into document: JSONDocument) throws {
    do {
      try document.reparse(bytes)
    } catch {
      throw invalidJSON(error)
    }
  }

  /// Foundation's error for a document that is not valid JSON.
  private static func invalidJSON(_ error: JSONSyntaxError) -> DecodingError {
    DecodingError.dataCorrupted(
      .init(
        codingPath: [], debugDescription: "The given data was not valid JSON.",
        underlyingError: error))
  }
}
