import Foundation
import KeyedCodable
import Testing

/// Encoding members whose names come from data (`map[Key(stringValue: name)]`), which a run
/// adds to its plan's key paths one by one, with other names in every value.
@Suite(.bothCoders) struct KeysFromDataEncodingTests {
  struct Members: Encodable, Keyedable {
    var id: Int
    var members: [(name: String, value: Int)]

    mutating func map(map: KeyMap) throws {
      try id ->> map["id"]
      for member in members {
        try member.value ->> map[Key(stringValue: member.name)]
      }
    }
  }

  /// The JSON object of `value`, as `JSONSerialization` writes it.
  func expected(_ value: Members) throws -> String {
    var object: [String: Any] = ["id": value.id]
    for member in value.members {
      object[member.name] = member.value
    }
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }

  @Test func everyValueWritesItsOwnNames() throws {
    var generator = SystemRandomNumberGenerator()
    var values: [Members] = []
    for id in 0..<60 {
      // Names repeat across values, not within one; some values bring names outside ASCII.
      var names = Set(
        (0..<Int.random(in: 0...40, using: &generator)).map { _ in
          "m\(Int.random(in: 0..<120, using: &generator))"
        })
      if id % 7 == 3 {
        names.formUnion(["caf\u{E9}", "\u{65E5}\u{672C}", "\u{1F600}"])
      }
      names.remove("id")
      values.append(
        Members(id: id, members: names.sorted().enumerated().map { ($1, id * 1_000 + $0) }))
    }
    for value in values {
      try expectEncoded(value, try expected(value))
    }
    // All in one encode: the runs of an array's elements are reused.
    let whole = try JSONSerialization.jsonObject(with: Data(try encodeJSON(values).utf8))
    let elements = try #require(whole as? [Any])
    #expect(elements.count == values.count)
    for (element, value) in zip(elements, values) {
      let data = try JSONSerialization.data(withJSONObject: element, options: [.sortedKeys])
      #expect(String(decoding: data, as: UTF8.self) == (try expected(value)))
    }
  }

  /// Key paths as strings that differ from value to value: each encode learns its own.
  struct Paths: Encodable, Keyedable {
    var paths: [(path: String, value: Int)]

    mutating func map(map: KeyMap) throws {
      for member in paths {
        try member.value ->> map[member.path]
      }
    }
  }

  @Test func keyPathsThatDifferFromValueToValue() throws {
    var generator = SystemRandomNumberGenerator()
    // Interleaved, so that a value comes back to `y` or `q` after leaving it.
    let choices = ["y.z", "x", "q.r.s", "y.w", "caf\u{E9}.k", "q.t", "a/b", "y.v.u"]
    var values: [Paths] = []
    for index in 0..<40 {
      let chosen =
        choices.filter { _ in Bool.random(using: &generator) }
        + (0..<(index % 5)).map { "n\(index).m\($0)" }
      values.append(Paths(paths: chosen.enumerated().map { ($1, index * 100 + $0) }))
    }
    func nested(_ value: Paths) -> [String: Any] {
      var object: [String: Any] = [:]
      func insert(_ segments: ArraySlice<Substring>, _ leaf: Int, into object: inout [String: Any])
      {
        let name = String(segments.first ?? "")
        if segments.count == 1 {
          object[name] = leaf
        } else {
          var inner = object[name] as? [String: Any] ?? [:]
          insert(segments.dropFirst(), leaf, into: &inner)
          object[name] = inner
        }
      }
      for member in value.paths {
        insert(member.path.split(separator: ".")[...], member.value, into: &object)
      }
      return object
    }
    for value in values + values.reversed() {
      let data = try JSONSerialization.data(withJSONObject: nested(value), options: [.sortedKeys])
      try expectEncoded(value, String(decoding: data, as: UTF8.self))
    }
    // All in one encode, where one run is restarted for each element.
    let whole = try JSONSerialization.jsonObject(with: Data(try encodeJSON(values).utf8))
    let elements = try #require(whole as? [Any])
    #expect(elements.count == values.count)
    for (element, value) in zip(elements, values) {
      let written = try JSONSerialization.data(withJSONObject: element, options: [.sortedKeys])
      let expected = try JSONSerialization.data(
        withJSONObject: nested(value), options: [.sortedKeys])
      #expect(written == expected)
    }
  }

  @Test func aNameRepeatedThroughKeysFromDataThrowsEvenWithEqualValues() throws {
    // No plan knows these names ahead, so nothing kept the first value to compare with (see
    // the encoding rules): the second write is reported instead of being dropped.
    #expect {
      try encodeJSON(Members(id: 1, members: [("a", 2), ("b", 3), ("a", 2)]))
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["a"]
    }
  }

  @Test func aNameRepeatedWithAnotherValueIsAConflict() throws {
    // The Kelvin sign and "K" are equal strings: one member, given two values.
    for members in [
      [("a", 2), ("b", 3), ("a", 4)], [("K", 1), ("x", 2), ("\u{212A}", 3)],
      [("\u{212A}", 1), ("K", 3)],
    ] as [[(String, Int)]] {
      #expect {
        try encodeJSON(Members(id: 1, members: members))
      } throws: { error in
        guard case EncodingError.invalidValue(_, let context) = error else { return false }
        return context.codingPath.map(\.stringValue) == [members.last?.0 ?? ""]
          || context.codingPath.map(\.stringValue) == [members.first?.0 ?? ""]
      }
    }
  }
}
