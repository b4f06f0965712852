/// The runs a JSON coder keeps for the next ``Keyedable`` value (see
/// ``JSONValueDecoder/decodeKeyed(_:as:)`` and ``JSONStreamEncoder/withKeyMap(for:plan:_:)``).
///
/// A document of many small objects makes a run per object; reusing the key map, the run and
/// the backend keeps their cost to resetting a few fields. Each is kept with the run and the
/// backend its key map leads to, typed, so that reusing it reads no reference out of the key
/// map. A run is kept again only when nothing else refers to its key map: a mapping kept after
/// its run must keep throwing when used.
///
/// Taken and kept back around each run, never held across one: the coder's property is not
/// accessed while a nested value runs.
struct JSONSpareRuns<Run: MappingRun, Backend: AnyObject> {
  /// A run with its key map and backend.
  struct Spare {
    /// The key map the model's `map(map:)` receives.
    var map: KeyMap
    /// The run behind `map`.
    let run: Run
    /// The run's backend.
    let backend: Backend
  }

  /// The runs kept, the one to reuse next last.
  private var kept: [Spare] = []
  /// The most runs kept: one per level of nesting that a document uses at once.
  private static var limit: Int { 32 }

  /// A kept run, or a new one made by `make` when none is kept.
  ///
  /// - Parameter make: Makes a new run.
  /// - Returns: The run, and whether it was kept (and must be restarted).
  @inline(__always)
  mutating func take(orMake make: () -> Spare) -> (spare: Spare, reused: Bool) {
    kept.isEmpty ? (make(), false) : (kept.removeLast(), true)
  }

  /// Keeps `spare` for the next value, unless something still refers to its key map or enough
  /// runs are kept.
  @inline(__always)
  mutating func keep(_ spare: consuming Spare) {
    if kept.count < Self.limit, isKnownUniquelyReferenced(&spare.map) {
      kept.append(consume spare)
    }
  }

  /// Calls `body` with the backend of each kept run.
  func eachBackend(_ body: (Backend) -> Void) {
    for index in kept.indices {
      body(kept[index].backend)
    }
  }

  /// Lets go of every kept run: their backends refer to the coder, which would otherwise never
  /// be freed.
  mutating func removeAll() {
    kept.removeAll()
  }
}
