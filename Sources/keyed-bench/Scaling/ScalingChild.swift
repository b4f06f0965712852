import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The child side of `keyed-bench --scaling`: one measurement in a fresh process, so that its peak
// memory is its own, the first decode of a type is the first in the process, and a case that
// takes too long can be stopped.
//
//   keyed-bench --scaling-child <case> <operation> <implementation> <size> <time limit in s>
//
// It generates the input, warms up the coder on a tiny unrelated value, then times the operation
// alone under a watchdog, and prints one line per figure on standard output:
//
//   TIME <seconds>          the operation's wall time
//   PEAK <bytes>            the peak resident memory while it ran (the input included)
//   RETAINED <bytes>        for cases that measure it: resident memory after the value was dropped
//                           and the follow-up decodes ran, minus before the operation
//   TIMEOUT <bytes>         an operation ran past the time limit; the peak so far. The process
//                           then ends with status 124.
//   ERROR <message>         the case threw, or returned a wrong result
//
// Lines are written as they are known, so a child stopped during its follow-up decodes has
// already reported its time.

/// The exit status of a child stopped by its watchdog.
let scalingTimeoutStatus: Int32 = 124

/// Ends the process when an operation runs past the time limit, after printing `TIMEOUT` and the
/// peak memory so far.
///
/// A thread of its own rather than a signal handler, which could not safely read `/proc` or
/// print; SIGALRM, a little later, is the backstop (its default action ends the process too).
private final class Watchdog: @unchecked Sendable {
  private let lock = NSLock()
  /// The number of the operation being watched, or 0.
  private var watched = 0
  private var operations = 0
  private let limit: UInt32

  init(limit: UInt32) {
    self.limit = limit
  }

  /// Starts watching the next operation.
  func arm() {
    lock.lock()
    operations += 1
    watched = operations
    let operation = operations
    lock.unlock()
    alarm(limit + 10)
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(limit))) { [self] in
      lock.lock()
      let expired = watched == operation
      lock.unlock()
      if expired {
        emitChildLine("TIMEOUT \(peakResidentBytes())")
        _exit(scalingTimeoutStatus)
      }
    }
  }

  /// Stops watching the operation.
  func disarm() {
    lock.lock()
    watched = 0
    lock.unlock()
    alarm(0)
  }
}

/// Writes `line` to standard output at once (not buffered, so it survives a signal).
private func emitChildLine(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Runs the measurement the arguments describe (after `--scaling-child`), reporting errors as an
/// `ERROR` line.
func runScalingChild(_ arguments: [String]) {
  do {
    try measureInThisProcess(arguments)
  } catch {
    emitChildLine("ERROR " + oneLine(String(describing: error)))
  }
}

/// `text` on one line, at most 300 characters.
func oneLine(_ text: String) -> String {
  let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
  return flat.count > 300 ? String(flat.prefix(300)) + "…" : flat
}

private func measureInThisProcess(_ arguments: [String]) throws {
  guard arguments.count == 5, let implementation = ScalingImplementation(rawValue: arguments[2]),
    let size = Int(arguments[3]), size > 0, let limit = UInt32(arguments[4]), limit > 0
  else {
    throw BenchmarkError(description: "bad arguments: \(arguments.joined(separator: " "))")
  }
  guard
    let scalingCase = makeScalingCases().first(where: {
      $0.name == arguments[0] && $0.operation == arguments[1]
    })
  else {
    throw BenchmarkError(description: "unknown case \(arguments[0]) \(arguments[1])")
  }

  let run = try scalingCase.prepare(implementation, size)
  try implementation.warmUp()
  releaseFreedMemory()
  _ = resetPeakResidentBytes()
  let before = residentBytes()

  let watchdog = Watchdog(limit: limit)
  defer { watchdog.disarm() }
  watchdog.arm()
  let start = DispatchTime.now().uptimeNanoseconds
  let checksum = try run.body()
  let elapsed = DispatchTime.now().uptimeNanoseconds - start
  watchdog.disarm()
  let peak = peakResidentBytes()

  emitChildLine("TIME \(Double(elapsed) / 1e9)")
  emitChildLine("PEAK \(peak)")
  if let expected = run.expected, checksum != expected {
    throw BenchmarkError(description: "wrong result: checksum \(checksum), expected \(expected)")
  }
  guard scalingCase.measuresRetained else { return }
  for followUp in run.followUps {
    watchdog.arm()
    _ = try followUp()
    watchdog.disarm()
  }
  releaseFreedMemory()
  if let before, let after = residentBytes() {
    emitChildLine("RETAINED \(after - before)")
  }
}
