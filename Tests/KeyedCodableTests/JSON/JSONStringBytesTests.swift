import Foundation
import KeyedCodable
import Testing

/// Strings are made from the bytes the scanner validated without a second validation: every
/// length of UTF-8 sequence, at every position of short and long strings, with and without
/// escapes, reads as Foundation reads it, and invalid UTF-8 is still refused.
struct JSONStringBytesTests {
  /// One scalar of each UTF-8 length: 1, 2, 3 and 4 bytes.
  static let scalars = ["a", "é", "€", "😀"]

  static func strings() -> [String] {
    var result: [String] = [""]
    for length in 1...40 {
      for (offset, scalar) in scalars.enumerated() {
        // The scalar at the start, in the middle and at the end of ASCII runs of every length.
        let filler = String(repeating: "x", count: length)
        result.append(scalar + filler)
        result.append(filler + scalar + filler)
        result.append(filler + scalar)
        // Runs of one length of sequence, and all four mixed.
        result.append(String(repeating: scalar, count: length))
        result.append(
          (0..<length).map { scalars[($0 + offset) % scalars.count] }.joined())
      }
    }
    return result
  }

  @Test func everyLengthOfSequenceReadsAsFoundationReadsIt() throws {
    let strings = Self.strings()
    let data = try JSONEncoder().encode(strings)
    #expect(try KeyedJSONDecoder().decode([String].self, from: data) == strings)
    // The same with escapes, which take the other path.
    let escaped = strings.map { $0 + "\n\u{1}\"\\" }
    let escapedData = try JSONEncoder().encode(escaped)
    #expect(try KeyedJSONDecoder().decode([String].self, from: escapedData) == escaped)
    #expect(
      try KeyedJSONDecoder().decode([String].self, from: escapedData)
        == (try JSONDecoder().decode([String].self, from: escapedData)))
  }

  @Test(
    arguments: [
      [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80],
      [0xF0, 0x9F, 0x98],
    ] as [[UInt8]])
  func invalidUTF8IsStillRefused(_ bytes: [UInt8]) {
    let data = Data(#"[""#.utf8 + bytes + #""]"#.utf8)
    #expect(throws: DecodingError.self) {
      try KeyedJSONDecoder().decode([String].self, from: data)
    }
  }

  @Test func everyByteThatStopsARunIsFoundAtEveryPlaceOfLongStrings() {
    // The scan looks at sixteen bytes at once on x86-64 and eight elsewhere, and on x86-64 at
    // sixty-four after two plain looks while the document holds them: each byte that ends a
    // plain run (a quote, a backslash, a control character, a byte outside ASCII, and the zero
    // after the document), or that does not (a space, DEL), at every place of strings one to
    // three looks long, where the look before it was all plain, and at the places around the
    // looks' bounds of strings of up to three wide looks.
    let stops: [[UInt8]] = [
      [0x22], [0x5C, 0x6E], [0x5C, 0x75, 0x30, 0x30, 0x34, 0x31], [0x5C], [0x00], [0x01],
      [0x1F], [0x20], [0x7F], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80],
      [0x80], [0xC3], [0xFF],
    ]
    let decoders = DecoderPair()
    for stop in stops {
      for length in [
        1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 95, 96, 97, 159, 160, 161, 225,
      ] {
        let bounds = stride(from: 16, through: length, by: 16).flatMap { [$0 - 1, $0, $0 + 1] }
        let places = length < 64 ? Array(0...length) : [0, 1] + bounds.filter { $0 <= length }
        for place in places {
          var text = [UInt8](repeating: 0x61, count: length)
          text.insert(contentsOf: stop, at: place)
          let (ours, foundation) = decoders.decode(
            [String].self, from: Data(Array(#"[""#.utf8) + text + Array(#""]"#.utf8)))
          #expect(ours == foundation, "\(stop) at \(place) of \(length)")
          // Unclosed, the string runs into the end of the document.
          let (oursOpen, foundationOpen) = decoders.decode(
            [String].self, from: Data(Array(#"[""#.utf8) + text))
          #expect(oursOpen == foundationOpen, "\(stop) at \(place) of \(length), unclosed")
          #expect(oursOpen == .error(.invalidJSON), "\(stop) at \(place) of \(length), unclosed")
        }
      }
    }
  }

  #if compiler(>=6.2)
    @Test func decodedStringsKnowWhetherTheyAreASCII() throws {
      // A string longer than fifteen bytes keeps in its storage whether it is ASCII, as the
      // standard library's own initializers find: its fast paths for hashing, comparing and
      // counting read it. Short strings are stored inline and find it themselves.
      guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
      let long = String(repeating: "abcdefgh", count: 4)
      let cases: [(json: String, isASCII: Bool)] = [
        (#""\#(long)""#, true),
        (#""\#(long)é""#, false),
        (#""\#(long)😀""#, false),
        (#""\#(long)\n\"""#, true),
        (#""\#(long)\u0041""#, true),
        (#""\#(long)\u00e9""#, false),
        (#""\#(long)\ud83d\ude00""#, false),
        (#""é\#(long)\n""#, false),
        (#""short""#, true),
        (#""shortø""#, false),
      ]
      for (json, isASCII) in cases {
        let data = Data("[\(json)]".utf8)
        let ours = try KeyedJSONDecoder().decode([String].self, from: data)
        let foundation = try JSONDecoder().decode([String].self, from: data)
        #expect(ours == foundation, "\(json)")
        #expect(ours.first?.utf8Span.isKnownASCII == isASCII, "\(json)")
        #expect(
          ours.first?.utf8Span.isKnownASCII == foundation.first?.utf8Span.isKnownASCII, "\(json)")
        // A member name read through allKeys, and a dictionary's key, the same.
        let object = Data("{\(json):1}".utf8)
        let key = try KeyedJSONDecoder().decode([String: Int].self, from: object).keys.first
        #expect(key?.utf8Span.isKnownASCII == isASCII, "\(json) as a name")
      }
    }
  #endif

  @Test func everyLeadByteWithEverySecondByteNearTheLimitsIsJudgedAsTheStandardLibraryJudgesIt() {
    // Each lead byte from C0 on, with every second byte from 70 to CF (around each limit of
    // continuation bytes, overlong forms and surrogates), and third and fourth bytes in and out
    // of range: the scan accepts exactly the strings the standard library finds valid.
    let after: [UInt8] = [0x41, 0x80, 0xBF, 0xC0]
    var mismatches: [[UInt8]] = []
    for lead in UInt8(0xC0)...0xFF {
      for second in UInt8(0x70)...0xCF {
        for third in after {
          for fourth in after {
            let text: [UInt8] = [0x61, lead, second, third, fourth, 0x62]
            let valid = String(validating: text, as: UTF8.self) != nil
            let json = Data(Array(#"[""#.utf8) + text + Array(#""]"#.utf8))
            let decoded = try? KeyedJSONDecoder().decode([String].self, from: json)
            if (decoded != nil) != valid
              || (valid && decoded?.first?.utf8.elementsEqual(text) != true)
            {
              mismatches.append(text)
            }
          }
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(8))")
  }

  /// `text` as a JSON string whose every scalar is a `\u` escape (a surrogate pair above the
  /// BMP), or every other scalar when `mixed`.
  static func escapedJSON(_ text: String, mixed: Bool) -> String {
    var json = "\""
    for (offset, scalar) in text.unicodeScalars.enumerated() {
      if mixed, offset % 2 == 1, scalar != "\"", scalar != "\\", scalar.value >= 0x20 {
        json.unicodeScalars.append(scalar)
        continue
      }
      for unit in String(scalar).utf16 {
        let hex = String(unit, radix: 16)
        json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      }
    }
    return json + "\""
  }

  @Test func escapedScalarsOfEveryLengthReadAsFoundationReadsThem() throws {
    // Short strings, and strings longer than any buffer on the stack.
    let texts =
      Self.strings().filter { !$0.isEmpty }
      + [String(repeating: "é😀a€", count: 5_000), String(repeating: "\n", count: 70_000)]
    for mixed in [false, true] {
      let json = "[" + texts.map { Self.escapedJSON($0, mixed: mixed) }.joined(separator: ",") + "]"
      let data = Data(json.utf8)
      let ours = try KeyedJSONDecoder().decode([String].self, from: data)
      #expect(ours == texts)
      #expect(ours == (try JSONDecoder().decode([String].self, from: data)))
    }
  }

  @Test(arguments: [#""\uD800""#, #""\uD800\u0041""#, #""\uDC00""#, #""a\uDBFF""#])
  func loneSurrogateEscapesAreStillRefused(_ string: String) {
    #expect(throws: DecodingError.self) {
      try KeyedJSONDecoder().decode(String.self, from: Data(string.utf8))
    }
  }

  @Test func memberNamesAndDictionaryKeysOfEveryLengthRead() throws {
    let keys = Self.strings().filter { !$0.isEmpty }.prefix(200)
    let dictionary = Dictionary(
      keys.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    let data = try JSONEncoder().encode(dictionary)
    #expect(try KeyedJSONDecoder().decode([String: Int].self, from: data) == dictionary)
  }
}

/// Strings are written with their escapes found eight bytes at a time: each character to
/// escape, at every position of strings of every length, alone and in runs, next to text
/// outside ASCII, with slashes escaped or not, is written as Foundation writes it.
struct JSONStringEscapeWritingTests {
  static let specials = ["\"", "\\", "/", "\n", "\t", "\u{01}", "\u{1F}", "\u{08}", "\u{0C}"]

  static func strings() -> [String] {
    var result: [String] = []
    for length in 0...20 {
      for special in specials {
        result += texts(placing: special, amongRunOf: length)
        result.append(String(repeating: special, count: length + 1))
        result.append(String(repeating: "é" + special, count: length + 1))
        result.append(String(repeating: "😀", count: length) + special + "€")
      }
    }
    // Two characters to escape with text around and between them, so that the second is in
    // the last bytes of the string after the first was written (the short strings, and the
    // ends of long ones, are looked at in one word).
    for (first, second) in [("\"", "\n"), ("/", "\u{01}"), ("\t", "\\")] {
      for before in 0...9 {
        for between in 0...9 {
          for after in 0...3 {
            result.append(
              String(repeating: "a", count: before) + first + String(repeating: "b", count: between)
                + second + String(repeating: "é", count: after))
          }
        }
      }
    }
    return result
  }

  @Test(arguments: [false, true])
  func everyEscapeAtEveryPositionIsWrittenAsFoundationWritesIt(withoutEscapingSlashes: Bool)
    throws
  {
    let strings = Self.strings()
    let foundation = JSONEncoder()
    let ours = KeyedJSONEncoder()
    if withoutEscapingSlashes {
      foundation.outputFormatting = [.withoutEscapingSlashes]
      ours.outputFormatting = [.withoutEscapingSlashes]
    }
    var mismatches: [String] = []
    for string in strings {
      let expected = String(decoding: try foundation.encode([string]), as: UTF8.self)
      let written = String(decoding: try ours.encode([string]), as: UTF8.self)
      if written != expected { mismatches.append(written) }
    }
    let mismatchCount = mismatches.count
    #expect(mismatchCount == 0, "\(mismatches.prefix(3))")
    #expect(try KeyedJSONDecoder().decode([String].self, from: ours.encode(strings)) == strings)
  }
}
