/// The coding key KeyedCodable hands to the underlying containers: one segment of a key path.
///
/// Built once when a mapping key is parsed and reused for every decode and encode, so reading a
/// nested value never allocates keys or splits strings.
///
/// A class: coders handle keys through generic code, where copying a struct holding a `String`
/// costs calls through its value witnesses while a reference costs one retain.
@usableFromInline
final class PathKey: CodingKey, Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let stringValue: String
  @usableFromInline let intValue: Int?
  init(_ name: String) {
    stringValue = name
    intValue = nil
  }

  /// A key of a plan's path tree.
  init(planSegment name: String) {
    stringValue = name
    intValue = nil
  }

  @usableFromInline
  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  @usableFromInline
  init(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }

  /// The key of the member `name` of a `[String: Value]` dictionary, as the standard library's
  /// `Dictionary` coding names it: with the integer value of a name that reads as an `Int`
  /// (`"1"` has `intValue` 1, `"-2"` has -2), as in Foundation's coding paths.
  ///
  /// - Parameter name: The member's name.
  init(dictionaryMember name: String) {
    stringValue = name
    intValue = Int(name)
  }

  /// The key of element `index` of an array, named as Foundation's coders name it
  /// (`"Index 0"`), so that paths built here read like theirs.
  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  /// Copies another coding key, keeping both its string and its integer value.
  init(_ key: some CodingKey) {
    stringValue = key.stringValue
    intValue = key.intValue
  }

  /// The member name in quotes, as coders print it in error messages.
  @usableFromInline var description: String { "\"\(stringValue)\"" }

  /// Whether two keys have the same string and integer values.
  @usableFromInline
  static func == (lhs: PathKey, rhs: PathKey) -> Bool {
    lhs.stringValue == rhs.stringValue && lhs.intValue == rhs.intValue
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(stringValue)
    hasher.combine(intValue)
  }

  /// The key coders use to report the position of a superclass value (`"super"`).
  static let superKey = PathKey("super")

  /// The empty member name, shared.
  static let empty = PathKey("")
}
