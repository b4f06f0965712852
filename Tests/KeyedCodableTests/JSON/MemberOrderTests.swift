import Foundation
import KeyedCodable
import Testing

/// Whatever the order a keyed container is asked for members in, and however names repeat, it
/// reads the members Foundation's decoder reads (the first of a repeated name), in small
/// objects (scanned) and large ones (indexed) alike.
struct MemberOrderTests {
  /// Reads the members named in `userInfo[order]`, in that order, as optional `Int`s, and
  /// whether each is there.
  struct Reader: Decodable, Equatable {
    static let order = CodingUserInfoKey(rawValue: "order")!
    var values: [String]

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      let names = decoder.userInfo[Self.order] as? [String] ?? []
      values = try names.map { name in
        let key = AnyKey(stringValue: name)
        let present = container.contains(key)
        let value = try container.decodeIfPresent(Int.self, forKey: key)
        return "\(name)=\(present ? value.map(String.init) ?? "null" : "absent")"
      }
    }
  }

  /// Reads the members named in `userInfo[order]` once each, in that order, as optional `Int`s:
  /// the way a synthesized model asks, with nothing asked for twice.
  struct SingleReader: Decodable, Equatable {
    var values: [String]

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      let names = decoder.userInfo[Reader.order] as? [String] ?? []
      values = try names.map { name in
        let value = try container.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: name))
        return "\(name)=\(value.map(String.init) ?? "nil")"
      }
    }
  }

  /// Decodes the objects `members` (each a list of name and value) as an array with both
  /// decoders, reading `order` with both readers, and expects the same outcome.
  private func expectSameReads(
    objects: [[(String, Int)]], order: [String], _ note: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let decoders = DecoderPair()
    decoders.ours.userInfo[Reader.order] = order
    decoders.foundation.userInfo[Reader.order] = order
    let json =
      "["
      + objects.map { members in
        "{" + members.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",") + "}"
      }.joined(separator: ",") + "]"
    let single = decoders.decode([SingleReader].self, from: json)
    #expect(single.ours == single.foundation, "\(note)", sourceLocation: sourceLocation)
    let twice = decoders.decode([Reader].self, from: json)
    #expect(twice.ours == twice.foundation, "\(note)", sourceLocation: sourceLocation)
  }

  /// Decodes `json` with both decoders, asking for `order`, and expects the same outcome.
  private func expectSameReads(_ json: String, order: [String], _ note: String = "") {
    let decoders = DecoderPair()
    decoders.ours.userInfo[Reader.order] = order
    decoders.foundation.userInfo[Reader.order] = order
    let (ours, foundation) = decoders.decode([Reader].self, from: "[\(json),\(json)]")
    #expect(ours == foundation, "\(json) read in order \(order) \(note)")
  }

  @Test func membersReadInTheDocumentsOrder() {
    expectSameReads(#"{"a":1,"b":2,"c":3}"#, order: ["a", "b", "c"])
    expectSameReads(#"{"a":1,"b":2,"c":3}"#, order: ["c", "b", "a"])
    expectSameReads(#"{"a":1,"b":2,"c":3}"#, order: ["a", "c", "b", "x", "a"])
    expectSameReads(#"{"a":1,"b":null,"c":3}"#, order: ["a", "b", "c", "d"])
  }

  @Test func aRepeatedNameIsTheFirstMemberWhateverTheOrder() {
    // Read in order, the member after the last one found is the second "a".
    expectSameReads(#"{"a":1,"b":2,"a":3}"#, order: ["a", "b", "a"])
    expectSameReads(#"{"b":2,"a":1,"a":3}"#, order: ["b", "a", "a"])
    expectSameReads(#"{"x":0,"a":1,"b":2,"a":3}"#, order: ["b", "a"])
    expectSameReads(#"{"x":0,"a":1,"b":2,"a":3}"#, order: ["x", "b", "a"])
    // Long names that share their first and last eight bytes.
    let long1 = "profile_background_image_url"
    let long2 = "profile_background_xxxxx_url"
    expectSameReads(
      #"{"\#(long1)":1,"\#(long2)":2,"\#(long1)":3}"#, order: [long1, long2, long1])
    // A large object (indexed) with a repeat after many members.
    let names = (0..<20).map { "name\($0)" }
    let members = names.enumerated().map { #""\#($1)":\#($0)"# } + [#""name3":99"#]
    let json = "{" + members.joined(separator: ",") + "}"
    expectSameReads(json, order: names + ["name3"])
    expectSameReads(json, order: Array(names.prefix(3)) + ["name19", "name3"])
  }

  @Test func randomObjectsReadInRandomOrders() {
    var random = SeededGenerator(seed: 21)
    let pool = [
      "a", "b", "c", "id", "name", "url", "", "a_long_member_name_1", "a_long_member_name_2",
    ]
    for round in 0..<400 {
      let count = Int(random.next() % 24)
      var members: [String] = []
      var names: [String] = []
      for index in 0..<count {
        let name =
          random.next() % 3 == 0 ? pool[Int(random.next() % UInt64(pool.count))] : "m\(index)"
        names.append(name)
        members.append(random.next() % 7 == 0 ? #""\#(name)":null"# : #""\#(name)":\#(index)"#)
      }
      let json = "{" + members.joined(separator: ",") + "}"
      // Mostly the document's order, with names skipped, repeated and out of place.
      var order: [String] = []
      for name in names where random.next() % 5 != 0 { order.append(name) }
      for _ in 0..<Int(random.next() % 4) {
        let extra = random.next() % 2 == 0 ? pool[Int(random.next() % UInt64(pool.count))] : "zz"
        order.insert(extra, at: Int(random.next() % UInt64(order.count + 1)))
      }
      expectSameReads(json, order: order, "round \(round)")
    }
  }

  /// Names of every length up to 24 bytes, and names that differ from them in one byte at each
  /// place, are told apart in objects of every size, read in the document's order, backwards
  /// and shuffled.
  @Test func namesDifferingInOneByteAreToldApart() {
    let base = Array("abcdefghijklmnopqrstuvwx".utf8)
    var names: [String] = []
    for length in 0...base.count {
      names.append(String(decoding: base.prefix(length), as: UTF8.self))
      for place in 0..<length {
        var bytes = Array(base.prefix(length))
        bytes[place] = UInt8(ascii: "Z")
        names.append(String(decoding: bytes, as: UTF8.self))
      }
    }
    var random = SeededGenerator(seed: 12)
    for size in [4, 5, 7, 8, 9, 16, 40, names.count] {
      var objects: [[(String, Int)]] = []
      var start = 0
      while start < names.count {
        let chunk = names[start..<min(start + size, names.count)]
        objects.append(chunk.enumerated().map { ($1, start + $0) })
        start += size
      }
      // Read every name of every object in each object, so each reads names it lacks too.
      let readings = [names, names.reversed(), names.shuffled(using: &random)]
      for (number, order) in readings.enumerated() {
        expectSameReads(objects: objects, order: order, "objects of \(size), order \(number)")
      }
      // Each object read in its own order: members found one after the other.
      for object in objects.prefix(3) {
        expectSameReads(
          objects: Array(repeating: object, count: 3), order: object.map(\.0),
          "objects of \(size), in order")
      }
    }
  }

  /// One array whose objects change order part way, some repeating a name after the members the
  /// model reads, some lacking members: every object reads what Foundation reads, however the
  /// objects before it were read.
  @Test func objectsWhoseOrderChangesFromObjectToObject() {
    var random = SeededGenerator(seed: 33)
    let names = (0..<12).map { "member\($0)" }
    for round in 0..<20 {
      var objects: [[(String, Int)]] = []
      for index in 0..<80 {
        var members = names.enumerated().map { ($1, round * 1000 + index * 20 + $0) }
        switch (index / 10 + round) % 4 {
        case 0: break
        case 1: members.shuffle(using: &random)
        case 2: members.reverse()
        default: members.removeAll { _ in random.next() % 3 == 0 }
        }
        if random.next() % 4 == 0, let repeated = members.randomElement(using: &random) {
          members.insert(
            (repeated.0, -index), at: Int(random.next() % UInt64(members.count + 1)))
        }
        if random.next() % 4 == 0 {
          members.insert(("unknown\(index)", 0), at: Int(random.next() % UInt64(members.count + 1)))
        }
        objects.append(members)
      }
      var order = names
      if round % 5 == 4 { order.insert("member11", at: 0) }
      if round % 5 == 3 { order.append("member0") }
      expectSameReads(objects: objects, order: order, "round \(round)")
    }
  }

  /// In objects of 8 to 123 members (from the fewest that are read on rather than scanned), a
  /// name asked for after the lookups have passed a member of that name (found, or skipped on
  /// the way to another) reads that first member, not a later one: the filter of the names
  /// passed has no false negatives, however many names it holds.
  @Test func namesPassedInLargeObjectsAreFoundFirst() {
    var random = SeededGenerator(seed: 45)
    for count in [5, 8, 30, 60, 120] {
      let names = (0..<count).map { "field_\($0)" }
      for round in 0..<12 {
        var members = names.enumerated().map { ($1, $0) }
        // Each name of a few repeats later, with another value.
        for _ in 0..<3 {
          let name = names[Int(random.next() % UInt64(count))]
          members.append((name, -1))
        }
        // Read in the document's order, skipping runs of members, then names from anywhere.
        var order: [String] = []
        for name in names where random.next() % 4 != 0 { order.append(name) }
        for _ in 0..<4 { order.append(names[Int(random.next() % UInt64(count))]) }
        order.append("missing_\(round)")
        expectSameReads(
          objects: [members, members], order: order, "\(count) members, round \(round)")
      }
    }
  }

  /// Synthesized models read a document written in their own order and one written in another,
  /// with members they don't know between theirs.
  @Test func synthesizedModelsReadEitherOrder() throws {
    struct Model: Codable, Equatable {
      var id: Int
      var name: String
      var tags: [String]
      var score: Double?
      var active: Bool
    }
    let decoders = DecoderPair()
    for json in [
      #"{"id":1,"name":"a","tags":["x"],"score":0.5,"active":true}"#,
      #"{"active":false,"score":null,"tags":[],"name":"b","id":2}"#,
      #"{"id":3,"extra":1,"name":"c","more":{"id":9},"tags":[],"active":true,"id":4}"#,
      #"{"id":3,"name":"c","tags":[],"active":true,"name":"d"}"#,
    ] {
      decoders.expectSame(Model.self, from: json)
      decoders.expectSame([Model].self, from: "[\(json),\(json)]")
    }
  }
}
