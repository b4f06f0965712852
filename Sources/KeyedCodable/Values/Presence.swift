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

// The `ValueMapping` overloads are written like those in ValueOperators.swift (a `where` clause
// that ties the property's type to the transform's, and `@_disfavoredOverload`), so that a
// `Presence` of the wrong type is reported with both types.

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
  if let presence = try run.decodePresence(Value.self, right, required: right.isRequired) {
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
@inlinable @_disfavoredOverload
public func <-> <Wrapped, Transform: ValueTransform>(
  left: inout Presence<Wrapped>, right: ValueMapping<Transform>
) throws where Transform.Value == Wrapped {
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
@inlinable @_disfavoredOverload
public func <<- <Wrapped, Transform: ValueTransform>(
  left: inout Presence<Wrapped>, right: ValueMapping<Transform>
) throws where Transform.Value == Wrapped {
  guard let run = right.mapping.map.decoding else { return }
  if let presence = try run.decodePresence(right) {
    left = presence
  }
}

/// Encodes `left` through the mapping's transform as nothing, `null` or the value; does nothing
/// while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping, `map["key"].using(...)`.
/// - Throws: `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func ->> <Wrapped, Transform: ValueTransform>(
  left: Presence<Wrapped>, right: ValueMapping<Transform>
) throws where Transform.Value == Wrapped {
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
  /// - Parameters:
  ///   - type: The type of the value.
  ///   - mapping: The mapping.
  ///   - required: Whether the key must be there (it may hold `null`).
  /// - Returns: The presence, or `nil` when the mapping is not selected.
  /// - Throws: `keyNotFound` for a required key that is missing, and the errors of a present
  ///   value that does not decode.
  @usableFromInline
  func decodePresence<Value: Decodable>(_ type: Value.Type, _ mapping: Mapping, required: Bool)
    throws -> Presence<Value>?
  {
    try checkInUse(mapping)
    if selection != nil, skips(mapping) {
      return nil
    }
    let target = target(of: mapping, valueType: Value.self)
    return try presence(of: Value.self, at: target, mapping, required: required)
  }

  /// Decodes the value of a ``ValueMapping`` as absent, `null` or a value converted by its
  /// transform; a default for invalid values replaces a present value that fails.
  ///
  /// - Returns: The presence, or `nil` when the mapping is not selected.
  @usableFromInline
  func decodePresence<Transform: ValueTransform>(_ mapping: ValueMapping<Transform>) throws
    -> Presence<Transform.Value>?
  {
    try checkInUse(mapping.mapping)
    if selection != nil, skips(mapping.mapping) {
      return nil
    }
    let target = target(of: mapping.mapping, valueType: Transform.Representation.self)
    let fallback = mapping.fallback.flatMap { $0.condition.coversInvalid ? $0 : nil }
    if fallback != nil {
      // The default stands in for this value, not for the model (see `decodeValue`).
      _ = try objectIsOpen(0, for: mapping.mapping, required: true)
    }
    do {
      let presence = try presence(
        of: Transform.Representation.self, at: target, mapping.mapping,
        required: mapping.mapping.isRequired, absentIsError: false)
      switch presence {
      case .absent: return .absent
      case .null: return .null
      case .value(let representation):
        do {
          return .value(try convert(representation, with: mapping.transform, for: mapping.mapping))
        } catch {
          throw transformFailure(
            error, mapping.mapping, representation: representation,
            valueType: Transform.Value.self)
        }
      }
    } catch let error where fallback != nil && !(error is RequiredKeyMissing) {
      guard let fallback else { throw error }
      report(
        .defaulted(value: CodingPathText.shown(fallback.value)),
        at: valueCodingPath(of: target), keyPath: mapping.mapping.keyDescription, error: error)
      return .value(fallback.value)
    } catch let missing as RequiredKeyMissing {
      throw missing.error
    }
  }

  /// Decodes the value at `target` as absent, `null` or a value.
  private func presence<Value: Decodable>(
    of type: Value.Type, at target: MappingTarget, _ mapping: Mapping, required: Bool,
    absentIsError: Bool = true
  ) throws -> Presence<Value> {
    guard case .value(let parent, _, let key, _) = target else {
      // A flat value or a listed object has no member of its own: present or absent.
      return try decodeResolved(Value.self, at: target, mapping, required: false).map {
        .value($0)
      } ?? .absent
    }
    do {
      guard try objectIsOpen(parent, for: mapping, required: required) else { return .absent }
    } catch {
      // An object on the way to a required key is missing or null.
      throw absentIsError ? error : RequiredKeyMissing(error: error)
    }
    switch try backend.presence(of: key, in: parent) {
    case .missing:
      guard required else { return .absent }
      let error = MappingErrors.absentMember(
        key, isNull: false, codingPath: codingPath(to: parent), keyPath: mapping.keyDescription)
      throw absentIsError ? error : RequiredKeyMissing(error: error)
    case .null:
      return .null
    case .object, .unopened:
      guard let value = try decodeResolved(Value.self, at: target, mapping, required: true) else {
        return .absent
      }
      return .value(value)
    }
  }
}

/// A required key that is missing, kept apart from the errors a default replaces.
private struct RequiredKeyMissing: Error {
  let error: any Error
}
