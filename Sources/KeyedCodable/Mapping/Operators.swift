/// The precedence of the mapping operators: below every other operator but assignment.
precedencegroup MappingPrecedence {
  associativity: none
  higherThan: AssignmentPrecedence
  lowerThan: TernaryPrecedence
}

/// Decodes and encodes a property: `try name <-> map["name"]`.
infix operator <-> : MappingPrecedence
/// Decodes a property only: `try id <<- map["id"]`.
infix operator <<- : MappingPrecedence
/// Encodes a value only: `try tag ->> map["tag"]`.
infix operator ->> : MappingPrecedence
/// Decodes and encodes a property that keeps its value when the key is absent.
infix operator <?> : MappingPrecedence
/// Decodes a property only if its key is present: `try count <<? map["count"]`.
infix operator <<? : MappingPrecedence
/// Encodes a value only, like `->>`; the encoding half of `<?>`.
infix operator ?>> : MappingPrecedence

// The operators for a plain ``Mapping`` are `@_disfavoredOverload`: a mapping made with a
// transform (a ``ValueMapping``) on a property of the wrong type then fails against the
// `ValueMapping` overloads, whose messages name the property's type and the transform's (see
// ValueOperators.swift), instead of as "cannot convert value of type 'ValueMapping<...>' to
// expected argument type 'Mapping'". Correct code is not affected: a right-hand side is either
// a `Mapping` or a `ValueMapping`, so only overloads of one kind ever fit.

// MARK: - Decoding and encoding

/// Decodes `left` from the mapping's key, or encodes it there.
///
/// Non-optional storage is required: decoding throws `DecodingError.keyNotFound` when the key
/// is missing and `valueNotFound` when it is `null`.
///
/// - Parameters:
///   - left: The property.
///   - right: The mapping, `map["key"]`.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func <-> <Value: Codable>(left: inout Value, right: Mapping) throws {
  if right.map.isDecoding {
    try left <<- right
  } else {
    try left ->> right
  }
}

/// Decodes optional storage (`T?` or `T!`) from the mapping's key, or encodes it there.
///
/// A missing key, or `null` at the key or anywhere on its path, decodes as `nil`; a value of the
/// wrong type throws `DecodingError.typeMismatch`. `nil` is not written when encoding. Use
/// ``Mapping/required()`` to require the key.
///
/// - Parameters:
///   - left: The property.
///   - right: The mapping, `map["key"]`.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func <-> <Value: Codable>(left: inout Value?, right: Mapping) throws {
  if right.map.isDecoding {
    try left <<- right
  } else {
    try left ->> right
  }
}

/// Decodes `left` from the mapping's key; does nothing while encoding.
///
/// - Parameters:
///   - left: The property; required, like with `<->`.
///   - right: The mapping, `map["key"]`.
/// - Throws: `DecodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func <<- <Value: Decodable>(left: inout Value, right: Mapping) throws {
  // The run is reached through optional chaining, never bound to a local: in the model's module
  // a local copy of the reference costs a retain and a release per mapping.
  if let value = try right.map.decoding?.decode(Value.self, right, required: true) {
    left = value
  }
}

/// Decodes optional storage from the mapping's key; does nothing while encoding.
///
/// - Parameters:
///   - left: The property; `nil` when the key is absent, like with `<->`.
///   - right: The mapping, `map["key"]`.
/// - Throws: `DecodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func <<- <Value: Decodable>(left: inout Value?, right: Mapping) throws {
  guard right.map.isDecoding, right.map.decoding?.isSelected(right) == true else { return }
  left = try right.map.decoding?.decode(Value.self, right, required: right.isRequired)
}

/// Encodes `left` at the mapping's key; does nothing while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping, `map["key"]`.
/// - Throws: `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func ->> <Value: Encodable>(left: Value, right: Mapping) throws {
  // Through optional chaining, as in `<<-`.
  try right.map.encoding?.encode(left, right)
}

/// Encodes an optional value at the mapping's key, writing nothing for `nil`; does nothing while
/// decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping, `map["key"]`.
/// - Throws: `EncodingError` with the full coding path; for `nil` only when the mapping is
///   ``Mapping/required()``.
@inlinable @_disfavoredOverload
public func ->> <Value: Encodable>(left: Value?, right: Mapping) throws {
  if let left {
    try right.map.encoding?.encode(left, right)
  } else {
    try right.map.encoding?.encodeNil(Value.self, right, required: right.isRequired)
  }
}

// MARK: - If present

/// Decodes `left` if its key is present, or encodes it.
///
/// A missing key or `null` anywhere on the path leaves `left` unchanged and throws nothing; a
/// present value of the wrong type still throws `DecodingError.typeMismatch`. Ports the "if
/// present" mappings of KeyedCodable 1.x.
///
/// - Parameters:
///   - left: The property.
///   - right: The mapping, `map["key"]`.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func <?> <Value: Codable>(left: inout Value, right: Mapping) throws {
  if right.map.isDecoding {
    try left <<? right
  } else {
    try left ?>> right
  }
}

/// Decodes optional storage if its key is present, or encodes it.
///
/// - Parameters:
///   - left: The property; unchanged when the key is absent.
///   - right: The mapping, `map["key"]`.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func <?> <Value: Codable>(left: inout Value?, right: Mapping) throws {
  if right.map.isDecoding {
    try left <<? right
  } else {
    try left ?>> right
  }
}

/// Decodes `left` if its key is present; does nothing while encoding.
///
/// - Parameters:
///   - left: The property; unchanged when the key is absent.
///   - right: The mapping, `map["key"]`.
/// - Throws: `DecodingError.typeMismatch` for a present value of the wrong type.
@inlinable @_disfavoredOverload
public func <<? <Value: Decodable>(left: inout Value, right: Mapping) throws {
  if let value = try right.map.decoding?.decode(Value.self, right, required: false) {
    left = value
  }
}

/// Decodes optional storage if its key is present; does nothing while encoding.
///
/// - Parameters:
///   - left: The property; unchanged when the key is absent.
///   - right: The mapping, `map["key"]`.
/// - Throws: `DecodingError.typeMismatch` for a present value of the wrong type.
@inlinable @_disfavoredOverload
public func <<? <Value: Decodable>(left: inout Value?, right: Mapping) throws {
  if let value = try right.map.decoding?.decode(Value.self, right, required: false) {
    left = value
  }
}

/// Encodes `left` at the mapping's key; does nothing while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping, `map["key"]`.
/// - Throws: `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func ?>> <Value: Encodable>(left: Value, right: Mapping) throws {
  try left ->> right
}

/// Encodes an optional value at the mapping's key, writing nothing for `nil`, even when the
/// mapping is ``Mapping/required()``; does nothing while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping, `map["key"]`.
/// - Throws: `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func ?>> <Value: Encodable>(left: Value?, right: Mapping) throws {
  if let left {
    try right.map.encoding?.encode(left, right)
  } else {
    try right.map.encoding?.encodeNil(Value.self, right, required: false)
  }
}
