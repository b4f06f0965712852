import Foundation
import KeyedCodable
import KeyedExamples
import Testing

@Suite("Context: concurrency")
struct ContextConcurrencyTests {
  @Test func concurrentDecodesNeverSeeEachOthersConfiguration() async throws {
    let data = Data(Example.userJSON.utf8)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          let configuration = UserConfiguration(
            biographyMaxLength: task + 1, maxInterests: task % 3)
          let decoder: any KeyedTopLevelDecoderOfData =
            task.isMultiple(of: 2) ? JSONDecoder() : KeyedJSONDecoder()
          for _ in 0..<1000 {
            let user = try decoder.decodeUser(from: data, with: .configuration(configuration))
            #expect(user.biography?.count == task + 1)
            #expect(user.interests?.count == task % 3)
          }
        }
      }
      try await group.waitForAll()
    }
  }

  @Test func concurrentSelectionsAndValuesStayApart() async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          var game = Videogame()
          game.videogameId = task
          game.hoursPlayed = task * 10
          game.title = "t"
          let keys = task.isMultiple(of: 2) ? ["videogameId"] : ["videogameId", "hoursPlayed"]
          let encoder = JSONEncoder()
          encoder.outputFormatting = .sortedKeys
          for _ in 0..<1000 {
            let json = String(decoding: try encoder.encode(game, selecting: keys), as: UTF8.self)
            let expected =
              task.isMultiple(of: 2)
              ? #"{"videogameId":\#(task)}"#
              : #"{"hoursPlayed":\#(task * 10),"videogameId":\#(task)}"#
            #expect(json == expected)
          }
        }
      }
      try await group.waitForAll()
    }
  }
}

/// The two JSON decoders, behind one existential for the test.
protocol KeyedTopLevelDecoderOfData: Sendable {
  func decodeUser(from data: Data, with context: MappingContext) throws -> User
}

extension JSONDecoder: KeyedTopLevelDecoderOfData {
  func decodeUser(from data: Data, with context: MappingContext) throws -> User {
    try decode(User.self, from: data, with: context)
  }
}

extension KeyedJSONDecoder: KeyedTopLevelDecoderOfData {
  func decodeUser(from data: Data, with context: MappingContext) throws -> User {
    try decode(User.self, from: data, with: context)
  }
}
