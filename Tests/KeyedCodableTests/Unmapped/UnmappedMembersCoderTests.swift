import Foundation
import KeyedCodable
import Testing

/// What `map.unmapped` keeps on each coder: numbers to the byte and the document's order on
/// KeyedCodable's JSON coder, values through containers on Foundation's coders.
@Suite struct UnmappedMembersCoderTests {
  struct Record: Codable, Keyedable, Equatable {
    var id = 0
    var extra: JSONValue = [:]

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try extra <-> map.unmapped
    }
  }

  struct DictionaryRecord: Codable, Keyedable, Equatable {
    var id = 0
    var extra: [String: JSONValue] = [:]

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try extra <-> map.unmapped
    }
  }

  static let numbers = """
    {"z":1.10,"id":1,"huge":1e400,"big":123456789012345678901234567890,\
    "list":[1.0,-0,2E+2,{"b":null,"a":"\\u00e9"}],"m":-0.000}
    """

  @Test func theJSONCoderKeepsNumbersAndOrderToTheByte() throws {
    for _ in 0..<2 {
      let record = try KeyedJSONDecoder().decode(Record.self, from: Data(Self.numbers.utf8))
      #expect(record.id == 1)
      #expect(record.extra.objectValue?.names == ["z", "huge", "big", "list", "m"])
      let encoded = String(decoding: try KeyedJSONEncoder().encode(record), as: UTF8.self)
      #expect(
        encoded
          == #"{"id":1,"z":1.10,"huge":1e400,"big":123456789012345678901234567890,"#
          + #""list":[1.0,-0,2E+2,{"b":null,"a":"é"}],"m":-0.000}"#)
    }
  }

  @Test func theJSONCoderWritesANestedObjectsMembersWithItsMappedOnes() throws {
    // The mappings come back to display after id: the JSON coder holds the writes and groups
    // them by object (Foundation's encoder, its fallback, can't write 1e400).
    struct Interleaved: Codable, Keyedable {
      var theme = ""
      var id = 0
      var displayExtra: [String: JSONValue] = [:]
      mutating func map(map: KeyMap) throws {
        try theme <-> map["display.theme"]
        try id <-> map["id"]
        try displayExtra <-> map.unmapped(at: "display")
      }
    }
    let json = #"{"display":{"theme":"t","ratio":1e400,"a":[]},"id":1}"#
    for _ in 0..<2 {
      let value = try KeyedJSONDecoder().decode(Interleaved.self, from: Data(json.utf8))
      #expect(
        String(decoding: try KeyedJSONEncoder().encode(value), as: UTF8.self)
          == #"{"display":{"theme":"t","a":[],"ratio":1e400},"id":1}"#)
    }
  }

  @Test func aDictionaryIsWrittenInTheOrderOfItsNames() throws {
    let record = try KeyedJSONDecoder().decode(
      DictionaryRecord.self, from: Data(Self.numbers.utf8))
    let encoded = String(decoding: try KeyedJSONEncoder().encode(record), as: UTF8.self)
    #expect(
      encoded
        == #"{"id":1,"big":123456789012345678901234567890,"huge":1e400,"#
        + #""list":[1.0,-0,2E+2,{"b":null,"a":"é"}],"m":-0.000,"z":1.10}"#)
    let sorted = KeyedJSONEncoder()
    sorted.outputFormatting = [.sortedKeys]
    #expect(
      String(decoding: try sorted.encode(record), as: UTF8.self)
        == #"{"big":123456789012345678901234567890,"huge":1e400,"id":1,"#
        + #""list":[1.0,-0,2E+2,{"a":"é","b":null}],"m":-0.000,"z":1.10}"#)
  }

  @Test func foundationsCodersKeepValuesInTheOrderOfTheirNames() throws {
    let json = #"{"z":1.5,"id":1,"a":[true,null,"s"],"m":{"y":2,"x":1}}"#
    let record = try JSONDecoder().decode(Record.self, from: Data(json.utf8))
    #expect(record.extra.objectValue?.names == ["a", "m", "z"])
    #expect(record.extra == ["z": 1.5, "a": [true, nil, "s"], "m": ["y": 2, "x": 1]])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    #expect(
      String(decoding: try encoder.encode(record), as: UTF8.self)
        == #"{"a":[true,null,"s"],"id":1,"m":{"x":1,"y":2},"z":1.5}"#)
  }

  @Test func foundationsEncoderThrowsForANumberItCannotHold() throws {
    let record = try KeyedJSONDecoder().decode(Record.self, from: Data(Self.numbers.utf8))
    #expect(throws: EncodingError.self) { try JSONEncoder().encode(record) }
  }

  @Test func propertyListsRoundTripWhatTheyCanHold() throws {
    var record = DictionaryRecord()
    record.id = 3
    record.extra = ["name": "Ada", "tags": ["a", "b"], "limits": ["max": 9]]
    for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
      let encoder = PropertyListEncoder()
      encoder.outputFormat = format
      let data = try encoder.encode(record)
      let decoded = try PropertyListDecoder().decode(DictionaryRecord.self, from: data)
      #expect(decoded == record)
    }
  }

  @Test func keyedDecoderAndEncoderWorkFromHandWrittenCodable() throws {
    struct Legacy: Codable, Keyedable, Equatable {
      let kind: String
      var extra: [String: JSONValue] = [:]

      init(kind: String) { self.kind = kind }

      init(from decoder: any Decoder) throws {
        kind = try decoder.container(keyedBy: PlainKey.self).decode(String.self, forKey: .kind)
        try KeyedDecoder(with: decoder).decode(to: &self)
      }

      mutating func map(map: KeyMap) throws {
        try kind ->> map["kind"]
        try extra <-> map.unmapped
      }
    }
    let json = #"{"kind":"k","x":1}"#
    let legacy = try JSONDecoder().decode(Legacy.self, from: Data(json.utf8))
    #expect(legacy.extra == ["x": 1])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    #expect(String(decoding: try encoder.encode(legacy), as: UTF8.self) == json)
  }

  @Test func aBranchTheFirstRunTookDoesNotHideMembersFromLaterRuns() throws {
    struct Branchy: Codable, Keyedable, Equatable {
      var a: Int?
      var b = 0
      var extra: [String: JSONValue] = [:]
      mutating func map(map: KeyMap) throws {
        if map.userInfo[branchKey] as? Bool == true {
          try a <-> map["a"]
        }
        try b <-> map["b"]
        try extra <-> map.unmapped
      }
    }
    let json = Data(#"{"a":1,"b":2,"c":3}"#.utf8)
    for makeDecoder in [{ JSONDecoder() as any TopLevelTestDecoder }, { KeyedJSONDecoder() }] {
      let taking = makeDecoder()
      taking.userInfo = [branchKey: true]
      #expect(try taking.decode(Branchy.self, from: json).extra == ["c": 3])
      let skipping = makeDecoder()
      #expect(try skipping.decode(Branchy.self, from: json).extra == ["a": 1, "c": 3])
      #expect(try taking.decode(Branchy.self, from: json).extra == ["c": 3])
    }
  }
}

private enum PlainKey: String, CodingKey {
  case kind
}

private let branchKey = CodingUserInfoKey(rawValue: "unmapped.branch")!

/// The decoders of the branch test, by what they share.
protocol TopLevelTestDecoder: AnyObject {
  var userInfo: [CodingUserInfoKey: any Sendable] { get set }
  func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

extension JSONDecoder: TopLevelTestDecoder {}
extension KeyedJSONDecoder: TopLevelTestDecoder {}
