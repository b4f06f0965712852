import Foundation
import KeyedCodable
import XCTest

final class StreamedArrayTests: XCTestCase {
  private let document = """
    {"meta": {"page": 1, "tags": ["a", "b"], "note": "x\\u00e9\\ud83d\\ude00"},
     "data": {"count": 3, "items": [
       {"id": 1, "name": "one"},
       {"id": 2, "name": "two \\"quoted\\" [not] {a bracket}"},
       {"id": 3, "name": "three"}
     ], "after": [true, false, null, -1.5e+3]},
     "trailer": {}}
    """

  private let records = [
    StreamRecord(id: 1, name: "one"),
    StreamRecord(id: 2, name: "two \"quoted\" [not] {a bracket}"),
    StreamRecord(id: 3, name: "three"),
  ]

  func testReadsTheArrayAtAKeyPathFromAFile() throws {
    let url = try temporaryFile(document, self)
    let reader = try KeyedJSONDecoder().elementReader(
      for: StreamRecord.self, at: "data.items", contentsOf: url)
    let (values, error) = readAll(reader)
    XCTAssertNil(error)
    XCTAssertEqual(values, records)
    XCTAssertNil(try reader.read(), "a finished reader stays finished")
  }

  func testGivesWhatTheInMemoryDecoderGives() throws {
    struct Envelope: Decodable {
      struct Inner: Decodable { var items: [StreamRecord] }
      var data: Inner
    }
    let whole = try KeyedJSONDecoder().decode(Envelope.self, from: Data(document.utf8))
    let url = try temporaryFile(document, self)
    let streamed = readAll(
      try KeyedJSONDecoder().elementReader(
        for: StreamRecord.self, at: "data.items", contentsOf: url))
    XCTAssertEqual(streamed.values, whole.data.items)
  }

  func testTopLevelArrayOfScalarsAndKeyedableElements() throws {
    let numbers = try temporaryFile(" [1, -2 ,3e2,\n 4.5 ] \n", self)
    XCTAssertEqual(
      readAll(try KeyedJSONDecoder().elementReader(for: Double.self, contentsOf: numbers)).values,
      [1, -2, 300, 4.5])
    let strings = try temporaryFile(#"["a","b\"c",""]"#, self)
    XCTAssertEqual(
      readAll(try KeyedJSONDecoder().elementReader(for: String.self, contentsOf: strings)).values,
      ["a", "b\"c", ""])
    let mapped = try temporaryFile(
      #"{"users":[{"id":1,"address":{"city":"Oslo"}},{"id":2,"address":{"city":"Rome"}}]}"#,
      self)
    let reader = try KeyedJSONDecoder().elementReader(
      for: MappedStreamRecord.self, at: "users", contentsOf: mapped)
    XCTAssertEqual(
      readAll(reader).values,
      [MappedStreamRecord(id: 1, city: "Oslo"), MappedStreamRecord(id: 2, city: "Rome")])
  }

  func testEmptyArrayAndByteOrderMark() throws {
    let empty = try temporaryFile(#"{"items":[]}"#, self)
    let reader = try KeyedJSONDecoder().elementReader(
      for: Int.self, at: "items", contentsOf: empty)
    XCTAssertEqual(readAll(reader).values, [])
    XCTAssertNil(readAll(reader).error)
    let marked = try temporaryFile(Data([0xEF, 0xBB, 0xBF]) + Data("[7]".utf8), self)
    XCTAssertEqual(
      readAll(try KeyedJSONDecoder().elementReader(for: Int.self, contentsOf: marked)).values, [7])
  }

  func testElementThatFailsToDecodeThrowsWithItsIndexAndLine() throws {
    let url = try temporaryFile(
      #"{"data":{"items":[{"id":1,"name":"a"},"# + "\n" + #"  {"id":"x","name":"b"}]}}"#, self)
    let (values, error) = readAll(
      try KeyedJSONDecoder().elementReader(
        for: StreamRecord.self, at: "data.items", contentsOf: url))
    XCTAssertEqual(values, [StreamRecord(id: 1, name: "a")])
    guard case DecodingError.typeMismatch? = error else {
      return XCTFail("expected typeMismatch, got \(String(describing: error))")
    }
    XCTAssertEqual(pathText(error), "data.items[1].id")
    XCTAssertTrue(
      message(error).hasSuffix("(in the element at line 2, column 3)"), message(error))
  }

  func testSyntaxErrorsNameTheElementTheLineAndTheColumn() throws {
    let inside = try temporaryFile("[1,\n2,\n3x]", self)
    let (values, error) = readAll(
      try KeyedJSONDecoder().elementReader(for: Int.self, contentsOf: inside))
    XCTAssertEqual(values, [1, 2])
    guard case DecodingError.dataCorrupted? = error else {
      return XCTFail("expected dataCorrupted, got \(String(describing: error))")
    }
    XCTAssertEqual(pathText(error), "[2]")
    XCTAssertTrue(message(error).contains("line 3, column 2"), message(error))

    let after = try temporaryFile(#"{"items":[1,2],"next":tru}"#, self)
    let tail = readAll(
      try KeyedJSONDecoder().elementReader(for: Int.self, at: "items", contentsOf: after))
    XCTAssertEqual(tail.values, [1, 2], "the elements come before the error after them")
    XCTAssertTrue(message(tail.error).contains("line 1, column 26"), message(tail.error))
    XCTAssertEqual(pathText(tail.error), "")
  }

  func testInvalidEnvelopesThrow() throws {
    let cases = [
      #"{"items":[1],"a":01}"#, #"{"items":[1],"a":"\x"}"#, #"{"items":[1],"a":"\ud800"}"#,
      #"{"items":[1],"a":[1,]}"#, #"{"items":[1],}"#, #"{"items":[1]} x"#, #"{"a" 1,"items":[1]}"#,
      #"{"items":[1],"a":1.}"#, #"{"items":[1],"a":-}"#, #"{"items":[1],"a":"\u12"}"#,
      "{\"items\":[1],\"a\":\"\u{1}\"}", #"{"items":[1],"a":nul}"#, #"{"items":[1,,2]}"#,
      #"{"items":[1 2]}"#, #"{"items":[1}"#, "", "   ", #"{"items":[{"a":1]}]}"#,
    ]
    for text in cases {
      let url = try temporaryFile(text, self)
      let error = readAll(
        try KeyedJSONDecoder().elementReader(for: Int.self, at: "items", contentsOf: url)
      ).error
      guard case DecodingError.dataCorrupted? = error else {
        XCTFail("\(text): expected dataCorrupted, got \(String(describing: error))")
        continue
      }
    }
    let invalidUTF8 = try temporaryFile(
      Data(#"{"items":[1],"a":""#.utf8) + Data([0xC3, 0x28]) + Data(#""}"#.utf8), self)
    XCTAssertNotNil(
      readAll(
        try KeyedJSONDecoder().elementReader(for: Int.self, at: "items", contentsOf: invalidUTF8)
      ).error)
  }

  func testKeyPathErrors() throws {
    func error(_ text: String, _ path: String = "data.items") throws -> (any Error)? {
      let url = try temporaryFile(text, self)
      return readAll(
        try KeyedJSONDecoder().elementReader(for: Int.self, at: path, contentsOf: url)
      ).error
    }
    guard case DecodingError.keyNotFound(let key, _)? = try error(#"{"data":{"other":[]}}"#)
    else { return XCTFail("expected keyNotFound") }
    XCTAssertEqual(key.stringValue, "items")
    XCTAssertEqual(pathText(try error(#"{"data":{"other":[]}}"#)), "data.items")
    XCTAssertEqual(pathText(try error(#"{"x":1}"#)), "data")
    guard case DecodingError.typeMismatch? = try error(#"{"data":{"items":{}}}"#) else {
      return XCTFail("expected typeMismatch")
    }
    XCTAssertEqual(pathText(try error(#"{"data":{"items":{}}}"#)), "data.items")
    guard case DecodingError.typeMismatch? = try error(#"{"data":[]}"#) else {
      return XCTFail("expected typeMismatch")
    }
    guard case DecodingError.valueNotFound? = try error(#"{"data":{"items":null}}"#) else {
      return XCTFail("expected valueNotFound")
    }
    guard case DecodingError.typeMismatch? = try error(#"{"a":1}"#, "") else {
      return XCTFail("expected typeMismatch for a top-level object")
    }
  }

  func testNamesWithEscapesAndKeyStrategies() throws {
    let url = try temporaryFile(
      #"{"d\u0061ta":{"item_list":[1,2]},"data":{"item_list":[3]}}"#, self)
    let decoder = KeyedJSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    XCTAssertEqual(
      readAll(try decoder.elementReader(for: Int.self, at: "data.itemList", contentsOf: url))
        .values, [1, 2], "the first array at the key path is read; later ones are validated")
  }

  func testLossyMarkerDropsAndReportsElements() throws {
    let url = try temporaryFile(
      #"{"data":{"items":[{"id":1,"name":"a"},{"id":2},3,{"id":4,"name":"d"}]}}"#, self)
    let reporter = DecodingReporter()
    let reader = try KeyedJSONDecoder().elementReader(
      for: StreamRecord.self, at: "data.* items", contentsOf: url,
      context: MappingContext().reporting(to: reporter))
    let (values, error) = readAll(reader)
    XCTAssertNil(error)
    XCTAssertEqual(values.map(\.id), [1, 4])
    XCTAssertEqual(reporter.report.entries.map(\.event), [.droppedElement, .droppedElement])
    XCTAssertEqual(
      reporter.report.entries.map(\.pathDescription), ["data.items[1]", "data.items[2]"])
    // A syntax error is never dropped.
    let broken = try temporaryFile(#"{"data":{"items":[{"id":1,"name":"a"},{"id":2,]}}"#, self)
    let brokenReader = try KeyedJSONDecoder().elementReader(
      for: StreamRecord.self, at: "data.* items", contentsOf: broken)
    guard case DecodingError.dataCorrupted? = readAll(brokenReader).error else {
      return XCTFail("expected dataCorrupted")
    }
  }

  func testContextAndStrategiesApplyToEachElement() throws {
    struct Stamp: Codable, Keyedable {
      var when = Date(timeIntervalSince1970: 0)
      var prefix = ""
      mutating func map(map: KeyMap) throws {
        try when <-> map["when"]
        prefix = try map.context(Self.prefixKey) ?? "none"
      }
      static let prefixKey = ContextKey<String>("prefix")
    }
    let url = try temporaryFile(
      #"[{"when":"2024-01-02T03:04:05Z"},{"when":"1970-01-01T00:00:10Z"}]"#, self)
    let decoder = KeyedJSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let reader = try decoder.elementReader(
      for: Stamp.self, contentsOf: url, context: MappingContext().value("p", for: Stamp.prefixKey))
    let values = readAll(reader).values
    XCTAssertEqual(values.map(\.when.timeIntervalSince1970), [1_704_164_645, 10])
    XCTAssertEqual(values.map(\.prefix), ["p", "p"])
  }

  func testEveryPrefixOfADocumentThrowsAndNeverCrashes() throws {
    let bytes = Array(document.utf8)
    for length in 0..<bytes.count {
      let url = try temporaryFile(Data(bytes[..<length]), self)
      let (values, error) = readAll(
        try KeyedJSONDecoder().elementReader(
          for: StreamRecord.self, at: "data.items", contentsOf: url))
      XCTAssertNotNil(error, "a document cut at \(length) bytes")
      XCTAssertEqual(values, Array(records.prefix(values.count)))
    }
  }

  func testEveryChunkSizeGivesTheSameElements() async throws {
    let bytes = Array(document.utf8)
    for size in [1, 2, 3, 5, 7, 16, 64, bytes.count] {
      let elements = KeyedJSONDecoder().elements(
        of: StreamRecord.self, at: "data.items", fromChunks: Chunks(bytes: bytes, size: size))
      let (values, error) = await readAll(elements)
      XCTAssertNil(error, "chunks of \(size)")
      XCTAssertEqual(values, records, "chunks of \(size)")
    }
  }

  func testAsyncBytesAndFiles() async throws {
    let bytes = Array(document.utf8)
    let stream = AsyncStream<UInt8> { continuation in
      for byte in bytes { continuation.yield(byte) }
      continuation.finish()
    }
    let values = await readAll(
      KeyedJSONDecoder().elements(of: StreamRecord.self, at: "data.items", from: stream))
    XCTAssertEqual(values.values, records)
    let url = try temporaryFile(document, self)
    let elements = KeyedJSONDecoder().elements(
      of: StreamRecord.self, at: "data.items", contentsOf: url)
    let fromFile = await readAll(elements)
    XCTAssertEqual(fromFile.values, records)
    let again = await readAll(elements)
    XCTAssertEqual(again.values, records, "a second iteration starts over")
    let missing = await readAll(
      KeyedJSONDecoder().elements(
        of: Int.self, contentsOf: url.appendingPathExtension("missing")))
    XCTAssertNotNil(missing.error)
  }

  func testCancellingTheTaskStopsTheReading() async throws {
    let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
    continuation.yield(Array("[1,2,".utf8))
    let task = Task {
      var seen: [Int] = []
      do {
        for try await value in KeyedJSONDecoder().elements(of: Int.self, fromChunks: stream) {
          seen.append(value)
        }
        return (seen, "finished")
      } catch is CancellationError {
        return (seen, "cancelled")
      } catch {
        return (seen, "\(error)")
      }
    }
    try await Task.sleep(nanoseconds: 50_000_000)
    task.cancel()
    continuation.yield(Array("3,".utf8))
    let (seen, outcome) = await task.value
    continuation.finish()
    XCTAssertEqual(seen, [1, 2])
    XCTAssertEqual(outcome, "cancelled")
  }

  func testSequenceOfResultsEndsAfterTheFailure() throws {
    let url = try temporaryFile("[1,2,x]", self)
    let reader = try KeyedJSONDecoder().elementReader(for: Int.self, contentsOf: url)
    let results = Array(reader)
    XCTAssertEqual(results.count, 3)
    XCTAssertEqual(try results[0].get(), 1)
    XCTAssertEqual(try results[1].get(), 2)
    XCTAssertThrowsError(try results[2].get())
  }

  func testLargeElementsAndManyReads() throws {
    // Elements larger than one read, and a document of many reads.
    let big = String(repeating: "é", count: 300_000)
    var text = #"{"skip":["# + String(repeating: #""\u00e9x","#, count: 50_000) + #"1],"items":["#
    for index in 0..<2_000 {
      text += index == 0 ? "" : ","
      text +=
        index % 500 == 7 ? #"{"id":\#(index),"name":"\#(big)"}"# : #"{"id":\#(index),"name":"n"}"#
    }
    text += "]}"
    let url = try temporaryFile(text, self)
    let values = readAll(
      try KeyedJSONDecoder().elementReader(for: StreamRecord.self, at: "items", contentsOf: url))
    XCTAssertNil(values.error)
    XCTAssertEqual(values.values.map(\.id), Array(0..<2_000))
    XCTAssertEqual(values.values[7].name, big)
  }

  func testLinesAndColumnsAcrossManyReads() throws {
    var text = "[\n"
    for index in 0..<100_000 {
      text += "  \(index),\n"
    }
    let syntax = try temporaryFile(text + "  x\n]", self)
    let (values, error) = readAll(
      try KeyedJSONDecoder().elementReader(for: Int.self, contentsOf: syntax))
    XCTAssertEqual(values.count, 100_000)
    XCTAssertTrue(message(error).contains("at line 100002, column 3."), message(error))
    XCTAssertEqual(pathText(error), "[100000]")
    let decoding = try temporaryFile(text + "  \"x\"\n]", self)
    let failure = readAll(
      try KeyedJSONDecoder().elementReader(for: Int.self, contentsOf: decoding)
    ).error
    guard case DecodingError.typeMismatch? = failure else {
      return XCTFail("expected typeMismatch, got \(String(describing: failure))")
    }
    XCTAssertTrue(
      message(failure).hasSuffix("(in the element at line 100002, column 3)"), message(failure))
  }

  func testFileHandlesOfPipesAsBytesArrive() async throws {
    let pipe = Pipe()
    let writer = pipe.fileHandleForWriting
    let parts = [#"{"data":{"items":[{"id":1,"na"#, #"me":"a"},{"id":2,"name":"b"}"#, "]}}"]
    let thread = Thread {
      for part in parts {
        writer.write(Data(part.utf8))
        Thread.sleep(forTimeInterval: 0.01)
      }
      try? writer.close()
    }
    thread.start()
    let (values, error) = await readAll(
      KeyedJSONDecoder().elements(
        of: StreamRecord.self, at: "data.items", reading: pipe.fileHandleForReading))
    XCTAssertNil(error)
    XCTAssertEqual(values, [StreamRecord(id: 1, name: "a"), StreamRecord(id: 2, name: "b")])

    let linesPipe = Pipe()
    let linesWriter = linesPipe.fileHandleForWriting
    let linesThread = Thread {
      linesWriter.write(Data("1\n2".utf8))
      Thread.sleep(forTimeInterval: 0.01)
      linesWriter.write(Data("3\n".utf8))
      try? linesWriter.close()
    }
    linesThread.start()
    let lines = await readAll(
      KeyedJSONDecoder().lines(of: Int.self, reading: linesPipe.fileHandleForReading))
    XCTAssertEqual(lines.values, [1, 23])
    let sync = Pipe()
    sync.fileHandleForWriting.write(Data("[5,6]".utf8))
    try sync.fileHandleForWriting.close()
    let reader = KeyedJSONDecoder().elementReader(
      for: Int.self, reading: sync.fileHandleForReading)
    XCTAssertEqual(readAll(reader).values, [5, 6])
  }

  func testNestingIsLimitedAsInTheInMemoryDecoder() throws {
    // 512 levels in all are read, 513 refused, also inside an element, as soon as it opens.
    func levels(_ total: Int, keyPath: String, prefix: String, suffix: String) throws -> (
      [JSONValue], (any Error)?
    ) {
      let inner = total - prefix.filter { $0 == "[" || $0 == "{" }.count
      let text =
        prefix + String(repeating: "[", count: inner) + String(repeating: "]", count: inner)
        + suffix
      let url = try temporaryFile(text, self)
      return readAll(
        try KeyedJSONDecoder().elementReader(
          for: JSONValue.self, at: keyPath, contentsOf: url))
    }
    for (keyPath, prefix, suffix) in [("", "[", "]"), ("a.b", #"{"a":{"b":["#, "]}}")] {
      let fits = try levels(512, keyPath: keyPath, prefix: prefix, suffix: suffix)
      XCTAssertNil(fits.1, keyPath)
      XCTAssertEqual(fits.0.count, 1, keyPath)
      let deep = try levels(513, keyPath: keyPath, prefix: prefix, suffix: suffix)
      XCTAssertTrue(message(deep.1).contains("More than 512 levels"), message(deep.1))
    }
    let open = try temporaryFile("[" + String(repeating: "[", count: 100_000), self)
    let error = readAll(try KeyedJSONDecoder().elementReader(for: JSONValue.self, contentsOf: open))
      .1
    XCTAssertTrue(message(error).contains("line 1, column 513"), message(error))
  }
}
