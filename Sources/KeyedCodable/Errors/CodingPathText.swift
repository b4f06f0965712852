/// Coding paths and errors as short text, for reports and messages.
enum CodingPathText {
  /// `path` as text: members joined by dots, array positions in brackets, other names quoted
  /// in brackets (`users[2]["first name"]`); `(root)` for the empty path.
  static func describe(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "(root)" }
    var text = ""
    for key in path {
      if let index = key.intValue,
        key.stringValue == "Index \(index)" || key.stringValue == "\(index)"
      {
        text += "[\(index)]"
      } else if isPlainName(key.stringValue) {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      } else {
        text += "[\(quoted(key.stringValue))]"
      }
    }
    return text
  }

  /// Whether `name` reads unambiguously in a dotted path.
  private static func isPlainName(_ name: String) -> Bool {
    !name.isEmpty
      && name.unicodeScalars.allSatisfy {
        $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
          || $0 == "$"
      }
  }

  /// `text` in double quotes, with quotes, backslashes and control characters escaped.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16, uppercase: true)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  /// The message of `error`: the debug description of a Codable error, or its description.
  static func summary(of error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(_, let context), DecodingError.valueNotFound(_, let context),
      DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context):
      return context.debugDescription
    case EncodingError.invalidValue(_, let context):
      return context.debugDescription
    default:
      return String(describing: error)
    }
  }

  /// `text` shortened to at most `limit` characters, with an ellipsis when cut.
  static func shortened(_ text: String, limit: Int = 60) -> String {
    guard text.count > limit else { return text }
    return String(text.prefix(limit - 1)) + "…"
  }
}
