/// The configurations of a ``MappingContext``, one per type, each kept as a value of the type it
/// was given as.
///
/// ``KeyMap/configuration(_:)`` runs in every model of a decode that reads one, in code that is
/// not specialized for the configuration's type. Kept in a `[ObjectIdentifier: any Sendable]`,
/// a read hashed the type, opened the existential, compared its dynamic type and copied the value
/// out (about 500 instructions with the task-local read). Here a read compares the type with
/// each configuration's (a context holds a few) and copies the value from memory typed as it was
/// given: the type that finds a configuration is the type it was stored as, so no dynamic cast
/// is needed. Past ``scannedCount`` configurations, an index by type keeps a read at one hashed
/// lookup.
struct ConfigurationTable: Sendable {
  /// One configuration, in memory of its own, typed as it was given; never changed once made.
  final class Entry: @unchecked Sendable {
    /// The type the configuration was given as.
    let type: ObjectIdentifier
    /// The value, a `Sendable` of type ``type``.
    private let storage: UnsafeMutableRawPointer
    /// Deinitializes and frees ``storage``.
    private let destroy: (UnsafeMutableRawPointer) -> Void

    init<Configuration: Sendable>(_ value: Configuration) {
      type = ObjectIdentifier(Configuration.self)
      let memory = UnsafeMutablePointer<Configuration>.allocate(capacity: 1)
      memory.initialize(to: value)
      storage = UnsafeMutableRawPointer(memory)
      destroy = { raw in
        let typed = raw.assumingMemoryBound(to: Configuration.self)
        typed.deinitialize(count: 1)
        typed.deallocate()
      }
    }

    deinit {
      destroy(storage)
    }

    /// A copy of the value, which is of type `type` (``type`` is `type`'s identifier).
    @inline(__always)
    func value<Configuration>(as type: Configuration.Type) -> Configuration {
      storage.assumingMemoryBound(to: Configuration.self).pointee
    }
  }

  /// The most configurations read by comparing each one's type; a table with more keeps an
  /// index, so that a read costs one hashed lookup however many there are.
  static let scannedCount = 8

  /// The configurations, in the order they were first given.
  private var entries: [Entry] = []
  /// Where each type's configuration is in ``entries``, once they are more than
  /// ``scannedCount``.
  private var positions: [ObjectIdentifier: Int]?

  /// Whether the table holds no configuration.
  var isEmpty: Bool { entries.isEmpty }

  /// Adds `configuration`, replacing one of the same type.
  mutating func set<Configuration: Sendable>(_ configuration: Configuration) {
    let entry = Entry(configuration)
    if let index = position(of: entry.type) {
      entries[index] = entry
      return
    }
    entries.append(entry)
    if positions != nil {
      positions?[entry.type] = entries.count - 1
    } else if entries.count > Self.scannedCount {
      positions = Dictionary(
        uniqueKeysWithValues: entries.enumerated().map { ($0.element.type, $0.offset) })
    }
  }

  /// The configuration of type `type`, if the table holds one.
  func value<Configuration>(of type: Configuration.Type) -> Configuration? {
    guard let index = position(of: ObjectIdentifier(type)) else { return nil }
    return entries[index].value(as: Configuration.self)
  }

  /// Where the configuration of the type `type` identifies is in ``entries``.
  @inline(__always)
  private func position(of type: ObjectIdentifier) -> Int? {
    if let positions {
      return positions[type]
    }
    for index in entries.indices where entries[index].type == type {
      return index
    }
    return nil
  }
}
