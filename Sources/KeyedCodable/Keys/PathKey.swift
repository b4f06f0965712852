/// The coding key KeyedCodable hands to the underlying containers: one segment of a key path.
///
/// Built once when a mapping key is parsed and reused for every decode and encode, so reading a
/// nested value never allocates keys or splits strings.
@usableFromInline
struct PathKey: CodingKey, Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let stringValue: String
  /// The integer value, or `Int.min` for none: with a plain `Int` the key fits the three words of
  /// an existential's inline buffer, so coders that store keys as `any CodingKey` never box it.
  private let integer: Int

  @usableFromInline var intValue: Int? { integer == .min ? nil : integer }

  init(_ name: String) {
    stringValue = name
    integer = .min
  }

  @usableFromInline
  init(stringValue: String) {
    self.init(stringValue)
  }

  @usableFromInline
  init(intValue: Int) {
    stringValue = String(intValue)
    integer = intValue
  }

  /// Copies another coding key, keeping both its string and its integer value.
  init(_ key: some CodingKey) {
    stringValue = key.stringValue
    integer = key.intValue ?? .min
  }

  /// The member name in quotes, as coders print it in error messages.
  @usableFromInline var description: String { "\"\(stringValue)\"" }

  /// The key coders use to report the position of a superclass value (`"super"`).
  static let superKey = PathKey("super")
}
