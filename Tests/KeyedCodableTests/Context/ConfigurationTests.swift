import Foundation
import KeyedCodable
import KeyedExamples
import Testing

@Suite("Context: configurations", .bothCoders)
struct ConfigurationTests {
  // MARK: - Story 1: one model, two screens

  @Test func aFullProfileDecodesEverything() throws {
    let user = try decode(User.self, from: Example.userJSON)
    #expect(
      user.biography
        == "iOS Developer writing nifty apps. I was born and raised in La Paz, Bolivia many moons ago."
    )
    #expect(user.interests == ["Programming", "Pullip", "The Legend of Zelda"])
    #expect(user.videogames?.map(\.personalRating) == [10, 10])
  }

  @Test func theSearchListConfigurationShortensTheSameModel() throws {
    let user = try decode(
      User.self, from: Example.userJSON, with: .configuration(UserConfiguration.searchList))
    #expect(user.biography == "iOS Developer writi…")
    #expect(user.interests == ["Programming", "Pullip"])
    #expect(user.videogames?.map(\.personalRating) == [nil, nil])
    #expect(user.videogames?.map(\.hoursPlayed) == [900, 800])
    #expect(user.username == "AndyIbanez")
  }

  @Test func aConfigurationWithoutLimitsChangesNothing() throws {
    let plain = try decode(User.self, from: Example.userJSON)
    let configured = try decode(
      User.self, from: Example.userJSON, with: .configuration(UserConfiguration()))
    #expect(plain == configured)
  }

  // MARK: - Story 3: nested configuration

  @Test func anEnvelopeHandsItsConfigurationToEveryElement() throws {
    let search = try decode(UserSearch.self, from: Example.userSearchJSON)
    #expect(search.resultCount == 1)
    #expect(search.users.map(\.biography) == ["iOS Developer writi…"])
    #expect(search.users.first?.interests == ["Programming", "Pullip"])
    // The user handed its own configuration to its videogames: no ratings.
    #expect(search.users.first?.videogames?.map(\.personalRating) == [nil, nil])
  }

  @Test func aNestedModelReadsWhatItsParentHandedItNotTheTopLevelConfiguration() throws {
    // The caller asks for no limits; the envelope hands the search list's limits to its users.
    let search = try decode(
      UserSearch.self, from: Example.userSearchJSON,
      with: .configuration(UserConfiguration(biographyMaxLength: 5, maxInterests: 1)))
    #expect(search.users.first?.biography == "iOS Developer writi…")
    #expect(search.users.first?.interests == ["Programming", "Pullip"])
  }

  @Test func aConfigurationHandedToOneMappingStaysWithIt() throws {
    struct Pair: Codable, Keyedable {
      var limited = User()
      var full = User()
      mutating func map(map: KeyMap) throws {
        try limited <-> map["a"].configured(with: UserConfiguration(maxInterests: 1))
        try full <-> map["b"]
      }
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let json = #"{"a": {"interests": ["x", "y"]}, "b": {"interests": ["x", "y"]}}"#
    let pair = try decode(Pair.self, from: json)
    #expect(pair.limited.interests == ["x"])
    #expect(pair.full.interests == ["x", "y"])
  }

  @Test func encodingReadsTheConfigurationToo() throws {
    var user = User()
    user.userId = 7
    user.videogames = [Videogame()]
    user.videogames?[0].personalRating = 9
    user.videogames?[0].hoursPlayed = 3
    try expectEncoded(
      user, with: .configuration(UserConfiguration.searchList),
      #"{"userId": 7, "videogames": [{"hoursPlayed": 3}]}"#)
    try expectEncoded(
      user, #"{"userId": 7, "videogames": [{"hoursPlayed": 3, "personalRating": 9}]}"#)
  }

  // MARK: - Story 2: required outside data

  @Test func requiredConfigurationIsReadFromTheContext() throws {
    let member = try decode(
      Member.self, from: Example.memberJSON, with: .configuration(Example.favorites))
    #expect(member.name == "John Appleseed")
    #expect(member.membershipPoints == 192)
    #expect(member.favorites == Example.favorites)
  }

  @Test func aMissingRequiredConfigurationThrowsNamingItsType() throws {
    expectError("valueNotFound", at: []) { try decode(Member.self, from: Example.memberJSON) }
    do {
      _ = try decode(Member.self, from: Example.memberJSON)
    } catch DecodingError.valueNotFound(let type, let context) {
      #expect(type is Favorites.Type)
      #expect(
        context.debugDescription
          == "No configuration of type Favorites was given to map Member. Pass one with "
          + "MappingContext.configuration(_:), or from the parent's mapping with configured(with:)."
      )
    }
  }

  @Test func aMissingConfigurationInsideAnArrayNamesTheElementsPath() throws {
    expectError("valueNotFound", at: ["Index 0"]) {
      try decode([Member].self, from: "[\(Example.memberJSON), \(Example.memberJSON)]")
    }
  }

  @Test func theLastConfigurationOfATypeWins() throws {
    let other = Favorites(genre: .comedy, directorName: "Nora Ephron", movieIDs: [])
    let member = try decode(
      Member.self, from: Example.memberJSON,
      with: .configuration(Example.favorites).configuration(other))
    #expect(member.favorites == other)
  }
}

@Suite("Context: top-level coders")
struct TopLevelCoderTests {
  @Test func propertyListsDecodeAndEncodeWithAContext() throws {
    let member = try JSONDecoder().decode(
      Member.self, from: Data(Example.memberJSON.utf8), with: .configuration(Example.favorites))
    let plist = try PropertyListEncoder().encode(member)
    let decoded = try PropertyListDecoder().decode(
      Member.self, from: plist, with: .configuration(Example.favorites))
    #expect(decoded == member)
    #expect(throws: DecodingError.self) {
      try PropertyListDecoder().decode(Member.self, from: plist)
    }
  }

  /// A top-level decoder of another library, adopted in one line.
  struct TextDecoder: KeyedTopLevelDecoder {
    func decode<Value: Decodable>(_ type: Value.Type, from input: String) throws -> Value {
      try JSONDecoder().decode(Value.self, from: Data(input.utf8))
    }
  }

  @Test func anyTopLevelDecoderTakesAContext() throws {
    let member = try TextDecoder().decode(
      Member.self, from: Example.memberJSON, with: .configuration(Example.favorites))
    #expect(member.favorites == Example.favorites)
  }

  @Test func withMappingContextReachesAnyDecoder() throws {
    let member = try withMappingContext(.configuration(Example.favorites)) {
      try TextDecoder().decode(Member.self, from: Example.memberJSON)
    }
    #expect(member.favorites == Example.favorites)
  }

  @Test func withMappingContextWorksAcrossAwait() async throws {
    let member = try await withMappingContext(.configuration(Example.favorites)) {
      await Task.yield()
      return try JSONDecoder().decode(Member.self, from: Data(Example.memberJSON.utf8))
    }
    #expect(member.favorites == Example.favorites)
  }

  @Test func aHandWrittenInitCanTakeAConfiguration() throws {
    struct Limited: Decodable, Keyedable {
      var interests: [String] = []
      mutating func map(map: KeyMap) throws {
        try interests <-> map["interests"]
        if let limit = map.configuration(UserConfiguration.self)?.maxInterests {
          interests = Array(interests.prefix(limit))
        }
      }
      init(from decoder: Decoder) throws {
        try KeyedDecoder(with: decoder).decode(
          to: &self, configuration: UserConfiguration(maxInterests: 1))
      }
    }
    let value = try JSONDecoder().decode(Limited.self, from: Data(#"{"interests":["a","b"]}"#.utf8))
    #expect(value.interests == ["a"])
  }

  @Test func mappingContextCurrentIsVisibleOutsideMapMap() throws {
    struct Reader: Decodable {
      var limit: Int?
      init(from decoder: Decoder) throws {
        limit = MappingContext.current.flatMap { _ in 1 }
      }
    }
    #expect(try JSONDecoder().decode(Reader.self, from: Data("{}".utf8)).limit == nil)
    let configured = try JSONDecoder().decode(
      Reader.self, from: Data("{}".utf8), with: .configuration(UserConfiguration()))
    #expect(configured.limit == 1)
  }
}

// MARK: - Configurations of a class or protocol type

private class ConfiguredLimits: @unchecked Sendable {
  var maximum: Int { 10 }
}

private final class TightLimits: ConfiguredLimits, @unchecked Sendable {
  override var maximum: Int { 2 }
}

private protocol Naming: Sendable {
  var prefix: String { get }
}

private struct Shouting: Naming {
  var prefix: String { "!" }
}

/// Reads a configuration of a class type and one of a protocol type.
private struct Limited: Codable, Keyedable {
  var values: [Int] = []
  var name = ""

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try values <-> map["values"]
    try name <-> map["name"]
    if map.type.isDecoding {
      if let limits = map.configuration(ConfiguredLimits.self) {
        values = Array(values.prefix(limits.maximum))
      }
      if let naming = map.configuration((any Naming).self) {
        name = naming.prefix + name
      }
    }
  }
}

@Suite("Context: configurations of class and protocol types", .bothCoders)
struct ConfigurationTypeTests {
  let json = #"{"values": [1, 2, 3, 4], "name": "x"}"#

  @Test func aSubclassOrAConformingValueIsReadAsTheTypeItWasGivenAs() throws {
    let context = MappingContext.configuration(TightLimits() as ConfiguredLimits)
      .configuration(Shouting() as any Naming)
    let value = try decode(Limited.self, from: json, with: context)
    #expect(value.values == [1, 2])
    #expect(value.name == "!x")
  }

  @Test func aConfigurationGivenAsItsOwnTypeIsNotFoundUnderAnother() throws {
    let context = MappingContext.configuration(TightLimits()).configuration(Shouting())
    let value = try decode(Limited.self, from: json, with: context)
    #expect(value.values == [1, 2, 3, 4])
    #expect(value.name == "x")
  }
}

// MARK: - Many configurations, and how long they live

private struct Tagged<Tag>: Sendable {
  let value: Int
}

private enum First {}
private enum Second {}
private enum Third {}
private enum Fourth {}
private enum Fifth {}
private enum Sixth {}

/// Counts its instances, to see when a context lets go of a configuration.
private final class Tracked: @unchecked Sendable {
  nonisolated(unsafe) static var alive = 0
  let limit: Int

  init(limit: Int) {
    self.limit = limit
    Tracked.alive += 1
  }

  deinit {
    Tracked.alive -= 1
  }
}

/// Reads six configurations of six types, and a class one.
private struct ManyReader: Codable, Keyedable {
  var values: [Int] = []
  var read: [Int?] = []

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try values <-> map["values"]
    if map.type.isDecoding {
      read = [
        map.configuration(Tagged<First>.self)?.value,
        map.configuration(Tagged<Second>.self)?.value,
        map.configuration(Tagged<Third>.self)?.value,
        map.configuration(Tagged<Fourth>.self)?.value,
        map.configuration(Tagged<Fifth>.self)?.value,
        map.configuration(Tagged<Sixth>.self)?.value,
        map.configuration(Tracked.self)?.limit,
      ]
    }
  }
}

@Suite("Context: many configurations", .bothCoders, .serialized)
struct ManyConfigurationTests {
  @Test func eachOfManyConfigurationsIsReadAsItsOwnType() throws {
    let context = MappingContext.configuration(Tagged<Third>(value: 3))
      .configuration(Tagged<First>(value: 1))
      .configuration(Tagged<Sixth>(value: 6))
      .configuration(Tagged<Second>(value: 2))
      .configuration(Tagged<Fifth>(value: 5))
      // Replaces the first one of its type, keeping the others.
      .configuration(Tagged<Third>(value: 33))
    let value = try decode(
      [ManyReader].self, from: #"[{"values":[1]},{"values":[]}]"#, with: context)
    #expect(value.map(\.read) == Array(repeating: [1, 2, 33, nil, 5, 6, nil], count: 2))
    let none = try decode(ManyReader.self, from: #"{"values":[]}"#)
    #expect(none.read == Array(repeating: nil, count: 7))
  }

  @Test func aContextKeepsItsConfigurationsAliveAndNoLonger() throws {
    let before = Tracked.alive
    var context: MappingContext? = .configuration(Tracked(limit: 4))
    var copy = context
    #expect(Tracked.alive == before + 1)
    // Replaced in one copy: the other still holds the first.
    copy = copy?.configuration(Tracked(limit: 7))
    #expect(Tracked.alive == before + 2)
    let first = try decode(ManyReader.self, from: #"{"values":[]}"#, with: context ?? .init())
    let second = try decode(ManyReader.self, from: #"{"values":[]}"#, with: copy ?? .init())
    #expect(first.read.last == 4)
    #expect(second.read.last == 7)
    context = nil
    #expect(Tracked.alive == before + 1)
    copy = nil
    #expect(Tracked.alive == before)
  }

  @Test func manyMoreConfigurationsAreEachFoundAndReplaced() throws {
    /// Adds `Tagged<Tag>`, `Tagged<Tagged<Tag>>`, ... `depth` types deep; returns how many.
    func addNested<Tag>(_ tag: Tag.Type, _ depth: Int, to context: inout MappingContext) -> Int {
      context = context.configuration(Tagged<Tag>(value: -depth))
      return depth > 1 ? 1 + addNested(Tagged<Tag>.self, depth - 1, to: &context) : 1
    }
    var context = MappingContext()
    let count =
      addNested(First.self, 8, to: &context) + addNested(Second.self, 8, to: &context)
      + addNested(Fourth.self, 8, to: &context)
    #expect(count == 24)
    // The reader's own types among and after the twenty-four, one of them replaced twice.
    context = context.configuration(Tagged<First>(value: 1)).configuration(Tagged<Third>(value: 3))
      .configuration(Tagged<Fifth>(value: 5)).configuration(Tracked(limit: 9))
      .configuration(Tagged<First>(value: 11))
    let value = try decode(ManyReader.self, from: #"{"values":[]}"#, with: context)
    #expect(value.read == [11, -8, 3, -8, 5, nil, 9])
  }
}
