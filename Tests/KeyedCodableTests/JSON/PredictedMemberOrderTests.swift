import Foundation
import KeyedCodable
import Testing

/// A keyed model's members on ``KeyedJSONDecoder`` are read in one pass over each object, each
/// name first compared with the member that followed the previous one in the last object of
/// the same plan. Whatever the orders, omissions, repeats and unknown names of the objects, and
/// however many types one depth of a document mixes, the values are those the same models read
/// on Foundation's decoder.
struct PredictedMemberOrderTests {
  /// The order in which an ``Ordered`` model maps its members.
  protocol MemberOrder {
    static var names: [String] { get }
  }

  enum ABC: MemberOrder { static let names = ["a", "b", "c"] }
  enum CAB: MemberOrder { static let names = ["c", "a", "b"] }
  enum BC: MemberOrder { static let names = ["b", "c"] }
  enum CA: MemberOrder { static let names = ["c", "a"] }
  enum AC: MemberOrder { static let names = ["a", "c"] }
  enum CB: MemberOrder { static let names = ["c", "b"] }
  enum BAC: MemberOrder { static let names = ["b", "a", "c"] }
  /// The names of ``CA`` again, for a type of its own.
  enum CAAgain: MemberOrder { static let names = ["c", "a"] }

  /// Members that every type below shares by name, mapped in the order `Order` gives: each
  /// `Order` is a type of its own, with a plan of its own.
  struct Ordered<Order: MemberOrder>: Codable, Keyedable, Equatable {
    var a: Int?
    var b: String?
    var c: Int?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      for name in Order.names {
        switch name {
        case "a": try a <-> map["a"]
        case "b": try b <-> map["b"]
        default: try c <-> map["c"]
        }
      }
    }
  }

  /// The names again, one level down: a prediction of one object is never a member of another.
  struct Third: Codable, Keyedable, Equatable {
    var a: Int?
    var innerA: Int?
    var innerB: String?
    var c: Int?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try a <-> map["a"]
      try innerA <-> map["b.a"]
      try innerB <-> map["b.b"]
      try c <-> map["c"]
    }
  }

  /// Long names (compared beyond their first and last eight bytes) that differ in the middle.
  struct Fifth: Codable, Keyedable, Equatable {
    var first: Int?
    var second: Int?
    var a: Int?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try first <-> map["profile_background_one_image_url"]
      try second <-> map["profile_background_two_image_url"]
      try a <-> map["a"]
    }
  }

  /// Ten types read in turn at one depth: more than the plans whose orders a decoder keeps.
  struct Holder: Codable, Keyedable, Equatable {
    var first: Ordered<ABC>?
    var second: Ordered<CAB>?
    var third: Third?
    var fourth: Ordered<BC>?
    var fifth: Fifth?
    var sixth: Ordered<CA>?
    var seventh: Ordered<AC>?
    var eighth: Ordered<CB>?
    var ninth: Ordered<BAC>?
    var tenth: Ordered<CAAgain>?
    var a: Int?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try first <-> map["first"]
      try second <-> map["second"]
      try third <-> map["third"]
      try fourth <-> map["fourth"]
      try fifth <-> map["fifth"]
      try sixth <-> map["sixth"]
      try seventh <-> map["seventh"]
      try eighth <-> map["eighth"]
      try ninth <-> map["ninth"]
      try tenth <-> map["tenth"]
      try a <-> map["a"]
    }
  }

  /// A small linear congruential generator, so that every run reads the same documents.
  struct Generator {
    var state: UInt64

    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  /// An object of `names`, each kept with probability 3/4, some repeated or joined by an unknown
  /// name, in a random order; a name in `objects` holds an object of the same names.
  private func object(
    _ names: [String], objects: Set<String> = [], _ random: inout Generator, depth: Int = 0
  ) -> String {
    var members: [String] = []
    for name in names where random.next(4) != 0 {
      let value: String
      if objects.contains(name), depth == 0 {
        value = object(["a", "b"], random: &random, depth: depth + 1)
      } else if name == "b" {
        value = #""text \#(random.next(100))""#
      } else {
        value = String(random.next(1000))
      }
      members.append(#""\#(name)":\#(value)"#)
      if random.next(8) == 0 {
        // The same name again: the first one is read.
        let again = objects.contains(name) ? #"{"a":-2}"# : name == "b" ? #""again""# : "-1"
        members.append(#""\#(name)":\#(again)"#)
      }
      if random.next(6) == 0 {
        members.append(#""unknown\#(random.next(3))":[1,{"a":2}]"#)
      }
    }
    // Shuffled, or kept in the order of the names, or reversed.
    switch random.next(3) {
    case 0:
      for index in stride(from: members.count - 1, to: 0, by: -1) {
        members.swapAt(index, random.next(index + 1))
      }
    case 1:
      members.reverse()
    default:
      break
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  private func object(_ names: [String], random: inout Generator, depth: Int) -> String {
    object(names, objects: [], &random, depth: depth)
  }

  /// A holder: each of its members an object of the names its type maps, and names it doesn't.
  private func holder(_ random: inout Generator) -> String {
    let members = [
      #""first":\#(object(["a", "b", "c"], &random))"#,
      #""second":\#(object(["c", "a", "b", "d"], &random))"#,
      #""third":\#(object(["a", "b", "c"], objects: ["b"], &random))"#,
      #""fourth":\#(object(["b", "c", "a"], &random))"#,
      #""fifth":\#(object(["profile_background_one_image_url", "profile_background_two_image_url", "a"], &random))"#,
      #""sixth":\#(object(["a", "c"], &random))"#,
      #""seventh":\#(object(["c", "a", "b"], &random))"#,
      #""eighth":\#(object(["b", "c"], &random))"#,
      #""ninth":\#(object(["a", "b", "c"], &random))"#,
      #""tenth":\#(object(["a", "c", "b"], &random))"#,
      #""a":\#(random.next(10))"#,
    ]
    return "{" + members.joined(separator: ",") + "}"
  }

  @Test func membersInAnyOrderAreReadAsOnFoundation() throws {
    var random = Generator(state: 2026)
    let json = "[" + (0..<300).map { _ in holder(&random) }.joined(separator: ",") + "]"
    let decoders = DecoderPair()
    let result = decoders.expectSame([Holder].self, from: json)
    // The documents hold values: not every member came out empty.
    let holders = try #require(result.success)
    #expect(holders.count == 300)
    #expect(holders.filter { $0.third?.innerA != nil }.count > 100)
    #expect(holders.filter { $0.fifth?.second != nil }.count > 100)
    #expect(holders.filter { $0.second?.c != nil && $0.second?.a != nil }.count > 100)
    #expect(holders.filter { $0.ninth?.b != nil && $0.tenth?.c != nil }.count > 100)
    // The same documents again, on a decoder that already read them once.
    decoders.expectSame([Holder].self, from: json)
  }

  @Test func aNameOfAnotherObjectIsNotTakenForThePredictedMember() throws {
    // Learns that "a" follows "b" at the top of `Third`, then reads objects whose inner "b"
    // object has an "a" where the top one would.
    let learning = #"{"third":{"b":{"b":"x","a":1},"a":2,"c":3}}"#
    let misleading = #"{"third":{"c":4,"b":{"a":5},"a":6}}"#
    let json = "[\(learning),\(learning),\(misleading),\(learning),\(misleading)]"
    let holders = try #require(DecoderPair().expectSame([Holder].self, from: json).success)
    #expect(holders.map { $0.third?.a } == [2, 2, 6, 2, 6])
    #expect(holders.map { $0.third?.innerA } == [1, 1, 5, 1, 5])
    #expect(holders.map { $0.third?.c } == [3, 3, 4, 3, 4])
  }

  @Test func longNamesThatDifferInTheMiddleAreToldApart() throws {
    let one =
      #"{"fifth":{"profile_background_one_image_url":1,"profile_background_two_image_url":2}}"#
    let swapped =
      #"{"fifth":{"profile_background_two_image_url":3,"profile_background_one_image_url":4}}"#
    let json = "[\(one),\(one),\(swapped),\(one)]"
    let holders = try #require(DecoderPair().expectSame([Holder].self, from: json).success)
    #expect(holders.map { $0.fifth?.first } == [1, 1, 4, 1])
    #expect(holders.map { $0.fifth?.second } == [2, 2, 3, 2])
  }
}
