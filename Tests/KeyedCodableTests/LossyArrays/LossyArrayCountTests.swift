import Foundation
import KeyedCodable
import Testing

/// A lossy array does not trust the count a coder gives: some formats read it from the data
/// before the elements.
struct LossyArrayCountTests {
  struct Numbers: Decodable, Keyedable {
    var numbers: [Int] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try numbers <-> map["* numbers"]
    }
  }

  @Test func aCountFarAboveTheElementsIsNotReservedUpFront() throws {
    let decoder = CountingDecoder(members: ["numbers": [1, "two", 3]], claimedCount: .max)
    #expect(try Numbers(from: decoder).numbers == [1, 3])
  }

  @Test func aCountBelowTheElementsStillReadsThemAll() throws {
    let decoder = CountingDecoder(members: ["numbers": [1, 2, "x", 4, 5]], claimedCount: 1)
    #expect(try Numbers(from: decoder).numbers == [1, 2, 4, 5])
  }
}

/// A decoder of one object of arrays whose unkeyed containers report `claimedCount`, whatever
/// they hold: the count of a format that states it ahead of the elements.
private struct CountingDecoder: Decoder {
  let members: [String: [Any]]
  let claimedCount: Int
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(Members<Key>(decoder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw DecodingError.typeMismatch(
      [Any].self, .init(codingPath: [], debugDescription: "The top level is an object"))
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw DecodingError.typeMismatch(
      Any.self, .init(codingPath: [], debugDescription: "The top level is an object"))
  }

  private struct Members<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: CountingDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { decoder.members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { decoder.members[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      throw DecodingError.typeMismatch(
        T.self, .init(codingPath: [key], debugDescription: "Only arrays are held"))
    }

    func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) throws
      -> KeyedDecodingContainer<Nested>
    {
      throw DecodingError.typeMismatch(
        [String: Any].self, .init(codingPath: [key], debugDescription: "Only arrays are held"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      guard let values = decoder.members[key.stringValue] else {
        throw DecodingError.keyNotFound(
          key, .init(codingPath: [], debugDescription: "No member \(key.stringValue)"))
      }
      return Elements(values: values, count: decoder.claimedCount, codingPath: [key])
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
  }

  /// Integers and other values; decoding moves past the element whether or not it decodes.
  private struct Elements: UnkeyedDecodingContainer {
    let values: [Any]
    let count: Int?
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= values.count }

    init(values: [Any], count: Int, codingPath: [any CodingKey]) {
      self.values = values
      self.count = count
      self.codingPath = codingPath
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      guard !isAtEnd else {
        throw DecodingError.valueNotFound(
          T.self, .init(codingPath: codingPath, debugDescription: "At the end"))
      }
      defer { currentIndex += 1 }
      guard let value = values[currentIndex] as? T else {
        throw DecodingError.typeMismatch(
          T.self, .init(codingPath: codingPath, debugDescription: "Not a \(T.self)"))
      }
      return value
    }

    mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type) throws
      -> KeyedDecodingContainer<Nested>
    {
      throw DecodingError.typeMismatch(
        [String: Any].self, .init(codingPath: codingPath, debugDescription: "Flat elements"))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      throw DecodingError.typeMismatch(
        [Any].self, .init(codingPath: codingPath, debugDescription: "Flat elements"))
    }

    mutating func superDecoder() throws -> any Decoder {
      throw DecodingError.typeMismatch(
        Any.self, .init(codingPath: codingPath, debugDescription: "Flat elements"))
    }
  }
}
