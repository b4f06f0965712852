// swift-tools-version: 6.0

import Foundation
import PackageDescription

let package = Package(
  name: "KeyedCodable",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  products: [
    .library(name: "KeyedCodable", targets: ["KeyedCodable"]),
    // The mapping layer alone, without the JSON coder, for apps that use only other coders and
    // care about binary size: the same sources (Sources/KeyedCodableMapping links to
    // Sources/KeyedCodable) built without the JSON coder. See the Performance article.
    .library(name: "KeyedCodableMapping", targets: ["KeyedCodableMapping"]),
  ],
  targets: [
    .target(name: "KeyedCodable"),
    .target(
      name: "KeyedCodableMapping",
      // The JSON coder's decoder, encoder and streams; the parser, numbers and `JSONValue` stay, as
      // error messages and values use them on every coder.
      exclude: [
        "JSON/Decoding",
        "JSON/Encoding/JSONEncodingBackend.swift",
        "JSON/Encoding/JSONNameTable.swift",
        "JSON/Encoding/JSONRenderedNames.swift",
        "JSON/Encoding/JSONStreamEncoder+JSONValue.swift",
        "JSON/Encoding/JSONStreamEncoder.swift",
        "JSON/Encoding/KeyedJSONEncoder.swift",
        "JSON/JSONContainerBoxes.swift",
        "JSON/JSONFormattedDates.swift",
        "JSON/JSONSpareRuns.swift",
        "JSON/Streaming",
      ],
      swiftSettings: [.define("KEYED_CODABLE_MAPPING_ONLY")]
    ),
    .target(name: "KeyedExamples", dependencies: ["KeyedCodable"]),
    .executableTarget(name: "keyed-examples", dependencies: ["KeyedExamples"]),
    .executableTarget(name: "keyed-bench", dependencies: ["KeyedCodable"]),
    .testTarget(name: "KeyedCodableTests", dependencies: ["KeyedCodable", "KeyedExamples"]),
    .testTarget(name: "KeyedCodableMappingTests", dependencies: ["KeyedCodableMapping"]),
  ],
  swiftLanguageModes: [.v6]
)

// CI's sanitizer runs (.ci/run sets KEYEDCODABLE_SANITIZER_RUN=1; nothing else does) build and
// test the KeyedCodable module alone: the mapping-only module (the same sources without the JSON
// coder), its test and the benchmark are left out, a third of each sanitizer build.
if ProcessInfo.processInfo.environment["KEYEDCODABLE_SANITIZER_RUN"] == "1" {
  let leftOut = ["KeyedCodableMapping", "KeyedCodableMappingTests", "keyed-bench"]
  package.targets.removeAll { leftOut.contains($0.name) }
  package.products.removeAll { leftOut.contains($0.name) }
}

// CI's thread sanitizer run (.ci/run) runs only the tests whose names match the pattern in
// KEYEDCODABLE_TSAN_TESTS. It builds the test files that mention the pattern and the files that
// define no test (the shared test support) instead of the whole test target: the files that
// define those tests are among the first.
if let pattern = ProcessInfo.processInfo.environment["KEYEDCODABLE_TSAN_TESTS"], !pattern.isEmpty,
  let tests = package.targets.first(where: { $0.name == "KeyedCodableTests" })
{
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Tests/KeyedCodableTests")
  let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
  tests.sources = files.filter { file in
    guard file.hasSuffix(".swift"),
      let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    else { return false }
    let definesTests = text.range(of: #"@Test|:\s*XCTestCase\s*\{"#, options: .regularExpression)
    return definesTests == nil || text.range(of: pattern, options: .regularExpression) != nil
  }.sorted()
}
