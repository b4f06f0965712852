#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The finished key maps of one thread, ready for the next ``Keyedable`` value the thread
/// decodes or encodes through the containers of any coder.
///
/// A document of many small values makes a run per value. Foundation's coders give KeyedCodable
/// nowhere to keep anything from one value to the next, so without a pool each value would
/// allocate a key map, a run and a backend and free them again. A pool per thread needs no lock:
/// a run is synchronous, so it starts and ends on one thread, and nested values take maps from
/// the top of the stack and give them back in order.
///
/// A key map is kept only if nothing else refers to it (a mapping kept after its run must keep
/// throwing when used, which a reused map would not), and its backend lets go of the coder first,
/// so a pool never keeps a document alive. The pool of a thread is freed when the thread ends.
final class RunPool {
  // Only ever used by the thread that owns the pool: unchecked exclusivity in release builds
  // (see ``MappingRun``).
  #if DEBUG
    private var decodeMaps: [KeyMap] = []
    private var encodeMaps: [KeyMap] = []
  #else
    @exclusivity(unchecked) private var decodeMaps: [KeyMap] = []
    @exclusivity(unchecked) private var encodeMaps: [KeyMap] = []
  #endif
  /// The most key maps kept per direction: one per level of nesting a document uses at once.
  private static let limit = 16
  /// The number of ``Keyedable`` values being decoded or encoded inside one another on this
  /// thread, and the fresh stacks they started (see ``StackGuard``).
  #if DEBUG
    private var depth = 0
    private var freshStacks = 0
  #else
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var freshStacks = 0
  #endif

  /// Runs `body`, which decodes a value inside the values this thread is working on, counted in
  /// this pool: on a fresh stack when the thread's stack runs low (see ``StackGuard``), where
  /// this pool goes on counting.
  ///
  /// - Parameters:
  ///   - codingPath: The value's coding path, for the error of a value that can't go on.
  ///   - body: The decode.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws; `DecodingError.dataCorrupted` when the value is deeper than
  ///   ``StackGuard/maximumNesting``, or where no fresh stack can be started.
  @inline(__always)
  func nested<Value>(
    decodingAt codingPath: @autoclosure () -> [any CodingKey], _ body: () throws -> Value
  ) throws -> Value {
    try nested(tooDeep: { StackGuard.tooDeepToDecode($0, codingPath: codingPath()) }, body)
  }

  /// Runs `body`, which encodes `value` inside the values this thread is working on, counted in
  /// this pool (see ``nested(decodingAt:_:)``).
  ///
  /// - Parameters:
  ///   - value: The value, for the error of a value that can't go on.
  ///   - codingPath: Its coding path.
  ///   - body: The encode.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws; `EncodingError.invalidValue` when the value is deeper than
  ///   ``StackGuard/maximumNesting``, or where no fresh stack can be started.
  @inline(__always)
  func nested<Value>(
    encoding value: @autoclosure () -> Any, at codingPath: @autoclosure () -> [any CodingKey],
    _ body: () throws -> Value
  ) throws -> Value {
    try nested(
      tooDeep: { StackGuard.tooDeepToEncode(value(), $0, codingPath: codingPath()) }, body)
  }

  @inline(__always)
  private func nested<Value>(
    tooDeep: (StackGuard.Limit) -> any Error, _ body: () throws -> Value
  ) throws -> Value {
    depth &+= 1
    defer {
      depth &-= 1
      if depth == 0 { freshStacks = 0 }
    }
    switch StackGuard.descent(atDepth: depth, freshStacks: freshStacks) {
    case .here:
      return try body()
    case .freshStack:
      freshStacks &+= 1
      return try StackGuard.onFreshStack(orThrow: tooDeep(.stack), adopting: self, body)
    case .tooDeep(let limit):
      throw tooDeep(limit)
    }
  }

  /// Makes this pool the current thread's, for a thread that goes on with this one's work while
  /// it waits (see ``StackGuard/onFreshStack(orThrow:adopting:_:)``).
  func adoptOnCurrentThread() {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
      // The slot's destructor releases it when the thread ends.
      pthread_setspecific(Self.slot, Unmanaged.passRetained(self).toOpaque())
    #endif
  }

  // MARK: - Decoding

  /// A key map for a run of `model`'s `map(map:)` on the value `decoder` decodes.
  func decodingMap(for decoder: any Decoder, model: Any.Type) -> KeyMap {
    if let map = decodeMaps.popLast(), let run = map.decoding, let backend = run.containers {
      backend.reset(decoder: decoder)
      let type = ObjectIdentifier(model)
      // A published decoding plan never changes: a run of the same type keeps its plan.
      if run.modelType == type, let plan = run.follower.plan {
        run.restart(
          model: model, plan: plan, readsContext: PlanRegistry.shared.contextsAffectRuns)
      } else {
        let (plan, readsContext) = PlanRegistry.shared.planAndContextFlag(
          for: type, decoding: true)
        run.restart(model: model, plan: plan, readsContext: readsContext)
      }
      return map
    }
    return KeyMap(decoding: DecodeRun(containers: ContainerDecodingBackend(decoder), model: model))
  }

  /// Keeps `map` for the next decoding run, unless something still refers to it.
  func recycleDecoding(_ map: inout KeyMap) {
    guard decodeMaps.count < Self.limit, isKnownUniquelyReferenced(&map),
      let backend = map.decoding?.containers
    else { return }
    backend.end()
    map.decoding?.trimForReuse()
    decodeMaps.append(map)
  }

  // MARK: - Encoding

  /// A key map for a run writing `model` to `encoder`, following `plan`.
  func encodingMap(
    for encoder: any Encoder, model: Any.Type, plan: MappingPlan?, readsContext: Bool
  ) -> KeyMap {
    if let map = encodeMaps.popLast(), let run = map.encoding, let backend = run.containers {
      backend.reset(encoder: encoder)
      run.restart(model: model, plan: plan, readsContext: readsContext)
      return map
    }
    return KeyMap(
      encoding: EncodeRun(
        containers: ContainerEncodingBackend(encoder), model: model, plan: plan,
        readsContext: readsContext))
  }

  /// Keeps `map` for the next encoding run, unless something still refers to it.
  func recycleEncoding(_ map: inout KeyMap) {
    guard encodeMaps.count < Self.limit, isKnownUniquelyReferenced(&map),
      let backend = map.encoding?.containers
    else { return }
    backend.end()
    map.encoding?.trimForReuse()
    encodeMaps.append(map)
  }

  // MARK: - One pool per thread

  #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    /// The thread-specific slot of the pools; a thread's pool is released when the thread ends.
    private static let slot: pthread_key_t = {
      var key = pthread_key_t()
      #if canImport(Darwin)
        pthread_key_create(&key) { pool in
          Unmanaged<RunPool>.fromOpaque(pool).release()
        }
      #else
        pthread_key_create(&key) { pool in
          if let pool {
            Unmanaged<RunPool>.fromOpaque(pool).release()
          }
        }
      #endif
      return key
    }()

    /// The pool of the current thread, made on first use.
    static var current: RunPool? {
      if let pool = pthread_getspecific(slot) {
        return Unmanaged<RunPool>.fromOpaque(pool).takeUnretainedValue()
      }
      let pool = RunPool()
      pthread_setspecific(slot, Unmanaged.passRetained(pool).toOpaque())
      return pool
    }
  #else
    /// No pool where threads have no thread-specific storage KeyedCodable can use: every value
    /// makes its run.
    static var current: RunPool? { nil }
  #endif
}
