import Dispatch
import Foundation
import KeyedCodable

// stream: a generated export of records (1,000,000 of them, about 250 MB; 20,000 with --quick),
// written as a streamed array at a key path and as JSON Lines, then read back both ways, each
// step in a fresh child process so that its peak memory is its own. The reference is the same
// records decoded in memory by KeyedJSONDecoder (from the whole file read into memory first;
// the read is not timed).

/// A record of the stream scenario: a Keyedable model with a nested key path.
struct StreamBenchRecord: Codable, Keyedable {
  var id = 0
  var name = ""
  var email = ""
  var city = ""
  var country = ""
  var score = 0.0
  var active = false
  var tags: [String] = []
  var createdAt = 0

  mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
    try name <-> map["name"]
    try email <-> map["contact.email"]
    try city <-> map["address.city"]
    try country <-> map["address.country"]
    try score <-> map["score"]
    try active <-> map["active"]
    try tags <-> map["tags"]
    try createdAt <-> map["createdAt"]
  }

  /// Record `index`, the same on every run.
  static func make(_ index: Int) -> StreamBenchRecord {
    var record = StreamBenchRecord()
    record.id = index
    record.name = "User number \(index)"
    record.email = "user\(index)@example.com"
    record.city = ["Oslo", "Lisbon", "Kraków", "Nairobi", "Osaka"][index % 5]
    record.country = ["NO", "PT", "PL", "KE", "JP"][index % 5]
    record.score = Double(index % 1000) / 8
    record.active = index % 3 != 0
    record.tags = ["tag\(index % 7)", "group \(index % 11)"]
    record.createdAt = 1_700_000_000 + index
    return record
  }
}

/// The envelope the in-memory reference decodes.
private struct StreamEnvelope: Decodable {
  struct Data: Decodable {
    var items: [StreamBenchRecord]
  }
  var data: Data
}

/// What one child step measured.
struct StreamStep {
  let step: String
  let seconds: Double
  let bytes: Int
  let records: Int
  let peakBytes: Int

  var megabytesPerSecond: Double { Double(bytes) / 1_048_576 / max(seconds, 1e-9) }
}

/// Child side: runs one step on `file` and prints `STREAM seconds bytes records peak`.
func runStreamChild(_ arguments: [String]) throws {
  guard arguments.count == 3, let records = Int(arguments[2]) else {
    throw BenchmarkError(description: "stream child: step, file and record count expected")
  }
  let step = arguments[0]
  let url = URL(fileURLWithPath: arguments[1])
  // The in-memory reference is timed from bytes in memory: reading the file is not counted.
  let whole = step == "in-memory" ? try Data(contentsOf: url) : Data()
  let start = DispatchTime.now().uptimeNanoseconds
  var count = 0
  switch step {
  case "write-array", "write-lines":
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let values = (0..<records).lazy.map(StreamBenchRecord.make)
    if step == "write-array" {
      try KeyedJSONEncoder().encodeArray(values, at: "data.items", to: handle)
    } else {
      try KeyedJSONEncoder().encodeLines(values, to: handle)
    }
    count = records
  case "read-array":
    let reader = try KeyedJSONDecoder().elementReader(
      for: StreamBenchRecord.self, at: "data.items", contentsOf: url)
    while let record = try reader.read() {
      blackHole(record.id)
      count += 1
    }
  case "read-lines":
    let reader = try KeyedJSONDecoder().linesReader(
      for: StreamBenchRecord.self, contentsOf: url)
    while let record = try reader.read() {
      blackHole(record.id)
      count += 1
    }
  case "in-memory":
    count = try KeyedJSONDecoder().decode(StreamEnvelope.self, from: whole).data.items.count
  default:
    throw BenchmarkError(description: "unknown stream step \(step)")
  }
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  let size =
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int).flatMap { $0 } ?? 0
  guard count == records else {
    throw BenchmarkError(description: "stream \(step): \(count) records instead of \(records)")
  }
  print("STREAM \(seconds) \(size) \(count) \(peakResidentBytes())")
}

/// Parent side: writes and reads the export in child processes, and prints throughput, the
/// ratio to the in-memory decode and each step's peak memory.
func runStreamScenario(records: Int, rounds: Int, tsv: Bool) throws {
  let directory = FileManager.default.temporaryDirectory
  let stem = "keyed-bench-stream-\(ProcessInfo.processInfo.processIdentifier)"
  let array = directory.appendingPathComponent("\(stem).json")
  let lines = directory.appendingPathComponent("\(stem).jsonl")
  defer {
    try? FileManager.default.removeItem(at: array)
    try? FileManager.default.removeItem(at: lines)
  }
  func child(_ step: String, _ file: URL) throws -> StreamStep {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executablePath())
    process.arguments = ["--stream-child", step, file.path, String(records)]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: data, as: UTF8.self)
      .split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard process.terminationStatus == 0, fields.count == 5, fields[0] == "STREAM",
      let seconds = Double(fields[1]), let bytes = Int(fields[2]), let count = Int(fields[3]),
      let peak = Int(fields[4])
    else {
      throw BenchmarkError(
        description: "stream child \(step) printed \(String(decoding: data, as: UTF8.self))")
    }
    return StreamStep(step: step, seconds: seconds, bytes: bytes, records: count, peakBytes: peak)
  }
  /// The fastest of `rounds` runs of a step (the machine is shared), with the highest peak.
  func best(_ step: String, _ file: URL) throws -> StreamStep {
    var runs: [StreamStep] = []
    for _ in 0..<rounds {
      runs.append(try child(step, file))
    }
    let fastest = runs.min { $0.seconds < $1.seconds } ?? runs[0]
    return StreamStep(
      step: step, seconds: fastest.seconds, bytes: fastest.bytes, records: fastest.records,
      peakBytes: runs.map(\.peakBytes).max() ?? 0)
  }
  let steps = [
    try best("write-array", array), try best("write-lines", lines),
    try best("read-array", array), try best("read-lines", lines),
    try best("in-memory", array),
  ]
  let reference = steps[4]
  if !tsv {
    print(
      "stream  \(records) records  (\(reference.bytes / 1_048_576) MB as an array at data.items)")
  }
  for step in steps {
    let ratio = step.megabytesPerSecond / reference.megabytesPerSecond
    if tsv {
      print(
        [
          "stream", step.step, "keyedjson", String(format: "%.1f", step.megabytesPerSecond),
          String(format: "%.3f", ratio), String(step.peakBytes),
        ].joined(separator: "\t"))
    } else {
      print(
        "  \(step.step.padding(toLength: 12, withPad: " ", startingAt: 0))"
          + String(
            format: "%8.1f MB/s  %6.3f× in-memory throughput  peak %7.1f MB  %8.3f s",
            step.megabytesPerSecond, ratio, Double(step.peakBytes) / 1_048_576, step.seconds))
    }
  }
}
