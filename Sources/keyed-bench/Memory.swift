import Foundation
import KeyedCodable

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's peak resident memory so far, in bytes.
///
/// On Linux this reads `VmHWM` from `/proc/self/status`: `getrusage`'s `ru_maxrss` survives
/// `exec`, so a child started by a large parent would report the parent's peak.
func peakResidentBytes() -> Int {
  #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let field = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first,
      let kilobytes = Int(field)
    {
      return kilobytes * 1024
    }
  #endif
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
  #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
  #endif
}

/// The process's resident memory now, in bytes (`VmRSS`), or `nil` where `/proc` is missing.
func residentBytes() -> Int? {
  #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let field = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first,
      let kilobytes = Int(field)
    {
      return kilobytes * 1024
    }
  #endif
  return nil
}

/// Sets the process's peak resident memory (`VmHWM`) to its resident memory now, so that
/// ``peakResidentBytes()`` tells the peak of what runs next; returns whether it could (Linux 4.0
/// and later, through `/proc/self/clear_refs`).
func resetPeakResidentBytes() -> Bool {
  #if os(Linux)
    let descriptor = open("/proc/self/clear_refs", O_WRONLY)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return write(descriptor, "5", 1) == 1
  #else
    return false
  #endif
}

/// Gives memory that was freed back to the system where the allocator keeps it (glibc's
/// `malloc_trim`), so that resident memory counts what is still allocated. Does nothing
/// elsewhere.
func releaseFreedMemory() {
  #if os(Linux)
    // malloc_trim is in glibc but not in the Glibc module; looked up by name.
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(nil, "malloc_trim") {
      _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
  #endif
}

/// Peak memory of one decode, measured in a fresh process so earlier work does not count.
struct PeakMemory {
  let implementation: String
  /// Peak resident memory of the whole child process.
  let processPeak: Int
  /// How far the peak rose while decoding (the payload was already loaded).
  let decodeIncrease: Int
}

/// Child side: decodes the P1 payload in `file` with one implementation and prints the peaks.
func measurePeakMemoryInThisProcess(implementation: String, file: String) throws {
  let payload = try Data(contentsOf: URL(fileURLWithPath: file))
  let before = peakResidentBytes()
  let decoder = JSONDecoder()
  let keyedJSON = KeyedJSONDecoder()
  let count: Int
  switch implementation {
  case "keyedcodable": count = try decoder.decode([P1Keyed].self, from: payload).count
  case "synthesized": count = try decoder.decode([P1Synthesized].self, from: payload).count
  case "keyedjson": count = try keyedJSON.decode([P1Keyed].self, from: payload).count
  case "synthesizedjson": count = try keyedJSON.decode([P1Synthesized].self, from: payload).count
  default: throw BenchmarkError(description: "unknown implementation \(implementation)")
  }
  let after = peakResidentBytes()
  print("PEAK \(before) \(after) \(count)")
}

/// Parent side: runs this executable once per implementation on the same payload file.
func measurePeakMemory(objects: Int) throws -> [PeakMemory] {
  let payload = try Coders.encoder().encode(P1Synthesized.generate(objects))
  let file = FileManager.default.temporaryDirectory
    .appendingPathComponent("keyed-bench-\(ProcessInfo.processInfo.processIdentifier).json")
  try payload.write(to: file)
  defer { try? FileManager.default.removeItem(at: file) }
  return try ["synthesized", "keyedcodable", "keyedjson", "synthesizedjson"].map { implementation in
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executablePath())
    process.arguments = ["--peak-memory-child", implementation, file.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
    guard fields.count == 4, fields[0] == "PEAK", let before = Int(fields[1]),
      let after = Int(fields[2])
    else {
      throw BenchmarkError(
        description: "peak memory child printed \(String(decoding: data, as: UTF8.self))")
    }
    return PeakMemory(
      implementation: implementation, processPeak: after, decodeIncrease: after - before)
  }
}

/// The path of this executable, to start it again as a child process.
func executablePath() -> String {
  #if os(Linux)
    return "/proc/self/exe"
  #else
    return Bundle.main.executablePath ?? CommandLine.arguments[0]
  #endif
}
