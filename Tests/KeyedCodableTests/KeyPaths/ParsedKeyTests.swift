import Testing

@testable import KeyedCodable

/// The key grammar: how a key string and its options become a path.
@Suite struct ParsedKeyTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var key: String
    var options: KeyOptions = .default
    var flat = false
    var segments: [String] = []
    var lossy: [String]? = nil

    var testDescription: String { "\"\(key)\" \(options)" }
  }

  static let cases: [Case] = [
    Case(key: "id", segments: ["id"]),
    Case(key: "a.b.c", segments: ["a", "b", "c"]),
    Case(key: "", flat: true),
    Case(key: "", options: KeyOptions(flat: nil), segments: [""]),
    Case(key: ".", segments: ["", ""]),
    Case(key: "..", segments: ["", "", ""]),
    Case(key: "x..y", segments: ["x", "", "y"]),
    Case(key: ".details.description", segments: ["", "details", "description"]),
    Case(
      key: ".details.description", options: KeyOptions(flat: nil),
      segments: ["", "details", "description"]),
    Case(
      key: "+.greeting", options: KeyOptions(delimiter: "+", flat: nil),
      segments: ["", ".greeting"]),
    Case(key: "a.b", options: KeyOptions(delimiter: nil), segments: ["a.b"]),
    Case(key: "a.b", options: KeyOptions(delimiter: ""), segments: ["a.b"]),
    Case(key: "a::b::c", options: KeyOptions(delimiter: "::"), segments: ["a", "b", "c"]),
    Case(key: "a:::b", options: KeyOptions(delimiter: "::"), segments: ["a", ":b"]),
    Case(key: "__", options: KeyOptions(flat: "__"), flat: true),
    Case(key: "", options: KeyOptions(flat: "__"), segments: [""]),
    Case(key: "* array", segments: ["* array"], lossy: ["array"]),
    Case(key: "data.* items", segments: ["data", "* items"], lossy: ["data", "items"]),
    Case(key: "* data.items", segments: ["* data", "items"], lossy: ["data", "items"]),
    Case(key: "* data.* items", segments: ["* data", "* items"], lossy: ["data", "* items"]),
    Case(key: "* ", segments: ["* "], lossy: [""]),
    Case(key: "*array", segments: ["*array"]),
    Case(key: "* array", options: KeyOptions(optionalArrayElements: nil), segments: ["* array"]),
    Case(key: "* array", options: KeyOptions(optionalArrayElements: ""), segments: ["* array"]),
    Case(
      key: "### array", options: KeyOptions(optionalArrayElements: "### "), segments: ["### array"],
      lossy: ["array"]),
    Case(
      key: "### * array1", options: KeyOptions(optionalArrayElements: "### "),
      segments: ["### * array1"], lossy: ["* array1"]),
    Case(key: "naïve.ключ.🙂", segments: ["naïve", "ключ", "🙂"]),
    Case(key: "e\u{301}.x", segments: ["e\u{301}", "x"]),
    Case(key: "a.\u{301}b", segments: ["a.\u{301}b"]),
    // A carriage return and a line feed are one character: a delimiter or marker that is one
    // of them never matches half of the pair.
    Case(key: "a\r\nb", options: KeyOptions(delimiter: "\n"), segments: ["a\r\nb"]),
    Case(key: "a\r\nb", options: KeyOptions(delimiter: "\r"), segments: ["a\r\nb"]),
    Case(key: "a\rb\nc", options: KeyOptions(delimiter: "\r"), segments: ["a", "b\nc"]),
    Case(key: "a\r\n.b", segments: ["a\r\n", "b"]),
    Case(
      key: "*\r\nx", options: KeyOptions(optionalArrayElements: "*\r"), segments: ["*\r\nx"]),
    Case(
      key: "*\rx", options: KeyOptions(optionalArrayElements: "*\r"), segments: ["*\rx"],
      lossy: ["x"]),
    // A marker followed by a combining mark is another character; a marker is matched by any
    // text canonically equivalent to it.
    Case(key: "* \u{301}x", segments: ["* \u{301}x"]),
    Case(
      key: "\u{E9}array", options: KeyOptions(optionalArrayElements: "e\u{301}"),
      segments: ["\u{E9}array"], lossy: ["array"]),
    Case(
      key: "e\u{301}array", options: KeyOptions(optionalArrayElements: "\u{E9}"),
      segments: ["e\u{301}array"], lossy: ["array"]),
  ]

  /// Splits `text` character by character: what the byte paths for ASCII must agree with.
  static func referenceSplit(_ text: String, by delimiter: String) -> [String] {
    guard !delimiter.isEmpty else { return [text] }
    let characters = Array(text)
    let pattern = Array(delimiter)
    var segments: [String] = []
    var current: [Character] = []
    var index = 0
    while index < characters.count {
      if characters.count - index >= pattern.count,
        Array(characters[index..<index + pattern.count]) == pattern
      {
        segments.append(String(current))
        current = []
        index += pattern.count
      } else {
        current.append(characters[index])
        index += 1
      }
    }
    segments.append(String(current))
    return segments
  }

  /// The rest of `text` after the characters of `prefix`, compared one by one.
  static func referenceDropping(_ prefix: String, from text: String) -> String? {
    let prefixCharacters = Array(prefix)
    let characters = Array(text)
    guard characters.count >= prefixCharacters.count,
      Array(characters[0..<prefixCharacters.count]) == prefixCharacters
    else { return nil }
    return String(characters[prefixCharacters.count...])
  }

  @Test func keysOfAsciiAndOtherTextAreReadAsCharacterByCharacterReadingReadsThem() {
    // Random keys over an alphabet of delimiters, markers, line breaks, a combining mark and a
    // precomposed letter, with delimiters and markers of one and more bytes.
    let alphabet: [String] = ["a", "b", ".", "*", " ", ":", "\r", "\n", "\u{301}", "\u{E9}", "e"]
    let delimiters = [".", "\n", "\r", ":", "::", "\u{E9}"]
    let markers = ["* ", "*\r", "*", "e\u{301}", " "]
    var state: UInt64 = 35
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var mismatches: [String] = []
    for _ in 0..<4000 {
      let key = (0..<next(9)).map { _ in alphabet[next(alphabet.count)] }.joined()
      let delimiter = delimiters[next(delimiters.count)]
      let marker = markers[next(markers.count)]
      let options = KeyOptions(delimiter: delimiter, flat: nil, optionalArrayElements: marker)
      let parsed = ParsedKey(key, options: options)
      let segments = Self.referenceSplit(key, by: delimiter)
      var lossy: [String]? = nil
      if let rest = Self.referenceDropping(marker, from: key) {
        lossy = Self.referenceSplit(rest, by: delimiter)
      } else if let last = segments.last, let rest = Self.referenceDropping(marker, from: last) {
        lossy = Array(segments.dropLast()) + [rest]
      }
      if parsed.segments != segments || parsed.lossySegments != lossy || parsed.isFlat {
        mismatches.append(
          "\(key.debugDescription) \(delimiter.debugDescription) \(marker.debugDescription)")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  @Test(arguments: cases)
  func keyIsReadWithItsOptions(_ testCase: Case) {
    let parsed = ParsedKey(testCase.key, options: testCase.options)
    #expect(parsed.isFlat == testCase.flat)
    #expect(parsed.segments == testCase.segments)
    #expect(parsed.lossySegments == testCase.lossy)
  }

  @Test func longKeyPathsSplitIntoEverySegment() {
    let segments = (0..<300).map { "s\($0)" }
    let parsed = ParsedKey(segments.joined(separator: "."), options: .default)
    #expect(parsed.segments == segments)
  }

  @Test func defaultOptionsAreTheDocumentedMarkers() {
    let options = KeyOptions.default
    #expect(options.delimiter == ".")
    #expect(options.flat == "")
    #expect(options.optionalArrayElements == "* ")
    #expect(KeyOptions() == options)
    let custom = KeyOptions(delimiter: "/", flat: nil, optionalArrayElements: "~")
    #expect(custom.delimiter == "/")
    #expect(custom.flat == nil)
    #expect(custom.optionalArrayElements == "~")
  }
}
