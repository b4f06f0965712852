import KeyedCodable

// A flat key ("") builds a struct from members of the object around it.

/// A plain Codable struct read from the top level of the JSON.
public struct Location: Codable, Equatable, Sendable {
  public let lattitude: Double
  public let longitude: Double

  public init(lattitude: Double, longitude: Double) {
    self.lattitude = lattitude
    self.longitude = longitude
  }
}

/// Groups two top-level members into a `Location`.
public struct InnerWithFlatExample: Codable, Keyedable {
  public private(set) var greeting: String!
  public private(set) var location: Location?

  enum CodingKeys: String, CodingKey {
    case greeting = "inner.greeting"
    case location = ""
  }

  public mutating func map(map: KeyMap) throws {
    try greeting <-> map[CodingKeys.greeting]
    try location <-> map[CodingKeys.location]
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension Example {
  /// The README example of this file.
  public static var flat: Example {
    make(
      "Flat key",
      json: """
        {
          "inner": {
            "greeting": "hallo"
          },
          "longitude": 3.2,
          "lattitude": 3.4
        }
        """,
      as: InnerWithFlatExample.self
    ) { example in
      [
        "greeting = \(example.greeting!)",
        "location = \(example.location.map { "(\($0.lattitude), \($0.longitude))" } ?? "nil")",
      ]
    }
  }
}
