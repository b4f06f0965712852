import Foundation
import Testing

@testable import KeyedCodable

/// The JSON number layer: tokens to `Double`, `Float` and exact integers, and numbers to text.
///
/// The standard library is the oracle: `Double(String)` and `Float(String)` are correctly
/// rounded, `description` prints the shortest round-tripping digits, and Foundation's
/// `JSONEncoder` is `description` without a trailing `".0"`. Random cases come from a seeded
/// SplitMix64, so a failure names a value that reproduces.
@Suite struct JSONNumberTests {
  // MARK: Parsing floating point

  /// Tokens at the edges: zeros, subnormal and overflow boundaries, ties, long and odd spellings.
  static let edgeTokens: [String] = [
    "0", "-0", "0.0", "-0.0", "0e0", "-0.0e-0", "0e999999999", "-0e-999999999", "0.000e+5",
    "1", "-1", "0.1", "0.5", "1e23", "1E23", "1e+23", "8.98846567431158e307",
    "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
    "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649"
      + "017977587207096330286416692887910946555547851940402630657488671505820681908902000708383"
      + "676273854845817711531764475730270069855571366959622842914819860834936475292719074168444"
      + "365510704342711559699508093042880177904174497791",
    "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
    "2.225073858507201136057409796709131975934819546351645648e-308",
    "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
    "2.4703282292062326e-324", "5e-324", "1e-323", "1e-400", "-1e-400", "1e400", "-1e400",
    "1e308", "1e309", "1e-324", "1e-325", "9007199254740993", "9007199254740992.5",
    "9007199254740993.0000000000000000000001", "9007199254740992.9999999999999999999999",
    "9007199254740995", "18014398509481985", "1125899906842624.25", "1125899906842624.75",
    "123456789012345678901234567890", "0.000000000000000000000000000000000123456789",
    "1e00000000000000000000000000000000000000000000000000000000000023",
    "1e-00000000000000000000000000000000000000000000000000000000000023",
    "100000000000000000000000000000000000000000000000000000000000000e-63",
    "-65.613616999999977", "43.420273000000009", "3.4028234663852886e38", "3.4028235e38",
    "3.4028235677973366e38", "3.4028235677973367e38", "1.1754943508222875e-38",
    "1.401298464324817e-45", "7.006492321624085e-46", "7.006492321624086e-46", "0.1e-45",
    "16777217", "16777216.5", "33554435", "1.00000005960464477539062", "0.30000000000000004",
    "1.5e30", "15e29", "123456789e22", "9007199254740991e22", "1e22", "4.35e-15", "7.038531e-26",
    "1448997445238699", "5e-20", "1.0e-7",
  ]

  @Test(arguments: edgeTokens)
  func edgeTokensParseAsTheStandardLibraryDoes(token: String) {
    expectParsesLikeStandardLibrary(token)
  }

  @Test func tokensLongerThanEightHundredDigitsParseCorrectly() {
    var rng = SplitMix64(seed: 800)
    for _ in 0..<50 {
      var digits = "\(rng.next() % 9 + 1)"
      for _ in 0..<(800 + Int(rng.next() % 100)) { digits += "\(rng.next() % 10)" }
      expectParsesLikeStandardLibrary(digits)
      expectParsesLikeStandardLibrary(String(digits.prefix(1)) + "." + digits.dropFirst())
      expectParsesLikeStandardLibrary("0." + digits + "e-300")
      expectParsesLikeStandardLibrary(digits + "e-1100")
    }
    // Exactly halfway, then a hair above, with the difference 800 digits in.
    let half = "9007199254740993." + String(repeating: "0", count: 800)
    #expect(parseDouble(half) == 9_007_199_254_740_992)
    #expect(parseDouble(half + "1") == 9_007_199_254_740_994)
  }

  @Test func knownValuesAndSigns() {
    // Half the smallest subnormal is 2.470328229206232720882…e-324: below it rounds to zero.
    #expect(parseDouble("2.4703282292062328e-324").bitPattern == 1)
    #expect(parseDouble("2.4703282292062327e-324").bitPattern == 0)
    #expect(parseDouble("2.4703282292062326e-324").bitPattern == 0)
    #expect(parseDouble("-2.4703282292062326e-324").bitPattern == (-0.0 as Double).bitPattern)
    #expect(parseDouble("4.9406564584124654e-324") == .leastNonzeroMagnitude)
    #expect(parseDouble("2.2250738585072014e-308") == .leastNormalMagnitude)
    #expect(parseDouble("1e400") == .infinity)
    #expect(parseDouble("-1e400") == -.infinity)
    #expect(parseDouble("1e-400").bitPattern == 0)
    #expect(parseDouble("-1e-400").bitPattern == (-0.0 as Double).bitPattern)
    #expect(parseDouble("-0").sign == .minus)
    #expect(parseDouble("-0.0e-0").sign == .minus)
    #expect(parseDouble("0e0").bitPattern == 0)
    #expect(parseDouble("1e23") == 1e23)
    #expect(parseDouble("9007199254740993") == 9_007_199_254_740_992)
    #expect(parseDouble("1e999999999999999999999999") == .infinity)
    #expect(parseFloat("3.4028236e38") == .infinity)
    #expect(parseFloat("1e-46").bitPattern == 0)
    #expect(parseFloat("-0").sign == .minus)
    #expect(parseFloat("0.1") == 0.1)
  }

  /// Malformed tokens, and prefixes and near misses of valid ones.
  static let malformedTokens: [String] = [
    "", "-", "+1", "01", "-01", "00", "1.", ".1", "-.1", "1.e5", "1e", "1e+", "1e-", "1E+-1",
    "1.5x", "--1", " 1", "1 ", "NaN", "nan", "inf", "Infinity", "-Infinity", "0x10", "1_000",
    "1.2.3", "1e5e5", "1e5.5", "١", "e5", "-e5", "1ee5",
  ]

  @Test(arguments: malformedTokens)
  func malformedTokensGiveNaNAndNilWithoutTrapping(token: String) {
    #expect(parseDouble(token).isNaN)
    #expect(parseFloat(token).isNaN)
    #expect(parseInteger(token) == nil)
    #expect(withToken(token) { JSONNumber.exactInteger($0, count: $1, as: Int.self) } == nil)
  }

  @Test func randomDoubleBitPatternsRoundTripThroughDescription() {
    var rng = SplitMix64(seed: 1)
    var failures = Failures()
    for _ in 0..<200_000 {
      let value = rng.nextFiniteDouble()
      let parsed = parseDouble(value.description)
      if parsed.bitPattern != value.bitPattern {
        failures.add("\(value.description) read as \(parsed)")
      }
    }
    failures.expectNone()
  }

  @Test func randomFloatBitPatternsRoundTripThroughDescription() {
    var rng = SplitMix64(seed: 2)
    var failures = Failures()
    for _ in 0..<50_000 {
      let value = rng.nextFiniteFloat()
      let parsed = parseFloat(value.description)
      if parsed.bitPattern != value.bitPattern {
        failures.add("\(value.description) read as \(parsed)")
      }
    }
    failures.expectNone()
  }

  @Test func randomDecimalStringsParseAsTheStandardLibraryDoes() {
    var rng = SplitMix64(seed: 3)
    var failures = Failures()
    for _ in 0..<50_000 {
      let token = rng.nextDecimalToken()
      failures.checkReadsLikeStandardLibrary(token)
    }
    failures.expectNone()
  }

  /// Tokens of up to 19 digits with no exponent are read in one pass (digits, then Clinger's
  /// step or Eisel-Lemire's): every split of their digits between the integer and the fraction,
  /// with and without a sign, digits past 2^53 included, and the counts on either side of the
  /// limit, read as the standard library reads them.
  @Test func shortDecimalsOfEveryShapeParseAsTheStandardLibraryDoes() {
    var rng = SplitMix64(seed: 18)
    var failures = Failures()
    var tokens = [
      "9007199254740993", "9007199254740992", "900719925474099.3", "0.9007199254740993",
      "12345678901234567", "123456789012345678", "1234567890123456789", "0.00000000000000001",
      "9999999999999999999", "-9999999999999999999", "18446744073709551615",
      "0.9999999999999999999",
      "-65.613616999999977", "12345678901234567890", "1.8446744073709551616",
      "-0.000000000000001", "0.10000000000000000", "1.0", "10", "-10.50", "0.0000001",
      "99999999999999999", "-9999999999999999", "4.9e-324", "16777217", "1677721.7",
    ]
    for total in 1...21 {
      for integerCount in 1...total {
        for _ in 0..<6 {
          var digits = (0..<total).map { _ in String(rng.next() % 10) }
          if integerCount > 1, digits[0] == "0" { digits[0] = String(rng.next() % 9 + 1) }
          let integer = digits[..<integerCount].joined()
          let fraction = digits[integerCount...].joined()
          let token = fraction.isEmpty ? integer : integer + "." + fraction
          tokens.append(token)
          tokens.append("-" + token)
        }
      }
    }
    for token in tokens {
      failures.checkReadsLikeStandardLibrary(token)
    }
    failures.expectNone()
    #expect(tokens.count > 2_000)
    // Near misses of both lengths read one byte at a time (up to 12) and eight at a time.
    for token in [
      "1.5x", "01.5", "-01.5", "1.", "-.5", "1.2.3", "1234567890.12x", "0123456789012.5",
      "-0000000000001.5", "1234567890123.", ".1234567890123", "12345678.901.23",
      "123456789012345.6e", "12345678901234567x", "-", "-1234567890123456789.",
    ] {
      #expect(parseDouble(token).isNaN, "\(token)")
      #expect(parseFloat(token).isNaN, "\(token)")
    }
  }

  @Test func exactMidpointsBetweenNeighboursRoundToEven() {
    // The exact decimal of (c + 1/2) * 2^q, the midpoint between c * 2^q and its upper
    // neighbour, and the same a hair above and below: Eisel-Lemire cannot decide these from
    // 19 digits, so they exercise the fallback.
    var rng = SplitMix64(seed: 4)
    for index in 0..<400 {
      let bits = rng.next()
      let biased = index % 3 == 0 ? 0 : Int(bits >> 52 & 0x7FF) % 2046 + 1
      let c = (bits & (1 << 52 - 1)) | (biased == 0 ? 0 : 1 << 52)
      let q = biased == 0 ? -1074 : biased - 1075
      for token in midpointTokens(c, q) { expectParsesLikeStandardLibrary(token) }
    }
    for index in 0..<400 {
      let bits = rng.next()
      let biased = index % 3 == 0 ? 0 : Int(bits >> 23 & 0xFF) % 254 + 1
      let c = (bits & (1 << 23 - 1)) | (biased == 0 ? 0 : 1 << 23)
      let q = biased == 0 ? -149 : biased - 150
      for token in midpointTokens(c, q) { expectParsesLikeStandardLibrary(token) }
    }
    // Halfway above the largest finite value overflows; just below it does not.
    for token in midpointTokens(1 << 53 - 1, 971) { expectParsesLikeStandardLibrary(token) }
    for token in midpointTokens(1 << 24 - 1, 104) { expectParsesLikeStandardLibrary(token) }
  }

  // MARK: Parsing integers

  /// Integral tokens with their exact magnitude and sign.
  static let integralTokens: [(String, UInt64, Bool)] = [
    ("0", 0, false), ("-0", 0, false), ("-0.0e5", 0, false), ("0e999999999", 0, false),
    ("0.000e-999999999", 0, false), ("12", 12, false), ("-7", 7, true), ("1.0", 1, false),
    ("1e3", 1000, false), ("1E+3", 1000, false), ("1.50e1", 15, false), ("100e-2", 1, false),
    ("0.00012e5", 12, false), ("12345678901234567890e-1", 1_234_567_890_123_456_789, false),
    ("9007199254740993", 9_007_199_254_740_993, false),
    ("18446744073709551615", .max, false), ("-18446744073709551615", .max, true),
    ("1.8446744073709551615e19", .max, false), ("18446744073709551615.000", .max, false),
    ("1844674407370955161500e-2", .max, false), ("1e19", 10_000_000_000_000_000_000, false),
    ("-9223372036854775808", 9_223_372_036_854_775_808, true),
    ("0.1e1", 1, false), ("-1.0000000000000000000000000000e1", 10, true),
  ]

  @Test(arguments: integralTokens)
  func integralTokensGiveTheirExactValue(token: String, magnitude: UInt64, negative: Bool) {
    let parsed = parseInteger(token)
    #expect(parsed?.magnitude == magnitude)
    #expect(parsed?.negative == negative)
  }

  /// Tokens that are not integers, or whose magnitude exceeds `UInt64`.
  static let nonIntegralTokens: [String] = [
    "1.5", "1e-1", "-0.5", "0.01e1", "12345678901234567891e-1", "18446744073709551616",
    "-18446744073709551616", "1e20", "1e999999999", "1e99999999999999999999999999", "1.00001",
    "1844674407370955161.6", "99999999999999999999999", "0.0000000000000000000001",
  ]

  @Test(arguments: nonIntegralTokens)
  func nonIntegralOrOversizedTokensGiveNil(token: String) {
    #expect(parseInteger(token) == nil)
  }

  @Test func everyIntegerTypeAcceptsExactlyItsRange() {
    expectExactLimits(Int.self)
    expectExactLimits(Int8.self)
    expectExactLimits(Int16.self)
    expectExactLimits(Int32.self)
    expectExactLimits(Int64.self)
    expectExactLimits(UInt.self)
    expectExactLimits(UInt8.self)
    expectExactLimits(UInt16.self)
    expectExactLimits(UInt32.self)
    expectExactLimits(UInt64.self)
    #expect(exactInteger("300", as: Int8.self) == nil)
    #expect(exactInteger("-1", as: UInt.self) == nil)
    #expect(exactInteger("-128", as: Int8.self) == -128)
    #expect(exactInteger("-129", as: Int8.self) == nil)
    #expect(exactInteger("1.27e2", as: Int8.self) == 127)
    #expect(exactInteger("-9223372036854775808", as: Int64.self) == .min)
    #expect(exactInteger("2.5", as: Int.self) == nil)
  }

  @Test func randomIntegersParseExactly() {
    var rng = SplitMix64(seed: 5)
    var failures = Failures()
    for _ in 0..<20_000 {
      let value = Int64(bitPattern: rng.next()) >> (rng.next() % 64)
      if exactInteger(String(value), as: Int64.self) != value { failures.add("\(value)") }
      if exactInteger("\(value).000e0", as: Int64.self) != value { failures.add("\(value).000e0") }
    }
    failures.expectNone()
  }

  // MARK: Parsing decimals

  /// Decimals at the edges: zeros with and without exponents, negative zeros, trailing zeros up
  /// to the largest exponent, the smallest, 19 and 20 digits, exponents just in and out of range.
  static let decimalEdgeTokens: [String] = [
    "0", "-0", "0.0", "-0.0", "0e5", "-0e-5", "0.000", "0e0", "1", "-1", "10", "100", "1.50",
    "-12.50", "0.05", "0.0001", "-0.0001", "1e127", "1e128", "10e126", "1000e125", "1e-128",
    "1e-129", "10e-129", "0.1e-127", "9999999999999999999", "-9999999999999999999",
    "18446744073709551615", "12345678901234567890", "1234567890123456789e-19",
    "1.234567890123456789", "100000000000000000000", "5e-20", "1e-148", "7e3", "123.456e10",
    "0.00000000000000000001", "1E2", "1e+2", "-3.14159",
  ]

  @Test func decimalsAreFoundationsForEdgeAndRandomTokens() throws {
    var rng = SplitMix64(seed: 21)
    var tokens = Self.decimalEdgeTokens
    for _ in 0..<20_000 { tokens.append(rng.nextDecimalNumberToken()) }
    var failures = Failures()
    var madeHere = 0
    for token in tokens {
      let expected = Decimal(string: token, locale: Locale(identifier: "en_US_POSIX"))
      if let decimal = withToken(token, { JSONNumber.decimal($0, count: $1) }) {
        madeHere += 1
        if !sameDecimal(decimal, expected) {
          failures.add(
            "\(token): \(decimalParts(decimal)) instead of \(expected.map(decimalParts) ?? "nil")")
        }
      }
      let fromText = JSONNumber.decimal(text: token)
      if !(fromText.map { sameDecimal($0, expected) } ?? (expected == nil)) {
        failures.add("text \(token): \(fromText.map(decimalParts) ?? "nil")")
      }
    }
    failures.expectNone()
    // Most tokens take the fast way; the rest check that the fallback is reached.
    #expect(madeHere > tokens.count / 2)
    #expect(madeHere < tokens.count)
  }

  @Test func decimalTextIsTheDecimalsDescription() throws {
    var rng = SplitMix64(seed: 23)
    var decimals: [Decimal] = [
      0, 1, -1, 10, Decimal(UInt64.max), -Decimal(UInt64.max), Decimal(UInt64.max) + 1,
      Decimal(string: "123456789012345678901234567890")!, .nan, Decimal(string: "1e127")!,
      Decimal(string: "1e-128")!, Decimal(string: "0.0")!, Decimal(string: "-0.5")!,
    ]
    for _ in 0..<20_000 {
      guard let decimal = Decimal(string: rng.nextDecimalNumberToken()) else { continue }
      decimals.append(decimal)
      // Sums and products keep zeros a parsed decimal drops (150e-2 rather than 15e-1).
      decimals.append(decimal * Decimal(rng.next() % 1000))
      decimals.append(decimal + Decimal(sign: .plus, exponent: -3, significand: 10))
    }
    var failures = Failures()
    var writtenHere = 0
    for decimal in decimals {
      let text = JSONNumber.withDecimalText(decimal) { String(decoding: $0, as: UTF8.self) }
      if let text {
        writtenHere += 1
        if text != decimal.description {
          failures.add("\(decimalParts(decimal)): \(text)")
        }
      }
    }
    failures.expectNone()
    #expect(writtenHere > decimals.count / 2)
    #expect(writtenHere < decimals.count)
    #expect(JSONNumber.withDecimalText(.nan) { _ in true } == nil)
  }

  @Test func decimalsDecodeAsFoundationsDecoderReadsThem() throws {
    var rng = SplitMix64(seed: 22)
    var tokens = Self.decimalEdgeTokens
    for _ in 0..<5_000 { tokens.append(rng.nextDecimalNumberToken()) }
    var failures = Failures()
    for token in tokens {
      let json = Data("[\(token)]".utf8)
      let expected = try? JSONDecoder().decode([Decimal].self, from: json).first
      let decoded = try? KeyedJSONDecoder().decode([Decimal].self, from: json).first
      if let expected, let decoded {
        if !sameDecimal(decoded, expected) {
          failures.add("\(token): \(decimalParts(decoded)) instead of \(decimalParts(expected))")
        }
      } else if (expected == nil) != (decoded == nil) {
        failures.add(
          "\(token): \(decoded.map(decimalParts) ?? "error") instead of \(expected.map(decimalParts) ?? "error")"
        )
      }
    }
    failures.expectNone()
  }

  // MARK: Writing

  /// Doubles and the bytes Foundation's `JSONEncoder` writes for them.
  static let writtenDoubles: [(Double, String)] = [
    (1.0, "1"), (0.1, "0.1"), (1e20, "1e+20"), (1e-7, "1e-07"),
    (123_456_789_012_345_680.0, "1.2345678901234568e+17"), (-0.0, "-0"), (0.0, "0"),
    (.leastNonzeroMagnitude, "5e-324"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    (100, "100"), (1e16, "1e+16"), (1e15, "1000000000000000"), (1e-6, "1e-06"),
    (0.0001, "0.0001"), (0.00009999, "9.999e-05"), (12345.678, "12345.678"),
    (9_007_199_254_740_992, "9007199254740992"), (9_007_199_254_740_994, "9.007199254740994e+15"),
    (1_125_899_906_842_624.25, "1125899906842624.2"),
    (1_125_899_906_842_624.75, "1125899906842624.8"), (1e23, "1e+23"), (-1.5, "-1.5"),
    (.leastNormalMagnitude, "2.2250738585072014e-308"), (1e-100, "1e-100"), (123e18, "1.23e+20"),
    (0.3, "0.3"), (0.1 + 0.2, "0.30000000000000004"), (-65.613616999999977, "-65.61361699999998"),
  ]

  @Test(arguments: writtenDoubles)
  func doublesAreWrittenAsFoundationWritesThem(value: Double, expected: String) {
    #expect(written(value) == expected)
    #expect(written(value) == foundationJSON(value))
  }

  /// Floats and the bytes Foundation's `JSONEncoder` writes for them.
  static let writtenFloats: [(Float, String)] = [
    (0.1, "0.1"), (1e20, "1e+20"), (.greatestFiniteMagnitude, "3.4028235e+38"), (1, "1"),
    (16_777_216, "16777216"), (16_777_218, "1.6777218e+07"), (1e7, "10000000"), (1e8, "1e+08"),
    (0.0001, "0.0001"), (0.00001, "1e-05"), (.leastNonzeroMagnitude, "1e-45"),
    (123_456.7, "123456.7"), (-0.0, "-0"), (.leastNormalMagnitude, "1.1754944e-38"),
  ]

  @Test(arguments: writtenFloats)
  func floatsAreWrittenAsFoundationWritesThem(value: Float, expected: String) {
    #expect(written(value) == expected)
    #expect(written(value) == foundationJSON(value))
  }

  @Test func everyPowerOfTwoAndTenIsWrittenLikeDescription() {
    // Powers of two have the irregular (narrower below) rounding interval.
    var values: [Double] = []
    for exponent in -1074...1023 {
      values.append(.init(sign: .plus, exponent: exponent, significand: 1))
    }
    for exponent in -323...308 { values.append(Double("1e\(exponent)") ?? 0) }
    for value in values {
      expectWrittenLikeDescription(value)
      expectWrittenLikeDescription(value.nextUp)
      expectWrittenLikeDescription(value.nextDown)
    }
    for exponent in -149...127 {
      let value = Float(sign: .plus, exponent: exponent, significand: 1)
      expectWrittenLikeDescription(value)
      expectWrittenLikeDescription(value.nextUp)
      expectWrittenLikeDescription(value.nextDown)
    }
  }

  @Test func shortDigitsWithEveryCountOfTrailingZerosAreWrittenLikeDescription() {
    // The shortest digits of a short value come with up to 16 trailing zeros, stripped eight,
    // four, two and one at a time: every count of zeros, after digits of every length.
    let leads: [Double] = [
      1, 7, 12, 25, 125, 1234, 98_765, 123_456, 1_234_567, 12_345_678, 123_456_789,
      1_234_567_891, 12_345_678_912, 123_456_789_123, 1_234_567_891_234, 98_765_432_123_456,
    ]
    for lead in leads {
      for exponent in -30...30 {
        let value = Double("\(Int(lead))e\(exponent)") ?? 0
        expectWrittenLikeDescription(value)
        expectWrittenLikeDescription(-value)
      }
    }
  }

  @Test func randomDoublesAreWrittenAsFoundationWritesThemAndReadBack() {
    // JSONEncoder is slow, so it judges the first 20,000; `description` judges the rest.
    var rng = SplitMix64(seed: 6)
    var failures = Failures()
    for index in 0..<200_000 {
      let value = rng.nextFiniteDouble()
      let text = written(value)
      let expected = index < 20_000 ? foundationJSON(value) : descriptionWithoutPointZero(value)
      if text != expected { failures.add("\(value.description) written as \(text)") }
      let parsed = parseDouble(text)
      if parsed.bitPattern != value.bitPattern { failures.add("\(text) read as \(parsed)") }
    }
    failures.expectNone()
  }

  @Test func randomFloatsAreWrittenAsFoundationWritesThemAndReadBack() {
    var rng = SplitMix64(seed: 7)
    var failures = Failures()
    for index in 0..<50_000 {
      let value = rng.nextFiniteFloat()
      let text = written(value)
      let expected = index < 20_000 ? foundationJSON(value) : descriptionWithoutPointZero(value)
      if text != expected { failures.add("\(value.description) written as \(text)") }
      let parsed = parseFloat(text)
      if parsed.bitPattern != value.bitPattern { failures.add("\(text) read as \(parsed)") }
    }
    failures.expectNone()
  }

  @Test func blocksOfEightDigitsAreWrittenZeroPadded() {
    // Every digit of every place, every place's neighbours at 0 and 9, the lane boundaries
    // (9_999, 10_000, 99, 100 within a block), then seeded random blocks.
    func written(_ block: UInt64) -> String {
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8) { output in
        guard let base = output.baseAddress else { return "" }
        JSONNumberWriter.Digits.writeBlock(block, to: base)
        return String(decoding: output, as: UTF8.self)
      }
    }
    func expected(_ block: UInt64) -> String {
      let digits = String(block)
      return String(repeating: "0", count: 8 - digits.count) + digits
    }
    var blocks: [UInt64] = [
      0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 10_001, 99_999, 100_000, 999_999,
      1_000_000, 9_999_999, 10_000_000, 99_999_999, 12_345_678, 87_654_321, 99_990_000,
      10_000_099, 99_009_900,
    ]
    var power: UInt64 = 1
    for _ in 0..<8 {
      for digit: UInt64 in 0...9 {
        blocks += [digit * power, digit * power + (power - 1), 99_999_999 - (9 - digit) * power]
      }
      power *= 10
    }
    var rng = SplitMix64(seed: 88)
    for _ in 0..<100_000 { blocks.append(rng.next() % 100_000_000) }
    var failures = Failures()
    for block in blocks where written(block) != expected(block) {
      failures.add("\(block): \(written(block))")
    }
    failures.expectNone()
  }

  @Test func plainIntegersOfEveryLengthAreReadEightDigitsAtATime() {
    // Every digit at every place of a block, then every length up to 18 digits (one, two
    // blocks and the rest), signed, against Int(String).
    var texts: [String] = []
    for place in 0..<8 {
      for digit in 0...9 {
        var digits = Array(repeating: "5", count: 8)
        digits[place] = String(digit)
        texts.append(digits.joined())
        texts.append(String(repeating: "9", count: place) + String(digit))
      }
    }
    var rng = SplitMix64(seed: 18)
    for length in 1...18 {
      for _ in 0..<2_000 {
        var text = String(rng.next() % 9 + 1)
        for _ in 1..<length { text += String(rng.next() % 10) }
        texts.append(text)
        texts.append("-" + text)
      }
    }
    var failures = Failures()
    for text in texts {
      let bytes = Array(text.utf8)
      let value = bytes.withUnsafeBufferPointer { buffer in
        buffer.baseAddress.flatMap { JSONNumber.plainInteger($0, count: buffer.count) }
      }
      if value != Int(text) { failures.add(text) }
    }
    failures.expectNone()
  }

  @Test func integersAreWrittenInFullAndReadBack() {
    #expect(writtenInteger(Int.min) == "-9223372036854775808")
    #expect(writtenInteger(Int.max) == "9223372036854775807")
    #expect(writtenInteger(UInt64.max) == "18446744073709551615")
    #expect(writtenInteger(Int8.min) == "-128")
    #expect(writtenInteger(UInt8.max) == "255")
    #expect(writtenInteger(0) == "0")
    #expect(exactInteger(writtenInteger(Int.min), as: Int.self) == Int.min)
    #expect(exactInteger(writtenInteger(UInt64.max), as: UInt64.self) == UInt64.max)
    var rng = SplitMix64(seed: 8)
    var failures = Failures()
    for _ in 0..<20_000 {
      let value = Int64(bitPattern: rng.next()) >> (rng.next() % 64)
      if writtenInteger(value) != String(value) { failures.add("\(value)") }
      let small = Int16(truncatingIfNeeded: value)
      if writtenInteger(small) != String(small) { failures.add("\(small)") }
    }
    failures.expectNone()
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
      for value in [Int128.min, Int128.max, 0, -1, Int128(Int64.min) * 10_000_000_000_000_000_000] {
        #expect(writtenInteger(value) == String(value))
      }
      #expect(writtenInteger(UInt128.max) == String(UInt128.max))
      #expect(exactInteger("-18446744073709551615", as: Int128.self) == -Int128(UInt64.max))
    }
  }
}

// MARK: - Helpers

/// Collects the first few failures of a large randomized loop, so the loop stays fast and a
/// failure reports concrete values.
private struct Failures {
  /// The first failures, described.
  var examples: [String] = []
  /// How many failures there were.
  var count = 0

  /// Records one failure.
  mutating func add(_ description: @autoclosure () -> String) {
    count += 1
    if examples.count < 10 { examples.append(description()) }
  }

  /// Records a failure for each of `Double` and `Float` that reads `token` with other bits than
  /// the standard library's `init?(_:)` (NaN for a token it rejects).
  mutating func checkReadsLikeStandardLibrary(_ token: String) {
    let double = parseDouble(token)
    let expectedDouble = Double(token) ?? .nan
    if double.bitPattern != expectedDouble.bitPattern {
      add("Double \(token): \(double) instead of \(expectedDouble)")
    }
    let float = parseFloat(token)
    let expectedFloat = Float(token) ?? .nan
    if float.bitPattern != expectedFloat.bitPattern {
      add("Float \(token): \(float) instead of \(expectedFloat)")
    }
  }

  /// Fails the test when anything was recorded.
  func expectNone(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      count == 0, "\(count) failures, first: \(examples.joined(separator: "; "))",
      sourceLocation: sourceLocation)
  }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a small, fast, seeded generator.
private struct SplitMix64 {
  /// The generator's state, advanced by a constant each step.
  var state: UInt64

  /// A generator that starts at `seed`.
  init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A finite `Double` from random bits: a quarter subnormal or zero-exponent, the rest uniform
  /// over the exponents.
  mutating func nextFiniteDouble() -> Double {
    while true {
      var bits = next()
      if bits % 4 == 0 { bits &= 0x800F_FFFF_FFFF_FFFF }
      let value = Double(bitPattern: bits)
      if value.isFinite { return value }
    }
  }

  /// A finite `Float` from random bits, a quarter of them subnormal.
  mutating func nextFiniteFloat() -> Float {
    while true {
      var bits = UInt32(truncatingIfNeeded: next())
      if bits % 4 == 0 { bits &= 0x807F_FFFF }
      let value = Float(bitPattern: bits)
      if value.isFinite { return value }
    }
  }

  /// A random JSON number token for `Decimal`: 1 to 22 digits, often with leading zeros after
  /// a point or trailing zeros, sometimes all zeros, and an exponent near `Decimal`'s range.
  mutating func nextDecimalNumberToken() -> String {
    let digitCount = Int(next() % 22) + 1
    let zeros = next() % 4
    var digits = ""
    for index in 0..<digitCount {
      var digit = next() % 10
      if zeros == 0 || (zeros == 1 && index > digitCount / 2) { digit = 0 }
      digits += String(digit)
    }
    while digits.count > 1, digits.hasPrefix("0") { digits.removeFirst() }
    var token = digits
    if next() % 2 == 0 {
      let leading = String(repeating: "0", count: Int(next() % 4))
      token = "0." + leading + digits
    } else if digits.count > 1, next() % 2 == 0 {
      let point = Int(next() % UInt64(digits.count - 1)) + 1
      token = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
    }
    if next() % 2 == 0 { token += "e\(Int(next() % 300) - 150)" }
    if next() % 2 == 0 { token = "-" + token }
    return token
  }

  /// A random JSON number token: 1 to 25 digits, a point anywhere, a random exponent.
  mutating func nextDecimalToken() -> String {
    let digitCount = Int(next() % 25) + 1
    var digits = ""
    for index in 0..<digitCount {
      let digit = next() % 10
      digits += index == 0 && digitCount > 1 && digit == 0 ? "1" : String(digit)
    }
    let point = Int(next() % UInt64(digitCount))
    var token =
      point == 0 ? digits : String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
    if next() % 4 != 0 { token += "e\(Int(next() % 700) - 350)" }
    if next() % 2 == 0 { token = "-" + token }
    return token
  }
}

/// Calls `body` with the token's bytes, followed in memory by a digit that is not part of it:
/// a parser that read past `count` would see it and give a different value.
private func withToken<Result>(
  _ token: String, _ body: (UnsafePointer<UInt8>, Int) -> Result
) -> Result {
  let bytes = Array(token.utf8) + [UInt8(ascii: "7")]
  let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
  defer { storage.deallocate() }
  storage.initialize(from: bytes, count: bytes.count)
  return body(storage, bytes.count - 1)
}

private func parseDouble(_ token: String) -> Double {
  withToken(token) { JSONNumber.double($0, count: $1) }
}

private func parseFloat(_ token: String) -> Float {
  withToken(token) { JSONNumber.float($0, count: $1) }
}

private func parseInteger(_ token: String) -> (magnitude: UInt64, negative: Bool)? {
  withToken(token) { JSONNumber.integer($0, count: $1) }
}

private func exactInteger<Integer: FixedWidthInteger>(
  _ token: String, as type: Integer.Type
) -> Integer? {
  withToken(token) { JSONNumber.exactInteger($0, count: $1, as: type) }
}

private func expectParsesLikeStandardLibrary(
  _ token: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let double = parseDouble(token)
  let expectedDouble = Double(token) ?? .nan
  #expect(
    double.bitPattern == expectedDouble.bitPattern,
    "Double \(token.prefix(60)): \(double) instead of \(expectedDouble)",
    sourceLocation: sourceLocation)
  let float = parseFloat(token)
  let expectedFloat = Float(token) ?? .nan
  #expect(
    float.bitPattern == expectedFloat.bitPattern,
    "Float \(token.prefix(60)): \(float) instead of \(expectedFloat)",
    sourceLocation: sourceLocation)
}

/// Checks `min`, `max`, one past each, and `-0` for an integer type.
private func expectExactLimits<Integer: FixedWidthInteger>(
  _ type: Integer.Type, sourceLocation: SourceLocation = #_sourceLocation
) {
  let max = String(Integer.max)
  #expect(exactInteger(max, as: type) == Integer.max, sourceLocation: sourceLocation)
  #expect(exactInteger(incremented(max), as: type) == nil, sourceLocation: sourceLocation)
  #expect(exactInteger(max + ".0", as: type) == Integer.max, sourceLocation: sourceLocation)
  #expect(
    exactInteger(String(Integer.max - 1), as: type) == Integer.max - 1,
    sourceLocation: sourceLocation)
  #expect(
    exactInteger(String(Integer.min), as: type) == Integer.min, sourceLocation: sourceLocation)
  #expect(
    exactInteger(String(Integer.min + 1), as: type) == Integer.min + 1,
    sourceLocation: sourceLocation)
  let belowMin = Integer.isSigned ? "-" + incremented(String(Integer.min.magnitude)) : "-1"
  #expect(exactInteger(belowMin, as: type) == nil, sourceLocation: sourceLocation)
  #expect(exactInteger("-0", as: type) == 0, sourceLocation: sourceLocation)
  #expect(exactInteger("-0.0e3", as: type) == 0, sourceLocation: sourceLocation)
  #expect(exactInteger("0.5", as: type) == nil, sourceLocation: sourceLocation)
}

/// A string of decimal digits plus one.
private func incremented(_ digits: String) -> String {
  var bytes = Array(digits.utf8)
  var index = bytes.count - 1
  while index >= 0, bytes[index] == UInt8(ascii: "9") {
    bytes[index] = UInt8(ascii: "0")
    index -= 1
  }
  if index < 0 { bytes.insert(UInt8(ascii: "1"), at: 0) } else { bytes[index] += 1 }
  return String(decoding: bytes, as: UTF8.self)
}

/// The midpoint (2c + 1) * 2^(q - 1) written exactly, then a hair above and below it.
private func midpointTokens(_ c: UInt64, _ q: Int) -> [String] {
  // (2c + 1) * 2^(q-1) = digits * 10^exponent, with digits = (2c+1) * 5^(1-q) when q < 1.
  var digits = BigDecimalDigits(2 * c + 1)
  let exponent: Int
  if q >= 1 {
    digits.multiply(byPowerOf: 2, q - 1)
    exponent = 0
  } else {
    digits.multiply(byPowerOf: 5, 1 - q)
    exponent = q - 1
  }
  let text = digits.description
  // text ends in an odd digit (an odd number times powers of five), so lowering it stays valid.
  var below = Array(text.utf8)
  below[below.count - 1] -= 1
  return [
    "\(text)e\(exponent)", "\(text)000001e\(exponent - 6)",
    "\(String(decoding: below, as: UTF8.self))999999e\(exponent - 6)",
  ]
}

/// A non-negative integer of any size in base 10^9 limbs, least significant first: just enough
/// arithmetic to write exact midpoints.
private struct BigDecimalDigits: CustomStringConvertible {
  /// Limbs of nine decimal digits, least significant first.
  var limbs: [UInt64]

  init(_ value: UInt64) {
    limbs = [
      value % 1_000_000_000, value / 1_000_000_000 % 1_000_000_000,
      value / 1_000_000_000_000_000_000,
    ]
    while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
  }

  /// Multiplies by base^count, a few factors at a time (each product stays below 2^63).
  mutating func multiply(byPowerOf base: UInt64, _ count: Int) {
    let perStep = base == 2 ? 29 : 13
    var remaining = count
    while remaining > 0 {
      let step = min(perStep, remaining)
      var factor: UInt64 = 1
      for _ in 0..<step { factor *= base }
      multiply(by: factor)
      remaining -= step
    }
  }

  mutating func multiply(by factor: UInt64) {
    var carry: UInt64 = 0
    for index in limbs.indices {
      let product = limbs[index] * factor + carry
      limbs[index] = product % 1_000_000_000
      carry = product / 1_000_000_000
    }
    while carry > 0 {
      limbs.append(carry % 1_000_000_000)
      carry /= 1_000_000_000
    }
  }

  var description: String {
    var text = String(limbs.last ?? 0)
    for limb in limbs.dropLast().reversed() {
      let part = String(limb)
      text += String(repeating: "0", count: 9 - part.count) + part
    }
    return text
  }
}

private func written(_ value: Double) -> String {
  var buffer: [UInt8] = []
  JSONNumberWriter.append(value, to: &buffer)
  return String(decoding: buffer, as: UTF8.self)
}

private func written(_ value: Float) -> String {
  var buffer: [UInt8] = []
  JSONNumberWriter.append(value, to: &buffer)
  return String(decoding: buffer, as: UTF8.self)
}

private func writtenInteger<Integer: FixedWidthInteger>(_ value: Integer) -> String {
  var buffer: [UInt8] = []
  JSONNumberWriter.append(integer: value, to: &buffer)
  return String(decoding: buffer, as: UTF8.self)
}

/// What Foundation's `JSONEncoder` writes for `value`, from `[value]` without the brackets.
private func foundationJSON<Value: Encodable>(_ value: Value) -> String {
  guard let data = try? JSONEncoder().encode([value]) else { return "<encoding failed>" }
  return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
}

/// `description` without a trailing `".0"`, the rule `JSONEncoder` follows.
private func descriptionWithoutPointZero<Value: CustomStringConvertible>(_ value: Value) -> String {
  let text = value.description
  return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
}

private func expectWrittenLikeDescription<Value: BinaryFloatingPoint & CustomStringConvertible>(
  _ value: Value, sourceLocation: SourceLocation = #_sourceLocation
) {
  guard value.isFinite else { return }
  let text: String
  if let double = value as? Double {
    text = written(double)
  } else if let float = value as? Float {
    text = written(float)
  } else {
    return
  }
  #expect(text == descriptionWithoutPointZero(value), sourceLocation: sourceLocation)
}

/// Whether two decimals have the same value and the same representation: exponent,
/// significand and sign (and, on Linux, the same bytes).
private func sameDecimal(_ decimal: Decimal, _ expected: Decimal?) -> Bool {
  guard let expected else { return false }
  #if os(Linux)
    let sameBytes = withUnsafeBytes(of: decimal) { left in
      withUnsafeBytes(of: expected) { right in left.elementsEqual(right) }
    }
    guard sameBytes else { return false }
  #endif
  return decimal == expected && decimal.exponent == expected.exponent
    && decimal.significand.description == expected.significand.description
    && decimal.sign == expected.sign && decimal.description == expected.description
}

/// A decimal's value and representation, for failure messages.
private func decimalParts(_ decimal: Decimal) -> String {
  "\(decimal) (significand \(decimal.significand), exponent \(decimal.exponent))"
}
