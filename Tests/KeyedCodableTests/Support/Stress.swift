import Foundation

/// How much of its full work a stress test does.
///
/// `1` by default. `.ci/run` sets `KEYED_TEST_STRESS=0.1` for the address sanitizer's run, where
/// every iteration costs ten to twenty times more: the memory errors it looks for show up within
/// a tenth of the iterations, and the plain `swift test` run does them all. (The thread
/// sanitizer's run, of the concurrent tests only, does them all too.)
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
