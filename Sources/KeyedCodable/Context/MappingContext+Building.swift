// The chaining methods that build a ``MappingContext``. Each exists twice: as a static method,
// to start a context where one is expected (`with: .configuration(limits)`), and as an instance
// method, to add to one (`.configuration(limits).value(.red, for: .textColor)`).

extension MappingContext {
  // MARK: - Configurations

  /// A context holding `configuration`, which `map(map:)` reads by its type.
  ///
  /// ```swift
  /// let users = try decoder.decode([User].self, from: data, with: .configuration(limits))
  /// // in User.map(map:)
  /// if let limits = map.configuration(SearchConfiguration.self) { ... }
  /// ```
  ///
  /// - Parameter configuration: A value of any `Sendable` type; one configuration per type.
  /// - Returns: A new context.
  public static func configuration<Configuration: Sendable>(
    _ configuration: Configuration
  ) -> MappingContext {
    MappingContext().configuration(configuration)
  }

  /// This context with `configuration` added, replacing one of the same type.
  ///
  /// - Parameter configuration: A value of any `Sendable` type; one configuration per type.
  /// - Returns: A new context.
  public func configuration<Configuration: Sendable>(
    _ configuration: Configuration
  ) -> MappingContext {
    var context = self
    context.configurations.set(configuration)
    return context
  }

  // MARK: - Values

  /// A context holding `value` under `key`, which `map(map:)` reads with
  /// ``KeyMap/context(_:)``.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - key: Its typed key.
  /// - Returns: A new context.
  public static func value<Value: Sendable>(_ value: Value, for key: ContextKey<Value>)
    -> MappingContext
  {
    MappingContext().value(value, for: key)
  }

  /// This context with `value` added under `key`, replacing what the key held.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - key: Its typed key.
  /// - Returns: A new context.
  public func value<Value: Sendable>(_ value: Value, for key: ContextKey<Value>)
    -> MappingContext
  {
    var context = self
    context.values[key.name] = value
    return context
  }

  // MARK: - Key selections

  /// A context in which models of type `model` map only the keys in `keys`.
  ///
  /// Encoding writes only the selected keys; decoding reads only them and leaves the other
  /// properties as they are. A selected object (`"stats"`) selects every key path below it.
  /// A key the model does not map makes the decode or encode throw, so a misspelled key is never
  /// a silent no-op.
  ///
  /// ```swift
  /// let body = try encoder.encode(
  ///     game, with: .selecting(["videogameId", "personalRating", "hoursPlayed"], in: Videogame.self))
  /// ```
  ///
  /// - Parameters:
  ///   - keys: Key paths as the document spells them.
  ///   - model: The ``Keyedable`` type they restrict.
  /// - Returns: A new context.
  public static func selecting(_ keys: [String], in model: Any.Type) -> MappingContext {
    MappingContext().selecting(keys, in: model)
  }

  /// This context with models of type `model` restricted to the keys in `keys` (see
  /// ``selecting(_:in:)-swift.type.method``).
  ///
  /// - Parameters:
  ///   - keys: Key paths as the document spells them.
  ///   - model: The ``Keyedable`` type they restrict.
  /// - Returns: A new context.
  public func selecting(_ keys: [String], in model: Any.Type) -> MappingContext {
    var context = self
    context.selections[ObjectIdentifier(model)] = KeySelection(keys)
    return context
  }

  // MARK: - Type registries

  /// A context holding `registry`, which polymorphic mappings of its base type use when they
  /// are not given one (see `polymorphic(_:)` with a base type).
  ///
  /// - Parameter registry: The registry.
  /// - Returns: A new context.
  public static func registering<Base>(_ registry: TypeRegistry<Base>) -> MappingContext {
    MappingContext().registering(registry)
  }

  /// This context with `registry` added, replacing the registry of the same base type.
  ///
  /// - Parameter registry: The registry.
  /// - Returns: A new context.
  public func registering<Base>(_ registry: TypeRegistry<Base>) -> MappingContext {
    var context = self
    context.registries[ObjectIdentifier(Base.self)] = registry
    return context
  }

  /// The registry for `base`, if the context holds one.
  func registry<Base>(for base: Base.Type) -> TypeRegistry<Base>? {
    registries[ObjectIdentifier(base)] as? TypeRegistry<Base>
  }

  // MARK: - Presets

  /// A context in which every mapping of a standard scalar type may use `conversions` when the
  /// value has another type (see ``Conversions``).
  ///
  /// - Parameter conversions: The conversions, such as ``Conversions/lossy``.
  /// - Returns: A new context.
  public static func converting(_ conversions: Conversions) -> MappingContext {
    MappingContext().converting(conversions)
  }

  /// This context with `conversions` allowed for every mapping of a standard scalar type.
  ///
  /// - Parameter conversions: The conversions, such as ``Conversions/lossy``.
  /// - Returns: A new context.
  public func converting(_ conversions: Conversions) -> MappingContext {
    var context = self
    context.conversions = conversions
    return context
  }

  /// A context in which every `nil` optional is encoded as `null` instead of being left out.
  ///
  /// - Parameter enabled: Whether `nil` is written as `null`.
  /// - Returns: A new context.
  public static func writingExplicitNulls(_ enabled: Bool = true) -> MappingContext {
    MappingContext().writingExplicitNulls(enabled)
  }

  /// This context with every `nil` optional encoded as `null` (see
  /// ``Mapping/explicitNull(_:)``).
  ///
  /// - Parameter enabled: Whether `nil` is written as `null`.
  /// - Returns: A new context.
  public func writingExplicitNulls(_ enabled: Bool = true) -> MappingContext {
    var context = self
    context.writesExplicitNulls = enabled
    return context
  }

  /// A context that reports every dropped and replaced value to `reporter`.
  ///
  /// - Parameter reporter: The reporter that collects the report.
  /// - Returns: A new context.
  public static func reporting(to reporter: DecodingReporter) -> MappingContext {
    MappingContext().reporting(to: reporter)
  }

  /// This context with dropped and replaced values reported to `reporter`.
  ///
  /// - Parameter reporter: The reporter that collects the report.
  /// - Returns: A new context.
  public func reporting(to reporter: DecodingReporter) -> MappingContext {
    var context = self
    context.reporter = reporter
    return context
  }
}
