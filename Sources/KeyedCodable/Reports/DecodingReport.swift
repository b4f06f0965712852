/// What a decode dropped or replaced instead of failing, each with its full coding path and the
/// error behind it.
///
/// Lossy decoding never loses data silently: every element a lossy array dropped, every entry a
/// lossy dictionary dropped, every value a conversion changed and every default used after an
/// invalid value is recorded. Get the report of a decode with
/// `decodeWithReport(_:from:)` on a top-level decoder, or attach a ``DecodingReporter`` to a
/// ``MappingContext``:
///
/// ```swift
/// let (users, report) = try JSONDecoder().decodeWithReport([User].self, from: data)
/// for entry in report.entries {
///     logger.warning("\(entry)")   // Dropped element at [2].tags[1]: ...
/// }
/// ```
///
/// A report is a value: it can be kept, compared and sent across tasks.
public struct DecodingReport: Sendable, Equatable, CustomStringConvertible {
  /// What happened to one value.
  public enum Event: Sendable, Equatable, CustomStringConvertible {
    /// An element of a lossy array failed to decode and was left out.
    case droppedElement
    /// An entry of a lossy dictionary failed to decode and was left out.
    case droppedEntry
    /// A value of another type was converted (see ``Conversions``).
    ///
    /// - Parameters:
    ///   - from: The value as read, `"yes"` or `1`.
    ///   - to: The type it was converted to.
    case converted(from: String, to: String)
    /// A value failed to decode and the mapping's default replaced it.
    ///
    /// - Parameter value: The default, as text.
    case defaulted(value: String)

    /// A short sentence for the event.
    public var description: String {
      switch self {
      case .droppedElement: "Dropped array element"
      case .droppedEntry: "Dropped dictionary entry"
      case .converted(let from, let to): "Converted \(from) to \(to)"
      case .defaulted(let value): "Replaced an invalid value with the default \(value)"
      }
    }
  }

  /// One dropped or replaced value.
  public struct Entry: Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public let event: Event
    /// The full coding path of the value, from the root of the document.
    public var codingPath: [any CodingKey] { path }
    /// The key path of the mapping that read it, as written in `map(map:)` (empty when the
    /// value was not read by a mapping).
    public let keyPath: String
    /// Why the value was dropped or replaced: the error decoding it threw.
    public let error: any Error

    /// The coding path, kept as `Sendable` keys.
    let path: [PathKey]

    init(event: Event, codingPath: [any CodingKey], keyPath: String, error: any Error) {
      self.event = event
      path = codingPath.map { $0 as? PathKey ?? PathKey($0) }
      self.keyPath = keyPath
      self.error = error
    }

    /// The coding path as text: `users[2].tags[1]`.
    public var pathDescription: String {
      CodingPathText.render(codingPath)
    }

    /// One line: the event, the path and the error.
    public var description: String {
      "\(event) at \(pathDescription): \(CodingPathText.summary(of: error))"
    }

    /// Whether two entries record the same event at the same path and key path (their errors
    /// are not compared).
    public static func == (lhs: Entry, rhs: Entry) -> Bool {
      lhs.event == rhs.event && lhs.path == rhs.path && lhs.keyPath == rhs.keyPath
    }
  }

  /// The entries, in the order the decode met them.
  public internal(set) var entries: [Entry]

  /// Creates a report.
  ///
  /// - Parameter entries: The entries.
  public init(entries: [Entry] = []) {
    self.entries = entries
  }

  /// Whether nothing was dropped or replaced.
  public var isEmpty: Bool { entries.isEmpty }

  /// One line per entry.
  public var description: String {
    entries.isEmpty
      ? "Nothing dropped or replaced." : entries.map(\.description).joined(separator: "\n")
  }
}

/// Collects the ``DecodingReport`` of the decodes it is attached to.
///
/// Attach it with ``MappingContext/reporting(to:)-swift.type.method``. A reporter is safe to use
/// from many tasks at once; give each decode its own when their reports must stay apart.
///
/// ```swift
/// let reporter = DecodingReporter()
/// let feed = try decoder.decode(Feed.self, from: data, with: .reporting(to: reporter))
/// print(reporter.report)
/// ```
public final class DecodingReporter: Sendable {
  private let entries = Locked<[DecodingReport.Entry]>([])
  /// A reporter that receives every entry too.
  private let next: DecodingReporter?

  /// Creates an empty reporter.
  public init() {
    next = nil
  }

  /// Creates an empty reporter that also hands every entry to `next`.
  init(forwardingTo next: DecodingReporter?) {
    self.next = next
  }

  /// The report of everything recorded so far.
  public var report: DecodingReport {
    DecodingReport(entries: entries.withLock { $0 })
  }

  /// Forgets everything recorded so far.
  public func reset() {
    entries.withLock { $0.removeAll() }
  }

  func record(_ entry: DecodingReport.Entry) {
    entries.withLock { $0.append(entry) }
    next?.record(entry)
  }
}

/// Where dropped and replaced values go: the reporter of the current context, and in debug
/// builds the handler set with ``DecodingReporter/setDebugHandler(_:)``.
enum Reporting {
  /// Records `event` for the value at `codingPath`.
  ///
  /// The path and the key path are only worked out when someone listens: a lossy decode that
  /// nobody watches drops values without describing them.
  static func record(
    _ event: DecodingReport.Event, at codingPath: @autoclosure () -> [any CodingKey],
    keyPath: @autoclosure () -> String, error: any Error
  ) {
    let reporter = MappingContext.current?.reporter
    let handler = DecodingReporter.debugHandler
    guard reporter != nil || handler != nil else { return }
    let entry = DecodingReport.Entry(
      event: event, codingPath: codingPath(), keyPath: keyPath(), error: error)
    reporter?.record(entry)
    handler?(entry)
  }
}

extension DecodingReporter {
  private static let handler = Locked<(@Sendable (DecodingReport.Entry) -> Void)?>(nil)

  /// Sets a function called with every dropped or replaced value of every decode, in debug
  /// builds only; release builds never call it.
  ///
  /// Lets a team fail loudly in development, where data a server sends does not match the
  /// models:
  ///
  /// ```swift
  /// DecodingReporter.setDebugHandler { entry in
  ///     assertionFailure("Lossy decoding: \(entry)")
  /// }
  /// ```
  ///
  /// - Parameter handler: The function, or `nil` to remove it.
  public static func setDebugHandler(_ handler: (@Sendable (DecodingReport.Entry) -> Void)?) {
    Self.handler.withLock { $0 = handler }
  }

  /// The debug handler, in debug builds.
  static var debugHandler: (@Sendable (DecodingReport.Entry) -> Void)? {
    #if DEBUG
      handler.withLock { $0 }
    #else
      nil
    #endif
  }
}

extension DecodeRun {
  /// Records `event` for the value at `codingPath`, read by `keyPath`.
  func report(
    _ event: DecodingReport.Event, at codingPath: @autoclosure () -> [any CodingKey],
    keyPath: @autoclosure () -> String, error: any Error
  ) {
    Reporting.record(event, at: codingPath(), keyPath: keyPath(), error: error)
  }
}
