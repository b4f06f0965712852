import Foundation
import KeyedCodable

// Required outside data (story 2 of "Context and configuration"): a user's favorites are not in
// the server's JSON; the caller hands them to the decode, and decoding without them throws.

/// A movie genre.
public enum Genre: String, Codable, Sendable {
  case action, comedy, drama
}

/// A user's favorites, loaded from another endpoint.
public struct Favorites: Codable, Sendable, Equatable {
  public var genre: Genre
  public var directorName: String
  public var movieIDs: [UUID]

  public init(genre: Genre, directorName: String, movieIDs: [UUID]) {
    self.genre = genre
    self.directorName = directorName
    self.movieIDs = movieIDs
  }
}

/// A member of the movie service, whose favorites come from the caller.
public struct Member: Codable, Keyedable, Equatable {
  public var id = UUID()
  public var name = ""
  public var membershipPoints = 0
  public var favorites = Favorites(genre: .drama, directorName: "", movieIDs: [])

  public init() {}

  public mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
    try name <-> map["name"]
    try membershipPoints <-> map["membershipPoints"]
    if map.type.isDecoding {
      favorites = try map.requiredConfiguration(Favorites.self)
    }
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension Example {
  /// The member the server sends.
  public static let memberJSON = """
    {
      "id": "7CBE0CC1-7779-42E9-AAF1-C4B145F3CAE9",
      "name": "John Appleseed",
      "membershipPoints": 192
    }
    """

  /// The favorites another endpoint sends.
  public static let favorites = Favorites(
    genre: .action, directorName: "Christopher Nolan",
    movieIDs: [
      UUID(
        uuid: (
          0xF0, 0x28, 0xCA, 0xB5, 0x74, 0xD7, 0x4B, 0x86, 0x84, 0x50, 0xD0, 0x04, 0x6C, 0x32, 0xDF,
          0xA0
        ))
    ])

  /// Required outside data.
  public static var requiredConfiguration: Example {
    Example(name: "Context: required outside data", json: memberJSON) {
      let data = Data(memberJSON.utf8)
      let member = try JSONDecoder().decode(
        Member.self, from: data, with: .configuration(favorites))
      let plist = try PropertyListEncoder().encode(member)
      let fromPlist = try PropertyListDecoder().decode(
        Member.self, from: plist, with: .configuration(favorites))
      var failure = "none"
      do {
        _ = try JSONDecoder().decode(Member.self, from: data)
      } catch {
        failure = readableDescription(of: error)
      }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      return Output(
        decoded: [
          "name = \(member.name)",
          "favorites.directorName = \(member.favorites.directorName)",
          "same through a property list = \(fromPlist == member)",
          "without favorites: \(failure)",
        ],
        encoded: String(decoding: try encoder.encode(member), as: UTF8.self))
    }
  }
}
