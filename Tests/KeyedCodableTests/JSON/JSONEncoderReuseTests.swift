import Foundation
import KeyedCodable
import Testing

/// An encoder that writes documents of changing sizes writes each as a fresh encoder would (its
/// first buffer follows the sizes it wrote before).
@Suite struct JSONEncoderReuseTests {
  @Test func documentsOfChangingSizesAreWrittenAsByAFreshEncoder() throws {
    let shared = KeyedJSONEncoder()
    let sizes = [10, 50_000, 3, 200_000, 200_000, 1, 1, 20_000, 0, 300_000, 2]
    for size in sizes {
      let values = (0..<size).map { "value \($0)" }
      let data = try shared.encode(values)
      #expect(data == (try KeyedJSONEncoder().encode(values)), "\(size) values")
      #expect(try JSONDecoder().decode([String].self, from: data) == values)
      let bytes = try shared.encodeBytes(values)
      #expect(Data(bytes) == data)
    }
  }
}

/// The encoder a `KeyedJSONEncoder` keeps from one small document to the next: the same one is
/// used again, until the options change or a document is large, and what it writes is what a
/// fresh encoder writes, whatever the last encode left.
@Suite struct KeptEncoderTests {
  /// A value that notes the encoder it is given, and writes a member.
  final class Witness: Encodable, @unchecked Sendable {
    /// The encoders, kept alive so that no two have the same address.
    var seen: [AnyObject] = []
    var encoders: [ObjectIdentifier] { seen.map(ObjectIdentifier.init) }
    func encode(to encoder: any Encoder) throws {
      seen.append(encoder as AnyObject)
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(encoders.count, forKey: "count")
    }
  }

  @Test func theEncoderOfASmallDocumentIsUsedAgainUntilTheOptionsChange() throws {
    let shared = KeyedJSONEncoder()
    let witness = Witness()
    for _ in 0..<3 { _ = try shared.encode(witness) }
    #expect(Set(witness.encoders).count == 1)
    shared.outputFormatting = [.sortedKeys]
    let json = try shared.encode(witness)
    #expect(String(decoding: json, as: UTF8.self) == #"{"count":4}"#)
    _ = try shared.encode(witness)
    #expect(Set(witness.encoders).count == 2)
    #expect(
      witness.encoders[3] != witness.encoders[2] && witness.encoders[4] == witness.encoders[3])
  }

  /// A small document is copied out of the kept encoder's buffer, a larger one handed its own:
  /// either way, what the next encodes write into the kept buffer leaves it as it was.
  @Test func earlierDocumentsStayAsTheyWereWritten() throws {
    let shared = KeyedJSONEncoder()
    // Documents of 2 to 70,002 bytes: inline data, copied, handed over, and not kept.
    let lengths = [0, 12, 13, 500, 4093, 4094, 4095, 9000, 1, 65533, 65534, 70000, 3, 4094]
    var written: [(text: String, data: Data, bytes: [UInt8])] = []
    for (index, length) in lengths.enumerated() {
      let text = String(repeating: Character(UnicodeScalar(UInt8(97 + index % 26))), count: length)
      written.append((text, try shared.encode(text), try shared.encodeBytes(text)))
    }
    for (text, data, bytes) in written {
      #expect(data.count == text.utf8.count + 2)
      #expect(try JSONDecoder().decode(String.self, from: data) == text)
      #expect(bytes == Array(data))
    }
  }

  /// A value that writes nothing.
  struct Silent: Encodable, Equatable {
    var tag: String
    func encode(to encoder: any Encoder) throws {}
  }

  /// A top-level value that encodes nothing is named by the error, as Foundation's encoder
  /// names it, by a kept encoder as by a fresh one.
  @Test func aTopLevelValueThatWritesNothingIsTheErrorsValue() throws {
    let shared = KeyedJSONEncoder()
    _ = try shared.encode([1])
    for encoder in [shared, KeyedJSONEncoder()] {
      let silent = Silent(tag: "quiet")
      let error = #expect(throws: EncodingError.self) { try encoder.encode(silent) }
      let foundation = #expect(throws: EncodingError.self) { try JSONEncoder().encode(silent) }
      guard case .invalidValue(let value, let context)? = error,
        case .invalidValue(let foundationValue, let foundationContext)? = foundation
      else {
        Issue.record("not invalidValue: \(String(describing: error))")
        continue
      }
      #expect(value as? Silent == silent && foundationValue as? Silent == silent)
      #expect(context.debugDescription == foundationContext.debugDescription)
      #expect(context.codingPath.isEmpty)
    }
    #expect(try shared.encode([2]) == Data("[2]".utf8))
  }

  @Test func theEncoderOfALargeDocumentIsNotKept() throws {
    let shared = KeyedJSONEncoder()
    let witness = Witness()
    _ = try shared.encode(witness)
    _ = try shared.encode([String](repeating: String(repeating: "x", count: 1000), count: 100))
    _ = try shared.encode(witness)
    #expect(witness.encoders.count == 2 && witness.encoders[0] != witness.encoders[1])
  }

  struct Model: Codable, Equatable {
    var id: Int
    var score: Double
    var when: Date
    var tags: [String: [Int]]
    var next: [Model]
  }

  @Test func whatTheKeptEncoderWritesIsWhatAFreshOneWrites() throws {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    let shared = KeyedJSONEncoder()
    shared.dateEncodingStrategy = .formatted(formatter)
    func fresh() -> KeyedJSONEncoder {
      let encoder = KeyedJSONEncoder()
      encoder.outputFormatting = shared.outputFormatting
      encoder.dateEncodingStrategy = .formatted(formatter)
      return encoder
    }
    let leaf = Model(
      id: 1, score: 0.5, when: Date(timeIntervalSince1970: 1_709_209_800),
      tags: ["b": [1], "a": [2, 3]], next: [])
    let tree = Model(
      id: 2, score: -1, when: Date(timeIntervalSince1970: 0), tags: [:], next: [leaf, leaf])
    var broken = tree
    broken.next[1].score = .infinity
    for formatting in [[], [.sortedKeys], [.prettyPrinted, .sortedKeys]]
      as [KeyedJSONEncoder.OutputFormatting]
    {
      shared.outputFormatting = formatting
      for value in [leaf, tree, leaf] {
        #expect(try shared.encode(value) == fresh().encode(value))
      }
      // An encode that throws halfway, with open objects and arrays, leaves nothing behind.
      #expect(throws: EncodingError.self) { try shared.encode(broken) }
      #expect(try shared.encode(tree) == fresh().encode(tree))
      // The formatter's settings are read again by every encode.
      formatter.timeZone = TimeZone(secondsFromGMT: formatter.timeZone.secondsFromGMT() + 3600)
      #expect(try shared.encode(tree) == fresh().encode(tree))
      #expect(try shared.encodeBytes(leaf) == fresh().encodeBytes(leaf))
    }
  }
}

/// A `KeyedJSONDecoder` used for many decodes takes its options as they are when each decode
/// starts: what it made of them for earlier decodes is made again after a change.
@Suite struct DecoderOptionsReuseTests {
  static let greeting = CodingUserInfoKey(rawValue: "greeting")!

  /// A value that reads the user info and a date.
  struct Probe: Decodable {
    var greeting: String?
    var when: Date

    enum CodingKeys: String, CodingKey {
      case when
    }

    init(from decoder: any Decoder) throws {
      greeting = decoder.userInfo[DecoderOptionsReuseTests.greeting] as? String
      when = try decoder.container(keyedBy: CodingKeys.self).decode(Date.self, forKey: .when)
    }
  }

  @Test func eachDecodeReadsTheOptionsAsTheyAreWhenItStarts() throws {
    let decoder = KeyedJSONDecoder()
    let json = Data(#"{"when":1000}"#.utf8)
    var probe = try decoder.decode(Probe.self, from: json)
    #expect(probe.greeting == nil && probe.when == Date(timeIntervalSinceReferenceDate: 1000))
    decoder.userInfo[Self.greeting] = "hello"
    decoder.dateDecodingStrategy = .secondsSince1970
    for _ in 0..<2 {
      probe = try decoder.decode(Probe.self, from: json)
      #expect(probe.greeting == "hello" && probe.when == Date(timeIntervalSince1970: 1000))
    }
    decoder.userInfo[Self.greeting] = "bye"
    probe = try decoder.decode(Probe.self, from: json)
    #expect(probe.greeting == "bye" && probe.when == Date(timeIntervalSince1970: 1000))
    decoder.userInfo = [:]
    decoder.dateDecodingStrategy = .millisecondsSince1970
    probe = try decoder.decode(Probe.self, from: json)
    #expect(probe.greeting == nil && probe.when == Date(timeIntervalSince1970: 1))
  }
}
