import Foundation

/// How much of its full work a stress test does.
///
/// `1` by default. `.ci/run` sets `KEYED_TEST_STRESS=0.2` for the sanitizer runs, where every
/// iteration costs ten to twenty times more: the races and memory errors they look for show up
/// within a fifth of the iterations, and the plain `swift test` run does them all.
enum Stress {
  static let scale: Double = {
    guard let text = ProcessInfo.processInfo.environment["KEYED_TEST_STRESS"],
      let value = Double(text), value > 0
    else { return 1 }
    return min(value, 1)
  }()

  /// `full` scaled by ``scale``, at least 1.
  static func count(_ full: Int) -> Int {
    max(1, Int((Double(full) * scale).rounded()))
  }
}
