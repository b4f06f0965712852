/// The plans of all models mapped so far, one per type and direction.
///
/// The only state KeyedCodable shares between threads. Plans are immutable once published; the
/// registry's dictionaries are read and written under a lock.
final class PlanRegistry: Sendable {
  /// The registry every run uses.
  static let shared = PlanRegistry()

  private struct Plans {
    var decoding: [ObjectIdentifier: MappingPlan] = [:]
    var encoding: [ObjectIdentifier: MappingPlan] = [:]
    /// Whether a context that changes how runs behave was ever bound.
    ///
    /// A key selection, explicit nulls, a debugged type. Never reset: it only makes runs look at
    /// the context.
    var contextsAffectRuns = false
  }

  private let plans = Locked(Plans())

  /// The plan for `type` in one direction, if one was published.
  func plan(for type: ObjectIdentifier, decoding: Bool) -> MappingPlan? {
    plans.withLock { decoding ? $0.decoding[type] : $0.encoding[type] }
  }

  /// The plan for `type` in one direction, if one was published, and whether a run must look at
  /// the current ``MappingContext`` when it starts.
  ///
  /// One lock for both: a program that never binds such a context pays nothing to learn it.
  func planAndContextFlag(for type: ObjectIdentifier, decoding: Bool) -> (MappingPlan?, Bool) {
    plans.withLock {
      (decoding ? $0.decoding[type] : $0.encoding[type], $0.contextsAffectRuns)
    }
  }

  /// Whether a context that changes how runs behave was ever bound: runs must then look at the
  /// current context when they start.
  var contextsAffectRuns: Bool {
    plans.withLock { $0.contextsAffectRuns }
  }

  /// Records that a context that changes how runs behave was bound.
  func noteContextsAffectRuns() {
    plans.withLock { $0.contextsAffectRuns = true }
  }

  /// Publishes `plan` unless another thread published a different one since `previous` was read.
  func publish(
    _ plan: MappingPlan, for type: ObjectIdentifier, decoding: Bool,
    replacing previous: MappingPlan?
  ) {
    plans.withLock {
      if decoding {
        if $0.decoding[type] === previous { $0.decoding[type] = plan }
      } else {
        if $0.encoding[type] === previous { $0.encoding[type] = plan }
      }
    }
  }
}
