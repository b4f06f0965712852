import Foundation

/// `Data` as base64 or base64url text, and back; made by ``ValueTransform/base64`` and
/// ``ValueTransform/base64URL``.
///
/// Decoding is strict: characters outside the alphabet (spaces and line breaks included) are
/// rejected; base64 requires its `=` padding, base64url accepts it with or without. Encoding
/// writes padded base64, or base64url without padding (RFC 4648 §5, as JWTs use it).
public struct Base64Transform: ValueTransform {
  /// Whether the text uses the URL- and filename-safe alphabet (`-` and `_`).
  public let urlSafe: Bool

  /// Creates the transform.
  ///
  /// - Parameter urlSafe: Whether the text uses the URL- and filename-safe alphabet.
  public init(urlSafe: Bool = false) {
    self.urlSafe = urlSafe
  }

  /// The bytes the text encodes.
  ///
  /// - Parameter text: The base64 or base64url text.
  /// - Returns: The bytes.
  /// - Throws: ``ValueTransformError`` for text that is not valid in the alphabet.
  public func decode(_ text: String) throws -> Data {
    // Canonical base64, what encoders write, is read straight from the string's bytes.
    if !urlSafe,
      let data = text.utf8.withContiguousStorageIfAvailable(JSONBase64.data(fromCanonical:)) ?? nil
    {
      return data
    }
    guard Self.hasValidPadding(text, required: !urlSafe) else { throw invalid(text) }
    var standard = text
    if urlSafe {
      guard !text.contains("+"), !text.contains("/") else { throw invalid(text) }
      standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
        of: "_", with: "/")
      let remainder = standard.utf8.count % 4
      if remainder == 2 || remainder == 3 {
        standard += String(repeating: "=", count: 4 - remainder)
      }
    }
    guard let data = Data(base64Encoded: standard) else { throw invalid(text) }
    return data
  }

  /// The bytes as text.
  ///
  /// - Parameter data: The bytes.
  /// - Returns: Padded base64, or unpadded base64url.
  public func encode(_ data: Data) -> String {
    let text = data.base64EncodedString()
    guard urlSafe else { return text }
    var safe = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(
      of: "/", with: "_")
    while safe.hasSuffix("=") {
      safe.removeLast()
    }
    return safe
  }

  /// Whether `text` ends with the padding its length calls for: none or, when `required` is
  /// `false`, none at all; `=` appears nowhere else. (Foundation's decoder on some platforms
  /// accepts extra `=`.)
  private static func hasValidPadding(_ text: String, required: Bool) -> Bool {
    let bytes = Array(text.utf8)
    let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
    let body = bytes.count - padding
    guard !bytes[..<body].contains(UInt8(ascii: "=")), padding <= 2 else { return false }
    if padding == 0 {
      return !required || bytes.count % 4 == 0
    }
    // Padding completes the last group of four, and only a group that needs it.
    return bytes.count % 4 == 0 && (body % 4) + padding == 4
  }

  private func invalid(_ text: String) -> ValueTransformError {
    ValueTransformError(
      "\(CodingPathText.shown(text)) is not valid "
        + (urlSafe ? "base64url." : "base64."))
  }
}

extension ValueTransform where Self == Base64Transform {
  /// `Data` as padded base64 text.
  public static var base64: Base64Transform { Base64Transform() }

  /// `Data` as base64url text (RFC 4648 §5), written without padding.
  public static var base64URL: Base64Transform { Base64Transform(urlSafe: true) }
}
