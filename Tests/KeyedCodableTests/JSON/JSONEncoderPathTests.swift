import Foundation
import KeyedCodable
import Testing

/// The coding paths the JSON coder's writer gives a `Keyedable` model's nested values: made only
/// when a value or an error needs one, from the keys of the objects the mappings opened, planned
/// or not.
struct JSONEncoderPathTests {
  /// A non-finite number deep in a key path, inside an array.
  struct Deep: Codable, Keyedable {
    var flat = 1
    var numbers = [1.0, .nan]
    var extra = false
    var more = [2.0, .infinity]

    mutating func map(map: KeyMap) throws {
      try flat <-> map["a.flat"]
      try numbers <-> map["a.b.c"]
      if extra {
        // A branch the first encode didn't take: key paths the plan doesn't know.
        try more <-> map["a.x.y.z"]
      }
    }
  }

  @Test func aNestedValueErrorHasTheWholePath() throws {
    do {
      _ = try KeyedJSONEncoder().encode(Deep())
      Issue.record("encoded a NaN")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["a", "b", "c", "Index 1"])
    }
  }

  @Test func aBranchThePlanDoesNotKnowHasItsPathToo() throws {
    var model = Deep()
    model.numbers = [1, 2]
    // The first encode makes the plan without the branch.
    #expect(
      String(decoding: try KeyedJSONEncoder().encode(model), as: UTF8.self)
        == #"{"a":{"flat":1,"b":{"c":[1,2]}}}"#)
    model.extra = true
    do {
      _ = try KeyedJSONEncoder().encode(model)
      Issue.record("encoded an infinity")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["a", "x", "y", "z", "Index 1"])
    }
    model.more = [3, 4]
    #expect(
      String(decoding: try KeyedJSONEncoder().encode(model), as: UTF8.self)
        == #"{"a":{"flat":1,"b":{"c":[1,2]},"x":{"y":{"z":[3,4]}}}}"#)
  }

  @Test func aCustomKeyStrategySeesThePathOfEachName() throws {
    struct Model: Codable, Keyedable {
      var value = 5
      var list = [[1]]
      mutating func map(map: KeyMap) throws {
        try value <-> map["outer.inner.value"]
        try list <-> map["outer.list"]
      }
    }
    let seen = PathRecorder()
    let encoder = KeyedJSONEncoder()
    encoder.keyEncodingStrategy = .custom { path in
      seen.append(path.map(\.stringValue))
      return path.last ?? AnyCodingKey("")
    }
    #expect(
      String(decoding: try encoder.encode(Model()), as: UTF8.self)
        == #"{"outer":{"inner":{"value":5},"list":[[1]]}}"#)
    #expect(
      seen.paths == [
        ["outer"], ["outer", "inner"], ["outer", "inner", "value"], ["outer", "list"],
      ])
  }

  /// A value that records the coding path its encoder reports.
  struct Probe: Encodable {
    let seen: PathRecorder
    func encode(to encoder: any Encoder) throws {
      seen.append(encoder.codingPath.map(\.stringValue))
      var container = encoder.singleValueContainer()
      try container.encode(1)
    }
  }

  struct Point: Codable, Keyedable {
    var x = 0.0
    mutating func map(map: KeyMap) throws {
      try x <-> map["p.x"]
    }
  }

  struct Holder: Encodable, Keyedable {
    var probes: [Probe]
    var points: [Point]
    var dictionary: [String: [Probe]]
    init(probes: [Probe], points: [Point], dictionary: [String: [Probe]]) {
      self.probes = probes
      self.points = points
      self.dictionary = dictionary
    }
    init(from decoder: any Decoder) throws {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not read"))
    }
    mutating func map(map: KeyMap) throws {
      try probes ->> map["a.probes"]
      try points ->> map["a.points"]
      try dictionary ->> map["b"]
    }
  }

  @Test func elementsOfArraysAndModelsKnowTheirPaths() throws {
    let seen = PathRecorder()
    var holder = Holder(
      probes: [Probe(seen: seen), Probe(seen: seen)], points: [Point(x: 1), Point(x: 2)],
      dictionary: ["k": [Probe(seen: seen)]])
    #expect(
      String(decoding: try KeyedJSONEncoder().encode(holder), as: UTF8.self)
        == #"{"a":{"probes":[1,1],"points":[{"p":{"x":1}},{"p":{"x":2}}]},"b":{"k":[1]}}"#)
    #expect(
      seen.paths == [
        ["a", "probes", "Index 0"], ["a", "probes", "Index 1"], ["b", "k", "Index 0"],
      ])
    holder.points[1].x = .nan
    do {
      _ = try KeyedJSONEncoder().encode([holder])
      Issue.record("encoded a NaN")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(
        context.codingPath.map(\.stringValue)
          == ["Index 0", "a", "points", "Index 1", "p", "x"])
    }
  }

  /// A synthesized-style element that records the coding paths of its keyed container and of a
  /// nested one.
  struct Element: Encodable {
    let seen: PathRecorder
    var value: Double
    enum CodingKeys: String, CodingKey { case value, nested }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      seen.append(container.codingPath.map(\.stringValue))
      var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .nested)
      seen.append(nested.codingPath.map(\.stringValue))
      try nested.encode(value, forKey: .value)
      try container.encode(value, forKey: .value)
    }
  }

  /// Containers handed out again from element to element (their paths made only when asked
  /// for) report each element's own path, as Foundation's do, and so do its errors.
  @Test func keptContainersOfElementsKnowEachElementsPath() throws {
    let seen = PathRecorder()
    let foundationSeen = PathRecorder()
    var elements = (0..<40).map { Element(seen: seen, value: Double($0)) }
    _ = try KeyedJSONEncoder().encode(["list": elements])
    _ = try JSONEncoder().encode(
      ["list": (0..<40).map { Element(seen: foundationSeen, value: Double($0)) }])
    let expected = (0..<40).flatMap {
      [["list", "Index \($0)"], ["list", "Index \($0)", "nested"]]
    }
    #expect(seen.paths == expected)
    #expect(foundationSeen.paths == expected)
    elements[33].value = .nan
    do {
      _ = try KeyedJSONEncoder().encode(["list": elements])
      Issue.record("encoded a NaN")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["list", "Index 33", "nested", "value"])
    }
  }

  /// The paths a key strategy was given, in order.
  final class PathRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [[String]] = []
    var paths: [[String]] { lock.withLock { recorded } }
    func append(_ path: [String]) { lock.withLock { recorded.append(path) } }
  }

  struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
