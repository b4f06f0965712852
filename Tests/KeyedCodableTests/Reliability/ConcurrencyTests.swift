import Foundation
import KeyedCodable
import Testing

/// Many tasks decode and encode the same Keyedable types at once. They share the plan KeyedCodable
/// caches per type, including while the first decode or encode of a type is still recording it;
/// every result must equal the single-threaded one.
///
/// Each model is generic over a phantom `Tag`, and every instantiation is a distinct type with a
/// plan of its own. The tags are built at run time from ``Origin``, ``Bit0`` and ``Bit1`` (ten
/// levels give 1,024 types per model), so a test can use types that nothing else has touched and
/// make their first use happen under contention.
@Suite(.timeLimit(.minutes(5)))
struct ConcurrencyTests {
  static let taskCount = 8
  static let iterations = Stress.count(1_000)

  // MARK: - Tags

  enum Origin {}
  enum Bit0<Rest> {}
  enum Bit1<Rest> {}

  // MARK: - Models

  /// A model whose mapped properties are gathered in one `Value`, the same for every tag.
  protocol RaceModel: Codable, Keyedable {
    associatedtype Value: Equatable, Sendable
    var value: Value { get }
    static func make(_ value: Value) -> Self
  }

  struct ProfileValue: Equatable, Sendable {
    var id: Int?
    var name: String?
    var city: String?
    var zip: String?
    var tags: [String]?
    var score = 0.0
  }

  /// Nested key paths with shared prefixes, `CodingKeys`, a required optional.
  struct Profile<Tag>: RaceModel {
    enum CodingKeys: String, CodingKey {
      case id = "meta.id"
      case score = "meta.stats.score"
    }

    var value = ProfileValue()

    static func make(_ value: ProfileValue) -> Self { Self(value: value) }

    init(value: ProfileValue) {
      self.value = value
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try value.id <-> map[CodingKeys.id].required()
      try value.name <-> map["user.name"]
      try value.city <-> map["user.address.city"]
      try value.zip <-> map["user.address.zip"]
      try value.tags <-> map["user.tags"]
      try value.score <-> map[CodingKeys.score]
    }
  }

  struct Location: Codable, Equatable, Sendable {
    var latitude: Double
    var longitude: Double
  }

  struct Note: Codable, Equatable, Sendable {
    var note: String
  }

  struct FlatValue: Equatable, Sendable {
    var greeting: String?
    var location: Location?
    var note: Note?
    var version: String?
  }

  /// Flat values with the default and a custom marker, a key read without a delimiter.
  struct Flat<Tag>: RaceModel {
    var value = FlatValue()

    static func make(_ value: FlatValue) -> Self { Self(value: value) }

    init(value: FlatValue) {
      self.value = value
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try value.greeting <-> map["inner.greeting"]
      try value.location <-> map[""]
      try value.note <-> map["__", KeyOptions(flat: "__")]
      try value.version <-> map["v1.2", KeyOptions(delimiter: nil)]
    }
  }

  struct Element: Codable, Equatable, Sendable {
    var element: Int
  }

  struct LossyValue: Equatable, Sendable {
    var items: [Element]?
    var numbers: [Int] = []
    var marked: [Int?]?
  }

  /// Lossy arrays: marker on the whole key, on the last segment, and a custom marker.
  struct Lossy<Tag>: RaceModel {
    var value = LossyValue()

    static func make(_ value: LossyValue) -> Self { Self(value: value) }

    init(value: LossyValue) {
      self.value = value
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try value.items <-> map["* items"]
      try value.numbers <-> map["data.* numbers"]
      try value.marked <-> map["### list", KeyOptions(optionalArrayElements: "### ")]
    }
  }

  struct Method: Codable, Equatable, Sendable {
    var type: String
  }

  struct VaultValue: Equatable, Sendable, CustomStringConvertible {
    var members: [String] = []
    var methods: [String: Method] = [:]

    /// The members, then the methods sorted by key (a dictionary prints in no fixed order).
    var description: String {
      "\(members) "
        + methods.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.type)" }
        .joined(separator: ",")
    }
  }

  /// All keys: the members of the root and of a nested object, read back one by one.
  struct Vault<Tag>: RaceModel {
    var value = VaultValue()

    static func make(_ value: VaultValue) -> Self { Self(value: value) }

    init(value: VaultValue) {
      self.value = value
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      guard case .decoding(let keys) = map.type else {
        try value.methods ->> map["vault"]
        return
      }
      value.members = keys.all.map(\.stringValue).sorted()
      for key in keys.all(for: "vault") {
        var method: Method?
        try? method <<- map[key]
        if let method {
          value.methods[key.stringValue] = method
        }
      }
    }
  }

  struct BranchValue: Equatable, Sendable {
    var kind: String?
    var number: String?
    var iban: String?
    var owner: String?
    var note: String?
  }

  /// A `map(map:)` whose mappings depend on the data: runs of one type take different branches,
  /// whichever of them recorded the type's plan.
  struct Branching<Tag>: RaceModel {
    var value = BranchValue()

    static func make(_ value: BranchValue) -> Self { Self(value: value) }

    init(value: BranchValue) {
      self.value = value
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try value.kind <-> map["kind"]
      switch value.kind {
      case "card":
        try value.number <-> map["card.number"]
      case "bank":
        try value.iban <-> map["bank.iban"]
        try value.owner <-> map["bank.owner.name"]
      default:
        try value.note <-> map["note"]
      }
    }
  }

  struct DogValue: Equatable, Sendable {
    var name: String?
    var legs: Int?
    var breed: String?
  }

  class Animal<Tag>: Codable, Keyedable {
    var name: String!
    var legs: Int?

    required init() {}

    required init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: self)
    }

    func map(map: KeyMap) throws {
      try name <-> map["name"].required()
      try legs <-> map["body.legs"]
    }
  }

  /// A class whose mapping extends its superclass's.
  final class Dog<Tag>: Animal<Tag>, RaceModel {
    var breed: String?

    var value: DogValue { DogValue(name: name, legs: legs, breed: breed) }

    static func make(_ value: DogValue) -> Dog<Tag> {
      let dog = Dog()
      dog.name = value.name
      dog.legs = value.legs
      dog.breed = value.breed
      return dog
    }

    required init() {
      super.init()
    }

    required init(from decoder: Decoder) throws {
      try super.init(from: decoder)
    }

    override func map(map: KeyMap) throws {
      try super.map(map: map)
      try breed <-> map["body.breed"]
    }
  }

  // MARK: - Cases

  enum Kind: Int, CaseIterable, Sendable {
    case profile, flat, lossy, vault, branching, dog

    /// The documents of this kind, each with the JSON its decoded value encodes to (keys
    /// sorted), or the error its decode throws.
    var cases: [(json: String, outcome: String)] {
      switch self {
      case .profile:
        [
          (
            #"{"meta":{"id":1,"stats":{"score":2.5}},"user":{"name":"Ann","tags":["a","b"],"address":{"city":"Oslo","zip":"0150"}}}"#,
            #"{"meta":{"id":1,"stats":{"score":2.5}},"user":{"address":{"city":"Oslo","zip":"0150"},"name":"Ann","tags":["a","b"]}}"#
          ),
          (
            #"{"meta":{"id":2,"stats":{"score":0}},"user":null}"#,
            #"{"meta":{"id":2,"stats":{"score":0}}}"#
          ),
          (
            #"{"meta":{"stats":{"score":1}},"user":{"name":"Bo"}}"#, #"keyNotFound(id) at ["meta"]"#
          ),
          (#"{"meta":{"id":"x"}}"#, #"typeMismatch at ["meta", "id"]"#),
        ]
      case .flat:
        [
          (
            #"{"inner":{"greeting":"hallo"},"latitude":3.4,"longitude":3.2,"note":"n","v1.2":"dotted"}"#,
            #"{"inner":{"greeting":"hallo"},"latitude":3.4,"longitude":3.2,"note":"n","v1.2":"dotted"}"#
          ),
          (#"{"latitude":3.4,"v1":{"2":"nested"}}"#, "{}"),
          (#"{"inner":{"greeting":5}}"#, #"typeMismatch at ["inner", "greeting"]"#),
          (#"{"latitude":"north","longitude":1}"#, #"typeMismatch at ["latitude"]"#),
        ]
      case .lossy:
        [
          (
            #"{"items":[{"element":1},{},{"element":3}],"data":{"numbers":[1,"2",3]},"list":[1,null,"x",2]}"#,
            #"{"data":{"numbers":[1,3]},"items":[{"element":1},{"element":3}],"list":[1,null,2]}"#
          ),
          (#"{"data":{"numbers":[]}}"#, #"{"data":{"numbers":[]}}"#),
          (#"{"items":null,"data":{"numbers":[null,{}]}}"#, #"{"data":{"numbers":[]}}"#),
          (#"{"data":{"numbers":{}}}"#, #"typeMismatch at ["data", "numbers"]"#),
        ]
      case .vault:
        [
          (
            #"{"vault":{"0":{"type":"card"},"1":{"type":"paypal"},"x.y":{"type":"dotted"},"bad":{}},"other":1}"#,
            #"{"vault":{"0":{"type":"card"},"1":{"type":"paypal"},"x.y":{"type":"dotted"}}}"#
          ),
          (#"{"vault":[]}"#, #"{"vault":{}}"#),
          ("{}", #"{"vault":{}}"#),
        ]
      case .branching:
        [
          (
            #"{"kind":"card","card":{"number":"4111"}}"#,
            #"{"card":{"number":"4111"},"kind":"card"}"#
          ),
          (
            #"{"kind":"bank","bank":{"iban":"NO93","owner":{"name":"Ann"}}}"#,
            #"{"bank":{"iban":"NO93","owner":{"name":"Ann"}},"kind":"bank"}"#
          ),
          (#"{"note":"none","card":{"number":"4111"}}"#, #"{"note":"none"}"#),
          (#"{"kind":"bank","bank":{"iban":7}}"#, #"typeMismatch at ["bank", "iban"]"#),
        ]
      case .dog:
        [
          (
            #"{"name":"Rex","body":{"legs":4,"breed":"Collie"}}"#,
            #"{"body":{"breed":"Collie","legs":4},"name":"Rex"}"#
          ),
          (#"{"name":"Ant"}"#, #"{"name":"Ant"}"#),
          (#"{"body":{"legs":4}}"#, "keyNotFound(name) at []"),
        ]
      }
    }
  }

  /// One decode or encode to perform, and the results it gives.
  struct Job: Hashable, Sendable {
    var kind: Kind
    var variant: Int
    /// Whether the model type is first used to encode (a value made from the reference type's
    /// decode) rather than to decode.
    var encodeFirst: Bool
  }

  /// What a job gave: the decoded value and its JSON, or the error.
  struct Outcome: Equatable, Sendable, CustomStringConvertible {
    var value: String
    var json: String

    var description: String { "\(json) from \(value)" }
  }

  // MARK: - Running jobs

  /// Runs `job` with the model types of `Tag`, reading values to encode with the `Origin` types.
  static func outcome<Tag>(of job: Job, tag: Tag.Type) -> Outcome {
    let json = job.kind.cases[job.variant].json
    switch job.kind {
    case .profile: return outcome(Profile<Tag>.self, Profile<Origin>.self, json, job.encodeFirst)
    case .flat: return outcome(Flat<Tag>.self, Flat<Origin>.self, json, job.encodeFirst)
    case .lossy: return outcome(Lossy<Tag>.self, Lossy<Origin>.self, json, job.encodeFirst)
    case .vault: return outcome(Vault<Tag>.self, Vault<Origin>.self, json, job.encodeFirst)
    case .branching:
      return outcome(Branching<Tag>.self, Branching<Origin>.self, json, job.encodeFirst)
    case .dog: return outcome(Dog<Tag>.self, Dog<Origin>.self, json, job.encodeFirst)
    }
  }

  /// Runs `job` with the tag whose number is `number` in `bits` binary digits.
  static func outcome<Tag>(of job: Job, tag: Tag.Type, number: Int, bits: Int) -> Outcome {
    guard bits > 0 else { return outcome(of: job, tag: Tag.self) }
    if number & 1 == 0 {
      return outcome(of: job, tag: Bit0<Tag>.self, number: number >> 1, bits: bits - 1)
    }
    return outcome(of: job, tag: Bit1<Tag>.self, number: number >> 1, bits: bits - 1)
  }

  /// Runs `job` with the model types of type number `number` (`0..<1024`).
  static func outcome(of job: Job, typeNumber number: Int) -> Outcome {
    outcome(of: job, tag: Origin.self, number: number, bits: 10)
  }

  static func outcome<Model: RaceModel, Reference: RaceModel>(
    _ model: Model.Type, _ reference: Reference.Type, _ json: String, _ encodeFirst: Bool
  ) -> Outcome where Model.Value == Reference.Value {
    do {
      if encodeFirst {
        let made = Model.make(try decode(Reference.self, from: json).value)
        let encoded = try encodeJSON(made)
        return Outcome(value: "\(try decode(Model.self, from: json).value)", json: encoded)
      }
      let decoded = try decode(Model.self, from: json)
      return Outcome(value: "\(decoded.value)", json: try encodeJSON(decoded))
    } catch {
      return Outcome(value: "error", json: shape(of: error)?.description ?? "\(error)")
    }
  }

  static let allJobs: [Job] = Kind.allCases.flatMap { kind in
    kind.cases.indices.flatMap { variant in
      [false, true].map { Job(kind: kind, variant: variant, encodeFirst: $0) }
    }
  }

  /// Runs `jobFor(task, iteration)` with `typeFor(task, iteration)` in ``taskCount`` concurrent
  /// tasks of ``iterations`` each, and returns every outcome that differs from `expected`.
  static func race(
    expected: [Job: Outcome], job jobFor: @escaping @Sendable (Int, Int) -> Job,
    typeNumber typeFor: @escaping @Sendable (Int, Int) -> Int
  ) async throws -> [String] {
    try await withThrowingTaskGroup(of: [String].self) { group in
      for task in 0..<taskCount {
        group.addTask {
          var mismatches: [String] = []
          for iteration in 0..<iterations {
            let job = jobFor(task, iteration)
            let outcome = outcome(of: job, typeNumber: typeFor(task, iteration))
            if outcome != expected[job], mismatches.count < 5 {
              mismatches.append(
                "task \(task) iteration \(iteration) \(job): \(outcome), expected "
                  + (expected[job]?.description ?? "nothing"))
            }
            // Interleave the tasks, so that they reach each type at about the same time.
            await Task.yield()
          }
          return mismatches
        }
      }
      var mismatches: [String] = []
      for try await taskMismatches in group {
        mismatches += taskMismatches
      }
      return mismatches
    }
  }

  // MARK: - Tests

  @Test func theSingleThreadedOutcomesAreTheDocumentedOnes() {
    for job in Self.allJobs {
      let outcome = Self.outcome(of: job, tag: Origin.self)
      #expect(outcome.json == job.kind.cases[job.variant].outcome, "\(job)")
      #expect(outcome == Self.outcome(of: job, tag: Origin.self), "\(job), second run")
    }
  }

  @Test func concurrentUsesOfOneTypePerModelMatchTheSingleThreadedOutcomes() async throws {
    // One type per model, warmed single-threaded: the single-threaded outcomes are the reference.
    let typeNumber = 1_023
    var expected: [Job: Outcome] = [:]
    for job in Self.allJobs {
      expected[job] = Self.outcome(of: job, typeNumber: typeNumber)
      #expect(expected[job]?.json == job.kind.cases[job.variant].outcome, "\(job)")
    }
    let jobs = Self.allJobs
    let mismatches = try await Self.race(
      expected: expected, job: { task, iteration in jobs[(task * 7 + iteration) % jobs.count] },
      typeNumber: { _, _ in typeNumber })
    #expect(mismatches.count == 0, "\(mismatches.joined(separator: "\n"))")
  }

  @Test func theFirstUsesOfFreshTypesRaceAndMatchTheSingleThreadedOutcomes() async throws {
    // Every iteration uses a type nothing has used yet: all tasks reach it together, half of
    // them to decode first, half to encode first. The reference is the Origin types' outcome.
    var expected: [Job: Outcome] = [:]
    for job in Self.allJobs {
      expected[job] = Self.outcome(of: job, tag: Origin.self)
    }
    let kinds = Kind.allCases
    let mismatches = try await Self.race(
      expected: expected,
      job: { task, iteration in
        let kind = kinds[iteration % kinds.count]
        let variant = (iteration / kinds.count + task / 2) % kind.cases.count
        return Job(kind: kind, variant: variant, encodeFirst: task % 2 == 0)
      },
      typeNumber: { _, iteration in iteration })
    #expect(mismatches.count == 0, "\(mismatches.joined(separator: "\n"))")
  }
}
