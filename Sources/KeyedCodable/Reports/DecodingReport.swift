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
///     logger.warning("\(entry)")   // Dropped array element at [2].tags[1]: ...
/// }
/// ```
///
/// A report is a value: it can be kept, compared and sent across tasks.
///
/// A report keeps at most ``DecodingReporter/entryLimit`` entries (by default
/// ``defaultEntryLimit``), so that a document of millions of invalid elements can't make it grow
/// without bound; what it leaves out is counted in ``omittedEntryCount``, so that nothing is lost
/// silently from the report itself either.
public struct DecodingReport: Sendable, Equatable, CustomStringConvertible {
  /// The number of entries a report keeps unless it is given another limit: 1,000.
  ///
  /// Pass a limit of your own to ``DecodingReporter/init(entryLimit:)`` or to
  /// `decodeWithReport(_:from:with:entryLimit:)`.
  public static let defaultEntryLimit = 1000

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

    /// One line: the event, the path and the error's message.
    ///
    /// ```
    /// Dropped array element at posts[1]: Expected to decode String but found a number instead.
    /// ```
    ///
    /// What a type mismatch found is written as in the readable forms of errors (`a number`,
    /// `a Boolean`, see <doc:ReadingErrors>), whichever coder decoded; the message of
    /// ``error`` itself is the coder's. When the error was thrown inside the value (a member of
    /// a dropped element or of a replaced object), its readable line follows, with the full
    /// path and the model:
    ///
    /// ```
    /// Dropped array element at posts[1]: Type mismatch at posts[1].author.id (Author): expected
    /// Int, found a string
    /// ```
    public var description: String {
      // An error from inside the value (a member of a replaced object) is given with its own
      // path and model, as the error would be without the default.
      if let report = ErrorReport(error), report.codingPath.count > path.count {
        return "\(event) at \(pathDescription): \(report.line)"
      }
      return "\(event) at \(pathDescription): \(CodingPathText.summary(of: error))"
    }

    /// Whether two entries record the same event at the same path and key path (their errors
    /// are not compared).
    public static func == (lhs: Entry, rhs: Entry) -> Bool {
      lhs.event == rhs.event && lhs.path == rhs.path && lhs.keyPath == rhs.keyPath
    }
  }

  /// The entries, in the order the decode met them: the first ones, up to the reporter's
  /// limit.
  public internal(set) var entries: [Entry]

  /// The number of entries left out after the reporter's limit was reached.
  ///
  /// ```swift
  /// let (feed, report) = try decoder.decodeWithReport(Feed.self, from: data, entryLimit: 100)
  /// if report.omittedEntryCount > 0 {
  ///     logger.warning("\(report.omittedEntryCount) more values were dropped or replaced")
  /// }
  /// ```
  public internal(set) var omittedEntryCount: Int

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - entries: The entries.
  ///   - omittedEntryCount: The number of entries left out.
  public init(entries: [Entry] = [], omittedEntryCount: Int = 0) {
    self.entries = entries
    self.omittedEntryCount = omittedEntryCount
  }

  /// Whether nothing was dropped or replaced.
  public var isEmpty: Bool { entries.isEmpty && omittedEntryCount == 0 }

  /// One line per entry, and a last line with the number of entries left out, if any.
  public var description: String {
    guard !isEmpty else { return "Nothing dropped or replaced." }
    var lines = entries.map(\.description)
    if omittedEntryCount > 0 {
      lines.append(
        "... and \(omittedEntryCount) more \(omittedEntryCount == 1 ? "entry" : "entries") not kept."
      )
    }
    return lines.joined(separator: "\n")
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
  private let recorded = Locked(DecodingReport())
  /// A reporter that receives every entry too.
  private let next: DecodingReporter?
  /// The most entries the report keeps; later ones are only counted.
  public let entryLimit: Int

  /// Creates an empty reporter.
  ///
  /// - Parameter entryLimit: The most entries the report keeps (at least zero); the entries
  ///   after them are counted in ``DecodingReport/omittedEntryCount``.
  public init(entryLimit: Int = DecodingReport.defaultEntryLimit) {
    next = nil
    self.entryLimit = Swift.max(0, entryLimit)
  }

  /// Creates an empty reporter that also hands every entry to `next`.
  init(forwardingTo next: DecodingReporter?, entryLimit: Int) {
    self.next = next
    self.entryLimit = Swift.max(0, entryLimit)
  }

  /// The report of everything recorded so far.
  public var report: DecodingReport {
    recorded.withLock { $0 }
  }

  /// Forgets everything recorded so far.
  public func reset() {
    recorded.withLock { $0 = DecodingReport() }
  }

  /// Records an entry, made by `entry` only if the report keeps it (`entry` may be called by
  /// each reporter of a chain: it makes the entry once).
  func record(_ entry: () -> DecodingReport.Entry) {
    let keeps = recorded.withLock { report in
      guard report.entries.count < entryLimit else {
        report.omittedEntryCount += 1
        return false
      }
      return true
    }
    if keeps {
      let made = entry()
      recorded.withLock { report in
        // Another decode may have filled the report in the meantime.
        if report.entries.count < entryLimit {
          report.entries.append(made)
        } else {
          report.omittedEntryCount += 1
        }
      }
    }
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
    let reporter = MappingContext.Binding.box?.context.reporter
    let handler = DecodingReporter.debugHandler
    guard reporter != nil || handler != nil else { return }
    // Made once, and only if someone keeps it: a report past its limit only counts.
    var made: DecodingReport.Entry?
    func entry() -> DecodingReport.Entry {
      if let made { return made }
      let entry = DecodingReport.Entry(
        event: event, codingPath: codingPath(), keyPath: keyPath(), error: error)
      made = entry
      return entry
    }
    reporter?.record(entry)
    if let handler {
      handler(entry())
    }
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
