/// What an encoder is given for a value, as a tree: the form two writes of one key path are
/// compared in.
///
/// Two mappings may write the same place (a nested value and one of its members, the same key
/// path twice). When they write equal values, the output holds the value once; when they
/// differ, encoding throws. "Equal" means the encoder would be handed the same thing: scalars
/// compare by value (numbers by numeric value, whatever their Swift type: `1` and `1.0` are the
/// same JSON number), arrays element by element, objects member by member in any order.
enum EncodedValue: Equatable {
  case null
  case bool(Bool)
  case string(String)
  case integer(Int64)
  case unsigned(UInt64)
  case floating(Double)
  case array([EncodedValue])
  case object([String: EncodedValue])

  /// Captures what `value` encodes as.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - codingPath: The full path of the place it is written to, for the errors it throws.
  ///   - userInfo: The `userInfo` of the encoder it is written to.
  /// - Returns: What the value hands an encoder, as a tree.
  /// - Throws: The value's own encoding errors.
  static func capture(
    _ value: some Encodable, at codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]
  ) throws -> EncodedValue {
    let root = CaptureSlot()
    try value.encode(to: CapturingEncoder(slot: root, codingPath: codingPath, userInfo: userInfo))
    return root.value
  }

  static func == (lhs: EncodedValue, rhs: EncodedValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let left), .bool(let right)): return left == right
    case (.string(let left), .string(let right)): return left == right
    case (.array(let left), .array(let right)): return left == right
    case (.object(let left), .object(let right)): return left == right
    default:
      guard let left = lhs.number, let right = rhs.number else { return false }
      return left == right
    }
  }

  /// A number as a comparable value: exact for every integer, by value for floating point.
  private var number: Number? {
    switch self {
    case .integer(let value): .exact(value.magnitude, negative: value < 0)
    case .unsigned(let value): .exact(value, negative: false)
    case .floating(let value):
      if let exact = Int64(exactly: value) {
        .exact(exact.magnitude, negative: exact < 0)
      } else if let exact = UInt64(exactly: value) {
        .exact(exact, negative: false)
      } else {
        .floating(value.isNaN ? .nan : value)
      }
    default: nil
    }
  }

  private enum Number: Equatable {
    case exact(UInt64, negative: Bool)
    case floating(Double)

    static func == (lhs: Number, rhs: Number) -> Bool {
      switch (lhs, rhs) {
      case (.exact(let left, let leftNegative), .exact(let right, let rightNegative)):
        return left == right && (leftNegative == rightNegative || left == 0)
      case (.floating(let left), .floating(let right)):
        // Written with a string strategy, NaN is a value like any other.
        return left == right || (left.isNaN && right.isNaN)
      default:
        return false
      }
    }
  }

  /// A short description for error messages: at most `limit` characters.
  func summary(limit: Int = 60) -> String {
    let text = description
    guard text.count > limit else { return text }
    return String(text.prefix(limit - 1)) + "…"
  }

  private var description: String {
    switch self {
    case .null: "null"
    case .bool(let value): "\(value)"
    case .string(let value): value.debugDescription
    case .integer(let value): "\(value)"
    case .unsigned(let value): "\(value)"
    case .floating(let value): "\(value)"
    case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
    case .object(let members):
      "{"
        + members.sorted { $0.key < $1.key }
        .map { "\($0.key.debugDescription): \($0.value.description)" }
        .joined(separator: ", ") + "}"
    }
  }
}

/// Where a captured value is built: a value, or an object or array still being filled.
private final class CaptureSlot {
  private enum Content {
    case value(EncodedValue)
    case object([(String, CaptureSlot)])
    case array([CaptureSlot])
  }

  /// An empty object until something is written: what `JSONEncoder` writes for a value that
  /// encodes nothing, or a super encoder that nothing is written through.
  private var content = Content.object([])

  var value: EncodedValue {
    switch content {
    case .value(let value):
      return value
    case .object(let members):
      var object: [String: EncodedValue] = [:]
      for (name, slot) in members {
        object[name] = slot.value
      }
      return .object(object)
    case .array(let elements):
      return .array(elements.map(\.value))
    }
  }

  func set(_ value: EncodedValue) {
    content = .value(value)
  }

  func makeObject() {
    if case .object = content { return }
    content = .object([])
  }

  func makeArray() {
    if case .array = content { return }
    content = .array([])
  }

  func member(_ name: String) -> CaptureSlot {
    makeObject()
    guard case .object(var members) = content else { return self }
    if let existing = members.last(where: { $0.0 == name }) {
      return existing.1
    }
    let slot = CaptureSlot()
    members.append((name, slot))
    content = .object(members)
    return slot
  }

  func appendElement() -> CaptureSlot {
    makeArray()
    guard case .array(var elements) = content else { return self }
    let slot = CaptureSlot()
    elements.append(slot)
    content = .array(elements)
    return slot
  }

  var count: Int {
    if case .array(let elements) = content { return elements.count }
    return 0
  }
}

/// An encoder that records what it is given as an ``EncodedValue``.
private struct CapturingEncoder: Encoder {
  let slot: CaptureSlot
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]

  func container<Member: CodingKey>(keyedBy type: Member.Type) -> KeyedEncodingContainer<Member> {
    slot.makeObject()
    return KeyedEncodingContainer(
      CapturingKeyedContainer<Member>(slot: slot, codingPath: codingPath, userInfo: userInfo))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    slot.makeArray()
    return CapturingUnkeyedContainer(slot: slot, codingPath: codingPath, userInfo: userInfo)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    CapturingSingleValueContainer(slot: slot, codingPath: codingPath, userInfo: userInfo)
  }
}

/// Records a scalar, or hands a nested value a ``CapturingEncoder`` of its own slot.
private func capture(
  _ value: some Encodable, into slot: CaptureSlot, codingPath: [any CodingKey],
  userInfo: [CodingUserInfoKey: Any]
) throws {
  switch value {
  case let value as String: slot.set(.string(value))
  case let value as Bool: slot.set(.bool(value))
  case let value as Int: slot.set(.integer(Int64(value)))
  case let value as Int8: slot.set(.integer(Int64(value)))
  case let value as Int16: slot.set(.integer(Int64(value)))
  case let value as Int32: slot.set(.integer(Int64(value)))
  case let value as Int64: slot.set(.integer(value))
  case let value as UInt: slot.set(.unsigned(UInt64(value)))
  case let value as UInt8: slot.set(.unsigned(UInt64(value)))
  case let value as UInt16: slot.set(.unsigned(UInt64(value)))
  case let value as UInt32: slot.set(.unsigned(UInt64(value)))
  case let value as UInt64: slot.set(.unsigned(value))
  case let value as Double: slot.set(.floating(value))
  case let value as Float: slot.set(.floating(Double(value)))
  default:
    // A value inside the captured one: its depth is this encoder's to bound.
    guard let pool = RunPool.current else {
      return try value.encode(
        to: CapturingEncoder(slot: slot, codingPath: codingPath, userInfo: userInfo))
    }
    try pool.nested(encoding: value, at: codingPath) {
      try value.encode(to: CapturingEncoder(slot: slot, codingPath: codingPath, userInfo: userInfo))
    }
  }
}

private struct CapturingKeyedContainer<Member: CodingKey>: KeyedEncodingContainerProtocol {
  let slot: CaptureSlot
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]

  mutating func encodeNil(forKey key: Member) throws {
    slot.member(key.stringValue).set(.null)
  }

  mutating func encode<Value: Encodable>(_ value: Value, forKey key: Member) throws {
    try capture(
      value, into: slot.member(key.stringValue), codingPath: codingPath + [key],
      userInfo: userInfo)
  }

  mutating func nestedContainer<Nested: CodingKey>(
    keyedBy keyType: Nested.Type, forKey key: Member
  ) -> KeyedEncodingContainer<Nested> {
    CapturingEncoder(
      slot: slot.member(key.stringValue), codingPath: codingPath + [key], userInfo: userInfo
    ).container(keyedBy: Nested.self)
  }

  mutating func nestedUnkeyedContainer(forKey key: Member) -> any UnkeyedEncodingContainer {
    CapturingEncoder(
      slot: slot.member(key.stringValue), codingPath: codingPath + [key], userInfo: userInfo
    ).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    CapturingEncoder(
      slot: slot.member(PathKey.superKey.stringValue), codingPath: codingPath + [PathKey.superKey],
      userInfo: userInfo)
  }

  mutating func superEncoder(forKey key: Member) -> any Encoder {
    CapturingEncoder(
      slot: slot.member(key.stringValue), codingPath: codingPath + [key], userInfo: userInfo)
  }
}

private struct CapturingUnkeyedContainer: UnkeyedEncodingContainer {
  let slot: CaptureSlot
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]

  var count: Int { slot.count }

  private var nextPath: [any CodingKey] { codingPath + [PathKey(index: count)] }

  mutating func encodeNil() throws {
    slot.appendElement().set(.null)
  }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    let path = nextPath
    try capture(value, into: slot.appendElement(), codingPath: path, userInfo: userInfo)
  }

  mutating func nestedContainer<Nested: CodingKey>(
    keyedBy keyType: Nested.Type
  ) -> KeyedEncodingContainer<Nested> {
    let path = nextPath
    return CapturingEncoder(slot: slot.appendElement(), codingPath: path, userInfo: userInfo)
      .container(keyedBy: Nested.self)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = nextPath
    return CapturingEncoder(slot: slot.appendElement(), codingPath: path, userInfo: userInfo)
      .unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let path = nextPath
    return CapturingEncoder(slot: slot.appendElement(), codingPath: path, userInfo: userInfo)
  }
}

private struct CapturingSingleValueContainer: SingleValueEncodingContainer {
  let slot: CaptureSlot
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]

  mutating func encodeNil() throws {
    slot.set(.null)
  }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    try capture(value, into: slot, codingPath: codingPath, userInfo: userInfo)
  }
}
