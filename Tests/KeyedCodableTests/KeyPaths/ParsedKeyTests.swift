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
  ]

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
