import Foundation
import KeyedCodable
import Testing

/// Lossy conversions: opt-in per mapping (`.converting(.lossy)` or a subset) and for a whole
/// decode (`MappingContext.converting(_:)`); strict by default; recorded in the report; numbers
/// that do not fit still throw.
@Suite("Values: lossy conversions", .bothCoders)
struct ConversionTests {
  struct Flags: Codable, Keyedable {
    var active = false
    var label = ""
    var count = 0
    var ratio = 0.0
    var small: Int8 = 0
    var optional: Bool?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try active <-> map["active"].converting(.lossy)
      try label <-> map["label"].converting(.lossy)
      try count <-> map["count"].converting(.lossy)
      try ratio <-> map["ratio"].converting(.lossy)
      try small <-> map["small"].converting(.lossy)
      try optional <-> map["optional"].converting(.lossy)
    }
  }

  /// A document with every member valid, and `member` replaced by `value`.
  static func flags(_ member: String, _ value: String) -> String {
    var members = [
      "active": "true", "label": #""x""#, "count": "0", "ratio": "0", "small": "0",
    ]
    members[member] = value
    return "{"
      + members.sorted { $0.key < $1.key }.map { #""\#($0.key)": \#($0.value)"# }
      .joined(separator: ", ") + "}"
  }

  // MARK: - Bool

  @Test(arguments: [
    ("1", true), ("0", false), ("1.0", true), (#""true""#, true), (#""false""#, false),
    (#""yes""#, true), (#""no""#, false), (#""1""#, true), (#""0""#, false), (#""TRUE""#, true),
    (#""Yes""#, true), (#""nO""#, false), ("true", true), ("false", false),
  ])
  func aBoolConvertsFromZeroOneAndItsWordsInAnyCase(json: String, expected: Bool) throws {
    #expect(try decode(Flags.self, from: Self.flags("active", json)).active == expected)
    #expect(try decode(Flags.self, from: Self.flags("optional", json)).optional == expected)
  }

  @Test(arguments: [
    "2", "-1", "0.5", #""""#, #"" yes""#, #""yes ""#, #""y""#, #""on""#, #""2""#, #""truee""#,
    "[]", "{}",
  ])
  func aBoolRejectsEverythingElseWithTheStrictError(json: String) throws {
    expectError("typeMismatch", at: ["active"]) {
      try decode(Flags.self, from: Self.flags("active", json))
    }
  }

  // MARK: - String

  @Test(arguments: [
    ("42", "42"), ("-7", "-7"), ("0.1", "0.1"), ("-0.5", "-0.5"), ("1.50", "1.5"),
    ("1e21", "1e+21"), ("1e3", "1000"), ("18446744073709551615", "18446744073709551615"),
    ("-9223372036854775808", "-9223372036854775808"), ("true", "true"), ("false", "false"),
    (#""already""#, "already"),
  ])
  func aStringConvertsFromNumbersAndBoolsAsJSONWritesThem(json: String, expected: String) throws {
    #expect(try decode(Flags.self, from: Self.flags("label", json)).label == expected)
  }

  @Test func aStringFromNegativeZeroIsZero() throws {
    #expect(try decode(Flags.self, from: Self.flags("label", "-0")).label == "0")
  }

  @Test func aStringRejectsNullArraysAndObjects() throws {
    expectError("valueNotFound", at: ["label"]) {
      try decode(Flags.self, from: Self.flags("label", "null"))
    }
    expectError("typeMismatch", at: ["label"]) {
      try decode(Flags.self, from: Self.flags("label", "[1]"))
    }
    expectError("typeMismatch", at: ["label"]) {
      try decode(Flags.self, from: Self.flags("label", "{}"))
    }
  }

  // MARK: - Numbers

  @Test(arguments: [
    (#""42""#, 42), (#""-7""#, -7), (#""007""#, 7), (#""-0""#, 0),
    (#""9223372036854775807""#, Int.max), (#""-9223372036854775808""#, Int.min), ("12", 12),
  ])
  func anIntConvertsFromADecimalDigitString(json: String, expected: Int) throws {
    #expect(try decode(Flags.self, from: Self.flags("count", json)).count == expected)
  }

  @Test(arguments: [
    #""1.5""#, #""1.0""#, #""1e3""#, #""+1""#, #"" 42""#, #""42 ""#, #""""#, #""٤٢""#, #""４２""#,
    #""9223372036854775808""#, #""0x1F""#, #""1_000""#, "true",
  ])
  func anIntRejectsOtherStringsWithTheStrictError(json: String) throws {
    expectError("typeMismatch", at: ["count"]) {
      try decode(Flags.self, from: Self.flags("count", json))
    }
  }

  @Test func anIntIsNeverMadeFromAFractionOrAnOutOfRangeNumber() throws {
    for json in ["1.5", "1e300", "9223372036854775808"] {
      expectError("dataCorrupted", at: pathOfNumberThatDoesNotFit(["count"])) {
        try decode(Flags.self, from: Self.flags("count", json))
      }
    }
    for json in ["300", "-129"] {
      expectError("dataCorrupted", at: pathOfNumberThatDoesNotFit(["small"])) {
        try decode(Flags.self, from: Self.flags("small", json))
      }
    }
    for json in [#""300""#, #""-129""#, #""1.5""#] {
      expectError("typeMismatch", at: ["small"]) {
        try decode(Flags.self, from: Self.flags("small", json))
      }
    }
    #expect(try decode(Flags.self, from: Self.flags("small", #""-128""#)).small == -128)
  }

  @Test func aJSONNumberWithAnExponentIsAnIntWhenItIsWhole() throws {
    // Not a conversion: the coders read 1e3 as the integer 1000, as Foundation does.
    #expect(try decode(Flags.self, from: Self.flags("count", "1e3")).count == 1000)
  }

  @Test(arguments: [
    (#""1.5""#, 1.5), (#""-0.25""#, -0.25), (#""1e3""#, 1000), (#""0.1""#, 0.1), (#""7""#, 7),
    (#""1.7976931348623157e308""#, Double.greatestFiniteMagnitude),
    (#""5e-324""#, Double.leastNonzeroMagnitude),
  ])
  func aDoubleConvertsFromTheJSONNumberGrammarInAString(json: String, expected: Double) throws {
    #expect(try decode(Flags.self, from: Self.flags("ratio", json)).ratio == expected)
  }

  @Test func aDoubleFromNegativeZeroKeepsTheSign() throws {
    let ratio = try decode(Flags.self, from: Self.flags("ratio", #""-0""#)).ratio
    #expect(ratio == 0 && ratio.sign == .minus)
  }

  @Test(arguments: [
    #""1e999""#, #""1e-999""#, #""NaN""#, #""inf""#, #""Infinity""#, #"" 1.5""#, #""1.5 ""#,
    #""""#, #"".5""#, #""1.""#, #""+1""#, #""0x10""#, #""1,5""#, #""١٫٥""#,
  ])
  func aDoubleRejectsOtherStringsWithTheStrictError(json: String) throws {
    expectError("typeMismatch", at: ["ratio"]) {
      try decode(Flags.self, from: Self.flags("ratio", json))
    }
  }

  @Test func otherWidthsReadOnlyTheNumbersTheyHold() throws {
    struct Widths: Codable, Keyedable {
      var byte: UInt8 = 0
      var short: Int16 = 0
      var float: Float = 0
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try byte <-> map["byte"].converting(.numbersFromStrings)
        try short <-> map["short"].converting(.numbersFromStrings)
        try float <-> map["float"].converting(.numbersFromStrings)
      }
    }
    let widths = try decode(
      Widths.self, from: #"{"byte": "255", "short": "-32768", "float": "0.1"}"#)
    #expect(widths.byte == 255 && widths.short == -32768 && widths.float == Float(0.1))
    for (member, text) in [
      ("byte", "256"), ("byte", "-1"), ("short", "32768"), ("float", "1e39"), ("float", "1e-50"),
    ] {
      var members = ["byte": "0", "short": "0", "float": "0"]
      members[member] = text
      let json =
        "{" + members.map { #""\#($0.key)": "\#($0.value)""# }.joined(separator: ", ") + "}"
      expectError("typeMismatch", at: [member]) { try decode(Widths.self, from: json) }
    }
  }

  @Test func aTransformsNumericRepresentationConvertsFromAString() throws {
    struct Stamped: Codable, Keyedable {
      var at = Date(timeIntervalSince1970: 0)
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try at <-> map["at"].using(.unixSeconds).converting(.numbersFromStrings)
      }
    }
    let (stamped, report) = try decodeReporting(Stamped.self, from: #"{"at": "1709209805.5"}"#)
    #expect(stamped.at == Date(timeIntervalSince1970: 1_709_209_805.5))
    #expect(report == [#"Converted "1709209805.5" to Double at at via at"#])
    try expectEncoded(stamped, #"{"at": 1709209805.5}"#)
  }

  // MARK: - Strict by default, subsets and overrides

  struct Strict: Codable, Keyedable {
    var active = false
    var count = 0
    var label = ""

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try active <-> map["active"]
      try count <-> map["count"]
      try label <-> map["label"]
    }
  }

  @Test func decodingIsStrictByDefault() throws {
    expectError("typeMismatch", at: ["active"]) {
      try decode(Strict.self, from: #"{"active": 1, "count": 1, "label": ""}"#)
    }
    expectError("typeMismatch", at: ["count"]) {
      try decode(Strict.self, from: #"{"active": true, "count": "1", "label": ""}"#)
    }
    expectError("typeMismatch", at: ["label"]) {
      try decode(Strict.self, from: #"{"active": true, "count": 1, "label": 5}"#)
    }
  }

  @Test func aSubsetAllowsOnlyItsConversions() throws {
    struct Subset: Codable, Keyedable {
      var fromWords = false
      var fromNumbers = false
      var none = false
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try fromWords <-> map["words"].converting(.boolFromStrings)
        try fromNumbers <-> map["numbers"].converting([.boolFromNumbers, .stringFromNumbers])
        try none <-> map["none"].converting([])
      }
    }
    let subset = try decode(Subset.self, from: #"{"words": "yes", "numbers": 1, "none": true}"#)
    #expect(subset.fromWords && subset.fromNumbers && subset.none)
    expectError("typeMismatch", at: ["words"]) {
      try decode(Subset.self, from: #"{"words": 1, "numbers": 1, "none": true}"#)
    }
    expectError("typeMismatch", at: ["numbers"]) {
      try decode(Subset.self, from: #"{"words": "yes", "numbers": "yes", "none": true}"#)
    }
    expectError("typeMismatch", at: ["none"]) {
      try decode(Subset.self, from: #"{"words": "yes", "numbers": 1, "none": 1}"#)
    }
  }

  @Test func theConvertingPresetAppliesToEveryScalarMappingOfTheDecode() throws {
    let strict = try decode(
      Strict.self, from: #"{"active": "yes", "count": "12", "label": 3.5}"#,
      with: .converting(.lossy))
    #expect(strict.active)
    #expect(strict.count == 12)
    #expect(strict.label == "3.5")
    let subset = try decode(
      Strict.self, from: #"{"active": 1, "count": 2, "label": true}"#,
      with: .converting([.boolFromNumbers, .stringFromBools]))
    #expect(subset.active && subset.count == 2 && subset.label == "true")
    expectError("typeMismatch", at: ["count"]) {
      try decode(
        Strict.self, from: #"{"active": 1, "count": "2", "label": ""}"#,
        with: .converting([.boolFromNumbers]))
    }
  }

  @Test func aMappingThatConvertsNothingOverridesThePreset() throws {
    struct Override: Codable, Keyedable {
      var loose = false
      var tight = false
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try loose <-> map["loose"]
        try tight <-> map["tight"].converting([])
      }
    }
    expectError("typeMismatch", at: ["tight"]) {
      try decode(
        Override.self, from: #"{"loose": "yes", "tight": "yes"}"#, with: .converting(.lossy))
    }
    #expect(
      try decode(
        Override.self, from: #"{"loose": "yes", "tight": false}"#, with: .converting(.lossy)
      )
      .loose)
  }

  @Test func thePresetReachesNestedModelsInsideArrays() throws {
    struct Row: Codable, Keyedable {
      var enabled = false
      var id = 0
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try enabled <-> map["flags.enabled"]
        try id <-> map["id"]
      }
    }
    struct Table: Codable, Keyedable {
      var rows: [Row] = []
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try rows <-> map["rows"]
      }
    }
    let json =
      #"{"rows": [{"id": "1", "flags": {"enabled": "yes"}}, {"id": 2, "flags": {"enabled": 0}}]}"#
    let table = try decode(Table.self, from: json, with: .converting(.lossy))
    #expect(table.rows.map(\.id) == [1, 2])
    #expect(table.rows.map(\.enabled) == [true, false])
    expectError("typeMismatch", at: ["rows", "Index 0", "flags", "enabled"]) {
      try decode(Table.self, from: json)
    }
    // A failure under the preset keeps its full path.
    expectError("typeMismatch", at: ["rows", "Index 1", "flags", "enabled"]) {
      try decode(
        Table.self,
        from:
          #"{"rows": [{"id": 1, "flags": {"enabled": 1}}, {"id": 2, "flags": {"enabled": 2}}]}"#,
        with: .converting(.lossy))
    }
  }

  // MARK: - Reports

  @Test func everyConversionIsRecordedInTheReport() throws {
    let json = """
      {"active": "YES", "label": 12, "count": "7", "ratio": "0.5", "small": 1, "optional": 0}
      """
    let (flags, report) = try decodeReporting(Flags.self, from: json)
    #expect(flags.active && flags.label == "12" && flags.count == 7 && flags.ratio == 0.5)
    #expect(flags.optional == false)
    #expect(
      report == [
        #"Converted "YES" to Bool at active via active"#,
        "Converted 12 to String at label via label",
        #"Converted "7" to Int at count via count"#,
        #"Converted "0.5" to Double at ratio via ratio"#,
        "Converted 0 to Bool at optional via optional",
      ])
  }

  @Test func aConversionUnderThePresetIsReportedAtItsFullPath() throws {
    struct Inner: Codable, Keyedable {
      var on = false
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws { try on <-> map["a.on"] }
    }
    let reporter = DecodingReporter()
    let inner = try decode(
      [Inner].self, from: #"[{"a": {"on": true}}, {"a": {"on": "no"}}]"#,
      with: .converting(.lossy).reporting(to: reporter))
    #expect(inner.map(\.on) == [true, false])
    #expect(lines(of: reporter.report) == [#"Converted "no" to Bool at [1].a.on via a.on"#])
  }

  // MARK: - Encoding, optionals, transforms, collections

  @Test func encodingWritesEachPropertyAsItsOwnType() throws {
    let flags = try decode(
      Flags.self, from: #"{"active": "yes", "label": 5, "count": "5", "ratio": "5", "small": "5"}"#)
    try expectEncoded(
      flags, #"{"active": true, "label": "5", "count": 5, "ratio": 5, "small": 5}"#)
  }

  @Test func anOptionalThatConvertsIsStillNilWhenMissingOrNull() throws {
    #expect(try decode(Flags.self, from: Self.flags("optional", "null")).optional == nil)
    #expect(try decode(Flags.self, from: Self.flags("ratio", "0")).optional == nil)
  }

  @Test func aTransformReadsItsRepresentationWithTheConversionsOfItsMapping() throws {
    struct Linked: Codable, Keyedable {
      var page = URL(fileURLWithPath: "/")
      var id = UUID()
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try page <-> map["page"].using(.url).converting(.lossy)
        try id <-> map["id"].using(.uuid)
      }
    }
    let id = "7CBE0CC1-7779-42E9-AAF1-C4B145F3CAE9"
    let linked = try decode(Linked.self, from: #"{"page": 42, "id": "\#(id)"}"#)
    #expect(linked.page == URL(string: "42"))
    expectError("typeMismatch", at: ["id"]) {
      try decode(Linked.self, from: #"{"page": "https://a.example", "id": 42}"#)
    }
  }

  @Test func conversionsApplyToScalarsNotToTheElementsOfCollections() throws {
    // Documented: conversions apply to the standard scalar types and their optionals.
    struct Many: Codable, Keyedable {
      var flags: [Bool] = []
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws { try flags <-> map["flags"].converting(.lossy) }
    }
    expectError("typeMismatch", at: ["flags", "Index 0"]) {
      try decode(Many.self, from: #"{"flags": ["yes", true]}"#)
    }
  }

  @Test func aHugeNumberBecomesItsShortestDoubleTextAsAString() throws {
    // Documented: a number is written "as JSON writes it"; beyond 64-bit integers that is the
    // nearest Double, so digits are lost.
    #expect(
      try decode(Flags.self, from: Self.flags("label", "123456789012345678901234567890")).label
        == "1.2345678901234568e+29")
  }

  @Test func aNumberTooLargeForADoubleIsNotConvertedToAString() throws {
    expectError("typeMismatch", at: ["label"]) {
      try decode(Flags.self, from: Self.flags("label", "1e400"))
    }
  }
}
