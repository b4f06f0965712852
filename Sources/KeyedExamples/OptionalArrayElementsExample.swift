import KeyedCodable

// The "* " marker: array elements that fail to decode are dropped.

/// An element that needs its `element` member.
public struct ArrayElement: Codable, Equatable, Sendable {
  public let element: Int

  public init(element: Int) {
    self.element = element
  }
}

/// Keeps the elements that decode.
public struct OptionalArrayElementsExample: Codable, Keyedable {
  public private(set) var array: [ArrayElement]!

  enum CodingKeys: String, CodingKey {
    case array = "* array"
  }

  public mutating func map(map: KeyMap) throws {
    try array <-> map[CodingKeys.array]
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension Example {
  /// The README example of this file.
  public static var optionalArrayElements: Example {
    make(
      "Lossy array",
      json: """
        {
          "array": [
            { "element": 1 },
            {},
            { "element": 3 },
            { "element": 4 }
          ]
        }
        """,
      as: OptionalArrayElementsExample.self
    ) { example in
      ["array = \(example.array.map(\.element))"]
    }
  }
}
