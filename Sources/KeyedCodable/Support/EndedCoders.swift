/// A decoder that reads nothing: it stands in for the decoder of a finished run that is kept for
/// reuse (see ``RunPool``), so the run holds no reference to a document it is done with.
///
/// A run reads from it only if it is used without being restarted, which KeyedCodable never
/// does; every container it is asked for throws.
struct EndedDecoder: Decoder {
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw ended
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw ended
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw ended
  }

  private var ended: any Error {
    MappingErrors.internalInconsistency(
      "A finished run was read from before it was restarted.", codingPath: [])
  }
}

/// An encoder that writes nowhere: it stands in for the encoder of a finished run that is kept
/// for reuse (see ``RunPool``), so the run holds no reference to an output it is done with.
///
/// A run writes to it only if it is used without being restarted, which KeyedCodable never
/// does; what is written is dropped.
struct EndedEncoder: Encoder {
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(Keyed<Key>())
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    Unkeyed()
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    Single()
  }

  private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(Keyed<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      Unkeyed()
    }
    mutating func superEncoder() -> any Encoder { EndedEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { EndedEncoder() }
  }

  private struct Unkeyed: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    {
      KeyedEncodingContainer(Keyed<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed() }
    mutating func superEncoder() -> any Encoder { EndedEncoder() }
  }

  private struct Single: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
  }
}
