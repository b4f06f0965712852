/// A value that tells a missing key from `null`: what PATCH-style payloads need.
///
/// Decoding gives ``absent`` when the key is missing, ``null`` when it holds `null`, and
/// ``value(_:)`` otherwise; encoding writes nothing, `null` or the value, so a payload reads back
/// exactly as it was:
///
/// ```swift
/// struct ProfilePatch: Codable, Keyedable {
///     var nickname: Presence<String> = .absent
///
///     mutating func map(map: KeyMap) throws {
///         try nickname <-> map["nickname"]
///     }
/// }
/// // {}                   → .absent   (leave the nickname as it is)
/// // {"nickname": null}   → .null     (remove it)
/// // {"nickname": "Ann"}  → .value("Ann")
/// ```
///
/// A key path whose objects on the way are missing or `null` (`"profile.nickname"` with no
/// `profile`) is ``absent``.
public enum Presence<Wrapped> {
  /// The key is missing.
  case absent
  /// The key holds `null`.
  case null
  /// The key holds a value.
  case value(Wrapped)

  /// The value, or `nil` when absent or `null`.
  public var wrapped: Wrapped? {
    if case .value(let value) = self { return value }
    return nil
  }

  /// Whether the key holds something, `null` included.
  public var isPresent: Bool {
    if case .absent = self { return false }
    return true
  }
}

extension Presence: Equatable where Wrapped: Equatable {}
extension Presence: Hashable where Wrapped: Hashable {}
extension Presence: Sendable where Wrapped: Sendable {}

// MARK: - Operators

/// Decodes `left` as absent, `null` or a value, or encodes it as nothing, `null` or the value.
///
/// - Parameters:
///   - left: The property.
///   - right: The mapping, `map["key"]`.
/// - Throws: `DecodingError` for a present value that does not decode, `EncodingError` with the
///   full coding path.
@inlinable
public func <-> <Value: Codable>(left: inout Presence<Value>, right: Mapping) throws {
  if right.map.isDecoding {
    try left <<- right
  } else {
    try left ->> right
  }
}

/// Decodes `left` as absent, `null` or a value; does nothing while encoding.
///
/// - Parameters:
///   - left: The property.
///   - right: The mapping, `map["key"]`.
/// - Throws: `DecodingError` for a present value that does not decode.
@inlinable
public func <<- <Value: Decodable>(left: inout Presence<Value>, right: Mapping) throws {
  guard let run = right.map.decoding else { return }
  if let presence = try run.decodePresence(Value.self, right) {
    left = presence
  }
}

/// Encodes `left` as nothing, `null` or the value; does nothing while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping, `map["key"]`.
/// - Throws: `EncodingError` with the full coding path.
@inlinable
public func ->> <Value: Encodable>(left: Presence<Value>, right: Mapping) throws {
  guard let run = right.map.encoding else { return }
  switch left {
  case .absent:
    try run.encodeNil(Value.self, right, required: false, explicitNull: false)
  case .null:
    try run.encodeNull(right, valueType: Value.self)
  case .value(let value):
    try run.encode(value, right)
  }
}

/// Decodes `left` through the mapping's transform as absent, `null` or a value, or encodes it.
///
/// - Parameters:
///   - left: The property.
///   - right: The mapping, `map["key"].using(...)`.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable
public func <-> <Transform: ValueTransform>(
  left: inout Presence<Transform.Value>, right: ValueMapping<Transform>
) throws {
  if right.mapping.map.isDecoding {
    try left <<- right
  } else {
    try left ->> right
  }
}

/// Decodes `left` through the mapping's transform as absent, `null` or a value; does nothing
/// while encoding.
///
/// - Parameters:
///   - left: The property.
///   - right: The mapping, `map["key"].using(...)`.
/// - Throws: `DecodingError` for a present value that does not decode.
@inlinable
public func <<- <Transform: ValueTransform>(
  left: inout Presence<Transform.Value>, right: ValueMapping<Transform>
) throws {
  guard let run = right.mapping.map.decoding else { return }
  guard let presence = try run.decodePresence(Transform.Representation.self, right.mapping) else {
    return
  }
  switch presence {
  case .absent: left = .absent
  case .null: left = .null
  case .value(let representation):
    do {
      left = .value(
        try run.convert(representation, with: right.transform, for: right.mapping))
    } catch {
      throw run.transformFailure(
        error, right.mapping, representation: representation, valueType: Transform.Value.self)
    }
  }
}

/// Encodes `left` through the mapping's transform as nothing, `null` or the value; does nothing
/// while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping, `map["key"].using(...)`.
/// - Throws: `EncodingError` with the full coding path.
@inlinable
public func ->> <Transform: ValueTransform>(
  left: Presence<Transform.Value>, right: ValueMapping<Transform>
) throws {
  guard let run = right.mapping.map.encoding else { return }
  switch left {
  case .absent:
    try run.encodeNil(
      Transform.Representation.self, right.mapping, required: false, explicitNull: false)
  case .null:
    try run.encodeNull(right.mapping, valueType: Transform.Representation.self)
  case .value(let value):
    try run.encodeValue(value, right)
  }
}

extension DecodeRun {
  /// Decodes the value `mapping` points at as absent, `null` or a value.
  ///
  /// - Returns: The presence, or `nil` when the mapping is not selected.
  @usableFromInline
  func decodePresence<Value: Decodable>(_ type: Value.Type, _ mapping: Mapping) throws
    -> Presence<Value>?
  {
    try checkInUse(mapping)
    if selection != nil, skips(mapping) {
      return nil
    }
    let target = target(of: mapping, valueType: Value.self)
    guard case .value(let parent, _, let key, _) = target else {
      // A flat value or a listed object has no member of its own: present or absent.
      return try decodeResolved(Value.self, at: target, mapping, required: false).map {
        .value($0)
      } ?? .absent
    }
    guard try objectIsOpen(parent, for: mapping, required: false) else { return .absent }
    switch try backend.presence(of: key, in: parent) {
    case .missing: return .absent
    case .null: return .null
    case .object, .unopened:
      guard let value = try decodeResolved(Value.self, at: target, mapping, required: true) else {
        return .absent
      }
      return .value(value)
    }
  }
}
