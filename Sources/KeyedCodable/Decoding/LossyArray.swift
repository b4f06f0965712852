/// Implemented by arrays of decodable elements: decoding that drops the elements that fail.
protocol LossyDecodableArray: RangeReplaceableCollection {
  /// Decodes every element of `container` that decodes, in order, skipping the others.
  ///
  /// - Parameters:
  ///   - container: The array.
  ///   - dropped: Called with the position and the error of every element left out.
  /// - Returns: The elements that decoded.
  /// - Throws: `DecodingError.dataCorrupted` when the container cannot step over an invalid
  ///   element (so the loop can never spin on the same element).
  static func decodeDroppingInvalidElements(
    from container: inout any UnkeyedDecodingContainer,
    dropped: (_ position: Int, _ error: any Error) -> Void
  ) throws -> Self

  #if !KEYED_CODABLE_MAPPING_ONLY
    /// Decodes every element of the array at `entry` of `decoder`'s document that decodes, in
    /// order, skipping the others: as ``decodeDroppingInvalidElements(from:dropped:)``, each
    /// element read from the tape with no unkeyed container in between.
    ///
    /// - Parameters:
    ///   - decoder: The decoder of the document.
    ///   - entry: The array's entry, which is an array.
    ///   - path: The array's coding path.
    ///   - dropped: Called with the position and the error of every element left out.
    /// - Returns: The elements that decoded.
    static func decodeDroppingInvalidElements(
      json decoder: JSONValueDecoder, array entry: Int, at path: JSONCodingPath,
      dropped: (_ position: Int, _ error: any Error) -> Void
    ) -> Self
  #endif
}

extension Array: LossyDecodableArray where Element: Decodable {}

/// The most elements a lossy array makes room for before decoding any.
private let lossyReservedElements = 4096

// Written for the collection, not in an extension of `Array`: this code is not specialized, and
// there each append to the array being built would look up the metadata of `Array<Element>`
// (about 300 instructions per element, 5% of decoding a lossy array of small objects) instead
// of using the witness table it is given.
extension LossyDecodableArray where Element: Decodable {
  static func decodeDroppingInvalidElements(
    from container: inout any UnkeyedDecodingContainer,
    dropped: (_ position: Int, _ error: any Error) -> Void
  ) throws -> Self {
    var elements = Self()
    if let count = container.count, count > 0 {
      // A count is what a coder says the array holds, which in some formats is a number read
      // from the data before its elements: room for at most `lossyReservedElements` up front, the
      // rest as elements arrive.
      elements.reserveCapacity(Swift.min(count, lossyReservedElements))
    }
    while !container.isAtEnd {
      let position = container.currentIndex
      do {
        elements.append(try container.decode(Element.self))
        continue
      } catch {
        // Dropped on request: the mapping key carries the lossy-array marker.
        dropped(position, error)
      }
      try container.skipFailedElement(at: position)
    }
    return elements
  }
}

#if !KEYED_CODABLE_MAPPING_ONLY
  extension LossyDecodableArray where Element: Decodable {
    static func decodeDroppingInvalidElements(
      json decoder: JSONValueDecoder, array entry: Int, at path: JSONCodingPath,
      dropped: (_ position: Int, _ error: any Error) -> Void
    ) -> Self {
      let document = decoder.document
      let count = document.memberCount(entry)
      var elements = Self()
      // The count of elements the tape holds, each at least a byte of the document.
      guard count > 0 else { return elements }
      elements.reserveCapacity(count)
      var element = entry &+ 1
      if decoder.decodesItself(Element.self) {
        // As an array that is not lossy: the array's path swapped in once, each element then
        // only its index.
        decoder.withElementPaths(below: path) {
          for index in 0..<count {
            do {
              elements.append(try decoder.decodeElement(element, as: Element.self, index: index))
            } catch {
              // Dropped on request: the mapping key carries the lossy-array marker.
              dropped(index, error)
            }
            element = document.next(element)
          }
        }
        return elements
      }
      for index in 0..<count {
        do {
          elements.append(
            try decoder.unwrap(element, as: Element.self, at: path.appending(index: index)))
        } catch {
          dropped(index, error)
        }
        element = document.next(element)
      }
      return elements
    }
  }
#endif

extension UnkeyedDecodingContainer {
  /// Moves past the element at `position`, which failed to decode: coders do not move past an
  /// element that failed.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the container cannot step over it.
  mutating func skipFailedElement(at position: Int) throws {
    if currentIndex == position {
      _ = try? decode(SkippedElement.self)
    }
    if currentIndex == position {
      _ = try? decodeNil()
    }
    guard currentIndex > position else {
      throw MappingErrors.cannotSkipElement(at: position, codingPath: codingPath)
    }
  }
}

/// Implemented by dictionaries with `String` keys: decoding that drops the entries that fail.
protocol LossyDecodableDictionary {
  /// Decodes every entry of the object `decoder` holds that decodes, skipping the others.
  ///
  /// - Parameters:
  ///   - decoder: A decoder positioned at the object.
  ///   - dropped: Called with the key and the error of every entry left out.
  /// - Returns: The entries that decoded.
  /// - Throws: The decoder's error when the value is not an object.
  static func decodeDroppingInvalidEntries(
    from decoder: any Decoder, dropped: (_ key: PathKey, _ error: any Error) -> Void
  ) throws -> Self
}

extension Dictionary: LossyDecodableDictionary where Key == String, Value: Decodable {
  static func decodeDroppingInvalidEntries(
    from decoder: any Decoder, dropped: (_ key: PathKey, _ error: any Error) -> Void
  ) throws -> [String: Value] {
    let container = try decoder.container(keyedBy: PathKey.self)
    var entries: [String: Value] = [:]
    // In key order: coders list members in no fixed order, and drops are reported in order.
    let keys = container.allKeys.sorted {
      $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8)
    }
    for key in keys {
      do {
        entries[key.stringValue] = try container.decode(Value.self, forKey: key)
      } catch {
        // Dropped on request: the mapping key carries the lossy marker.
        dropped(key, error)
      }
    }
    return entries
  }
}

/// Decodes a lossy dictionary through the generic `Decodable` path, keeping what it dropped.
struct LossyDictionaryBox<Entries: LossyDecodableDictionary>: Decodable {
  let entries: Entries
  let dropped: [(key: [any CodingKey], error: any Error)]

  init(from decoder: any Decoder) throws {
    var dropped: [(key: [any CodingKey], error: any Error)] = []
    let path = decoder.codingPath
    entries = try Entries.decodeDroppingInvalidEntries(from: decoder) { key, error in
      dropped.append((path + [key], error))
    }
    self.dropped = dropped
  }
}

/// A value that decodes from anything, used to step over an invalid array element.
private struct SkippedElement: Decodable {
  init(from decoder: any Decoder) {}
}

/// Implemented by the collections the lossy marker applies to: arrays, and dictionaries with
/// `String` keys.
protocol LossyCollection {}

extension Array: LossyCollection {}

extension Dictionary: LossyCollection where Key == String {}
