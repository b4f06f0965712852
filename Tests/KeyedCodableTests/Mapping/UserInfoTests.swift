import Foundation
import KeyedCodable
import Testing

extension CodingUserInfoKey {
  static let unit = CodingUserInfoKey(rawValue: "unit")!
}

/// `map.userInfo` gives a mapping the context of the coder.
@Suite(.bothCoders) struct UserInfoTests {
  struct Distance: Codable, Keyedable {
    var meters = 0.0

    init(meters: Double) {
      self.meters = meters
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      let scale = (map.userInfo[.unit] as? String) == "km" ? 1000.0 : 1.0
      var value = meters / scale
      try value <-> map["distance"]
      meters = value * scale
    }
  }

  @Test func mappingsReadTheCodersUserInfo() throws {
    #expect(
      try decode(Distance.self, from: #"{"distance":2}"#, userInfo: [.unit: "km"]).meters == 2000)
    #expect(try decode(Distance.self, from: #"{"distance":2}"#).meters == 2)
    #expect(try encodeJSON(Distance(meters: 1500), userInfo: [.unit: "km"]) == #"{"distance":1.5}"#)
  }

  @Test func mappingTypeTellsTheDirection() throws {
    struct Probe: Codable, Keyedable {
      var directions: [Bool] = []
      init() {}
      init(from decoder: Decoder) throws {
        try KeyedDecoder(with: decoder).decode(to: &self)
      }
      mutating func map(map: KeyMap) throws {
        directions.append(map.type.isDecoding)
      }
    }
    #expect(try decode(Probe.self, from: "{}").directions == [true])
    try expectEncoded(Probe(), "{}")
  }
}
