/// The configurations of a ``MappingContext``, one per type, each kept as a value of the type it
/// was given as.
///
/// ``KeyMap/configuration(_:)`` runs in every model of a decode that reads one, in code that is
/// not specialized for the configuration's type. Kept in a `[ObjectIdentifier: any Sendable]`,
/// a read hashed the type, opened the existential, compared its dynamic type and copied the value
/// out (about 500 instructions with the task-local read). Here a read compares the type with
/// each configuration's (a context holds a few) and copies the value from memory typed as it was
/// given: the type that finds a configuration is the type it was stored as, so no dynamic cast
/// is needed.
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

  /// The configurations, in the order they were first given.
  private var entries: [Entry] = []

  /// Whether the table holds no configuration.
  var isEmpty: Bool { entries.isEmpty }

  /// Adds `configuration`, replacing one of the same type.
  mutating func set<Configuration: Sendable>(_ configuration: Configuration) {
    let entry = Entry(configuration)
    if let index = entries.firstIndex(where: { $0.type == entry.type }) {
      entries[index] = entry
    } else {
      entries.append(entry)
    }
  }

  /// The configuration of type `type`, if the table holds one.
  func value<Configuration>(of type: Configuration.Type) -> Configuration? {
    let wanted = ObjectIdentifier(type)
    for entry in entries where entry.type == wanted {
      return entry.value(as: Configuration.self)
    }
    return nil
  }
}
