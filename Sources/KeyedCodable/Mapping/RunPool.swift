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
  /// thread (see ``StackGuard``).
  #if DEBUG
    private var depth = 0
  #else
    @exclusivity(unchecked) private var depth = 0
  #endif

  /// Counts a ``Keyedable`` value starting inside the others; pair with ``leave()``.
  ///
  /// - Returns: Where the value goes on (see ``StackGuard``). On a fresh stack, the caller calls
  ///   itself again there, which counts the value on the other thread's pool.
  @inline(__always)
  func enter() -> StackGuard.Descent {
    depth &+= 1
    return StackGuard.descent(atDepth: depth)
  }

  /// Counts a ``Keyedable`` value as done (see ``enter()``).
  @inline(__always)
  func leave() {
    depth &-= 1
  }

  /// Runs `body`, which decodes or encodes a value inside the values this thread is working
  /// on, counted in this pool: on a fresh stack when the thread's stack runs low (see
  /// ``StackGuard``).
  ///
  /// - Parameters:
  ///   - tooDeep: The error to throw when the value is nested deeper than
  ///     ``StackGuard/maximumNesting``.
  ///   - body: The decode or the encode.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, or `tooDeep`.
  @inline(__always)
  func nested<Value>(
    orThrow tooDeep: @autoclosure () -> any Error, _ body: () throws -> Value
  ) throws -> Value {
    let descent = enter()
    defer { leave() }
    switch descent {
    case .here: return try body()
    case .freshStack: return try StackGuard.onFreshStack(body)
    case .tooDeep: throw tooDeep()
    }
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
