import Foundation

extension KeyedJSONEncoder {
  /// Writes a sequence of values as a JSON array to a file handle as the values come, without
  /// building the document in memory; optionally at a key path inside an envelope of objects.
  ///
  /// ```swift
  /// try encoder.encodeArray(records, at: "data.items", to: handle)
  /// // {"data":{"items":[{...},{...}]}}
  /// ```
  ///
  /// The values are encoded in batches (a few hundred at a time, fewer when they are large) and
  /// each batch is written as soon as it is encoded, so memory holds one batch. The output is
  /// what ``encode(_:)`` writes for the whole document, with the encoder's formatting and
  /// strategies.
  ///
  /// - Parameters:
  ///   - values: The values, in order: any sequence, read once.
  ///   - keyPath: Where the array goes: `"data.items"` writes it as member `items` of member
  ///     `data` of the top-level object (names converted by the key encoding strategy); `""`
  ///     (the default) writes a top-level array.
  ///   - handle: Where to write; it stays open.
  ///   - keyOptions: How `keyPath` is read.
  /// - Throws: A value's `EncodingError`, with the key path and the value's index in its coding
  ///   path; the handle's writing errors. What was written before the error stays written.
  public func encodeArray<Values: Sequence>(
    _ values: Values, at keyPath: String = "", to handle: FileHandle,
    keyOptions: KeyOptions = .default
  ) throws where Values.Element: Encodable {
    let writer = JSONStreamWriter(
      options: currentOptions, keyPath: keyPath, keyOptions: keyOptions,
      output: JSONFileOutput(handle: handle))
    try writer.writeAll(values)
  }

  /// Writes an asynchronous sequence of values as a JSON array to a file handle as the values
  /// arrive; optionally at a key path inside an envelope of objects.
  ///
  /// See `encodeArray(_:at:to:keyOptions:)`. Each value is written as soon
  /// as it arrives, so a reader of the handle sees it at once; cancelling the task stops the
  /// writing with `CancellationError`, leaving an unfinished document.
  ///
  /// - Parameters:
  ///   - values: The values, in order.
  ///   - keyPath: Where the array goes (`""` for a top-level array).
  ///   - handle: Where to write; it stays open.
  ///   - keyOptions: How `keyPath` is read.
  /// - Throws: A value's `EncodingError` with its index in the coding path, the sequence's
  ///   errors, the handle's writing errors, `CancellationError`.
  public func encodeArray<Values: AsyncSequence>(
    _ values: Values, at keyPath: String = "", to handle: FileHandle,
    keyOptions: KeyOptions = .default
  ) async throws where Values.Element: Encodable {
    let writer = JSONStreamWriter(
      options: currentOptions, keyPath: keyPath, keyOptions: keyOptions,
      output: JSONFileOutput(handle: handle))
    try await writer.writeAll(values)
  }

  /// Writes a sequence of values as JSON Lines (one compact value per line, each line ending
  /// with a line feed) to a file handle as the values come.
  ///
  /// ```swift
  /// try encoder.encodeLines(events, to: logHandle)
  /// ```
  ///
  /// Values are always compact (`.prettyPrinted` is ignored); the other formatting options
  /// and the strategies apply. Lines are written in batches, as in
  /// `encodeArray(_:at:to:keyOptions:)`.
  ///
  /// - Parameters:
  ///   - values: The values, in order.
  ///   - handle: Where to write; it stays open.
  /// - Throws: A value's `EncodingError`, with its index first in its coding path; the
  ///   handle's writing errors. The lines written before the error stay written.
  public func encodeLines<Values: Sequence>(_ values: Values, to handle: FileHandle) throws
  where Values.Element: Encodable {
    let writer = JSONStreamWriter(
      options: currentOptions, keyPath: nil, keyOptions: .default,
      output: JSONFileOutput(handle: handle))
    try writer.writeAll(values)
  }

  /// Writes an asynchronous sequence of values as JSON Lines to a file handle as they arrive:
  /// each line is written as soon as its value arrives.
  ///
  /// See `encodeLines(_:to:)`.
  ///
  /// - Parameters:
  ///   - values: The values, in order.
  ///   - handle: Where to write; it stays open.
  /// - Throws: A value's `EncodingError` with its index in the coding path, the sequence's
  ///   errors, the handle's writing errors, `CancellationError`.
  public func encodeLines<Values: AsyncSequence>(_ values: Values, to handle: FileHandle)
    async throws where Values.Element: Encodable
  {
    let writer = JSONStreamWriter(
      options: currentOptions, keyPath: nil, keyOptions: .default,
      output: JSONFileOutput(handle: handle))
    try await writer.writeAll(values)
  }
}

/// Where a ``JSONStreamWriter`` puts its bytes.
protocol JSONStreamOutput {
  /// Writes all of `bytes`.
  func write(_ bytes: UnsafeBufferPointer<UInt8>) throws
}

/// Writes to a file handle with the system's `write`.
struct JSONFileOutput: JSONStreamOutput {
  let handle: FileHandle

  func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    guard var base = bytes.baseAddress else { return }
    var left = bytes.count
    while left > 0 {
      let written = Foundation.write(handle.fileDescriptor, base, Swift.min(left, 1 << 30))
      if written > 0 {
        base += written
        left &-= written
      } else if written < 0, errno == EINTR {
        continue
      } else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
      }
    }
  }
}

/// Writes batches of values as the elements of one JSON array (inside an envelope of objects
/// for a key path) or as JSON Lines.
///
/// Each batch is encoded as an array by ``KeyedJSONEncoder``'s usual machinery; its elements are
/// then taken out of the array's brackets: for an array, re-indented to the array's depth when
/// pretty-printed; for JSON Lines, split at the array's top-level commas.
final class JSONStreamWriter<Output: JSONStreamOutput> {
  private var options: KeyedJSONEncoder.Options
  /// The key path's segments as written (after the key encoding strategy); `nil` for JSON
  /// Lines.
  private let names: [String]?
  private let keys: [any CodingKey]
  private let output: Output
  private let writer: JSONWriter
  private let prettyPrinted: Bool
  /// The values written so far.
  private var written = 0
  /// How many values the next batch should hold: fewer when values are large.
  private(set) var batchSize = 128
  /// The bytes the buffer may hold before it is written out.
  private static var flushSize: Int { 256 * 1024 }

  init(
    options: KeyedJSONEncoder.Options, keyPath: String?, keyOptions: KeyOptions, output: Output
  ) {
    var options = options
    self.output = output
    if let keyPath {
      let parsed = ParsedKey(keyPath, options: keyOptions)
      let segments = parsed.isFlat ? [] : parsed.lossySegments ?? parsed.segments
      var keys: [any CodingKey] = []
      var names: [String] = []
      for segment in segments {
        let key = PathKey(segment)
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: names.append(segment)
        case .convertToSnakeCase: names.append(JSONKeyConversion.toSnakeCase(segment))
        case .custom(let convert): names.append(convert(keys + [key]).stringValue)
        }
        keys.append(key)
      }
      self.names = names
      self.keys = keys
    } else {
      options.outputFormatting.remove(.prettyPrinted)
      names = nil
      keys = []
    }
    self.options = options
    prettyPrinted = options.outputFormatting.contains(.prettyPrinted)
    writer = JSONWriter(
      prettyPrinted: prettyPrinted,
      escapesSlashes: !options.outputFormatting.contains(.withoutEscapingSlashes),
      capacity: Self.flushSize + 64 * 1024)
    guard let names else { return }
    for name in names {
      writer.open(UInt8(ascii: "{"))
      writer.separate(count: 0)
      writer.name(name)
    }
    writer.open(UInt8(ascii: "["))
  }

  /// Encodes and writes `values`.
  func write<Values: Collection>(_ values: Values) throws where Values.Element: Encodable {
    guard !values.isEmpty else { return }
    let encoded: KeyedJSONEncoder.Encoded
    do {
      let array = Array(values)
      encoded = try KeyedJSONEncoder.encoded(
        array, as: [Values.Element].self, reporting: array, options: options)
    } catch let error as EncodingError {
      throw relocated(error)
    }
    let size = encoded.withBytes { bytes in
      if names == nil {
        appendLines(bytes)
      } else {
        appendElements(bytes)
      }
      return bytes.count
    }
    written &+= values.count
    if size > 1024 * 1024, batchSize > 1 {
      batchSize /= 2
    } else if size < 256 * 1024, batchSize < 1024 {
      batchSize &*= 2
    }
    if writer.count >= Self.flushSize {
      try flush()
    }
  }

  /// Encodes and writes all of `values` in batches, then finishes the document.
  func writeAll<Values: Sequence>(_ values: Values) throws where Values.Element: Encodable {
    var batch: [Values.Element] = []
    batch.reserveCapacity(batchSize)
    for value in values {
      batch.append(value)
      if batch.count >= batchSize {
        try write(batch)
        batch.removeAll(keepingCapacity: true)
      }
    }
    try write(batch)
    try finish()
  }

  /// Encodes and writes each of `values` as it arrives, then finishes the document; stops with
  /// `CancellationError` when the task is cancelled.
  func writeAll<Values: AsyncSequence>(_ values: Values) async throws
  where Values.Element: Encodable {
    for try await value in values {
      try Task.checkCancellation()
      try write(CollectionOfOne(value))
      try flush()
    }
    try Task.checkCancellation()
    try finish()
  }

  /// Closes the array and its envelope, and writes what is left.
  func finish() throws {
    if let names {
      writer.close(UInt8(ascii: "]"), count: written)
      for _ in names {
        writer.close(UInt8(ascii: "}"), count: 1)
      }
    }
    try flush()
  }

  /// Writes out the bytes encoded so far.
  func flush() throws {
    guard writer.count > 0 else { return }
    try writer.withBytes { try output.write($0) }
    writer.removeAll()
  }

  /// Appends the elements of the array `bytes` after the ones written so far.
  private func appendElements(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count >= 2 else { return }
    if written > 0 {
      writer.append(UInt8(ascii: ","))
    }
    guard prettyPrinted else {
      writer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[1..<(bytes.count &- 1)]))
      return
    }
    // `[\n  a,\n  b\n]`: the lines between the brackets, indented by the envelope's depth.
    let inner = bytes[2..<Swift.max(2, bytes.count &- 2)]
    let indent = 2 &* (names?.count ?? 0)
    writer.append(0x0A)
    var lineStart = inner.startIndex
    var index = inner.startIndex
    while index <= inner.endIndex {
      if index == inner.endIndex || inner[index] == 0x0A {
        for _ in 0..<indent {
          writer.append(0x20)
        }
        writer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<index]))
        if index < inner.endIndex {
          writer.append(0x0A)
        }
        lineStart = index &+ 1
      }
      index &+= 1
    }
  }

  /// Appends the elements of the compact array `bytes` one per line.
  private func appendLines(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count >= 2 else { return }
    var depth = 0
    var inString = false
    var escaped = false
    var start = 1
    let end = bytes.count &- 1
    var index = 1
    while index < end {
      let byte = bytes[index]
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else {
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"): depth &+= 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth &-= 1
        case UInt8(ascii: ",") where depth == 0:
          writer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
          writer.append(0x0A)
          start = index &+ 1
        default: break
        }
      }
      index &+= 1
    }
    writer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    writer.append(0x0A)
  }

  /// `error`, thrown for an element of a batch, with the key path and the element's index in
  /// the whole sequence in its coding path.
  private func relocated(_ error: EncodingError) -> EncodingError {
    guard case .invalidValue(let value, let context) = error else { return error }
    var path = context.codingPath
    if let first = path.first, let index = first.intValue {
      path[0] = IndexKey(index: written &+ index)
    }
    return .invalidValue(
      value,
      .init(
        codingPath: keys + path, debugDescription: context.debugDescription,
        underlyingError: context.underlyingError))
  }
}
