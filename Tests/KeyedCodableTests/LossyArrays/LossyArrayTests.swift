import Foundation
import KeyedCodable
import Testing

/// Lossy arrays: the marker drops the elements that fail to decode.
@Suite(.bothCoders) struct LossyArrayTests {
  struct Element: Codable, Equatable {
    var element: Int
  }

  struct Lossy: Codable, Keyedable {
    var lastSegment: [Element]?
    var wholeKey: [Element]?
    var numbers: [Int] = []
    var optionals: [Int?]?
    var literal: String?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try lastSegment <-> map["data.* items"]
      try wholeKey <-> map["* other.items"]
      try numbers <-> map["* numbers"]
      try optionals <-> map["* optionals"]
      try literal <-> map["* name"]
    }
  }

  @Test func theMarkerMayStartTheLastSegmentOrTheWholeKey() throws {
    let json = """
      {"data":{"items":[{"element":1},{},{"element":2}]},
       "other":{"items":[{"element":"x"},{"element":3}]},
       "numbers":[1],"* name":"literal"}
      """
    let value = try decode(Lossy.self, from: json)
    #expect(value.lastSegment == [Element(element: 1), Element(element: 2)])
    #expect(value.wholeKey == [Element(element: 3)])
    #expect(value.literal == "literal")
    try expectEncoded(
      value,
      """
      {"data":{"items":[{"element":1},{"element":2}]},"other":{"items":[{"element":3}]},
       "numbers":[1],"* name":"literal"}
      """)
  }

  @Test func everyKindOfInvalidElementIsSteppedOver() throws {
    let json = #"{"numbers":[1,null,"2",3.5,[4,[5]],{"n":6},true,7,-8,1e400,9]}"#
    let value = try decode(Lossy.self, from: json)
    #expect(value.numbers == [1, 7, -8, 9])
  }

  @Test func nullElementsOfAnOptionalElementTypeAreKept() throws {
    let value = try decode(Lossy.self, from: #"{"numbers":[],"optionals":[1,null,"x",2]}"#)
    #expect(value.optionals == [1, nil, 2])
  }

  @Test func anArrayOfOnlyInvalidElementsIsEmpty() throws {
    let elements = Array(repeating: "null", count: 1000).joined(separator: ",")
    let value = try decode(
      Lossy.self, from: #"{"numbers":[\#(elements)],"data":{"items":[{},{},[]]}}"#)
    #expect(value.numbers == [])
    #expect(value.lastSegment == [])
  }

  @Test func anAbsentOptionalLossyArrayIsNil() throws {
    let value = try decode(Lossy.self, from: #"{"numbers":[],"data":null}"#)
    #expect(value.lastSegment == nil)
    #expect(value.wholeKey == nil)
    #expect(value.optionals == nil)
  }

  @Test func aRequiredLossyArrayMustBePresent() {
    expectError("keyNotFound(numbers)", at: []) { try decode(Lossy.self, from: "{}") }
    expectError("valueNotFound", at: ["numbers"]) {
      try decode(Lossy.self, from: #"{"numbers":null}"#)
    }
  }

  @Test func aValueThatIsNotAnArrayIsATypeMismatch() {
    expectError("typeMismatch", at: ["numbers"]) {
      try decode(Lossy.self, from: #"{"numbers":{"0":1}}"#)
    }
    expectError("typeMismatch", at: ["data", "items"]) {
      try decode(Lossy.self, from: #"{"numbers":[],"data":{"items":5}}"#)
    }
  }
}
