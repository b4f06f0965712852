#if canImport(os)
  import os
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#else
  import Foundation
#endif

/// A value that is only read and changed while holding a lock.
///
/// Why not `Synchronization.Mutex`: it needs macOS 15, iOS 18, tvOS 18 and watchOS 11, and the
/// package supports macOS 10.15, iOS 13, tvOS 13 and watchOS 6 (see `Package.swift`). This type is
/// the same idea over the platform's own primitive: `os_unfair_lock` on Apple platforms,
/// `pthread_mutex_t` on Linux and Android, `NSLock` elsewhere.
///
/// `@unchecked Sendable` for the reason `Mutex` is `Sendable`: the compiler cannot see that the
/// lock serializes every access to `state`, but nothing reaches `state` except through
/// ``withLock(_:)``.
final class Locked<State>: @unchecked Sendable {
  #if canImport(os)
    private let word: UnsafeMutablePointer<os_unfair_lock>
  #elseif canImport(Glibc) || canImport(Musl) || canImport(Bionic)
    private let word: UnsafeMutablePointer<pthread_mutex_t>
  #else
    private let word = NSLock()
  #endif
  /// Unchecked: the lock already makes every access exclusive.
  @exclusivity(unchecked) private var state: State

  /// Creates a lock protecting `state`.
  init(_ state: State) {
    self.state = state
    // The lock word lives in an allocation of its own, so its address never moves.
    #if canImport(os)
      word = .allocate(capacity: 1)
      word.initialize(to: os_unfair_lock())
    #elseif canImport(Glibc) || canImport(Musl) || canImport(Bionic)
      word = .allocate(capacity: 1)
      word.initialize(to: pthread_mutex_t())
      pthread_mutex_init(word, nil)
    #endif
  }

  deinit {
    #if canImport(os)
      word.deinitialize(count: 1)
      word.deallocate()
    #elseif canImport(Glibc) || canImport(Musl) || canImport(Bionic)
      pthread_mutex_destroy(word)
      word.deinitialize(count: 1)
      word.deallocate()
    #endif
  }

  /// Runs `body` with the protected state while holding the lock.
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    #if canImport(os)
      os_unfair_lock_lock(word)
      defer { os_unfair_lock_unlock(word) }
    #elseif canImport(Glibc) || canImport(Musl) || canImport(Bionic)
      pthread_mutex_lock(word)
      defer { pthread_mutex_unlock(word) }
    #else
      word.lock()
      defer { word.unlock() }
    #endif
    return try body(&state)
  }
}
