import Foundation
import KeyedCodable
import Testing

/// ``KeyedJSONDecoder`` reads a lossy array (`"* items"`) element by element from its tape:
/// the elements kept, the elements dropped, and the path and error of each drop are those of
/// the same model on Foundation's decoder, which reads it through an unkeyed container.
struct LossyArrayReadingTests {
  struct Item: Codable, Equatable {
    var id: Int
    var name: String
  }

  enum Color: String, Codable, Equatable {
    case red, green
  }

  struct Tagged: Codable, Keyedable, Equatable {
    var tag = ""
    var weight: Double?

    init() {}

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try tag <-> map["tag"]
      try weight <-> map["details.weight"]
    }
  }

  struct Lists: Codable, Keyedable, Equatable {
    var items: [Item]?
    var numbers: [Int]?
    var names: [String]?
    var optionals: [Int?]?
    var nested: [[Int]]?
    var colors: [Color]?
    var tagged: [Tagged]?
    var deep: [Item]?

    init() {}

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try items <-> map["* items"]
      try numbers <-> map["* numbers"]
      try names <-> map["* names"]
      try optionals <-> map["* optionals"]
      try nested <-> map["* nested"]
      try colors <-> map["* colors"]
      try tagged <-> map["* tagged"]
      try deep <-> map["a.b.* deep"]
    }
  }

  /// A decode's value, or its error's shape, and the report's entries (event, path, key path
  /// and error shape).
  struct Result: Equatable {
    var value: Outcome<Lists>
    var entries: [String]
  }

  private func decode(_ json: String, foundation: Bool) -> Result {
    let data = Data(json.utf8)
    var entries: [String] = []
    let value = Outcome<Lists> {
      let (value, report) =
        foundation
        ? try JSONDecoder().decodeWithReport(Lists.self, from: data)
        : try KeyedJSONDecoder().decodeWithReport(Lists.self, from: data)
      entries = report.entries.map { entry in
        let shape = CodingErrorShape(entry.error).map { "\($0)" } ?? "\(entry.error)"
        return
          "\(entry.event) \(entry.pathDescription) \(entry.keyPath) \(shape) \(message(entry.error))"
      }
      return value
    }
    return Result(value: value, entries: entries)
  }

  /// The debug description of a decoding error's context.
  private func message(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(_, let context), DecodingError.valueNotFound(_, let context),
      DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context):
      context.debugDescription
    default:
      "\(error)"
    }
  }

  /// Decodes `json` on both coders, expects the same outcome and report, and returns ours.
  @discardableResult
  private func expectSame(_ json: String, sourceLocation: SourceLocation = #_sourceLocation)
    -> Result
  {
    let ours = decode(json, foundation: false)
    let foundation = decode(json, foundation: true)
    #expect(ours.value == foundation.value, "decoding \(json)", sourceLocation: sourceLocation)
    #expect(
      ours.entries == foundation.entries, "decoding \(json)", sourceLocation: sourceLocation)
    for (our, their) in zip(ours.entries, foundation.entries) where our != their {
      Issue.record("ours: \(our)\nfoundation: \(their)", sourceLocation: sourceLocation)
    }
    return ours
  }

  @Test func droppedElementsAndTheirErrorsAreFoundations() throws {
    let json = """
      {"items":[{"id":1,"name":"a"},{"id":"2","name":"b"},null,{"name":"c"},[1],
                {"id":3,"name":"d"},{"id":4,"name":null},7,{"id":5,"name":"e","x":1}],
       "numbers":[1,null,"2",[4],{"n":5},true,6,-7],
       "names":["a",1,null,"b",{"c":1}],
       "optionals":[1,null,"x",2],
       "nested":[[1,2],[3,"4"],null,[],5,[[6]],[7]],
       "colors":["red","blue",null,"green",1],
       "tagged":[{"tag":"t","details":{"weight":1.5}},{"details":{}},{"tag":"u","details":5},
                 {"tag":"v"},"w",{"tag":"x","details":{"weight":"heavy"}}],
       "a":{"b":{"deep":[{"id":6,"name":"f"},{"id":"6.5","name":"g"}]}}}
      """
    let result = expectSame(json)
    let lists = try #require(result.value.success)
    #expect(lists.items?.map(\.id) == [1, 3, 5])
    #expect(lists.numbers == [1, 6, -7])
    #expect(lists.names == ["a", "b"])
    #expect(lists.optionals == [1, nil, 2])
    #expect(lists.nested == [[1, 2], [], [7]])
    #expect(lists.colors == [.red, .green])
    #expect(lists.tagged?.map(\.tag) == ["t", "v"])
    #expect(lists.deep?.map(\.id) == [6])
    // Every invalid element is reported once, at its own index.
    #expect(result.entries.count == 27)
    #expect(result.entries.contains { $0.contains("items[1]") })
    #expect(result.entries.contains { $0.contains("a.b.deep[1]") })
  }

  /// Each `keyNotFound` error's coding keys are written into the array the errors before it
  /// had, once nothing refers to that array: an error a report keeps still holds the path it
  /// was thrown with after the elements after it fail too, and its message is Foundation's.
  @Test func manyElementsMissingOneMemberKeepTheirOwnPaths() throws {
    let items = (0..<40).map { $0 % 3 == 0 ? #"{"id":\#($0)}"# : #"{"id":\#($0),"name":"n"}"# }
    let tagged = (0..<12).map { $0 % 2 == 0 ? #"{"details":{}}"# : #"{"tag":"t\#($0)"}"# }
    let json = """
      {"items":[\(items.joined(separator: ","))],"tagged":[\(tagged.joined(separator: ","))]}
      """
    let result = expectSame(json)
    let lists = try #require(result.value.success)
    #expect(lists.items?.count == 26)
    #expect(lists.tagged?.map(\.tag) == ["t1", "t3", "t5", "t7", "t9", "t11"])
    let (_, report) = try KeyedJSONDecoder().decodeWithReport(Lists.self, from: Data(json.utf8))
    let missing = report.entries.map { entry -> String in
      guard case DecodingError.keyNotFound(let key, let context) = entry.error else {
        return "\(entry.error)"
      }
      let path = (context.codingPath + [key]).map {
        $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)"
      }
      return path.joined() + " " + context.debugDescription
    }
    let expected =
      stride(from: 0, to: 40, by: 3).map {
        #".items[\#($0)].name No value associated with key CodingKeys(stringValue: "name", intValue: nil) ("name")."#
      }
      + stride(from: 0, to: 12, by: 2).map {
        #".tagged[\#($0)].tag No value associated with key "tag" ("tag")."#
      }
    #expect(missing == expected)
  }

  @Test func arraysWithNothingToDropOrNothingToKeep() throws {
    let all = (0..<200).map { #"{"id":\#($0),"name":"n\#($0)"}"# }.joined(separator: ",")
    let kept = try #require(expectSame(#"{"items":[\#(all)]}"#).value.success)
    #expect(kept.items?.count == 200)
    #expect(kept.items?.last == Item(id: 199, name: "n199"))
    let none = Array(repeating: #"{"id":null}"#, count: 50).joined(separator: ",")
    let result = expectSame(#"{"items":[\#(none)],"numbers":[]}"#)
    #expect(result.value.success?.items == [])
    #expect(result.entries.count == 50)
  }

  @Test func aMemberThatIsNotAnArrayFailsAsOnFoundation() {
    for json in [
      #"{"items":{"id":1}}"#, #"{"items":"x"}"#, #"{"numbers":5}"#, #"{"a":{"b":{"deep":{}}}}"#,
      #"{"a":{"b":[]}}"#,
    ] {
      #expect(expectSame(json).value.success == nil, "\(json) throws")
    }
    for json in [#"{"items":null}"#, #"{"names":null}"#, #"{"a":{"c":[]}}"#] {
      #expect(expectSame(json).value.success == Lists(), "\(json) is an empty model")
    }
  }

  /// A number that doesn't fit its element's type is dropped, with ``KeyedJSONDecoder``'s
  /// `dataCorrupted` at the element (Foundation's decoder on Linux throws an error of its own).
  @Test func numbersThatDoNotFitAreDroppedAtTheirElement() throws {
    let json = #"{"numbers":[1,3.5,1e400,9223372036854775808,2],"a":{"b":{"deep":[{"id":6.5}]}}}"#
    let (lists, report) = try KeyedJSONDecoder().decodeWithReport(Lists.self, from: Data(json.utf8))
    #expect(lists.numbers == [1, 2])
    #expect(lists.deep == [])
    #expect(
      report.entries.map(\.pathDescription) == [
        "numbers[1]", "numbers[2]", "numbers[3]", "a.b.deep[0]",
      ])
    for entry in report.entries {
      guard case DecodingError.dataCorrupted(let context) = entry.error else {
        Issue.record("\(entry.error) is not dataCorrupted")
        continue
      }
      #expect(context.debugDescription.hasSuffix("does not fit in Int."))
      #expect(context.codingPath.count == (entry.pathDescription.hasPrefix("a") ? 5 : 2))
    }
  }

  @Test func elementsNestedDeepKeepTheirPaths() throws {
    // Arrays of arrays deeper than the decoder's unchecked depth, each a lossy array's element.
    let depth = 300
    let inner = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let result = expectSame(#"{"nested":[[1],\#(inner),"x",[2]]}"#)
    #expect(result.value.success?.nested == [[1], [2]])
    #expect(result.entries.count == 2)
  }
}
