import Foundation
import KeyedCodable
import Testing

/// Hostile input: every case ends in an exact outcome (the value, or a Codable error with its path),
/// in bounded time and memory. Nothing traps.
///
/// Several outcomes are decided by Foundation before KeyedCodable sees any value: `JSONDecoder`
/// rejects documents nested deeper than 512 levels, invalid UTF-8 and numbers that do not fit their
/// type with `dataCorrupted` at the root; `JSONEncoder` refuses to write more than 512 levels. The
/// tests pin those outcomes too, since they are what an app receives.
///
/// Serialized, so that the peak-memory probes of the large cases do not overlap one another.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HostileInputTests {
  // MARK: - Deep nesting

  struct Deep: Codable, Keyedable, Equatable {
    var shallow: Int?
    var listed: [String] = []
    var lossy: [Int]?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try shallow <-> map["a"]
      try lossy <-> map["* list"]
      if case .decoding(let keys) = map.type {
        listed = keys.all(for: "a").map(\.stringValue)
      }
    }
  }

  @Test func jsonNestedTenThousandLevelsDeepIsRejectedBeforeAnyMapping() {
    let objects =
      String(repeating: #"{"a":"#, count: 10_000) + "1"
      + String(repeating: "}", count: 10_000)
    expectError("dataCorrupted", at: []) { try decode(Deep.self, from: objects) }
    let arrays =
      #"{"list":"# + String(repeating: "[", count: 10_000)
      + String(repeating: "]", count: 10_000) + "}"
    expectError("dataCorrupted", at: []) { try decode(Deep.self, from: arrays) }
  }

  /// `{"a":{"a":…{"a":1}…}}` with `levels` objects.
  private static func nestedObjects(_ levels: Int) -> String {
    String(repeating: #"{"a":"#, count: levels) + "1" + String(repeating: "}", count: levels)
  }

  struct DeepPath: Codable, Keyedable {
    static let key = Array(repeating: "a", count: 512).joined(separator: ".")
    var value: Int?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try value <-> map[Self.key]
    }
  }

  @Test func aKeyPathReachesTheDeepestValueTheDecoderAccepts() throws {
    // 512 levels is JSONDecoder's limit: one more is rejected before KeyedCodable runs.
    #expect(try decode(DeepPath.self, from: Self.nestedObjects(512)).value == 1)
    expectError("dataCorrupted", at: []) {
      try decode(DeepPath.self, from: Self.nestedObjects(513))
    }
    expectError("typeMismatch", at: Array(repeating: "a", count: 511)) {
      try decode(DeepPath.self, from: Self.nestedObjects(511))
    }
  }

  // MARK: - Long key paths

  static let tenThousandSegments = Array(repeating: "a", count: 10_000)

  struct LongPath: Codable, Keyedable {
    static let key = tenThousandSegments.joined(separator: ".")
    var value: Int?

    init(value: Int?) {
      self.value = value
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try value <-> map[Self.key]
    }
  }

  struct LongRequiredPath: Codable, Keyedable {
    var value: Int!

    init(value: Int?) {
      self.value = value
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try value <-> map[LongPath.key].required()
    }
  }

  /// A required member below 9,999 levels: its error path is 9,999 keys long.
  struct LongPathBelow: Codable, Keyedable {
    static let key = (tenThousandSegments.dropLast() + ["b"]).joined(separator: ".")
    var value: Int!

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try value <-> map[Self.key].required()
    }
  }

  @Test func aKeyPathOfTenThousandSegmentsDecodesWhatTheDocumentHolds() throws {
    #expect(try decode(LongPath.self, from: "{}").value == nil)
    #expect(try decode(LongPath.self, from: #"{"a":{"a":null}}"#).value == nil)
    expectError("typeMismatch", at: ["a", "a"]) {
      try decode(LongPath.self, from: #"{"a":{"a":1}}"#)
    }
    expectError("keyNotFound(a)", at: []) { try decode(LongRequiredPath.self, from: "{}") }
    expectError("keyNotFound(a)", at: ["a", "a"]) {
      try decode(LongRequiredPath.self, from: #"{"a":{"a":{}}}"#)
    }
    expectError("valueNotFound", at: ["a", "a"]) {
      try decode(LongRequiredPath.self, from: #"{"a":{"a":null}}"#)
    }
  }

  @Test func aKeyPathOfTenThousandSegmentsEncodesOrThrows() throws {
    // JSONEncoder refuses more than 512 levels: the error reaches the caller. It finds out by
    // walking all 10,000 levels in its own recursion, hence the large stack.
    #expect(
      try onThread(stackSize: foundationDeepStack) {
        expectError("invalidValue", at: []) { try encodeJSON(LongPath(value: 5)) }
        return try encodeJSON(LongPath(value: nil))
      } == "{}")
    try onThread(stackSize: foundationDeepStack) {
      expectError("invalidValue", at: Self.tenThousandSegments) {
        try encodeJSON(LongRequiredPath(value: nil))
      }
    }
  }

  @Test func aKeyPathOfTenThousandSegmentsRoundTripsThroughABinaryPropertyList() throws {
    // Property lists have no depth limit: KeyedCodable writes and reads all 10,000 objects.
    // Foundation's property list coders recurse once per level, hence the large stack.
    try onThread(stackSize: foundationDeepStack) { try Self.roundTripTenThousandSegments() }
  }

  private static func roundTripTenThousandSegments() throws {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    let data = try measuringPeakMemory("10,000-segment key path, binary plist", inputBytes: 0) {
      try encoder.encode(LongPath(value: 5))
    }
    let decoder = PropertyListDecoder()
    #expect(try decoder.decode(LongPath.self, from: data).value == 5)
    #expect(try decoder.decode(LongRequiredPath.self, from: data).value == 5)
    do {
      _ = try decoder.decode(LongPathBelow.self, from: data)
      Issue.record("A missing member below 9,999 levels decoded")
    } catch {
      #expect(
        shape(of: error)
          == ErrorShape(kind: "keyNotFound(b)", path: Array(tenThousandSegments.dropLast())))
    }
  }

  // MARK: - Large values

  struct Text: Codable, Keyedable {
    var text: String?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try text <-> map["data.text"]
    }
  }

  @Test func aTenMegabyteStringIsDecodedAndEncodedWhole() throws {
    let unit = "abcdefghij-é-🙂\\n"  // 10 characters, a 2-byte, a 4-byte one and an escape
    let text = String(repeating: unit, count: 10_000_000 / unit.utf8.count)
    let json = Data(#"{"data":{"text":"\#(text)"}}"#.utf8)
    let expected = text.replacingOccurrences(of: "\\n", with: "\n")
    let encoded = try measuringPeakMemory("10 MB string value", inputBytes: json.count) {
      let value = try JSONDecoder().decode(Text.self, from: json)
      #expect(value.text?.utf8.count == expected.utf8.count)
      #expect(value.text == expected)
      return try JSONEncoder().encode(value)
    }
    #expect(encoded.count >= json.count)
    #expect(try JSONDecoder().decode(Text.self, from: encoded).text == expected)
  }

  struct Listing: Decodable, Keyedable {
    var root: [String: Int] = [:]
    var nested: [String: Int] = [:]
    var nestedPaths: Set<[String]> = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      guard case .decoding(let keys) = map.type else { return }
      for key in keys.all where key.stringValue != "data" {
        var value: Int?
        try value <<- map[key]
        root[key.stringValue] = value
      }
      for key in keys.all(for: "data") {
        var value = 0
        try value <<- map[key]
        nested[key.stringValue] = value
        nestedPaths.insert(key.path)
      }
    }
  }

  @Test func aHundredThousandKeysInOneObjectAreListedAndReadBack() throws {
    let count = 100_000
    let members = (0..<count).map { #""k.\#($0)":\#($0)"# }.joined(separator: ",")
    let json = Data(#"{\#(members),"data":{\#(members)}}"#.utf8)
    let value = try measuringPeakMemory("100,000 keys listed twice", inputBytes: json.count) {
      try JSONDecoder().decode(Listing.self, from: json)
    }
    let expected = Dictionary(uniqueKeysWithValues: (0..<count).map { ("k.\($0)", $0) })
    #expect(value.root == expected)
    #expect(value.nested == expected)
    #expect(value.nestedPaths.count == count)
    #expect(value.nestedPaths.contains(["data", "k.99999"]))
  }

  struct Element: Codable, Equatable {
    var element: Int
  }

  struct Lossy: Codable, Keyedable {
    var elements: [Element]?
    var numbers: [Int]?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try elements <-> map["* elements"]
      try numbers <-> map["data.* numbers"]
    }
  }

  @Test func aMillionInvalidElementsOfALossyArrayDecodeToAnEmptyArray() throws {
    // Every dropped element is a thrown error. Swift Testing records a backtrace for each thrown
    // error, which costs about 25 µs: in a debug build the million objects take about 28 s here
    // and 5 s with SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0 (as in an app, and in CI's sanitizer
    // runs, which also do a fifth of the objects). The strings, a second kind of failure, are
    // kept to a tenth for that reason.
    let count = Stress.count(1_000_000)
    let objects = Data(
      (#"{"elements":["# + Array(repeating: "{}", count: count).joined(separator: ",") + "]}")
        .utf8)
    let value = try measuringPeakMemory("\(count) invalid objects", inputBytes: objects.count) {
      try JSONDecoder().decode(Lossy.self, from: objects)
    }
    #expect(value.elements == [])
    #expect(value.numbers == nil)

    let strings = Data(
      (#"{"data":{"numbers":["#
        + Array(repeating: #""1""#, count: count / 10).joined(separator: ",")
        + "]}}").utf8)
    let numbers = try measuringPeakMemory(
      "\(count / 10) invalid strings", inputBytes: strings.count
    ) {
      try JSONDecoder().decode(Lossy.self, from: strings)
    }
    #expect(numbers.numbers == [])
    #expect(numbers.elements == nil)
  }

  // MARK: - Malformed documents

  struct Pair: Decodable, Keyedable, Equatable {
    var first: Int?
    var nested: Int?
    var members: [String] = []

    init(first: Int?, nested: Int?, members: [String]) {
      self.first = first
      self.nested = nested
      self.members = members
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try first <-> map["a"]
      try nested <-> map["x.b"]
      if case .decoding(let keys) = map.type {
        members = keys.all.map(\.stringValue).sorted() + keys.all(for: "x").map(\.stringValue)
      }
    }
  }

  /// A synthesized `Decodable` with the same shape, to show KeyedCodable reads what it does.
  struct PlainPair: Decodable {
    struct X: Decodable { var b: Int? }
    var a: Int?
    var x: X?
  }

  static let duplicates: [(json: String, expected: Pair)] = [
    (#"{"a":1,"a":2}"#, Pair(first: 1, nested: nil, members: ["a"])),
    (#"{"a":2,"a":"two"}"#, Pair(first: 2, nested: nil, members: ["a"])),
    (#"{"x":{"b":1},"x":{"b":3}}"#, Pair(first: nil, nested: 1, members: ["x", "b"])),
    (#"{"x":{"b":1,"b":5}}"#, Pair(first: nil, nested: 1, members: ["x", "b"])),
    (#"{"x":{"c":2},"x":{"b":1}}"#, Pair(first: nil, nested: nil, members: ["x", "c"])),
  ]

  @Test(arguments: duplicates.indices)
  func theFirstOfDuplicateKeysIsRead(_ index: Int) throws {
    // JSONDecoder keeps the first occurrence of a duplicate key (Foundation's choice).
    let (json, expected) = Self.duplicates[index]
    #expect(try decode(Pair.self, from: json) == expected)
    let plain = try decode(PlainPair.self, from: json)
    #expect(plain.a == expected.first)
    #expect(plain.x?.b == expected.nested)
  }

  @Test func aDuplicateKeyHoldingTheWrongTypeFirstIsATypeMismatch() {
    expectError("typeMismatch", at: ["a"]) { try decode(Pair.self, from: #"{"a":"one","a":1}"#) }
  }

  static let invalidUTF8: [[UInt8]] = [
    [0xFF, 0xFE],  // never valid
    [0xC0, 0xAF],  // overlong "/"
    [0xED, 0xA0, 0x80],  // an encoded surrogate
    [0xE2, 0x82],  // truncated sequence
    [0x80],  // lone continuation byte
  ]

  struct Utf8Probe: Decodable, Keyedable, Equatable {
    var first: Int?
    var text: String?
    var members: [String] = []

    init(first: Int?, members: [String]) {
      self.first = first
      self.members = members
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try first <-> map["a"]
      try text <-> map["x.text"]
      if case .decoding(let keys) = map.type {
        members = keys.all.map(\.stringValue).sorted()
      }
    }
  }

  @Test(arguments: invalidUTF8)
  func invalidUTF8IsDataCorruptedWhereItIsRead(_ bytes: [UInt8]) throws {
    // JSONDecoder checks a string when it is read: in a string value the model reads, or in a
    // key of an object the model opens. Synthesized Codable sees the same.
    let inValue = Data(#"{"a":1,"x":{"text":""#.utf8) + bytes + Data(#""}}"#.utf8)
    expectError("dataCorrupted", at: []) { try JSONDecoder().decode(Utf8Probe.self, from: inValue) }
    let inKey = Data(#"{"a":1,"x":{""#.utf8) + bytes + Data(#"":2}}"#.utf8)
    expectError("dataCorrupted", at: []) { try JSONDecoder().decode(Utf8Probe.self, from: inKey) }
    let inRootKey = Data(#"{"a":1,""#.utf8) + bytes + Data(#"":2}"#.utf8)
    expectError("dataCorrupted", at: []) {
      try JSONDecoder().decode(Utf8Probe.self, from: inRootKey)
    }
    let unread = Data(#"{"a":1,"u":""#.utf8) + bytes + Data(#""}"#.utf8)
    #expect(
      try JSONDecoder().decode(Utf8Probe.self, from: unread)
        == Utf8Probe(first: 1, members: ["a", "u"]))
  }

  @Test func aLoneSurrogateEscapeIsDataCorrupted() {
    expectError("dataCorrupted", at: []) { try decode(Pair.self, from: #"{"a":1,"\uD800":2}"#) }
    expectError("dataCorrupted", at: []) {
      try decode(Text.self, from: #"{"data":{"text":"\uDC00"}}"#)
    }
  }

  @Test func utf16WithAByteOrderMarkIsRead() throws {
    var utf16: [UInt8] = [0xFF, 0xFE]
    for unit in #"{"data":{"text":"é"}}"#.utf16 {
      utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    #expect(try JSONDecoder().decode(Text.self, from: Data(utf16)).text == "é")
  }

  // MARK: - Numbers

  struct Numbers: Codable, Keyedable {
    var int: Int?
    var byte: UInt8?
    var double: Double?
    var float: Float?
    var lossy: [Int]?

    init(double: Double? = nil, float: Float? = nil) {
      self.double = double
      self.float = float
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try int <-> map["n.int"]
      try byte <-> map["n.byte"]
      try double <-> map["n.double"]
      try float <-> map["n.float"]
      try lossy <-> map["n.* lossy"]
    }
  }

  static let overflowing = [
    #"{"int":9223372036854775808}"#, #"{"int":-9223372036854775809}"#, #"{"int":1e20}"#,
    #"{"int":99999999999999999999999999999999999999999999}"#, #"{"int":1.5}"#,
    #"{"byte":256}"#, #"{"byte":-1}"#, #"{"double":1e309}"#, #"{"double":-1e400}"#,
    #"{"double":1e-400}"#, #"{"float":1e39}"#, #"{"double":NaN}"#, #"{"double":Infinity}"#,
  ]

  @Test(arguments: overflowing)
  func aNumberThatDoesNotFitItsTypeIsDataCorrupted(_ member: String) {
    // JSONDecoder reports these at the root, for synthesized Codable too.
    expectError("dataCorrupted", at: []) { try decode(Numbers.self, from: #"{"n":\#(member)}"#) }
  }

  @Test func numbersAtTheEdgeOfTheirTypeAreReadExactly() throws {
    let json = """
      {"n":{"int":-9223372036854775808,"byte":255,"double":1.7976931348623157e308,
      "float":3.4028235e38}}
      """
    let value = try decode(Numbers.self, from: json)
    #expect(value.int == .min)
    #expect(value.byte == .max)
    #expect(value.double == .greatestFiniteMagnitude)
    #expect(value.float == .greatestFiniteMagnitude)
    let tiny = try decode(Numbers.self, from: #"{"n":{"double":5e-324,"int":1e2}}"#)
    #expect(tiny.double == .leastNonzeroMagnitude)
    #expect(tiny.int == 100)
    let huge = try decode(Numbers.self, from: #"{"n":{"double":123456789012345678901234567890}}"#)
    #expect(huge.double == 123_456_789_012_345_678_901_234_567_890.0)
  }

  @Test func numbersThatDoNotFitAreDroppedFromALossyArray() throws {
    let json = #"{"n":{"lossy":[1,9223372036854775808,1e400,2.5,-9223372036854775809,3]}}"#
    #expect(try decode(Numbers.self, from: json).lossy == [1, 3])
  }

  // MARK: - Non-finite numbers on encode

  struct Location: Codable {
    var latitude: Double
    var longitude: Double
  }

  struct Weighed: Codable {
    var weight: Double
  }

  struct Child: Codable, Keyedable {
    var weight: Double?

    mutating func map(map: KeyMap) throws {
      try weight <-> map["body.weight"]
    }
  }

  struct NonFinite: Encodable, Keyedable {
    var top: Double?
    var nested: Double?
    var location: Location?
    var lossy: [Weighed]?
    var child: Child?
    var merged: Weighed?
    var city = "Oslo"

    mutating func map(map: KeyMap) throws {
      try top <-> map["top"]
      try nested <-> map["a.b.c"]
      try location <-> map[""]
      try lossy <-> map["* list.items"]
      try child <-> map["x.child"]
      try merged <-> map["user"]
      try city <-> map["user.city"]
    }
  }

  /// Where a non-finite number sits, and the full coding path of the error.
  ///
  /// JSONEncoder (swift-foundation) leaves the keys of containers opened with
  /// `nestedContainer(keyedBy:forKey:)` out of the paths of the errors it throws, for
  /// hand-written `Codable` too (see the next test): a value at `a.b.c` is reported at `["c"]`.
  /// KeyedCodable puts those keys back.
  static let placements: [(String, @Sendable (Double) -> NonFinite, [String])] = [
    ("a member", { NonFinite(top: $0) }, ["top"]),
    ("a nested key path", { NonFinite(nested: $0) }, ["a", "b", "c"]),
    ("a flat value", { NonFinite(location: Location(latitude: 1, longitude: $0)) }, ["longitude"]),
    (
      "a lossy array", { NonFinite(lossy: [Weighed(weight: 1), Weighed(weight: $0)]) },
      ["list", "items", "Index 1", "weight"]
    ),
    (
      "a nested Keyedable", { NonFinite(child: Child(weight: $0)) },
      ["x", "child", "body", "weight"]
    ),
    ("a merged value", { NonFinite(merged: Weighed(weight: $0)) }, ["user", "weight"]),
  ]

  @Test(arguments: [Double.nan, .infinity, -.infinity], placements.indices)
  func aNonFiniteNumberThrowsInvalidValueWhereverItIs(_ number: Double, _ index: Int) throws {
    let (_, make, path) = Self.placements[index]
    expectError("invalidValue", at: path) { try encodeJSON(make(number)) }
    let strings = JSONEncoder()
    strings.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    #expect(try !strings.encode(make(number)).isEmpty)
  }

  struct HandWritten: Encodable {
    enum Keys: String, CodingKey { case a, b, c }
    func encode(to encoder: Encoder) throws {
      var root = encoder.container(keyedBy: Keys.self)
      var a = root.nestedContainer(keyedBy: Keys.self, forKey: .a)
      var b = a.nestedContainer(keyedBy: Keys.self, forKey: .b)
      try b.encode(Double.nan, forKey: .c)
    }
  }

  @Test func theKeysJSONEncoderLeavesOutOfTheErrorPathArePutBack() {
    // Hand-written nested containers get Foundation's path; a key path gets the full one.
    expectError("invalidValue", at: ["c"]) { try encodeJSON(HandWritten()) }
    expectError("invalidValue", at: ["a", "b", "c"]) { try encodeJSON(NonFinite(nested: .nan)) }
  }

  struct Wrapper: Encodable {
    var items: [NonFinite]
  }

  @Test func theFullPathStartsAtTheRootOfTheDocument() {
    let items = [NonFinite(), NonFinite(child: Child(weight: .infinity))]
    expectError("invalidValue", at: ["items", "Index 1", "x", "child", "body", "weight"]) {
      try encodeJSON(Wrapper(items: items))
    }
  }

  @Test func nonFiniteNumbersRoundTripWithAStringStrategy() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    let data = try encoder.encode(Numbers(double: .infinity, float: .nan))
    #expect(String(decoding: data, as: UTF8.self) == #"{"n":{"double":"+inf","float":"nan"}}"#)
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    let value = try decoder.decode(Numbers.self, from: data)
    #expect(value.double == .infinity)
    #expect(value.float?.isNaN == true)
  }
}

// MARK: - Memory

/// Resident memory of this process, read from `/proc/self/status` (Linux only).
private enum ProcessMemory {
  /// A field of `/proc/self/status` in KiB (`VmRSS`, `VmHWM`), or `nil` where there is none.
  static func kibibytes(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in status.split(separator: "\n") where line.hasPrefix("\(field):") {
      return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first
        .flatMap { Int($0) }
    }
    return nil
  }

  /// Whether AddressSanitizer runs in this process: its quarantine and redzones keep freed
  /// memory resident, so peaks measured under it say nothing about the library.
  static let isUnderAddressSanitizer: Bool = {
    #if canImport(Glibc)
      return dlsym(nil, "__asan_init") != nil
    #else
      return false
    #endif
  }()

  /// Resets the peak (`VmHWM`) to the current resident size, so the next peak is this run's.
  static func resetPeak() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
  }
}

/// Runs `body`, prints its duration and the growth of the process's peak resident memory, and
/// expects that growth to stay within 16 times `inputBytes` plus 128 MiB (except under
/// AddressSanitizer, which keeps freed memory in quarantine).
///
/// Other suites run in parallel, so the growth is an upper bound of what `body` used.
private func measuringPeakMemory<T>(
  _ label: String, inputBytes: Int, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) rethrows -> T {
  ProcessMemory.resetPeak()
  let before = ProcessMemory.kibibytes("VmRSS")
  let clock = ContinuousClock()
  let start = clock.now
  let result = try body()
  let elapsed = start.duration(to: clock.now)
  guard let before, let peak = ProcessMemory.kibibytes("VmHWM") else { return result }
  let growth = max(0, peak - before)
  print(
    "[HostileInputTests] \(label): input \(inputBytes / 1024) KiB, took \(elapsed), "
      + "resident \(before / 1024) MiB before, peak \(peak / 1024) MiB (+\(growth / 1024) MiB)")
  if !ProcessMemory.isUnderAddressSanitizer {
    #expect(
      growth <= 16 * inputBytes / 1024 + 128 * 1024, "\(label)", sourceLocation: sourceLocation)
  }
  return result
}
