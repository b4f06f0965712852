/// A mapping whose value passes through a ``ValueTransform`` (a conversion, defaults,
/// modifiers, validation) between the document and the property.
///
/// Made from a ``Mapping`` by ``Mapping/using(_:)-(Transform)``, ``Mapping/default(_:when:)``, a modifier
/// such as ``Mapping/trimmed()`` or a rule such as ``Mapping/validate(_:)-(ValidationRule<Value>)``;
/// connected to a property with the same operators as a plain mapping:
///
/// ```swift
/// try homepage <-> map["homepage"].using(.url)
/// try retries <-> map["retries"].default(3)
/// try name <-> map["name"].trimmed().validate(.nonEmpty)
/// ```
public struct ValueMapping<Transform: ValueTransform> {
  /// The key.
  @usableFromInline var mapping: Mapping
  /// The conversion between the document and the property.
  @usableFromInline let transform: Transform
  /// The value used when the document has none, or an invalid one.
  @usableFromInline var fallback: Fallback?
  /// Decodes an array or dictionary element by element, dropping the elements that fail when
  /// the key carries the lossy marker; set for the transforms of collections.
  @usableFromInline var elementwise:
    ((DecodeRun, Mapping, MappingTarget, _ required: Bool) throws -> Transform.Value?)?

  /// A default and when it applies.
  @usableFromInline
  struct Fallback {
    @usableFromInline let value: Transform.Value
    @usableFromInline let condition: DefaultCondition
  }

  @usableFromInline
  init(mapping: Mapping, transform: Transform) {
    self.mapping = mapping
    self.transform = transform
  }

  /// Whether the mapping has a default, a collection transform or extras: the general path.
  @inlinable var needsGeneralPath: Bool {
    fallback != nil || elementwise != nil || mapping.extras != nil
  }

  // MARK: - Building

  /// This mapping with `next` applied after its transform.
  ///
  /// A default given before is dropped: it has the type of this mapping's values; give it
  /// after the last transform.
  ///
  /// - Parameter next: A transform that reads this mapping's values.
  /// - Returns: The mapping with the composed transform.
  public func then<Next: ValueTransform>(_ next: Next) -> ValueMapping<
    ChainedTransform<Transform, Next>
  >
  where Next.Representation == Transform.Value {
    var chained = ValueMapping<ChainedTransform<Transform, Next>>(
      mapping: mapping, transform: transform.then(next))
    if let elementwise {
      // Keep reading collections element by element, then apply `next` to the result.
      chained.elementwise = { run, mapping, target, required in
        guard let value = try elementwise(run, mapping, target, required) else { return nil }
        return try next.decode(value)
      }
    }
    return chained
  }

  /// This mapping with `next`, which keeps the type of the value, applied after its transform.
  ///
  /// `next` is a modifier or a rule. A default given before stays, and applies to the result.
  ///
  /// - Parameter next: A transform from this mapping's values to values of the same type.
  /// - Returns: The mapping with the composed transform.
  public func then<Next: ValueTransform>(_ next: Next) -> ValueMapping<
    ChainedTransform<Transform, Next>
  >
  where Next.Representation == Transform.Value, Next.Value == Transform.Value {
    var chained = ValueMapping<ChainedTransform<Transform, Next>>(
      mapping: mapping, transform: transform.then(next))
    chained.fallback = fallback.map { .init(value: $0.value, condition: $0.condition) }
    if let elementwise {
      chained.elementwise = { run, mapping, target, required in
        guard let value = try elementwise(run, mapping, target, required) else { return nil }
        return try next.decode(value)
      }
    }
    return chained
  }

  /// This mapping with a value to use when the document has none, or an invalid one.
  ///
  /// ```swift
  /// try retries <-> map["retries"].default(3)                          // missing or null
  /// try level <-> map["level"].using(.rawValue()).default(.info, when: .absentOrInvalid)
  /// ```
  ///
  /// Non-optional properties then need neither `T!` nor a sentinel value. Encoding still writes
  /// the property's value. A default used after an invalid value is recorded in the decode's
  /// report (see ``DecodingReport``).
  ///
  /// - Parameters:
  ///   - value: The default.
  ///   - condition: When it applies: ``DefaultCondition/absent`` (the key is missing or
  ///     `null`, the default), ``DefaultCondition/invalid`` or
  ///     ``DefaultCondition/absentOrInvalid``.
  /// - Returns: A copy of the mapping.
  public func `default`(_ value: Transform.Value, when condition: DefaultCondition = .absent)
    -> ValueMapping
  {
    var copy = self
    copy.fallback = Fallback(value: value, condition: condition)
    return copy
  }

  /// This mapping for optional storage, with an optional value (usually `nil`) to use when the
  /// document has none, or an invalid one.
  ///
  /// For a transform whose values are not optional, such as `polymorphic(_:)` or
  /// `using(.iso8601)`, and a property that is:
  ///
  /// ```swift
  /// var payload: (any Payload)?
  /// try payload <-> map["payload"].polymorphic(.payloads).default(nil, when: .invalid)
  /// ```
  ///
  /// A missing key or `null` still decodes as `nil`; an invalid value decodes as `value` when
  /// `condition` covers it, and is recorded in the decode's report. A value of the transform's
  /// own type takes ``default(_:when:)->ValueMapping<Transform>`` instead.
  ///
  /// - Parameters:
  ///   - value: The default, `nil` or a value.
  ///   - condition: When it applies: ``DefaultCondition/absent`` unless given.
  /// - Returns: A mapping for a property of type `Transform.Value?`.
  @_disfavoredOverload
  public func `default`(_ value: Transform.Value?, when condition: DefaultCondition = .absent)
    -> ValueMapping<OptionalTransform<Transform>>
  {
    var optional = ValueMapping<OptionalTransform<Transform>>(
      mapping: mapping, transform: OptionalTransform(transform))
    if let elementwise {
      optional.elementwise = { run, mapping, target, required in
        // Optional storage: the key is required only when the mapping says so; absent and
        // asked for a value, the value is `nil`.
        if let value = try elementwise(run, mapping, target, required && mapping.isRequired) {
          return .some(value)
        }
        return required ? .some(nil) : nil
      }
    }
    optional.fallback = .init(value: value, condition: condition)
    return optional
  }

  /// The same mapping, made mandatory for optional storage (see ``Mapping/required()``).
  ///
  /// - Returns: A copy of the mapping.
  public func required() -> ValueMapping {
    var copy = self
    copy.mapping = mapping.required()
    return copy
  }

  /// The same mapping, writing `null` for a `nil` optional (see ``Mapping/explicitNull(_:)``).
  ///
  /// - Parameter enabled: Whether `nil` is written as `null`.
  /// - Returns: A copy of the mapping.
  public func explicitNull(_ enabled: Bool = true) -> ValueMapping {
    var copy = self
    copy.mapping = mapping.explicitNull(enabled)
    return copy
  }

  /// The same mapping, handing `configuration` to the value (see
  /// ``Mapping/configured(with:)``).
  ///
  /// - Parameter configuration: A value of any `Sendable` type.
  /// - Returns: A copy of the mapping.
  public func configured<Configuration: Sendable>(with configuration: Configuration)
    -> ValueMapping
  {
    var copy = self
    copy.mapping = mapping.configured(with: configuration)
    return copy
  }

  /// The same mapping, allowing `conversions` for the representation the transform reads (see
  /// ``Mapping/converting(_:)``).
  ///
  /// - Parameter conversions: The conversions.
  /// - Returns: A copy of the mapping.
  public func converting(_ conversions: Conversions = .lossy) -> ValueMapping {
    var copy = self
    copy.mapping = mapping.converting(conversions)
    return copy
  }
}

/// When a default replaces the document's value (see ``ValueMapping/default(_:when:)->ValueMapping<Transform>``).
public enum DefaultCondition: Sendable, Hashable {
  /// The key is missing, or holds `null`.
  case absent
  /// The key holds a value that fails to decode (a wrong type, a failed transform or rule).
  case invalid
  /// Either.
  case absentOrInvalid

  /// Whether the default replaces an absent value.
  @inlinable var coversAbsent: Bool { self != .invalid }
  /// Whether the default replaces an invalid value.
  @inlinable var coversInvalid: Bool { self != .absent }
}

extension Mapping {
  /// This mapping, converting its value with `transform`.
  ///
  /// ```swift
  /// try homepage <-> map["homepage"].using(.url)
  /// try birthday <-> map["birthday"].using(.dateFormat("yyyy-MM-dd"))
  /// ```
  ///
  /// - Parameter transform: The conversion between the document and the property.
  /// - Returns: A mapping for the operators.
  public func using<Transform: ValueTransform>(_ transform: Transform) -> ValueMapping<Transform> {
    ValueMapping(mapping: self, transform: transform)
  }

  /// This mapping, converting every element of its array with `transform.element`; with the
  /// lossy marker (`"* links"`), elements that fail are dropped and reported.
  ///
  /// - Parameter transform: The transform of the array, ``ValueTransform/array(_:)``.
  /// - Returns: A mapping for the operators.
  public func using<Element: ValueTransform>(_ transform: ArrayTransform<Element>)
    -> ValueMapping<ArrayTransform<Element>>
  {
    var mapping = ValueMapping(mapping: self, transform: transform)
    mapping.elementwise = { run, mapping, target, required in
      try run.decodeElements(transform.element, mapping, target, required: required)
    }
    return mapping
  }

  /// This mapping, converting every value of its dictionary with `transform.element`; with the
  /// lossy marker (`"* rates"`), entries that fail are dropped and reported.
  ///
  /// - Parameter transform: The transform of the dictionary, ``ValueTransform/dictionary(_:)``.
  /// - Returns: A mapping for the operators.
  public func using<Element: ValueTransform>(_ transform: DictionaryTransform<Element>)
    -> ValueMapping<DictionaryTransform<Element>>
  {
    var mapping = ValueMapping(mapping: self, transform: transform)
    mapping.elementwise = { run, mapping, target, required in
      try run.decodeEntries(transform.element, mapping, target, required: required)
    }
    return mapping
  }

  /// This mapping with a value to use when the document has none, or an invalid one (see
  /// ``ValueMapping/default(_:when:)->ValueMapping<Transform>``).
  ///
  /// ```swift
  /// try retries <-> map["retries"].default(3)
  /// try tags <-> map["tags"].default([], when: .absentOrInvalid)
  /// ```
  ///
  /// - Parameters:
  ///   - value: The default.
  ///   - condition: When it applies; ``DefaultCondition/absent`` (missing or `null`) unless
  ///     given.
  /// - Returns: A mapping for the operators.
  public func `default`<Value: Codable>(_ value: Value, when condition: DefaultCondition = .absent)
    -> ValueMapping<IdentityTransform<Value>>
  {
    using(IdentityTransform<Value>()).default(value, when: condition)
  }
}
