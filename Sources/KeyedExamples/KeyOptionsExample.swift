import KeyedCodable

// KeyOptions: markers turned off or replaced, one mapping at a time.

/// Keys that contain the default markers, read with other options.
public struct KeyOptionsExample: Codable, Keyedable {
  public private(set) var greeting: String!
  public private(set) var description: String!
  public private(set) var name: String!
  public private(set) var location: Location!
  public private(set) var array: [ArrayElement]!
  public private(set) var array1: [ArrayElement]!

  enum CodingKeys: String, CodingKey {
    case location = "__"
    case name = "* name"
    case greeting = "+.greeting"
    case description = ".details.description"
    case array = "### array"
    case array1 = "### * array1"
  }

  public mutating func map(map: KeyMap) throws {
    try name <-> map[CodingKeys.name]
    try greeting <-> map[CodingKeys.greeting, KeyOptions(delimiter: "+", flat: nil)]
    try description <-> map[CodingKeys.description, KeyOptions(flat: nil)]
    try location <-> map[CodingKeys.location, KeyOptions(flat: "__")]
    try array <-> map[CodingKeys.array, KeyOptions(optionalArrayElements: "### ")]
    try array1 <-> map[CodingKeys.array1, KeyOptions(optionalArrayElements: "### ")]
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension Example {
  /// The README example of this file.
  public static var keyOptions: Example {
    make(
      "Key options",
      json: """
        {
          "* name": "John",
          "": {
            ".greeting": "Hallo world",
            "details": {
              "description": "Its nice here"
            }
          },
          "longitude": 3.2,
          "lattitude": 3.4,
          "array": [
            { "element": 1 },
            {},
            { "element": 3 },
            { "element": 4 }
          ],
          "* array1": [
            { "element": 1 },
            {},
            { "element": 3 },
            { "element": 4 }
          ]
        }
        """,
      as: KeyOptionsExample.self
    ) { example in
      [
        "name = \(example.name!)",
        "greeting = \(example.greeting!)",
        "description = \(example.description!)",
        "location = (\(example.location.lattitude), \(example.location.longitude))",
        "array = \(example.array.map(\.element))",
        "array1 = \(example.array1.map(\.element))",
      ]
    }
  }
}
