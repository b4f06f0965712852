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

/// A small mutual-exclusion lock over the platform's native primitive.
///
/// `os_unfair_lock` on Apple platforms, `pthread_mutex_t` on Linux and Android, `NSLock`
/// elsewhere. The lock word lives in its own allocation so its address never moves.
final class Lock: @unchecked Sendable {
  #if canImport(os)
    private let word: UnsafeMutablePointer<os_unfair_lock>
  #elseif canImport(Glibc) || canImport(Musl) || canImport(Bionic)
    private let word: UnsafeMutablePointer<pthread_mutex_t>
  #else
    private let word = NSLock()
  #endif

  init() {
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

  /// Runs `body` while holding the lock.
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
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
    return try body()
  }
}
