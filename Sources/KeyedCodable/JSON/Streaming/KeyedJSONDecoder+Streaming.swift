import Foundation

extension KeyedJSONDecoder {
  /// Reads the elements of the array at a key path of a JSON file one at a time, without
  /// reading the whole file into memory.
  ///
  /// ```swift
  /// let reader = try decoder.elementReader(for: Record.self, at: "data.items", contentsOf: url)
  /// while let record = try reader.read() {
  ///     try database.insert(record)
  /// }
  /// ```
  ///
  /// Memory holds one read of the file (256 KiB), the largest element and a batch of decoded
  /// bytes, whatever the file's size. The members before and after the array are validated as
  /// the file is read, and `read()` returns `nil` only once the whole document proved valid.
  /// Each element is decoded with the decoder's strategies and `userInfo`, and with `context`
  /// (or the context current when the reader is made).
  ///
  /// - Parameters:
  ///   - type: The type of the elements: any `Decodable` type, ``Keyedable`` or synthesized.
  ///   - keyPath: The key path of the array, read with `keyOptions`: `"data.items"`, `""` (the
  ///     default) for a top-level array, or with the lossy marker (`"data.* items"`) to drop
  ///     the elements that fail to decode and report them (see ``DecodingReport``).
  ///   - url: The file, in UTF-8.
  ///   - keyOptions: How `keyPath` is read; the default options by default.
  ///   - context: A context for every element; by default the one current when the reader is
  ///     made.
  /// - Returns: The reader.
  /// - Throws: The file's opening error; reading errors come from `read()`.
  public func elementReader<T: Decodable>(
    for type: T.Type, at keyPath: String = "", contentsOf url: URL,
    keyOptions: KeyOptions = .default, context: MappingContext? = nil
  ) throws -> JSONElementReader<T> {
    let handle = try FileHandle(forReadingFrom: url)
    return JSONElementReader(
      engine: streamEngine(keyPath: keyPath, keyOptions: keyOptions, context: context),
      source: JSONFileSource(handle: handle, closes: true))
  }

  /// Reads the elements of the array at a key path of a JSON document from a file handle (a
  /// file, a pipe, a socket) one at a time, reading the handle until it ends.
  ///
  /// See ``elementReader(for:at:contentsOf:keyOptions:context:)``.
  ///
  /// - Parameters:
  ///   - type: The type of the elements.
  ///   - keyPath: The key path of the array (`""` for a top-level array; `"data.* items"`
  ///     drops and reports the elements that fail to decode).
  ///   - handle: The handle to read from; it stays open.
  ///   - keyOptions: How `keyPath` is read.
  ///   - context: A context for every element.
  /// - Returns: The reader.
  public func elementReader<T: Decodable>(
    for type: T.Type, at keyPath: String = "", reading handle: FileHandle,
    keyOptions: KeyOptions = .default, context: MappingContext? = nil
  ) -> JSONElementReader<T> {
    JSONElementReader(
      engine: streamEngine(keyPath: keyPath, keyOptions: keyOptions, context: context),
      source: JSONFileSource(handle: handle, closes: false))
  }

  /// Reads the values of a JSON Lines file (`.jsonl`, NDJSON: one JSON value per line) one at a
  /// time, without reading the whole file into memory.
  ///
  /// ```swift
  /// let reader = try decoder.linesReader(for: Event.self, contentsOf: logURL)
  /// while let event = try reader.read() { handle(event) }
  /// ```
  ///
  /// Lines end with a line feed (a carriage return before it is whitespace); lines of only
  /// whitespace are skipped, and the last line needs no line feed. A line that is not exactly
  /// one JSON value throws `DecodingError.dataCorrupted` naming the line. The coding path of a
  /// value's errors starts with its index among the values (blank lines not counted), and the
  /// message names its line.
  ///
  /// - Parameters:
  ///   - type: The type of the values.
  ///   - url: The file, in UTF-8.
  ///   - lossy: Whether values that fail to decode are dropped and reported instead of thrown
  ///     (lines that aren't JSON always throw).
  ///   - context: A context for every value.
  /// - Returns: The reader.
  /// - Throws: The file's opening error; reading errors come from `read()`.
  public func linesReader<T: Decodable>(
    for type: T.Type, contentsOf url: URL, lossy: Bool = false, context: MappingContext? = nil
  ) throws -> JSONElementReader<T> {
    let handle = try FileHandle(forReadingFrom: url)
    return JSONElementReader(
      engine: streamEngine(keyPath: nil, lossy: lossy, context: context),
      source: JSONFileSource(handle: handle, closes: true))
  }

  /// Reads the values of JSON Lines from a file handle one at a time, until it ends.
  ///
  /// See ``linesReader(for:contentsOf:lossy:context:)``.
  ///
  /// - Parameters:
  ///   - type: The type of the values.
  ///   - handle: The handle to read from; it stays open.
  ///   - lossy: Whether values that fail to decode are dropped and reported.
  ///   - context: A context for every value.
  /// - Returns: The reader.
  public func linesReader<T: Decodable>(
    for type: T.Type, reading handle: FileHandle, lossy: Bool = false,
    context: MappingContext? = nil
  ) -> JSONElementReader<T> {
    JSONElementReader(
      engine: streamEngine(keyPath: nil, lossy: lossy, context: context),
      source: JSONFileSource(handle: handle, closes: false))
  }

  /// The elements of the array at a key path of a JSON document that arrives as an
  /// asynchronous sequence of bytes, decoded one at a time as the bytes arrive.
  ///
  /// ```swift
  /// let (bytes, _) = try await URLSession.shared.bytes(from: exportURL)
  /// for try await record in decoder.elements(of: Record.self, at: "data.items", from: bytes) {
  ///     try await store(record)
  /// }
  /// ```
  ///
  /// Memory doesn't grow with the document (see
  /// ``elementReader(for:at:contentsOf:keyOptions:context:)``). Cancelling the task stops the
  /// reading: the next element throws `CancellationError`.
  ///
  /// - Parameters:
  ///   - type: The type of the elements.
  ///   - keyPath: The key path of the array (`""` for a top-level array; `"data.* items"`
  ///     drops and reports the elements that fail to decode).
  ///   - bytes: The document's bytes, in UTF-8.
  ///   - keyOptions: How `keyPath` is read.
  ///   - context: A context for every element.
  /// - Returns: The elements, as an asynchronous sequence that can be iterated more than once
  ///   if `bytes` can.
  public func elements<T: Decodable, Bytes: AsyncSequence>(
    of type: T.Type, at keyPath: String = "", from bytes: Bytes,
    keyOptions: KeyOptions = .default, context: MappingContext? = nil
  ) -> JSONAsyncElements<T> where Bytes.Element == UInt8 {
    JSONAsyncElements {
      (
        self.streamEngine(keyPath: keyPath, keyOptions: keyOptions, context: context),
        JSONAsyncByteSource(bytes.makeAsyncIterator())
      )
    }
  }

  /// The elements of the array at a key path of a JSON document that arrives as an
  /// asynchronous sequence of chunks (`Data`, `[UInt8]`), decoded one at a time.
  ///
  /// See ``elements(of:at:from:keyOptions:context:)``.
  ///
  /// - Parameters:
  ///   - type: The type of the elements.
  ///   - keyPath: The key path of the array.
  ///   - chunks: The document's bytes, in UTF-8, in chunks of any size.
  ///   - keyOptions: How `keyPath` is read.
  ///   - context: A context for every element.
  /// - Returns: The elements, as an asynchronous sequence.
  public func elements<T: Decodable, Chunks: AsyncSequence>(
    of type: T.Type, at keyPath: String = "", fromChunks chunks: Chunks,
    keyOptions: KeyOptions = .default, context: MappingContext? = nil
  ) -> JSONAsyncElements<T> where Chunks.Element: DataProtocol {
    JSONAsyncElements {
      (
        self.streamEngine(keyPath: keyPath, keyOptions: keyOptions, context: context),
        JSONAsyncChunkSource(chunks.makeAsyncIterator())
      )
    }
  }

  /// The elements of the array at a key path of a JSON file, as an asynchronous sequence:
  /// ``elementReader(for:at:contentsOf:keyOptions:context:)`` for asynchronous code, which
  /// stops when its task is cancelled.
  ///
  /// - Parameters:
  ///   - type: The type of the elements.
  ///   - keyPath: The key path of the array.
  ///   - url: The file, in UTF-8.
  ///   - keyOptions: How `keyPath` is read.
  ///   - context: A context for every element.
  /// - Returns: The elements; the file is opened when the iteration starts, and an error
  ///   opening it is thrown by the first element.
  public func elements<T: Decodable>(
    of type: T.Type, at keyPath: String = "", contentsOf url: URL,
    keyOptions: KeyOptions = .default, context: MappingContext? = nil
  ) -> JSONAsyncElements<T> {
    JSONAsyncElements {
      (
        self.streamEngine(keyPath: keyPath, keyOptions: keyOptions, context: context),
        JSONAsyncFileSource(url: url)
      )
    }
  }

  /// The elements of the array at a key path of a JSON document read from a file handle (a
  /// file, a pipe, a socket), as an asynchronous sequence that stops when its task is cancelled.
  ///
  /// - Parameters:
  ///   - type: The type of the elements.
  ///   - keyPath: The key path of the array.
  ///   - handle: The handle to read from, until it ends; it stays open. Iterating again goes
  ///     on from where the handle is.
  ///   - keyOptions: How `keyPath` is read.
  ///   - context: A context for every element.
  /// - Returns: The elements.
  public func elements<T: Decodable>(
    of type: T.Type, at keyPath: String = "", reading handle: FileHandle,
    keyOptions: KeyOptions = .default, context: MappingContext? = nil
  ) -> JSONAsyncElements<T> {
    JSONAsyncElements {
      (
        self.streamEngine(keyPath: keyPath, keyOptions: keyOptions, context: context),
        JSONAsyncFileSource(handle: handle)
      )
    }
  }

  /// The values of JSON Lines that arrive as an asynchronous sequence of bytes, decoded one at
  /// a time as the lines arrive.
  ///
  /// See ``linesReader(for:contentsOf:lossy:context:)`` for the format and the errors.
  ///
  /// - Parameters:
  ///   - type: The type of the values.
  ///   - bytes: The bytes, in UTF-8.
  ///   - lossy: Whether values that fail to decode are dropped and reported.
  ///   - context: A context for every value.
  /// - Returns: The values, as an asynchronous sequence.
  public func lines<T: Decodable, Bytes: AsyncSequence>(
    of type: T.Type, from bytes: Bytes, lossy: Bool = false, context: MappingContext? = nil
  ) -> JSONAsyncElements<T> where Bytes.Element == UInt8 {
    JSONAsyncElements {
      (
        self.streamEngine(keyPath: nil, lossy: lossy, context: context),
        JSONAsyncByteSource(bytes.makeAsyncIterator())
      )
    }
  }

  /// The values of JSON Lines that arrive as an asynchronous sequence of chunks (`Data`,
  /// `[UInt8]`), decoded one at a time.
  ///
  /// - Parameters:
  ///   - type: The type of the values.
  ///   - chunks: The bytes, in UTF-8, in chunks of any size.
  ///   - lossy: Whether values that fail to decode are dropped and reported.
  ///   - context: A context for every value.
  /// - Returns: The values, as an asynchronous sequence.
  public func lines<T: Decodable, Chunks: AsyncSequence>(
    of type: T.Type, fromChunks chunks: Chunks, lossy: Bool = false,
    context: MappingContext? = nil
  ) -> JSONAsyncElements<T> where Chunks.Element: DataProtocol {
    JSONAsyncElements {
      (
        self.streamEngine(keyPath: nil, lossy: lossy, context: context),
        JSONAsyncChunkSource(chunks.makeAsyncIterator())
      )
    }
  }

  /// The values of JSON Lines read from a file handle, as an asynchronous sequence that stops
  /// when its task is cancelled.
  ///
  /// - Parameters:
  ///   - type: The type of the values.
  ///   - handle: The handle to read from, until it ends; it stays open.
  ///   - lossy: Whether values that fail to decode are dropped and reported.
  ///   - context: A context for every value.
  /// - Returns: The values.
  public func lines<T: Decodable>(
    of type: T.Type, reading handle: FileHandle, lossy: Bool = false,
    context: MappingContext? = nil
  ) -> JSONAsyncElements<T> {
    JSONAsyncElements {
      (
        self.streamEngine(keyPath: nil, lossy: lossy, context: context),
        JSONAsyncFileSource(handle: handle)
      )
    }
  }

  /// The values of a JSON Lines file, as an asynchronous sequence.
  ///
  /// - Parameters:
  ///   - type: The type of the values.
  ///   - url: The file, in UTF-8.
  ///   - lossy: Whether values that fail to decode are dropped and reported.
  ///   - context: A context for every value.
  /// - Returns: The values; the file is opened when the iteration starts.
  public func lines<T: Decodable>(
    of type: T.Type, contentsOf url: URL, lossy: Bool = false, context: MappingContext? = nil
  ) -> JSONAsyncElements<T> {
    JSONAsyncElements {
      (
        self.streamEngine(keyPath: nil, lossy: lossy, context: context),
        JSONAsyncFileSource(url: url)
      )
    }
  }

  /// An engine with this decoder's options as they are now.
  private func streamEngine(
    keyPath: String?, keyOptions: KeyOptions = .default, lossy: Bool = false,
    context: MappingContext?
  ) -> JSONStreamEngine {
    JSONStreamEngine(
      keyPath: keyPath, keyOptions: keyOptions, lossy: lossy, options: currentOptions,
      context: context)
  }
}

/// Reads the values of a streamed JSON array or of JSON Lines one at a time, from a file or a
/// file handle: made by ``KeyedJSONDecoder/elementReader(for:at:contentsOf:keyOptions:context:)``
/// and ``KeyedJSONDecoder/linesReader(for:contentsOf:lossy:context:)``.
///
/// Pull values with ``read()`` until it returns `nil`:
///
/// ```swift
/// while let record = try reader.read() { process(record) }
/// ```
///
/// or iterate it as a `Sequence` of results, which ends after the first failure:
///
/// ```swift
/// for result in reader {
///     let record = try result.get()
/// }
/// ```
///
/// A reader is used by one task at a time. After it throws, it has no more values.
public final class JSONElementReader<Value: Decodable> {
  private let engine: JSONStreamEngine
  private let source: JSONFileSource

  init(engine: JSONStreamEngine, source: JSONFileSource) {
    self.engine = engine
    self.source = source
  }

  /// The next value, or `nil` after the last one, once the whole document proved valid.
  ///
  /// - Returns: The value, or `nil` at the end.
  /// - Throws: `DecodingError.dataCorrupted` for bytes that are not valid JSON, with the line
  ///   and column (and the element's index in the coding path inside the array); the key
  ///   path's `keyNotFound`, `typeMismatch` or `valueNotFound`; a value's decoding errors with
  ///   its index in the coding path and its line in the message; the file's reading errors.
  public func read() throws -> Value? {
    while true {
      switch try engine.next(Value.self) {
      case .value(let value):
        return value
      case .end:
        return nil
      case .needsInput:
        try source.read(into: engine)
      }
    }
  }
}

extension JSONElementReader: Sequence {
  /// Iterates the reader's values as results: each value, then the failure if there is one.
  public struct Iterator: IteratorProtocol {
    let reader: JSONElementReader
    var failed = false

    /// The next value, or the error that stopped the reading; `nil` at the end or after an
    /// error.
    ///
    /// - Returns: The next result, or `nil`.
    public mutating func next() -> Result<Value, any Error>? {
      guard !failed else { return nil }
      do {
        guard let value = try reader.read() else { return nil }
        return .success(value)
      } catch {
        failed = true
        return .failure(error)
      }
    }
  }

  /// An iterator over the reader's values, as results.
  ///
  /// - Returns: The iterator; iterators of one reader share its position.
  public func makeIterator() -> Iterator {
    Iterator(reader: self)
  }
}

/// The values of a streamed JSON array or of JSON Lines, decoded one at a time as their bytes
/// arrive: made by ``KeyedJSONDecoder/elements(of:at:from:keyOptions:context:)``
/// and ``KeyedJSONDecoder/lines(of:from:lossy:context:)``.
///
/// ```swift
/// for try await record in decoder.elements(of: Record.self, at: "data.items", fromChunks: chunks) {
///     try await store(record)
/// }
/// ```
///
/// Each iteration reads the source from its start. Cancelling the iterating task stops the
/// reading with `CancellationError`.
public struct JSONAsyncElements<Value: Decodable>: AsyncSequence {
  /// The element type: the decoded values.
  public typealias Element = Value

  private let start: () -> (JSONStreamEngine, any JSONAsyncSource)

  init(_ start: @escaping () -> (JSONStreamEngine, any JSONAsyncSource)) {
    self.start = start
  }

  /// Decodes the values one at a time.
  public struct AsyncIterator: AsyncIteratorProtocol {
    private let engine: JSONStreamEngine
    private let source: any JSONAsyncSource

    init(engine: JSONStreamEngine, source: any JSONAsyncSource) {
      self.engine = engine
      self.source = source
    }

    /// The next value, or `nil` after the last one, once the whole document proved valid.
    ///
    /// - Returns: The value, or `nil` at the end.
    /// - Throws: The errors of ``JSONElementReader/read()``, and `CancellationError` when the
    ///   task is cancelled.
    public mutating func next() async throws -> Value? {
      while true {
        switch try engine.next(Value.self) {
        case .value(let value):
          return value
        case .end:
          return nil
        case .needsInput:
          try Task.checkCancellation()
          try await source.read(into: engine)
          // A source may end early when the task is cancelled (as `AsyncStream` does).
          try Task.checkCancellation()
        }
      }
    }
  }

  /// Starts reading the source.
  ///
  /// - Returns: The iterator.
  public func makeAsyncIterator() -> AsyncIterator {
    let (engine, source) = start()
    return AsyncIterator(engine: engine, source: source)
  }
}

// MARK: - Sources

/// Reads a file handle's bytes into an engine, with the system's `read`.
final class JSONFileSource {
  private let handle: FileHandle
  private let closes: Bool

  init(handle: FileHandle, closes: Bool) {
    self.handle = handle
    self.closes = closes
  }

  deinit {
    if closes {
      try? handle.close()
    }
  }

  /// Reads the next bytes into `engine`, or tells it the input ended.
  func read(into engine: JSONStreamEngine) throws {
    let space = engine.space(atLeast: JSONStreamEngine.readSize)
    guard let base = space.baseAddress else { return }
    while true {
      let count = Foundation.read(handle.fileDescriptor, base, Swift.min(space.count, 1 << 30))
      if count > 0 {
        engine.didWrite(count)
        return
      }
      if count == 0 {
        engine.endInput()
        return
      }
      guard errno == EINTR else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
      }
    }
  }
}

/// Where an asynchronous iteration gets its bytes.
protocol JSONAsyncSource: AnyObject {
  /// Puts the next bytes into `engine`, or tells it the input ended.
  func read(into engine: JSONStreamEngine) async throws
}

/// Bytes from an asynchronous sequence of bytes, taken up to a read's size at a time.
final class JSONAsyncByteSource<Iterator: AsyncIteratorProtocol>: JSONAsyncSource
where Iterator.Element == UInt8 {
  private var iterator: Iterator

  init(_ iterator: Iterator) {
    self.iterator = iterator
  }

  func read(into engine: JSONStreamEngine) async throws {
    let space = engine.space(atLeast: 64 * 1024)
    var written = 0
    let limit = Swift.min(space.count, 64 * 1024)
    while written < limit {
      guard let byte = try await iterator.next() else {
        engine.didWrite(written)
        engine.endInput()
        return
      }
      space[written] = byte
      written &+= 1
    }
    engine.didWrite(written)
  }
}

/// Bytes from an asynchronous sequence of chunks.
final class JSONAsyncChunkSource<Iterator: AsyncIteratorProtocol>: JSONAsyncSource
where Iterator.Element: DataProtocol {
  private var iterator: Iterator

  init(_ iterator: Iterator) {
    self.iterator = iterator
  }

  func read(into engine: JSONStreamEngine) async throws {
    guard let chunk = try await iterator.next() else {
      engine.endInput()
      return
    }
    for region in chunk.regions {
      region.withUnsafeBytes { engine.append($0) }
    }
  }
}

/// Bytes from a file, opened on the first read, or from a file handle.
final class JSONAsyncFileSource: JSONAsyncSource {
  private let url: URL?
  private var file: JSONFileSource?

  init(url: URL) {
    self.url = url
  }

  init(handle: FileHandle) {
    url = nil
    file = JSONFileSource(handle: handle, closes: false)
  }

  func read(into engine: JSONStreamEngine) async throws {
    if file == nil, let url {
      file = JSONFileSource(handle: try FileHandle(forReadingFrom: url), closes: true)
    }
    try file?.read(into: engine)
  }
}
