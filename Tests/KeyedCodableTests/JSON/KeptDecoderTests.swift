import Foundation
import KeyedCodable
import Testing

/// A ``KeyedJSONDecoder`` keeps the decoder of a small document for its next decode: the next
/// document is parsed into the same storage, and the runs, caches and tables of the last decode
/// serve again. Whatever the documents, their order and their errors, every decode must give
/// what a new decoder gives, and a `Decoder` that a type kept must go on reading its own
/// document.
struct KeptDecoderTests {
  /// A keyed model: nested key paths, a lossy array, a flat sub-object, optionals.
  struct Item: Codable, Keyedable, Equatable {
    var id = 0
    var name = ""
    var size: Int?
    var tags: [String]?
    var place = Place()

    init() {}

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try name <-> map["name"]
      try size <-> map["info.size"]
      try tags <-> map["* info.tags"]
      try place <-> map[""]
    }
  }

  /// The flat part of an ``Item``.
  struct Place: Codable, Keyedable, Equatable {
    var city: String?

    init() {}

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try city <-> map["city"]
    }
  }

  /// A synthesized model that reads members of a large object out of the document's order.
  struct Wide: Codable, Equatable {
    var m7: Int
    var m31: String
    var m2: Int?
    // Read after a member before the last one found: looked up in an index of the object.
    var m25: Int?
    var m1: Int?
  }

  /// An enum with associated values: its synthesized `init(from:)` reads `allKeys`.
  enum Shape: Codable, Equatable {
    case circle(radius: Int)
    case square(side: Int)
  }

  /// A keyed model that reads members by names it makes while it runs, which its plan doesn't
  /// know: `x`, `a`, then `x` again.
  struct Named: Codable, Keyedable, Equatable {
    var values: [Int?] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      values = []
      for name in ["x", "a", "x"] {
        var value: Int?
        try value <-> map[Key(stringValue: name)]
        values.append(value)
      }
    }
  }

  /// A value read through a single value container, whose errors are made for the value the
  /// decoder points at.
  struct Single: Codable, Equatable {
    var value: Int

    init(from decoder: Decoder) throws {
      value = try decoder.singleValueContainer().decode(Int.self)
    }
  }

  /// What a decode gave: the value, or the error's kind, path and message.
  enum Outcome: Equatable {
    case value(String)
    case error(String)

    init(_ body: () throws -> some Equatable) {
      do {
        self = .value(String(reflecting: try body()))
      } catch let error as DecodingError {
        self = .error(Self.describe(error))
      } catch {
        self = .error("\(type(of: error)): \(error)")
      }
    }

    static func describe(_ error: DecodingError) -> String {
      let (kind, context): (String, DecodingError.Context) =
        switch error {
        case .typeMismatch(let type, let context): ("typeMismatch \(type)", context)
        case .valueNotFound(let type, let context): ("valueNotFound \(type)", context)
        case .keyNotFound(let key, let context): ("keyNotFound \(key.stringValue)", context)
        case .dataCorrupted(let context): ("dataCorrupted", context)
        @unknown default: ("unknown", DecodingError.Context(codingPath: [], debugDescription: ""))
        }
      let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      return "\(kind) at \(path): \(context.debugDescription)"
    }
  }

  /// The documents, and the type each is decoded as.
  enum Document {
    case items(String)
    case wide(String)
    case shapes(String)
    case snakeItems(String)
    case named(String)
    case singles(String)
    case singleMembers(String)

    var text: String {
      switch self {
      case .items(let text), .wide(let text), .shapes(let text), .snakeItems(let text),
        .named(let text), .singles(let text), .singleMembers(let text):
        text
      }
    }

    /// Decodes the document with `decoder`, or with `snakeDecoder` for ``snakeItems(_:)``.
    func decode(with decoder: KeyedJSONDecoder, snakeDecoder: KeyedJSONDecoder) -> Outcome {
      let data = Data(text.utf8)
      switch self {
      case .items: return Outcome { try decoder.decode([Item].self, from: data) }
      case .wide: return Outcome { try decoder.decode(Wide.self, from: data) }
      case .shapes: return Outcome { try decoder.decode([Shape].self, from: data) }
      case .snakeItems: return Outcome { try snakeDecoder.decode([Item].self, from: data) }
      case .named: return Outcome { try decoder.decode(Named.self, from: data) }
      case .singles: return Outcome { try decoder.decode([String: [Single]].self, from: data) }
      case .singleMembers:
        return Outcome { try decoder.decode([String: [String: Single]].self, from: data) }
      }
    }
  }

  /// An object of `count` members `m0`..., with `String` values where `strings` says.
  static func wideObject(count: Int, order: [Int], stringAt strings: Set<Int>) -> String {
    let members = order.prefix(count).map { index in
      strings.contains(index) ? #""m\#(index)":"v\#(index)""# : #""m\#(index)":\#(index)"#
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  /// Documents of every shape, valid and not, whose objects fall at the same tape entries with
  /// different names and values, and strings of 16 bytes or more that differ at one entry.
  static var documents: [Document] {
    let long = String(repeating: "x", count: 20)
    var documents: [Document] = [
      .items(#"[{"id":1,"name":"a","info":{"size":3,"tags":["t",1,"u"]},"city":"Oslo"}]"#),
      .items(#"[{"id":2,"name":"\#(long)1","info":{"tags":[]}},{"id":3,"name":"b"}]"#),
      .items(#"[{"name":"\#(long)2","id":4,"city":null},{"id":5,"name":"\#(long)1"}]"#),
      .items(#"[{"id":6,"name":"c","info":{"size":"big"}}]"#),
      .items(#"[{"id":7}]"#),
      .items(#"[{"name":"\#(long)A\#(long)","id":14}]"#),
      .items(#"[{"name":"\#(long)B\#(long)","id":15}]"#),
      .items(#"[{"id":8,"name":"d"},"#),
      .items(#"{"id":9,"name":"e"}"#),
      .items(#"[{"nom":"f","id":10,"name":"\u0067","info":{"size":-1,"tags":["\n",null]}}]"#),
      // The value that fails is at the same entry in both, with another path.
      .singles(#"{"p":[1,true]}"#),
      .singleMembers(#"{"q":{"r":true}}"#),
      .named(#"{"x":1,"a":2,"y":3}"#),
      .named(#"{"x":4,"a":5,"x":6}"#),
      .shapes(#"[{"circle":{"radius":2}},{"square":{"side":3}}]"#),
      .shapes(#"[{"square":{"side":4}},{"circle":{"radius":"r"}}]"#),
      .shapes(#"[{"triangle":{}}]"#),
      .snakeItems(#"[{"id":11,"name":"g","info":{"size":1}}]"#),
      .snakeItems(#"[{"i_d":12,"id":13,"name":"h","city":"Rome"}]"#),
      .items("[" + String(repeating: #"{"id":1,"name":"n"},"#, count: 800) + #"{"id":2}]"#),
    ]
    let orders = [Array(0..<40), Array((0..<40).reversed()), (0..<40).map { ($0 * 7) % 40 }]
    for (index, order) in orders.enumerated() {
      let wide = wideObject(count: 40, order: order, stringAt: [31, [5, 2, 7][index]])
      documents.append(.wide(wide))
    }
    documents.append(.wide(wideObject(count: 20, order: Array(0..<20), stringAt: [])))
    return documents
  }

  @Test("one decoder gives every document what a new decoder gives, in any order")
  func keptDecoderMatchesNewDecoders() {
    let documents = Self.documents
    let decoder = KeyedJSONDecoder()
    let snakeDecoder = KeyedJSONDecoder()
    snakeDecoder.keyDecodingStrategy = .convertFromSnakeCase
    var random = SeededGenerator(seed: 31)
    var order: [Int] = []
    for _ in 0..<12 {
      order += (0..<documents.count).shuffled(using: &random)
    }
    var outcomes = Set<String>()
    for index in order {
      let document = documents[index]
      let expected = document.decode(
        with: KeyedJSONDecoder(),
        snakeDecoder: {
          let fresh = KeyedJSONDecoder()
          fresh.keyDecodingStrategy = .convertFromSnakeCase
          return fresh
        }())
      let kept = document.decode(with: decoder, snakeDecoder: snakeDecoder)
      #expect(kept == expected, "document \(index): \(document.text.prefix(80))")
      outcomes.insert("\(expected)")
    }
    // The documents decode to values and fail in different ways: the comparison means something.
    #expect(outcomes.count == documents.count)
  }

  /// A type that keeps the `Decoder` it was given, and reads it again later.
  final class Keeper: Decodable, @unchecked Sendable {
    let decoder: any Decoder

    init(from decoder: any Decoder) throws {
      self.decoder = decoder
    }

    /// The member `id` of the document the kept decoder reads.
    func id() throws -> Int {
      enum Keys: CodingKey { case id }
      return try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .id)
    }
  }

  @Test("a Decoder a type kept goes on reading its own document after the next decodes")
  func keptDecoderIsNotReused() throws {
    let decoder = KeyedJSONDecoder()
    let keeper = try decoder.decode(Keeper.self, from: Data(#"{"id":1}"#.utf8))
    let next = try decoder.decode([Item].self, from: Data(#"[{"id":2,"name":"b"}]"#.utf8))
    let last = try decoder.decode(Keeper.self, from: Data(#"{"id":3,"name":"c"}"#.utf8))
    #expect(next.map(\.id) == [2])
    #expect(try keeper.id() == 1)
    #expect(try last.id() == 3)
    #expect(try keeper.id() == 1)
  }

  /// Keeps the keyed containers its elements read through.
  final class Shelf: @unchecked Sendable {
    var containers: [KeyedDecodingContainer<Shelved.Keys>] = []
  }

  /// An element that puts its keyed container on the ``Shelf`` in the user info.
  struct Shelved: Decodable {
    enum Keys: CodingKey { case id }

    static let shelfKey = CodingUserInfoKey(rawValue: "kept.shelf")!

    var id: Int

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      id = try container.decode(Int.self, forKey: .id)
      (decoder.userInfo[Self.shelfKey] as? Shelf)?.containers.append(container)
    }
  }

  @Test("keyed containers a type kept go on reading their own document after the next decodes")
  func keptContainersAreNotReused() throws {
    let shelf = Shelf()
    let decoder = KeyedJSONDecoder()
    decoder.userInfo[Shelved.shelfKey] = shelf
    // Containers are kept for reuse once a decoder has made a few: many decodes of one element.
    for id in 0..<8 {
      _ = try decoder.decode(
        [Wide].self,
        from: Data("[\(Self.wideObject(count: 40, order: Array(0..<40), stringAt: [31]))]".utf8))
      _ = try decoder.decode([Shape].self, from: Data(#"[{"circle":{"radius":\#(id)}}]"#.utf8))
    }
    let shelved = try decoder.decode([Shelved].self, from: Data(#"[{"id":1},{"id":2}]"#.utf8))
    #expect(shelved.map(\.id) == [1, 2])
    for id in 0..<8 {
      let items = try decoder.decode([Item].self, from: Data(#"[{"id":\#(id),"name":"n"}]"#.utf8))
      #expect(items.map(\.id) == [id])
      let later = try decoder.decode([Shelved].self, from: Data(#"[{"id":\#(id + 10)}]"#.utf8))
      #expect(later.map(\.id) == [id + 10])
    }
    // Every container kept by the shelf reads the document it was made for.
    let ids = try shelf.containers.map { try $0.decode(Int.self, forKey: .id) }
    #expect(ids == [1, 2] + Array(10..<18))
    // The containers hold their decoders, whose user info holds the shelf.
    shelf.containers.removeAll()
  }

  @Test("invalid JSON between documents leaves the next decode as a new decoder's")
  func invalidDocumentsInBetween() throws {
    let decoder = KeyedJSONDecoder()
    for round in 0..<3 {
      let items = try decoder.decode(
        [Item].self, from: Data(#"[{"id":\#(round),"name":"a"}]"#.utf8))
      #expect(items.map(\.id) == [round])
      #expect(throws: DecodingError.self) {
        try decoder.decode([Item].self, from: Data(#"[{"id":1,"name":"a"#.utf8))
      }
      let shapes = try decoder.decode([Shape].self, from: Data(#"[{"square":{"side":5}}]"#.utf8))
      #expect(shapes == [.square(side: 5)])
    }
  }

  /// Decodes an ``Item`` from a string member of its document with the same decoder, while the
  /// outer decode runs.
  struct Envelope: Decodable {
    var inner: [Item]
    var outer: Int

    static let decoder = KeyedJSONDecoder()

    enum CodingKeys: String, CodingKey { case inner, outer }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let text = try container.decode(String.self, forKey: .inner)
      inner = try Self.decoder.decode([Item].self, from: Data(text.utf8))
      outer = try container.decode(Int.self, forKey: .outer)
    }
  }

  @Test("a decode inside a decode with the same decoder reads its own document")
  func nestedDecodes() throws {
    for round in 0..<4 {
      let text = #"{"inner":"[{\"id\":\#(round),\"name\":\"in\"}]","outer":\#(round + 10)}"#
      let envelope = try Envelope.decoder.decode(Envelope.self, from: Data(text.utf8))
      #expect(envelope.inner.map(\.id) == [round])
      #expect(envelope.outer == round + 10)
    }
  }
}
