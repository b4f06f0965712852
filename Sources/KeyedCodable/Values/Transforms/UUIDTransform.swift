import Foundation

/// `UUID` from its string form, in either letter case, and back; made by
/// ``ValueTransform/uuid``.
///
/// Encoding writes the uppercase form `UUID.uuidString` gives, as Foundation's coders do; use
/// ``ValueTransform/lowercaseUUID`` to write lowercase.
public struct UUIDTransform: ValueTransform {
  /// Whether encoding writes lowercase letters.
  public let lowercase: Bool

  /// Creates the transform.
  ///
  /// - Parameter lowercase: Whether encoding writes lowercase letters.
  public init(lowercase: Bool = false) {
    self.lowercase = lowercase
  }

  /// The UUID a string spells.
  ///
  /// - Parameter text: The string, such as `7cbe0cc1-7779-42e9-aaf1-c4b145f3cae9`.
  /// - Returns: The UUID.
  /// - Throws: ``ValueTransformError`` for a string that is not a UUID.
  public func decode(_ text: String) throws -> UUID {
    guard let uuid = UUIDText.uuid(text) else {
      throw ValueTransformError("\(CodingPathText.shown(text)) is not a valid UUID.")
    }
    return uuid
  }

  /// The UUID's string form.
  ///
  /// - Parameter uuid: The UUID.
  /// - Returns: Its string form.
  public func encode(_ uuid: UUID) -> String {
    UUIDText.string(uuid, lowercase: lowercase)
  }
}

extension ValueTransform where Self == UUIDTransform {
  /// `UUID` from its string form, in either letter case; written in uppercase.
  public static var uuid: UUIDTransform { UUIDTransform() }

  /// `UUID` from its string form, in either letter case; written in lowercase.
  public static var lowercaseUUID: UUIDTransform { UUIDTransform(lowercase: true) }
}
