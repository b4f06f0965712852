import Foundation
import KeyedCodable
import Testing

/// A `Keyedable` model that reads members by names it makes at run time (all the keys of an
/// object, or names from a list): the JSON decoder finds a name asked for in the document's
/// order by comparing it with the member after the one found last. Each read must give what
/// the same model reads through Foundation's decoder: the first of repeated names, members
/// whose names are only equal as Swift strings, missing members and names asked twice.
struct ReadingOnByNameTests {
  /// The names a ``Reader`` asks for, in order.
  protocol Names {
    static var names: [String] { get }
  }

  /// Reads every member of the object, in the order `keys.all` lists them, and sorts what it
  /// read.
  struct AllMembers: Decodable, Keyedable, Equatable {
    var read: [String] = []

    init() {}

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      guard case .decoding(let keys) = map.type else { return }
      for key in keys.all {
        var value: Int?
        try value <<- map[key]
        read.append("\(key.stringValue)=\(value.map(String.init) ?? "nil")")
      }
      // Foundation lists the keys in hash order, this decoder in the document's.
      read.sort()
    }
  }

  /// Reads the members `N.names` names, in that order.
  struct Reader<N: Names>: Decodable, Keyedable, Equatable {
    var read: [String] = []

    init() {}

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      for name in N.names {
        var value: Int?
        try value <<- map[Key(stringValue: name)]
        read.append("\(name)=\(value.map(String.init) ?? "nil")")
      }
    }
  }

  enum InOrder: Names { static let names = ["a", "b", "c", "d"] }
  enum Backwards: Names { static let names = ["d", "c", "b", "a"] }
  enum WithGaps: Names { static let names = ["a", "x", "b", "b", "c", "y", "d", "a"] }
  enum Accented: Names { static let names = ["\u{E9}", "e\u{301}", "b", "c"] }
  /// Names whose next member, after the first, repeats an earlier name.
  enum AfterRepeat: Names { static let names = ["b", "a", "b", "c"] }
  enum Late: Names { static let names = ["j", "c", "d"] }

  let pair = DecoderPair()

  static let documents = [
    #"{"a":1,"b":2,"c":3,"d":4}"#,
    #"{"a":1,"b":2,"a":3,"b":4,"c":5,"d":6}"#,
    #"{"b":2,"a":1,"b":3,"c":4}"#,
    #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"c":11,"d":12}"#,
    #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10}"#,
    #"{"\u00e9":1,"b":2,"c":3}"#,
    #"{"e\u0301":1,"b":2,"c":3,"é":4}"#,
    #"{"a":1,"b":null,"c":"x","d":4}"#,
    #"{}"#,
  ]

  @Test(arguments: documents)
  func namesReadInAnyOrderGiveFoundationsMembers(_ json: String) throws {
    let outcomes = [
      pair.expectSame(AllMembers.self, from: json).success?.read,
      pair.expectSame(Reader<InOrder>.self, from: json).success?.read,
      pair.expectSame(Reader<Backwards>.self, from: json).success?.read,
      pair.expectSame(Reader<WithGaps>.self, from: json).success?.read,
      pair.expectSame(Reader<Accented>.self, from: json).success?.read,
      pair.expectSame(Reader<AfterRepeat>.self, from: json).success?.read,
      pair.expectSame(Reader<Late>.self, from: json).success?.read,
    ]
    if json == Self.documents[1] {
      #expect(outcomes[3] == ["a=1", "x=nil", "b=2", "b=2", "c=5", "y=nil", "d=6", "a=1"])
      #expect(outcomes[5] == ["b=2", "a=1", "b=2", "c=5"])
    }
    if json == Self.documents[3] {
      #expect(outcomes[1] == ["a=1", "b=2", "c=3", "d=4"])
      #expect(outcomes[6] == ["j=10", "c=3", "d=4"])
    }
  }

  @Test func aMemberOfTheWrongTypeIsReportedAtItsName() throws {
    let outcome = pair.expectSame(
      [Reader<InOrder>].self, from: #"[{"a":1,"b":2,"c":"x","d":4}]"#)
    #expect(outcome == .error(CodingErrorShape("typeMismatch(Int)", at: ["Index 0#0", "c"])))
  }
}
