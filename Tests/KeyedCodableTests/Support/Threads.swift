import Foundation
import Testing

/// Runs `body` on a new thread with a stack of `stackSize` bytes, and waits for it: a crash
/// there (a stack overflow) ends the test run.
///
/// Tests that measure KeyedCodable's own stack use run on small stacks. Tests that hand very
/// deep values to Foundation's coders run on a large one: those coders recurse once per level
/// in their own code, and the stack of the thread a test happens to run on depends on the
/// machine (`ulimit -s`; 2 MiB for the threads of Swift Testing where it is unlimited).
func onThread<Value: Sendable>(
  stackSize: Int, _ body: @escaping @Sendable () throws -> Value
) throws -> Value {
  let done = DispatchSemaphore(value: 0)
  nonisolated(unsafe) var outcome: Result<Value, any Error>?
  let thread = Thread {
    outcome = Result { try body() }
    done.signal()
  }
  thread.stackSize = stackSize
  thread.start()
  done.wait()
  return try #require(outcome).get()
}

/// The stack of the thread that runs a test handing Foundation's coders a value thousands of
/// levels deep.
let foundationDeepStack = 64 << 20
