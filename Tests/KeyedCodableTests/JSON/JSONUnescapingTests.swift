import Foundation
import Testing

@testable import KeyedCodable

/// The unescaping of a JSON string's contents writes valid UTF-8 whatever its input, since the
/// string is made from those bytes without a second validation: escapes the scanners reject
/// (a surrogate without its pair) become U+FFFD instead of invalid bytes.
struct JSONUnescapingTests {
  static func unescaped(_ text: String) -> String {
    Array(text.utf8).withUnsafeBufferPointer { JSONStrings.unescaped($0) }
  }

  @Test func surrogatesWithoutTheirPairBecomeTheReplacementCharacter() {
    #expect(Self.unescaped(#"a\uD800b"#) == "a\u{FFFD}b")
    #expect(Self.unescaped(#"\uDC00"#) == "\u{FFFD}")
    #expect(Self.unescaped(#"\uD800\u0041"#) == "\u{FFFD}A")
    #expect(Self.unescaped(#"\uD83D\uDE00\uD83D"#) == "😀\u{FFFD}")
    // Each result is a valid string that survives a round trip through its UTF-8.
    for text in [#"\uD800"#, #"x\uDBFF\uDBFF"#, #"\uDFFF\uD800"#] {
      let result = Self.unescaped(text)
      #expect(String(validating: Array(result.utf8), as: UTF8.self) == result)
    }
  }

  @Test func escapesAtEveryPositionOfEveryLengthReadAsFoundationReadsThem() throws {
    // The text between escapes is copied in runs found eight bytes at a time: each escape at
    // every position, alone, doubled and next to text outside ASCII, as Foundation reads it.
    let escapes = [#"\""#, #"\\"#, #"\/"#, #"\n"#, #"\u00e9"#, #"\uD83D\uDE00"#, #"\u0000"#]
    var documents: [String] = []
    for length in 0...24 {
      for escape in escapes {
        documents += texts(placing: escape, amongRunOf: length)
        documents += texts(placing: escape + escape, amongRunOf: length)
        documents.append(String(repeating: "é" + escape, count: length + 1))
      }
    }
    let json = Data(("[" + documents.map { "\"\($0)\"" }.joined(separator: ",") + "]").utf8)
    let expected = try JSONDecoder().decode([String].self, from: json)
    let decoded = try KeyedJSONDecoder().decode([String].self, from: json)
    let mismatchCount = zip(decoded, expected).filter { $0 != $1 }.count
    #expect(decoded.count == expected.count)
    #expect(mismatchCount == 0)
  }

  @Test func everyEscapeIsResolved() {
    #expect(
      Self.unescaped(#"\"\\\/\b\f\n\r\t\u0000\u00e9\u20AC\uD83D\uDE00"#)
        == "\"\\/\u{8}\u{C}\n\r\t\u{0}é€😀")
    #expect(Self.unescaped("") == "")
    #expect(Self.unescaped("plain") == "plain")
  }
}
