import Foundation

/// One example of the KeyedCodable README: a JSON document, the model it decodes into, and a
/// description of what was decoded.
public struct Example {
  /// The example's name, as the README titles it.
  public let name: String
  /// The JSON the README shows.
  public let json: String
  /// Decodes `json`, describes the result and encodes it back.
  public let run: () throws -> Output

  init(name: String, json: String, run: @escaping () throws -> Output) {
    self.name = name
    self.json = json
    self.run = run
  }

  /// What running an example produced.
  public struct Output: Sendable {
    /// The decoded values, one `name = value` line each.
    public let decoded: [String]
    /// The decoded value encoded again, as JSON with sorted keys.
    public let encoded: String?
  }

  /// All README examples, in the README's order.
  public static var all: [Example] {
    [
      .quickStart, .coordinate, .inner, .flat, .optionalArrayElements, .allKeys, .keyOptions,
      .profiles, .requiredConfiguration, .videogameUpdate, .textColor, .shapes,
      .jsonValue, .unmappedMembers, .streaming,
    ]
  }

  static func make<Model: Codable>(
    _ name: String, json: String, as model: Model.Type,
    describe: @escaping (Model) -> [String]
  ) -> Example {
    Example(name: name, json: json) {
      let value = try JSONDecoder().decode(Model.self, from: Data(json.utf8))
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let encoded = String(decoding: try encoder.encode(value), as: UTF8.self)
      return Output(decoded: describe(value), encoded: encoded)
    }
  }

  static func make<Model: Decodable>(
    _ name: String, json: String, decodingOnly model: Model.Type,
    describe: @escaping (Model) -> [String]
  ) -> Example {
    Example(name: name, json: json) {
      let value = try JSONDecoder().decode(Model.self, from: Data(json.utf8))
      return Output(decoded: describe(value), encoded: nil)
    }
  }
}
