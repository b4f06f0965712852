import Foundation
import Testing

@testable import KeyedCodable

/// The tape's one word per value: where each value starts, and the lengths and counts too long
/// for the word's 24 bits, which the document keeps apart.
@Suite struct JSONTapeLimitsTests {
  func parse(_ text: String) throws -> JSONDocument {
    try Data(text.utf8).withUnsafeBytes { try JSONDocument(parsing: $0) }
  }

  /// The offset of the first byte of every value of a valid document, by a plain walk over its
  /// bytes: a string's opening quote, a container's bracket, a number's or literal's first byte.
  static func valueStarts(_ document: JSONDocument) -> [Int] {
    let bytes = Array(UnsafeBufferPointer(start: document.bytes, count: document.count))
    let ends = Set(",]}:".utf8 + [0x20, 0x09, 0x0A, 0x0D])
    var starts: [Int] = []
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        starts.append(index)
        index += 1
        while bytes[index] != UInt8(ascii: "\"") {
          index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index += 1
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        starts.append(index)
        index += 1
      case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ":"):
        index += 1
      case 0x20, 0x09, 0x0A, 0x0D:
        index += 1
      default:
        starts.append(index)
        while index < bytes.count, !ends.contains(bytes[index]) { index += 1 }
      }
    }
    return starts
  }

  /// Checks `start(of:)` for every entry, alone and with the container found last as the known
  /// one (as the stream's check of a batch reads them).
  func checkStarts(_ document: JSONDocument, _ name: String) {
    let expected = Self.valueStarts(document)
    #expect(expected.count == document.entryCount, "\(name): the walk found every value")
    var known: (entry: Int, start: Int)?
    for entry in 0..<Swift.min(expected.count, document.entryCount) {
      #expect(document.start(of: entry) == expected[entry], "\(name): entry \(entry)")
      let start = document.start(of: entry, after: known)
      #expect(
        start == expected[entry], "\(name): entry \(entry) after \(String(describing: known))")
      if document.kind(entry) == .array || document.kind(entry) == .object {
        known = (entry, start)
      }
    }
  }

  @Test(arguments: [
    #"[[], [[]], {}, {"a": []}, [{}], "[{", 1, [[[ ]]], {"x": {"y": [{}]}}, true]"#,
    #"{"[": "{", "b": [[], "]", [{"c": [[]]}]], "d": null, "e": -0.5e-3}"#,
    "\u{FEFF}[[],{}]", " [ ] ", "[[[[[[[[[]]]]]]]]]", #"["\"[", [], "\\", {}]"#,
    #"[1, [2, [3, [4, []]]], {"k": [{}, []]}, false]"#,
  ])
  func everyValueStartsWhereItsFirstByteIs(json: String) throws {
    checkStarts(try parse(json), json)
  }

  @Test(arguments: JSONTestData.parsingCases("y_"))
  func everyValueOfTheAcceptedCasesStartsWhereItsFirstByteIs(_ name: String) throws {
    let data = try JSONTestData.parsingCase(name)
    checkStarts(try data.withUnsafeBytes { try JSONDocument(parsing: $0) }, name)
  }

  /// At 2²⁴ - 1 bytes (``JSONDocument/longLength``) and beyond, a length leaves the entry.
  @Test(arguments: [JSONDocument.longLength, 17_000_000])
  func stringsOf16MiBAndMoreKeepTheirLength(length: Int) throws {
    let text =
      String(repeating: "[a{", count: length / 3) + String(repeating: "b", count: length % 3)
    let document = try parse("[\"\(text)\", -12, [{}], \"z\"]")
    #expect(document.length(1) == length)
    #expect(document.hasLength(1, length))
    #expect(!document.hasLength(1, length + 1))
    #expect(!document.hasLength(1, length - 1))
    #expect(document.length(2) == 3)
    #expect(document.kind(3) == .array)
    #expect(document.start(of: 3) == length + 10)
    #expect(document.start(of: 4) == length + 11)
    #expect(JSONStrings.string(at: 5, in: document) == "z")
    let decoder = JSONValueDecoder(document: document, options: .init())
    // The runs and frames a decode keeps refer to the decoder until it finishes.
    defer { decoder.finish() }
    let decoded = try [Part](from: decoder)
    #expect(decoded.map(\.count) == [length, 3, 1, 1])
    #expect(decoded[0].text.hasPrefix("[a{[a{"))
  }

  /// Member names whose lengths the tape keeps aside are found, and told apart by length, in
  /// small objects (scanned) and large ones (indexed).
  @Test func namesOf16MiBAreFoundInSmallAndLargeObjects() throws {
    let name = String(repeating: "n", count: JSONDocument.longLength)
    let others = (0..<8).map { "\"m\($0)\": 0, " }.joined()
    for (prefix, first) in [("", 1), (others, 17)] {
      let json = "{" + prefix + "\"a\": 0, \"\(name)\": 1, \"\(name)n\": 2}"
      let decoder = JSONValueDecoder(document: try parse(json), options: .init())
      #expect(decoder.member(name, in: 0) == first + 3, "\(prefix.isEmpty ? "small" : "large")")
      #expect(decoder.member(name + "n", in: 0) == first + 5)
      #expect(decoder.member(String(name.dropLast()), in: 0) == nil)
      #expect(decoder.member("a", in: 0) == first + 1)
    }
  }

  /// A string, or the text of any other value.
  struct Part: Decodable {
    var text: String
    var count: Int { text.utf8.count }
    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        self.text = text
      } else if let number = try? container.decode(Int.self) {
        text = String(number)
      } else {
        text = "?"
      }
    }
  }

  /// The number of elements an array's unkeyed container reports, without reading them.
  struct Count: Decodable {
    var count: Int?
    var first: Int
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      count = container.count
      first = try container.decode(Int.self)
    }
  }

  /// Past 2²⁴ - 1 elements a count leaves the entry, and past 2²⁴ commas the scanner's count
  /// of them wraps around, so the elements are counted again. (Left out of the address
  /// sanitizer's run, where scanning the 33 MB document takes minutes.)
  @Test(.enabled(if: Stress.scale == 1))
  func arraysOf16MillionElementsAndMoreKeepTheirCount() throws {
    let count = (1 << 24) + 3
    let elements = "7" + String(repeating: ",0", count: count - 1)
    let document = try parse("[[" + elements + "], {\"a\": 1}]")
    #expect(document.memberCount(0) == 2)
    #expect(document.memberCount(1) == count)
    #expect(document.next(1) == count + 2)
    #expect(document.kind(count + 2) == .object)
    #expect(document.memberCount(count + 2) == 1)
    #expect(document.start(of: count + 2) == 2 * count + 4)
    let decoder = JSONValueDecoder(document: document, options: .init())
    defer { decoder.finish() }
    var outer = try decoder.unkeyedContainer()
    let inner = try outer.decode(Count.self)
    #expect(inner.count == count)
    #expect(inner.first == 7)
  }
}
