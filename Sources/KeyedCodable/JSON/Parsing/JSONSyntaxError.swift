/// Why a document is not valid JSON, and where.
///
/// ``KeyedJSONDecoder`` reports it as the underlying error of a `DecodingError.dataCorrupted` at
/// the root of the document, as Foundation's `JSONDecoder` does, with a message that names the
/// line and column.
struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
  /// What is wrong.
  enum Reason: Equatable {
    case emptyDocument
    case unexpectedEnd
    case unexpectedCharacter(UInt8)
    case trailingContent
    case invalidNumber
    case unescapedControlCharacter(UInt8)
    case invalidEscape
    case invalidUnicodeEscape
    case loneSurrogate
    case invalidUTF8
    case invalidUnicode
    case tooDeep(limit: Int)
    case tooLarge
  }

  let reason: Reason
  /// The byte offset of the problem in the (UTF-8) document.
  let offset: Int
  /// The line of the problem, from 1.
  let line: Int
  /// The column of the problem, from 1, in bytes.
  let column: Int

  init(_ reason: Reason, offset: Int, line: Int, column: Int) {
    self.reason = reason
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// Locates `offset` in `bytes` (counting lines), for an error found while scanning.
  init(_ reason: Reason, offset: Int, in bytes: UnsafePointer<UInt8>, count: Int) {
    var line = 1
    var lineStart = 0
    var index = 0
    let end = Swift.min(offset, count)
    while index < end {
      if bytes[index] == 0x0A {
        line += 1
        lineStart = index + 1
      }
      index += 1
    }
    self.init(reason, offset: offset, line: line, column: offset - lineStart + 1)
  }

  var description: String {
    "\(explanation) at line \(line), column \(column)."
  }

  private var explanation: String {
    switch reason {
    case .emptyDocument: "The document is empty"
    case .unexpectedEnd: "The document ends in the middle of a value"
    case .unexpectedCharacter(let byte): "Unexpected \(Self.describe(byte))"
    case .trailingContent: "Unexpected content after the end of the document"
    case .invalidNumber: "Invalid number"
    case .unescapedControlCharacter(let byte):
      "Unescaped control character \(Self.describe(byte)) in a string"
    case .invalidEscape: "Invalid escape sequence in a string"
    case .invalidUnicodeEscape: "Invalid \\u escape sequence in a string"
    case .loneSurrogate: "Unpaired UTF-16 surrogate in a \\u escape sequence"
    case .invalidUTF8: "Invalid UTF-8"
    case .invalidUnicode: "The document is not valid Unicode text"
    case .tooDeep(let limit): "More than \(limit) levels of nested arrays and objects"
    case .tooLarge: "The document is too large (4 GiB or more)"
    }
  }

  private static func describe(_ byte: UInt8) -> String {
    if byte >= 0x21, byte < 0x7F {
      return "character '\(Character(Unicode.Scalar(byte)))'"
    }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x\(byte < 16 ? "0" : "")\(hex)"
  }
}
