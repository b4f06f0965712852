import Foundation

extension DecodingError {
  /// The error in one line, for logs: what went wrong, where, in which model, and what was
  /// expected.
  ///
  /// The line never holds a line break, and a failure reads the same whether Foundation's
  /// `JSONDecoder` or ``KeyedJSONDecoder`` reported it, except where `JSONDecoder` leaves
  /// facts out (see <doc:ReadingErrors>):
  ///
  /// ```
  /// Key "zipCode" not found at address (User): expected Int
  /// Null value at users[2].address.zipCode: expected Int
  /// Type mismatch at address.zipCode: expected Int, found a string
  /// Invalid data at createdAt: Expected date string to be ISO8601-formatted.
  /// Invalid JSON: Unexpected character 'x' at line 3, column 14.
  /// ```
  ///
  /// The path is written as Swift code reads it: keys joined by `.`, array elements as `[2]`,
  /// and keys that are empty or hold `.`, `[`, `]`, `"`, spaces or invisible characters as a
  /// quoted string in brackets (`meta["content type"]`). For `keyNotFound`, the path is that
  /// of the object that lacks the key; at the root it reads `the top level`. The model in
  /// parentheses and the expected type of a missing key appear when the error comes from a
  /// ``Keyedable`` mapping that names them.
  public var readableDescription: String {
    ErrorReport(self)?.line ?? CodingPathText.oneLine(String(describing: self))
  }

  /// The error in several lines: the sentence of ``readableDescription``, then the coding
  /// path, the model and the expected type when known, the message and the underlying error,
  /// and, when `document` is given, the lines of the document around the failing value.
  ///
  /// ```swift
  /// do {
  ///     let user = try KeyedJSONDecoder().decode(User.self, from: data)
  /// } catch let error as DecodingError {
  ///     print(error.detailedDescription(document: data))
  /// }
  /// ```
  ///
  /// prints, for a document whose `address` lacks `zipCode`:
  ///
  /// ```
  /// Key "zipCode" not found at address: expected Int
  ///   coding path: address
  ///   message:     No value associated with key "zipCode" ("zipCode").
  ///   document:
  ///      2 |   "name": "Ann",
  ///      3 |   "address": { "city": "Paris" }
  ///        |              ^
  ///      4 | }
  /// ```
  ///
  /// The caret points at the value at the error's coding path: for a missing key, at the
  /// object that lacks it; for invalid JSON, at the first character that is not valid. At
  /// most two lines before and one after are shown, and lines longer than 100 characters are
  /// clipped around the caret, with `…` where text is left out. When the place can't be
  /// found, because the document is not the one that was decoded, is not valid JSON, or the
  /// path leads nowhere in it, one line says why instead:
  ///
  /// ```
  ///   document: the path could not be followed (no member "address")
  /// ```
  ///
  /// - Parameter document: The JSON document that was decoded, in UTF-8 (UTF-16 and UTF-32
  ///   are recognized too), or `nil` to leave the document out.
  /// - Returns: Lines separated by `"\n"`, without a final line break.
  public func detailedDescription(document: Data? = nil) -> String {
    ErrorReport(self)?.details(document: document) ?? String(describing: self)
  }
}

extension EncodingError {
  /// The error in one line, for logs: the value, where it was written, in which model, and
  /// why it can't be encoded.
  ///
  /// The value is shortened to 60 characters; the path is written as in
  /// `DecodingError.readableDescription`:
  ///
  /// ```
  /// Cannot encode nan at location.latitude (Place): Unable to encode Double.nan directly in JSON.
  /// ```
  public var readableDescription: String {
    ErrorReport(self)?.line ?? CodingPathText.oneLine(String(describing: self))
  }

  /// The error in several lines: the sentence of ``readableDescription``, then the coding
  /// path, the key path and the model when known, the value and its type, the message and the
  /// underlying error.
  ///
  /// ```
  /// Cannot encode nan at location.latitude (Place): Unable to encode Double.nan directly in JSON.
  ///   coding path: location.latitude
  ///   key path:    location.latitude
  ///   model:       Place
  ///   value:       nan (Double)
  ///   message:     Unable to encode Double.nan directly in JSON.
  /// ```
  ///
  /// - Returns: Lines separated by `"\n"`, without a final line break.
  public func detailedDescription() -> String {
    ErrorReport(self)?.details(document: nil) ?? String(describing: self)
  }
}

// A free function rather than a member: an extension on `Error` would add a member to every
// error type of every client, where a type's own `readableDescription` would be shadowed in
// generic code and a same-named member from another library would be ambiguous; a static on a
// caseless enum would add a type whose only job is to hold one function, and a longer call.
// Where the name could clash, `KeyedCodable.readableDescription(of:)` disambiguates.

/// The error of a `catch` block in one line, for logs: the readable line of a `DecodingError` or
/// an `EncodingError`, also one wrapped in another error, and `String(describing:)` of any
/// other error.
///
/// ```swift
/// do {
///     try await load()
/// } catch {
///     logger.error("Loading failed: \(readableDescription(of: error))")
/// }
/// ```
///
/// A coding error is found inside the errors that wrap it: as the `NSUnderlyingErrorKey` of an
/// `NSError`, or as a stored property or an associated value of another error, up to four
/// levels deep (`struct APIError: Error { let underlying: any Error }`,
/// `case decodingFailed(any Error)`).
///
/// See <doc:ReadingErrors> for the sentence of each kind of error.
///
/// - Parameter error: Any error.
/// - Returns: `DecodingError.readableDescription` or
///   `EncodingError.readableDescription` of the coding error, or the error's
///   description.
public func readableDescription(of error: any Error) -> String {
  ErrorReport.find(in: error)?.line ?? String(describing: error)
}
