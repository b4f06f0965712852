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
