import Foundation
import KeyedCodable
import Testing

/// The JSON coder hands the same keyed container out again once nothing refers to it: values
/// that keep their container, nest their own type, open several containers or convert keys read
/// and write exactly what Foundation's coders do.
@Suite struct JSONContainerReuseTests {
  /// Keeps its container to read it after the decode, as a lazy model might.
  struct Holder: Decodable {
    enum CodingKeys: String, CodingKey {
      case id, name
    }

    let container: KeyedDecodingContainer<CodingKeys>

    init(from decoder: any Decoder) throws {
      container = try decoder.container(keyedBy: CodingKeys.self)
    }
  }

  /// Reads its members and lets go of its container, with the same key type as ``Holder``.
  struct Reader: Decodable, Equatable {
    typealias CodingKeys = Holder.CodingKeys

    let id: Int
    let name: String

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(Int.self, forKey: .id)
      name = try container.decode(String.self, forKey: .name)
    }
  }

  struct Pair: Decodable {
    let kept: Holder
    let read: Reader
  }

  @Test func aContainerAValueKeepsStillReadsItsOwnObject() throws {
    // More values than the coder keeps containers, each next to one that lets go of its own.
    let count = 40
    let json =
      "["
      + (0..<count).map {
        #"{"kept":{"id":\#($0),"name":"k\#($0)"},"read":{"id":\#(1000 + $0),"name":"r\#($0)"}}"#
      }.joined(separator: ",") + "]"
    let pairs = try KeyedJSONDecoder().decode([Pair].self, from: Data(json.utf8))
    #expect(pairs.count == count)
    for (index, pair) in pairs.enumerated() {
      #expect(try pair.kept.container.decode(Int.self, forKey: .id) == index)
      #expect(try pair.kept.container.decode(String.self, forKey: .name) == "k\(index)")
      #expect(pair.kept.container.codingPath.map(\.stringValue) == ["Index \(index)", "kept"])
      #expect(
        pair.read == (try JSONDecoder().decode([Pair].self, from: Data(json.utf8)))[index].read)
      #expect(pair.read.id == 1000 + index)
    }
  }

  /// A tree of its own type: the containers of every level are open at once.
  struct Node: Codable, Equatable {
    var value: Int
    var label: String?
    var children: [Node]
    var next: Box?

    /// A node behind a reference, so that `Node` can hold one.
    final class Box: Codable, Equatable {
      let node: Node

      init(_ node: Node) {
        self.node = node
      }

      static func == (left: Box, right: Box) -> Bool {
        left.node == right.node
      }
    }
  }

  /// A chain `depth` deep, each link with `breadth` leaves.
  static func chain(depth: Int, breadth: Int) -> Node {
    var node = Node(value: depth, label: nil, children: [], next: nil)
    for level in stride(from: depth - 1, through: 0, by: -1) {
      let leaves = (0..<breadth).map {
        Node(value: level * 100 + $0, label: "leaf \($0)", children: [], next: nil)
      }
      node = Node(
        value: level, label: level.isMultiple(of: 3) ? nil : "level \(level)",
        children: leaves + [node], next: Node.Box(leaves.first ?? node))
    }
    return node
  }

  @Test(arguments: [1, 15, 16, 17, 40])
  func nestedValuesOfOneTypeDecodeAndEncodeAsFoundationDoes(depth: Int) throws {
    let tree = Self.chain(depth: depth, breadth: 3)
    let json = try JSONEncoder().encode(tree)
    #expect(try KeyedJSONDecoder().decode(Node.self, from: json) == tree)
    #expect(
      try KeyedJSONDecoder().decode(Node.self, from: json)
        == JSONDecoder().decode(Node.self, from: json))
    let written = try KeyedJSONEncoder().encode(tree)
    #expect(
      try canonicalJSON(String(decoding: written, as: UTF8.self))
        == canonicalJSON(String(decoding: json, as: UTF8.self)))
  }

  /// Opens its container twice, writing through the first after the second.
  struct TwoContainers: Encodable {
    enum CodingKeys: String, CodingKey {
      case first, second, third
    }

    let value: Int

    func encode(to encoder: any Encoder) throws {
      var first = encoder.container(keyedBy: CodingKeys.self)
      try first.encode(value, forKey: .first)
      var second = encoder.container(keyedBy: CodingKeys.self)
      try second.encode("v\(value)", forKey: .second)
      try first.encode(value * 2, forKey: .third)
    }
  }

  @Test func twoContainersOfOneObjectWriteItTogether() throws {
    let values = (0..<40).map(TwoContainers.init(value:))
    let written = try KeyedJSONEncoder().encode(values)
    let foundation = try JSONEncoder().encode(values)
    #expect(
      try canonicalJSON(String(decoding: written, as: UTF8.self))
        == canonicalJSON(String(decoding: foundation, as: UTF8.self)))
  }

  /// Opens a nested container from a container whose object the encoder has left: the value
  /// can't be written as a stream, and is written as Foundation writes it.
  struct LateNested: Encodable {
    let value: Int

    func encode(to encoder: any Encoder) throws {
      var outer = encoder.container(keyedBy: AnyKey.self)
      var first = outer.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("a"))
      try first.encode(value, forKey: AnyKey("x"))
      var second = outer.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("b"))
      try second.encode(value + 1, forKey: AnyKey("y"))
      var late = first.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("z"))
      try late.encode(value + 2, forKey: AnyKey("w"))
      var lateList = first.nestedUnkeyedContainer(forKey: AnyKey("l"))
      try lateList.encode(value + 3)
    }
  }

  /// Opens a nested container late (see ``LateNested``) and writes nothing through it:
  /// Foundation writes an empty object for it.
  struct LateEmpty: Encodable {
    func encode(to encoder: any Encoder) throws {
      var outer = encoder.container(keyedBy: AnyKey.self)
      var first = outer.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("a"))
      try first.encode(1, forKey: AnyKey("x"))
      _ = outer.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("b"))
      _ = first.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("e"))
    }
  }

  @Test func aNestedContainerOpenedLateIsWrittenAsFoundationWritesIt() {
    EncoderPair().expectSame(LateNested(value: 1))
    EncoderPair().expectSame([LateNested(value: 1), LateNested(value: 4)])
    EncoderPair().expectSame(LateEmpty())
    EncoderPair().expectSame([LateEmpty(), LateEmpty()])
    EncoderPair().expectSame(["k": LateNested(value: 7)])
  }

  /// Snake-case members, some in one object and not the next.
  struct Record: Codable, Equatable {
    var recordId: Int
    var displayName: String?
    var childRecords: [Record]
  }

  @Test func keyConversionReadsEachObjectsOwnNames() throws {
    let json = """
      [{"record_id":1,"display_name":"one","child_records":[{"record_id":2,"child_records":[]}]},
       {"record_id":3,"child_records":[]},
       {"record_id":4,"display_name":"four","child_records":[{"record_id":5,"display_name":"five",
        "child_records":[]}]}]
      """
    let keyed = KeyedJSONDecoder()
    keyed.keyDecodingStrategy = .convertFromSnakeCase
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = .convertFromSnakeCase
    let expected = try foundation.decode([Record].self, from: Data(json.utf8))
    #expect(try keyed.decode([Record].self, from: Data(json.utf8)) == expected)
    #expect(expected.map(\.displayName) == ["one", nil, "four"])

    // A custom strategy that depends on the path: each object's names are converted anew.
    let byDepth: @Sendable ([any CodingKey]) -> any CodingKey = { path in
      let name = path.last?.stringValue ?? ""
      return AnyKey(path.count > 2 ? name.replacingOccurrences(of: "_", with: "") : name)
    }
    keyed.keyDecodingStrategy = .custom(byDepth)
    foundation.keyDecodingStrategy = .custom(byDepth)
    let nested = #"{"a":[{"x_y":1},{"x_y":2}],"b":{"x_y":3}}"#
    let expectedNested = try foundation.decode(
      [String: Either].self, from: Data(nested.utf8))
    #expect(try keyed.decode([String: Either].self, from: Data(nested.utf8)) == expectedNested)
  }

  struct Snake: Codable, Equatable {
    var aB: Int?
    var cD: Int?
  }

  /// Objects whose raw names are those of the object before them, in the same order, share its
  /// converted names; any difference (order, count, a byte, an escape that spells the same
  /// name, two names converting to one) is converted anew, with Foundation's values.
  @Test(arguments: [
    #"[{"a_b":1,"c_d":2},{"a_b":3,"c_d":4},{"a_b":5,"c_d":6}]"#,
    #"[{"a_b":1,"c_d":2},{"c_d":3,"a_b":4},{"a_b":5,"c_d":6}]"#,
    #"[{"a_b":1,"c_d":2},{"a_b":3},{"a_b":5,"c_d":6,"e_f":7},{"a_b":8,"c_d":9}]"#,
    #"[{"a_b":1,"c_d":2},{"a_c":3,"c_d":4},{"a_b":5,"c_e":6}]"#,
    #"[{"a_b":1,"c_d":2},{"a_b":3,"c_e":4},{"a_b":5,"c_e":6},{"a_b":7,"c_d":8}]"#,
    #"[{"a_b":1,"c_d":2},{"a_b":3,"c_d":4},{"a_b":5,"c_d":6}]"#,
    #"[{"a_b":1,"aB":2},{"a_b":3,"aB":4},{"aB":5,"a_b":6}]"#,
    #"[{"c_d":1,"a_b":2,"cD":3},{"c_d":4,"a_b":5,"cD":6}]"#,
    #"[{},{},{"a_b":1},{},{"":2,"":3},{"":4,"":5}]"#,
    #"[{"a_b":1,"c_d":2},{"a_b":3,"c_d":4}]"#,
  ])
  func objectsWithTheSameNamesShareTheirConversion(json: String) throws {
    // Containers are kept from the fifth made on: the objects of the case come after four.
    let json = "[{},{},{},{}," + json.dropFirst()
    let decoders = DecoderPair()
    decoders.ours.keyDecodingStrategy = .convertFromSnakeCase
    decoders.foundation.keyDecodingStrategy = .convertFromSnakeCase
    decoders.expectSame([Snake].self, from: json)
    // The keys of each object, in order, through `allKeys`.
    decoders.expectSame([[String: Int]].self, from: json)
    // Nested in objects of the same type at other depths.
    decoders.expectSame([String: [Snake]].self, from: #"{"x_y":\#(json),"z":\#(json)}"#)
  }

  /// A Keyedable model whose key paths reach into nested snake-case objects.
  struct SnakePaths: Codable, Equatable, Keyedable {
    var id = 0
    var name = ""
    var city: String?

    init() {}

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["itemId"]
      try name <-> map["userInfo.firstName"]
      try city <-> map["userInfo.homeAddress.cityName"]
    }
  }

  /// A Keyedable model's nodes keep their objects' converted names from object to object too:
  /// the same names, reordered, missing, escaped and colliding ones read as Foundation reads
  /// them.
  @Test func keyedableNodesShareTheConversionOfObjectsWithTheSameNames() {
    let same = #"{"item_id":1,"user_info":{"first_name":"A","home_address":{"city_name":"X"}}}"#
    let objects =
      Array(repeating: same, count: 5) + [
        #"{"item_id":2,"user_info":{"home_address":{"city_name":"Y"},"first_name":"B"}}"#,
        #"{"item_id":3,"user_info":{"first_name":"C"}}"#,
        #"{"item_id":4,"user_info":{"first_name":"D","home_address":{"city_name":"Z"}}}"#,
        #"{"item\u005fid":5,"user_info":{"first_name":"E","home_address":{"city_name":"W"}}}"#,
        #"{"item_id":6,"itemId":7,"user_info":{"first_name":"F","home_address":{"city_name":"V"}}}"#,
        #"{"itemId":8,"item_id":9,"user_info":{"first_name":"G","home_address":{"city_name":"U"}}}"#,
        #"{"item_id":10,"user_info":{"first_name":"H","home_address":{"city_name":"T"}}}"#,
      ]
    let decoders = DecoderPair()
    decoders.ours.keyDecodingStrategy = .convertFromSnakeCase
    decoders.foundation.keyDecodingStrategy = .convertFromSnakeCase
    let decoded = decoders.expectSame(
      [SnakePaths].self, from: "[" + objects.joined(separator: ",") + "]")
    #expect(decoded.success?.map(\.id) == [1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 8, 10])
  }

  struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
      stringValue = name
    }

    init(stringValue: String) {
      self.stringValue = stringValue
    }

    init?(intValue: Int) {
      nil
    }
  }

  /// An object whose one member is read by either of its names.
  enum Either: Decodable, Equatable {
    case list([Either])
    case joined(Int)
    case snake(Int)

    init(from decoder: any Decoder) throws {
      if var list = try? decoder.unkeyedContainer() {
        var items: [Either] = []
        while !list.isAtEnd {
          items.append(try list.decode(Either.self))
        }
        self = .list(items)
        return
      }
      let container = try decoder.container(keyedBy: AnyKey.self)
      if let value = try container.decodeIfPresent(Int.self, forKey: AnyKey("xy")) {
        self = .joined(value)
      } else {
        self = .snake(try container.decode(Int.self, forKey: AnyKey("x_y")))
      }
    }
  }

  /// The decoder or the encoder a value was last given, held weakly.
  final class CoderProbe: @unchecked Sendable {
    weak var coder: AnyObject?
    /// How many times a coder that is an object was seen.
    var objects = 0

    static let key = CodingUserInfoKey(rawValue: "reuse.probe")!

    /// Holds `coder` weakly if it is an object.
    static func note(_ coder: Any, in userInfo: [CodingUserInfoKey: Any]) {
      guard let probe = userInfo[key] as? CoderProbe, type(of: coder) is AnyObject.Type else {
        return
      }
      probe.coder = coder as AnyObject
      probe.objects += 1
    }
  }

  struct Probed: Codable {
    enum CodingKeys: String, CodingKey {
      case id
    }

    var id: Int

    init(id: Int) {
      self.id = id
    }

    init(from decoder: any Decoder) throws {
      CoderProbe.note(decoder, in: decoder.userInfo)
      id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
    }

    func encode(to encoder: any Encoder) throws {
      CoderProbe.note(encoder, in: encoder.userInfo)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
    }
  }

  @Test func keptContainersAreLetGoWhenTheDecodeOrTheEncodeEnds() throws {
    let probe = CoderProbe()
    var decoder: KeyedJSONDecoder? = KeyedJSONDecoder()
    decoder?.userInfo[CoderProbe.key] = probe
    let decoded = try decoder?.decode([Probed].self, from: Data(#"[{"id":1},{"id":2}]"#.utf8))
    let values = decoded ?? []
    #expect(values.map(\.id) == [1, 2])
    #expect(probe.objects == 2)
    // The decoder of a small document is kept for the next one by the KeyedJSONDecoder alone,
    // with the containers it keeps (once it made a few), which let go of it in between.
    let six = #"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5},{"id":6}]"#
    #expect(try decoder?.decode([Probed].self, from: Data(six.utf8)).map(\.id) == Array(1...6))
    #expect(probe.objects == 8)
    #expect(probe.coder != nil)
    decoder = nil
    #expect(probe.coder == nil)

    // The encoder of a small document is kept for the next one by the KeyedJSONEncoder alone.
    var encoder: KeyedJSONEncoder? = KeyedJSONEncoder()
    encoder?.userInfo[CoderProbe.key] = probe
    let written = try encoder?.encode(values)
    #expect(written.map { String(decoding: $0, as: UTF8.self) } == #"[{"id":1},{"id":2}]"#)
    #expect(probe.objects == 10)
    encoder = nil
    #expect(probe.coder == nil)
  }

  /// Hands its keyed container out to a shelf that outlives the encode.
  struct Shelved: Encodable {
    enum CodingKeys: String, CodingKey {
      case id, name, nested
    }

    let shelf: Shelf
    let id: Int

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      shelf.containers.append(container)
    }
  }

  /// Containers kept past the encode that made them.
  final class Shelf: @unchecked Sendable {
    var containers: [KeyedEncodingContainer<Shelved.CodingKeys>] = []
  }

  @Test func containersKeptPastTheEncodeThrowWhenWrittenAndLeaveTheOutputAsItWas() throws {
    let shelf = Shelf()
    var written: Data?
    do {
      // The encoder is let go at the end of this scope: the kept containers still hold what
      // they write through, so writing to them later throws rather than touching freed memory.
      let encoder = KeyedJSONEncoder()
      written = try encoder.encode((0..<3).map { Shelved(shelf: shelf, id: $0) })
    }
    #expect(written.map { String(decoding: $0, as: UTF8.self) } == #"[{"id":0},{"id":1},{"id":2}]"#)
    #expect(shelf.containers.count == 3)
    for index in shelf.containers.indices {
      #expect(throws: (any Error).self) { try shelf.containers[index].encode(7, forKey: .id) }
      #expect(throws: (any Error).self) { try shelf.containers[index].encode("x", forKey: .name) }
      #expect(throws: (any Error).self) { try shelf.containers[index].encode(true, forKey: .name) }
      #expect(throws: (any Error).self) { try shelf.containers[index].encode(1.5, forKey: .name) }
      #expect(throws: (any Error).self) {
        try shelf.containers[index].encode([1, 2], forKey: .nested)
      }
      #expect(shelf.containers[index].codingPath.map(\.stringValue) == ["Index \(index)"])
    }
  }

  /// Notes the paths its containers and decoder report, then reads a member of a nested object.
  struct PathNoting: Decodable {
    static let key = CodingUserInfoKey(rawValue: "reuse.paths")!

    enum CodingKeys: String, CodingKey {
      case value, nested
    }

    let value: Int

    init(from decoder: any Decoder) throws {
      let log = decoder.userInfo[Self.key] as? PathLog
      let container = try decoder.container(keyedBy: CodingKeys.self)
      log?.append(decoder.codingPath.map(\.stringValue))
      log?.append(container.codingPath.map(\.stringValue))
      let nested = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .nested)
      log?.append(nested.codingPath.map(\.stringValue))
      value = try nested.decode(Int.self, forKey: .value)
    }
  }

  /// The paths values noted, in order.
  final class PathLog: @unchecked Sendable {
    private let lock = NSLock()
    private var noted: [[String]] = []
    var paths: [[String]] { lock.withLock { noted } }
    func append(_ path: [String]) { lock.withLock { noted.append(path) } }
  }

  /// Elements read through containers handed out again from element to element (an element's
  /// path joined only when asked for) report their own paths, as Foundation's do, and so do
  /// their errors.
  @Test func keptContainersOfElementsKnowEachElementsPath() throws {
    let count = 40
    func document(breakingAt broken: Int?) -> Data {
      let elements = (0..<count).map {
        #"{"nested":{"value":\#($0 == broken ? "\"text\"" : String($0))}}"#
      }
      return Data(#"{"list":[\#(elements.joined(separator: ","))]}"#.utf8)
    }
    let ours = KeyedJSONDecoder()
    let oursLog = PathLog()
    ours.userInfo[PathNoting.key] = oursLog
    let foundation = JSONDecoder()
    let foundationLog = PathLog()
    foundation.userInfo[PathNoting.key] = foundationLog

    let decoded = try ours.decode([String: [PathNoting]].self, from: document(breakingAt: nil))
    _ = try foundation.decode([String: [PathNoting]].self, from: document(breakingAt: nil))
    #expect(decoded["list"]?.map(\.value) == Array(0..<count))
    let expected = (0..<count).flatMap {
      [["list", "Index \($0)"], ["list", "Index \($0)"], ["list", "Index \($0)", "nested"]]
    }
    #expect(oursLog.paths == expected)
    #expect(foundationLog.paths == expected)

    for decoder in [ours, foundation] as [any TopLevelTestDecoder] {
      do {
        _ = try decoder.decode([String: [PathNoting]].self, from: document(breakingAt: 33))
        Issue.record("decoded a string as an Int")
      } catch DecodingError.typeMismatch(_, let context) {
        #expect(
          context.codingPath.map(\.stringValue) == ["list", "Index 33", "nested", "value"])
      }
    }
  }
}

/// Elements read one by one from an unkeyed container: their paths are joined only when asked for.
@Suite struct UnkeyedElementPathTests {
  /// Reads three arrays through unkeyed containers, element by element, noting the paths the
  /// elements report.
  struct ElementLoop: Decodable {
    enum CodingKeys: String, CodingKey {
      case list, numbers, objects, value
    }

    var listed: [Int] = []
    var numbers: [Int] = []
    var objects: [Int] = []

    init(from decoder: any Decoder) throws {
      let log =
        decoder.userInfo[JSONContainerReuseTests.PathNoting.key] as? JSONContainerReuseTests.PathLog
      let container = try decoder.container(keyedBy: CodingKeys.self)
      var list = try container.nestedUnkeyedContainer(forKey: .list)
      while !list.isAtEnd {
        listed.append(try list.decode(JSONContainerReuseTests.PathNoting.self).value)
      }
      var numberList = try container.nestedUnkeyedContainer(forKey: .numbers)
      while !numberList.isAtEnd {
        if let number = try numberList.decodeIfPresent(Int.self) {
          numbers.append(number)
        }
        log?.append(numberList.codingPath.map(\.stringValue))
      }
      var objectList = try container.nestedUnkeyedContainer(forKey: .objects)
      while !objectList.isAtEnd {
        let object = try objectList.nestedContainer(keyedBy: CodingKeys.self)
        log?.append(object.codingPath.map(\.stringValue))
        objects.append(try object.decode(Int.self, forKey: .value))
      }
    }
  }

  static func document(brokenList: Int? = nil, brokenNumber: Int? = nil, brokenObject: Int? = nil)
    -> Data
  {
    let count = 12
    let list = (0..<count).map {
      #"{"nested":{"value":\#($0 == brokenList ? "\"text\"" : String($0))}}"#
    }
    let numbers = (0..<count).map { $0 == brokenNumber ? "true" : $0 % 5 == 4 ? "null" : "\($0)" }
    let objects = (0..<count).map {
      #"{"value":\#($0 == brokenObject ? "[]" : String($0 * 2))}"#
    }
    return Data(
      #"{"list":[\#(list.joined(separator: ","))],"numbers":[\#(numbers.joined(separator: ","))],"objects":[\#(objects.joined(separator: ","))]}"#
        .utf8)
  }

  @Test func elementsReadOneByOneReportTheirPathsAsFoundationDoes() throws {
    var logs: [[[String]]] = []
    var decodedValues: [ElementLoop] = []
    for decoder in [KeyedJSONDecoder(), JSONDecoder()] as [any TopLevelTestDecoder] {
      let log = JSONContainerReuseTests.PathLog()
      decoder.userInfo[JSONContainerReuseTests.PathNoting.key] = log
      let value = try decoder.decode(ElementLoop.self, from: Self.document())
      decodedValues.append(value)
      logs.append(log.paths)
    }
    #expect(decodedValues[0].listed == Array(0..<12))
    #expect(decodedValues[0].numbers == (0..<12).filter { $0 % 5 != 4 })
    #expect(decodedValues[0].objects == (0..<12).map { $0 * 2 })
    #expect(logs[0] == logs[1])
    #expect(logs[0].contains(["list", "Index 7", "nested"]))
    #expect(logs[0].contains(["objects", "Index 3"]))
  }

  @Test(arguments: [
    (Self.document(brokenList: 5), ["list", "Index 5", "nested", "value"]),
    (Self.document(brokenNumber: 7), ["numbers", "Index 7"]),
    (Self.document(brokenObject: 9), ["objects", "Index 9", "value"]),
  ])
  func errorsOfElementsReadOneByOneNameTheElement(data: Data, path: [String]) {
    for decoder in [KeyedJSONDecoder(), JSONDecoder()] as [any TopLevelTestDecoder] {
      do {
        _ = try decoder.decode(ElementLoop.self, from: data)
        Issue.record("decoded a broken element")
      } catch DecodingError.typeMismatch(_, let context) {
        #expect(context.codingPath.map(\.stringValue) == path)
      } catch {
        Issue.record("unexpected error \(error)")
      }
    }
  }
}

/// Unkeyed containers share their array with their copies in a frame the decoder hands out
/// again once no container holds it: copies, kept containers, containers open side by side and
/// errors read and report exactly what Foundation's do.
@Suite struct UnkeyedFrameReuseTests {
  /// Reads one element, copies its container, then reads the rest from the copy and the next
  /// one from the original.
  struct Copying: Decodable, Equatable {
    var first: Int
    var fromCopy: [Int] = []
    var fromOriginal: Int?
    var paths: [[String]] = []

    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      first = try container.decode(Int.self)
      var copy = container
      while !copy.isAtEnd {
        fromCopy.append(try copy.decode(Int.self))
      }
      fromOriginal = try container.decodeIfPresent(Int.self)
      paths = [container.codingPath, copy.codingPath].map { $0.map(\.stringValue) }
      paths.append([String(container.currentIndex), String(copy.currentIndex)])
    }
  }

  @Test func aCopyReadsOnFromWhereItWasCopied() throws {
    let json = Data(#"[[1,2,3],[4],[5,6],[7,8,9,10]]"#.utf8)
    let keyed = try KeyedJSONDecoder().decode([Copying].self, from: json)
    let foundation = try JSONDecoder().decode([Copying].self, from: json)
    #expect(keyed == foundation)
    #expect(keyed[0].fromCopy == [2, 3])
    #expect(keyed[0].fromOriginal == 2)
    #expect(keyed[1].fromOriginal == nil)
    #expect(keyed[3].paths == [["Index 3"], ["Index 3"], ["2", "4"]])
  }

  /// Reads the first element and keeps its container to read the rest after the decode.
  struct Lazy: Decodable {
    var first: String
    var rest: any UnkeyedDecodingContainer

    init(from decoder: any Decoder) throws {
      rest = try decoder.unkeyedContainer()
      first = try rest.decode(String.self)
    }
  }

  @Test func aContainerAValueKeepsStillReadsItsOwnArray() throws {
    // More values than depths the decoder keeps frames for, all kept side by side.
    let count = 70
    let json = Data(
      ("["
        + (0..<count).map { #"[["a\#($0)",\#($0)],["m",1,2],["b\#($0)",\#($0 * 3)]]"# }
        .joined(separator: ",") + "]").utf8)
    for decoder in [KeyedJSONDecoder(), JSONDecoder()] as [any TopLevelTestDecoder] {
      let values = try decoder.decode([[Lazy]].self, from: json)
      #expect(values.count == count)
      for (index, triple) in values.enumerated() {
        var kept = triple[2].rest
        #expect(triple[0].first == "a\(index)")
        #expect(triple[2].first == "b\(index)")
        #expect(try kept.decode(Int.self) == index * 3)
        #expect(kept.isAtEnd)
        #expect(kept.codingPath.map(\.stringValue) == ["Index \(index)", "Index 2"])
        var other = triple[0].rest
        #expect(try other.decode(Int.self) == index)
        var middle = triple[1].rest
        #expect(try middle.decode(Int.self) == 1)
        #expect(middle.currentIndex == 2)
      }
    }
  }

  /// A matrix read row by row, with every row's container open before any is read.
  struct Matrix: Decodable, Equatable {
    var rows: [[Int]] = []
    var paths: [[String]] = []

    init(from decoder: any Decoder) throws {
      var outer = try decoder.unkeyedContainer()
      var open: [any UnkeyedDecodingContainer] = []
      while !outer.isAtEnd {
        open.append(try outer.nestedUnkeyedContainer())
      }
      for var row in open.reversed() {
        var values: [Int] = []
        while !row.isAtEnd {
          values.append(try row.decode(Int.self))
        }
        rows.insert(values, at: 0)
        paths.append(row.codingPath.map(\.stringValue))
      }
    }
  }

  @Test func containersOpenSideBySideReadTheirOwnArrays() throws {
    let json = Data(#"{"m":[[[1,2],[3],[4,5,6]],[[7]],[]]}"#.utf8)
    let keyed = try KeyedJSONDecoder().decode([String: [Matrix]].self, from: json)
    let foundation = try JSONDecoder().decode([String: [Matrix]].self, from: json)
    #expect(keyed == foundation)
    #expect(keyed["m"]?[0].rows == [[1, 2], [3], [4, 5, 6]])
    #expect(keyed["m"]?[0].paths.last == ["m", "Index 0", "Index 0"])
  }

  struct Point: Decodable, Equatable {
    var x: Int
    var y: Int

    init(x: Int, y: Int) {
      self.x = x
      self.y = y
    }

    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      x = try container.decode(Int.self)
      y = try container.decode(Int.self)
    }
  }

  struct Shape: Decodable, Equatable {
    var points: [Point]
    var origin: Point
  }

  @Test(arguments: [
    (
      #"[{"points":[[1,2],[3,4]],"origin":[0,0]},{"points":[[5,6],[7,"8"]],"origin":[0,0]}]"#,
      ["Index 1", "points", "Index 1", "Index 1"]
    ),
    (#"[{"points":[[1,2]],"origin":[0,null]}]"#, ["Index 0", "origin", "Index 1"]),
    (#"[{"points":[[1,2],[3]],"origin":[0,0]}]"#, ["Index 0", "points", "Index 1", "Index 1"]),
    (#"[{"points":[[1,2],{"x":3}],"origin":[0,0]}]"#, ["Index 0", "points", "Index 1"]),
    (#"[{"points":[[1,2],null],"origin":[0,0]}]"#, ["Index 0", "points", "Index 1"]),
  ])
  func errorsOfElementsReadThroughUnkeyedContainersNameThemAsFoundationDoes(
    json: String, path: [String]
  ) throws {
    let good = Data(#"[{"points":[[1,2],[3,4]],"origin":[5,6]}]"#.utf8)
    #expect(
      try KeyedJSONDecoder().decode([Shape].self, from: good)
        == [Shape(points: [.init(x: 1, y: 2), .init(x: 3, y: 4)], origin: .init(x: 5, y: 6))])
    var reported: [[String]] = []
    for decoder in [KeyedJSONDecoder(), JSONDecoder()] as [any TopLevelTestDecoder] {
      do {
        _ = try decoder.decode([Shape].self, from: Data(json.utf8))
        Issue.record("decoded a broken point")
      } catch let error as DecodingError {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
          reported.append(context.codingPath.map(\.stringValue))
        default:
          Issue.record("unexpected error \(error)")
        }
      }
    }
    #expect(reported == [path, path])
  }

  /// Opens an unkeyed container and notes the decoder weakly.
  struct ProbedPair: Decodable {
    var values: [Int] = []

    init(from decoder: any Decoder) throws {
      JSONContainerReuseTests.CoderProbe.note(decoder, in: decoder.userInfo)
      var container = try decoder.unkeyedContainer()
      while !container.isAtEnd {
        values.append(try container.decode(Int.self))
      }
    }
  }

  @Test func keptFramesAreLetGoWhenTheDecodeEnds() throws {
    let probe = JSONContainerReuseTests.CoderProbe()
    var decoder: KeyedJSONDecoder? = KeyedJSONDecoder()
    decoder?.userInfo[JSONContainerReuseTests.CoderProbe.key] = probe
    let values = try decoder?.decode([ProbedPair].self, from: Data(#"[[1,2],[3],[]]"#.utf8))
    #expect(values?.map(\.values) == [[1, 2], [3], []])
    #expect(probe.objects == 3)
    decoder = nil
    #expect(probe.coder == nil)
  }
}
