/// What the caller hands to a decode or an encode besides the data: configurations, typed
/// values, key selections, type registries and presets, read by `map(map:)` as their own types.
///
/// A context is a value: build it with its chaining methods and pass it to a top-level call.
/// Every ``Keyedable`` value decoded or encoded during that call sees it, through its
/// ``KeyMap``, at any depth, on any coder:
///
/// ```swift
/// let context = MappingContext
///     .configuration(SearchConfiguration(biographyLimit: 80, interestLimit: 3))
///     .value(.red, for: .textColor)
///
/// let users = try JSONDecoder().decode([User].self, from: data, with: context)
///
/// // in User.map(map:)
/// let limits = map.configuration(SearchConfiguration.self)   // SearchConfiguration?
/// let color = try map.context(.textColor, default: .black)
/// ```
///
/// A mapping can hand a value below it a context of its own with
/// ``Mapping/configured(with:)`` and ``Mapping/selecting(_:)``; the values below see it instead
/// of the caller's.
///
/// Contexts are `Sendable` and bound to the task that decodes: concurrent decodes with
/// different contexts never see each other's. Models that never read a context pay nothing for
/// it.
public struct MappingContext: Sendable {
  /// Configurations, by their type.
  var configurations = ConfigurationTable()
  /// Values, by the name of their ``ContextKey``.
  var values: [String: any Sendable] = [:]
  /// Key selections, by the model type they restrict.
  var selections: [ObjectIdentifier: KeySelection] = [:]
  /// Type registries, by their base type.
  var registries: [ObjectIdentifier: any Sendable] = [:]
  /// The lossy conversions every mapping of the decode may use.
  var conversions: Conversions = []
  /// Whether every `nil` optional of the encode is written as `null`.
  var writesExplicitNulls = false
  /// Where dropped and replaced values are reported.
  var reporter: DecodingReporter?
  /// The model types whose whole input is printed while decoding.
  var debuggedTypes: Set<ObjectIdentifier> = []
  /// Where debugging lines go; `print` when `nil`.
  var debugOutput: DebugOutput?

  /// Creates an empty context.
  public init() {}

  /// The context of the decode or encode under way on this task, if the caller gave one.
  ///
  /// `map(map:)` reads it through its ``KeyMap``; this is for code that decodes outside of
  /// `map(map:)`, such as a hand-written `init(from:)` nested in a Keyedable model.
  public static var current: MappingContext? { Binding.current }

  /// Whether runs of models must look at the context when they start: a selection, explicit
  /// nulls or a debugged type is present.
  var affectsRuns: Bool {
    !selections.isEmpty || writesExplicitNulls || !debuggedTypes.isEmpty
  }

  // MARK: - Binding

  /// The task-local binding of the current context.
  ///
  /// The context is bound in a box: reading it then retains one reference, where reading the
  /// struct itself copied every collection it holds (a retain and a release of each), on every
  /// ``KeyMap/configuration(_:)``, transform and conversion.
  enum Binding {
    /// The box of the current context.
    @TaskLocal static var box: Box?

    /// The current context.
    static var current: MappingContext? { box?.context }

    /// Runs `body` with `context` as the current one.
    static func withValue<Result>(_ context: MappingContext?, _ body: () throws -> Result)
      rethrows -> Result
    {
      try $box.withValue(context.map(Box.init), operation: body)
    }

    /// Runs `body` with `context` as the current one, in an asynchronous function.
    static func withValue<Result>(
      _ context: MappingContext?, _ body: () async throws -> Result
    ) async rethrows -> Result {
      try await $box.withValue(context.map(Box.init), operation: body)
    }
  }

  /// A context bound to a task (see ``Binding``).
  final class Box: Sendable {
    /// The context.
    let context: MappingContext

    init(_ context: MappingContext) {
      self.context = context
    }
  }

  /// Runs `body` with this context as the current one.
  func bind<Result>(_ body: () throws -> Result) rethrows -> Result {
    if affectsRuns {
      PlanRegistry.shared.noteContextsAffectRuns()
    }
    return try Binding.withValue(self, body)
  }

  /// Runs `body` with this context as the current one, in an asynchronous function.
  func bindAsync<Result>(_ body: () async throws -> Result) async rethrows -> Result {
    if affectsRuns {
      PlanRegistry.shared.noteContextsAffectRuns()
    }
    return try await Binding.withValue(self, body)
  }
}

/// Runs `body` with `context` as the context of every decode and encode it makes.
///
/// The top-level calls that take a context (`decode(_:from:with:)`, `encode(_:with:)`) use
/// this; call it directly to give a context to coders that have no such call, or to several
/// calls at once.
///
/// ```swift
/// let user = try withMappingContext(.configuration(favorites)) {
///     try MyCustomDecoder().decode(User.self, from: payload)
/// }
/// ```
///
/// - Parameters:
///   - context: The context.
///   - body: The work that decodes or encodes.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func withMappingContext<Result>(
  _ context: MappingContext, _ body: () throws -> Result
) rethrows -> Result {
  try context.bind(body)
}

/// Runs `body` with `context` as the context of every decode and encode it makes, in an
/// asynchronous function.
///
/// - Parameters:
///   - context: The context.
///   - body: The work that decodes or encodes.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func withMappingContext<Result>(
  _ context: MappingContext, _ body: () async throws -> Result
) async rethrows -> Result {
  try await context.bindAsync(body)
}
