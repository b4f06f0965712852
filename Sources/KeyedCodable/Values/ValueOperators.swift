// The mapping operators for a ``ValueMapping``: the same six as for a plain ``Mapping``, for
// properties of the transform's value type and for optionals of it.

/// Decodes `left` through the mapping's transform, or encodes it there.
///
/// - Parameters:
///   - left: The property; required unless the mapping has a default.
///   - right: The mapping, `map["key"].using(...)`.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable
public func <-> <Transform: ValueTransform>(
  left: inout Transform.Value, right: ValueMapping<Transform>
) throws {
  if right.mapping.map.isDecoding {
    try left <<- right
  } else {
    try left ->> right
  }
}

/// Decodes optional storage through the mapping's transform, or encodes it there.
///
/// - Parameters:
///   - left: The property; `nil` when the key is missing or `null` (unless the mapping is
///     required or has a default); `nil` is not written.
///   - right: The mapping, `map["key"].using(...)`.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable
public func <-> <Transform: ValueTransform>(
  left: inout Transform.Value?, right: ValueMapping<Transform>
) throws {
  if right.mapping.map.isDecoding {
    try left <<- right
  } else {
    try left ->> right
  }
}

/// Decodes `left` through the mapping's transform; does nothing while encoding.
///
/// - Parameters:
///   - left: The property.
///   - right: The mapping.
/// - Throws: `DecodingError` with the full coding path.
@inlinable
public func <<- <Transform: ValueTransform>(
  left: inout Transform.Value, right: ValueMapping<Transform>
) throws {
  // Through optional chaining, as in `<<-` for plain mappings.
  if let value = try right.mapping.map.decoding?.decodeValue(right, required: true) {
    left = value
  }
}

/// Decodes optional storage through the mapping's transform; does nothing while encoding.
///
/// - Parameters:
///   - left: The property.
///   - right: The mapping.
/// - Throws: `DecodingError` with the full coding path.
@inlinable
public func <<- <Transform: ValueTransform>(
  left: inout Transform.Value?, right: ValueMapping<Transform>
) throws {
  guard right.mapping.map.isDecoding,
    right.mapping.map.decoding?.isSelected(right.mapping) == true
  else { return }
  left = try right.mapping.map.decoding?.decodeValue(right, required: right.mapping.isRequired)
}

/// Encodes `left` through the mapping's transform; does nothing while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping.
/// - Throws: `EncodingError` with the full coding path.
@inlinable
public func ->> <Transform: ValueTransform>(
  left: Transform.Value, right: ValueMapping<Transform>
) throws {
  try right.mapping.map.encoding?.encodeValue(left, right)
}

/// Encodes an optional value through the mapping's transform, writing nothing for `nil` (or
/// `null`, with ``ValueMapping/explicitNull(_:)``); does nothing while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping.
/// - Throws: `EncodingError` with the full coding path.
@inlinable
public func ->> <Transform: ValueTransform>(
  left: Transform.Value?, right: ValueMapping<Transform>
) throws {
  guard let run = right.mapping.map.encoding else { return }
  if let left {
    try run.encodeValue(left, right)
  } else {
    try run.encodeNil(
      Transform.Representation.self, right.mapping, required: right.mapping.isRequired)
  }
}

/// Decodes `left` through the mapping's transform if its key is present, or encodes it.
///
/// - Parameters:
///   - left: The property; unchanged when the key is absent (unless the mapping has a default).
///   - right: The mapping.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable
public func <?> <Transform: ValueTransform>(
  left: inout Transform.Value, right: ValueMapping<Transform>
) throws {
  if right.mapping.map.isDecoding {
    try left <<? right
  } else {
    try left ?>> right
  }
}

/// Decodes optional storage through the mapping's transform if its key is present, or encodes
/// it.
///
/// - Parameters:
///   - left: The property; unchanged when the key is absent.
///   - right: The mapping.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable
public func <?> <Transform: ValueTransform>(
  left: inout Transform.Value?, right: ValueMapping<Transform>
) throws {
  if right.mapping.map.isDecoding {
    try left <<? right
  } else {
    try left ?>> right
  }
}

/// Decodes `left` through the mapping's transform if its key is present; does nothing while
/// encoding.
///
/// - Parameters:
///   - left: The property; unchanged when the key is absent.
///   - right: The mapping.
/// - Throws: `DecodingError` for a present value that does not decode.
@inlinable
public func <<? <Transform: ValueTransform>(
  left: inout Transform.Value, right: ValueMapping<Transform>
) throws {
  guard let run = right.mapping.map.decoding else { return }
  if let value = try run.decodeValue(right, required: false) {
    left = value
  }
}

/// Decodes optional storage through the mapping's transform if its key is present; does
/// nothing while encoding.
///
/// - Parameters:
///   - left: The property; unchanged when the key is absent.
///   - right: The mapping.
/// - Throws: `DecodingError` for a present value that does not decode.
@inlinable
public func <<? <Transform: ValueTransform>(
  left: inout Transform.Value?, right: ValueMapping<Transform>
) throws {
  guard let run = right.mapping.map.decoding else { return }
  if let value = try run.decodeValue(right, required: false) {
    left = value
  }
}

/// Encodes `left` through the mapping's transform; does nothing while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping.
/// - Throws: `EncodingError` with the full coding path.
@inlinable
public func ?>> <Transform: ValueTransform>(
  left: Transform.Value, right: ValueMapping<Transform>
) throws {
  try left ->> right
}

/// Encodes an optional value through the mapping's transform, writing nothing for `nil`, even
/// when the mapping is required; does nothing while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping.
/// - Throws: `EncodingError` with the full coding path.
@inlinable
public func ?>> <Transform: ValueTransform>(
  left: Transform.Value?, right: ValueMapping<Transform>
) throws {
  guard let run = right.mapping.map.encoding else { return }
  if let left {
    try run.encodeValue(left, right)
  } else {
    try run.encodeNil(Transform.Representation.self, right.mapping, required: false)
  }
}
