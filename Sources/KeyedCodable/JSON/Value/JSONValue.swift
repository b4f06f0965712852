/// Any JSON value: `null`, a Boolean, a number, a string, an array or an object.
///
/// Use it for the parts of a document a model doesn't name (a free-form `metadata` member, a
/// settings document, an object you edit and send back) or to look at a document before
/// deciding what it is. It is `Codable`, `Hashable` and `Sendable`, and written with literals:
///
/// ```swift
/// let user: JSONValue = ["name": "Ada", "languages": ["en", "fr"], "age": 36, "admin": nil]
/// user["name"]?.stringValue            // "Ada"
/// user["languages"]?[1]                // "fr"
/// user[path: "name"]                   // "Ada", with the key paths of mappings
/// ```
///
/// What it keeps:
///
/// - **Numbers** keep the exact text they were written with (``Number``): `1.10`, `1e400` and
///   `12345678901234567890123` come back out of ``KeyedJSONEncoder`` as they went into
///   ``KeyedJSONDecoder``, whatever `Double` or `Int` could hold.
/// - **Objects** keep the order of their members (``Object``), and each name once: of two
///   members with one name, decoding keeps the first, which is the one Foundation's
///   `JSONDecoder` reads.
///
/// How values compare: numbers by their exact decimal value (`1`, `1.0` and `1e0` are equal;
/// `0.1` and `0.10000000000000001` are not, though they are one `Double`), objects whatever the
/// order of their members (`{"a":1,"b":2}` equals `{"b":2,"a":1}`), strings as Swift strings
/// (canonical equivalence), arrays element by element. `true` is not the number `1`.
///
/// On ``KeyedJSONDecoder`` and ``KeyedJSONEncoder`` a value is read straight from the parsed
/// document and written straight into the output. On any other coder it goes through the
/// coder's containers; see <doc:JSONValues> for what such a coder keeps of numbers and of the
/// order of members.
public enum JSONValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, with its exact text.
  case number(Number)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object: its members, in order, each name once.
  case object(Object)
}

// MARK: - Typed accessors

extension JSONValue {
  /// Whether the value is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The Boolean, when the value is `true` or `false`; `nil` for any other value (the number
  /// `1` is not `true`).
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The string, when the value is a string; `nil` for any other value (a number is not
  /// converted).
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number, with its exact text, when the value is a number; `nil` otherwise.
  public var numberValue: Number? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The number as an `Int`, when the value is a number whose value is an integer that fits
  /// (`3`, `3.0`, `3e0`, `-0`); `nil` otherwise.
  ///
  /// The same numbers decode as an `Int` with ``KeyedJSONDecoder`` and Foundation's
  /// `JSONDecoder`. See ``Number/integer(as:)`` for other integer types.
  public var intValue: Int? {
    numberValue?.intValue
  }

  /// The number as the nearest `Double`, when the value is a number `Double` can hold; `nil`
  /// otherwise, also for a number too large (`1e400`) or too small (`1e-400`) for `Double`.
  ///
  /// The same numbers decode as a `Double` with ``KeyedJSONDecoder``.
  public var doubleValue: Double? {
    numberValue?.doubleValue
  }

  /// The elements, when the value is an array; `nil` otherwise.
  ///
  /// Change the elements in place through it; nothing changes when the value is not an array:
  ///
  /// ```swift
  /// var list: JSONValue = [1, 2]
  /// list.arrayValue?.append(3)        // [1, 2, 3]
  /// ```
  ///
  /// Setting it replaces the value with an array, or with `null` when set to `nil`.
  public var arrayValue: [JSONValue]? {
    get {
      if case .array(let elements) = self { return elements }
      return nil
    }
    set {
      self = newValue.map(JSONValue.array) ?? .null
    }
    _modify {
      // The elements are moved out while they change, so that they are not copied; a value
      // that is not an array stays as it is unless an array is stored.
      var elements: [JSONValue]?
      if case .array(let current) = self { elements = current }
      let wasArray = elements != nil
      if wasArray { self = .null }
      defer {
        if wasArray || elements != nil { self = elements.map(JSONValue.array) ?? .null }
      }
      yield &elements
    }
  }

  /// The members, when the value is an object; `nil` otherwise.
  ///
  /// Change the members in place through it; nothing changes when the value is not an object:
  ///
  /// ```swift
  /// var user: JSONValue = ["name": "Ada"]
  /// user.objectValue?["age"] = 36                 // {"name":"Ada","age":36}
  /// user.objectValue?["name"] = nil               // {"age":36}
  /// ```
  ///
  /// Setting it replaces the value with an object, or with `null` when set to `nil`.
  public var objectValue: Object? {
    get {
      if case .object(let members) = self { return members }
      return nil
    }
    set {
      self = newValue.map(JSONValue.object) ?? .null
    }
    _modify {
      // As for `arrayValue`: moved out while they change.
      var members: Object?
      if case .object(let current) = self { members = current }
      let wasObject = members != nil
      if wasObject { self = .null }
      defer {
        if wasObject || members != nil { self = members.map(JSONValue.object) ?? .null }
      }
      yield &members
    }
  }
}
