import Foundation
import Testing

@testable import KeyedCodable

/// The scanner on its own: RFC 8259 validation and the tape.
@Suite struct JSONScannerTests {
  func parse(_ data: Data) throws -> JSONDocument {
    try data.withUnsafeBytes { try JSONDocument(parsing: $0) }
  }

  func parse(_ text: String) throws -> JSONDocument {
    try parse(Data(text.utf8))
  }

  @Test(arguments: JSONTestData.parsingCases("y_"))
  func everyAcceptedCaseParses(_ name: String) throws {
    let data = try JSONTestData.parsingCase(name)
    #expect(throws: Never.self) { try parse(data) }
  }

  @Test(arguments: JSONTestData.parsingCases("n_"))
  func everyRejectedCaseThrows(_ name: String) throws {
    let data = try JSONTestData.parsingCase(name)
    #expect(throws: JSONSyntaxError.self) { try parse(data) }
  }

  @Test func theSuiteIsThere() {
    #expect(JSONTestData.parsingCases("y_").count == 95)
    #expect(JSONTestData.parsingCases("n_").count == 188)
    #expect(JSONTestData.parsingCases("i_").count == 35)
  }

  @Test func theTapeDescribesEveryValue() throws {
    let document = try parse(#" {"a": [1, -2.5e3, "x\n"], "b": {}, "c": true, "d": null} "#)
    #expect(document.kind(0) == .object)
    #expect(document.memberCount(0) == 4)
    #expect(document.next(0) == document.entryCount)
    #expect(JSONStrings.string(at: 1, in: document) == "a")
    #expect(document.kind(2) == .array)
    #expect(document.memberCount(2) == 3)
    #expect(document.next(2) == 6)
    #expect(String(decoding: document.span(3), as: UTF8.self) == "1")
    #expect(document.flags(3) == JSONDocument.isPlainInteger)
    #expect(String(decoding: document.span(4), as: UTF8.self) == "-2.5e3")
    #expect(document.flags(4) == 0)
    #expect(JSONStrings.string(at: 5, in: document) == "x\n")
    #expect(document.kind(7) == .object)
    #expect(document.memberCount(7) == 0)
    #expect(document.next(7) == 8)
    #expect(document.kind(9) == .true)
    #expect(document.kind(11) == .null)
  }

  @Test(arguments: [
    (#"{"a":1,"b":2}"#, false), (#"{"\u0061":1,"a":2}"#, true), (#"{"é":1,"b":2}"#, true),
    (#"{"a":{"é":1},"b":2}"#, false), (#"{"a\n":1}"#, true),
  ])
  func objectsWithEscapedOrNonASCIINamesAreFlagged(json: String, complex: Bool) throws {
    let document = try parse(json)
    #expect((document.flags(0) & JSONDocument.hasComplexNames != 0) == complex)
  }

  @Test(arguments: [
    (#"{"a":1,"a":2}"#, true), (#"{"a":1,"b":2}"#, false), (#"{"\u0061":1,"a":2}"#, true),
    (#"{"é":1,"é":2}"#, true), (#"{"ab":1,"a":2,"b":3}"#, false),
  ])
  func repeatedNamesAreFoundInSmallObjects(json: String, repeats: Bool) throws {
    let decoder = JSONValueDecoder(document: try parse(json), options: .init())
    #expect(decoder.mayRepeatNames(in: 0) == repeats)
  }

  @Test func largeObjectsAreIndexedOnFirstLookupAndFindTheFirstOfRepeatedNames() throws {
    let members = (0..<100).map { "\"key\($0)\":\($0)" }
    let unique = JSONValueDecoder(
      document: try parse("{" + members.joined(separator: ",") + "}"), options: .init())
    #expect(!unique.mayRepeatNames(in: 0))
    #expect(unique.member("key99", in: 0) != nil)
    let repeated = JSONValueDecoder(
      document: try parse("{" + (members + ["\"key42\":-1"]).joined(separator: ",") + "}"),
      options: .init())
    let entry = try #require(repeated.member("key42", in: 0))
    #expect(String(decoding: repeated.document.span(entry), as: UTF8.self) == "42")
    #expect(repeated.mayRepeatNames(in: 0))
    #expect(repeated.member("key100", in: 0) == nil)
  }

  @Test func errorsNameTheLineAndColumn() throws {
    do {
      _ = try parse("{\n  \"a\": tru\n}")
      Issue.record("expected an error")
    } catch let error as JSONSyntaxError {
      #expect(error.line == 2)
      #expect(error.column == 8)
      #expect(error.description == "Unexpected character 't' at line 2, column 8.")
    }
  }

  @Test func nestingDeeperThanFoundationsLimitIsRejected() throws {
    let limit = JSONScanner.maximumDepth
    #expect(throws: Never.self) {
      try parse(String(repeating: "[", count: limit) + String(repeating: "]", count: limit))
    }
    #expect(throws: JSONSyntaxError.self) {
      try parse(String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1))
    }
  }

  struct Inner: Decodable, Equatable {
    var b0, b1, b2, b3, b4, b5, b6, b7, b8, b9: Int
  }

  struct Outer: Decodable, Equatable {
    var a0, a1, a2, a3, a4: Int
    var inner: Inner
    var a5, a6, a7, a8, a9: Int
  }

  /// Large objects get their name index in a small cache: an object read again after many others
  /// (its index given way) is indexed again, and still finds the first of two repeated names.
  @Test func largeObjectsReadAroundOtherLargeObjectsFindEveryMember() throws {
    func object(_ prefix: String, _ base: Int, extra: String = "") -> String {
      "{" + (0..<10).map { "\"\(prefix)\($0)\":\(base + $0)" }.joined(separator: ",") + extra + "}"
    }
    let elements = (0..<64).map { index in
      object("a", index * 100, extra: ",\"inner\":" + object("b", index * 100 + 50) + ",\"a7\":-1")
    }
    let json = Data(("[" + elements.joined(separator: ",") + "]").utf8)
    let ours = try KeyedJSONDecoder().decode([Outer].self, from: json)
    let foundation = try JSONDecoder().decode([Outer].self, from: json)
    #expect(ours == foundation)
    #expect(ours[63].a7 == 6307, "the first of two members named a7")
    #expect(ours[63].inner.b9 == 6359)
  }
}
