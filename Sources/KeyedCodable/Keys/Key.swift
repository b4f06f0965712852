/// A member of a decoded object, addressed exactly.
///
/// ``KeysCollection`` lists members as keys of this type. Passed back to a ``KeyMap`` subscript,
/// a key reads exactly the member it was listed for: its name is never split on a delimiter or
/// read for markers, so a member named `"v1.2"` or `"* draft"` is found as it is.
///
/// ```swift
/// guard case .decoding(let keys) = map.type else { return }
/// for key in keys.all(for: "versions") {          // members "v1.1", "v1.2"
///     var notes: String?
///     try notes <<- map[key]                         // reads versions → "v1.2"
/// }
/// ```
///
/// A key made with ``init(stringValue:)`` names a member of the current object in the same
/// literal way.
public struct Key: CodingKey, Hashable, Sendable, CustomStringConvertible {
  /// The coding key handed to the underlying container (the decoder's own key when listed).
  @usableFromInline let codingKey: PathKey
  /// The names of the objects that lead from the mapped object to this member's parent.
  public let parentPath: [String]
  /// The node of `parentPath` in the key map that listed the key, checked before use.
  @usableFromInline let parentNode: Int

  init(member key: PathKey, parentPath: [String], parentNode: Int) {
    codingKey = key
    self.parentPath = parentPath
    self.parentNode = parentNode
  }

  /// Creates a key for the member of the current object named `stringValue`, read literally.
  ///
  /// - Parameter stringValue: The member's exact name.
  public init(stringValue: String) {
    codingKey = PathKey(stringValue: stringValue)
    parentPath = []
    parentNode = 0
  }

  /// Creates a key for the member of the current object at integer position `intValue`.
  ///
  /// - Parameter intValue: The member's integer key; its name is the number in decimal.
  public init(intValue: Int) {
    codingKey = PathKey(intValue: intValue)
    parentPath = []
    parentNode = 0
  }

  /// The member's name.
  public var stringValue: String { codingKey.stringValue }

  /// The member's integer value, when the decoder reported one.
  public var intValue: Int? { codingKey.intValue }

  /// The names from the mapped object down to this member, the member's own name last.
  public var path: [String] { parentPath + [stringValue] }

  /// The key path joined with dots, for reading (it is never parsed again).
  public var description: String { path.joined(separator: ".") }

  /// Whether two keys address the same member.
  ///
  /// - Parameters:
  ///   - lhs: A key.
  ///   - rhs: Another key.
  /// - Returns: `true` when both keys have the same path and integer value.
  public static func == (lhs: Key, rhs: Key) -> Bool {
    lhs.stringValue == rhs.stringValue && lhs.intValue == rhs.intValue
      && lhs.parentPath == rhs.parentPath
  }

  /// Hashes the key's path and integer value.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(stringValue)
    hasher.combine(intValue)
    hasher.combine(parentPath)
  }
}
