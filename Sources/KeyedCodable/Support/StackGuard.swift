import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Keeps deep documents from overflowing the stack of the thread that decodes or encodes them.
///
/// `Codable` recurses: a value nested 512 levels deep is decoded by 512 nested calls of
/// `init(from:)`, each with the frames of the coder and of the model between them, and the
/// secondary threads of Apple platforms have 512 KiB of stack. KeyedCodable keeps its own frames
/// on that path small, but the frames of a model's own code are not its to choose. So, past a
/// few dozen levels, a nested value first checks how much stack its thread has left: with less
/// than ``reserve``, the value is decoded (or encoded) on a new thread with a stack of
/// ``freshStackSize`` while the current thread waits for it, and the task-local context of the
/// decode (``MappingContext`` and the state KeyedCodable keeps in task-locals) goes with it.
///
/// Nothing changes for documents of ordinary depth: the check costs a comparison per nested
/// value below the first levels, and a new thread is made at most once per ``freshStackSize`` of
/// recursion, at most ``freshStackBudget`` times per call. On the main thread (whose work, such
/// as a `@MainActor` model's, must stay there) no thread is started: a value too deep for its
/// stack throws there, as it does on a platform whose stack bounds can't be read.
///
/// On the new thread, the task-local values of the caller other than KeyedCodable's are not
/// bound: a model's `init(from:)` or `encode(to:)` that reads task-locals of its own sees them
/// unbound past the depth where its thread ran low.
enum StackGuard {
  /// The stack a nested value needs to have left on its thread to start there.
  static let reserve = 160 * 1024

  /// The stack of the thread a value continues on.
  static let freshStackSize = 4 << 20

  /// The nesting depth below which nothing is checked: no thread is that close to the end of
  /// its stack after so few levels.
  static let uncheckedDepth = 8

  /// The deepest a value may be nested inside others where KeyedCodable's own code recurses
  /// (``Keyedable`` models on any coder, and the JSON coder's values): deeper, decoding throws
  /// `DecodingError.dataCorrupted` and encoding `EncodingError.invalidValue`, instead of
  /// recursing without end.
  static let maximumNesting = 10_000

  /// The most fresh stacks one decode or encode starts.
  ///
  /// A document can't make it start a
  /// thread for each of a million values that sit where the stack runs low. Deeper values
  /// throw instead.
  static let freshStackBudget = 1024

  /// Why a value can't go on.
  enum Limit {
    /// It is nested deeper than ``maximumNesting``.
    case nesting
    /// Its thread's stack runs low and no fresh stack can be started for it: on the main
    /// thread (whose work, such as a `@MainActor` model's, must stay there), past
    /// ``freshStackBudget``, or when no thread can be made.
    case stack
  }

  /// Where a value nested `depth` levels deep goes on.
  enum Descent {
    /// Here, on this thread.
    case here
    /// On a fresh stack (see ``onFreshStack(orThrow:adopting:_:)``).
    case freshStack
    /// Nowhere.
    case tooDeep(Limit)
  }

  /// Where a value nested `depth` levels deep goes on, when the decode or encode it belongs to
  /// started `freshStacks` fresh stacks so far.
  @inline(__always)
  static func descent(atDepth depth: Int, freshStacks: Int) -> Descent {
    guard depth > uncheckedDepth else { return .here }
    guard depth <= maximumNesting else { return .tooDeep(.nesting) }
    guard isLow() else { return .here }
    return freshStacks < freshStackBudget && !Thread.isMainThread
      ? .freshStack : .tooDeep(.stack)
  }

  /// The message of an error for `limit`.
  private static func message(_ limit: Limit, decoding: Bool) -> String {
    switch limit {
    case .nesting:
      "The value is nested more than \(maximumNesting) levels deep, more than KeyedCodable "
        + (decoding ? "decodes." : "encodes.")
    case .stack:
      "The value is nested too deep for the stack of this thread, and KeyedCodable can't go on "
        + "on a thread of its own here (the main thread, or more than \(freshStackBudget) "
        + "fresh stacks in one call)."
    }
  }

  /// The error of a decode that went past `limit`.
  static func tooDeepToDecode(_ limit: Limit = .nesting, codingPath: [any CodingKey])
    -> DecodingError
  {
    .dataCorrupted(
      .init(codingPath: codingPath, debugDescription: message(limit, decoding: true)))
  }

  /// The error of an encode of `value` that went past `limit`.
  static func tooDeepToEncode(
    _ value: Any, _ limit: Limit = .nesting, codingPath: [any CodingKey]
  ) -> EncodingError {
    .invalidValue(
      value, .init(codingPath: codingPath, debugDescription: message(limit, decoding: false)))
  }

  /// Whether the current thread has less than ``reserve`` of stack left.
  ///
  /// A local variable's address stands for the stack pointer. Where it is not inside the
  /// thread's stack (the address sanitizer can keep locals on a heap of its own), nothing is
  /// known, and the stack is not low.
  @inline(never)
  static func isLow() -> Bool {
    guard let bounds = ThreadStack.bounds else { return false }
    var marker: UInt8 = 0
    let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    guard here >= bounds.low, here < bounds.high else { return false }
    return here < bounds.low &+ UInt(reserve)
  }

  /// Runs `body` on a new thread with a stack of ``freshStackSize``, and waits for it.
  ///
  /// The task-local values KeyedCodable reads are bound on the new thread as they are here, and
  /// `adopting`, when given, is made the new thread's ``RunPool``, so that the pool's count of
  /// nested values goes on where it was.
  ///
  /// - Parameters:
  ///   - failure: The error to throw when no thread can be made.
  ///   - pool: The pool of the current thread, to use on the new one.
  ///   - body: The work.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, or `failure`.
  static func onFreshStack<Value>(
    orThrow failure: @autoclosure () -> any Error, adopting pool: RunPool? = nil,
    _ body: () throws -> Value
  ) throws -> Value {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
      let context = MappingContext.Binding.box
      let update = UpdateSlot.current
      let events = TransformEvents.current
      return try withoutActuallyEscaping(body) { body in
        var outcome: Result<Value, any Error>?
        let work = FreshStackWork {
          pool?.adoptOnCurrentThread()
          outcome = Result {
            try MappingContext.Binding.$box.withValue(context) {
              try UpdateSlot.$current.withValue(update) {
                try TransformEvents.$current.withValue(events) { try body() }
              }
            }
          }
        }
        guard work.runOnNewThread(stackSize: freshStackSize), let outcome else {
          throw failure()
        }
        return try outcome.get()
      }
    #else
      throw failure()
    #endif
  }
}

#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
  /// One call run on a thread of its own by ``StackGuard/onFreshStack(_:)``.
  ///
  /// `@unchecked Sendable`: the thread that makes it waits for the new thread to end, and the
  /// new thread is the only one to use the call meanwhile.
  private final class FreshStackWork: @unchecked Sendable {
    private let call: () -> Void

    init(_ call: @escaping () -> Void) {
      self.call = call
    }

    /// Runs the call on a new thread and waits for it; `false` when no thread could be made.
    func runOnNewThread(stackSize: Int) -> Bool {
      var attributes = pthread_attr_t()
      guard pthread_attr_init(&attributes) == 0 else { return false }
      defer { pthread_attr_destroy(&attributes) }
      guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return false }
      let argument = Unmanaged.passRetained(self).toOpaque()
      // `pthread_t` is an optional pointer on Darwin and Musl, an integer on Glibc.
      #if canImport(Darwin) || canImport(Musl)
        var thread: pthread_t?
      #else
        var thread = pthread_t()
      #endif
      let created = pthread_create(&thread, &attributes, freshStackEntry, argument)
      guard created == 0 else {
        Unmanaged<FreshStackWork>.fromOpaque(argument).release()
        return false
      }
      #if canImport(Darwin) || canImport(Musl)
        // Set by a successful `pthread_create`; the thread runs either way, so it is waited for
        // whenever it can be named.
        if let thread {
          pthread_join(thread, nil)
        }
      #else
        pthread_join(thread, nil)
      #endif
      return true
    }

    /// Runs the call, on the new thread.
    func run() {
      call()
    }
  }

  /// The entry of a thread made by ``FreshStackWork``: runs its call.
  #if canImport(Darwin)
    private func freshStackEntry(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
      Unmanaged<FreshStackWork>.fromOpaque(argument).takeRetainedValue().run()
      return nil
    }
  #else
    private func freshStackEntry(_ argument: UnsafeMutableRawPointer?)
      -> UnsafeMutableRawPointer?
    {
      if let argument {
        Unmanaged<FreshStackWork>.fromOpaque(argument).takeRetainedValue().run()
      }
      return nil
    }
  #endif

  /// The bounds of the current thread's stack, read once per thread.
  private enum ThreadStack {
    /// The thread-specific slots that keep the lowest and the highest address of each thread's
    /// stack (`1` in the first when they can't be read).
    private static let lowSlot: pthread_key_t = makeKey()
    private static let highSlot: pthread_key_t = makeKey()

    private static func makeKey() -> pthread_key_t {
      var key = pthread_key_t()
      pthread_key_create(&key, nil)
      return key
    }

    /// The lowest and highest addresses of the current thread's stack, or `nil` when they
    /// can't be read.
    static var bounds: (low: UInt, high: UInt)? {
      if let known = pthread_getspecific(lowSlot) {
        let low = UInt(bitPattern: known)
        guard low != 1, let high = pthread_getspecific(highSlot) else { return nil }
        return (low, UInt(bitPattern: high))
      }
      let bounds = read()
      pthread_setspecific(lowSlot, UnsafeRawPointer(bitPattern: bounds?.low ?? 1))
      if let bounds {
        pthread_setspecific(highSlot, UnsafeRawPointer(bitPattern: bounds.high))
      }
      return bounds
    }

    #if !canImport(Darwin)
      /// `pthread_getattr_np`, which fills the attributes of a running thread, its stack's
      /// bounds among them.
      private typealias GetAttributes =
        @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32

      private static let getAttributes: GetAttributes? = {
        guard let process = dlopen(nil, RTLD_NOW),
          let symbol = dlsym(process, "pthread_getattr_np")
        else { return nil }
        return unsafeBitCast(symbol, to: GetAttributes.self)
      }()
    #endif

    private static func read() -> (low: UInt, high: UInt)? {
      #if canImport(Darwin)
        let thread = pthread_self()
        let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        let size = UInt(pthread_get_stacksize_np(thread))
        return top > size ? (top - size, top) : nil
      #else
        // `pthread_getattr_np` is a GNU extension the Glibc module doesn't import: looked up
        // once by name (glibc and musl have it).
        guard let getAttributes = getAttributes else { return nil }
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var base: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &base, &size) == 0, let base, size > 0 else {
          return nil
        }
        let low = UInt(bitPattern: base)
        return (low, low &+ UInt(size))
      #endif
    }
  }
#else
  private enum ThreadStack {
    static var bounds: (low: UInt, high: UInt)? { nil }
  }
#endif
