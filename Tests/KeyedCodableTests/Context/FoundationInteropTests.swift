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
    #expect(search.users.first?.biography == "iOS Developer writin…")
    #expect(search.users.first?.videogames?.map(\.personalRating) == [nil, nil])
  }

  @Test func keyedJSONDecoderWorksWithCodableConfigurationToo() throws {
    let search = try KeyedJSONDecoder().decode(
      SynthesizedSearch.self, from: Data(Example.userSearchJSON.utf8))
    #expect(search.users.first?.interests == ["Programming", "Pullip"])
  }
}
