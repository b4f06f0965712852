/// What the transforms of one value record while a decode reports (see ``DecodingReport``).
///
/// Installed around a transform only when a reporter or a debug handler would receive the
/// entries, so a decode that reports nothing pays one check per transformed value.
final class TransformEvents: @unchecked Sendable {
  // Unchecked: used by the one synchronous transform call it is installed around.

  /// The keys of the collection elements being converted, innermost last.
  var keys: [PathKey] = []
  /// The recorded events, with the element keys below the value's path.
  var events: [(keys: [PathKey], event: DecodingReport.Event, error: any Error)] = []

  /// The collector of the transform call under way.
  @TaskLocal static var current: TransformEvents?

  /// Runs `body` for the element at `key` of a collection transform.
  static func element<Result>(_ key: @autoclosure () -> PathKey, _ body: () throws -> Result)
    rethrows -> Result
  {
    guard let current else { return try body() }
    current.keys.append(key())
    defer { current.keys.removeLast() }
    return try body()
  }
}

extension DecodingReporter {
  /// Records, from inside a ``ValueTransform``, that the transform replaced a value it could not
  /// convert, so the decode's report shows it with the value's full coding path.
  ///
  /// ```swift
  /// func decode(_ code: String) throws -> Currency {
  ///     guard let currency = Currency(code: code) else {
  ///         DecodingReporter.recordReplacement(with: Currency.unknown,
  ///                                            because: ValueTransformError("\(code) is not a currency"))
  ///         return .unknown
  ///     }
  ///     return currency
  /// }
  /// ```
  ///
  /// Does nothing outside a decode that reports.
  ///
  /// - Parameters:
  ///   - value: The value used instead.
  ///   - error: Why the original value was not used.
  public static func recordReplacement(with value: Any, because error: any Error) {
    guard let events = TransformEvents.current else { return }
    events.events.append(
      (
        events.keys,
        .defaulted(value: CodingPathText.shown(value)), error
      ))
  }
}

extension Reporting {
  /// Whether a reporter or a debug handler receives what the current decode records.
  static var isActive: Bool {
    MappingContext.Binding.box?.context.reporter != nil || DecodingReporter.debugHandler != nil
  }
}

extension DecodeRun {
  /// `transform.decode(representation)` for the value `mapping` reads, with what the transform
  /// records reported at the value's path.
  @usableFromInline
  func convert<Transform: ValueTransform>(
    _ representation: Transform.Representation, with transform: Transform, for mapping: Mapping
  ) throws -> Transform.Value {
    try convert(
      representation, with: transform, path: { valueCodingPath(of: mapping) },
      keyPath: mapping.keyDescription)
  }

  /// `transform.decode(representation)`, with what the transform records reported at
  /// `path`.
  func convert<Transform: ValueTransform>(
    _ representation: Transform.Representation, with transform: Transform,
    path: () -> [any CodingKey], keyPath: String
  ) throws -> Transform.Value {
    guard Reporting.isActive else { return try transform.decode(representation) }
    let events = TransformEvents()
    let value = try TransformEvents.$current.withValue(events) {
      try transform.decode(representation)
    }
    for (keys, event, error) in events.events {
      report(event, at: path() + keys, keyPath: keyPath, error: error)
    }
    return value
  }
}
