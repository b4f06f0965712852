// The mapping operators for a ``ValueMapping``: the same six as for a plain ``Mapping``, for
// properties of the transform's value type and for optionals of it.
//
// Written for compile-time messages that name both types. Each takes the property as its own
// generic parameter, `Property`, tied to the transform by `where Transform.Value == Property`:
// a property of another type breaks that requirement, and the compiler says "operator function
// '<->' requires the types 'String' and 'Date' be equivalent", with the note "where 'Property' =
// 'String', 'Transform.Value' = 'Date'". The overloads for optional storage are
// `@_disfavoredOverload`: for a `String?` property and a `Date` transform both overloads fail,
// and the mark picks the first one's message instead of "binary operator '<->' cannot be
// applied to operands". Neither changes which overload correct code uses: only one fits it.

/// Decodes `left` through the mapping's transform, or encodes it there.
///
/// - Parameters:
///   - left: The property; required unless the mapping has a default.
///   - right: The mapping, `map["key"].using(...)`.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable
public func <-> <Property, Transform: ValueTransform>(
  left: inout Property, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
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
@inlinable @_disfavoredOverload
public func <-> <Property, Transform: ValueTransform>(
  left: inout Property?, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
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
public func <<- <Property, Transform: ValueTransform>(
  left: inout Property, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
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
@inlinable @_disfavoredOverload
public func <<- <Property, Transform: ValueTransform>(
  left: inout Property?, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
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
public func ->> <Property, Transform: ValueTransform>(
  left: Property, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
  try right.mapping.map.encoding?.encodeValue(left, right)
}

/// Encodes an optional value through the mapping's transform, writing nothing for `nil` (or
/// `null`, with ``ValueMapping/explicitNull(_:)``); does nothing while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping.
/// - Throws: `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func ->> <Property, Transform: ValueTransform>(
  left: Property?, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
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
public func <?> <Property, Transform: ValueTransform>(
  left: inout Property, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
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
@inlinable @_disfavoredOverload
public func <?> <Property, Transform: ValueTransform>(
  left: inout Property?, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
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
public func <<? <Property, Transform: ValueTransform>(
  left: inout Property, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
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
@inlinable @_disfavoredOverload
public func <<? <Property, Transform: ValueTransform>(
  left: inout Property?, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
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
public func ?>> <Property, Transform: ValueTransform>(
  left: Property, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
  try left ->> right
}

/// Encodes an optional value through the mapping's transform, writing nothing for `nil`, even
/// when the mapping is required; does nothing while decoding.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping.
/// - Throws: `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func ?>> <Property, Transform: ValueTransform>(
  left: Property?, right: ValueMapping<Transform>
) throws where Transform.Value == Property {
  guard let run = right.mapping.map.encoding else { return }
  if let left {
    try run.encodeValue(left, right)
  } else {
    try run.encodeNil(Transform.Representation.self, right.mapping, required: false)
  }
}

// The same operators for a property whose type is an existential (`var pet: any Pet` with
// `polymorphic(_:)`). Passed to the generic `Property` above, such a property is opened to its
// dynamic type (SE-0352), which is not the transform's `any Pet`; these take the transform's
// value type itself, so nothing is opened. Disfavored: they are chosen only when the generic
// ones fail, so a property of a wrong type still gets the messages above.

/// Decodes `left` through the mapping's transform, or encodes it there: for a property of an
/// existential type, such as `any Shape` with `polymorphic(_:)`.
///
/// - Parameters:
///   - left: The property.
///   - right: The mapping.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func <-> <Transform: ValueTransform>(
  left: inout Transform.Value, right: ValueMapping<Transform>
) throws {
  try (left <-> right) as Void
}

/// Decodes `left` through the mapping's transform, for a property of an existential type.
///
/// - Parameters:
///   - left: The property.
///   - right: The mapping.
/// - Throws: `DecodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func <<- <Transform: ValueTransform>(
  left: inout Transform.Value, right: ValueMapping<Transform>
) throws {
  try (left <<- right) as Void
}

/// Encodes `left` through the mapping's transform, for a value of an existential type.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping.
/// - Throws: `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func ->> <Transform: ValueTransform>(
  left: Transform.Value, right: ValueMapping<Transform>
) throws {
  try (left ->> right) as Void
}

/// Decodes `left` through the mapping's transform when present, or encodes it there, for a
/// property of an existential type.
///
/// - Parameters:
///   - left: The property; unchanged when the key is absent.
///   - right: The mapping.
/// - Throws: `DecodingError` or `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func <?> <Transform: ValueTransform>(
  left: inout Transform.Value, right: ValueMapping<Transform>
) throws {
  try (left <?> right) as Void
}

/// Decodes `left` through the mapping's transform when present, for a property of an
/// existential type.
///
/// - Parameters:
///   - left: The property; unchanged when the key is absent.
///   - right: The mapping.
/// - Throws: `DecodingError` for a present value that does not decode.
@inlinable @_disfavoredOverload
public func <<? <Transform: ValueTransform>(
  left: inout Transform.Value, right: ValueMapping<Transform>
) throws {
  try (left <<? right) as Void
}

/// Encodes `left` through the mapping's transform, writing nothing for `nil`, for a value of an
/// existential type.
///
/// - Parameters:
///   - left: The value to write.
///   - right: The mapping.
/// - Throws: `EncodingError` with the full coding path.
@inlinable @_disfavoredOverload
public func ?>> <Transform: ValueTransform>(
  left: Transform.Value, right: ValueMapping<Transform>
) throws {
  try (left ?>> right) as Void
}
