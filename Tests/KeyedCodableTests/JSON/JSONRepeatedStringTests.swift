import Foundation
import Testing

@testable import KeyedCodable

/// String values of 16 bytes or more that a document repeats are made once per decode and
/// shared (see `JSONRepeatedStrings`): values stay exactly Foundation's, whatever the strings
/// have in common.
@Suite struct JSONRepeatedStringTests {
  /// The strings of a document that is an array of strings, read through the table.
  func strings(of text: [String]) throws -> (strings: [String], table: JSONRepeatedStrings) {
    let data = try JSONEncoder().encode(text)
    let document = try data.withUnsafeBytes { try JSONDocument(parsing: $0) }
    var table = JSONRepeatedStrings()
    var result: [String] = []
    var entry = 1
    while entry < document.next(0) {
      result.append(
        document.length(entry) >= JSONRepeatedStrings.minimumLength && !table.isOff
          ? table.string(at: entry, in: document) : JSONStrings.string(at: entry, in: document))
      entry = document.next(entry)
    }
    return (result, table)
  }

  /// The address of a native string's bytes.
  func storage(_ string: String) -> UnsafeRawPointer? {
    var copy = string
    return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
  }

  @Test func aRepeatedValueIsMadeOnceAndShared() throws {
    let url = "https://abs.twimg.com/images/themes/theme1/bg.png"
    // The string between the repeats is shorter than the table's strings: one of 16 bytes or
    // more could take the URL's slot (one chance in 64, by the process's hash seed) and make
    // the next URL a string of its own, as the table is meant to.
    let text = [url, "Sun Aug 31", url, url]
    let (strings, _) = try self.strings(of: text)
    #expect(strings == text)
    #expect(storage(strings[0]) != nil)
    #expect(storage(strings[2]) == storage(strings[0]))
    #expect(storage(strings[3]) == storage(strings[0]))
    #expect(storage(strings[1]) != storage(strings[0]))
  }

  @Test func stringsAlikeButForTheirMiddleStayApart() throws {
    // The fingerprint reads the first and the last 16 bytes only: these strings all have one
    // fingerprint, and one slot, and must be compared whole.
    let head = String(repeating: "a", count: 16)
    let tail = String(repeating: "z", count: 16)
    let text = (0..<40).map { head + String($0 % 7) + "-\($0 % 3)" + tail }
    let (strings, _) = try self.strings(of: text)
    #expect(strings == text)
    let decoded = try KeyedJSONDecoder().decode([String].self, from: JSONEncoder().encode(text))
    #expect(decoded == text)
  }

  @Test func escapedAndPlainSpellingsReadAsFoundationReadsThem() throws {
    // One text spelled with escapes and without: the bytes differ, the strings are equal.
    let plain = #""café au lait, s'il vous plaît""#
    let escaped = #""caf\u00e9 au lait, s'il vous pla\u00eet""#
    let quoted = #""a \"quoted\" word, then a \\ backslash""#
    let items = [plain, escaped, quoted, plain, escaped, quoted, escaped, plain]
    let data = Data(("[" + items.joined(separator: ",") + "]").utf8)
    let decoded = try KeyedJSONDecoder().decode([String].self, from: data)
    #expect(decoded == (try JSONDecoder().decode([String].self, from: data)))
    #expect(decoded[0] == decoded[1])
    #expect(decoded[2] == #"a "quoted" word, then a \ backslash"#)
  }

  @Test func aDocumentWhoseStringsDontRepeatLeavesTheTableAlone() throws {
    let distinct = (0..<300).map { "a value that never repeats, number \($0)" }
    let (strings, table) = try self.strings(of: distinct)
    #expect(strings == distinct)
    #expect(table.isOff)
    // Strings that repeat keep the table on.
    let repeating = (0..<300).map { "a value that repeats, one of five: \($0 % 5)" }
    let (again, other) = try self.strings(of: repeating)
    #expect(again == repeating)
    #expect(!other.isOff)
  }

  struct Post: Codable, Equatable {
    var author: String
    var client: String
    var text: String
  }

  struct KeyedPost: Codable, Equatable, Keyedable {
    var author = ""
    var client = ""
    var text = ""

    init(author: String, client: String, text: String) {
      (self.author, self.client, self.text) = (author, client, text)
    }

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try author <-> map["author"]
      try client <-> map["meta.client"]
      try text <-> map["text"]
    }
  }

  /// Posts whose strings repeat, some from the start, some only after many that don't, in a
  /// document large enough for the table to grow.
  static func posts() -> [Post] {
    (0..<3000).map { index in
      Post(
        author: "author number \(index % 40) of the forty",
        client: index < 1500
          ? "a client seen once, number \(index)" : "<a href=\"x\">client \(index % 3)</a>",
        text: index % 2 == 0 ? "an even post, with a ☃ and an é in it" : "an odd post \(index)")
    }
  }

  @Test func valuesOfModelsAndJSONValuesAreFoundationsWhateverTheyRepeat() throws {
    let posts = Self.posts()
    let data = try JSONEncoder().encode(posts)
    #expect(try KeyedJSONDecoder().decode([Post].self, from: data) == posts)
    // Untyped values.
    let value = try KeyedJSONDecoder().decode(JSONValue.self, from: data)
    let read = (value.arrayValue ?? []).map {
      Post(
        author: $0["author"]?.stringValue ?? "", client: $0["client"]?.stringValue ?? "",
        text: $0["text"]?.stringValue ?? "")
    }
    #expect(read == posts)
    // A Keyedable model, whose strings are read by its mappings.
    let nested = try JSONSerialization.data(
      withJSONObject: posts.map {
        ["author": $0.author, "meta": ["client": $0.client], "text": $0.text] as [String: Any]
      })
    let keyed = try KeyedJSONDecoder().decode([KeyedPost].self, from: nested)
    #expect(keyed == posts.map { KeyedPost(author: $0.author, client: $0.client, text: $0.text) })
  }
}
