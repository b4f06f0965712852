import Foundation
import KeyedCodable
import Testing

/// The decoder and encoder objects a ``KeyedJSONDecoder`` or ``KeyedJSONEncoder`` call makes are
/// freed when the call returns, whatever the models did: nothing they keep for reuse while the
/// document is read or written outlives it.
@Suite(.serialized)
struct JSONCoderLifetimeTests {
  /// The `Decoder`s and `Encoder`s seen by the models of the running test, held weakly.
  final class Witness: @unchecked Sendable {
    private let lock = NSLock()
    private var references: [() -> AnyObject?] = []

    func saw(_ coder: Any) {
      let object = coder as AnyObject
      lock.withLock { references.append { [weak object] in object } }
    }

    /// How many were seen, and how many of them are still alive.
    var counts: (seen: Int, alive: Int) {
      lock.withLock { (references.count, references.filter { $0() != nil }.count) }
    }

    func reset() {
      lock.withLock { references.removeAll() }
    }
  }

  static let witness = Witness()

  struct Member: Codable, Keyedable, Equatable {
    var name = ""
    var scores: [Int] = []

    init(name: String, scores: [Int]) {
      self.name = name
      self.scores = scores
    }

    mutating func map(map: KeyMap) throws {
      try name <-> map["profile.name"]
      try scores <-> map["* scores"]
    }

    init(from decoder: any Decoder) throws {
      JSONCoderLifetimeTests.witness.saw(decoder)
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    func encode(to encoder: any Encoder) throws {
      JSONCoderLifetimeTests.witness.saw(encoder)
      try KeyedEncoder(with: encoder).encode(from: self)
    }
  }

  struct Team: Codable, Keyedable, Equatable {
    var members: [Member] = []
    var captain: Member?

    init(members: [Member], captain: Member?) {
      self.members = members
      self.captain = captain
    }

    mutating func map(map: KeyMap) throws {
      try members <-> map["data.members"]
      try captain <-> map["data.captain"]
    }

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }
  }

  static let team = Team(
    members: (0..<40).map { Member(name: "m\($0)", scores: [$0, $0 + 1]) },
    captain: Member(name: "c", scores: []))

  @Test func theDecoderOfADocumentOfKeyedableModelsIsFreedWhenDecodeReturns() throws {
    Self.witness.reset()
    let data = try KeyedJSONEncoder().encode(Self.team)
    Self.witness.reset()
    let decoded = try KeyedJSONDecoder().decode(Team.self, from: data)
    #expect(decoded == Self.team)
    let counts = Self.witness.counts
    #expect(counts.seen == 41)
    #expect(counts.alive == 0)
  }

  @Test func theDecoderIsFreedWhenDecodeThrows() throws {
    Self.witness.reset()
    let json =
      #"{"data":{"members":[{"profile":{"name":"a"},"scores":[]},{"profile":{"name":5}}]}}"#
    #expect(throws: DecodingError.self) {
      try KeyedJSONDecoder().decode(Team.self, from: Data(json.utf8))
    }
    let counts = Self.witness.counts
    #expect(counts.seen == 2)
    #expect(counts.alive == 0)
  }

  @Test func theEncoderOfADocumentOfKeyedableModelsIsFreedWhenEncodeReturns() throws {
    Self.witness.reset()
    let data = try KeyedJSONEncoder().encode(Self.team)
    #expect(try KeyedJSONDecoder().decode(Team.self, from: data) == Self.team)
    Self.witness.reset()
    _ = try KeyedJSONEncoder().encode(Self.team)
    let counts = Self.witness.counts
    #expect(counts.seen == 41)
    #expect(counts.alive == 0)
  }
}
