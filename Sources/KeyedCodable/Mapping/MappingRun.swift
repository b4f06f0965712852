/// What one run of a model's `map(map:)` shares in both directions: following the plan, and
/// knowing when the run is over.
///
/// ``DecodeRun`` and ``EncodeRun`` add what each direction does with a mapping. The ``KeyMap`` a
/// model receives is the facade in front of one of them.
@usableFromInline
class MappingRun {
  /// The dynamic type whose `map(map:)` runs, which owns the plan.
  final let modelType: ObjectIdentifier

  // Unchecked exclusivity in release builds only: the run is used by one thread, through calls
  // that never overlap, and these properties are touched on every mapping. Debug builds (and so
  // `swift test` and the sanitizer runs) keep the checks.
  #if DEBUG
    /// The plan, the cursor and the key paths of this run.
    @usableFromInline final var follower: PlanFollower
    /// Whether the run is over; a mapping used after its `map(map:)` returned throws.
    @usableFromInline final var isFinished = false
  #else
    /// The plan, the cursor and the key paths of this run.
    @exclusivity(unchecked) @usableFromInline final var follower: PlanFollower
    /// Whether the run is over; a mapping used after its `map(map:)` returned throws.
    @exclusivity(unchecked) @usableFromInline final var isFinished = false
  #endif

  init(modelType: ObjectIdentifier, plan: MappingPlan?, recording: Bool, decoding: Bool) {
    self.modelType = modelType
    follower = PlanFollower(plan: plan, recording: recording, decoding: decoding)
  }

  /// The mapping for `name` read with `options` (`nil` for the default ones), carrying the
  /// plan's entry when the plan expects this key next, so the operator that uses it needs no
  /// lookup at all.
  @inlinable @inline(__always)
  final func mapping(named name: String, options: KeyOptions?, in map: KeyMap) -> Mapping {
    if let entry = follower.match(name, options, valueType: nil) {
      return Mapping(map: map, entry: entry)
    }
    return Mapping(map: map, pending: .name(name, options ?? .default))
  }

  /// Throws when `mapping` is used after the run it belongs to ended.
  @usableFromInline
  final func checkInUse(_ mapping: Mapping) throws {
    guard isFinished else { return }
    throw MappingErrors.usedAfterRun(mapping.keyDescription, decoding: follower.isDecoding)
  }

  /// Runs one `map(map:)` call and ends the run.
  ///
  /// - Parameter body: The call.
  /// - Returns: The plan the run recorded, if it recorded one.
  /// - Throws: The error of the call; a run that throws shares nothing it learned.
  @discardableResult
  final func run(_ body: () throws -> Void) throws -> MappingPlan? {
    do {
      try body()
    } catch {
      isFinished = true
      follower.finish(modelType: modelType, publishing: false)
      throw error
    }
    isFinished = true
    return follower.finish(modelType: modelType, publishing: true)
  }
}
