// swift-tools-version: 6.0

import PackageDescription

let package = Package(
  name: "KeyedCodable",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  products: [
    .library(name: "KeyedCodable", targets: ["KeyedCodable"])
  ],
  targets: [
    .target(name: "KeyedCodable"),
    .target(name: "KeyedExamples", dependencies: ["KeyedCodable"]),
    .executableTarget(name: "keyed-examples", dependencies: ["KeyedExamples"]),
    .executableTarget(name: "keyed-bench", dependencies: ["KeyedCodable"]),
    .testTarget(name: "KeyedCodableTests", dependencies: ["KeyedCodable", "KeyedExamples"]),
  ],
  swiftLanguageModes: [.v6]
)
