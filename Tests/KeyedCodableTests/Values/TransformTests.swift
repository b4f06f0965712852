import Foundation
import KeyedCodable
import Testing

/// Transforms: two-way conversions between what the document holds and what a property holds,
/// in every mapping operator, on optionals, arrays and dictionaries, composed with `then`.
@Suite("Values: transforms", .bothCoders)
struct TransformTests {
  // MARK: - Custom transforms

  /// Cents in the document, a `Decimal` amount of money in the model.
  struct CentsTransform: ValueTransform {
    func decode(_ cents: Int) throws -> Decimal {
      guard cents >= 0 else { throw ValueTransformError("\(cents) cents is a negative amount.") }
      return Decimal(cents) / 100
    }

    func encode(_ amount: Decimal) throws -> Int {
      // The description of a whole Decimal has no point: "1234"; "12.5" does not convert.
      guard let cents = Int((amount * 100).description) else {
        throw ValueTransformError("\(amount) has fractions of a cent.")
      }
      return cents
    }
  }

  /// An error that is not a `ValueTransformError`.
  struct Overheated: Error, CustomStringConvertible {
    var description: String { "the sensor overheated" }
  }

  /// A transform that throws a plain error both ways.
  struct SensorTransform: ValueTransform {
    func decode(_ reading: Int) throws -> Double {
      guard reading < 1000 else { throw Overheated() }
      return Double(reading) / 10
    }

    func encode(_ value: Double) throws -> Int {
      guard value < 100 else { throw Overheated() }
      return Int(value * 10)
    }
  }

  /// A host name from a URL: composes after ``URLTransform``.
  struct HostTransform: ValueTransform {
    func decode(_ url: URL) throws -> String {
      guard let host = url.host, !host.isEmpty else {
        throw ValueTransformError("\(url.absoluteString) has no host.")
      }
      return host
    }

    func encode(_ host: String) throws -> URL {
      guard let url = URL(string: "https://\(host)") else {
        throw ValueTransformError("\(host) is not a host name.")
      }
      return url
    }
  }

  // MARK: - URL

  struct Profile: Codable, Keyedable, Equatable {
    enum CodingKeys: String, CodingKey {
      case blog = "links.blog"
    }

    var homepage = URL(fileURLWithPath: "/")
    var avatar: URL?
    var blog: URL?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try homepage <-> map["homepage"].using(.url)
      try avatar <-> map["links.avatar"].using(.url)
      try blog <-> map[CodingKeys.blog].using(.url)
    }
  }

  @Test func aURLDecodesFromAStringAndEncodesItsAbsoluteString() throws {
    let json = """
      {"homepage": "https://example.com/a?b=1#c",
       "links": {"avatar": "https://cdn.example.com/a.png", "blog": "http://blog.example.com"}}
      """
    let profile = try decode(Profile.self, from: json)
    #expect(profile.homepage == URL(string: "https://example.com/a?b=1#c"))
    #expect(profile.avatar == URL(string: "https://cdn.example.com/a.png"))
    #expect(profile.blog == URL(string: "http://blog.example.com"))
    try expectEncoded(profile, json)
  }

  @Test func anOptionalURLIsNilWhenMissingOrNullAnywhereOnItsPathAndIsNotWritten() throws {
    for json in [
      #"{"homepage": "https://a.example"}"#,
      #"{"homepage": "https://a.example", "links": null}"#,
      #"{"homepage": "https://a.example", "links": {"avatar": null}}"#,
    ] {
      let profile = try decode(Profile.self, from: json)
      #expect(profile.avatar == nil, "\(json)")
      #expect(profile.blog == nil, "\(json)")
      try expectEncoded(profile, #"{"homepage": "https://a.example"}"#)
    }
  }

  @Test func anEmptyStringIsNotAURLAndFailsAtItsPath() throws {
    expectError("dataCorrupted", at: ["homepage"], message: #""" is not a valid URL."#) {
      try decode(Profile.self, from: #"{"homepage": ""}"#)
    }
    expectError("dataCorrupted", at: ["links", "avatar"], message: #""" is not a valid URL."#) {
      try decode(Profile.self, from: #"{"homepage": "https://a", "links": {"avatar": ""}}"#)
    }
  }

  @Test func aStringURLRejectsIsDataCorruptedWithTheTransformErrorUnderneath() throws {
    let error = thrownError { try decode(Profile.self, from: #"{"homepage": "http://[::1"}"#) }
    #expect(error.flatMap(shape(of:)) == ErrorShape(kind: "dataCorrupted", path: ["homepage"]))
    #expect(error.map(message(of:)) == #""http://[::1" is not a valid URL."#)
    #expect(
      underlyingError(of: error) as? ValueTransformError
        == ValueTransformError(#""http://[::1" is not a valid URL."#))
  }

  @Test
  func aStringWithSpacesIsNotAURL() throws {
    expectError(
      "dataCorrupted", at: ["homepage"], message: #""https://exa mple.com" is not a valid URL."#
    ) {
      try decode(Profile.self, from: #"{"homepage": "https://exa mple.com"}"#)
    }
    expectError("dataCorrupted", at: ["homepage"], message: #""not a url" is not a valid URL."#) {
      try decode(Profile.self, from: #"{"homepage": "not a url"}"#)
    }
  }

  @Test func aTransformedValueOfTheWrongTypeOrAbsentFailsLikeAPlainValue() throws {
    expectError("typeMismatch", at: ["homepage"]) {
      try decode(Profile.self, from: #"{"homepage": 42}"#)
    }
    expectError("keyNotFound(homepage)", at: []) { try decode(Profile.self, from: "{}") }
    expectError("valueNotFound", at: ["homepage"]) {
      try decode(Profile.self, from: #"{"homepage": null}"#)
    }
    expectError("typeMismatch", at: ["links"]) {
      try decode(Profile.self, from: #"{"homepage": "https://a", "links": []}"#)
    }
  }

  @Test func aTransformReadsAKeyWithCustomKeyOptions() throws {
    struct Odd: Codable, Keyedable {
      var site: URL?
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try site <-> map["meta+site.url", KeyOptions(delimiter: "+")].using(.url)
      }
    }
    let odd = try decode(Odd.self, from: #"{"meta": {"site.url": "https://a.example"}}"#)
    #expect(odd.site == URL(string: "https://a.example"))
    try expectEncoded(odd, #"{"meta": {"site.url": "https://a.example"}}"#)
    expectError("dataCorrupted", at: ["meta", "site.url"]) {
      try decode(Odd.self, from: #"{"meta": {"site.url": ""}}"#)
    }
  }

  // MARK: - Every operator

  struct Required: Codable, Keyedable {
    var both = URL(fileURLWithPath: "/both")
    var decodeOnly = URL(fileURLWithPath: "/decodeOnly")
    var encodeOnly = URL(fileURLWithPath: "/encodeOnly")
    var ifPresent = URL(fileURLWithPath: "/ifPresent")
    var ifPresentDecodeOnly = URL(fileURLWithPath: "/ifPresentDecodeOnly")
    var ifPresentEncodeOnly = URL(fileURLWithPath: "/ifPresentEncodeOnly")

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try both <-> map["both"].using(.url)
      try decodeOnly <<- map["decodeOnly"].using(.url)
      try encodeOnly ->> map["encodeOnly"].using(.url)
      try ifPresent <?> map["ifPresent"].using(.url)
      try ifPresentDecodeOnly <<? map["ifPresentDecodeOnly"].using(.url)
      try ifPresentEncodeOnly ?>> map["ifPresentEncodeOnly"].using(.url)
    }
  }

  struct Optionals: Codable, Keyedable {
    var both: URL? = URL(fileURLWithPath: "/both")
    var decodeOnly: URL? = URL(fileURLWithPath: "/decodeOnly")
    var encodeOnly: URL? = URL(fileURLWithPath: "/encodeOnly")
    var ifPresent: URL? = URL(fileURLWithPath: "/ifPresent")
    var ifPresentDecodeOnly: URL? = URL(fileURLWithPath: "/ifPresentDecodeOnly")
    var ifPresentEncodeOnly: URL? = URL(fileURLWithPath: "/ifPresentEncodeOnly")

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try both <-> map["both"].using(.url)
      try decodeOnly <<- map["decodeOnly"].using(.url)
      try encodeOnly ->> map["encodeOnly"].using(.url)
      try ifPresent <?> map["ifPresent"].using(.url)
      try ifPresentDecodeOnly <<? map["ifPresentDecodeOnly"].using(.url)
      try ifPresentEncodeOnly ?>> map["ifPresentEncodeOnly"].using(.url)
    }
  }

  static let everyKey = """
    {"both": "https://x/both", "decodeOnly": "https://x/decodeOnly",
     "encodeOnly": "https://x/encodeOnly", "ifPresent": "https://x/ifPresent",
     "ifPresentDecodeOnly": "https://x/ifPresentDecodeOnly",
     "ifPresentEncodeOnly": "https://x/ifPresentEncodeOnly"}
    """

  @Test func everyOperatorDecodesThroughTheTransformExceptTheEncodingOnes() throws {
    let value = try decode(Required.self, from: Self.everyKey)
    #expect(value.both == URL(string: "https://x/both"))
    #expect(value.decodeOnly == URL(string: "https://x/decodeOnly"))
    #expect(value.encodeOnly == URL(fileURLWithPath: "/encodeOnly"))
    #expect(value.ifPresent == URL(string: "https://x/ifPresent"))
    #expect(value.ifPresentDecodeOnly == URL(string: "https://x/ifPresentDecodeOnly"))
    #expect(value.ifPresentEncodeOnly == URL(fileURLWithPath: "/ifPresentEncodeOnly"))

    let optionals = try decode(Optionals.self, from: Self.everyKey)
    #expect(optionals.both == URL(string: "https://x/both"))
    #expect(optionals.decodeOnly == URL(string: "https://x/decodeOnly"))
    #expect(optionals.encodeOnly == URL(fileURLWithPath: "/encodeOnly"))
    #expect(optionals.ifPresent == URL(string: "https://x/ifPresent"))
    #expect(optionals.ifPresentDecodeOnly == URL(string: "https://x/ifPresentDecodeOnly"))
    #expect(optionals.ifPresentEncodeOnly == URL(fileURLWithPath: "/ifPresentEncodeOnly"))
  }

  @Test func everyOperatorEncodesThroughTheTransformExceptTheDecodingOnes() throws {
    let value = with(Required()) {
      $0.both = URL(string: "https://y/both")!
      $0.encodeOnly = URL(string: "https://y/encodeOnly")!
      $0.ifPresent = URL(string: "https://y/ifPresent")!
      $0.ifPresentEncodeOnly = URL(string: "https://y/ifPresentEncodeOnly")!
    }
    let expected = """
      {"both": "https://y/both", "encodeOnly": "https://y/encodeOnly",
       "ifPresent": "https://y/ifPresent", "ifPresentEncodeOnly": "https://y/ifPresentEncodeOnly"}
      """
    try expectEncoded(value, expected)
    let optionals = with(Optionals()) {
      $0.both = URL(string: "https://y/both")
      $0.encodeOnly = URL(string: "https://y/encodeOnly")
      $0.ifPresent = URL(string: "https://y/ifPresent")
      $0.ifPresentEncodeOnly = URL(string: "https://y/ifPresentEncodeOnly")
    }
    try expectEncoded(optionals, expected)
    let nils = with(Optionals()) {
      $0.both = nil
      $0.encodeOnly = nil
      $0.ifPresent = nil
      $0.ifPresentEncodeOnly = nil
    }
    try expectEncoded(nils, "{}")
  }

  @Test func theIfPresentOperatorsKeepTheValueWhenTheKeyIsAbsentOrNull() throws {
    for json in [
      #"{"both": "https://x/both", "decodeOnly": "https://x/decodeOnly"}"#,
      #"{"both": "https://x/both", "decodeOnly": "https://x/decodeOnly", "ifPresent": null, "ifPresentDecodeOnly": null}"#,
    ] {
      let value = try decode(Required.self, from: json)
      #expect(value.ifPresent == URL(fileURLWithPath: "/ifPresent"), "\(json)")
      #expect(value.ifPresentDecodeOnly == URL(fileURLWithPath: "/ifPresentDecodeOnly"), "\(json)")
      let optionals = try decode(Optionals.self, from: json)
      #expect(optionals.ifPresent == URL(fileURLWithPath: "/ifPresent"), "\(json)")
      #expect(
        optionals.ifPresentDecodeOnly == URL(fileURLWithPath: "/ifPresentDecodeOnly"), "\(json)")
    }
    // The plain operators make optionals nil.
    let optionals = try decode(Optionals.self, from: "{}")
    #expect(optionals.both == nil)
    #expect(optionals.decodeOnly == nil)
  }

  @Test func theIfPresentOperatorsStillRejectAnInvalidValue() throws {
    expectError("dataCorrupted", at: ["ifPresent"], message: #""" is not a valid URL."#) {
      try decode(Optionals.self, from: #"{"ifPresent": ""}"#)
    }
    expectError("dataCorrupted", at: ["ifPresentDecodeOnly"]) {
      try decode(
        Required.self,
        from: #"{"both": "https://x", "decodeOnly": "https://x", "ifPresentDecodeOnly": ""}"#)
    }
  }

  @Test func aRequiredDecodeOnlyTransformThrowsKeyNotFound() throws {
    expectError("keyNotFound(decodeOnly)", at: []) {
      try decode(Required.self, from: #"{"both": "https://x/both"}"#)
    }
  }

  // MARK: - Raw values

  enum Status: String, Codable, CaseIterable, Sendable {
    case active, suspended, unknown
  }

  enum Priority: Int, Codable, Sendable {
    case low = 1
    case high = 2
  }

  struct Account: Codable, Keyedable {
    var status = Status.active
    var lenient = Status.active
    var priority: Priority?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try status <-> map["status"].using(.rawValue())
      try lenient <-> map["lenient"].using(.rawValue(fallback: .unknown))
      try priority <-> map["priority"].using(.rawValue(Priority.self))
    }
  }

  @Test func anEnumDecodesFromItsRawValueAndEncodesIt() throws {
    let json = #"{"status": "suspended", "lenient": "active", "priority": 2}"#
    let account = try decode(Account.self, from: json)
    #expect(account.status == .suspended)
    #expect(account.lenient == .active)
    #expect(account.priority == .high)
    try expectEncoded(account, json)
  }

  @Test func anUnknownRawValueWithoutAFallbackIsDataCorruptedListingTheKnownValues() throws {
    expectError(
      "dataCorrupted", at: ["status"],
      message: #""deleted" is not a raw value of Status; known values are "active", "#
        + #""suspended", "unknown"."#
    ) {
      try decode(Account.self, from: #"{"status": "deleted", "lenient": "active"}"#)
    }
    expectError("dataCorrupted", at: ["priority"], message: "7 is not a raw value of Priority.") {
      try decode(Account.self, from: #"{"status": "active", "lenient": "active", "priority": 7}"#)
    }
  }

  @Test func aRawValueOfTheWrongTypeIsATypeMismatch() throws {
    expectError("typeMismatch", at: ["priority"]) {
      try decode(Account.self, from: #"{"status": "active", "lenient": "active", "priority": "2"}"#)
    }
  }

  @Test func anUnknownRawValueWithAFallbackGivesTheFallbackAndIsReported() throws {
    let json = #"{"status": "active", "lenient": "deleted"}"#
    #expect(try decode(Account.self, from: json).lenient == .unknown)
    let (account, report) = try decodeWithReport(Account.self, from: json)
    #expect(account.lenient == .unknown)
    #expect(
      lines(of: report) == [
        "Replaced an invalid value with the default unknown at lenient via lenient"
      ])
    #expect(
      report.entries.first.map { message(of: $0.error) }
        == #""deleted" is not a raw value of Status; known values are "active", "suspended", "#
        + #""unknown"."#)
    // Encoding writes the fallback: the decoded value.
    try expectEncoded(account, #"{"status": "active", "lenient": "unknown"}"#)
  }

  @Test func aKnownRawValueIsNotReported() throws {
    let (_, report) = try decodeReporting(
      Account.self, from: #"{"status": "active", "lenient": "unknown"}"#)
    #expect(report.isEmpty)
  }

  @Test func fallbacksInsideAnArrayAreReportedAtTheElementsPath() throws {
    struct Board: Codable, Keyedable {
      var strict: [Status] = []
      var lossy: [Status] = []
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try strict <-> map["strict"].using(.array(.rawValue(fallback: .unknown)))
        try lossy <-> map["* lossy"].using(.array(.rawValue(fallback: .unknown)))
      }
    }
    let json = #"{"strict": ["active", "gone"], "lossy": ["x", 5, "suspended"]}"#
    let (board, report) = try decodeReporting(Board.self, from: json)
    #expect(board.strict == [.active, .unknown])
    #expect(board.lossy == [.unknown, .suspended])
    #expect(
      report == [
        "Replaced an invalid value with the default unknown at strict[1] via strict",
        "Replaced an invalid value with the default unknown at lossy[0] via * lossy",
        "Dropped array element at lossy[1] via * lossy",
      ])
  }

  // MARK: - Base64

  struct Blob: Codable, Keyedable {
    var standard = Data()
    var urlSafe = Data()

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try standard <-> map["standard"].using(.base64)
      try urlSafe <-> map["urlSafe"].using(.base64URL)
    }
  }

  @Test func dataDecodesFromBase64AndBase64URLAndEncodesBack() throws {
    let blob = try decode(Blob.self, from: #"{"standard": "+/8=", "urlSafe": "-_8"}"#)
    #expect(blob.standard == Data([0xFB, 0xFF]))
    #expect(blob.urlSafe == Data([0xFB, 0xFF]))
    try expectEncoded(blob, #"{"standard": "+/8=", "urlSafe": "-_8"}"#)
    let hello = try decode(Blob.self, from: #"{"standard": "aGVsbG8=", "urlSafe": "aGVsbG8"}"#)
    #expect(hello.standard == Data("hello".utf8))
    #expect(hello.urlSafe == Data("hello".utf8))
  }

  @Test func base64URLAcceptsPaddingAndWritesNone() throws {
    let blob = try decode(Blob.self, from: #"{"standard": "", "urlSafe": "aGVsbG8="}"#)
    #expect(blob.urlSafe == Data("hello".utf8))
    #expect(blob.standard == Data())
    try expectEncoded(blob, #"{"standard": "", "urlSafe": "aGVsbG8"}"#)
  }

  /// Canonical text of every length up to 70 bytes (read from the string's bytes) and the same
  /// with set unused bits (read by Foundation), each as Foundation reads it.
  @Test func base64ReadsEveryLengthAsFoundationDoes() throws {
    let transform = Base64Transform()
    for count in 0...70 {
      let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ count) })
      let text = data.base64EncodedString()
      #expect(try transform.decode(text) == data)
      guard count % 3 != 0 else { continue }
      // The letter before the padding with its lowest bit set: bits past the last byte, which
      // the letter had clear.
      let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
      var letters = Array(text)
      let last = letters.count - (count % 3 == 1 ? 3 : 2)
      let value = try #require(alphabet.firstIndex(of: letters[last]))
      #expect(value % 2 == 0)
      letters[last] = alphabet[value + 1]
      let odd = String(letters)
      #expect((try? transform.decode(odd)) == Data(base64Encoded: odd), "\(odd)")
    }
  }

  @Test(arguments: [
    "aGVsbG8", "aGVs bG8=", "aGVsbG8=\n", " aGVsbG8=", "a", "****", "-_8=", "aGVs=bG8=", "=aGVsbG8",
  ])
  func invalidBase64IsDataCorrupted(text: String) throws {
    let quoted = String(
      decoding: try JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed),
      as: UTF8.self)
    let json = #"{"standard": \#(quoted), "urlSafe": ""}"#
    let shown = text.replacingOccurrences(of: "\n", with: "\\n")
    expectError("dataCorrupted", at: ["standard"], message: "\"\(shown)\" is not valid base64.") {
      try decode(Blob.self, from: json)
    }
  }

  @Test(arguments: ["+/8=", "aGVs bG8", "a", "aGVs=bG8"])
  func invalidBase64URLIsDataCorrupted(text: String) throws {
    let json = #"{"standard": "", "urlSafe": "\#(text)"}"#
    expectError("dataCorrupted", at: ["urlSafe"], message: "\"\(text)\" is not valid base64url.") {
      try decode(Blob.self, from: json)
    }
  }

  @Test(
    arguments: ["aGVsbG8==", "aGVsbG8===", "aGVsbA==="])
  func base64WithExcessPaddingIsDataCorrupted(text: String) throws {
    expectError("dataCorrupted", at: ["standard"], message: "\"\(text)\" is not valid base64.") {
      try decode(Blob.self, from: #"{"standard": "\#(text)", "urlSafe": ""}"#)
    }
    expectError("dataCorrupted", at: ["urlSafe"], message: "\"\(text)\" is not valid base64url.") {
      try decode(Blob.self, from: #"{"standard": "", "urlSafe": "\#(text)"}"#)
    }
  }

  // MARK: - Decimal

  struct Price: Codable, Keyedable {
    var amount = Decimal()
    var text = Decimal()
    var optional: Decimal?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try amount <-> map["amount"].using(.decimal)
      try text <-> map["text"].using(.decimalString)
      try optional <-> map["optional"].using(.decimal)
    }
  }

  @Test func aDecimalKeepsTheDigitsOfANumberWithoutBinaryRounding() throws {
    let price = try decode(Price.self, from: #"{"amount": 0.1, "text": 0.2}"#)
    #expect(price.amount == Decimal(string: "0.1"))
    #expect(price.text == Decimal(string: "0.2"))
    #expect(price.amount + price.text == Decimal(string: "0.3"))
    #expect(price.amount.description == "0.1")
    #expect(try encodedText(price) == #"{"amount":0.1,"text":"0.2"}"#)
  }

  @Test func aDecimalReadsANumericStringDigitForDigit() throws {
    let price = try decode(
      Price.self, from: #"{"amount": "0.1", "text": "-2.50", "optional": "1e3"}"#)
    #expect(price.amount == Decimal(string: "0.1"))
    #expect(price.text == Decimal(string: "-2.5"))
    #expect(price.optional == 1000)
    #expect(try encodedText(price) == #"{"amount":0.1,"optional":1000,"text":"-2.5"}"#)
  }

  @Test func aLongDecimalKeepsEveryDigit() throws {
    let digits = "12345678901234567890.123456789"
    let price = try decode(Price.self, from: #"{"amount": \#(digits), "text": "\#(digits)"}"#)
    #expect(price.amount == Decimal(string: digits))
    #expect(price.text == Decimal(string: digits))
    #expect(try encodedText(price) == #"{"amount":\#(digits),"text":"\#(digits)"}"#)
  }

  @Test(arguments: ["", " 1", "1 ", "1,5", "0x10", "NaN", "abc", "١", "1.", ".5", "+1", "1e"])
  func aStringThatIsNotAJSONNumberIsNotADecimal(text: String) throws {
    expectError(
      "dataCorrupted", at: ["text"], message: "\"\(text)\" is not a number of type Decimal."
    ) {
      try decode(Price.self, from: #"{"amount": 1, "text": "\#(text)"}"#)
    }
  }

  @Test func aDecimalFromABoolIsATypeMismatchAndAnOptionalOneIsNilWhenNull() throws {
    expectError("typeMismatch", at: ["amount"]) {
      try decode(Price.self, from: #"{"amount": true, "text": "1"}"#)
    }
    #expect(
      try decode(Price.self, from: #"{"amount": 1, "text": "1", "optional": null}"#).optional == nil
    )
  }

  @Test func aDecimalKeepsThirtyEightSignificantDigits() throws {
    let digits = "1234567890123456789012345678901234567.8"
    let price = try decode(Price.self, from: #"{"amount": \#(digits), "text": "\#(digits)"}"#)
    #expect(price.amount == Decimal(string: digits))
    #expect(price.amount.description == digits)
    #expect(price.text.description == digits)
  }

  @Test func aDecimalOutOfDecimalsRangeIsDataCorrupted() throws {
    expectError(
      "dataCorrupted", at: ["text"], message: #""1e200" is not a number of type Decimal."#
    ) {
      try decode(Price.self, from: #"{"amount": 1, "text": "1e200"}"#)
    }
    expectError("dataCorrupted", at: pathOfNumberThatDoesNotFit(["amount"])) {
      try decode(Price.self, from: #"{"amount": 1e200, "text": "1"}"#)
    }
  }

  @Test func negativeZeroIsADecimalZero() throws {
    let price = try decode(Price.self, from: #"{"amount": -0, "text": "-0"}"#)
    #expect(price.amount == 0)
    #expect(price.text == 0)
  }

  // MARK: - UUID

  struct Identified: Codable, Keyedable {
    var id = UUID()
    var lower = UUID()

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"].using(.uuid)
      try lower <-> map["lower"].using(.lowercaseUUID)
    }
  }

  @Test func aUUIDReadsEitherCaseAndWritesTheChosenCase() throws {
    let value = try decode(
      Identified.self,
      from:
        #"{"id": "7cbe0cc1-7779-42e9-aaf1-c4b145f3cae9", "lower": "7CBE0CC1-7779-42E9-AAF1-C4B145F3CAE9"}"#
    )
    #expect(value.id == UUID(uuidString: "7CBE0CC1-7779-42E9-AAF1-C4B145F3CAE9"))
    #expect(value.lower == value.id)
    try expectEncoded(
      value,
      #"{"id": "7CBE0CC1-7779-42E9-AAF1-C4B145F3CAE9", "lower": "7cbe0cc1-7779-42e9-aaf1-c4b145f3cae9"}"#
    )
  }

  @Test(arguments: [
    "", "7cbe0cc1777942e9aaf1c4b145f3cae9", "{7cbe0cc1-7779-42e9-aaf1-c4b145f3cae9}",
    "7cbe0cc1-7779-42e9-aaf1-c4b145f3cae", " 7cbe0cc1-7779-42e9-aaf1-c4b145f3cae9",
  ])
  func aStringThatIsNotAUUIDIsDataCorrupted(text: String) throws {
    expectError("dataCorrupted", at: ["id"], message: "\"\(text)\" is not a valid UUID.") {
      try decode(Identified.self, from: #"{"id": "\#(text)", "lower": ""}"#)
    }
  }

  // MARK: - Numeric strings

  struct Counters: Codable, Keyedable {
    var count = 0
    var big: Int64 = 0
    var unsigned: UInt64 = 0
    var ratio = 0.0

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try count <-> map["count"].using(.numericString())
      try big <-> map["big"].using(.numericString())
      try unsigned <-> map["unsigned"].using(.numericString())
      try ratio <-> map["ratio"].using(.numericString())
    }
  }

  @Test func numbersDecodeFromNumericStringsOrNumbersAndEncodeAsStrings() throws {
    let strings = """
      {"count": "42", "big": "9007199254740993", "unsigned": "18446744073709551615",
       "ratio": "0.1"}
      """
    let counters = try decode(Counters.self, from: strings)
    #expect(counters.count == 42)
    #expect(counters.big == 9_007_199_254_740_993)
    #expect(counters.unsigned == UInt64.max)
    #expect(counters.ratio == 0.1)
    try expectEncoded(counters, strings)

    let numbers = #"{"count": -7, "big": -9007199254740993, "unsigned": 0, "ratio": 2.5}"#
    let fromNumbers = try decode(Counters.self, from: numbers)
    #expect(fromNumbers.count == -7)
    #expect(fromNumbers.big == -9_007_199_254_740_993)
    #expect(fromNumbers.ratio == 2.5)
    try expectEncoded(
      fromNumbers,
      #"{"count": "-7", "big": "-9007199254740993", "unsigned": "0", "ratio": "2.5"}"#)
  }

  @Test func theExtremesOfEachTypeRoundTrip() throws {
    let json = """
      {"count": "-9223372036854775808", "big": "9223372036854775807",
       "unsigned": "18446744073709551615", "ratio": "-0"}
      """
    let counters = try decode(Counters.self, from: json)
    #expect(counters.count == Int.min)
    #expect(counters.big == Int64.max)
    #expect(counters.ratio == 0 && counters.ratio.sign == .minus)
    try expectEncoded(counters, json)
  }

  @Test(arguments: [
    "1.5", "1e3", "+1", " 42", "42 ", "", "٤٢", "9223372036854775808", "0x1F", "1_000", "--1", "-",
  ])
  func aStringThatIsNotAnIntIsDataCorrupted(text: String) throws {
    expectError("dataCorrupted", at: ["count"], message: "\"\(text)\" is not a number of type Int.")
    {
      try decode(
        Counters.self, from: #"{"count": "\#(text)", "big": "0", "unsigned": "0", "ratio": "0"}"#)
    }
  }

  @Test(arguments: ["1e999", "1e-999", "NaN", "inf", "-Infinity", " 1.5", "1.5.1", ""])
  func aStringThatIsNotAFiniteDoubleIsDataCorrupted(text: String) throws {
    expectError(
      "dataCorrupted", at: ["ratio"], message: "\"\(text)\" is not a number of type Double."
    ) {
      try decode(
        Counters.self, from: #"{"count": "0", "big": "0", "unsigned": "0", "ratio": "\#(text)"}"#)
    }
  }

  @Test func aNegativeStringIsNotAnUnsignedNumber() throws {
    expectError(
      "dataCorrupted", at: ["unsigned"], message: #""-1" is not a number of type UInt64."#
    ) {
      try decode(
        Counters.self, from: #"{"count": "0", "big": "0", "unsigned": "-1", "ratio": "0"}"#)
    }
  }

  @Test
  func aNonFiniteDoubleIsNotWrittenAsANumericString() throws {
    for value in [Double.infinity, -Double.infinity, Double.nan] {
      expectError("invalidValue", at: ["ratio"]) {
        try encodeJSON(with(Counters()) { $0.ratio = value })
      }
    }
  }

  @Test func aFractionalNumberIsNeverAnInt() throws {
    expectError("dataCorrupted", at: pathOfNumberThatDoesNotFit(["count"])) {
      try decode(Counters.self, from: #"{"count": 1.5, "big": 0, "unsigned": 0, "ratio": 0}"#)
    }
    expectError("typeMismatch", at: ["count"]) {
      try decode(Counters.self, from: #"{"count": true, "big": 0, "unsigned": 0, "ratio": 0}"#)
    }
  }

  // MARK: - Arrays

  struct Links: Codable, Keyedable {
    var strict: [URL] = []
    var lossy: [URL] = []
    var optional: [URL]?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try strict <-> map["strict"].using(.array(.url))
      try lossy <-> map["* lossy"].using(.array(.url))
      try optional <-> map["* optional"].using(.array(.url))
    }
  }

  @Test func anArrayTransformConvertsEveryElementBothWays() throws {
    let json = """
      {"strict": ["https://a.example", "https://b.example"], "lossy": [],
       "optional": ["https://c.example"]}
      """
    let links = try decode(Links.self, from: json)
    #expect(links.strict == [URL(string: "https://a.example")!, URL(string: "https://b.example")!])
    #expect(links.lossy == [])
    #expect(links.optional == [URL(string: "https://c.example")!])
    try expectEncoded(links, json)
  }

  @Test func aStrictArrayFailsAtTheFailingElement() throws {
    expectError("dataCorrupted", at: ["strict", "Index 1"], message: #""" is not a valid URL."#) {
      try decode(Links.self, from: #"{"strict": ["https://a.example", ""], "lossy": []}"#)
    }
    expectError("typeMismatch", at: ["strict", "Index 2"]) {
      try decode(Links.self, from: #"{"strict": ["https://a", "https://b", 3], "lossy": []}"#)
    }
    expectError("valueNotFound", at: ["strict", "Index 0"]) {
      try decode(Links.self, from: #"{"strict": [null], "lossy": []}"#)
    }
  }

  @Test func aLossyArrayDropsTheElementsThatFailAndReportsEach() throws {
    let json = """
      {"strict": [], "lossy": ["https://a.example", "", 5, null, "https://d.example"],
       "optional": [""]}
      """
    let (links, report) = try decodeWithReport(Links.self, from: json)
    #expect(links.lossy == [URL(string: "https://a.example")!, URL(string: "https://d.example")!])
    #expect(links.optional == [])
    #expect(
      lines(of: report) == [
        "Dropped array element at lossy[1] via * lossy",
        "Dropped array element at lossy[2] via * lossy",
        "Dropped array element at lossy[3] via * lossy",
        "Dropped array element at optional[0] via * optional",
      ])
    #expect(
      report.entries.map { shape(of: $0.error)?.kind } == [
        "dataCorrupted", "typeMismatch", "valueNotFound", "dataCorrupted",
      ])
    #expect(report.entries.first.map { message(of: $0.error) } == #""" is not a valid URL."#)
    #expect(
      report.entries.first.flatMap { shape(of: $0.error)?.path } == ["lossy", "Index 1"])
    try expectEncoded(
      links, #"{"strict": [], "lossy": ["https://a.example", "https://d.example"], "optional": []}"#
    )
  }

  @Test func aLossyArrayThatIsNotAnArrayStillFails() throws {
    expectError("typeMismatch", at: ["lossy"]) {
      try decode(Links.self, from: #"{"strict": [], "lossy": "https://a"}"#)
    }
    expectError("keyNotFound(lossy)", at: []) { try decode(Links.self, from: #"{"strict": []}"#) }
    #expect(
      try decode(Links.self, from: #"{"strict": [], "lossy": [], "optional": null}"#).optional
        == nil)
  }

  @Test func nestedArrayTransformsFailAtTheInnermostElement() throws {
    struct Grid: Codable, Keyedable {
      var strict: [[URL]] = []
      var lossy: [[URL]] = []
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try strict <-> map["strict"].using(.array(.array(.url)))
        try lossy <-> map["* lossy"].using(.array(.array(.url)))
      }
    }
    expectError(
      "dataCorrupted", at: ["strict", "Index 1", "Index 1"], message: #""" is not a valid URL."#
    ) {
      try decode(Grid.self, from: #"{"strict": [["https://a"], ["https://b", ""]], "lossy": []}"#)
    }
    let (grid, report) = try decodeWithReport(
      Grid.self, from: #"{"strict": [], "lossy": [["https://a"], ["https://b", ""], []]}"#)
    #expect(grid.lossy == [[URL(string: "https://a")!], []])
    #expect(lines(of: report) == ["Dropped array element at lossy[1] via * lossy"])
    #expect(
      report.entries.first.flatMap { shape(of: $0.error) }
        == ErrorShape(kind: "dataCorrupted", path: ["lossy", "Index 1", "Index 1"]))
  }

  // MARK: - Dictionaries

  struct Mirrors: Codable, Keyedable {
    var strict: [String: URL] = [:]
    var lossy: [String: URL] = [:]

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try strict <-> map["strict"].using(.dictionary(.url))
      try lossy <-> map["* lossy"].using(.dictionary(.url))
    }
  }

  @Test func aDictionaryTransformConvertsEveryValueBothWays() throws {
    let json = #"{"strict": {"eu": "https://eu.example", "us": "https://us.example"}, "lossy": {}}"#
    let mirrors = try decode(Mirrors.self, from: json)
    #expect(
      mirrors.strict == [
        "eu": URL(string: "https://eu.example")!, "us": URL(string: "https://us.example")!,
      ])
    try expectEncoded(mirrors, json)
  }

  @Test func aStrictDictionaryFailsAtTheFailingEntry() throws {
    expectError("dataCorrupted", at: ["strict", "us"], message: #""" is not a valid URL."#) {
      try decode(Mirrors.self, from: #"{"strict": {"eu": "https://eu", "us": ""}, "lossy": {}}"#)
    }
    expectError("typeMismatch", at: ["strict", "us"]) {
      try decode(Mirrors.self, from: #"{"strict": {"eu": "https://eu", "us": 1}, "lossy": {}}"#)
    }
  }

  @Test func aLossyDictionaryDropsTheEntriesThatFailAndReportsEach() throws {
    let json = """
      {"strict": {}, "lossy": {"eu": "https://eu.example", "us": "", "asia": 5, "a.b": null}}
      """
    let (mirrors, report) = try decodeWithReport(Mirrors.self, from: json)
    #expect(mirrors.lossy == ["eu": URL(string: "https://eu.example")!])
    #expect(
      lines(of: report).sorted() == [
        "Dropped dictionary entry at lossy.asia via * lossy",
        "Dropped dictionary entry at lossy.us via * lossy",
        #"Dropped dictionary entry at lossy["a.b"] via * lossy"#,
      ])
    try expectEncoded(mirrors, #"{"strict": {}, "lossy": {"eu": "https://eu.example"}}"#)
  }

  // MARK: - Composition

  @Test func transformsComposeWithThenAndEncodeInTheOppositeOrder() throws {
    struct Site: Codable, Keyedable {
      var host = ""
      var price = Decimal()
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try host <-> map["site"].using(URLTransform().then(HostTransform()))
        try price <-> map["price"].using(NumericStringTransform<Int>().then(CentsTransform()))
      }
    }
    let site = try decode(
      Site.self, from: #"{"site": "https://shop.example/cart", "price": "1250"}"#)
    #expect(site.host == "shop.example")
    #expect(site.price == Decimal(string: "12.5"))
    try expectEncoded(site, #"{"site": "https://shop.example", "price": "1250"}"#)
    // Each step's failure has its own message.
    expectError("dataCorrupted", at: ["site"], message: #""" is not a valid URL."#) {
      try decode(Site.self, from: #"{"site": "", "price": "1"}"#)
    }
    expectError("dataCorrupted", at: ["site"], message: "mailto:a@b.example has no host.") {
      try decode(Site.self, from: #"{"site": "mailto:a@b.example", "price": "1"}"#)
    }
    expectError("dataCorrupted", at: ["price"], message: "-5 cents is a negative amount.") {
      try decode(Site.self, from: #"{"site": "https://a", "price": "-5"}"#)
    }
    expectError("dataCorrupted", at: ["price"], message: #""1.5" is not a number of type Int."#) {
      try decode(Site.self, from: #"{"site": "https://a", "price": "1.5"}"#)
    }
  }

  @Test func aMappingComposesWithThenAfterACollectionTransform() throws {
    struct Hosts: Codable, Keyedable {
      var hosts: [String] = []
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try hosts
          <-> map["* hosts"].using(.array(.url)).then(
            ArrayTransform(HostTransform()))
      }
    }
    let (hosts, report) = try decodeReporting(
      Hosts.self, from: #"{"hosts": ["https://a.example/x", "", "https://b.example"]}"#)
    #expect(hosts.hosts == ["a.example", "b.example"])
    #expect(report == ["Dropped array element at hosts[1] via * hosts"])
    try expectEncoded(hosts, #"{"hosts": ["https://a.example", "https://b.example"]}"#)
  }

  // MARK: - Custom transforms and their errors

  struct Payment: Codable, Keyedable {
    var amount = Decimal()
    var temperature: Double?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try amount <-> map["order.amount"].using(CentsTransform())
      try temperature <-> map["sensor"].using(SensorTransform())
    }
  }

  @Test func aCustomTransformDecodesAndEncodes() throws {
    let payment = try decode(Payment.self, from: #"{"order": {"amount": 1999}, "sensor": 215}"#)
    #expect(payment.amount == Decimal(string: "19.99"))
    #expect(payment.temperature == 21.5)
    try expectEncoded(payment, #"{"order": {"amount": 1999}, "sensor": 215}"#)
  }

  @Test func aValueTransformErrorsMessageIsTheDecodingErrorsMessage() throws {
    let error = thrownError { try decode(Payment.self, from: #"{"order": {"amount": -5}}"#) }
    #expect(
      error.flatMap(shape(of:)) == ErrorShape(kind: "dataCorrupted", path: ["order", "amount"]))
    #expect(error.map(message(of:)) == "-5 cents is a negative amount.")
    #expect(
      underlyingError(of: error) as? ValueTransformError
        == ValueTransformError("-5 cents is a negative amount."))
  }

  @Test func anyOtherErrorsDescriptionIsTheMessage() throws {
    let error = thrownError {
      try decode(Payment.self, from: #"{"order": {"amount": 1}, "sensor": 1500}"#)
    }
    #expect(error.flatMap(shape(of:)) == ErrorShape(kind: "dataCorrupted", path: ["sensor"]))
    #expect(error.map(message(of:)) == "the sensor overheated")
    #expect(underlyingError(of: error) is Overheated)
  }

  @Test func anEncodeFailureIsInvalidValueAtTheFullPath() throws {
    let payment = with(Payment()) { $0.amount = Decimal(string: "0.005")! }
    let error = thrownError { try encodeJSON(payment) }
    #expect(
      error.flatMap(shape(of:)) == ErrorShape(kind: "invalidValue", path: ["order", "amount"]))
    #expect(error.map(message(of:)) == "0.005 has fractions of a cent.")
    #expect(
      underlyingError(of: error) as? ValueTransformError
        == ValueTransformError("0.005 has fractions of a cent."))

    let hot = with(Payment()) { $0.temperature = 150 }
    let plain = thrownError { try encodeJSON(hot) }
    #expect(plain.flatMap(shape(of:)) == ErrorShape(kind: "invalidValue", path: ["sensor"]))
    #expect(plain.map(message(of:)) == "the sensor overheated")
  }

  @Test func anEncodeFailureInsideACollectionNamesTheElement() throws {
    struct Ledger: Codable, Keyedable {
      var amounts: [Decimal] = []
      var byMonth: [String: Decimal] = [:]
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try amounts <-> map["amounts"].using(.array(CentsTransform()))
        try byMonth <-> map["byMonth"].using(.dictionary(CentsTransform()))
      }
    }
    expectError(
      "invalidValue", at: ["amounts", "Index 1"], message: "0.001 has fractions of a cent."
    ) {
      try encodeJSON(with(Ledger()) { $0.amounts = [1, Decimal(string: "0.001")!] })
    }
    expectError("invalidValue", at: ["byMonth", "may"], message: "0.001 has fractions of a cent.") {
      try encodeJSON(with(Ledger()) { $0.byMonth = ["jan": 1, "may": Decimal(string: "0.001")!] })
    }
    try expectEncoded(
      with(Ledger()) {
        $0.amounts = [1, Decimal(string: "0.25")!]
        $0.byMonth = ["jan": 2]
      }, #"{"amounts": [100, 25], "byMonth": {"jan": 200}}"#)
  }

  /// A transform whose representation is itself a Keyedable model.
  struct Money: Codable, Keyedable {
    var cents = 0
    var currency = ""

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try cents <-> map["amount.cents"]
      try currency <-> map["currency"]
    }
  }

  struct EuroTransform: ValueTransform {
    func decode(_ money: Money) throws -> Decimal {
      guard money.currency == "EUR" else {
        throw ValueTransformError("\(money.currency) is not EUR.")
      }
      return Decimal(money.cents) / 100
    }

    func encode(_ amount: Decimal) throws -> Money {
      var money = Money()
      money.cents = try CentsTransform().encode(amount)
      money.currency = "EUR"
      return money
    }
  }

  @Test func aModelRepresentationFailsInsideItselfOrAtTheValueForTheTransform() throws {
    struct Invoice: Codable, Keyedable {
      var total = Decimal()
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try total <-> map["lines.total"].using(EuroTransform())
      }
    }
    let json = #"{"lines": {"total": {"amount": {"cents": 1250}, "currency": "EUR"}}}"#
    #expect(try decode(Invoice.self, from: json).total == Decimal(string: "12.5"))
    try expectEncoded(with(Invoice()) { $0.total = Decimal(string: "12.5")! }, json)
    expectError("keyNotFound(cents)", at: ["lines", "total", "amount"]) {
      try decode(Invoice.self, from: #"{"lines": {"total": {"amount": {}, "currency": "EUR"}}}"#)
    }
    expectError("dataCorrupted", at: ["lines", "total"], message: "USD is not EUR.") {
      try decode(
        Invoice.self, from: #"{"lines": {"total": {"amount": {"cents": 1}, "currency": "USD"}}}"#)
    }
    expectError("invalidValue", at: ["lines", "total"], message: "0.001 has fractions of a cent.") {
      try encodeJSON(with(Invoice()) { $0.total = Decimal(string: "0.001")! })
    }
  }

  // MARK: - Nested models

  struct Item: Codable, Keyedable, Equatable {
    var url = URL(fileURLWithPath: "/")
    var price = Decimal()
    var mirrors: [URL] = []

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try url <-> map["url"].using(.url)
      try price <-> map["price"].using(CentsTransform())
      try mirrors <-> map["* mirrors"].using(.array(.url))
    }
  }

  struct Order: Codable, Keyedable {
    var items: [Item] = []

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try items <-> map["order.items"]
    }
  }

  struct Catalog: Codable, Keyedable {
    var items: [Item] = []

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try items <-> map["* items"]
    }
  }

  static func item(_ url: String, price: Int = 100, mirrors: String = "[]") -> String {
    #"{"url": "\#(url)", "price": \#(price), "mirrors": \#(mirrors)}"#
  }

  @Test func aTransformInANestedModelInsideAnArrayFailsAtTheFullPath() throws {
    let json = """
      {"order": {"items": [\(Self.item("https://a")), \(Self.item("https://b")), \(Self.item(""))]}}
      """
    expectError(
      "dataCorrupted", at: ["order", "items", "Index 2", "url"], message: #""" is not a valid URL."#
    ) {
      try decode(Order.self, from: json)
    }
    let negative = """
      {"order": {"items": [\(Self.item("https://a")), \(Self.item("https://b", price: -1))]}}
      """
    expectError("dataCorrupted", at: ["order", "items", "Index 1", "price"]) {
      try decode(Order.self, from: negative)
    }
  }

  @Test func anEncodeFailureInANestedModelInsideAnArrayIsAtTheFullPath() throws {
    let order = with(Order()) {
      $0.items = [Item(), Item(), with(Item()) { $0.price = Decimal(string: "0.001")! }]
    }
    expectError(
      "invalidValue", at: ["order", "items", "Index 2", "price"],
      message: "0.001 has fractions of a cent."
    ) {
      try encodeJSON(order)
    }
  }

  @Test func anEncodeFailureUnderALossyKeyNamesTheKeyWithoutTheMarker() throws {
    let catalog = with(Catalog()) {
      $0.items = [Item(), with(Item()) { $0.price = Decimal(string: "0.001")! }]
    }
    expectError("invalidValue", at: ["items", "Index 1", "price"]) { try encodeJSON(catalog) }
    struct Amounts: Codable, Keyedable {
      var amounts: [Decimal] = []
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try amounts <-> map["data.* amounts"].using(.array(CentsTransform()))
      }
    }
    expectError("invalidValue", at: ["data", "amounts", "Index 1"]) {
      try encodeJSON(with(Amounts()) { $0.amounts = [1, Decimal(string: "0.001")!] })
    }
  }

  @Test func aRequiredTransformMappingOnOptionalStorageThrowsForMissingAndNull() throws {
    struct Required: Codable, Keyedable {
      var site: URL?
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try site <-> map["links.site"].using(.url).required()
      }
    }
    expectError("keyNotFound(links)", at: []) { try decode(Required.self, from: "{}") }
    expectError("keyNotFound(site)", at: ["links"]) {
      try decode(Required.self, from: #"{"links": {}}"#)
    }
    expectError("valueNotFound", at: ["links", "site"]) {
      try decode(Required.self, from: #"{"links": {"site": null}}"#)
    }
    expectError("invalidValue", at: ["links", "site"]) { try encodeJSON(Required()) }
  }

  @Test func aLossyArrayOfTransformedValuesInsideALossyArrayOfModels() throws {
    let json = """
      {"items": [
        \(Self.item("https://a", mirrors: #"["https://m1", ""]"#)),
        \(Self.item("", mirrors: #"["https://m2"]"#)),
        \(Self.item("https://c", mirrors: #"[5, "https://m3"]"#)),
        \(Self.item("https://d", price: -1))
      ]}
      """
    let (catalog, report) = try decodeWithReport(Catalog.self, from: json)
    #expect(catalog.items.map(\.url) == [URL(string: "https://a")!, URL(string: "https://c")!])
    #expect(
      catalog.items.map(\.mirrors) == [[URL(string: "https://m1")!], [URL(string: "https://m3")!]])
    #expect(
      lines(of: report) == [
        "Dropped array element at items[0].mirrors[1] via * mirrors",
        "Dropped array element at items[1] via * items",
        "Dropped array element at items[2].mirrors[0] via * mirrors",
        "Dropped array element at items[3] via * items",
      ])
    #expect(
      report.entries.map { shape(of: $0.error) } == [
        ErrorShape(kind: "dataCorrupted", path: ["items", "Index 0", "mirrors", "Index 1"]),
        ErrorShape(kind: "dataCorrupted", path: ["items", "Index 1", "url"]),
        ErrorShape(kind: "typeMismatch", path: ["items", "Index 2", "mirrors", "Index 0"]),
        ErrorShape(kind: "dataCorrupted", path: ["items", "Index 3", "price"]),
      ])
    try expectEncoded(
      catalog,
      """
      {"items": [{"url": "https://a", "price": 100, "mirrors": ["https://m1"]},
                 {"url": "https://c", "price": 100, "mirrors": ["https://m3"]}]}
      """)
  }

  // MARK: - Combinations

  enum Level: String, Codable, Sendable {
    case debug, info, error
  }

  struct Settings: Codable, Keyedable {
    var level: Level?
    var timeout = 30
    var homepage: URL?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try level <?> map["log.level"].using(.rawValue()).default(.info, when: .absentOrInvalid)
      try timeout <?> map["timeout"].using(.numericString()).default(60, when: .invalid)
      try homepage <<? map["homepage"].using(.url).default(URL(string: "https://default.example")!)
    }
  }

  @Test func aDefaultWithATransformOnOptionalStorageWithTheIfPresentOperator() throws {
    let empty = try decode(Settings.self, from: "{}")
    #expect(empty.level == .info)
    #expect(empty.timeout == 30)
    #expect(empty.homepage == URL(string: "https://default.example"))

    let valid = try decode(
      Settings.self, from: #"{"log": {"level": "debug"}, "timeout": "5", "homepage": "https://h"}"#)
    #expect(valid.level == .debug)
    #expect(valid.timeout == 5)
    #expect(valid.homepage == URL(string: "https://h"))
    // `<<?` decodes only.
    try expectEncoded(valid, #"{"log": {"level": "debug"}, "timeout": "5"}"#)
    try expectEncoded(with(Settings()) { $0.level = nil }, #"{"timeout": "30"}"#)
  }

  @Test func aDefaultWithATransformReplacesAnInvalidValueAndReportsIt() throws {
    let (settings, report) = try decodeReporting(
      Settings.self, from: #"{"log": {"level": "verbose"}, "timeout": "soon"}"#)
    #expect(settings.level == .info)
    #expect(settings.timeout == 60)
    #expect(
      report == [
        "Replaced an invalid value with the default info at log.level via log.level",
        "Replaced an invalid value with the default 60 at timeout via timeout",
      ])
    // Invalid without a default for it still throws.
    expectError("dataCorrupted", at: ["homepage"]) {
      try decode(Settings.self, from: #"{"homepage": ""}"#)
    }
  }
}
