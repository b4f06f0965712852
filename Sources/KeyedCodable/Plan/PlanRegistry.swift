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
  }

  private let plans = Locked(Plans())

  /// The plan for `type` in one direction, if one was published.
  func plan(for type: ObjectIdentifier, decoding: Bool) -> MappingPlan? {
    plans.withLock { decoding ? $0.decoding[type] : $0.encoding[type] }
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
