import KeyedCodable

// The README's quick start: a model whose properties all have default values needs no
// `init(from:)`; conforming to Keyedable and writing map(map:) is enough. (This module makes its
// models public, so it declares the empty value public too; in an app, the compiler's is used.)

/// A book, read from nested JSON.
public struct Book: Codable, Keyedable {
  public var id = 0
  public var title = ""
  public var author: String?
  public var pages: Int?

  public init() {}

  public mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
    try title <-> map["title"]
    try author <-> map["author.name"]
    try pages <-> map["meta.stats.pages"]
  }
}

extension Example {
  /// The README's quick start.
  public static var quickStart: Example {
    make(
      "Quick start: no init(from:) to write",
      json: """
        {
          "id": 42,
          "title": "Dune",
          "author": { "name": "Frank Herbert", "born": 1920 },
          "meta": { "stats": { "pages": 412 } }
        }
        """,
      as: Book.self
    ) { book in
      [
        "id = \(book.id)", "title = \(book.title)", "author = \(book.author ?? "nil")",
        "pages = \(book.pages.map(String.init) ?? "nil")",
      ]
    }
  }
}
