/// The coding key KeyedCodable hands to the underlying containers: one segment of a key path.
///
/// Built once when a mapping key is parsed and reused for every decode and encode, so reading a
/// nested value never allocates keys or splits strings.
struct PathKey: CodingKey, Hashable, Sendable, CustomStringConvertible {
  let stringValue: String
  let intValue: Int?

  init(_ name: String) {
    stringValue = name
    intValue = nil
  }

  init(stringValue: String) {
    self.init(stringValue)
  }

  init(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }

  /// Copies another coding key, keeping both its string and its integer value.
  init(_ key: some CodingKey) {
    stringValue = key.stringValue
    intValue = key.intValue
  }

  /// The member name in quotes, as coders print it in error messages.
  var description: String { "\"\(stringValue)\"" }

  /// The key coders use to report the position of a superclass value (`"super"`).
  static let superKey = PathKey("super")
}
