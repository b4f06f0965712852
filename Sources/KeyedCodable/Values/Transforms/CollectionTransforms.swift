/// A transform applied to every element of an array; made by ``ValueTransform/array(_:)``.
///
/// With the lossy marker on the key (`"* links"`), elements whose representation or transform
/// fails are dropped and recorded in the decode's report; without it, the first failure throws
/// at the element's coding path.
public struct ArrayTransform<Element: ValueTransform>: ValueTransform {
  /// The transform of each element.
  public let element: Element

  /// Creates the transform.
  ///
  /// - Parameter element: The transform of each element.
  public init(_ element: Element) {
    self.element = element
  }

  /// Converts every element.
  ///
  /// - Parameter representation: The elements as the document holds them.
  /// - Returns: The converted elements.
  /// - Throws: The first element's error, with the element's position.
  public func decode(_ representation: [Element.Representation]) throws -> [Element.Value] {
    var values: [Element.Value] = []
    values.reserveCapacity(representation.count)
    for (index, item) in representation.enumerated() {
      do {
        values.append(
          try TransformEvents.element(PathKey(index: index)) { try element.decode(item) })
      } catch {
        throw ElementFailure(key: PathKey(index: index), error: error)
      }
    }
    return values
  }

  /// Converts every element back.
  ///
  /// - Parameter value: The property's elements.
  /// - Returns: The elements as the document holds them.
  /// - Throws: The first element's error, with the element's position.
  public func encode(_ value: [Element.Value]) throws -> [Element.Representation] {
    var items: [Element.Representation] = []
    items.reserveCapacity(value.count)
    for (index, item) in value.enumerated() {
      do {
        items.append(try element.encode(item))
      } catch {
        throw ElementFailure(key: PathKey(index: index), error: error)
      }
    }
    return items
  }
}

/// A transform applied to every value of a dictionary with string keys; made by
/// ``ValueTransform/dictionary(_:)``.
///
/// With the lossy marker on the key (`"* rates"`), entries whose representation or transform
/// fails are dropped and recorded in the decode's report.
public struct DictionaryTransform<Element: ValueTransform>: ValueTransform {
  /// The transform of each value.
  public let element: Element

  /// Creates the transform.
  ///
  /// - Parameter element: The transform of each value.
  public init(_ element: Element) {
    self.element = element
  }

  /// Converts every value.
  ///
  /// - Parameter representation: The entries as the document holds them.
  /// - Returns: The converted entries.
  /// - Throws: The error of the first entry that fails, in key order, with its key.
  public func decode(_ representation: [String: Element.Representation]) throws -> [String:
    Element.Value]
  {
    var values: [String: Element.Value] = [:]
    values.reserveCapacity(representation.count)
    for key in representation.keys.sorted() {
      guard let item = representation[key] else { continue }
      do {
        values[key] = try TransformEvents.element(PathKey(stringValue: key)) {
          try element.decode(item)
        }
      } catch {
        throw ElementFailure(key: PathKey(stringValue: key), error: error)
      }
    }
    return values
  }

  /// Converts every value back.
  ///
  /// - Parameter value: The property's entries.
  /// - Returns: The entries as the document holds them.
  /// - Throws: The error of the first entry that fails, in key order, with its key.
  public func encode(_ value: [String: Element.Value]) throws -> [String: Element.Representation] {
    var items: [String: Element.Representation] = [:]
    items.reserveCapacity(value.count)
    for key in value.keys.sorted() {
      guard let item = value[key] else { continue }
      do {
        items[key] = try element.encode(item)
      } catch {
        throw ElementFailure(key: PathKey(stringValue: key), error: error)
      }
    }
    return items
  }
}

extension ValueTransform {
  /// `element` applied to every element of an array.
  ///
  /// ```swift
  /// try links <-> map["links"].using(.array(.url))
  /// try links <-> map["* links"].using(.array(.url))   // invalid URLs dropped
  /// ```
  ///
  /// - Parameter element: The transform of each element.
  /// - Returns: The transform of the array.
  public static func array<Element>(_ element: Element) -> Self
  where Self == ArrayTransform<Element> {
    ArrayTransform(element)
  }

  /// `element` applied to every value of a dictionary with string keys.
  ///
  /// ```swift
  /// try mirrors <-> map["mirrors"].using(.dictionary(.url))
  /// ```
  ///
  /// - Parameter element: The transform of each value.
  /// - Returns: The transform of the dictionary.
  public static func dictionary<Element>(_ element: Element) -> Self
  where Self == DictionaryTransform<Element> {
    DictionaryTransform(element)
  }
}

/// The failure of one element of a collection transform: the element's key and its error.
struct ElementFailure: Error {
  /// The element's position or key.
  let key: PathKey
  /// Its error.
  let error: any Error

  /// The keys from the collection down to the innermost failing element, and that element's
  /// error.
  var flattened: (keys: [PathKey], error: any Error) {
    var keys = [key]
    var error = self.error
    while let inner = error as? ElementFailure {
      keys.append(inner.key)
      error = inner.error
    }
    return (keys, error)
  }
}
