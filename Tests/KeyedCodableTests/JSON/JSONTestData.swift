import Foundation

/// The third-party JSON test data in `Tests/Data` (see its README).
enum JSONTestData {
  /// `Tests/Data`.
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // JSON
    .deletingLastPathComponent()  // KeyedCodableTests
    .deletingLastPathComponent()  // Tests
    .appendingPathComponent("Data").standardized

  /// The JSONTestSuite parsing cases whose names start with `prefix` (`y_`, `n_` or `i_`).
  ///
  /// A missing directory gives no cases, which the tests that use them check against the number
  /// of files the suite has.
  static func parsingCases(_ prefix: String) -> [String] {
    let directory = root.appendingPathComponent("JSONTestSuite/test_parsing")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
  }

  /// The bytes of a JSONTestSuite parsing case.
  static func parsingCase(_ name: String) throws -> Data {
    try Data(contentsOf: root.appendingPathComponent("JSONTestSuite/test_parsing/\(name)"))
  }

  /// One of the three benchmark documents (`twitter.json`, `citm_catalog.json`, `canada.json`).
  static func corpus(_ name: String) throws -> Data {
    try Data(contentsOf: root.appendingPathComponent("corpus/\(name)"))
  }
}
