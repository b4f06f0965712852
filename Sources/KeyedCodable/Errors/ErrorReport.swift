import Foundation

/// The facts of one `DecodingError` or `EncodingError`, taken apart once and written as the
/// readable forms: one line (``line``) or several (``details(document:)``).
///
/// Every case of both errors is written here, in one place, so the formats stay consistent;
/// `DecodingError.readableDescription` and its companions only forward to it.
struct ErrorReport {
  /// What went wrong, with the values the error carries.
  enum Kind {
    /// `DecodingError.keyNotFound`: the object at the coding path lacks the key.
    case keyNotFound(any CodingKey)
    /// `DecodingError.valueNotFound`: the value at the coding path is `null`, or an array has
    /// no more elements.
    case valueNotFound(Any.Type)
    /// `DecodingError.typeMismatch`: the value at the coding path is of another type.
    case typeMismatch(Any.Type)
    /// `DecodingError.dataCorrupted`: the value is unusable, or the document is not valid.
    case dataCorrupted
    /// `EncodingError.invalidValue`: the value cannot be encoded.
    case invalidValue(Any)
  }

  /// What went wrong.
  let kind: Kind
  /// The error's coding path: for `keyNotFound`, that of the object that lacks the key.
  let codingPath: [any CodingKey]
  /// The error's `debugDescription`.
  let message: String
  /// The note a mapping attached, if any.
  let note: ErrorNote?
  /// The error's underlying error, looked up through the note.
  let underlying: (any Error)?

  /// The words Foundation's and KeyedCodable's coders use for an invalid document.
  static let invalidJSONMessage = "The given data was not valid JSON."

  /// Takes a `DecodingError` or an `EncodingError` apart.
  ///
  /// Fails for errors of other types, and for cases added to them in the future.
  ///
  /// - Parameter error: Any error.
  init?(_ error: any Error) {
    let context: (path: [any CodingKey], message: String, underlying: (any Error)?)
    switch error {
    case DecodingError.keyNotFound(let key, let decoding):
      kind = .keyNotFound(key)
      context = (decoding.codingPath, decoding.debugDescription, decoding.underlyingError)
    case DecodingError.valueNotFound(let type, let decoding):
      kind = .valueNotFound(type)
      context = (decoding.codingPath, decoding.debugDescription, decoding.underlyingError)
    case DecodingError.typeMismatch(let type, let decoding):
      kind = .typeMismatch(type)
      context = (decoding.codingPath, decoding.debugDescription, decoding.underlyingError)
    case DecodingError.dataCorrupted(let decoding):
      kind = .dataCorrupted
      context = (decoding.codingPath, decoding.debugDescription, decoding.underlyingError)
    case EncodingError.invalidValue(let value, let encoding):
      kind = .invalidValue(value)
      context = (encoding.codingPath, encoding.debugDescription, encoding.underlyingError)
    default:
      return nil
    }
    codingPath = context.path
    message = context.message
    if let note = context.underlying as? ErrorNote {
      self.note = note
      underlying = note.underlying
    } else {
      note = nil
      underlying = context.underlying
    }
  }

  // MARK: - One line

  /// The one-line form: a sentence that names the kind, the place, the model and the type.
  ///
  /// For example `Key "zipCode" not found at address (User): expected Int`. Never holds a line
  /// break.
  var line: String {
    let place = CodingPathText.render(codingPath)
    let model = note.map { " (\($0.modelType))" } ?? ""
    let text: String
    switch kind {
    case .keyNotFound(let key):
      let name =
        CodingPathText.elementIndex(key).map { "Element [\($0)]" }
        ?? "Key \(CodingPathText.quoted(key.stringValue))"
      let expected = expectedTypeName.map { ": expected \($0)" } ?? ""
      text = "\(name) not found at \(place)\(model)\(expected)"
    case .valueNotFound(let type):
      let what = isPastTheEnd ? "Missing element" : "Null value"
      text = "\(what) at \(place)\(model): expected \(CodingPathText.typeName(type))"
    case .typeMismatch(let type):
      let found = mismatchDetail.map { ", \($0)" } ?? ""
      text = "Type mismatch at \(place)\(model): expected \(CodingPathText.typeName(type))\(found)"
    case .dataCorrupted:
      if let sentence = invalidJSONSentence {
        text = "Invalid JSON: \(sentence)"
      } else {
        text = "Invalid data at \(place)\(model)\(Self.suffix(message))"
      }
    case .invalidValue(let value):
      let shown = CodingPathText.shortened(CodingPathText.oneLine("\(value)"), to: 60)
      text = "Cannot encode \(shown) at \(place)\(model)\(Self.suffix(message))"
    }
    return CodingPathText.oneLine(text)
  }

  /// The name of the type that was expected: the error's own for `valueNotFound` and
  /// `typeMismatch`, the note's for the other kinds.
  var expectedTypeName: String? {
    switch kind {
    case .valueNotFound(let type), .typeMismatch(let type):
      CodingPathText.typeName(type)
    case .keyNotFound, .dataCorrupted:
      note?.expectedType.map { CodingPathText.typeName($0) }
    case .invalidValue:
      nil
    }
  }

  /// Whether a `valueNotFound` is an array running out of elements rather than a `null`.
  ///
  /// The coders say `Unkeyed container is at end.`, and for a super decoder
  /// `Cannot get superDecoder() -- unkeyed container is at end.`
  private var isPastTheEnd: Bool {
    message == "Unkeyed container is at end."
      || message.hasSuffix(" -- unkeyed container is at end.")
  }

  /// What a type mismatch found, from the coders' `Expected to decode Int but found a string
  /// instead.` (`found a string`), or the message without its final period.
  private var mismatchDetail: String? {
    if let (_, found) = Self.mismatchParts(of: message) {
      return "found \(found)"
    }
    let detail = Self.withoutPeriod(message)
    return detail.isEmpty ? nil : detail
  }

  /// A coder's message for a type mismatch with what was found in the words of the readable
  /// forms.
  ///
  /// `Expected to decode Int but found number instead.` becomes `Expected to decode Int but
  /// found a number instead.` (see ``mismatchParts(of:)``); any other message is unchanged.
  /// Report entries use it (see ``DecodingReport/Entry/description``).
  static func mismatchMessage(_ message: String) -> String {
    guard let (expected, found) = mismatchParts(of: message) else { return message }
    return "Expected to decode \(expected) but found \(found) instead."
  }

  /// The expected type and what was found in the coders' message for a type mismatch,
  /// `Expected to decode Int but found number instead.`; what was found in the words of the
  /// readable forms: Foundation's coders write `number` and `bool` where they write
  /// `a string`, and the sentences say `a number` and `a Boolean`.
  private static func mismatchParts(of message: String) -> (expected: Substring, found: String)? {
    let prefix = "Expected to decode "
    let suffix = " instead."
    guard message.hasPrefix(prefix), message.hasSuffix(suffix),
      message.count > prefix.count + suffix.count
    else { return nil }
    let middle = message.dropFirst(prefix.count).dropLast(suffix.count)
    guard let range = middle.range(of: " but found ") else { return nil }
    let found =
      switch middle[range.upperBound...] {
      case "number": "a number"
      case "bool": "a Boolean"
      case let found: String(found)
      }
    return (middle[..<range.lowerBound], found)
  }

  /// The sentence that says where a document is not valid JSON, for a `dataCorrupted` error
  /// at the root that reports one; `nil` for other errors.
  ///
  /// ``KeyedJSONDecoder`` gives the reason and the position as the underlying error; Foundation's
  /// `JSONDecoder` gives them in the underlying `NSError` on Apple platforms and not at all on
  /// Linux, where its message (`The given data was not valid JSON.`) is used instead.
  var invalidJSONSentence: String? {
    guard case .dataCorrupted = kind, codingPath.isEmpty else { return nil }
    if let syntax = underlying as? JSONSyntaxError {
      return syntax.description
    }
    if let underlying {
      let error = underlying as NSError
      if error.domain == NSCocoaErrorDomain, error.code == 3840 {
        return (error.userInfo[NSDebugDescriptionErrorKey] as? String) ?? message
      }
    }
    return message == Self.invalidJSONMessage ? message : nil
  }

  // MARK: - Several lines

  /// The detailed form: the line, then the coding path, the key path, the model, the expected
  /// type, the value, the message and the underlying error, each when known, and the part of
  /// `document` around the failing value.
  ///
  /// - Parameter document: The JSON document that was decoded, if given.
  /// - Returns: Lines separated by `\n`, without a final line break.
  func details(document: Data?) -> String {
    var lines = [line]
    func add(_ label: String, _ value: String) {
      let padded = label + ":" + String(repeating: " ", count: Swift.max(1, 13 - label.count - 1))
      lines.append("  " + padded + CodingPathText.oneLine(value))
    }
    add("coding path", CodingPathText.render(codingPath))
    if let keyPath = note?.keyPath {
      add("key path", keyPath.isEmpty ? "\"\" (flat)" : keyPath)
    }
    if let note {
      add("model", note.modelType)
    }
    if let expected = expectedTypeName {
      add("expected", expected)
    }
    if case .invalidValue(let value) = kind {
      let shown = CodingPathText.shortened(CodingPathText.oneLine("\(value)"), to: 200)
      add("value", "\(shown) (\(CodingPathText.typeName(type(of: value))))")
    }
    if !message.isEmpty {
      add("message", message)
    }
    if let underlying {
      add("underlying", Self.describe(underlying))
    }
    if let document {
      lines += DocumentFragment.lines(for: self, in: document)
    }
    return lines.joined(separator: "\n")
  }

  /// An underlying error on one line: the readable line of a coding error, the message of a
  /// Foundation error, or the error's description.
  static func describe(_ error: any Error) -> String {
    if let report = ErrorReport(error) {
      return report.line
    }
    if !(error is JSONSyntaxError),
      let message = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
    {
      return CodingPathText.oneLine(message)
    }
    return CodingPathText.oneLine(String(describing: error))
  }

  // MARK: - Finding a report

  /// The report of the first `DecodingError` or `EncodingError` found in `value`: the value
  /// itself, or an error it wraps.
  ///
  /// Looks through ``ErrorNote``s, the `NSUnderlyingErrorKey` of `NSError`s, and the stored
  /// properties and associated values of other values, at most four levels deep and sixteen
  /// children wide, so a wrapper such as `struct APIError: Error { let underlying: any Error }`
  /// or an enum case with an error payload is seen through.
  ///
  /// - Parameters:
  ///   - value: An error, or a value that may hold one.
  ///   - depth: How many wrappers were looked through already.
  /// - Returns: The report, or `nil`.
  static func find(in value: Any, depth: Int = 0) -> ErrorReport? {
    guard depth <= 4 else { return nil }
    if let error = value as? any Error {
      if let report = ErrorReport(error) {
        return report
      }
      if let note = error as? ErrorNote {
        return note.underlying.flatMap { find(in: $0, depth: depth + 1) }
      }
      if let wrapped = (error as NSError).userInfo[NSUnderlyingErrorKey],
        let report = find(in: wrapped, depth: depth + 1)
      {
        return report
      }
    }
    // Values that hold no error and may be large to reflect.
    if value is String || value is Substring || value is Data || value is any Numeric {
      return nil
    }
    for child in Mirror(reflecting: value).children.prefix(16) {
      if let report = find(in: child.value, depth: depth + 1) {
        return report
      }
    }
    return nil
  }

  // MARK: - Helpers

  /// `": message"`, or nothing for an empty message.
  private static func suffix(_ message: String) -> String {
    message.isEmpty ? "" : ": \(message)"
  }

  /// The text without one final period.
  private static func withoutPeriod(_ text: String) -> String {
    text.hasSuffix(".") ? String(text.dropLast()) : text
  }
}
