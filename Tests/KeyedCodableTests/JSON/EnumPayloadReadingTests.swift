import Foundation
import KeyedCodable
import Testing

/// Enums with associated values read their case from `allKeys` of a one-member object; the
/// decoder keeps those lists for the rest of a decode, by key type and name. Values, errors and
/// paths are Foundation's.
struct EnumPayloadReadingTests {
  enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rect(width: Double, height: Double)
    case point
    case labeled(String, Int)
  }

  /// Another enum with a case of the same name: its own keys, its own list.
  enum Other: Codable, Equatable {
    case circle(String)
    case square
  }

  /// Long case names whose first eight and last eight bytes are the same.
  enum Long: Codable, Equatable {
    case eventWasStartedAtTheBeginning(Int)
    case eventWasStoppedAtTheBeginning(Int)
    case eventWasStartedBeforeBeginning(Int)
  }

  struct Drawing: Codable, Equatable {
    var shapes: [Shape]
    var others: [Other]
    var long: [Long]?
  }

  @Test(arguments: [
    #"{"shapes":[{"circle":{"radius":2}},{"point":{}},{"rect":{"width":1,"height":2}}],"others":[{"circle":{"_0":"x"}},{"square":{}}]}"#,
    #"{"shapes":[{"labeled":{"_0":"a","_1":1}},{"circle":{"radius":3}}],"others":[{"square":{}},{"circle":{"_0":"y"}}]}"#,
    // Unknown cases, two cases, no case, payloads of the wrong shape.
    #"{"shapes":[{"circle":{"radius":2}},{"square":{}}],"others":[]}"#,
    #"{"shapes":[{"circle":{"radius":2}}],"others":[{"circle":{"_0":"x"}},{"point":{}}]}"#,
    #"{"shapes":[{"circle":{"radius":2},"point":{}}],"others":[]}"#,
    #"{"shapes":[{}],"others":[]}"#,
    #"{"shapes":[{"circle":{"radius":"2"}}],"others":[]}"#,
    #"{"shapes":[{"circle":{}}],"others":[]}"#,
    #"{"shapes":[{"circle":[2]}],"others":[]}"#,
    #"{"shapes":[{"labeled":{"_0":"a"}}],"others":[]}"#,
    #"{"shapes":["circle"],"others":[]}"#,
    // A name with escapes, and the same name without them.
    #"{"shapes":[{"\u0063ircle":{"radius":2}},{"circle":{"radius":4}}],"others":[{"circl\u0065":{"_0":"z"}}]}"#,
    #"{"shapes":[],"others":[],"long":[{"eventWasStartedAtTheBeginning":{"_0":1}},{"eventWasStoppedAtTheBeginning":{"_0":2}},{"eventWasStartedBeforeBeginning":{"_0":3}},{"eventWasStartedAtTheBeginning":{"_0":4}}]}"#,
    #"{"shapes":[],"others":[],"long":[{"eventWasStartedAtTheBeginning":{"_0":1}},{"eventWasStoppedAtTheBegiNning":{"_0":2}}]}"#,
  ])
  func enumsWithPayloadsReadAsFoundationReadsThem(json: String) {
    DecoderPair().expectSame(Drawing.self, from: json)
  }

  /// More names and types than the lists kept: each value still reads its own case.
  @Test func manyCasesTakeTurnsInTheKeptLists() throws {
    var random = SeededGenerator(seed: 3)
    var shapes: [Shape] = []
    var others: [Other] = []
    var long: [Long] = []
    for index in 0..<600 {
      switch random.next() % 4 {
      case 0: shapes.append(.circle(radius: Double(index)))
      case 1: shapes.append(.rect(width: 1, height: Double(index)))
      case 2: shapes.append(.point)
      default: shapes.append(.labeled("l\(index)", index))
      }
      others.append(random.next() % 2 == 0 ? .square : .circle("c\(index)"))
      switch random.next() % 3 {
      case 0: long.append(.eventWasStartedAtTheBeginning(index))
      case 1: long.append(.eventWasStoppedAtTheBeginning(index))
      default: long.append(.eventWasStartedBeforeBeginning(index))
      }
    }
    let value = Drawing(shapes: shapes, others: others, long: long)
    let data = try JSONEncoder().encode(value)
    #expect(try KeyedJSONDecoder().decode(Drawing.self, from: data) == value)
    #expect(
      try KeyedJSONDecoder().decode(
        [Drawing].self, from: Data("[\(String(decoding: data, as: UTF8.self))]".utf8)) == [value])
  }

  /// A type that lists the keys of a one-member object itself: each key type gets its own
  /// list, also for a name one of them doesn't know.
  struct Listing: Decodable, Equatable {
    var shapeKeys: [String]
    var anyKeys: [String]

    struct AnyKey: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue.uppercased() }
      init?(intValue: Int) { nil }
    }

    enum ShapeKey: String, CodingKey {
      case circle, point
    }

    init(from decoder: any Decoder) throws {
      shapeKeys = try decoder.container(keyedBy: ShapeKey.self).allKeys.map(\.stringValue)
      anyKeys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
    }
  }

  /// Enough names that the table of kept lists grows to its largest and is emptied, again and
  /// again, with names coming back after many others: every object lists its own key.
  @Test func keptListsOfManyNamesStayRight() throws {
    let names = (0..<900).map { index in
      // Short and long names (over 16 bytes are compared whole), one in three coming back.
      let number = index % 3 == 0 ? index % 120 : index
      return index % 2 == 0 ? "name\(number)" : "a_longer_member_name_\(number)"
    }
    let json = "[" + names.map { #"{"\#($0)":1}"# }.joined(separator: ",") + "]"
    let listed = try KeyedJSONDecoder().decode([Listing].self, from: Data(json.utf8))
    let expected = names.map { [$0.uppercased()] }
    let anyKeys = listed.map(\.anyKeys)
    let shapeKeys = listed.flatMap(\.shapeKeys)
    #expect(anyKeys == expected)
    #expect(shapeKeys.isEmpty)
    let foundation = try JSONDecoder().decode([Listing].self, from: Data(json.utf8))
    #expect(listed == foundation)
  }

  @Test func keysOfOneMemberAreListedForEachKeyType() throws {
    let data = Data(#"[{"circle":1},{"square":2},{"circle":3},{"point":4},{"square":5}]"#.utf8)
    let listed = try KeyedJSONDecoder().decode([Listing].self, from: data)
    #expect(listed.map(\.shapeKeys) == [["circle"], [], ["circle"], ["point"], []])
    #expect(listed.map(\.anyKeys) == [["CIRCLE"], ["SQUARE"], ["CIRCLE"], ["POINT"], ["SQUARE"]])
  }
}
