import Foundation
import Testing

@testable import KeyedCodable

/// What bounds the work of the JSON coder whatever the input holds: the outcomes and the
/// counts behind linear time, checked at small sizes (timing stays in `keyed-bench --scaling`).
@Suite struct WorstCaseTests {
  /// `count` distinct names that share their length and their first and last eight bytes: the
  /// parts of a name that a fingerprint of its words alone would read.
  static func namesSharingTheirWords(_ count: Int) -> [String] {
    (0..<count).map {
      "aaaaaaaa" + String(repeating: "0", count: 6 - "\($0)".count) + "\($0)zzzzzzzz"
    }
  }

  static func parse(_ text: String) throws -> JSONDocument {
    try Data(text.utf8).withUnsafeBytes { try JSONDocument(parsing: $0) }
  }

  // MARK: - Member names

  /// `count` numbers, zero-padded to `width` digits, between `prefix` and `suffix`.
  static func numbered(_ count: Int, width: Int, _ prefix: String, _ suffix: String = "")
    -> [String]
  {
    (0..<count).map { number -> String in
      let digits = String(number)
      return prefix + String(repeating: "0", count: width - digits.count) + digits + suffix
    }
  }

  @Test func namesThatShareTheirWordsGetDifferentFingerprints() {
    let hasher = JSONNameIndex.NameHasher.shared
    let letters: [String] = (0..<60).map { offset -> String in
      "0123456789abcdef" + String(UnicodeScalar(UInt8(65 + offset))) + "ZYXWVUTS"
    }
    let longNames: [String] = (0..<200).map { offset -> String in
      String(repeating: "x", count: offset) + "y" + String(repeating: "x", count: 200 - offset)
    }
    let cases: [[String]] = [
      Self.namesSharingTheirWords(5000),
      // Up to 16 bytes, the words are the whole name: names of one length that differ anywhere.
      Self.numbered(5000, width: 5, "k"),
      Self.numbered(5000, width: 6, "abcdefgh"),
      // Names longer than 16 bytes that differ only after their first 16 bytes and before
      // their last 8: 32 bytes differing in bytes 16–23, 25 bytes differing in byte 16.
      Self.numbered(5000, width: 8, "0123456789abcdef", "ZYXWVUTS"),
      letters,
      // Long names that differ in one byte in the middle, at every offset.
      longNames,
    ]
    for names in cases {
      let fingerprints = names.map { name in
        Array(name.utf8).withUnsafeBufferPointer {
          hasher.fingerprint($0.baseAddress!, count: $0.count)
        }
      }
      #expect(Set(fingerprints).count == names.count)
      // In a document, where eight bytes past a name are readable, a name hashes alike.
      let text = names.map { "\"\($0)\"" }.joined(separator: ",")
      let document = try? Self.parse("[\(text)]")
      if let document {
        for (position, fingerprint) in fingerprints.enumerated() {
          let entry = position + 1
          #expect(
            hasher.fingerprint(
              inDocument: document.bytes + document.offset(entry), count: document.length(entry))
              == fingerprint)
        }
      }
    }
  }

  @Test func anIndexOfNamesThatShareTheirWordsProbesLittle() throws {
    let names = Self.namesSharingTheirWords(4000)
    let document = try Self.parse("{" + names.map { "\"\($0)\":1" }.joined(separator: ",") + "}")
    var table: [UInt32] = []
    // `nil` would mean more than eight probes per name: the names collided.
    let repeats = JSONNameIndex.buildTable(
      for: 0, in: document, hasher: .shared, into: &table)
    #expect(repeats == false)
  }

  /// An object whose index gave way to another and is read again is indexed once more, then
  /// kept: a dictionary of large objects, read as `[Int: Inner]` is, never rebuilds the
  /// dictionary's index for each value.
  @Test func largeObjectsAreIndexedAtMostTwicePerDecode() throws {
    let inner = (0..<8).map { "\"m\($0)\":\($0)" }.joined(separator: ",")
    let count = 2000
    let text = "{" + (0..<count).map { "\"k\($0)\":{\(inner)}" }.joined(separator: ",") + "}"
    let document = try Self.parse(text)
    var cache = JSONNameIndex.Cache()
    for key in 0..<count {
      let found = cache.member("k\(key)", bytes: nil, in: 0, document: document)
      let value = try #require(found)
      // A plain name is looked up by its bytes.
      let name = "m\(key % 8)"
      let member = Array(name.utf8).withUnsafeBufferPointer {
        cache.member(name, bytes: $0, in: value, document: document)
      }
      #expect(member.map { document.length($0) } == 1)
    }
    // The root indexed at most twice, each inner object once.
    #expect(cache.indexedMembers <= 2 * count + count * 8)
  }

  /// Objects with an escaped name are indexed as strings: names compare as Foundation compares
  /// them (canonical equivalence, the first of repeated names), at any size.
  @Test func largeObjectsWithEscapedNamesFindEveryMemberAsFoundationDoes() {
    let decoders = DecoderPair()
    let plain = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    for json in [
      #"{"\u0061bc":1,"# + plain + #","abc":2,"é":3}"#,
      "{" + plain + #","\u00e9":7,"e\u0301":8}"#,
      "{" + plain + #","e\u0301":9}"#,
    ] {
      decoders.expectSame(Sums.self, from: json)
      decoders.expectSame(AccentedValue.self, from: json)
      decoders.expectSame([String: Int].self, from: json)
    }
  }

  /// Names that share their words, with repeats, read through `allKeys` and
  /// `decode(_:forKey:)`, and as a dictionary with integer keys.
  @Test func namesThatShareTheirWordsDecodeAsInFoundation() {
    let decoders = DecoderPair()
    let names = Self.namesSharingTheirWords(600)
    let members = names.enumerated().map { "\"\($1)\":\($0)" } + ["\"\(names[17])\":-1"]
    decoders.expectSame(Sums.self, from: "{" + members.joined(separator: ",") + "}")
    let integers = (0..<600).map { "\"\(1_000_000_000_000_000_000 + $0 * 100_000_000)\":\($0)" }
    decoders.expectSame([Int: Int].self, from: "{" + integers.joined(separator: ",") + "}")
  }

  /// A keyed container that writes many names sharing their words writes them all, in order,
  /// and a repeat among them is still found (and the value handed to Foundation's encoder).
  @Test func namesThatShareTheirWordsEncodeAsInFoundation() throws {
    let names = Self.namesSharingTheirWords(300)
    let encoders = EncoderPair([])
    let written = try #require(encoders.encode(NamesWritten(names: names)).ours.success)
    #expect(
      written == "{" + names.enumerated().map { "\"\($1)\":\($0 + 1)" }.joined(separator: ",") + "}"
    )
    EncoderPair().expectSame(NamesWritten(names: names + [names[123]]))
    EncoderPair().expectSame(
      [Int: Int](
        uniqueKeysWithValues: (0..<300).map { (1_000_000_000_000_000_000 + $0 * 100_000_000, $0) }))
  }

  // MARK: - Keys from data

  /// A model that maps each member it lists by the member's name as a key string: keys that
  /// come from data, which a shared plan must not keep growing with.
  struct NamedByData: Codable, Keyedable, Equatable {
    var values: [String: Int] = [:]

    init(values: [String: Int]) {
      self.values = values
    }

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      if case .decoding(let keys) = map.type {
        for key in keys.all {
          var value: Int?
          try value <<- map[key.stringValue]
          values[key.stringValue] = value
        }
      } else {
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
          try value ->> map[name]
        }
      }
    }
  }

  /// The same model, for the encoding plan (each type has one plan per direction).
  struct EncodedByData: Encodable, Keyedable {
    var values: [String: Int]

    mutating func map(map: KeyMap) throws {
      for (name, value) in values.sorted(by: { $0.key < $1.key }) {
        try value ->> map[name]
      }
    }
  }

  static func members(_ prefix: String, _ count: Int) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: (0..<count).map { ("\(prefix)\($0)", $0) })
  }

  /// A first decode that maps more keys than a plan keeps publishes a plan of its first ones:
  /// the shared state doesn't grow with the data, and later decodes still read every member.
  @Test(arguments: [false, true])
  func aPlanKeepsABoundedNumberOfKeysFromData(foundation: Bool) throws {
    let limit = PlanFollower.recordingLimit
    let first = Self.members("m", limit + 3000)
    let data = try JSONEncoder().encode(first)
    func decode(_ data: Data) throws -> NamedByData {
      foundation
        ? try JSONDecoder().decode(NamedByData.self, from: data)
        : try KeyedJSONDecoder().decode(NamedByData.self, from: data)
    }
    #expect(try decode(data).values == first)
    let plan = try #require(
      PlanRegistry.shared.plan(for: ObjectIdentifier(NamedByData.self), decoding: true))
    #expect(plan.entries.count <= limit)
    #expect(plan.table.count <= limit)
    // Other names, and the same ones again, after the plan.
    let other = Self.members("n", 500).merging(Self.members("m", 10)) { $1 }
    #expect(try decode(JSONEncoder().encode(other)).values == other)
    #expect(try decode(data).values == first)
  }

  @Test func anEncodingPlanKeepsABoundedNumberOfKeysFromData() throws {
    let limit = PlanFollower.recordingLimit
    let encoders = [
      ("keyed", { (value: EncodedByData) in try KeyedJSONEncoder().encode(value) }),
      ("foundation", { (value: EncodedByData) in try JSONEncoder().encode(value) }),
    ]
    for (_, encode) in encoders {
      for values in [Self.members("m", limit + 100), Self.members("n", 300)] {
        let json = String(decoding: try encode(EncodedByData(values: values)), as: UTF8.self)
        let expected = String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
        #expect(try canonicalJSON(json) == canonicalJSON(expected))
      }
    }
    let plan = try #require(
      PlanRegistry.shared.plan(for: ObjectIdentifier(EncodedByData.self), decoding: false))
    #expect(plan.entries.count <= limit)
    #expect(plan.table.count <= limit)
  }

  // MARK: - Reports

  /// Integers, the invalid ones dropped.
  struct LossyNumbers: Codable, Keyedable {
    var numbers: [Int] = []

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try numbers <-> map["* numbers"]
    }
  }

  /// A report keeps its first entries up to its limit and counts the others; a reporter the
  /// context brings keeps its own.
  @Test func aReportKeepsABoundedNumberOfEntriesAndCountsTheRest() throws {
    let elements = (0..<2500).map { $0 % 5 == 0 ? "\($0)" : "\"x\"" }
    let data = Data("{\"numbers\":[\(elements.joined(separator: ","))]}".utf8)
    let dropped = 2000
    for decoder in [AnyDecoder(JSONDecoder()), AnyDecoder(KeyedJSONDecoder())] {
      let (value, report) = try decoder.decodeWithReport(LossyNumbers.self, from: data)
      #expect(value.numbers == Array(stride(from: 0, to: 2500, by: 5)))
      #expect(report.entries.count == DecodingReport.defaultEntryLimit)
      #expect(report.omittedEntryCount == dropped - DecodingReport.defaultEntryLimit)
      #expect(report.entries.first?.pathDescription == "numbers[1]")
      #expect(
        report.description.hasSuffix(
          "\n... and \(dropped - DecodingReport.defaultEntryLimit) more entries not kept."))

      let outer = DecodingReporter(entryLimit: 1)
      let (_, small) = try decoder.decodeWithReport(
        LossyNumbers.self, from: data, with: .reporting(to: outer), entryLimit: 3)
      #expect(small.entries.map(\.pathDescription) == ["numbers[1]", "numbers[2]", "numbers[3]"])
      #expect(small.omittedEntryCount == dropped - 3)
      #expect(outer.report.entries.map(\.pathDescription) == ["numbers[1]"])
      #expect(outer.report.omittedEntryCount == dropped - 1)
      #expect(!DecodingReport(entries: [], omittedEntryCount: 1).isEmpty)
    }
  }

  /// A top-level decoder of either kind, for tests that run on both.
  struct AnyDecoder {
    let decodeWithReport:
      (Data, MappingContext, Int) throws -> (value: LossyNumbers, report: DecodingReport)

    init(_ decoder: JSONDecoder) {
      decodeWithReport = { data, context, limit in
        try decoder.decodeWithReport(
          LossyNumbers.self, from: data, with: context, entryLimit: limit)
      }
    }

    init(_ decoder: KeyedJSONDecoder) {
      decodeWithReport = { data, context, limit in
        try decoder.decodeWithReport(
          LossyNumbers.self, from: data, with: context, entryLimit: limit)
      }
    }

    func decodeWithReport(
      _ type: LossyNumbers.Type, from data: Data, with context: MappingContext = MappingContext(),
      entryLimit: Int = DecodingReport.defaultEntryLimit
    ) throws -> (value: LossyNumbers, report: DecodingReport) {
      try decodeWithReport(data, context, entryLimit)
    }
  }

  // MARK: - Stack

  /// `{"next":{"next":…{}…}}`, `levels` objects deep.
  static func chain(_ levels: Int) -> Data {
    Data(
      (String(repeating: #"{"next":"#, count: levels - 1) + "{}"
        + String(repeating: "}", count: levels - 1)).utf8)
  }

  /// A synthesized recursive class.
  final class SynthesizedNode: Codable, Sendable {
    let next: SynthesizedNode?

    var depth: Int { 1 + (next?.depth ?? 0) }
  }

  /// A `Keyedable` recursive class; each `Tag` is a type of its own, with a plan of its own, so
  /// that a test decodes it first (recording its plan, the path with the largest frames).
  final class KeyedNode<Tag>: Codable, Keyedable, @unchecked Sendable {
    var next: KeyedNode?

    init(next: KeyedNode? = nil) {
      self.next = next
    }

    required init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: self)
    }

    func map(map: KeyMap) throws {
      try next <-> map["next"]
    }

    var depth: Int { 1 + (next?.depth ?? 0) }
  }

  /// A recursive enum: `{"node":{"_0":…{"leaf":{}}…}}`.
  indirect enum Tree: Codable, Sendable {
    case leaf
    case node(Tree)

    var depth: Int {
      if case .node(let inner) = self { return 1 + inner.depth }
      return 1
    }
  }

  static func tree(_ levels: Int) -> Data {
    Data(
      (String(repeating: #"{"node":{"_0":"#, count: levels - 1) + #"{"leaf":{}}"#
        + String(repeating: "}}", count: levels - 1)).utf8)
  }

  /// Every depth the decoders accept decodes on the stack of a secondary thread of Apple
  /// platforms (512 KiB), and on half of it (in this debug build, whose frames are several
  /// times larger than a release build's): past a few dozen levels, a value whose thread
  /// runs low on stack goes on on a thread of its own.
  enum Stack512JSON {}
  enum Stack512Foundation {}
  enum Stack256JSON {}
  enum Stack256Foundation {}

  @Test(arguments: [512 * 1024, 256 * 1024])
  func documentsAsDeepAsTheDecodersReadDecodeOnSmallStacks(stackSize: Int) throws {
    let levels = JSONScanner.maximumDepth
    let chain = Self.chain(levels)
    #expect(
      try onThread(stackSize: stackSize) {
        try KeyedJSONDecoder().decode(SynthesizedNode.self, from: chain).depth
      } == levels)
    // The first decode of each type: its plan is recorded on the way down.
    func keyed<JSONTag, FoundationTag>(_: JSONTag.Type, _: FoundationTag.Type) throws {
      #expect(
        try onThread(stackSize: stackSize) {
          try KeyedJSONDecoder().decode(KeyedNode<JSONTag>.self, from: chain).depth
        } == levels)
      #expect(
        try onThread(stackSize: stackSize) {
          try JSONDecoder().decode(KeyedNode<FoundationTag>.self, from: chain).depth
        } == levels)
    }
    if stackSize == 512 * 1024 {
      try keyed(Stack512JSON.self, Stack512Foundation.self)
    } else {
      try keyed(Stack256JSON.self, Stack256Foundation.self)
    }
    let tree = Self.tree(levels / 2)
    #expect(
      try onThread(stackSize: stackSize) {
        try KeyedJSONDecoder().decode(Tree.self, from: tree).depth
      } == levels / 2)
  }

  /// The context of a decode goes with a value that continues on another thread.
  @Test func aValueOnAFreshStackKeepsTheDecodesContext() throws {
    struct Reads: Decodable, Keyedable, Sendable {
      static let key = ContextKey<Int>("stack.test")
      var next: [Reads] = []
      var seen: Int?

      init(from decoder: any Decoder) throws {
        try KeyedDecoder(with: decoder).decode(to: &self)
      }

      mutating func map(map: KeyMap) throws {
        try next <<- map["next"]
        seen = try map.context(Self.key)
      }
    }
    let levels = 250
    let json = Data(
      (String(repeating: #"{"next":["#, count: levels) + #"{"next":[]}"#
        + String(repeating: "]}", count: levels)).utf8)
    let deepest = try onThread(stackSize: 256 * 1024) {
      var value = try KeyedJSONDecoder().decode(
        Reads.self, from: json, with: .value(7, for: Reads.key))
      while let next = value.next.first { value = next }
      return value.seen
    }
    #expect(deepest == 7)
  }

  /// A value deeper than the decoders read is not written: `invalidValue` at its path, also for
  /// values that are far deeper still (no recursion without end).
  @Test func encodingValuesDeeperThanTheDecodersReadThrowsInsteadOfOverflowing() throws {
    func keyedChain(_ levels: Int) -> KeyedNode<Self> {
      var node = KeyedNode<Self>()
      for _ in 1..<levels { node = KeyedNode(next: node) }
      return node
    }
    let written = try KeyedJSONEncoder().encode(keyedChain(JSONScanner.maximumDepth))
    #expect(try KeyedJSONDecoder().decode(KeyedNode<Self>.self, from: written).depth == 512)
    for levels in [513, 1_000_000] {
      let deep = keyedChain(levels)
      defer { Self.unchain(deep) }
      let error = try onThread(stackSize: 512 * 1024) {
        do {
          _ = try KeyedJSONEncoder().encode(deep)
          return nil as EncodingError?
        } catch let error as EncodingError {
          return error
        }
      }
      guard case .invalidValue(_, let context) = try #require(error) else {
        Issue.record("expected invalidValue")
        continue
      }
      // The value that opens the 513th object, or the one inside it.
      #expect((512...513).contains(context.codingPath.count))
      #expect(context.debugDescription.hasPrefix("Too many nested arrays or objects"))
    }
  }

  /// Lets go of a long chain one node at a time (releasing its head would recurse through every
  /// node).
  static func unchain<Tag>(_ head: KeyedNode<Tag>) {
    var node: KeyedNode<Tag>? = head
    while let current = node {
      node = current.next
      current.next = nil
    }
  }

  /// A value that encodes itself through single value containers, without end, is stopped at
  /// ``StackGuard/maximumNesting`` levels; so is a type that decodes itself again.
  @Test func recursionWithoutContainersIsBounded() throws {
    struct Endless: Codable, Sendable {
      init() {}

      init(from decoder: any Decoder) throws {
        self = try decoder.singleValueContainer().decode(Endless.self)
      }

      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Endless())
      }
    }
    let encoding = try onThread(stackSize: 512 * 1024) {
      Result { try KeyedJSONEncoder().encode(Endless()) }.map { _ in () }
    }
    #expect(throws: EncodingError.self) { try encoding.get() }
    let decoding = try onThread(stackSize: 512 * 1024) {
      Result { try KeyedJSONDecoder().decode(Endless.self, from: Data("1".utf8)) }.map { _ in () }
    }
    #expect {
      try decoding.get()
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription.contains("more than \(StackGuard.maximumNesting) levels")
    }
  }

  /// A model that maps a value of its own type flat, from the members of its own object: its
  /// decode never ends but for the nesting limit.
  final class FlatSelf: Codable, Keyedable, @unchecked Sendable {
    var inner: FlatSelf?

    init(inner: FlatSelf? = nil) {
      self.inner = inner
    }

    required init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: self)
    }

    func map(map: KeyMap) throws {
      try inner <-> map[""]
    }
  }

  /// On Foundation's coders the nesting is KeyedCodable's to bound: the count goes on across the
  /// fresh stacks, so a recursion without end stops at the limit instead of starting threads
  /// without end.
  @Test func keyedableRecursionOnFoundationsCodersStopsAtTheNestingLimit() throws {
    let decoding = try onThread(stackSize: 512 * 1024) {
      Result { try JSONDecoder().decode(FlatSelf.self, from: Data("{}".utf8)) }.map { _ in () }
    }
    #expect {
      try decoding.get()
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription.contains("more than \(StackGuard.maximumNesting) levels")
    }
    var chain = FlatSelf()
    for _ in 0..<(StackGuard.maximumNesting + 50) { chain = FlatSelf(inner: chain) }
    let deep = chain
    defer {
      var node: FlatSelf? = deep
      while let current = node {
        node = current.inner
        current.inner = nil
      }
    }
    let encoding = try onThread(stackSize: 512 * 1024) {
      Result { try JSONEncoder().encode(deep) }.map { _ in () }
    }
    #expect {
      try encoding.get()
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.debugDescription.contains("more than \(StackGuard.maximumNesting) levels")
    }
  }

  /// The sum of the members' values, read with `allKeys` and `decode(_:forKey:)`, and the
  /// names listed.
  struct Sums: Decodable, Equatable {
    var sum = 0
    var names: Set<String> = []

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      for key in container.allKeys {
        sum += try container.decode(Int.self, forKey: key)
        names.insert(key.stringValue)
      }
    }
  }

  /// The value of the member `é`, if any.
  struct AccentedValue: Decodable, Equatable {
    var value: Int?

    init(from decoder: any Decoder) throws {
      value = try decoder.container(keyedBy: AnyKey.self).decodeIfPresent(
        Int.self, forKey: "\u{E9}")
    }
  }

  /// Writes `1`, `2`, … under the given names, in order, into one keyed container.
  struct NamesWritten: Encodable {
    var names: [String]

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      for (value, name) in names.enumerated() {
        try container.encode(value + 1, forKey: AnyKey(stringValue: name))
      }
    }
  }
}
