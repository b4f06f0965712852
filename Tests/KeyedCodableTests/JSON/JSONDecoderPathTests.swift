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

  /// A value that tries `Int` first, as a JSON value enum does, and keeps the error it caught.
  struct Tried: Decodable {
    var error: DecodingError?
    var text: String?
    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      do {
        _ = try container.decode(Int.self)
      } catch let error as DecodingError {
        self.error = error
        text = try? container.decode(String.self)
      }
    }
  }

  /// The errors of a `try?` chain share one array of keys while each is thrown away; an error a
  /// value keeps holds its own path whatever is thrown after it, at any depth.
  @Test func anErrorKeptKeepsItsPathWhileLaterOnesAreMade() throws {
    let json = #"[["a", "b"], ["c", ["d", "e"], "f"], "g", [[[["h"]]]], {"k": ["i", null]}]"#
    let values = try KeyedJSONDecoder().decode([TriedTree].self, from: Data(json.utf8))
    var found: [[String]] = []
    var texts: [String] = []
    func walk(_ tree: TriedTree) {
      switch tree {
      case .leaf(let tried):
        if let error = tried.error {
          switch error {
          case .typeMismatch(_, let context), .valueNotFound(_, let context):
            found.append(context.codingPath.map(\.stringValue))
          default: Issue.record("unexpected error \(error)")
          }
        }
        texts.append(tried.text ?? "-")
      case .list(let list): list.forEach(walk)
      case .object(let object): object.keys.sorted().forEach { walk(object[$0]!) }
      }
    }
    values.forEach(walk)
    #expect(texts == ["a", "b", "c", "d", "e", "f", "g", "h", "i", "-"])
    #expect(
      found == [
        ["Index 0", "Index 0"], ["Index 0", "Index 1"], ["Index 1", "Index 0"],
        ["Index 1", "Index 1", "Index 0"], ["Index 1", "Index 1", "Index 1"],
        ["Index 1", "Index 2"],
        ["Index 2"], ["Index 3", "Index 0", "Index 0", "Index 0", "Index 0"],
        ["Index 4", "k", "Index 0"], ["Index 4", "k", "Index 1"],
      ])
  }

  /// Arrays, objects and leaves that try `Int` first.
  enum TriedTree: Decodable {
    case list([TriedTree])
    case object([String: TriedTree])
    case leaf(Tried)
    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let list = try? container.decode([TriedTree].self) {
        self = .list(list)
      } else if let object = try? container.decode([String: TriedTree].self) {
        self = .object(object)
      } else {
        self = .leaf(try Tried(from: decoder))
      }
    }
  }
}
