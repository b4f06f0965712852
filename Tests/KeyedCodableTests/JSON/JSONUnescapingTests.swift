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

  @Test func everyEscapeIsResolved() {
    #expect(
      Self.unescaped(#"\"\\\/\b\f\n\r\t\u0000\u00e9\u20AC\uD83D\uDE00"#)
        == "\"\\/\u{8}\u{C}\n\r\t\u{0}é€😀")
    #expect(Self.unescaped("") == "")
    #expect(Self.unescaped("plain") == "plain")
  }
}
