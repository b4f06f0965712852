import Foundation
import Testing

@testable import KeyedCodable

/// Whitespace between tokens: the scanner skips runs a word at a time (spaces counted at once, a
/// line break skipped first, other characters tested byte by byte), so runs of every mix and
/// length, at every place a run may stand, must read as Foundation reads them, and a byte that
/// is not one of the four whitespace characters must be refused wherever it is in a run.
@Suite struct JSONWhitespaceTests {
  struct Record: Codable, Equatable {
    var name: String
    var values: [Int]
    var flag: Bool
    var nested: [String: Double]
  }

  /// The tokens of a document decoding to a ``Record``; a run goes before, between and after.
  static let tokens = [
    "{", #""name""#, ":", #""a b""#, ",", #""values""#, ":", "[", "1", ",", "-2", ",", "30", "]",
    ",", #""flag""#, ":", "true", ",", #""nested""#, ":", "{", #""x""#, ":", "1.5", "}", "}",
  ]

  static let expected = Record(name: "a b", values: [1, -2, 30], flag: true, nested: ["x": 1.5])

  /// A run of whitespace: indentation after a line break most often, then any mix.
  static func run(_ random: inout RoundTripPropertyTests.SplitMix64) -> [UInt8] {
    let length = Int(random.next() % 41)
    switch random.next() % 4 {
    case 0:
      return [UInt8](repeating: 0x20, count: length)
    case 1:
      return [0x0A] + [UInt8](repeating: 0x20, count: length)
    case 2:
      return [0x0D, 0x0A] + [UInt8](repeating: 0x09, count: length % 6)
    default:
      let characters: [UInt8] = [0x20, 0x20, 0x20, 0x0A, 0x0D, 0x09]
      return (0..<length).map { _ in characters[Int(random.next() % 6)] }
    }
  }

  /// The document with a generated run before every token and after the last.
  static func document(_ random: inout RoundTripPropertyTests.SplitMix64) -> [[UInt8]] {
    var parts: [[UInt8]] = []
    for token in tokens {
      parts.append(run(&random))
      parts.append(Array(token.utf8))
    }
    parts.append(run(&random))
    return parts
  }

  @Test func runsOfEveryMixAndLengthReadAsInFoundation() throws {
    var random = RoundTripPropertyTests.SplitMix64(seed: 0x5EED)
    let decoders = DecoderPair()
    for round in 0..<400 {
      let bytes = Data(Self.document(&random).joined())
      let (ours, foundation) = decoders.decode(Record.self, from: bytes)
      #expect(ours == .value(Self.expected), "round \(round)")
      #expect(foundation == .value(Self.expected), "round \(round)")
    }
  }

  @Test func everyLengthOfSpacesAndLineBreaksReads() throws {
    // Each length up to three looks of sixteen bytes and more, after a line break or not, before a token
    // and at the end of the document (where the zero bytes after it stop the run).
    for length in 0...50 {
      for prefix: [UInt8] in [[], [0x0A], [0x0D, 0x0A], [0x09], [0x0A, 0x0A]] {
        let run = prefix + [UInt8](repeating: 0x20, count: length)
        let json = run + Array("[".utf8) + run + Array("1".utf8) + run + Array("]".utf8) + run
        #expect(
          try KeyedJSONDecoder().decode([Int].self, from: Data(json)) == [1],
          "\(prefix) and \(length) spaces")
      }
    }
  }

  @Test func aByteOtherThanTheFourWhitespaceCharactersIsRefusedAnywhereInARun() throws {
    // Control characters, a DEL, a no-break space, a zero: each at every place of runs of
    // spaces (one word and more), after a line break or not.
    let intruders: [[UInt8]] = [[0x0B], [0x0C], [0x00], [0x1F], [0x01], [0x7F], [0xC2, 0xA0]]
    let decoders = DecoderPair()
    for intruder in intruders {
      for length in [1, 7, 8, 9, 15, 16, 17, 23, 31, 32, 33, 47] {
        for place in 0...length {
          for prefix: [UInt8] in [[], [0x0A]] {
            var run = prefix + [UInt8](repeating: 0x20, count: length)
            run.insert(contentsOf: intruder, at: prefix.count + place)
            let json = Data(Array("[1,".utf8) + run + Array("2]".utf8))
            let (ours, foundation) = decoders.decode([Int].self, from: json)
            #expect(ours == .error(.invalidJSON), "\(intruder) at \(place) of \(length)")
            #expect(foundation == .error(.invalidJSON), "\(intruder) at \(place) of \(length)")
          }
        }
      }
    }
  }

  @Test func theTapeHoldsEachValueAfterRunsOfEveryLength() throws {
    // Where each value starts and ends is read off the tape: after runs of every length, the
    // spans must be exactly the tokens.
    for length in 0...20 {
      let run = "\n" + String(repeating: " ", count: length)
      let json =
        "[" + run + "\"a\"" + run + "," + run + "-7.5" + run + "," + run + "{" + run + "}" + run
        + "]" + run
      let document = try Data(json.utf8).withUnsafeBytes { try JSONDocument(parsing: $0) }
      #expect(document.kind(0) == .array)
      #expect(document.memberCount(0) == 3)
      #expect(JSONStrings.string(at: 1, in: document) == "a")
      #expect(String(decoding: document.span(2), as: UTF8.self) == "-7.5")
      #expect(document.kind(3) == .object)
      #expect(document.memberCount(3) == 0)
    }
  }
}

/// Digit runs in numbers: the scanner finds where a run ends eight bytes at a time, so runs of
/// every length, ended by every kind of byte (the characters just outside 0–9 included), must
/// be accepted and refused as Foundation accepts and refuses them.
@Suite struct JSONDigitRunTests {
  @Test func runsOfEveryLengthEndedByEveryByteReadAsInFoundation() throws {
    let decoders = DecoderPair()
    // After the digits: what may follow a number, and bytes that must not.
    let enders: [[UInt8]] = [
      Array("]".utf8), Array(",1]".utf8), Array(" ]".utf8), Array(".5]".utf8), Array("e3]".utf8),
      Array("E-2]".utf8), [0x2F, 0x5D], [0x3A, 0x5D], [0x3F, 0x5D], [0x40, 0x5D], [0x00, 0x5D],
      [0xFA, 0x5D], [0xFF, 0x5D], [0xC3, 0xA9, 0x5D], Array("x]".utf8),
    ]
    for length in 1...20 {
      var rng = RoundTripPropertyTests.SplitMix64(seed: UInt64(length))
      let digits =
        [UInt8(ascii: "1") + UInt8(rng.next() % 9)]
        + (1..<length).map { _ in UInt8(ascii: "0") + UInt8(rng.next() % 10) }
      for ender in enders {
        for prefix: [UInt8] in [[], Array("-".utf8), Array("0.".utf8), Array("7e".utf8)] {
          // An exponent of two digits at most: a number out of `Double`'s range is the
          // documented difference (reported at its own path, Foundation's at the root).
          let run = prefix == Array("7e".utf8) ? Array(digits.prefix(2)) : digits
          let json = Data(Array("[".utf8) + prefix + run + ender)
          let (ours, foundation) = decoders.decode([Double].self, from: json)
          #expect(ours == foundation, "\(String(decoding: json, as: UTF8.self))")
        }
      }
    }
  }
}
