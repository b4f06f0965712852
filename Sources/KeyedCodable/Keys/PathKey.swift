/// The coding key KeyedCodable hands to the underlying containers: one segment of a key path.
///
/// Built once when a mapping key is parsed and reused for every decode and encode, so reading a
/// nested value never allocates keys or splits strings.
///
/// Three words, so that it fits the inline storage of an existential: coders handle keys through
/// generic code and `any CodingKey`, where a larger key would be boxed on the heap, and a class
/// would be retained and released (atomically) at every copy. Copying this key copies a
/// `String`, which costs nothing for names of up to 15 UTF-8 bytes.
@usableFromInline
struct PathKey: CodingKey, Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let stringValue: String
  /// The integer value, or `Int.min` for none (see ``intValue``).
  @usableFromInline let storedInt: Int

  /// The key's integer value, if it has one.
  ///
  /// `Int.min` stands for none, so that the key stays three words: a key whose integer value is
  /// `Int.min` is told apart by its name, which is then that number's text (as for every key
  /// made from an integer). A copied key whose integer value is `Int.min` under another name
  /// keeps its name only.
  @usableFromInline var intValue: Int? {
    if storedInt != .min {
      return storedInt
    }
    return stringValue == Self.minimumIntText ? .min : nil
  }

  private static let minimumIntText = String(Int.min)

  private init(name: String, intValue: Int?) {
    stringValue = name
    storedInt = intValue ?? .min
  }

  init(_ name: String) {
    self.init(name: name, intValue: nil)
  }

  /// A key of a plan's path tree.
  init(planSegment name: String) {
    self.init(name: name, intValue: nil)
  }

  @usableFromInline
  init(stringValue: String) {
    self.init(name: stringValue, intValue: nil)
  }

  @usableFromInline
  init(intValue: Int) {
    self.init(name: String(intValue), intValue: intValue)
  }

  /// The key of the member `name` of a `[String: Value]` dictionary, as the standard library's
  /// `Dictionary` coding names it: with the integer value of a name that reads as an `Int`
  /// (`"1"` has `intValue` 1, `"-2"` has -2), as in Foundation's coding paths.
  ///
  /// - Parameter name: The member's name.
  init(dictionaryMember name: String) {
    self.init(name: name, intValue: Int(name))
  }

  /// The key of element `index` of an array, named as Foundation's coders name it
  /// (`"Index 0"`), so that paths built here read like theirs.
  init(index: Int) {
    self.init(name: "Index \(index)", intValue: index)
  }

  /// Copies another coding key, keeping both its string and its integer value (see
  /// ``intValue`` for the one exception).
  init(_ key: some CodingKey) {
    self.init(name: key.stringValue, intValue: key.intValue)
  }

  /// The member name in quotes, as coders print it in error messages.
  @usableFromInline var description: String { "\"\(stringValue)\"" }

  /// The key coders use to report the position of a superclass value (`"super"`).
  static let superKey = PathKey("super")

  /// The empty member name, shared.
  static let empty = PathKey("")
}

/// The key of an element of an array in a coding path, named as Foundation's coders name it
/// (`"Index 0"`) when its name is asked for.
///
/// Paths are built for every error, and user-written JSON value types throw several errors per
/// value (a `try?` chain): an element's name is only written out when someone reads it.
struct IndexKey: CodingKey, Sendable, CustomStringConvertible {
  /// The element's position.
  let index: Int

  init(index: Int) {
    self.index = index
  }

  var stringValue: String { "Index \(index)" }

  var intValue: Int? { index }

  init?(stringValue: String) {
    return nil
  }

  init?(intValue: Int) {
    index = intValue
  }

  var description: String { "Index \(index)" }
}
