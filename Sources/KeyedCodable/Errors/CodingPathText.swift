/// Coding paths, keys and type names as the readable forms of errors write them.
///
/// A path is written as Swift code reads it: `users[2].address.zipCode`. Keys are joined by `.`,
/// array elements are written `[2]`, and a key that would be ambiguous in that form (empty, or
/// holding `.`, `[`, `]`, `"`, a space or a character that does not print) is written as a quoted
/// JSON string in brackets: `["first name"]`.
enum CodingPathText {
  /// The words for the empty path.
  static let topLevel = "the top level"

  /// A coding path as text, or ``topLevel`` for the empty path.
  ///
  /// - Parameter path: The keys from the root.
  /// - Returns: For example `users[2].address.zipCode` or `meta["content-type"]`.
  static func render(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return topLevel }
    var text = ""
    for key in path {
      if let index = elementIndex(key) {
        text += "[\(index)]"
      } else if needsBrackets(key.stringValue) {
        text += "[\(quoted(key.stringValue))]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }

  /// The element index of a key that stands for an array element, or `nil` for a member name.
  ///
  /// A key stands for an element when it has an integer value and is named as unkeyed
  /// containers name their keys: `"Index 2"` (Foundation's and KeyedCodable's coders). A key
  /// of a synthesized `CodingKeys` enum with `Int` raw values is a member name.
  ///
  /// - Parameter key: A coding key.
  /// - Returns: The index, or `nil`.
  static func elementIndex(_ key: any CodingKey) -> Int? {
    guard let index = key.intValue, key.stringValue == "Index \(index)" else { return nil }
    return index
  }

  /// The index a key names in an array, from its integer value or an `"Index 2"` name.
  ///
  /// - Parameter key: A coding key.
  /// - Returns: The index, or `nil` when the key names none.
  static func index(of key: any CodingKey) -> Int? {
    if let index = key.intValue { return index }
    let name = key.stringValue
    guard name.hasPrefix("Index ") else { return nil }
    return Int(name.dropFirst("Index ".count))
  }

  /// Whether a member name must be written quoted, in brackets.
  ///
  /// - Parameter name: A member name.
  /// - Returns: `true` for the empty name and for names with `.`, `[`, `]`, `"`, a space, or
  ///   a character that does not print.
  static func needsBrackets(_ name: String) -> Bool {
    name.isEmpty
      || name.unicodeScalars.contains { scalar in
        scalar == "." || scalar == "[" || scalar == "]" || scalar == "\"" || scalar == " "
          || isInvisible(scalar)
      }
  }

  /// A string as a JSON string literal, quotes included.
  ///
  /// Escapes what JSON requires (`"`, `\` and control characters) and every other character
  /// that does not print, so that the text shows exactly which characters a name holds.
  ///
  /// - Parameter text: Any text.
  /// - Returns: For example `"first name"` or `"tab\there"`.
  static func quoted(_ text: String) -> String {
    "\"" + text.map(escaped).joined() + "\""
  }

  /// `value` as a message shows it, at most `limit` characters long.
  ///
  /// A string is quoted and escaped, anything else shows as it describes itself. Text longer
  /// than `limit` is cut between two characters (never inside an escape) and ended with `…`; a
  /// cut string has no closing quote: `"abc…`.
  ///
  /// - Parameters:
  ///   - value: Any value.
  ///   - limit: The most characters shown.
  /// - Returns: The text.
  static func shown(_ value: Any, limit: Int = 60) -> String {
    guard let text = value as? String else {
      return shortened(oneLine(String(describing: value)), to: limit)
    }
    var result = "\""
    var count = 1
    for character in text {
      let piece = escaped(character)
      // Room for the piece and a closing quote, or for an ellipsis after a cut.
      guard count + piece.count + 1 <= limit else {
        return result + "…"
      }
      result += piece
      count += piece.count
    }
    return result + "\""
  }

  /// One character as it reads inside a quoted string.
  ///
  /// JSON escapes for quotes, backslashes and control characters, `\u` escapes for what does not
  /// print on its own. A character of several scalars that prints (an emoji joined with U+200D,
  /// a letter and its accent) is kept whole.
  private static func escaped(_ character: Character) -> String {
    let scalars = character.unicodeScalars
    if scalars.count > 1, !scalars.allSatisfy(isInvisible) {
      return String(character)
    }
    var result = ""
    for scalar in scalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{08}": result += "\\b"
      case "\u{0C}": result += "\\f"
      default:
        guard isInvisible(scalar) else {
          result.unicodeScalars.append(scalar)
          continue
        }
        for unit in String(scalar).utf16 {
          let hex = String(unit, radix: 16, uppercase: true)
          result += "\\u" + String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex
        }
      }
    }
    return result
  }

  /// Whether a character does not print on its own: control and format characters, separators
  /// other than the space, and code points that are unassigned, private or surrogates.
  ///
  /// - Parameter scalar: A Unicode scalar.
  /// - Returns: `true` for characters that would be invisible or ambiguous in a message.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == " " { return false }
    switch scalar.properties.generalCategory {
    case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator,
      .paragraphSeparator, .spaceSeparator:
      return true
    default:
      return false
    }
  }

  /// Text on one line: every control character (a line break, a tab) becomes a space.
  ///
  /// - Parameter text: Any text.
  /// - Returns: The text without line breaks.
  static func oneLine(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { return text }
    var result = ""
    result.unicodeScalars.append(
      contentsOf: text.unicodeScalars.map {
        $0.properties.generalCategory == .control ? " " : $0
      })
    return result
  }

  /// Text cut to at most `limit` characters, ending with `…` when it was cut.
  ///
  /// - Parameters:
  ///   - text: Any text.
  ///   - limit: The most characters to keep, the ellipsis included.
  /// - Returns: The text, or its start and `…`.
  static func shortened(_ text: String, to limit: Int) -> String {
    guard limit > 0, text.count > limit else { return text }
    return text.prefix(limit - 1) + "…"
  }

  /// A type's name as Swift code writes it: `[String: Any]` for `Dictionary<String, Any>`,
  /// `[Int]` for `Array<Int>`, `Int?` for `Optional<Int>`.
  ///
  /// - Parameter type: Any type.
  /// - Returns: Its name, with the shorthand for arrays, dictionaries and optionals.
  static func typeName(_ type: Any.Type) -> String {
    if let readable = type as? any ReadableTypeName.Type {
      return readable.readableTypeName
    }
    return typeName(String(describing: type))
  }

  /// A type name with the shorthand for arrays, dictionaries and optionals.
  ///
  /// Names it cannot read (function types, tuples) are returned as they are.
  ///
  /// - Parameter name: A type's name, as `String(describing:)` gives it.
  /// - Returns: The name with `[Element]`, `[Key: Value]` and `Wrapped?`.
  static func typeName(_ name: String) -> String {
    var reader = TypeNameReader(Array(name))
    guard let result = reader.type(depth: 0), reader.isAtEnd else { return name }
    return result
  }

  /// The message of `error`: the debug description of a Codable error, or its description.
  ///
  /// A type mismatch says what was found in the words of the readable forms (`found a number`,
  /// see ``ErrorReport/mismatchMessage(_:)``), whichever coder threw it.
  ///
  /// - Parameter error: Any error.
  /// - Returns: The message, on one line.
  static func summary(of error: any Error) -> String {
    switch error {
    case DecodingError.typeMismatch(_, let context):
      return oneLine(ErrorReport.mismatchMessage(context.debugDescription))
    case DecodingError.keyNotFound(_, let context), DecodingError.valueNotFound(_, let context),
      DecodingError.dataCorrupted(let context):
      return oneLine(context.debugDescription)
    case EncodingError.invalidValue(_, let context):
      return oneLine(context.debugDescription)
    default:
      return oneLine(String(describing: error))
    }
  }
}

/// Reads a generic type name (`Dictionary<String, Array<Int>>`) and writes it with the
/// shorthand of Swift code.
private struct TypeNameReader {
  private let characters: [Character]
  private var position = 0

  init(_ characters: [Character]) {
    self.characters = characters
  }

  var isAtEnd: Bool { position == characters.count }

  /// A name and its generic arguments, rewritten; `nil` when the text is not of that form.
  mutating func type(depth: Int) -> String? {
    guard depth < 32 else { return nil }
    var name = ""
    while position < characters.count, !"<>,()".contains(characters[position]) {
      name.append(characters[position])
      position += 1
    }
    name = name.trimmingSpaces()
    guard !name.isEmpty, !name.contains("->") else { return nil }
    guard position < characters.count, characters[position] == "<" else { return name }
    position += 1
    var arguments: [String] = []
    while true {
      guard let argument = type(depth: depth + 1), position < characters.count else {
        return nil
      }
      arguments.append(argument)
      let separator = characters[position]
      position += 1
      if separator == ">" { break }
      guard separator == "," else { return nil }
    }
    let bare = name.hasPrefix("Swift.") ? String(name.dropFirst("Swift.".count)) : name
    switch (bare, arguments.count) {
    case ("Array", 1):
      return "[\(arguments[0])]"
    case ("Dictionary", 2):
      return "[\(arguments[0]): \(arguments[1])]"
    case ("Optional", 1):
      let wrapped = arguments[0]
      let needsParentheses =
        wrapped.hasPrefix("any ") || wrapped.hasPrefix("some ") || wrapped.contains(" & ")
      return needsParentheses ? "(\(wrapped))?" : "\(wrapped)?"
    default:
      return "\(name)<\(arguments.joined(separator: ", "))>"
    }
  }
}

extension String {
  /// The string without leading and trailing spaces.
  fileprivate func trimmingSpaces() -> String {
    var text = Substring(self)
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " { text = text.dropLast() }
    return String(text)
  }

}

/// A type of KeyedCodable's own that a mapping reads in place of the property's type, named in
/// errors by what it reads: `Int (from a number or a numeric string)` rather than
/// `NumberOrString<Int>`.
protocol ReadableTypeName {
  /// The type's name in the readable forms of errors.
  static var readableTypeName: String { get }
}

extension NumberOrString: ReadableTypeName {
  static var readableTypeName: String {
    "\(CodingPathText.typeName(Number.self)) (from a number or a numeric string)"
  }
}

extension PolymorphicValue: ReadableTypeName {
  static var readableTypeName: String {
    // A class is named as it is; a protocol as the existential Swift code writes.
    Base.self is AnyClass ? CodingPathText.typeName(Base.self) : "any \(Base.self)"
  }
}
