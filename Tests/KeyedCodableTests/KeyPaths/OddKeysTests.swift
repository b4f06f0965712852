import Foundation
import KeyedCodable
import Testing

extension CodingUserInfoKey {
  static let probeKey = CodingUserInfoKey(rawValue: "probe.key")!
  static let probeOptions = CodingUserInfoKey(rawValue: "probe.options")!
  static let probeKind = CodingUserInfoKey(rawValue: "probe.kind")!
}

/// Odd keys against odd documents: every combination decodes, or throws a `DecodingError`;
/// encodes and reads back, or throws an `EncodingError`. Nothing traps.
@Suite(.bothCoders) struct OddKeysTests {
  struct Probe: Codable, Keyedable, Equatable {
    var required = 0
    var optional: Int?
    var lossy: [Int]?
    var text: String!
    var listed: [String] = []

    init(required: Int, optional: Int?, lossy: [Int]?, text: String?) {
      self.required = required
      self.optional = optional
      self.lossy = lossy
      self.text = text
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      let key = map.userInfo[.probeKey] as? String ?? ""
      let options = map.userInfo[.probeOptions] as? KeyOptions ?? .default
      switch map.userInfo[.probeKind] as? Int {
      case 0: try required <-> map[key, options]
      case 1: try optional <-> map[key, options]
      case 2: try lossy <-> map[key, options]
      case 3: try text <?> map[key, options]
      default:
        guard case .decoding(let keys) = map.type else { return }
        listed = keys.all(for: key, options: options).map(\.stringValue).sorted()
        for member in keys.all(for: key, options: options) {
          var value: Int?
          try? value <<- map[member]
        }
      }
    }
  }

  static let kinds = 0..<5

  static let keys: [String] = [
    "", ".", "..", "* ", "*", "a.", ".a", "a..b", "* a.* b", "a.* ", "naïve.ключ.🙂", "\u{0}",
    "a\u{301}.b", (0..<300).map { "k\($0)" }.joined(separator: "."),
    String(repeating: "x", count: 10_000), String(repeating: ".", count: 500),
  ]

  static let options: [KeyOptions] = [
    .default, KeyOptions(flat: nil), KeyOptions(delimiter: nil), KeyOptions(delimiter: "* "),
    KeyOptions(optionalArrayElements: "."),
    KeyOptions(delimiter: "", flat: ".", optionalArrayElements: ""),
  ]

  static let documents: [String] = [
    "[]", "null", "1", #""s""#, "{}", #"{"a":null}"#, #"{"":{"":1}}"#, "[[1]]", #"{"a":[1,2]}"#,
    #"{"":null}"#, #"{"":[null,1,"x",[2]]}"#, #"{"":{"":{"":{"":[3]}}}}"#, #"{"* ":[1,"2"]}"#,
  ]

  @Test(arguments: keys)
  func oddKeysNeverTrapWhenDecoding(_ key: String) {
    for options in Self.options {
      for document in Self.documents {
        for kind in Self.kinds {
          let decoder = JSONDecoder()
          decoder.userInfo = [.probeKey: key, .probeOptions: options, .probeKind: kind]
          do {
            _ = try decoder.decode(Probe.self, from: Data(document.utf8))
          } catch {
            #expect(error is DecodingError, "\(key) \(options) \(document): \(error)")
          }
        }
      }
    }
  }

  @Test(arguments: keys)
  func oddKeysEncodeAndReadBackOrThrow(_ key: String) {
    let values = [
      Probe(required: 1, optional: nil, lossy: nil, text: nil),
      Probe(required: 0, optional: 3, lossy: nil, text: nil),
      Probe(required: 0, optional: nil, lossy: [5, 6], text: nil),
      Probe(required: 0, optional: nil, lossy: nil, text: "t"),
    ]
    for options in Self.options {
      for (kind, value) in values.enumerated() {
        let encoder = JSONEncoder()
        encoder.userInfo = [.probeKey: key, .probeOptions: options, .probeKind: kind]
        let data: Data
        do {
          data = try encoder.encode(value)
        } catch {
          #expect(error is EncodingError, "\(key) \(options): \(error)")
          continue
        }
        let decoder = JSONDecoder()
        decoder.userInfo = encoder.userInfo
        do {
          let decoded = try decoder.decode(Probe.self, from: data)
          #expect(decoded == value, "\(key) \(options): \(String(decoding: data, as: UTF8.self))")
        } catch {
          Issue.record(
            "\(key) \(options): wrote \(String(decoding: data, as: UTF8.self)) but \(error)")
        }
      }
    }
  }
}
