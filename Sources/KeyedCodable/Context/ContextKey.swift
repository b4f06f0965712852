/// A typed name for a value handed to decoding and encoding.
///
/// Declare keys as static members, so `map(map:)` reads them as their type with no cast:
///
/// ```swift
/// extension ContextKey where Value == TextColor {
///     static let textColor = ContextKey("textColor")
/// }
///
/// // The caller, in one of two ways:
/// let label = try decoder.decode(Label.self, from: data, with: .value(.red, for: .textColor))
/// decoder.userInfo[ContextKey.textColor.userInfoKey] = TextColor.red
///
/// // In Label.map(map:):
/// textColor = try map.context(.textColor, default: .black)
/// ```
///
/// A value is looked up first in the ``MappingContext`` of the call, then in the `userInfo` of
/// the decoder or encoder under the key's ``userInfoKey``.
public struct ContextKey<Value>: Hashable, Sendable, CustomStringConvertible {
  /// The key's name, also the raw value of its ``userInfoKey``.
  public let name: String

  /// Creates a key.
  ///
  /// - Parameter name: A name unique among the keys of the program.
  public init(_ name: String) {
    self.name = name
  }

  /// The `userInfo` key under which coders may hold the value instead.
  public var userInfoKey: CodingUserInfoKey {
    CodingUserInfoKey(name: name)
  }

  /// The key's name, quoted.
  public var description: String { "\"\(name)\"" }
}

extension CodingUserInfoKey {
  /// A key whose raw value is `name`.
  ///
  /// `CodingUserInfoKey(rawValue:)` is failable although it accepts every string; this is the
  /// same key without the optional.
  init(name: String) {
    if let key = CodingUserInfoKey(rawValue: name) {
      self = key
    } else {
      // Not reached: the failable initializer accepts every string. The key is a struct holding
      // its raw value and nothing else.
      self = unsafeBitCast(name, to: CodingUserInfoKey.self)
    }
  }
}
