import Foundation

/// `URL` from a string, and back; made by ``ValueTransform/url``.
///
/// The empty string, a string with whitespace or control characters, and one `URL(string:)`
/// rejects are `DecodingError.dataCorrupted` at the value's path (some versions of Foundation
/// percent-encode spaces instead of rejecting them; this transform never guesses). Encoding
/// writes `absoluteString`.
public struct URLTransform: ValueTransform {
  /// Creates the transform.
  public init() {}

  /// The URL a string spells.
  ///
  /// - Parameter text: The string.
  /// - Returns: The URL.
  /// - Throws: ``ValueTransformError`` for a string that is not a URL.
  public func decode(_ text: String) throws -> URL {
    let hasSpaceOrControl = text.unicodeScalars.contains {
      $0.properties.isWhitespace || $0.properties.generalCategory == .control
    }
    guard !text.isEmpty, !hasSpaceOrControl, let url = URL(string: text) else {
      throw ValueTransformError("\(CodingPathText.shown(text)) is not a valid URL.")
    }
    return url
  }

  /// The URL's absolute string.
  ///
  /// - Parameter url: The URL.
  /// - Returns: Its absolute string.
  public func encode(_ url: URL) -> String {
    url.absoluteString
  }
}

extension ValueTransform where Self == URLTransform {
  /// `URL` from a string.
  ///
  /// ```swift
  /// try homepage <-> map["homepage"].using(.url)
  /// ```
  public static var url: URLTransform { URLTransform() }
}
