/// Facts a mapping adds to an error it throws or passes on: which model's mapping failed and
/// which type it expected.
///
/// A note travels as the `underlyingError` of the standard `DecodingError` or `EncodingError`,
/// so the error keeps its kind, its coding path and its message, and code that switches on it
/// is unaffected. The error it replaces as `underlyingError`, if there was one, is kept in
/// ``underlying``. The readable forms (`DecodingError.readableDescription`) look
/// through the note to name the model and the expected type:
///
/// ```
/// Key "zipCode" not found at address (User): expected Int
/// ```
struct ErrorNote: Error, CustomStringConvertible {
  /// The name of the model whose mapping failed, such as `User`.
  let modelType: String
  /// The name of the type the mapping expected, such as `Int`, when it is known.
  let expectedType: String?
  /// The key path as written in `map(map:)`, such as `address.zipCode`, when it is known.
  let keyPath: String?
  /// The error the note replaces as the `underlyingError`, if there was one.
  let underlying: (any Error)?

  /// The facts in a sentence, then the underlying error: what `print(error)` shows of the note.
  var description: String {
    var text = "In the mapping of \(modelType)"
    if let keyPath {
      text += " at key path \(CodingPathText.quoted(keyPath))"
    }
    if let expectedType {
      text += ", expecting \(CodingPathText.typeName(expectedType))"
    }
    if let underlying {
      text += "; underlying error: \(underlying)"
    }
    return text
  }

  /// Attaches a note to a `DecodingError` or an `EncodingError`, keeping its kind, path and
  /// message; returns other errors unchanged.
  ///
  /// An error that carries a note already keeps it: the innermost mapping, the first to see
  /// the error, names the model and the type most precisely.
  ///
  /// - Parameters:
  ///   - error: The error a mapping throws or passes on.
  ///   - modelType: The type whose mapping failed.
  ///   - expectedType: The type the mapping expected, if known.
  ///   - keyPath: The key path as written in `map(map:)`, if known.
  /// - Returns: The same error with the note as its `underlyingError`.
  static func attach(
    to error: any Error, modelType: Any.Type, expectedType: Any.Type?, keyPath: String?
  ) -> any Error {
    func noted(_ context: DecodingError.Context) -> DecodingError.Context? {
      guard !(context.underlyingError is ErrorNote) else { return nil }
      return .init(
        codingPath: context.codingPath, debugDescription: context.debugDescription,
        underlyingError: note(replacing: context.underlyingError))
    }
    func note(replacing underlying: (any Error)?) -> ErrorNote {
      ErrorNote(
        modelType: String(describing: modelType),
        expectedType: expectedType.map { CodingPathText.typeName($0) }, keyPath: keyPath,
        underlying: underlying)
    }
    switch error {
    case let decodingError as DecodingError:
      return decodingError.withContext(noted)
    case EncodingError.invalidValue(let value, let context):
      guard !(context.underlyingError is ErrorNote) else { return error }
      return EncodingError.invalidValue(
        value,
        .init(
          codingPath: context.codingPath, debugDescription: context.debugDescription,
          underlyingError: note(replacing: context.underlyingError)))
    default:
      return error
    }
  }
}
