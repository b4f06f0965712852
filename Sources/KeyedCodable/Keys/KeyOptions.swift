/// The markers that give a mapping key its structure.
///
/// A mapping key such as `"user.* addresses"` is plain text; the options say which parts of it
/// are syntax. Each marker can be replaced with any string, or turned off with `nil` so that the
/// text is read literally:
///
/// - ``delimiter`` separates the segments of a nested key path (`"user.name"`).
/// - ``flat`` is the key that maps a value from the members of the current object itself.
/// - ``optionalArrayElements`` marks an array whose invalid elements are dropped instead of
///   failing the whole decode.
///
/// Pass options as the second argument of a ``KeyMap`` subscript to change how one key is read:
///
/// ```swift
/// try version <-> map["build.v1.2", KeyOptions(delimiter: nil)]   // one key named "build.v1.2"
/// try legacy <-> map["meta/legacy", KeyOptions(delimiter: "/")]   // "meta" → "legacy"
/// ```
///
/// An empty ``delimiter`` or ``optionalArrayElements`` string behaves like `nil`: a key is never
/// split on, or marked by, nothing.
public struct KeyOptions: Hashable, Sendable {
  // Stored as plain strings plus a mask of which markers are set, not as `String?`: options are
  // compared on every mapping, and optional strings cost generic value-witness calls to copy.
  @usableFromInline var delimiterText: String
  @usableFromInline var flatText: String
  @usableFromInline var lossyText: String
  @usableFromInline var present: UInt8

  @usableFromInline static let hasDelimiter: UInt8 = 1
  @usableFromInline static let hasFlat: UInt8 = 2
  @usableFromInline static let hasLossy: UInt8 = 4

  /// The string that separates the segments of a nested key path.
  ///
  /// `nil` reads every key as a single segment. Defaults to `"."`.
  public var delimiter: String? {
    get { present & Self.hasDelimiter == 0 ? nil : delimiterText }
    set { set(newValue, into: \.delimiterText, flag: Self.hasDelimiter) }
  }

  /// The key that maps a value from the members of the current object.
  ///
  /// `nil` treats that key as an ordinary member name. Defaults to `""`.
  public var flat: String? {
    get { present & Self.hasFlat == 0 ? nil : flatText }
    set { set(newValue, into: \.flatText, flag: Self.hasFlat) }
  }

  /// The prefix that marks an array whose invalid elements are dropped.
  ///
  /// `nil` reads the prefix literally. Defaults to `"* "`.
  ///
  /// The marker may start the whole key (`"* data.items"`) or its last segment
  /// (`"data.* items"`). It only has this meaning when the mapped value is an array; for any
  /// other value it is part of the member name.
  public var optionalArrayElements: String? {
    get { present & Self.hasLossy == 0 ? nil : lossyText }
    set { set(newValue, into: \.lossyText, flag: Self.hasLossy) }
  }

  /// Creates options with the given markers.
  ///
  /// - Parameters:
  ///   - delimiter: The key path separator, or `nil` to disable nested key paths.
  ///   - flat: The flat key, or `nil` to disable flat mappings.
  ///   - optionalArrayElements: The lossy array prefix, or `nil` to disable lossy arrays.
  @inlinable
  public init(
    delimiter: String? = ".",
    flat: String? = "",
    optionalArrayElements: String? = "* "
  ) {
    delimiterText = delimiter ?? ""
    flatText = flat ?? ""
    lossyText = optionalArrayElements ?? ""
    present =
      (delimiter == nil ? 0 : Self.hasDelimiter) | (flat == nil ? 0 : Self.hasFlat)
      | (optionalArrayElements == nil ? 0 : Self.hasLossy)
  }

  /// The options every subscript uses unless it is given others: `"."`, `""` and `"* "`.
  public static let `default` = KeyOptions()

  private mutating func set(
    _ value: String?, into text: WritableKeyPath<KeyOptions, String>, flag: UInt8
  ) {
    self[keyPath: text] = value ?? ""
    present = value == nil ? present & ~flag : present | flag
  }

  /// Whether two options read every key the same way.
  ///
  /// - Parameters:
  ///   - lhs: Options.
  ///   - rhs: Other options.
  /// - Returns: `true` when all three markers are equal (both `nil`, or the same string).
  @inlinable
  public static func == (lhs: KeyOptions, rhs: KeyOptions) -> Bool {
    lhs.present == rhs.present && lhs.delimiterText == rhs.delimiterText
      && lhs.flatText == rhs.flatText && lhs.lossyText == rhs.lossyText
  }

  /// Hashes the three markers.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(present)
    hasher.combine(delimiterText)
    hasher.combine(flatText)
    hasher.combine(lossyText)
  }
}

extension KeyOptions: CustomStringConvertible {
  /// The options as they would be written in code.
  public var description: String {
    func text(_ marker: String?) -> String { marker.map { "\"\($0)\"" } ?? "nil" }
    return "KeyOptions(delimiter: \(text(delimiter)), flat: \(text(flat)), "
      + "optionalArrayElements: \(text(optionalArrayElements)))"
  }
}
