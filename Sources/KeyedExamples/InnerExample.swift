import KeyedCodable

// Key paths given as CodingKeys cases, and the same mapping without them.

/// Nested values addressed through `CodingKeys`.
public struct InnerExample: Codable, Keyedable {
  public private(set) var greeting: String!
  public private(set) var description: String!

  enum CodingKeys: String, CodingKey {
    case greeting = "inner.greeting"
    case description = "inner.details.description"
  }

  public mutating func map(map: KeyMap) throws {
    try greeting <-> map[CodingKeys.greeting]
    try description <-> map[CodingKeys.description]
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

/// The same nested values addressed with strings.
public struct InnerStringKeysExample: Codable, Keyedable {
  public private(set) var greeting: String!
  public private(set) var description: String!

  public mutating func map(map: KeyMap) throws {
    try greeting <-> map["inner.greeting"]
    try description <-> map["inner.details.description"]
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension Example {
  /// The README example of this file.
  public static var inner: Example {
    make(
      "Nested key paths from CodingKeys",
      json: """
        {
          "inner": {
            "greeting": "Hello",
            "details": {
              "description": "Two levels down"
            }
          }
        }
        """,
      as: InnerExample.self
    ) { inner in
      ["greeting = \(inner.greeting!)", "description = \(inner.description!)"]
    }
  }
}
