import Foundation
import KeyedCodable
import Testing

/// Lossy dictionaries: `[String: T]` with the lossy marker (`"* key"`) drops the entries that
/// fail to decode and reports each; without the marker the first failure throws at its path.
@Suite("Values: lossy dictionaries", .bothCoders)
struct LossyDictionaryTests {
  struct Rate: Codable, Keyedable, Equatable {
    var value = Decimal()
    var source = ""

    init() {}
    init(value: Decimal, source: String) {
      self.value = value
      self.source = source
    }
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try value <-> map["value"].using(.decimal)
      try source <-> map["meta.source"]
    }
  }

  struct Exchange: Codable, Keyedable {
    var counts: [String: Int] = [:]
    var rates: [String: Rate] = [:]
    var strict: [String: Int] = [:]
    var nested: [String: [Int]]?
    var optional: [String: Int]?

    init() {}
    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try counts <-> map["* counts"]
      try rates <-> map["data.* rates"]
      try strict <-> map["strict"]
      try nested <-> map["* nested"]
      try optional <-> map["* optional"]
    }
  }

  static func exchange(
    counts: String = "{}", rates: String = "{}", strict: String = "{}", extra: String = ""
  ) -> String {
    #"{"counts": \#(counts), "data": {"rates": \#(rates)}, "strict": \#(strict)\#(extra)}"#
  }

  static let eur = #"{"value": 0.92, "meta": {"source": "ECB"}}"#

  @Test func aLossyDictionaryKeepsTheEntriesThatDecode() throws {
    let json = Self.exchange(
      counts: #"{"a": 1, "b": "x", "c": 3, "d": null, "e": 1.5}"#,
      rates: #"{"eur": \#(Self.eur), "gbp": {"value": "?", "meta": {"source": "BoE"}}, "jpy": {}}"#)
    let exchange = try decode(Exchange.self, from: json)
    #expect(exchange.counts == ["a": 1, "c": 3])
    #expect(exchange.rates == ["eur": Rate(value: Decimal(string: "0.92")!, source: "ECB")])
  }

  @Test func everyDroppedEntryIsReportedWithItsPathAndError() throws {
    let json = Self.exchange(
      counts: #"{"a": 1, "b": "x", "c": 3, "d": null}"#,
      rates: #"{"eur": \#(Self.eur), "gbp": {"value": "?", "meta": {"source": "BoE"}}, "jpy": {}}"#)
    let (_, report) = try decodeWithReport(Exchange.self, from: json)
    let entries = report.entries.sorted { $0.pathDescription < $1.pathDescription }
    #expect(
      entries.map { "\($0.event) at \($0.pathDescription) via \($0.keyPath)" } == [
        "Dropped dictionary entry at counts.b via * counts",
        "Dropped dictionary entry at counts.d via * counts",
        "Dropped dictionary entry at data.rates.gbp via data.* rates",
        "Dropped dictionary entry at data.rates.jpy via data.* rates",
      ])
    #expect(
      entries.map { shape(of: $0.error) } == [
        ErrorShape(kind: "typeMismatch", path: ["counts", "b"]),
        ErrorShape(kind: "valueNotFound", path: ["counts", "d"]),
        ErrorShape(kind: "dataCorrupted", path: ["data", "rates", "gbp", "value"]),
        ErrorShape(kind: "keyNotFound(value)", path: ["data", "rates", "jpy"]),
      ])
    #expect(message(of: entries[2].error) == #""?" is not a number of type Decimal."#)
  }

  @Test func entriesAreReportedInAStableOrder() throws {
    // A report lists entries "in the order the decode met them"; for one document that order
    // must not change from one decode to the next.
    let json = Self.exchange(
      counts: #"{"k": "x", "b": "x", "z": "x", "a": "x", "m": "x", "q": "x"}"#)
    let first = lines(of: try decodeWithReport(Exchange.self, from: json).report)
    for _ in 0..<20 {
      #expect(lines(of: try decodeWithReport(Exchange.self, from: json).report) == first)
    }
  }

  @Test func aStrictDictionaryFailsAtTheFirstFailingEntry() throws {
    expectError("typeMismatch", at: ["strict", "b"]) {
      try decode(Exchange.self, from: Self.exchange(strict: #"{"a": 1, "b": "x"}"#))
    }
    expectError("valueNotFound", at: ["strict", "b"]) {
      try decode(Exchange.self, from: Self.exchange(strict: #"{"a": 1, "b": null}"#))
    }
  }

  @Test func aLossyDictionaryThatIsNotAnObjectStillFails() throws {
    expectError("typeMismatch", at: ["counts"]) {
      try decode(Exchange.self, from: Self.exchange(counts: "[1, 2]"))
    }
    expectError("typeMismatch", at: ["data", "rates"]) {
      try decode(Exchange.self, from: Self.exchange(rates: #""eur""#))
    }
    expectError("keyNotFound(counts)", at: []) {
      try decode(Exchange.self, from: #"{"data": {"rates": {}}, "strict": {}}"#)
    }
    expectError("valueNotFound", at: ["counts"]) {
      try decode(Exchange.self, from: Self.exchange(counts: "null"))
    }
  }

  @Test func anOptionalLossyDictionaryIsNilWhenMissingOrNull() throws {
    #expect(try decode(Exchange.self, from: Self.exchange()).optional == nil)
    #expect(
      try decode(Exchange.self, from: Self.exchange(extra: #", "optional": null"#)).optional == nil)
    #expect(
      try decode(Exchange.self, from: Self.exchange(extra: #", "optional": {"a": "x"}"#)).optional
        == [:])
  }

  @Test func anEntryWhoseArrayHasABadElementIsDroppedWhole() throws {
    let (exchange, report) = try decodeReporting(
      Exchange.self,
      from: Self.exchange(extra: #", "nested": {"a": [1, 2], "b": [1, "x"], "c": []}"#))
    #expect(exchange.nested == ["a": [1, 2], "c": []])
    #expect(report == ["Dropped dictionary entry at nested.b via * nested"])
  }

  @Test func keysWithDotsAndEmptyKeysAreKeptLiterally() throws {
    let (exchange, report) = try decodeReporting(
      Exchange.self, from: Self.exchange(counts: #"{"a.b": 1, "": 2, "* c": 3, "x.y": "no"}"#))
    #expect(exchange.counts == ["a.b": 1, "": 2, "* c": 3])
    #expect(report == [#"Dropped dictionary entry at counts["x.y"] via * counts"#])
    try expectEncoded(
      with(Exchange()) { $0.counts = exchange.counts },
      #"{"counts": {"a.b": 1, "": 2, "* c": 3}, "data": {"rates": {}}, "strict": {}}"#)
  }

  @Test func encodingWritesTheEntriesUnderTheKeyWithoutTheMarker() throws {
    let exchange = with(Exchange()) {
      $0.counts = ["a": 1]
      $0.rates = ["eur": Rate(value: Decimal(string: "0.92")!, source: "ECB")]
      $0.nested = ["z": [1]]
    }
    try expectEncoded(
      exchange,
      #"{"counts": {"a": 1}, "data": {"rates": {"eur": \#(Self.eur)}}, "strict": {}, "nested": {"z": [1]}}"#
    )
    let decoded = try roundTrip(
      Exchange.self,
      #"{"counts": {"a": 1}, "data": {"rates": {"eur": \#(Self.eur)}}, "strict": {}, "nested": {"z": [1]}}"#
    )
    #expect(decoded.rates == exchange.rates)
  }

  @Test func anEmptyDictionaryIsEmpty() throws {
    let (exchange, report) = try decodeReporting(Exchange.self, from: Self.exchange())
    #expect(exchange.counts == [:])
    #expect(exchange.rates == [:])
    #expect(report.isEmpty)
  }

  // MARK: - Inside lossy arrays, with defaults and transforms

  struct Region: Codable, Keyedable {
    var name = ""
    var prices: [String: Decimal] = [:]

    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try name <-> map["name"]
      try prices <-> map["* prices"].using(.dictionary(.decimalString))
    }
  }

  struct World: Codable, Keyedable {
    var regions: [Region] = []

    init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }

    mutating func map(map: KeyMap) throws {
      try regions <-> map["* regions"]
    }
  }

  @Test func aLossyDictionaryOfTransformedValuesInsideALossyArrayOfModels() throws {
    let json = """
      {"regions": [
        {"name": "eu", "prices": {"a": "1.10", "b": "one", "c": 2}},
        {"prices": {"a": "1"}},
        {"name": "us", "prices": {"a": true, "b": "0.30"}}
      ]}
      """
    let (world, report) = try decodeWithReport(World.self, from: json)
    #expect(world.regions.map(\.name) == ["eu", "us"])
    #expect(world.regions.first?.prices == ["a": Decimal(string: "1.1")!, "c": 2])
    #expect(world.regions.last?.prices == ["b": Decimal(string: "0.3")!])
    #expect(
      lines(of: report) == [
        "Dropped dictionary entry at regions[0].prices.b via * prices",
        "Dropped array element at regions[1] via * regions",
        "Dropped dictionary entry at regions[2].prices.a via * prices",
      ])
    #expect(
      report.entries.map { shape(of: $0.error) } == [
        ErrorShape(kind: "dataCorrupted", path: ["regions", "Index 0", "prices", "b"]),
        ErrorShape(kind: "keyNotFound(name)", path: ["regions", "Index 1"]),
        ErrorShape(kind: "typeMismatch", path: ["regions", "Index 2", "prices", "a"]),
      ])
    try expectEncoded(
      world,
      #"{"regions": [{"name": "eu", "prices": {"a": "1.1", "c": "2"}}, {"name": "us", "prices": {"b": "0.3"}}]}"#
    )
  }

  @Test func aLossyDictionaryWithADefaultTakesItOnlyWhenAbsent() throws {
    struct Stock: Codable, Keyedable {
      var levels: [String: Int] = [:]
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try levels <-> map["* levels"].default(["none": 0])
      }
    }
    #expect(try decode(Stock.self, from: "{}").levels == ["none": 0])
    #expect(try decode(Stock.self, from: #"{"levels": null}"#).levels == ["none": 0])
    let (stock, report) = try decodeReporting(Stock.self, from: #"{"levels": {"a": "x", "b": 2}}"#)
    #expect(stock.levels == ["b": 2])
    #expect(report == ["Dropped dictionary entry at levels.a via * levels"])
  }

  @Test func aLossyDictionaryWithConversionsConvertsNoEntries() throws {
    // Documented: conversions apply to scalars only, so "yes" is dropped, not converted.
    struct Switches: Codable, Keyedable {
      var on: [String: Bool] = [:]
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
      mutating func map(map: KeyMap) throws {
        try on <-> map["* on"].converting(.lossy)
      }
    }
    let (switches, report) = try decodeReporting(
      Switches.self, from: #"{"on": {"a": true, "b": "yes"}}"#)
    #expect(switches.on == ["a": true])
    #expect(report == ["Dropped dictionary entry at on.b via * on"])
  }
}
