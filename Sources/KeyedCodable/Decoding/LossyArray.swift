/// Implemented by arrays of decodable elements: decoding that drops the elements that fail.
protocol LossyDecodableArray {
  /// Decodes every element of `container` that decodes, in order, skipping the others.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the container cannot step over an invalid
  ///   element (so the loop can never spin on the same element).
  static func decodeDroppingInvalidElements(
    from container: inout any UnkeyedDecodingContainer
  ) throws -> Self
}

extension Array: LossyDecodableArray where Element: Decodable {
  static func decodeDroppingInvalidElements(
    from container: inout any UnkeyedDecodingContainer
  ) throws -> [Element] {
    var elements: [Element] = []
    while !container.isAtEnd {
      let position = container.currentIndex
      do {
        elements.append(try container.decode(Element.self))
        continue
      } catch {
        // Dropped on request: the mapping key carries the lossy-array marker.
      }
      // Coders do not move past an element that failed; step over it explicitly.
      if container.currentIndex == position {
        _ = try? container.decode(SkippedElement.self)
      }
      if container.currentIndex == position {
        _ = try? container.decodeNil()
      }
      guard container.currentIndex > position else {
        throw MappingErrors.cannotSkipElement(at: position, codingPath: container.codingPath)
      }
    }
    return elements
  }
}

/// A value that decodes from anything, used to step over an invalid array element.
private struct SkippedElement: Decodable {
  init(from decoder: any Decoder) {}
}
