import Foundation
import KeyedCodable
import Testing

/// ``KeyedJSONDecoder`` against Foundation's `JSONDecoder` on the JSONTestSuite parsing cases
/// and on numbers.
///
/// Every accepted (`y_`) document must decode to what Foundation decodes, every rejected (`n_`)
/// one must throw `dataCorrupted` at the root, and the implementation-defined (`i_`) ones are
/// pinned in ``implementationDefinedCases``, next to what Foundation does with them.
@Suite struct JSONConformanceTests {
  // MARK: - JSONTestSuite: accepted documents

  /// The accepted documents Foundation fails to read, with what it throws.
  static let acceptedDocumentsFoundationRejects: [String: CodingErrorShape] = [
    // `[0e1]`: Foundation can't read `0e1` (nor `0E1`) as a Double, though it reads `0e+1`,
    // `0e-1` and `0.0e1`. The generic value then falls back to Decimal, which Foundation reads.
    "y_number_0e1.json": .invalidJSON
  ]

  @Test(arguments: JSONTestData.parsingCases("y_"))
  func acceptedDocumentsDecodeAsFoundationDecodesThem(_ name: String) throws {
    let data = try JSONTestData.parsingCase(name)
    let ours = Outcome { try KeyedJSONDecoder().decode(TestJSON.self, from: data) }
    #expect(ours.success != nil, "\(ours)")
    if let foundationError = Self.acceptedDocumentsFoundationRejects[name] {
      #expect(
        Outcome { try JSONDecoder().decode([Double].self, from: data) }
          == .error(foundationError))
      #expect(ours == .value([0.0]))
    } else {
      #expect(ours == Outcome { try JSONDecoder().decode(TestJSON.self, from: data) })
    }
  }

  /// A type that reads nothing, so that nothing but the parser can reject a document.
  struct ReadsNothing: Decodable, Equatable {
    init(from decoder: any Decoder) throws {}
  }

  // MARK: - JSONTestSuite: rejected documents

  @Test(arguments: JSONTestData.parsingCases("n_"))
  func rejectedDocumentsThrowDataCorruptedAtTheRoot(_ name: String) throws {
    let data = try JSONTestData.parsingCase(name)
    let decoder = KeyedJSONDecoder()
    #expect(Outcome { try decoder.decode(TestJSON.self, from: data) } == .error(.invalidJSON))
    // The whole document is checked before anything is decoded: an invalid string is rejected
    // even when nothing reads it (Foundation checks a string's content only when it is read).
    #expect(Outcome { try decoder.decode(ReadsNothing.self, from: data) } == .error(.invalidJSON))
  }

  /// The rejected documents Foundation's decoder accepts on Linux when nothing reads their
  /// values: it checks a number's or a string's syntax only when the value is read. (Read as a
  /// ``TestJSON``, it rejects all of them but the trailing commas.)
  static let rejectedDocumentsFoundationAcceptsUnread: [String] = [
    "n_array_extra_comma.json", "n_array_just_minus.json", "n_array_number_and_comma.json",
    "n_number_-01.json", "n_number_-1.0..json", "n_number_-2..json", "n_number_0.1.2.json",
    "n_number_0.3e+.json", "n_number_0.3e.json", "n_number_0.e1.json",
    "n_number_0_capital_E+.json", "n_number_0_capital_E.json", "n_number_0e+.json",
    "n_number_0e.json", "n_number_1.0e+.json", "n_number_1.0e-.json", "n_number_1.0e.json",
    "n_number_1eE2.json", "n_number_2.e+3.json", "n_number_2.e-3.json", "n_number_2.e3.json",
    "n_number_9.e+.json", "n_number_expression.json", "n_number_invalid+-.json",
    "n_number_neg_int_starting_with_zero.json", "n_number_neg_real_without_int_part.json",
    "n_number_real_without_fractional_part.json", "n_number_with_leading_zero.json",
    "n_object_lone_continuation_byte_in_key_and_trailing_comma.json",
    "n_object_trailing_comma.json", "n_string_backslash_00.json", "n_string_escape_x.json",
    "n_string_escaped_ctrl_char_tab.json", "n_string_escaped_emoji.json",
    "n_string_incomplete_surrogate_escape_invalid.json", "n_string_invalid_backslash_esc.json",
    "n_string_invalid_unicode_escape.json", "n_string_invalid_utf8_after_escape.json",
    "n_string_unescaped_ctrl_char.json", "n_string_unescaped_newline.json",
    "n_string_unescaped_tab.json", "n_string_unicode_CapitalU.json",
  ]

  @Test func foundationChecksNumbersAndStringsOnlyWhenTheyAreRead() throws {
    #if os(Linux)
      var accepted: [String] = []
      for name in JSONTestData.parsingCases("n_") {
        let data = try JSONTestData.parsingCase(name)
        if (try? JSONDecoder().decode(ReadsNothing.self, from: data)) != nil {
          accepted.append(name)
        }
      }
      #expect(accepted == Self.rejectedDocumentsFoundationAcceptsUnread)
    #endif
  }

  /// The rejected documents Foundation's decoder accepts on Linux: trailing commas (a
  /// documented difference).
  static let trailingCommaDocuments: [(String, TestJSON)] = [
    ("n_array_extra_comma.json", [""]),
    ("n_array_number_and_comma.json", [1]),
    ("n_object_trailing_comma.json", ["id": 0]),
  ]

  @Test(arguments: trailingCommaDocuments)
  func trailingCommasFoundationAccepts(_ name: String, foundationValue: TestJSON) throws {
    let data = try JSONTestData.parsingCase(name)
    #expect(
      Outcome { try KeyedJSONDecoder().decode(TestJSON.self, from: data) } == .error(.invalidJSON))
    #if os(Linux)
      #expect(
        Outcome { try JSONDecoder().decode(TestJSON.self, from: data) } == .value(foundationValue))
    #endif
  }

  // MARK: - JSONTestSuite: implementation-defined documents

  /// What decoding a document as a ``TestJSON`` gives.
  enum Decoded: Equatable, Sendable, CustomStringConvertible {
    case value(TestJSON)
    case error(CodingErrorShape)

    /// `dataCorrupted` at the root: the document is not accepted.
    static let rejected = Decoded.error(.invalidJSON)

    /// `dataCorrupted` at the first element of the top-level array: a number that doesn't fit a
    /// Double (nor a Decimal).
    static let doesNotFitAtFirstElement = Decoded.error(
      CodingErrorShape("dataCorrupted", at: ["Index 0#0"]))

    init(_ outcome: Outcome<TestJSON>) {
      switch outcome {
      case .value(let value): self = .value(value)
      case .error(let shape): self = .error(shape)
      case .otherError(let description):
        self = .error(CodingErrorShape("other: \(description)", at: []))
      }
    }

    var description: String {
      switch self {
      case .value(let value): "\(value)"
      case .error(let shape): "\(shape)"
      }
    }
  }

  struct ImplementationDefinedCase: Sendable, CustomTestStringConvertible {
    var name: String
    var ours: Decoded
    var foundation: Decoded
    var reason: String

    init(_ name: String, _ ours: Decoded, foundation: Decoded? = nil, _ reason: String) {
      self.name = name
      self.ours = ours
      self.foundation = foundation ?? ours
      self.reason = reason
    }

    var testDescription: String { name }
  }

  /// Every `i_` document: what ``KeyedJSONDecoder`` gives (asserted), what Foundation's
  /// `JSONDecoder` gives on Linux (asserted on Linux; the same unless named), and why.
  static let implementationDefinedCases: [ImplementationDefinedCase] = [
    .init(
      "i_number_double_huge_neg_exp.json", .doesNotFitAtFirstElement, foundation: .rejected,
      "123.456e-789 underflows Double (not zero, rounds to 0): dataCorrupted at the number's path"),
    .init(
      "i_number_huge_exp.json", .doesNotFitAtFirstElement, foundation: .rejected,
      "0.4e006699…9 overflows Double: dataCorrupted at the number's path"),
    .init(
      "i_number_neg_int_huge_exp.json", .doesNotFitAtFirstElement, foundation: .rejected,
      "-1e+9999 overflows Double: dataCorrupted at the number's path"),
    .init(
      "i_number_pos_double_huge_exp.json", .doesNotFitAtFirstElement, foundation: .rejected,
      "1.5e+9999 overflows Double: dataCorrupted at the number's path"),
    .init(
      "i_number_real_neg_overflow.json", .doesNotFitAtFirstElement, foundation: .rejected,
      "-123123e100000 overflows Double: dataCorrupted at the number's path"),
    .init(
      "i_number_real_pos_overflow.json", .doesNotFitAtFirstElement, foundation: .rejected,
      "123123e100000 overflows Double: dataCorrupted at the number's path"),
    .init(
      "i_number_real_underflow.json", .doesNotFitAtFirstElement, foundation: .rejected,
      "123e-10000000 underflows Double (not zero, rounds to 0): dataCorrupted at the number's path"),
    .init(
      "i_number_too_big_neg_int.json", .value([-1.2312312312312312e29]),
      "-123123123123123123123123123123: the nearest Double"),
    .init(
      "i_number_too_big_pos_int.json", .value([1e20]),
      "100000000000000000000: the nearest Double (exact)"),
    .init(
      "i_number_very_big_negative_int.json", .value([-2.374623746732769e47]),
      "-237462374673276894279832749832423479823246327846: the nearest Double"),
    .init(
      "i_object_key_lone_2nd_surrogate.json", .rejected,
      #"member name "\uDFAA": a lone low surrogate is not a character"#),
    .init(
      "i_string_1st_surrogate_but_2nd_missing.json", .rejected,
      #""\uDADA": a high surrogate at the end of the string"#),
    .init(
      "i_string_1st_valid_surrogate_2nd_invalid.json", .rejected,
      #""\uD888\u1234": a high surrogate followed by a non-surrogate"#),
    .init(
      "i_string_UTF-16LE_with_BOM.json", .value(["\u{E9}"]),
      "UTF-16LE with a byte-order mark is detected and read"),
    .init(
      "i_string_UTF-8_invalid_sequence.json", .rejected,
      "bytes E6 97 A5 D1 88 FA: FA starts no UTF-8 sequence"),
    .init(
      "i_string_UTF8_surrogate_U+D800.json", .rejected,
      "ED A0 80: a surrogate encoded in UTF-8 is invalid UTF-8"),
    .init(
      "i_string_incomplete_surrogate_and_escape_valid.json", .rejected,
      #""\uD800\n": a high surrogate followed by another escape"#),
    .init(
      "i_string_incomplete_surrogate_pair.json", .rejected,
      #""\uDd1ea": a lone low surrogate"#),
    .init(
      "i_string_incomplete_surrogates_escape_valid.json", .rejected,
      #""\uD800\uD800\n": two high surrogates"#),
    .init(
      "i_string_invalid_lonely_surrogate.json", .rejected,
      #""\ud800": a lone high surrogate"#),
    .init(
      "i_string_invalid_surrogate.json", .rejected,
      #""\ud800abc": a high surrogate followed by plain characters"#),
    .init(
      "i_string_invalid_utf-8.json", .rejected,
      "byte FF: never valid in UTF-8"),
    .init(
      "i_string_inverted_surrogates_U+1D11E.json", .rejected,
      #""\uDd1e\uD834": low surrogate before high surrogate"#),
    .init(
      "i_string_iso_latin_1.json", .rejected,
      "byte E9 (é in ISO Latin-1) alone: a truncated UTF-8 sequence"),
    .init(
      "i_string_lone_second_surrogate.json", .rejected,
      #""\uDFAA": a lone low surrogate"#),
    .init(
      "i_string_lone_utf8_continuation_byte.json", .rejected,
      "byte 81: a continuation byte with no lead byte"),
    .init(
      "i_string_not_in_unicode_range.json", .rejected,
      "F4 BF BF BF: above U+10FFFF"),
    .init(
      "i_string_overlong_sequence_2_bytes.json", .rejected,
      "C0 AF: an overlong encoding of /"),
    .init(
      "i_string_overlong_sequence_6_bytes.json", .rejected,
      "FC 83 BF BF BF BF: a six-byte sequence (not UTF-8 since RFC 3629)"),
    .init(
      "i_string_overlong_sequence_6_bytes_null.json", .rejected,
      "FC 80 80 80 80 80: an overlong six-byte NUL"),
    .init(
      "i_string_truncated-utf-8.json", .rejected,
      "E0 FF: a three-byte lead byte followed by an invalid byte"),
    .init(
      "i_string_utf16BE_no_BOM.json", .value(["\u{E9}"]),
      "UTF-16BE without a byte-order mark is detected from the zero bytes and read"),
    .init(
      "i_string_utf16LE_no_BOM.json", .value(["\u{E9}"]),
      "UTF-16LE without a byte-order mark is detected from the zero bytes and read"),
    .init(
      "i_structure_500_nested_arrays.json", .value(.nested(500)),
      "500 nested arrays: within the depth limit of 512"),
    .init(
      "i_structure_UTF-8_BOM_empty_object.json", .value([:]),
      "a UTF-8 byte-order mark is skipped"),
  ]

  @Test(arguments: implementationDefinedCases)
  func implementationDefinedDocuments(_ row: ImplementationDefinedCase) throws {
    // Foundation's decoder, and the value enum's `init(from:)` with it, recurse once per level
    // of `i_structure_500_nested_arrays.json` in their own code.
    try onThread(stackSize: foundationDeepStack) {
      try Self.checkImplementationDefined(row)
    }
  }

  private static func checkImplementationDefined(_ row: ImplementationDefinedCase) throws {
    let data = try JSONTestData.parsingCase(row.name)
    let ours = Decoded(Outcome { try KeyedJSONDecoder().decode(TestJSON.self, from: data) })
    #expect(ours == row.ours, "\(row.reason)")
    #if os(Linux)
      let foundation = Decoded(Outcome { try JSONDecoder().decode(TestJSON.self, from: data) })
      #expect(foundation == row.foundation, "Foundation: \(row.reason)")
    #endif
  }

  @Test func everyImplementationDefinedDocumentIsInTheTable() {
    #expect(Self.implementationDefinedCases.map(\.name) == JSONTestData.parsingCases("i_"))
    #expect(JSONTestData.parsingCases("y_").count == 95)
    #expect(JSONTestData.parsingCases("n_").count == 188)
  }

  // MARK: - Numbers

  private struct FeatureCollection: Decodable {
    var features: [Feature]
  }

  private struct Feature: Decodable {
    var geometry: Geometry
  }

  private struct Geometry: Decodable {
    var coordinates: [[[Double]]]
  }

  @Test func everyNumberOfCanadaDecodesToFoundationsDoubleBitForBit() throws {
    let data = try JSONTestData.corpus("canada.json")
    let ours = try KeyedJSONDecoder().decode(FeatureCollection.self, from: data)
    let foundation = try JSONDecoder().decode(FeatureCollection.self, from: data)
    let ourNumbers = ours.features.flatMap { $0.geometry.coordinates.joined().joined() }
    let foundationNumbers = foundation.features.flatMap {
      $0.geometry.coordinates.joined().joined()
    }
    #expect(ourNumbers.count == 111_126)
    #expect(ourNumbers.count == foundationNumbers.count)
    let differences = zip(ourNumbers, foundationNumbers).filter {
      $0.bitPattern != $1.bitPattern
    }
    #expect(differences.isEmpty, "first differences: \(differences.prefix(5))")
  }

  @Test func randomDoublesRoundTripBitForBitThroughBothDecoders() throws {
    var generator = SeededGenerator(seed: 12)
    let values: [Double] = (0..<10_000).map { index in
      while true {
        var bits = generator.next()
        // A quarter of the values subnormal or small, a few zeros.
        if index % 4 == 0 { bits &= 0x800F_FFFF_FFFF_FFFF }
        if index % 1000 == 0 { bits &= 0x8000_0000_0000_0000 }
        let value = Double(bitPattern: bits)
        if value.isFinite { return value }
      }
    }
    let encoded = try KeyedJSONEncoder().encode(values)
    #expect(encoded == (try JSONEncoder().encode(values)))
    let ours = try KeyedJSONDecoder().decode([Double].self, from: encoded)
    let foundation = try JSONDecoder().decode([Double].self, from: encoded)
    #expect(ours.map(\.bitPattern) == values.map(\.bitPattern))
    #expect(foundation.map(\.bitPattern) == values.map(\.bitPattern))
  }

  @Test func randomFloatsRoundTripBitForBitThroughBothDecoders() throws {
    var generator = SeededGenerator(seed: 13)
    let values: [Float] = (0..<2_000).map { _ in
      while true {
        let value = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
        if value.isFinite { return value }
      }
    }
    let encoded = try KeyedJSONEncoder().encode(values)
    #expect(encoded == (try JSONEncoder().encode(values)))
    let ours = try KeyedJSONDecoder().decode([Float].self, from: encoded)
    let foundation = try JSONDecoder().decode([Float].self, from: encoded)
    #expect(ours.map(\.bitPattern) == values.map(\.bitPattern))
    #expect(foundation.map(\.bitPattern) == values.map(\.bitPattern))
  }

  /// The numeric types of ``numberCases``.
  enum NumericType: String, Sendable {
    case int, int8, uint8, int16, uint16, int32, uint32, int64, uint64, double, float

    /// `json` decoded as this type, described (a `Double` with its sign: `-0.0`).
    func decode(_ json: String, with decode: (Data, any Decodable.Type) throws -> Any) -> Decoded {
      let type: any Decodable.Type =
        switch self {
        case .int: Int.self
        case .int8: Int8.self
        case .uint8: UInt8.self
        case .int16: Int16.self
        case .uint16: UInt16.self
        case .int32: Int32.self
        case .uint32: UInt32.self
        case .int64: Int64.self
        case .uint64: UInt64.self
        case .double: Double.self
        case .float: Float.self
        }
      do {
        return .value(.string("\(try decode(Data(json.utf8), type))"))
      } catch {
        return .error(CodingErrorShape(error) ?? CodingErrorShape("\(error)", at: []))
      }
    }
  }

  struct NumberCase: Sendable, CustomTestStringConvertible {
    var json: String
    var type: NumericType
    var ours: Decoded
    /// What Foundation gives, when it differs.
    var foundation: Decoded?
    var testDescription: String { "\(json) as \(type)" }

    init(_ json: String, _ type: NumericType, _ ours: String?, foundation: Decoded? = nil) {
      self.json = json
      self.type = type
      self.ours = ours.map { .value(.string($0)) } ?? .rejected
      self.foundation = foundation
    }
  }

  /// Top-level numbers decoded as each numeric type; `nil` is `dataCorrupted` at the root, the
  /// error for a number the type can't hold. At the root both decoders report it at the same
  /// path; deeper down ours names the number's path (see
  /// ``aNumberThatDoesNotFitIsReportedAtItsPath()``).
  static let numberCases: [NumberCase] = [
    .init("9223372036854775807", .int64, "9223372036854775807"),
    .init("-9223372036854775808", .int64, "-9223372036854775808"),
    .init("9223372036854775808", .int64, nil),
    .init("-9223372036854775809", .int64, nil),
    .init("9223372036854775808", .uint64, "9223372036854775808"),
    .init("18446744073709551615", .uint64, "18446744073709551615"),
    .init("18446744073709551616", .uint64, nil),
    .init("-1", .uint64, nil),
    .init("9223372036854775807", .int, "9223372036854775807"),
    .init("9223372036854775808", .int, nil),
    .init("127", .int8, "127"), .init("128", .int8, nil),
    .init("-128", .int8, "-128"), .init("-129", .int8, nil),
    .init("255", .uint8, "255"), .init("256", .uint8, nil),
    .init("32767", .int16, "32767"), .init("-32769", .int16, nil),
    .init("65535", .uint16, "65535"), .init("65536", .uint16, nil),
    .init("2147483647", .int32, "2147483647"), .init("2147483648", .int32, nil),
    .init("4294967295", .uint32, "4294967295"), .init("4294967296", .uint32, nil),
    .init("-0", .int, "0"), .init("-0.0", .int, "0"), .init("0e5", .int, "0"),
    .init("1e2", .int, "100"), .init("1E2", .int, "100"), .init("1e+2", .int, "100"),
    .init("1.0", .int, "1"), .init("100e-2", .int, "1"), .init("0.1e1", .int, "1"),
    .init("1.5", .int, nil), .init("1e-2", .int, nil), .init("1.5", .int8, nil),
    .init("300", .int8, nil), .init("1e20", .int, nil),
    .init("-0", .double, "-0.0"), .init("-0.0", .double, "-0.0"), .init("0", .double, "0.0"),
    .init("-0e1", .double, "-0.0"), .init("0e+1", .double, "0.0"), .init("0e-1", .double, "0.0"),
    .init("1.7976931348623157e308", .double, "1.7976931348623157e+308"),
    .init("5e-324", .double, "5e-324"), .init("1e400", .double, nil),
    .init("-1e400", .double, nil), .init("3.4028235e38", .float, "3.4028235e+38"),
    .init("3.4028236e38", .float, nil), .init("1e39", .float, nil),
    .init("16777217", .float, "16777216.0"), .init("0.1", .float, "0.1"),
    // Exact integers Foundation rejects: it reads them through a Double (2^63 does not fit).
    .init("9223372036854775807.0", .int64, "9223372036854775807", foundation: .rejected),
    .init("9.223372036854775807e18", .int64, "9223372036854775807", foundation: .rejected),
    // Foundation can't read `0e1` as a floating-point number (it can as an integer).
    .init("0e1", .double, "0.0", foundation: .rejected),
    .init("0E1", .double, "0.0", foundation: .rejected),
    .init("0e1", .int, "0"),
    // A number that is not zero but rounds to zero (below half the smallest subnormal) is not
    // representable, as in Foundation. As an integer it is not zero either: it doesn't fit
    // (documented difference: Foundation reads it through a Double, so as 0).
    .init("1e-400", .double, nil), .init("-1e-400", .double, nil),
    .init("2.4703282292062327e-324", .double, nil),
    .init("2.4703282292062328e-324", .double, "5e-324"),
    .init("1e-50", .float, nil), .init("1e-46", .float, nil), .init("1e-45", .float, "1e-45"),
    .init("0.000e-400", .double, "0.0"), .init("-0e-999", .double, "-0.0"),
    .init("0.0e-50", .float, "0.0"),
    .init("1e-400", .int8, nil, foundation: .value("0")),
    .init("1.00000000000000000001", .int, nil, foundation: .value("1")),
  ]

  @Test(arguments: numberCases)
  func numbersDecodeAsFoundationDecodesThem(_ row: NumberCase) {
    let ours = row.type.decode(row.json) { try KeyedJSONDecoder().decode($1, from: $0) }
    #expect(ours == row.ours)
    let foundation = row.type.decode(row.json) { try JSONDecoder().decode($1, from: $0) }
    #expect(foundation == (row.foundation ?? row.ours), "Foundation")
  }

  private struct Wrapper<Value: Codable & Equatable>: Codable, Equatable {
    var values: [String: [Value]]
  }

  @Test func aNumberThatDoesNotFitIsReportedAtItsPath() {
    // Documented difference: Foundation reports "The given data was not valid JSON." at [].
    let json = #"{"values":{"a":[1,9223372036854775808]}}"#
    let (ours, foundation) = DecoderPair().decode(Wrapper<Int64>.self, from: json)
    #expect(ours == .error(CodingErrorShape("dataCorrupted", at: ["values", "a", "Index 1#1"])))
    #expect(foundation == .error(.invalidJSON))
    #expect(
      DecoderPair().decode(Wrapper<UInt64>.self, from: json).ours
        == .value(Wrapper(values: ["a": [1, 9_223_372_036_854_775_808]])))
  }

  @Test func aNumberThatUnderflowsIsReportedAtItsPathWithFoundationsMessage() {
    // Foundation reports it at [], "The given data was not valid JSON.", with an underlying
    // error that says "Number 1e-400 is not representable in Swift.".
    let json = #"{"values":{"a":[1,1e-400]}}"#
    let (ours, foundation) = DecoderPair().decode(Wrapper<Double>.self, from: json)
    #expect(ours == .error(CodingErrorShape("dataCorrupted", at: ["values", "a", "Index 1#1"])))
    #expect(foundation == .error(.invalidJSON))
    #expect(
      DecoderPair().decode(Wrapper<Float>.self, from: #"{"values":{"f":[1e-50]}}"#).ours
        == .error(CodingErrorShape("dataCorrupted", at: ["values", "f", "Index 0#0"])))
    do {
      _ = try KeyedJSONDecoder().decode(Wrapper<Double>.self, from: Data(json.utf8))
      Issue.record("1e-400 decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription == "Number 1e-400 is not representable in Swift.")
    } catch {
      Issue.record(error)
    }
  }

  @Test func signedZerosKeepTheirSignThroughBothCoders() throws {
    let values: [Double] = [-0.0, 0.0]
    let encoded = try KeyedJSONEncoder().encode(values)
    #expect(String(decoding: encoded, as: UTF8.self) == "[-0,0]")
    #expect(
      try KeyedJSONDecoder().decode([Double].self, from: encoded).map(\.sign) == [.minus, .plus])
    #expect(try JSONDecoder().decode([Double].self, from: encoded).map(\.sign) == [.minus, .plus])
  }

  @Test func decimalsDecodeAndEncodeAsFoundationDoes() throws {
    let pair = DecoderPair()
    pair.expectSame(
      [Decimal].self, from: "[12.50, -0.0001, 1e30, 0, 123456789012345678901234567890]")
    pair.expectSame(Decimal.self, from: #""12.5""#)
    let decimals = try [
      "12.50", "-0.0001", "1e30", "3.14159265358979323846264338327950288",
    ].map { try #require(Decimal(string: $0)) }
    EncoderPair().expectSame(decimals)
  }
}
