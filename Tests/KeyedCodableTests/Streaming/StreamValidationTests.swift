import Foundation
import XCTest

@testable import KeyedCodable

/// The stream accepts exactly the documents the in-memory parser accepts, and gives the same
/// elements.
final class StreamValidationTests: XCTestCase {
  /// Reads `bytes` as a streamed array at `keyPath` of JSON values, in chunks of `size`.
  private func streamed(_ bytes: [UInt8], at keyPath: String, chunk size: Int) async -> (
    values: [JSONValue], error: (any Error)?
  ) {
    await readAll(
      KeyedJSONDecoder().elements(
        of: JSONValue.self, at: keyPath, fromChunks: Chunks(bytes: bytes, size: size)))
  }

  func testJSONTestSuiteDocumentsAsTopLevelArrays() async throws {
    let valid = JSONTestData.parsingCases("y_")
    let invalid = JSONTestData.parsingCases("n_")
    XCTAssertGreaterThan(valid.count, 90)
    XCTAssertGreaterThan(invalid.count, 180)
    for name in valid + invalid {
      let data = try JSONTestData.parsingCase(name)
      let bytes = Array(data)
      let whole = try? KeyedJSONDecoder().decode(JSONValue.self, from: data)
      for size in [1, 7, bytes.count + 1] {
        let (values, error) = await streamed(bytes, at: "", chunk: size)
        switch whole {
        case .array(let elements)?:
          XCTAssertNil(error, "\(name), chunks of \(size)")
          XCTAssertEqual(values, elements, "\(name), chunks of \(size)")
        case nil:
          XCTAssertNotNil(error, "\(name) is not JSON, chunks of \(size)")
        case .some:
          switch error {
          case DecodingError.typeMismatch?, DecodingError.valueNotFound?: continue
          default: break
          }
          guard case DecodingError.typeMismatch? = error else {
            XCTFail(
              "\(name): a top-level scalar or object, chunks of \(size): \(String(describing: error))"
            )
            continue
          }
        }
      }
    }
  }

  func testMutatedEnvelopesAgreeWithTheInMemoryParser() async throws {
    let base = Array(
      #"{"before":{"s":"a\u00e9\"b","n":[-0.5e-3,0,12],"t":true,"f":false,"z":null},"items":[{"id":1,"v":[1,{"x":"]"}]},"s\\",2.5,[],{}],"after":[{"deep":[[["\ud83d\ude00"]]]}],"end":"é"}"#
        .utf8)
    let alphabet = Array(#"{}[]:,"\ -+.eE0123456789tfnulrsaxé"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF]
    var generator = SeededGenerator(seed: 0x5EED)
    var checked = 0
    for round in 0..<3_000 {
      var bytes = base
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        let byte = alphabet.randomElement(using: &generator) ?? 0x20
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[position] = byte
        case 1: bytes.insert(byte, at: position)
        default: bytes.remove(at: position)
        }
      }
      let whole = try? KeyedJSONDecoder().decode(JSONValue.self, from: Data(bytes))
      let size = [1, 3, 64][round % 3]
      let (values, error) = await streamed(bytes, at: "items", chunk: size)
      guard let whole else {
        XCTAssertNotNil(error, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
        continue
      }
      checked += 1
      if case DecodingError.dataCorrupted? = error {
        XCTFail(
          "round \(round): valid JSON refused: \(String(decoding: bytes, as: UTF8.self)): \(error!)"
        )
      } else if error == nil, case .object(let object) = whole,
        object.names.filter({ $0 == "items" }).count == 1,
        case .array(let elements)? = object["items"]
      {
        XCTAssertEqual(values, elements, "round \(round)")
      }
    }
    XCTAssertGreaterThan(checked, 100, "some mutations keep the document valid")
  }
}
