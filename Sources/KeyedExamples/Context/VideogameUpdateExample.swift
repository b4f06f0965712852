import Foundation
import KeyedCodable

// Encode only what changed (story 5 of "Context and configuration"): an update request sends
// three keys of each videogame, chosen by the caller, with no `if` in `map(map:)`.

/// The body of a request that updates a user's videogames.
public struct VideogameUpdateRequest: Codable, Keyedable, Equatable {
  /// The keys of a videogame a user may change.
  public static let writableKeys = ["videogameId", "personalRating", "hoursPlayed"]

  public var updatedVideogames: [Videogame] = []

  public init(updatedVideogames: [Videogame]) {
    self.updatedVideogames = updatedVideogames
  }

  public mutating func map(map: KeyMap) throws {
    try updatedVideogames <-> map["updatedVideogames"].selecting(Self.writableKeys)
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension Example {
  /// Encode only what changed.
  public static var videogameUpdate: Example {
    Example(name: "Context: encode only what changed", json: userSearchJSON) {
      let search = try JSONDecoder().decode(UserSearch.self, from: Data(userSearchJSON.utf8))
      var games = try JSONDecoder().decode(User.self, from: Data(userJSON.utf8)).videogames ?? []
      for index in games.indices {
        games[index].personalRating = 11
        games[index].hoursPlayed = (games[index].hoursPlayed ?? 0) + 100
      }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let request = try encoder.encode(VideogameUpdateRequest(updatedVideogames: games))
      let single = try encoder.encode(games[0], selecting: ["videogameId", "hoursPlayed"])
      return Output(
        decoded: [
          "users = \(search.users.count)",
          "one game, two keys = \(String(decoding: single, as: UTF8.self))",
        ],
        encoded: String(decoding: request, as: UTF8.self))
    }
  }
}
