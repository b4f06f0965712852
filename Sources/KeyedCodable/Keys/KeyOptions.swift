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
  /// The string that separates the segments of a nested key path, or `nil` to read every key
  /// as a single segment. Defaults to `"."`.
  public var delimiter: String?

  /// The key that maps a value from the members of the current object, or `nil` to treat that
  /// key as an ordinary member name. Defaults to `""`.
  public var flat: String?

  /// The prefix that marks an array whose invalid elements are dropped, or `nil` to read the
  /// prefix literally. Defaults to `"* "`.
  ///
  /// The marker may start the whole key (`"* data.items"`) or its last segment
  /// (`"data.* items"`). It only has this meaning when the mapped value is an array; for any
  /// other value it is part of the member name.
  public var optionalArrayElements: String?

  /// Creates options with the given markers.
  ///
  /// - Parameters:
  ///   - delimiter: The key path separator, or `nil` to disable nested key paths.
  ///   - flat: The flat key, or `nil` to disable flat mappings.
  ///   - optionalArrayElements: The lossy array prefix, or `nil` to disable lossy arrays.
  public init(
    delimiter: String? = ".",
    flat: String? = "",
    optionalArrayElements: String? = "* "
  ) {
    self.delimiter = delimiter
    self.flat = flat
    self.optionalArrayElements = optionalArrayElements
  }

  /// The options every subscript uses unless it is given others: `"."`, `""` and `"* "`.
  public static let `default` = KeyOptions()
}
