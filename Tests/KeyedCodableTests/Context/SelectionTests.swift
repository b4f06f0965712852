import Foundation
import KeyedCodable
import KeyedExamples
import Testing

// Story 5: encode only what changed; decode only chosen keys.

@Suite("Context: key selections", .bothCoders)
struct SelectionTests {
  static var game: Videogame {
    var game = Videogame()
    game.videogameId = 1
    game.title = "The Legend of Zelda: Ocarina of Time"
    game.developer = "Nintendo"
    game.publisher = "Nintendo"
    game.personalRating = 11
    game.hoursPlayed = 1000
    return game
  }

  @Test func theCallerChoosesTheKeysOfOneEncode() throws {
    try expectEncoded(
      Self.game, with: .selecting(VideogameUpdateRequest.writableKeys, in: Videogame.self),
      #"{"videogameId": 1, "personalRating": 11, "hoursPlayed": 1000}"#)
    // The next encode, without a selection, writes everything again.
    try expectEncoded(
      Self.game,
      #"{"videogameId": 1, "title": "The Legend of Zelda: Ocarina of Time", "developer": "Nintendo", "publisher": "Nintendo", "personalRating": 11, "hoursPlayed": 1000}"#
    )
  }

  @Test func theEncodeSelectingCallSelectsInArrayElements() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode([Self.game, Self.game], selecting: ["videogameId"])
    #expect(String(decoding: data, as: UTF8.self) == #"[{"videogameId":1},{"videogameId":1}]"#)
  }

  @Test func aParentMappingSelectsTheKeysOfItsElements() throws {
    var second = Self.game
    second.videogameId = 2
    second.hoursPlayed = 900
    try expectEncoded(
      VideogameUpdateRequest(updatedVideogames: [Self.game, second]),
      #"""
      {"updatedVideogames": [
        {"personalRating": 11, "hoursPlayed": 1000, "videogameId": 1},
        {"personalRating": 11, "hoursPlayed": 900, "videogameId": 2}
      ]}
      """#)
  }

  @Test func decodingWithASelectionLeavesTheOtherPropertiesUntouched() throws {
    let game = try decode(
      Videogame.self, from: Example.userJSON.replacingOccurrences(of: "\n", with: " "),
      with: .selecting(["userId"], in: User.self))
    // Not a User: the selection does not apply to Videogame.
    #expect(game.title == nil)
    let user = try decode(
      User.self, from: Example.userJSON, with: .selecting(["username", "interests"], in: User.self))
    #expect(user.username == "AndyIbanez")
    #expect(user.interests?.count == 3)
    #expect(user.userId == nil)
    #expect(user.biography == nil)
    #expect(user.videogames == nil)
  }

  @Test func updatingAValueChangesOnlyTheSelectedKeys() throws {
    var game = Self.game
    let patch = #"{"personalRating": 7, "hoursPlayed": 5, "title": "Changed"}"#
    let context = MappingContext.selecting(["personalRating", "hoursPlayed"], in: Videogame.self)
    switch TestCoder.current {
    case .foundation:
      try JSONDecoder().update(&game, from: Data(patch.utf8), with: context)
    case .keyedJSON:
      try KeyedJSONDecoder().update(&game, from: Data(patch.utf8), with: context)
    }
    #expect(game.personalRating == 7)
    #expect(game.hoursPlayed == 5)
    #expect(game.title == "The Legend of Zelda: Ocarina of Time")
    #expect(game.videogameId == 1)
  }

  @Test func selectingAnObjectSelectsTheKeyPathsBelowIt() throws {
    struct Stats: Codable, Keyedable {
      var id = 0
      var hours = 0
      var rating = 0
      mutating func map(map: KeyMap) throws {
        try id <-> map["id"]
        try hours <-> map["stats.hours"]
        try rating <-> map["stats.rating"]
      }
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    var stats = Stats()
    stats.id = 1
    stats.hours = 2
    stats.rating = 3
    try expectEncoded(
      stats, with: .selecting(["stats"], in: Stats.self), #"{"stats": {"hours": 2, "rating": 3}}"#)
    try expectEncoded(
      stats, with: .selecting(["stats.rating", "id"], in: Stats.self),
      #"{"id": 1, "stats": {"rating": 3}}"#)
  }

  @Test func selectingAKeyTheModelDoesNotMapThrowsWhenEncoding() throws {
    expectError("invalidValue", at: []) {
      try encodeJSON(Self.game, with: .selecting(["videogameID"], in: Videogame.self))
    }
    do {
      _ = try encodeJSON(
        Self.game, with: .selecting(["hoursPlayed", "ratting"], in: Videogame.self))
      Issue.record("expected an error")
    } catch {
      #expect(
        message(of: error)
          == "The key selection names \"ratting\", which Videogame does not map. Select key paths "
          + "as the model's map(map:) writes them.")
    }
  }

  @Test func selectingAKeyTheModelDoesNotMapThrowsWhenDecoding() throws {
    expectError("dataCorrupted", at: ["users", "Index 0"]) {
      try decode(
        UserSearch.self, from: Example.userSearchJSON,
        with: .selecting(["nickname"], in: User.self))
    }
  }

  @Test func aSelectionAppliesToTheLossyKeyByItsName() throws {
    struct Bag: Codable, Keyedable {
      var items: [Int] = []
      var name = ""
      mutating func map(map: KeyMap) throws {
        try items <-> map["* items"]
        try name <-> map["name"]
      }
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let bag = try decode(
      Bag.self, from: #"{"items": [1, "x", 2], "name": "n"}"#,
      with: .selecting(["items"], in: Bag.self))
    #expect(bag.items == [1, 2])
    #expect(bag.name == "")
  }
}
