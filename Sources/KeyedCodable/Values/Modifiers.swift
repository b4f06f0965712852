import Foundation

// Modifiers: transforms that change a decoded value before it is stored (trimming, clamping,
// sorting, a closure), and write the property's value unchanged. Each exists as a
// ``ValueTransform`` and as a method of ``Mapping`` and ``ValueMapping``, so they compose in order:
//
//     try name <-> map["name"].trimmed().validate(.nonEmpty)
//     try scores <-> map["scores"].sorted(.descending)

/// A string without leading and trailing whitespace and line breaks; made by
/// ``Mapping/trimmed()``.
public struct TrimmedTransform: ValueTransform {
  /// Creates the transform.
  public init() {}

  /// The string, trimmed.
  ///
  /// - Parameter text: The string.
  /// - Returns: The string without leading and trailing whitespace.
  public func decode(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The string, unchanged.
  ///
  /// - Parameter text: The string.
  /// - Returns: The same string.
  public func encode(_ text: String) -> String { text }
}

/// A string without leading and trailing whitespace, or `nil` when nothing is left; made by
/// ``Mapping/trimmedNilIfEmpty()``.
public struct TrimmedNilIfEmptyTransform: ValueTransform {
  /// Creates the transform.
  public init() {}

  /// The string, trimmed, or `nil` when it is empty or only whitespace.
  ///
  /// - Parameter text: The string, or `nil`.
  /// - Returns: The trimmed string, or `nil`.
  public func decode(_ text: String?) -> String? {
    guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty
    else { return nil }
    return trimmed
  }

  /// The string, unchanged.
  ///
  /// - Parameter text: The string, or `nil`.
  /// - Returns: The same value.
  public func encode(_ text: String?) -> String? { text }
}

/// A value moved into a range; made by ``Mapping/clamped(to:)``, ``Mapping/minimum(_:)`` and
/// ``Mapping/maximum(_:)``.
public struct ClampedTransform<Value: Comparable & Codable & Sendable>: ValueTransform {
  /// The smallest value kept, if any.
  public let lowerBound: Value?
  /// The largest value kept, if any.
  public let upperBound: Value?

  /// Creates the transform.
  ///
  /// - Parameters:
  ///   - lowerBound: The smallest value kept; smaller values become it.
  ///   - upperBound: The largest value kept; larger values become it.
  public init(lowerBound: Value?, upperBound: Value?) {
    self.lowerBound = lowerBound
    self.upperBound = upperBound
  }

  /// The value, moved into the range.
  ///
  /// - Parameter value: The value.
  /// - Returns: The nearest value in the range.
  public func decode(_ value: Value) -> Value {
    if let lowerBound, value < lowerBound { return lowerBound }
    if let upperBound, value > upperBound { return upperBound }
    return value
  }

  /// The value, unchanged.
  ///
  /// - Parameter value: The value.
  /// - Returns: The same value.
  public func encode(_ value: Value) -> Value { value }
}

/// The order of a sort.
public enum SortOrder: Sendable, Hashable {
  /// Smallest first.
  case ascending
  /// Largest first.
  case descending
}

/// The elements of an array, sorted in their natural order; made by ``Mapping/sorted(_:)``.
///
/// The sort is stable: equal elements keep their order.
public struct SortedTransform<Element: Comparable & Codable>: ValueTransform {
  /// The order.
  public let order: SortOrder

  /// Creates the transform.
  ///
  /// - Parameter order: The order.
  public init(_ order: SortOrder = .ascending) {
    self.order = order
  }

  /// The elements, sorted.
  ///
  /// - Parameter elements: The elements.
  /// - Returns: The elements in order.
  public func decode(_ elements: [Element]) -> [Element] {
    switch order {
    case .ascending: stableSorted(elements) { $0 < $1 }
    case .descending: stableSorted(elements) { $0 > $1 }
    }
  }

  /// The elements, unchanged.
  ///
  /// - Parameter elements: The elements.
  /// - Returns: The same elements.
  public func encode(_ elements: [Element]) -> [Element] { elements }
}

/// The elements of an array, sorted by one of their properties; made by
/// ``Mapping/sorted(by:_:)``.
///
/// The sort is stable: elements with equal keys keep their order.
public struct SortedByKeyTransform<Element: Codable, Key: Comparable>: ValueTransform {
  /// The property to sort by.
  public let key: KeyPath<Element, Key> & Sendable
  /// The order.
  public let order: SortOrder

  /// Creates the transform.
  ///
  /// - Parameters:
  ///   - key: The property to sort by.
  ///   - order: The order.
  public init(by key: KeyPath<Element, Key> & Sendable, _ order: SortOrder = .ascending) {
    self.key = key
    self.order = order
  }

  /// The elements, sorted.
  ///
  /// - Parameter elements: The elements.
  /// - Returns: The elements in order.
  public func decode(_ elements: [Element]) -> [Element] {
    switch order {
    case .ascending: stableSorted(elements) { $0[keyPath: key] < $1[keyPath: key] }
    case .descending: stableSorted(elements) { $0[keyPath: key] > $1[keyPath: key] }
    }
  }

  /// The elements, unchanged.
  ///
  /// - Parameter elements: The elements.
  /// - Returns: The same elements.
  public func encode(_ elements: [Element]) -> [Element] { elements }
}

/// The elements of an array, sorted with a comparison; made by
/// ``Mapping/sorted(by:)``.
///
/// The sort is stable: equal elements keep their order.
public struct SortedByComparisonTransform<Element: Codable>: ValueTransform {
  /// Whether the first element belongs before the second.
  let areInIncreasingOrder: @Sendable (Element, Element) -> Bool

  /// Creates the transform.
  ///
  /// - Parameter areInIncreasingOrder: Whether the first element belongs before the second.
  public init(by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool) {
    self.areInIncreasingOrder = areInIncreasingOrder
  }

  /// The elements, sorted.
  ///
  /// - Parameter elements: The elements.
  /// - Returns: The elements in order.
  public func decode(_ elements: [Element]) -> [Element] {
    stableSorted(elements, by: areInIncreasingOrder)
  }

  /// The elements, unchanged.
  ///
  /// - Parameter elements: The elements.
  /// - Returns: The same elements.
  public func encode(_ elements: [Element]) -> [Element] { elements }
}

/// `elements` sorted by `areInIncreasingOrder`, equal elements keeping their order.
private func stableSorted<Element>(
  _ elements: [Element], by areInIncreasingOrder: (Element, Element) -> Bool
) -> [Element] {
  elements.enumerated().sorted { first, second in
    if areInIncreasingOrder(first.element, second.element) { return true }
    if areInIncreasingOrder(second.element, first.element) { return false }
    return first.offset < second.offset
  }.map(\.element)
}

/// A value changed by a closure after decoding; made by ``Mapping/modified(_:)``.
public struct ModifiedTransform<Value: Codable>: ValueTransform {
  /// The change.
  let change: @Sendable (Value) throws -> Value

  /// Creates the transform.
  ///
  /// - Parameter change: The change; an error it throws fails the decode at the value's path.
  public init(_ change: @escaping @Sendable (Value) throws -> Value) {
    self.change = change
  }

  /// The value, changed.
  ///
  /// - Parameter value: The value.
  /// - Returns: The changed value.
  /// - Throws: The closure's error.
  public func decode(_ value: Value) throws -> Value {
    try change(value)
  }

  /// The value, unchanged.
  ///
  /// - Parameter value: The value.
  /// - Returns: The same value.
  public func encode(_ value: Value) -> Value { value }
}

// MARK: - Mapping methods

extension Mapping {
  /// This mapping, trimming leading and trailing whitespace and line breaks from its string.
  ///
  /// - Returns: A mapping for a `String` property.
  public func trimmed() -> ValueMapping<TrimmedTransform> {
    using(TrimmedTransform())
  }

  /// This mapping, trimming its string and giving `nil` when nothing is left.
  ///
  /// ```swift
  /// var nickname: String?
  /// try nickname <-> map["nickname"].trimmedNilIfEmpty()   // "  " → nil
  /// ```
  ///
  /// - Returns: A mapping for a `String?` property.
  public func trimmedNilIfEmpty() -> ValueMapping<TrimmedNilIfEmptyTransform> {
    using(TrimmedNilIfEmptyTransform())
  }

  /// This mapping, moving its value into `range`.
  ///
  /// - Parameter range: The values kept; others become the nearest bound.
  /// - Returns: A mapping for a property of the range's type.
  public func clamped<Value>(to range: ClosedRange<Value>) -> ValueMapping<ClampedTransform<Value>>
  {
    using(ClampedTransform(lowerBound: range.lowerBound, upperBound: range.upperBound))
  }

  /// This mapping, raising its value to at least `minimum`.
  ///
  /// - Parameter minimum: The smallest value kept.
  /// - Returns: A mapping for a property of the value's type.
  public func minimum<Value>(_ minimum: Value) -> ValueMapping<ClampedTransform<Value>> {
    using(ClampedTransform(lowerBound: minimum, upperBound: nil))
  }

  /// This mapping, lowering its value to at most `maximum`.
  ///
  /// - Parameter maximum: The largest value kept.
  /// - Returns: A mapping for a property of the value's type.
  public func maximum<Value>(_ maximum: Value) -> ValueMapping<ClampedTransform<Value>> {
    using(ClampedTransform(lowerBound: nil, upperBound: maximum))
  }

  /// This mapping, sorting its array.
  ///
  /// - Parameter order: Ascending unless given.
  /// - Returns: A mapping for an array property.
  public func sorted<Element: Comparable & Codable>(_ order: SortOrder = .ascending)
    -> ValueMapping<SortedTransform<Element>>
  {
    using(SortedTransform(order))
  }

  /// This mapping, sorting its array by a property of the elements.
  ///
  /// ```swift
  /// try players <-> map["players"].sorted(by: \.score, .descending)
  /// ```
  ///
  /// - Parameters:
  ///   - key: The property to sort by.
  ///   - order: Ascending unless given.
  /// - Returns: A mapping for an array property.
  public func sorted<Element: Codable, Key: Comparable>(
    by key: KeyPath<Element, Key> & Sendable, _ order: SortOrder = .ascending
  ) -> ValueMapping<SortedByKeyTransform<Element, Key>> {
    using(SortedByKeyTransform(by: key, order))
  }

  /// This mapping, sorting its array with a comparison.
  ///
  /// - Parameter areInIncreasingOrder: Whether the first element belongs before the second.
  /// - Returns: A mapping for an array property.
  public func sorted<Element: Codable>(
    by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
  ) -> ValueMapping<SortedByComparisonTransform<Element>> {
    using(SortedByComparisonTransform(by: areInIncreasingOrder))
  }

  /// This mapping, changing its value with `change` after decoding.
  ///
  /// ```swift
  /// try email <-> map["email"].modified { $0.lowercased() }
  /// ```
  ///
  /// - Parameter change: The change; an error it throws fails the decode at the value's path.
  /// - Returns: A mapping for a property of the closure's type.
  public func modified<Value: Codable>(_ change: @escaping @Sendable (Value) throws -> Value)
    -> ValueMapping<ModifiedTransform<Value>>
  {
    using(ModifiedTransform(change))
  }
}

extension ValueMapping where Transform.Value == String {
  /// This mapping, trimming the string its transform makes.
  ///
  /// - Returns: The mapping with the modifier after its transform.
  public func trimmed() -> ValueMapping<ChainedTransform<Transform, TrimmedTransform>> {
    then(TrimmedTransform())
  }
}

extension ValueMapping where Transform.Value: Comparable & Codable & Sendable {
  /// This mapping, moving the value its transform makes into `range`.
  ///
  /// - Parameter range: The values kept.
  /// - Returns: The mapping with the modifier after its transform.
  public func clamped(to range: ClosedRange<Transform.Value>)
    -> ValueMapping<ChainedTransform<Transform, ClampedTransform<Transform.Value>>>
  {
    then(ClampedTransform(lowerBound: range.lowerBound, upperBound: range.upperBound))
  }

  /// This mapping, raising the value its transform makes to at least `minimum`.
  ///
  /// - Parameter minimum: The smallest value kept.
  /// - Returns: The mapping with the modifier after its transform.
  public func minimum(_ minimum: Transform.Value)
    -> ValueMapping<ChainedTransform<Transform, ClampedTransform<Transform.Value>>>
  {
    then(ClampedTransform(lowerBound: minimum, upperBound: nil))
  }

  /// This mapping, lowering the value its transform makes to at most `maximum`.
  ///
  /// - Parameter maximum: The largest value kept.
  /// - Returns: The mapping with the modifier after its transform.
  public func maximum(_ maximum: Transform.Value)
    -> ValueMapping<ChainedTransform<Transform, ClampedTransform<Transform.Value>>>
  {
    then(ClampedTransform(lowerBound: nil, upperBound: maximum))
  }
}

extension ValueMapping where Transform.Value: Codable {
  /// This mapping, changing the value its transform makes with `change`.
  ///
  /// - Parameter change: The change.
  /// - Returns: The mapping with the modifier after its transform.
  public func modified(_ change: @escaping @Sendable (Transform.Value) throws -> Transform.Value)
    -> ValueMapping<ChainedTransform<Transform, ModifiedTransform<Transform.Value>>>
  {
    then(ModifiedTransform(change))
  }
}

extension ValueMapping where Transform.Value == String? {
  /// This mapping, trimming the optional string its transform makes and giving `nil` when
  /// nothing is left.
  ///
  /// - Returns: The mapping with the modifier after its transform.
  public func trimmedNilIfEmpty() -> ValueMapping<
    ChainedTransform<Transform, TrimmedNilIfEmptyTransform>
  > {
    then(TrimmedNilIfEmptyTransform())
  }
}

extension ValueMapping {
  /// This mapping, sorting the array its transform makes by a property of the elements.
  ///
  /// - Parameters:
  ///   - key: The property to sort by.
  ///   - order: Ascending unless given.
  /// - Returns: The mapping with the modifier after its transform.
  public func sorted<Element: Codable, Key: Comparable>(
    by key: KeyPath<Element, Key> & Sendable, _ order: SortOrder = .ascending
  ) -> ValueMapping<ChainedTransform<Transform, SortedByKeyTransform<Element, Key>>>
  where Transform.Value == [Element] {
    then(SortedByKeyTransform(by: key, order))
  }

  /// This mapping, sorting the array its transform makes with a comparison.
  ///
  /// - Parameter areInIncreasingOrder: Whether the first element belongs before the second.
  /// - Returns: The mapping with the modifier after its transform.
  public func sorted<Element: Codable>(
    by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
  ) -> ValueMapping<ChainedTransform<Transform, SortedByComparisonTransform<Element>>>
  where Transform.Value == [Element] {
    then(SortedByComparisonTransform(by: areInIncreasingOrder))
  }

  /// This mapping, sorting the array its transform makes.
  ///
  /// - Parameter order: Ascending unless given.
  /// - Returns: The mapping with the modifier after its transform.
  public func sorted<Element: Comparable & Codable>(_ order: SortOrder = .ascending)
    -> ValueMapping<ChainedTransform<Transform, SortedTransform<Element>>>
  where Transform.Value == [Element] {
    then(SortedTransform(order))
  }
}
