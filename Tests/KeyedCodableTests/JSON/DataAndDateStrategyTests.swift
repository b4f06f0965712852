import Foundation
import KeyedCodable
import Testing

/// `Data` as Base64 and `Date` with `.deferredToDate`, the two default strategies: the JSON
/// coder writes Base64 and reads and writes dates itself, with the same bytes, values and errors
/// as Foundation's coders. Canonical Base64 text (what `base64EncodedString()` writes) is read by
/// the coder; any other text by Foundation, so that every text it accepts or rejects is here.
struct DataAndDateStrategyTests {
  struct Blob: Codable, Equatable {
    var blob: Data
  }

  struct Stamp: Codable, Equatable {
    var at: Date
  }

  /// Bytes from a fixed seed, so that a failure can be replayed.
  struct Bytes: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state ^ (state &>> 29)
    }
  }

  static func randomData(count: Int, seed: UInt64) -> Data {
    var generator = Bytes(state: seed)
    return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
  }

  /// Every length up to 70 (all three tails, groups with and without slashes), data of only
  /// slashes and pluses (`0xFF`, `0xFB`), the lengths around the longest the decoder decodes on
  /// the stack (256), and 100 KB.
  static let samples: [Data] =
    (0...70).map { randomData(count: $0, seed: UInt64($0)) } + [
      Data(repeating: 0xFF, count: 30), Data(repeating: 0xFB, count: 31),
      Data(repeating: 0, count: 32), randomData(count: 255, seed: 255),
      randomData(count: 256, seed: 256), randomData(count: 257, seed: 257),
      randomData(count: 100_000, seed: 99),
    ]

  @Test(arguments: [
    JSONEncoder.OutputFormatting.sortedKeys, [.sortedKeys, .withoutEscapingSlashes],
    [.sortedKeys, .prettyPrinted],
  ])
  func dataIsWrittenAsFoundationWritesIt(formatting: JSONEncoder.OutputFormatting) throws {
    let encoders = EncoderPair(formatting)
    for data in Self.samples {
      let written = encoders.expectSame(Blob(blob: data))
      encoders.expectSame(data)
      encoders.expectSame([data, data])
      encoders.expectSame(["k": data])
      // And reads back as itself.
      if let json = written.success {
        #expect(try KeyedJSONDecoder().decode(Blob.self, from: Data(json.utf8)).blob == data)
      }
    }
  }

  @Test func dataWrittenByEitherEncoderIsReadAsFoundationReadsIt() throws {
    let decoders = DecoderPair()
    for data in Self.samples {
      for formatting in [JSONEncoder.OutputFormatting(), .withoutEscapingSlashes] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        let json = String(decoding: try encoder.encode(Blob(blob: data)), as: UTF8.self)
        #expect(decoders.expectSame(Blob.self, from: json).success == Blob(blob: data))
        let array = String(decoding: try encoder.encode([data]), as: UTF8.self)
        #expect(decoders.expectSame([Data].self, from: array).success == [data])
      }
    }
  }

  /// Text that is not what an encoder writes: missing or extra padding, bits after the last
  /// byte, spaces, escapes, other alphabets.
  @Test(arguments: [
    "", "QQ==", "QUI=", "QUJD", "QQ", "QQ=", "QUI", "QR==", "QUJ=", "Q===", "====", "=", "A",
    "QQ==QQ==", "Q=Q=", "QQ!=", "QUJD\\n", "\\nQUJD", " QUJD", "QU JD", "QUJD ", "QU\\/D",
    "QUJ\\u0044", "QQ\\u003d=", "QUJDé", "//8=", "\\/\\/8=", "+/+/", "-_-_", "AAAAAAAA=",
    "QUJDRA", "QUJDRA=", "QUJDRA==", "QUJDRA===", "QUJDRB==", "QUJDREU=", "QUJDREV=",
  ])
  func textsThatAreNotCanonicalAreReadAsFoundationReadsThem(text: String) {
    let decoders = DecoderPair()
    decoders.expectSame(Blob.self, from: #"{"blob":"\#(text)"}"#)
    decoders.expectSame([Data].self, from: #"["\#(text)"]"#)
    decoders.expectSame(Data.self, from: #""\#(text)""#)
  }

  /// Short strings over the alphabet, `=` and a few other bytes, all compared with Foundation.
  @Test func randomTextsAreReadAsFoundationReadsThem() {
    let decoders = DecoderPair()
    let alphabet = Array("AQgw/+=Bb09Zz-_ .")
    var generator = Bytes(state: 2026)
    for _ in 0..<3000 {
      let length = Int.random(in: 0...13, using: &generator)
      let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "A" })
      decoders.expectSame([Data].self, from: #"["\#(text)"]"#)
    }
  }

  /// Canonical texts of every sample up to 70 bytes with one letter replaced, dropped or
  /// doubled anywhere (the groups before the last as well as the last), read as they are and
  /// with every slash escaped, all compared with Foundation.
  @Test func canonicalTextsWithOneChangeAreReadAsFoundationReadsThem() {
    let decoders = DecoderPair()
    let replacements: [Character] = ["=", "-", "_", " ", "A", "/", "+", "é", "\u{7F}"]
    var generator = Bytes(state: 70)
    var texts: [String] = []
    for data in Self.samples where data.count <= 70 {
      let letters = Array(data.base64EncodedString())
      for _ in 0..<6 where !letters.isEmpty {
        let position = Int.random(in: 0..<letters.count, using: &generator)
        var changed = letters
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: changed[position] = replacements.randomElement(using: &generator) ?? "="
        case 1: changed.remove(at: position)
        default: changed.insert(letters[position], at: position)
        }
        texts.append(String(changed))
      }
    }
    for text in texts {
      decoders.expectSame([Data].self, from: #"["\#(text)"]"#)
      let escaped = text.replacingOccurrences(of: "/", with: #"\/"#)
      decoders.expectSame([Data].self, from: #"["\#(escaped)"]"#)
    }
  }

  @Test(arguments: ["null", "1", "true", "[]", "{}", #""QQ=""#])
  func wrongValuesFailAsInFoundation(json: String) throws {
    let decoders = DecoderPair()
    decoders.expectSame(Blob.self, from: #"{"blob":\#(json)}"#)
    decoders.expectSame([Data].self, from: "[\(json)]")
    decoders.expectSame([String: Data].self, from: #"{"a":\#(json)}"#)
    // With Foundation's words.
    let document = Data(#"{"blob":[\#(json)]}"#.utf8)
    struct Blobs: Decodable { var blob: [Data] }
    #expect(
      Self.message { try KeyedJSONDecoder().decode(Blobs.self, from: document) }
        == Self.message { try JSONDecoder().decode(Blobs.self, from: document) })
  }

  static func message(_ body: () throws -> Any) -> String? {
    do {
      _ = try body()
      return nil
    } catch DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
      DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context)
    {
      return context.debugDescription + " at " + context.codingPath.map(\.stringValue).joined()
    } catch {
      return "\(error)"
    }
  }

  // MARK: - Dates

  static let dates: [Date] = [
    Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 0.1),
    Date(timeIntervalSinceReferenceDate: -123_456.789), Date(timeIntervalSince1970: 1e9),
    Date(timeIntervalSinceReferenceDate: 1e300),
    Date(timeIntervalSinceReferenceDate: .leastNonzeroMagnitude),
    Date.distantPast, Date.distantFuture,
  ]

  @Test func datesAreWrittenAndReadAsFoundationDoes() {
    let encoders = EncoderPair()
    let decoders = DecoderPair()
    for date in Self.dates {
      let json = encoders.expectSame(Stamp(at: date)).success
      encoders.expectSame(date)
      encoders.expectSame([date])
      if let json {
        #expect(decoders.expectSame(Stamp.self, from: json).success == Stamp(at: date))
      }
    }
  }

  @Test(arguments: [
    "0", "-1.5", "1e308", "12345678901234567890", "null", "true",
    #""1""#, "[]", "{}", #""NaN""#, #""Infinity""#,
  ])
  func dateValuesAreReadAsFoundationReadsThem(json: String) {
    let decoders = DecoderPair()
    decoders.expectSame(Stamp.self, from: #"{"at":\#(json)}"#)
    decoders.expectSame([Date].self, from: "[\(json)]")
    decoders.expectSame(Date.self, from: json)
    let document = Data(#"{"at":\#(json)}"#.utf8)
    #expect(
      Self.message { try KeyedJSONDecoder().decode(Stamp.self, from: document) }
        == Self.message { try JSONDecoder().decode(Stamp.self, from: document) })
    // Non-conforming floats, when they are allowed, are dates too.
    let ours = KeyedJSONDecoder()
    let foundation = JSONDecoder()
    ours.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    foundation.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    let oursDate = Outcome {
      try ours.decode(Stamp.self, from: document).at.timeIntervalSinceReferenceDate.bitPattern
    }
    let foundationDate = Outcome {
      try foundation.decode(Stamp.self, from: document).at.timeIntervalSinceReferenceDate.bitPattern
    }
    #expect(oursDate == foundationDate)
  }

  /// A number that doesn't fit a `Double` is reported at its value, as for a `Double` (the
  /// documented difference: Foundation rejects the whole document).
  @Test(arguments: ["1e400", "-1e400", "1e-400"])
  func datesThatDoNotFitAreReportedWhereTheyAre(json: String) {
    struct Number: Decodable { var at: Double }
    let document = Data(#"{"at":\#(json)}"#.utf8)
    let date = Outcome { try KeyedJSONDecoder().decode(Stamp.self, from: document).at }
    #expect(date == .error(CodingErrorShape("dataCorrupted", at: ["at"])))
    #expect(
      Self.message { try KeyedJSONDecoder().decode(Stamp.self, from: document) }
        == Self.message { try KeyedJSONDecoder().decode(Number.self, from: document) })
  }

  @Test func datesThatAreNotNumbersFailOrAreConvertedAsInFoundation() {
    let encoders = EncoderPair()
    let bad = [
      Date(timeIntervalSinceReferenceDate: .nan), Date(timeIntervalSinceReferenceDate: .infinity),
    ]
    for date in bad {
      encoders.expectSame(Stamp(at: date))
      encoders.expectSame([date])
    }
    encoders.ours.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    encoders.foundation.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    for date in bad {
      #expect(encoders.expectSame(Stamp(at: date)).success != nil)
    }
  }
}
