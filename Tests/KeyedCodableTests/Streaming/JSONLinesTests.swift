import Foundation
import KeyedCodable
import XCTest

final class JSONLinesTests: XCTestCase {
  private func lines<T: Decodable>(
    _ text: String, as type: T.Type, lossy: Bool = false, context: MappingContext? = nil
  ) throws -> (values: [T], error: (any Error)?) {
    let url = try temporaryFile(text, self)
    return readAll(
      try KeyedJSONDecoder().linesReader(
        for: T.self, contentsOf: url, lossy: lossy, context: context))
  }

  func testReadsOneValuePerLine() throws {
    let text = #"{"id":1,"name":"a"}"# + "\n" + #"{"id":2,"name":"b"}"# + "\n"
    let (values, error) = try lines(text, as: StreamRecord.self)
    XCTAssertNil(error)
    XCTAssertEqual(values, [StreamRecord(id: 1, name: "a"), StreamRecord(id: 2, name: "b")])
  }

  func testLineEndingsBlankLinesAndTheLastLine() throws {
    XCTAssertEqual(try lines("1\r\n2\r\n", as: Int.self).values, [1, 2])
    XCTAssertEqual(try lines("1\n2", as: Int.self).values, [1, 2], "no line feed at the end")
    XCTAssertEqual(try lines("\n\n  1\n \t\r\n\n2\n\n", as: Int.self).values, [1, 2])
    XCTAssertEqual(try lines("", as: Int.self).values, [])
    XCTAssertNil(try lines("", as: Int.self).error)
    XCTAssertEqual(try lines("\u{FEFF}[1]\n[2,3]\n", as: [Int].self).values, [[1], [2, 3]])
    XCTAssertEqual(try lines(#""a\nb"  "# + "\n", as: String.self).values, ["a\nb"])
  }

  func testALineWithTwoValuesIsAnError() throws {
    for bad in ["1 2", "1,2", "[1],[2]", "{} {}", "1,", "[1", "]"] {
      let (values, error) = try lines("0\n\(bad)\n3\n", as: JSONValue.self)
      XCTAssertEqual(values, [0], bad)
      guard case DecodingError.dataCorrupted(let context)? = error else {
        XCTFail("\(bad): expected dataCorrupted, got \(String(describing: error))")
        continue
      }
      XCTAssertTrue(
        context.debugDescription.hasPrefix("Line 2 is not valid JSON"), context.debugDescription)
      XCTAssertEqual(pathText(error), "[1]")
    }
    let (_, split) = try lines("[1,\n2]\n", as: [Int].self)
    XCTAssertTrue(message(split).hasPrefix("Line 1 is not valid JSON"), message(split))
  }

  func testDecodingErrorsNameTheLine() throws {
    let text = "\n" + #"{"id":1,"name":"a"}"# + "\n\n" + #"{"id":2}"# + "\n"
    let (values, error) = try lines(text, as: StreamRecord.self)
    XCTAssertEqual(values.count, 1)
    guard case DecodingError.keyNotFound? = error else {
      return XCTFail("expected keyNotFound, got \(String(describing: error))")
    }
    XCTAssertEqual(pathText(error), "[1].name")
    XCTAssertTrue(message(error).hasSuffix("(in line 4)"), message(error))
  }

  func testLossyLinesAreDroppedAndReported() throws {
    let reporter = DecodingReporter()
    let (values, error) = try lines(
      "1\n\"x\"\n3\n", as: Int.self, lossy: true, context: MappingContext().reporting(to: reporter))
    XCTAssertNil(error)
    XCTAssertEqual(values, [1, 3])
    XCTAssertEqual(reporter.report.entries.map(\.pathDescription), ["[1]"])
  }

  func testEveryChunkSizeAndAsyncBytes() async throws {
    let text =
      "{\"id\":1,\"name\":\"a\"}\r\n\n{\"id\":2,\"name\":\"b\\nc\"}\n   \n{\"id\":3,\"name\":\"\"}"
    let bytes = Array(text.utf8)
    let expected = [
      StreamRecord(id: 1, name: "a"), StreamRecord(id: 2, name: "b\nc"),
      StreamRecord(id: 3, name: ""),
    ]
    for size in 1...bytes.count {
      let (values, error) = await readAll(
        KeyedJSONDecoder().lines(
          of: StreamRecord.self, fromChunks: Chunks(bytes: bytes, size: size)))
      XCTAssertNil(error, "chunks of \(size)")
      XCTAssertEqual(values, expected, "chunks of \(size)")
    }
    let stream = AsyncStream<UInt8> { continuation in
      for byte in bytes { continuation.yield(byte) }
      continuation.finish()
    }
    let fromBytes = await readAll(KeyedJSONDecoder().lines(of: StreamRecord.self, from: stream))
    XCTAssertEqual(fromBytes.values, expected)
    let url = try temporaryFile(text, self)
    let fromFile = await readAll(KeyedJSONDecoder().lines(of: StreamRecord.self, contentsOf: url))
    XCTAssertEqual(fromFile.values, expected)
  }

  func testManyLongLines() throws {
    var text = ""
    let long = String(repeating: "x", count: 700_000)
    for index in 0..<3_000 {
      text += index % 1_000 == 1 ? "\"\(long)\"\n" : "\"\(index)\"\n"
    }
    let (values, error) = try lines(text, as: String.self)
    XCTAssertNil(error)
    XCTAssertEqual(values.count, 3_000)
    XCTAssertEqual(values[1001], long)
    XCTAssertEqual(values[2999], "2999")
  }
}
