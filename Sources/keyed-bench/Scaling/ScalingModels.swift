import Foundation
import KeyedCodable

// The models of the scaling cases (see ScalingCases.swift). Each runs unchanged on
// KeyedJSONDecoder/KeyedJSONEncoder and on Foundation's JSONDecoder/JSONEncoder.

/// An ordinary object of eight members, the values of `[Int: ScalingInner]`.
struct ScalingInner: Codable, Equatable {
  var id: Int
  var name: String
  var score: Double
  var active: Bool
  var count: Int
  var label: String
  var ratio: Double
  var visible: Bool
}

/// A synthesized model that reads one member of a large object.
struct ScalingID: Codable, Equatable {
  var id: Int
}

/// `{"text": …}`, synthesized.
struct ScalingText: Codable, Equatable {
  var text: String
}

/// The same as ``ScalingID``, through a ``Keyedable`` mapping.
struct ScalingIDKeyed: Codable, Keyedable {
  var id = 0

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
  }
}

/// A member name known only from the data.
struct ScalingName: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }

  init(stringValue: String) {
    self.stringValue = stringValue
  }

  init?(intValue: Int) {
    nil
  }
}

/// Sums the integer members of an object, listed with `allKeys` and read with
/// `decode(_:forKey:)`.
struct ScalingAllKeysSum: Decodable {
  var sum = 0
  var count = 0

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: ScalingName.self)
    for key in container.allKeys {
      sum &+= try container.decode(Int.self, forKey: key)
      count += 1
    }
  }
}

/// Sums the integer members of an object, listed with `keys.all(for:)` and read with
/// `map[key]`.
struct ScalingListedSum: Decodable, Keyedable {
  var sum = 0
  var count = 0

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    guard case .decoding(let keys) = map.type else { return }
    for key in keys.all(for: "") {
      var value = 0
      try value <<- map[key]
      sum &+= value
      count += 1
    }
  }
}

/// Sums the integer members of an object, listed with `keys.all` and read with
/// `map[key.stringValue]`: key strings that come from the data.
struct ScalingDataDrivenSum: Decodable, Keyedable {
  var sum = 0
  var count = 0

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    guard case .decoding(let keys) = map.type else { return }
    for key in keys.all {
      var value = 0
      try value <<- map[key.stringValue]
      sum &+= value
      count += 1
    }
  }
}

/// Writes one keyed container with the given member names, each with its index as the value.
struct ScalingNamesWriter: Encodable {
  let names: [String]

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: ScalingName.self)
    for (index, name) in names.enumerated() {
      try container.encode(index, forKey: ScalingName(stringValue: name))
    }
  }
}

/// A lossy array of integers.
struct ScalingLossyInts: Codable, Keyedable {
  var items: [Int] = []

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try items <-> map["* items"]
  }
}

/// The members of ``alternatingNamesDocument(count:)``, read with `.convertFromSnakeCase`.
struct ScalingSnakeMembers: Codable, Equatable {
  var memberName0: Int?
  var memberName1: Int?
  var memberName2: Int?
  var memberName3: Int?
  var memberName4: Int?
  var memberName5: Int?
  var memberName6: Int?
  var memberName7: Int?
  var memberName8: Int?
  var memberName9: Int?
  var memberName10: Int?
  var memberName11: Int?
  var memberName12: Int?
  var memberName13: Int?
  var memberName14: Int?
  var lastA: Int?
  var lastB: Int?

  /// The sum of the members present.
  var sum: Int {
    [
      memberName0, memberName1, memberName2, memberName3, memberName4, memberName5,
      memberName6, memberName7, memberName8, memberName9, memberName10, memberName11,
      memberName12, memberName13, memberName14, lastA, lastB,
    ].reduce(0) { $0 &+ ($1 ?? 0) }
  }
}
