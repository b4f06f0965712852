import Foundation

/// Reads a JSON document that arrives in pieces and decodes, one at a time, the elements of the
/// array at a key path in it, or the values of JSON Lines.
///
/// The bytes go into one buffer. The ``JSONStreamScanner`` (or, for JSON Lines, a search for
/// line feeds) cuts the values out of it; the values found in the bytes at hand are parsed
/// together as one array (a *batch*: `[`, the values joined by commas, `]`), which validates
/// each of them and lets one ``JSONValueDecoder`` decode them all, with the caches of a whole
/// decode. Once a batch is decoded, the buffer lets go of everything before the value being
/// read, so memory holds the bytes of one read, the largest value, and one batch's tape: it
/// doesn't grow with the document.
///
/// Every offset the engine keeps is a position in the buffer; ``discarded`` bytes came before
/// the buffer's first one.
final class JSONStreamEngine {
  /// What the engine has for its reader.
  enum Step<Value> {
    /// The next value.
    case value(Value)
    /// The bytes at hand are used up: append more (or say there are none).
    case needsInput
    /// The document ended, and was valid to its last byte.
    case end
  }

  /// The bytes one read asks for.
  static let readSize = 256 * 1024

  private let options: KeyedJSONDecoder.Options
  private let context: MappingContext?
  /// The key path's segments (empty for JSON Lines and a top-level array).
  private let keys: [String]
  /// The key path as written, for reports.
  private let keyDescription: String
  /// Whether elements that fail to decode are dropped (and reported).
  private let isLossy: Bool
  /// The coding path of the streamed array.
  private let arrayPath: JSONCodingPath
  /// The deepest nesting a batch accepts, its array included: the values may nest as deep as
  /// the whole document could hold them (Foundation's 512 levels, counted from the document's
  /// top: the streamed array's own level and the objects around it count; a line of JSON Lines
  /// is a document of its own).
  private var batchDepthLimit: Int {
    isLines ? JSONScanner.maximumDepth &+ 1 : JSONScanner.maximumDepth &- keys.count
  }
  /// The scanner of a streamed array; `nil` for JSON Lines.
  private var scanner: JSONStreamScanner?
  /// Whether the values are the lines of JSON Lines.
  private let isLines: Bool

  // MARK: The buffer

  private var storage: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The bytes in the buffer.
  private var count = 0
  /// Where the scan goes on.
  private var position = 0
  /// The number of bytes let go of before the buffer's first one.
  private var discarded = 0
  /// Whether no input follows the buffer's bytes.
  private var inputEnded = false
  /// Whether the input's first bytes arrived (a UTF-8 byte-order mark there is skipped).
  private var sawInput = false
  /// Whether the document ended or the reading stopped at an error.
  private var finished = false

  // MARK: Lines

  /// The line of the buffer's first byte, and where that line starts in the stream.
  ///
  /// Kept up to date as bytes are let go of, so that an error's line and column are counted
  /// from the buffer's start. For JSON Lines, the line at ``position`` and where it starts.
  private var line = 1
  private var lineStart = 0
  /// For JSON Lines: the values read so far.
  private var linesRead = 0

  // MARK: Values found, and the batch being decoded

  /// The start and end of each value found and not yet in a batch.
  private var pieces: [Int] = []
  /// For JSON Lines, the line of each of ``pieces``, and where that line starts in the stream.
  private var pieceLines: [Int] = []
  /// The number of values found before ``pieces``.
  private var piecesBefore = 0
  /// The decoder of the batch, its next tape entry and the number of its values left.
  private var batch: JSONValueDecoder?
  private var batchEntry = 0
  private var batchLeft = 0
  /// The index of the batch's first value, and where each of its values starts in the stream
  /// (for JSON Lines: its line and the line's start, in pairs).
  private var batchFirst = 0
  private var batchPlaces: [Int] = []
  private var batchPosition = 0
  /// An error to throw once the values before it are read.
  private var pendingError: (any Error)?

  /// - Parameters:
  ///   - keyPath: The key path of the array, in the library's syntax (`"data.items"`,
  ///     `"data.* items"` for a lossy array, `""` for a top-level array), read with `keyOptions`;
  ///     `nil` for JSON Lines.
  ///   - keyOptions: The options the key path is read with.
  ///   - lossy: Whether values that fail to decode are dropped (and reported) whatever the key.
  ///   - options: The decoder's options.
  ///   - context: The context each value is decoded with, if any.
  init(
    keyPath: String?, keyOptions: KeyOptions, lossy: Bool, options: KeyedJSONDecoder.Options,
    context: MappingContext?
  ) {
    self.options = options
    self.context = context ?? MappingContext.current
    capacity = 4096
    storage = .allocate(capacity: capacity)
    isLines = keyPath == nil
    guard let keyPath else {
      keys = []
      keyDescription = ""
      isLossy = lossy
      arrayPath = .root
      return
    }
    let parsed = ParsedKey(keyPath, options: keyOptions)
    let segments = parsed.isFlat ? [] : parsed.lossySegments ?? parsed.segments
    keys = segments
    keyDescription = keyPath
    isLossy = lossy || parsed.lossySegments != nil
    var path = JSONCodingPath.root
    for segment in segments {
      path = path.appending(PathKey(segment))
    }
    arrayPath = path
    let strategy = options.keyDecodingStrategy
    var comparesBytes = false
    let match: (String, Int) -> Bool
    switch strategy {
    case .useDefaultKeys:
      comparesBytes = true
      match = { name, level in name == segments[level] }
    case .convertFromSnakeCase:
      match = { name, level in JSONKeyConversion.fromSnakeCase(name) == segments[level] }
    case .custom(let convert):
      match = { name, level in
        let path = segments[..<level].map { PathKey($0) as any CodingKey } + [PathKey(name)]
        return convert(path).stringValue == segments[level]
      }
    }
    scanner = JSONStreamScanner(keys: segments, comparesBytes: comparesBytes, matchName: match)
  }

  deinit {
    storage.deallocate()
  }

  // MARK: - Input

  /// Room for at least `minimum` more bytes after the buffer's, moving the bytes still needed
  /// to the buffer's start first.
  func space(atLeast minimum: Int) -> UnsafeMutableRawBufferPointer {
    compact()
    if capacity &- count < minimum {
      let grown = Swift.max(capacity &* 2, count &+ minimum)
      let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
      storage.moveInitialize(from: self.storage, count: count)
      self.storage.deallocate()
      self.storage = storage
      capacity = grown
    }
    return UnsafeMutableRawBufferPointer(start: storage + count, count: capacity &- count)
  }

  /// Takes `written` bytes the caller put into the last ``space(atLeast:)``.
  func didWrite(_ written: Int) {
    guard written > 0 else { return }
    count &+= written
    if !sawInput {
      skipByteOrderMark()
    }
  }

  /// Appends `bytes`.
  func append(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    let room = space(atLeast: bytes.count)
    room.copyMemory(from: bytes)
    didWrite(bytes.count)
  }

  /// Says that no bytes follow.
  func endInput() {
    inputEnded = true
    if !sawInput {
      skipByteOrderMark()
    }
  }

  private func skipByteOrderMark() {
    guard count >= 3 || inputEnded else { return }
    sawInput = true
    if count >= 3, storage[0] == 0xEF, storage[1] == 0xBB, storage[2] == 0xBF {
      position = 3
    }
  }

  /// Lets go of the bytes before the first one still needed: the value being cut out, or the
  /// scan's position.
  private func compact() {
    var keep = position
    if let start = scanner?.elementStart, start >= 0 {
      keep = start
    }
    guard keep > 0, pieces.isEmpty, sawInput || inputEnded else { return }
    countLines(upTo: keep)
    let kept = count &- keep
    if kept > 0 {
      storage.update(from: storage + keep, count: kept)
    }
    count = kept
    position &-= keep
    lineSearch = Swift.max(0, lineSearch &- keep)
    discarded &+= keep
    scanner?.shift(by: keep)
  }

  // MARK: - Values

  /// The next value, decoded as `T`.
  ///
  /// - Throws: `DecodingError`: `dataCorrupted` for bytes that are not JSON (with the line and
  ///   column), the key path's `keyNotFound`, `typeMismatch` and `valueNotFound`, and the
  ///   errors of decoding a value (with its index in the coding path); after one, the engine
  ///   has no more values.
  func next<T: Decodable>(_ type: T.Type) throws -> Step<T> {
    while true {
      if let decoder = batch {
        if batchLeft > 0 {
          let entry = batchEntry
          batchEntry = decoder.document.next(entry)
          batchLeft &-= 1
          let index = batchFirst &+ batchPosition
          let place = batchPosition
          batchPosition &+= 1
          do {
            return .value(try decode(T.self, entry, index: index, with: decoder))
          } catch {
            if isLossy {
              report(error, index: index)
              continue
            }
            stop()
            throw located(error, place: place)
          }
        }
        decoder.finish()
        batch = nil
      }
      if let error = pendingError {
        pendingError = nil
        stop()
        throw error
      }
      if finished {
        return .end
      }
      if !sawInput, !inputEnded {
        return .needsInput
      }
      if !isLines {
        scanArray()
      } else {
        scanLines()
      }
      if pieces.isEmpty {
        if pendingError != nil || finished {
          continue
        }
        return .needsInput
      }
      makeBatch()
    }
  }

  private func decode<T: Decodable>(
    _ type: T.Type, _ entry: Int, index: Int, with decoder: JSONValueDecoder
  ) throws -> T {
    let path = arrayPath.appending(index: index)
    guard let context else {
      return try decoder.unwrap(entry, as: T.self, at: path)
    }
    return try withMappingContext(context) { try decoder.unwrap(entry, as: T.self, at: path) }
  }

  /// Reports a value dropped at `index`.
  private func report(_ error: any Error, index: Int) {
    let record = {
      Reporting.record(
        .droppedElement, at: self.arrayPath.appending(index: index).keys,
        keyPath: self.keyDescription, error: error)
    }
    if let context {
      withMappingContext(context, record)
    } else {
      record()
    }
  }

  /// Stops reading: after an error, the engine has no more values.
  private func stop() {
    finished = true
    batch?.finish()
    batch = nil
    batchLeft = 0
    pieces.removeAll()
  }

  // MARK: - Finding values

  /// Where the search for the end of the current line of JSON Lines goes on.
  private var lineSearch = 0

  /// Scans the bytes at hand of a streamed array.
  private func scanArray() {
    guard var scanner else { return }
    self.scanner = nil
    defer { self.scanner = scanner }
    do {
      let stop = try scanner.scan(
        storage, position: &position, end: count, isFinal: inputEnded, elements: &pieces)
      if stop == .end {
        finished = true
      }
    } catch {
      finished = true
      pendingError = describe(error, scanner: scanner)
    }
    piecesBefore = scanner.elementCount &- pieces.count / 2
  }

  /// Finds the complete lines of JSON Lines at hand.
  private func scanLines() {
    piecesBefore = linesRead
    while position < count || (inputEnded && !finished) {
      var end = Swift.max(position, lineSearch)
      if end < count, let found = memchr(storage + end, 0x0A, count &- end) {
        end = found.assumingMemoryBound(to: UInt8.self) - storage
      } else {
        end = count
      }
      guard end < count || inputEnded else {
        // The line goes on in the next read: search on from here then.
        lineSearch = end
        break
      }
      var first = position
      while first < end, Self.isWhitespace(storage[first]) {
        first &+= 1
      }
      if first < end {
        pieces.append(first)
        pieces.append(end)
        pieceLines.append(line)
        pieceLines.append(discarded &+ position)
        linesRead &+= 1
      }
      if end < count {
        line &+= 1
        lineStart = discarded &+ end &+ 1
        position = end &+ 1
      } else {
        position = end
        finished = true
      }
    }
    if inputEnded, position >= count {
      finished = true
    }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D
  }

  /// Parses the values found as one batch; a value that isn't exactly one valid JSON value
  /// ends the batch before it, and its error is thrown after the values before it.
  private func makeBatch() {
    let found = pieces.count / 2
    var document = try? JSONDocument(joining: pieces[...], of: storage, depthLimit: batchDepthLimit)
    if let parsed = document, !Self.holds(parsed, pieces: pieces) {
      document = nil
    }
    if document == nil {
      // Find the first value that is not valid alone.
      var bad = 0
      var failure: JSONSyntaxError?
      while bad < found {
        let piece = pieces[(bad &* 2)..<(bad &* 2 &+ 2)]
        do {
          let alone = try JSONDocument(joining: piece, of: storage, depthLimit: batchDepthLimit)
          if let extra = Self.secondValue(in: alone) {
            // `1,2`: one piece, two values.
            failure = JSONSyntaxError(.trailingContent, offset: extra, line: 1, column: extra)
            break
          }
          bad &+= 1
        } catch {
          failure = error
          break
        }
      }
      let error =
        failure
        ?? JSONSyntaxError(.unexpectedCharacter(UInt8(ascii: ",")), offset: 1, line: 1, column: 1)
      let badIndex = Swift.min(bad, found &- 1)
      pendingError = syntaxError(
        error.reason,
        at: pieces[badIndex &* 2] &+ Swift.max(0, error.offset &- 1),
        index: piecesBefore &+ badIndex, lineOfPiece: badIndex)
      finished = true
      document =
        badIndex > 0
        ? try? JSONDocument(
          joining: pieces[..<(badIndex &* 2)], of: storage, depthLimit: batchDepthLimit) : nil
    }
    batchFirst = piecesBefore
    batchPlaces.removeAll(keepingCapacity: true)
    if let document {
      let values = document.memberCount(0)
      for index in 0..<values {
        if !isLines {
          batchPlaces.append(discarded &+ pieces[index &* 2])
          batchPlaces.append(0)
        } else {
          batchPlaces.append(pieceLines[index &* 2])
          batchPlaces.append(pieceLines[index &* 2 &+ 1])
        }
      }
      let decoder = JSONValueDecoder(document: document, options: options)
      batch = decoder
      batchEntry = 1
      batchLeft = values
      batchPosition = 0
    }
    pieces.removeAll(keepingCapacity: true)
    pieceLines.removeAll(keepingCapacity: true)
  }

  /// Where the comma before the second value of the array `document` is, if it has more than
  /// one.
  private static func secondValue(in document: JSONDocument) -> Int? {
    guard document.memberCount(0) > 1 else { return nil }
    var offset = document.start(of: document.next(1))
    while offset > 1, document.bytes[offset &- 1] != UInt8(ascii: ",") {
      offset &-= 1
    }
    return offset &- 1
  }

  /// Whether the batch holds one value per piece, each where its piece starts: a piece such as
  /// `1,2` (a line of JSON Lines) would otherwise be two values.
  private static func holds(_ document: JSONDocument, pieces: [Int]) -> Bool {
    guard document.memberCount(0) == pieces.count / 2 else { return false }
    var entry = 1
    var expected = 1
    var index = 0
    var container: (entry: Int, start: Int)?
    while index < pieces.count {
      let start = document.start(of: entry, after: container)
      guard start == expected else { return false }
      if document.kind(entry) == .array || document.kind(entry) == .object {
        container = (entry, start)
      }
      expected &+= pieces[index &+ 1] &- pieces[index] &+ 1
      entry = document.next(entry)
      index &+= 2
    }
    return true
  }

  // MARK: - Errors

  /// The line and column of buffer position `offset`, counted from the buffer's start (once per
  /// error thrown).
  private func location(of offset: Int) -> (line: Int, column: Int) {
    let (lines, last) = Self.lineFeeds(in: storage, upTo: Swift.min(Swift.max(offset, 0), count))
    let start = last.map { discarded &+ $0 &+ 1 } ?? lineStart
    return (line &+ lines, discarded &+ offset &- start &+ 1)
  }

  /// Moves the line of the buffer's start past the line feeds before `offset`, whose bytes are
  /// let go of.
  private func countLines(upTo offset: Int) {
    // JSON Lines count their lines as they find them.
    guard !isLines else { return }
    let (lines, last) = Self.lineFeeds(in: storage, upTo: offset)
    line &+= lines
    if let last {
      lineStart = discarded &+ last &+ 1
    }
  }

  /// The number of line feeds in `bytes[..<end]`, and the position of the last one.
  private static func lineFeeds(in bytes: UnsafeMutablePointer<UInt8>, upTo end: Int) -> (
    count: Int, last: Int?
  ) {
    var lines = 0
    var last: Int?
    var index = 0
    while index < end, let found = memchr(bytes + index, 0x0A, end &- index) {
      let position = found.assumingMemoryBound(to: UInt8.self) - bytes
      lines &+= 1
      last = position
      index = position &+ 1
    }
    return (lines, last)
  }

  /// The error of bytes that are not JSON, at buffer position `offset`.
  private func syntaxError(
    _ reason: JSONSyntaxError.Reason, at offset: Int, index: Int?, lineOfPiece piece: Int? = nil
  ) -> DecodingError {
    if isLines, let piece {
      // JSON Lines: the line is known.
      let lineNumber = pieceLines[piece &* 2]
      let start = pieceLines[piece &* 2 &+ 1]
      let column = discarded &+ offset &- start &+ 1
      let syntax = JSONSyntaxError(
        reason, offset: discarded &+ offset, line: lineNumber, column: column)
      return DecodingError.dataCorrupted(
        .init(
          codingPath: index.map { [IndexKey(index: $0)] } ?? [],
          debugDescription: "Line \(lineNumber) is not valid JSON: \(syntax)",
          underlyingError: syntax))
    }
    let (line, column) = location(of: offset)
    let syntax = JSONSyntaxError(reason, offset: discarded &+ offset, line: line, column: column)
    let path = index.map { arrayPath.appending(index: $0) } ?? .root
    return DecodingError.dataCorrupted(
      .init(
        codingPath: path.keys, debugDescription: "The given data was not valid JSON: \(syntax)",
        underlyingError: syntax))
  }

  /// The error of a scan that stopped.
  private func describe(_ failure: JSONStreamScanner.Failure, scanner: JSONStreamScanner)
    -> DecodingError
  {
    func path(_ level: Int) -> [any CodingKey] {
      keys[..<level].map { PathKey($0) }
    }
    switch failure {
    case .syntax(let reason, let offset):
      let inArray = scanner.isInsideArray
      return syntaxError(reason, at: offset, index: inArray ? scanner.elementCount : nil)
    case .typeMismatch(let level, let expectsArray, let found):
      let name = expectsArray ? "Array<Any>" : "Dictionary<String, Any>"
      return DecodingError.typeMismatch(
        expectsArray ? [Any].self : [String: Any].self,
        .init(
          codingPath: path(level),
          debugDescription: "Expected to decode \(name) but found \(found) instead."))
    case .valueNotFound(let level, let expectsArray):
      return DecodingError.valueNotFound(
        expectsArray ? [Any].self : [String: Any].self,
        .init(
          codingPath: path(level),
          debugDescription:
            "Cannot get \(expectsArray ? "unkeyed" : "keyed") decoding container -- found null value instead"
        ))
    case .keyNotFound(let level):
      let key = PathKey(keys[level &- 1])
      return DecodingError.keyNotFound(
        key,
        .init(
          codingPath: path(level &- 1),
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
  }

  /// `error`, thrown by decoding the batch's value at `place`, with where the value starts in
  /// the document added to its message.
  private func located(_ error: any Error, place: Int) -> any Error {
    guard let decodingError = error as? DecodingError else { return error }
    let whereText: String
    if !isLines {
      let start = batchPlaces[place &* 2] &- discarded
      let (line, column) = location(of: start)
      whereText = "the element at line \(line), column \(column)"
    } else {
      whereText = "line \(batchPlaces[place &* 2])"
    }
    return decodingError.appendingToDescription(" (in \(whereText))")
  }
}

extension DecodingError {
  /// The same error, with `text` added to its description.
  func appendingToDescription(_ text: String) -> DecodingError {
    withContext { context in
      .init(
        codingPath: context.codingPath, debugDescription: context.debugDescription + text,
        underlyingError: context.underlyingError)
    }
  }
}
