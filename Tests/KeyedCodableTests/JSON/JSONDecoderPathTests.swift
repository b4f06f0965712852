import Foundation
import KeyedCodable
import Testing

/// The coding paths the JSON coder's decoder gives values nested in arrays and in `Keyedable`
/// models' objects: made only when asked for, the same as Foundation's.
struct JSONDecoderPathTests {
  struct Point: Codable, Keyedable, Equatable {
    var x = 0
    mutating func map(map: KeyMap) throws {
      try x <-> map["p.x"]
    }
  }

  /// A value that reads the coding path its decoder reports.
  struct Probe: Decodable, Equatable {
    var path: [String]
    init(from decoder: any Decoder) throws {
      path = decoder.codingPath.map(\.stringValue)
      _ = try decoder.singleValueContainer().decode(Int.self)
    }
  }

  struct Holder: Codable, Keyedable {
    var points: [Point] = []
    var inner = Point()
    var probes: [Probe] = []
    var probe: Probe?

    mutating func map(map: KeyMap) throws {
      try points <<- map["a.points"]
      try inner <<- map["a.b.inner"]
      try probes <<- map["c"]
      try probe <<- map["a.b.probe"]
    }

    func encode(to encoder: any Encoder) throws {}
  }

  @Test func nestedValuesReportTheirPaths() throws {
    let json = #"""
      {"a":{"points":[{"p":{"x":1}},{"p":{"x":2}}],"b":{"inner":{"p":{"x":3}},"probe":4}},
       "c":[5,6]}
      """#
    let holder = try KeyedJSONDecoder().decode(Holder.self, from: Data(json.utf8))
    #expect(holder.points == [Point(x: 1), Point(x: 2)])
    #expect(holder.inner == Point(x: 3))
    #expect(holder.probes.map(\.path) == [["c", "Index 0"], ["c", "Index 1"]])
    #expect(holder.probe?.path == ["a", "b", "probe"])
  }

  @Test func errorsInsideElementsAndNestedModelsHaveTheWholePath() throws {
    let inArray = #"{"a":{"points":[{"p":{"x":1}},{"p":{"x":"two"}}]}}"#
    do {
      _ = try KeyedJSONDecoder().decode(
        [String: Holder].self, from: Data(#"{"k":\#(inArray)}"#.utf8))
      Issue.record("decoded a string as an Int")
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["k", "a", "points", "Index 1", "p", "x"])
    }
    let inModel = #"{"a":{"points":[],"b":{"inner":{"p":{}}}},"c":[]}"#
    do {
      _ = try KeyedJSONDecoder().decode([Holder].self, from: Data("[\(inModel)]".utf8))
      Issue.record("decoded a missing key")
    } catch DecodingError.keyNotFound(let key, let context) {
      #expect(key.stringValue == "x")
      #expect(context.codingPath.map(\.stringValue) == ["Index 0", "a", "b", "inner", "p"])
    }
  }
}
