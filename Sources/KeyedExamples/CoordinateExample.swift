import KeyedCodable

// A nested key path: "additionalInfo.elevation" replaces a nested container.

/// Apple's Codable example, written with KeyedCodable.
public struct Coordinate: Codable, Keyedable {
  public var latitude: Double!
  public var longitude: Double!
  public var elevation: Double!

  public mutating func map(map: KeyMap) throws {
    try latitude <-> map["latitude"]
    try longitude <-> map["longitude"]
    try elevation <-> map["additionalInfo.elevation"]
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension Example {
  /// The README example of this file.
  public static var coordinate: Example {
    make(
      "Nested key path",
      json: """
        {
          "latitude": 51.5,
          "longitude": -0.12,
          "additionalInfo": {
            "elevation": 11.2
          }
        }
        """,
      as: Coordinate.self
    ) { coordinate in
      [
        "latitude = \(coordinate.latitude!)",
        "longitude = \(coordinate.longitude!)",
        "elevation = \(coordinate.elevation!)",
      ]
    }
  }
}
