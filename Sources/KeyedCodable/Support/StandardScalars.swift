// The concrete methods of the coding containers for the types every coder implements natively.
//
// Compiler-synthesized `Codable` calls `decode(Int.self, forKey:)`, not the generic
// `decode<T>(_:forKey:)`; coders often implement the concrete methods faster (no nested decoder,
// no dynamic type checks). KeyedCodable's mapping functions are generic, so they compare the
// value's type with each standard type (a pointer comparison) and call the matching concrete
// method, falling back to the generic one for every other type.

extension KeyedDecodingContainer where Key == PathKey {
  /// Decodes a required value, through the concrete method when `Value` is a standard type.
  @inlinable
  func decodeValue<Value: Decodable>(_ type: Value.Type, forKey key: PathKey) throws -> Value {
    if Value.self == String.self {
      return reinterpret(try decode(String.self, forKey: key), as: Value.self)
    } else if Value.self == Int.self {
      return reinterpret(try decode(Int.self, forKey: key), as: Value.self)
    } else if Value.self == Double.self {
      return reinterpret(try decode(Double.self, forKey: key), as: Value.self)
    } else if Value.self == Bool.self {
      return reinterpret(try decode(Bool.self, forKey: key), as: Value.self)
    } else if Value.self == Float.self {
      return reinterpret(try decode(Float.self, forKey: key), as: Value.self)
    } else if Value.self == Int64.self {
      return reinterpret(try decode(Int64.self, forKey: key), as: Value.self)
    } else if Value.self == Int32.self {
      return reinterpret(try decode(Int32.self, forKey: key), as: Value.self)
    } else if Value.self == Int16.self {
      return reinterpret(try decode(Int16.self, forKey: key), as: Value.self)
    } else if Value.self == Int8.self {
      return reinterpret(try decode(Int8.self, forKey: key), as: Value.self)
    } else if Value.self == UInt.self {
      return reinterpret(try decode(UInt.self, forKey: key), as: Value.self)
    } else if Value.self == UInt64.self {
      return reinterpret(try decode(UInt64.self, forKey: key), as: Value.self)
    } else if Value.self == UInt32.self {
      return reinterpret(try decode(UInt32.self, forKey: key), as: Value.self)
    } else if Value.self == UInt16.self {
      return reinterpret(try decode(UInt16.self, forKey: key), as: Value.self)
    } else if Value.self == UInt8.self {
      return reinterpret(try decode(UInt8.self, forKey: key), as: Value.self)
    }
    return try decode(Value.self, forKey: key)
  }

  /// Decodes an optional value, through the concrete method when `Value` is a standard type.
  @inlinable
  func decodeValueIfPresent<Value: Decodable>(
    _ type: Value.Type, forKey key: PathKey
  ) throws -> Value? {
    if Value.self == String.self {
      return reinterpret(try decodeIfPresent(String.self, forKey: key), as: Value?.self)
    } else if Value.self == Int.self {
      return reinterpret(try decodeIfPresent(Int.self, forKey: key), as: Value?.self)
    } else if Value.self == Double.self {
      return reinterpret(try decodeIfPresent(Double.self, forKey: key), as: Value?.self)
    } else if Value.self == Bool.self {
      return reinterpret(try decodeIfPresent(Bool.self, forKey: key), as: Value?.self)
    } else if Value.self == Float.self {
      return reinterpret(try decodeIfPresent(Float.self, forKey: key), as: Value?.self)
    } else if Value.self == Int64.self {
      return reinterpret(try decodeIfPresent(Int64.self, forKey: key), as: Value?.self)
    } else if Value.self == Int32.self {
      return reinterpret(try decodeIfPresent(Int32.self, forKey: key), as: Value?.self)
    } else if Value.self == Int16.self {
      return reinterpret(try decodeIfPresent(Int16.self, forKey: key), as: Value?.self)
    } else if Value.self == Int8.self {
      return reinterpret(try decodeIfPresent(Int8.self, forKey: key), as: Value?.self)
    } else if Value.self == UInt.self {
      return reinterpret(try decodeIfPresent(UInt.self, forKey: key), as: Value?.self)
    } else if Value.self == UInt64.self {
      return reinterpret(try decodeIfPresent(UInt64.self, forKey: key), as: Value?.self)
    } else if Value.self == UInt32.self {
      return reinterpret(try decodeIfPresent(UInt32.self, forKey: key), as: Value?.self)
    } else if Value.self == UInt16.self {
      return reinterpret(try decodeIfPresent(UInt16.self, forKey: key), as: Value?.self)
    } else if Value.self == UInt8.self {
      return reinterpret(try decodeIfPresent(UInt8.self, forKey: key), as: Value?.self)
    }
    return try decodeIfPresent(Value.self, forKey: key)
  }
}

extension KeyedEncodingContainer where Key == PathKey {
  /// Encodes a value, through the concrete method when `Value` is a standard type.
  @inlinable
  mutating func encodeValue<Value: Encodable>(_ value: Value, forKey key: PathKey) throws {
    if Value.self == String.self {
      try encode(reinterpret(value, as: String.self), forKey: key)
    } else if Value.self == Int.self {
      try encode(reinterpret(value, as: Int.self), forKey: key)
    } else if Value.self == Double.self {
      try encode(reinterpret(value, as: Double.self), forKey: key)
    } else if Value.self == Bool.self {
      try encode(reinterpret(value, as: Bool.self), forKey: key)
    } else if Value.self == Float.self {
      try encode(reinterpret(value, as: Float.self), forKey: key)
    } else if Value.self == Int64.self {
      try encode(reinterpret(value, as: Int64.self), forKey: key)
    } else if Value.self == Int32.self {
      try encode(reinterpret(value, as: Int32.self), forKey: key)
    } else if Value.self == Int16.self {
      try encode(reinterpret(value, as: Int16.self), forKey: key)
    } else if Value.self == Int8.self {
      try encode(reinterpret(value, as: Int8.self), forKey: key)
    } else if Value.self == UInt.self {
      try encode(reinterpret(value, as: UInt.self), forKey: key)
    } else if Value.self == UInt64.self {
      try encode(reinterpret(value, as: UInt64.self), forKey: key)
    } else if Value.self == UInt32.self {
      try encode(reinterpret(value, as: UInt32.self), forKey: key)
    } else if Value.self == UInt16.self {
      try encode(reinterpret(value, as: UInt16.self), forKey: key)
    } else if Value.self == UInt8.self {
      try encode(reinterpret(value, as: UInt8.self), forKey: key)
    } else {
      try encode(value, forKey: key)
    }
  }
}

/// Whether `Value` is one of the standard types the coding containers have concrete methods for.
@inlinable @inline(__always)
func isStandardScalar<Value>(_ type: Value.Type) -> Bool {
  Value.self == String.self || Value.self == Int.self || Value.self == Double.self
    || Value.self == Bool.self || Value.self == Float.self || Value.self == Int64.self
    || Value.self == Int32.self || Value.self == Int16.self || Value.self == Int8.self
    || Value.self == UInt.self || Value.self == UInt64.self || Value.self == UInt32.self
    || Value.self == UInt16.self || Value.self == UInt8.self
}

/// Returns `value` as `Target`, which the caller has checked is the type of `value`.
///
/// A reinterpretation of the same bits, not a conversion: only call it after comparing
/// `Source.self == Target.self`.
@inlinable @inline(__always)
func reinterpret<Source, Target>(_ value: Source, as target: Target.Type) -> Target {
  unsafeBitCast(value, to: Target.self)
}
