import Foundation
import KeyedCodable
import XCTest

final class StreamedEncodingTests: XCTestCase {
  private let records = (0..<1_000).map { StreamRecord(id: $0, name: "name \($0) \"q\" /") }

  /// The records as the in-memory encoder writes them inside `{"data":{"items":[...]}}`.
  private struct Envelope: Encodable {
    struct Inner: Encodable { var items: [StreamRecord] }
    var data: Inner
  }

  func testArrayAtAKeyPathIsWhatTheInMemoryEncoderWrites() throws {
    for formatting: KeyedJSONEncoder.OutputFormatting in [
      [], [.prettyPrinted], [.sortedKeys, .prettyPrinted], [.withoutEscapingSlashes],
    ] {
      let encoder = KeyedJSONEncoder()
      encoder.outputFormatting = formatting
      let (url, handle) = try temporaryOutput(self)
      try encoder.encodeArray(records, at: "data.items", to: handle)
      let expected = try encoder.encode(Envelope(data: .init(items: records)))
      XCTAssertEqual(
        String(decoding: try Data(contentsOf: url), as: UTF8.self),
        String(decoding: expected, as: UTF8.self), "formatting \(formatting)")
    }
  }

  func testTopLevelAndEmptyArrays() throws {
    for formatting: KeyedJSONEncoder.OutputFormatting in [[], [.prettyPrinted]] {
      let encoder = KeyedJSONEncoder()
      encoder.outputFormatting = formatting
      for values in [[], [1], [1, 2, 3]] as [[Int]] {
        let (url, handle) = try temporaryOutput(self)
        try encoder.encodeArray(values, to: handle)
        XCTAssertEqual(try Data(contentsOf: url), try encoder.encode(values))
        let (nestedURL, nestedHandle) = try temporaryOutput(self)
        try encoder.encodeArray(values, at: "a.b", to: nestedHandle)
        XCTAssertEqual(
          try Data(contentsOf: nestedURL), try encoder.encode(["a": ["b": values]]),
          "\(values) \(formatting)")
      }
    }
  }

  func testKeyStrategyAppliesToTheEnvelope() throws {
    let encoder = KeyedJSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let (url, handle) = try temporaryOutput(self)
    try encoder.encodeArray([1], at: "pageData.itemList", to: handle)
    XCTAssertEqual(
      String(decoding: try Data(contentsOf: url), as: UTF8.self),
      #"{"page_data":{"item_list":[1]}}"#)
  }

  func testLinesAreCompactAndReadBack() throws {
    let encoder = KeyedJSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let (url, handle) = try temporaryOutput(self)
    try encoder.encodeLines(records, to: handle)
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(lines.count, records.count + 1)
    XCTAssertEqual(lines.last, "")
    XCTAssertEqual(lines.first, #"{"id":0,"name":"name 0 \"q\" \/"}"#)
    let back = readAll(try KeyedJSONDecoder().linesReader(for: StreamRecord.self, contentsOf: url))
    XCTAssertEqual(back.values, records)
  }

  func testStreamedArrayReadsBack() throws {
    let (url, handle) = try temporaryOutput(self)
    try KeyedJSONEncoder().encodeArray(records, at: "data.items", to: handle)
    let back = readAll(
      try KeyedJSONDecoder().elementReader(
        for: StreamRecord.self, at: "data.items", contentsOf: url))
    XCTAssertEqual(back.values, records)
  }

  func testAsyncSequences() async throws {
    let values = records
    let stream = AsyncStream<StreamRecord> { continuation in
      for value in values { continuation.yield(value) }
      continuation.finish()
    }
    let (url, handle) = try temporaryOutput(self)
    try await KeyedJSONEncoder().encodeArray(stream, at: "items", to: handle)
    XCTAssertEqual(
      try Data(contentsOf: url), try KeyedJSONEncoder().encode(["items": records]))
    let lineStream = AsyncStream<Int> { continuation in
      for value in 0..<5 { continuation.yield(value) }
      continuation.finish()
    }
    let (linesURL, linesHandle) = try temporaryOutput(self)
    try await KeyedJSONEncoder().encodeLines(lineStream, to: linesHandle)
    XCTAssertEqual(
      String(decoding: try Data(contentsOf: linesURL), as: UTF8.self), "0\n1\n2\n3\n4\n")
  }

  func testErrorsCarryTheIndexInTheWholeSequence() throws {
    let values = (0..<600).map { $0 == 437 ? Double.nan : Double($0) }
    let (_, handle) = try temporaryOutput(self)
    XCTAssertThrowsError(try KeyedJSONEncoder().encodeArray(values, at: "data.items", to: handle)) {
      error in
      guard case EncodingError.invalidValue = error else {
        return XCTFail("expected invalidValue, got \(error)")
      }
      XCTAssertEqual(pathText(error), "data.items[437]")
    }
    let (_, linesHandle) = try temporaryOutput(self)
    XCTAssertThrowsError(try KeyedJSONEncoder().encodeLines(values, to: linesHandle)) { error in
      XCTAssertEqual(pathText(error), "[437]")
    }
  }
}
