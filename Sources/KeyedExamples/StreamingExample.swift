import Foundation
import KeyedCodable

// Streaming: an export's records are read one at a time from the array at "data.items" of a
// file, one bad record dropped and reported, and written back as JSON Lines.

/// One record of an order export: a Keyedable model with a nested key path.
public struct ExportedOrder: Codable, Keyedable, Equatable, Sendable {
  public var id = 0
  public var customer = ""
  public var total = 0.0

  public init() {}

  public mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
    try customer <-> map["customer.name"]
    try total <-> map["total"]
  }
}

extension Example {
  /// The README example of this file.
  public static var streaming: Example {
    let json = """
      {"export": "orders", "data": {"items": [
        {"id": 1, "customer": {"name": "Ada"}, "total": 12.5},
        {"id": 2, "customer": {"name": "Linus"}, "total": "unknown"},
        {"id": 3, "customer": {"name": "Grace"}, "total": 7}
      ], "page": 1}}
      """
    return Example(name: "Streaming and JSON Lines", json: json) {
      let directory = FileManager.default.temporaryDirectory
      let export = directory.appendingPathComponent("keyed-example-\(UUID().uuidString).json")
      let lines = directory.appendingPathComponent("keyed-example-\(UUID().uuidString).jsonl")
      defer {
        try? FileManager.default.removeItem(at: export)
        try? FileManager.default.removeItem(at: lines)
      }
      try Data(json.utf8).write(to: export)

      // Read the array one element at a time; "* items" drops the record whose total isn't a
      // number, and the reporter says so.
      let reporter = DecodingReporter()
      let reader = try KeyedJSONDecoder().elementReader(
        for: ExportedOrder.self, at: "data.* items", contentsOf: export,
        context: MappingContext().reporting(to: reporter))
      var orders: [ExportedOrder] = []
      while let order = try reader.read() {
        orders.append(order)
      }

      // Write them back as JSON Lines, then read the lines.
      _ = FileManager.default.createFile(atPath: lines.path, contents: nil)
      let handle = try FileHandle(forWritingTo: lines)
      try KeyedJSONEncoder().encodeLines(orders, to: handle)
      try handle.close()
      let written = String(decoding: try Data(contentsOf: lines), as: UTF8.self)
      let linesReader = try KeyedJSONDecoder().linesReader(
        for: ExportedOrder.self, contentsOf: lines)
      var readBack = 0
      while try linesReader.read() != nil {
        readBack += 1
      }
      let decoded =
        orders.map { "order \($0.id) = \($0.customer), \($0.total)" }
        + reporter.report.entries.map { "dropped: \($0.pathDescription)" }
        + ["JSON Lines read back = \(readBack) orders"]
      return Output(decoded: decoded, encoded: written)
    }
  }
}
