import Foundation
import KeyedCodable
import Testing

/// Nested key paths: delimiters, empty segments, long paths and the container cache.
@Suite(.bothCoders) struct KeyPathTests {
  struct Delimiters: Codable, Keyedable {
    var dotted: String?
    var piped: String?
    var slashed: String?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try piped <-> map["a|b|c", KeyOptions(delimiter: "|")]
      try dotted <-> map["a.b|c", KeyOptions(delimiter: "|")]
      try slashed <-> map["a/b.c", KeyOptions(delimiter: "/")]
    }
  }

  @Test func containersAreCachedByPathStructureNotByText() throws {
    let value = try roundTrip(
      Delimiters.self,
      #"{"a":{"b":{"c":"piped"},"b.c":"slashed"},"a.b":{"c":"dotted"}}"#)
    #expect(value.piped == "piped")
    #expect(value.dotted == "dotted")
    #expect(value.slashed == "slashed")
    try expectEncoded(value, #"{"a":{"b":{"c":"piped"},"b.c":"slashed"},"a.b":{"c":"dotted"}}"#)
  }

  struct EmptySegments: Codable, Keyedable {
    var description: String?
    var y: Int?
    var literalDots: String?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try description <-> map[".details.description"]
      try y <-> map["x..y"]
      try literalDots <-> map["v1.2", KeyOptions(delimiter: nil)]
    }
  }

  @Test func emptySegmentsAreRealEmptyKeys() throws {
    let json = #"{"":{"details":{"description":"d"}},"x":{"":{"y":3}},"v1.2":"dots"}"#
    let value = try decode(EmptySegments.self, from: json)
    #expect(value.description == "d")
    #expect(value.y == 3)
    #expect(value.literalDots == "dots")
    try expectEncoded(value, json)
  }

  @Test func aMemberNamedEmptyThatIsNotAnObjectIsATypeMismatchOnThePath() {
    expectError("typeMismatch", at: [""]) { try decode(EmptySegments.self, from: #"{"":5}"#) }
  }

  struct EmptyMember: Codable, Keyedable {
    var value: Int?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try value <-> map["", KeyOptions(flat: nil)]
    }
  }

  @Test func anEmptyKeyWithoutFlatIsAMemberNamedEmpty() throws {
    let value = try roundTrip(EmptyMember.self, #"{"":5}"#)
    #expect(value.value == 5)
    try expectEncoded(value, #"{"":5}"#)
  }

  struct Deep: Codable, Keyedable {
    static let segments = (0..<300).map { "level\($0)" }
    var value: Int!

    init(value: Int) {
      self.value = value
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try value <-> map[Self.segments.joined(separator: ".")].required()
    }
  }

  @Test func aThreeHundredSegmentPathReadsAndWritesTheValue() throws {
    let json = Deep.segments.reversed().reduce("42") { inner, name in #"{"\#(name)":\#(inner)}"# }
    let value = try roundTrip(Deep.self, json)
    #expect(value.value == 42)
    try expectEncoded(Deep(value: 42), json)
    expectError("keyNotFound(level150)", at: Array(Deep.segments.prefix(150))) {
      let truncated = Deep.segments.prefix(150).reversed().reduce("{}") { inner, name in
        #"{"\#(name)":\#(inner)}"#
      }
      return try decode(Deep.self, from: truncated)
    }
  }

  struct Unicode: Codable, Keyedable {
    var value: String?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try value <-> map["naïve.ключ.🙂"]
    }
  }

  @Test func nonASCIIKeyPathsAreSplitOnCharacters() throws {
    let value = try roundTrip(Unicode.self, #"{"naïve":{"ключ":{"🙂":"smile"}}}"#)
    #expect(value.value == "smile")
  }

  struct SharedPrefixes: Codable, Keyedable {
    var street: String?
    var city: String?
    var zip: String?
    var country: String?

    init() {}

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try street <-> map["address.street.name"]
      try city <-> map["address.city"]
      try zip <-> map["address.street.zip"]
      try country <-> map["meta.address.country"]
    }
  }

  @Test func mappingsWithACommonPrefixShareTheirObjects() throws {
    let json =
      #"{"address":{"street":{"name":"Main","zip":"01"},"city":"Oslo"},"meta":{"address":{"country":"NO"}}}"#
    let value = try roundTrip(SharedPrefixes.self, json)
    #expect(value.street == "Main")
    #expect(value.city == "Oslo")
    #expect(value.zip == "01")
    #expect(value.country == "NO")
    try expectEncoded(value, json)
  }

  @Test func mappingsAreWrittenWithoutEmptyIntermediateObjects() throws {
    var value = SharedPrefixes()
    try expectEncoded(value, "{}")
    value.zip = "01"
    try expectEncoded(value, #"{"address":{"street":{"zip":"01"}}}"#)
  }
}
