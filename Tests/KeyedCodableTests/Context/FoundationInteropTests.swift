import Foundation
import KeyedCodable
import KeyedExamples
import Testing

// Story 4: Keyedable types adopt Foundation's configuration protocols in one line each, and work
// inside synthesized envelopes through `@CodableConfiguration`.

extension Member: DecodableWithConfiguration, EncodableWithConfiguration {
  public typealias DecodingConfiguration = Favorites
  public typealias EncodingConfiguration = Favorites
}

extension User: DecodableWithConfiguration, EncodableWithConfiguration {
  public typealias DecodingConfiguration = UserConfiguration
  public typealias EncodingConfiguration = UserConfiguration
}

/// Provides the search list's configuration to `@CodableConfiguration`.
struct SearchListProvider: DecodingConfigurationProviding, EncodingConfigurationProviding {
  static var decodingConfiguration: UserConfiguration { .searchList }
  static var encodingConfiguration: UserConfiguration { .searchList }
}

/// A synthesized envelope, as Foundation's documentation writes it.
struct SynthesizedSearch: Codable {
  var resultCount: Int
  @CodableConfiguration(from: SearchListProvider.self) var users = [User]()
}

@Suite("Context: Foundation's configurations")
struct FoundationInteropTests {
  @Test func foundationsTopLevelCallHandsTheConfigurationToMapMap() throws {
    let member = try JSONDecoder().decode(
      Member.self, from: Data(Example.memberJSON.utf8), configuration: Example.favorites)
    #expect(member.favorites == Example.favorites)
  }

  @Test func foundationsEncodeWithConfigurationReachesMapMap() throws {
    var user = User()
    user.userId = 1
    user.videogames = [Videogame()]
    user.videogames?[0].personalRating = 5
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(user, configuration: UserConfiguration.searchList)
    #expect(String(decoding: data, as: UTF8.self) == #"{"userId":1,"videogames":[{}]}"#)
  }

  @Test func aSynthesizedEnvelopeConfiguresItsKeyedableElements() throws {
    let search = try JSONDecoder().decode(
      SynthesizedSearch.self, from: Data(Example.userSearchJSON.utf8))
    #expect(search.resultCount == 1)
    #expect(search.users.first?.biography == "iOS Developer writi…")
    #expect(search.users.first?.videogames?.map(\.personalRating) == [nil, nil])
  }

  @Test func keyedJSONDecoderWorksWithCodableConfigurationToo() throws {
    let search = try KeyedJSONDecoder().decode(
      SynthesizedSearch.self, from: Data(Example.userSearchJSON.utf8))
    #expect(search.users.first?.interests == ["Programming", "Pullip"])
  }

  // MARK: - The configuration calls of KeyedJSONDecoder and KeyedJSONEncoder

  /// A hand-written `DecodableWithConfiguration` type: the configuration scales a number.
  struct Scaled: DecodableWithConfiguration, EncodableWithConfiguration, Equatable {
    var value: Double

    enum CodingKeys: String, CodingKey {
      case value
    }

    init(value: Double) {
      self.value = value
    }

    init(from decoder: any Decoder, configuration: Double) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      value = try container.decode(Double.self, forKey: .value) * configuration
    }

    func encode(to encoder: any Encoder, configuration: Double) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(value / configuration, forKey: .value)
    }
  }

  struct Hundred: DecodingConfigurationProviding, EncodingConfigurationProviding {
    static var decodingConfiguration: Double { 100 }
    static var encodingConfiguration: Double { 100 }
  }

  @Test func keyedJSONDecoderDecodesWithAConfigurationAsFoundationDoes() throws {
    let data = Data(Example.memberJSON.utf8)
    let ours = try KeyedJSONDecoder().decode(
      Member.self, from: data, configuration: Example.favorites)
    let theirs = try JSONDecoder().decode(Member.self, from: data, configuration: Example.favorites)
    #expect(ours.favorites == Example.favorites)
    #expect(ours.favorites == theirs.favorites)
    #expect(ours.name == theirs.name)

    let scaled = Data(#"{"value": 1.5}"#.utf8)
    #expect(
      try KeyedJSONDecoder().decode(Scaled.self, from: scaled, configuration: 2) == .init(value: 3))
    #expect(
      try KeyedJSONDecoder().decode(Scaled.self, from: scaled, configuration: Hundred.self)
        == .init(value: 150))
  }

  @Test func keyedJSONDecoderThrowsFoundationsErrorsWithAConfiguration() throws {
    for json in [#"{"value": "x"}"#, #"{}"#, #"[1]"#, #"{"value": 1"#] {
      let data = Data(json.utf8)
      var ours: (any Error)?
      var theirs: (any Error)?
      do { _ = try KeyedJSONDecoder().decode(Scaled.self, from: data, configuration: 1) } catch {
        ours = error
      }
      do { _ = try JSONDecoder().decode(Scaled.self, from: data, configuration: 1) } catch {
        theirs = error
      }
      let (ourError, theirError) = (try #require(ours), try #require(theirs))
      #expect(
        errorShape(ourError) == errorShape(theirError), "\(json): \(ourError) vs \(theirError)")
    }
  }

  @Test func keyedJSONEncoderEncodesWithAConfigurationAsFoundationDoes() throws {
    var user = User()
    user.userId = 1
    user.videogames = [Videogame()]
    user.videogames?[0].personalRating = 5
    let ours = KeyedJSONEncoder()
    ours.outputFormatting = .sortedKeys
    let theirs = JSONEncoder()
    theirs.outputFormatting = .sortedKeys
    let data = try ours.encode(user, configuration: UserConfiguration.searchList)
    #expect(String(decoding: data, as: UTF8.self) == #"{"userId":1,"videogames":[{}]}"#)
    #expect(data == (try theirs.encode(user, configuration: UserConfiguration.searchList)))

    let scaled = Scaled(value: 150)
    #expect(
      String(decoding: try ours.encode(scaled, configuration: 2), as: UTF8.self)
        == #"{"value":75}"#)
    #expect(
      try ours.encode(scaled, configuration: Hundred.self)
        == (try theirs.encode(scaled, configuration: Hundred.self)))
  }

  /// The kind and coding path of a coding error.
  func errorShape(_ error: any Error) -> String {
    switch error {
    case DecodingError.typeMismatch(_, let context):
      return "typeMismatch \(context.codingPath.map(\.stringValue))"
    case DecodingError.keyNotFound(let key, let context):
      return "keyNotFound(\(key.stringValue)) \(context.codingPath.map(\.stringValue))"
    case DecodingError.valueNotFound(_, let context):
      return "valueNotFound \(context.codingPath.map(\.stringValue))"
    case DecodingError.dataCorrupted(let context):
      return "dataCorrupted \(context.codingPath.map(\.stringValue))"
    default:
      return "\(error)"
    }
  }
}
