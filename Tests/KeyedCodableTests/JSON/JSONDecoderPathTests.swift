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

  /// A value that opens a keyed container and reads the paths its decoder and container
  /// report, and the path of an error thrown inside it.
  struct Opener: Decodable, Equatable {
    var decoderPath: [String]
    var containerPath: [String]
    var errorPath: [String]
    var count: Int

    enum CodingKeys: String, CodingKey {
      case count, missing
    }

    init(from decoder: any Decoder) throws {
      decoderPath = decoder.codingPath.map(\.stringValue)
      let container = try decoder.container(keyedBy: CodingKeys.self)
      containerPath = container.codingPath.map(\.stringValue)
      count = try container.decode(Int.self, forKey: .count)
      do {
        _ = try container.decode(Int.self, forKey: .missing)
        errorPath = []
      } catch let DecodingError.keyNotFound(_, context) {
        errorPath = context.codingPath.map(\.stringValue)
      }
    }
  }

  /// A `Keyedable` model whose members are read through containers.
  struct Openers: Decodable, Keyedable, Equatable {
    var first: Opener?
    var deep: Opener?
    var table: [String: Opener] = [:]

    init() {}

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try first <<- map["first"]
      try deep <<- map["a.b.deep"]
      try table <<- map["table"]
    }
  }

  /// A dictionary's values and a `Keyedable` model's members keep their keys apart from their
  /// paths until asked for: the paths their decoders, containers and errors report are
  /// Foundation's, whether or not the container was made for an earlier value.
  @Test func valuesOfDictionariesAndModelMembersReportFoundationsPaths() throws {
    let opener = #"{"count":1}"#
    let json = Data(
      #"""
      [{"x":\#(opener),"y":\#(opener),"z":{"first":\#(opener),"a":{"b":{"deep":\#(opener)}},
      "table":{"p":\#(opener),"q":\#(opener)}}}]
      """#.utf8)
    struct Page: Decodable, Equatable {
      var x: Opener
      var y: Opener
      var z: Openers
    }
    let ours = try KeyedJSONDecoder().decode([Page].self, from: json)
    let foundation = try JSONDecoder().decode([Page].self, from: json)
    #expect(ours == foundation)
    #expect(ours[0].z.table["q"]?.containerPath == ["Index 0", "z", "table", "q"])
    #expect(ours[0].z.deep?.errorPath == ["Index 0", "z", "a", "b", "deep"])
    let dictionaries = Data(#"{"k":{"p":\#(opener),"q":\#(opener)},"l":{"r":\#(opener)}}"#.utf8)
    let ourTables = try KeyedJSONDecoder().decode(
      [String: [String: Opener]].self, from: dictionaries)
    #expect(
      ourTables == (try JSONDecoder().decode([String: [String: Opener]].self, from: dictionaries)))
    #expect(ourTables["l"]?["r"]?.errorPath == ["l", "r"])
    let bad = Data(#"{"k":{"p":\#(opener),"q":{"count":"one"}}}"#.utf8)
    for decoder in [KeyedJSONDecoder().decode, JSONDecoder().decode]
      as [([String: [String: Opener]].Type, Data) throws -> [String: [String: Opener]]]
    {
      do {
        _ = try decoder([String: [String: Opener]].self, bad)
        Issue.record("decoded a string as an Int")
      } catch let DecodingError.typeMismatch(_, context) {
        #expect(context.codingPath.map(\.stringValue) == ["k", "q", "count"])
      }
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
