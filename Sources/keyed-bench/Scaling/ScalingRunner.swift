import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The parent side of `keyed-bench --scaling`: checks each case at a small size, then runs every
// measurement in a child process (ScalingChild.swift) and prints the table or TSV lines.

/// The options of `--scaling`.
struct ScalingOptions {
  /// The smaller size; the larger is ten times it.
  var n = 10_000
  /// The time limit of one operation, in seconds.
  var limit = 60
  /// The cases to run, by name; all when `nil`.
  var only: Set<String>?
  /// One tab-separated line per measurement instead of the table.
  var tsv = false
  /// Only check the cases at a small size, in this process; time nothing.
  var checkOnly = false

  /// Reads the options from the command line.
  ///
  /// - Throws: A `BenchmarkError` for a size or time limit that is not a positive integer.
  init(_ arguments: [String]) throws {
    func value(of option: String) throws -> Int? {
      guard let index = arguments.firstIndex(of: option) else { return nil }
      guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
        throw BenchmarkError(description: "\(option) takes a positive integer")
      }
      return value
    }
    if arguments.contains("--quick") { n = 1000 }
    n = try value(of: "--scaling-n") ?? n
    limit = try value(of: "--scaling-timeout") ?? limit
    tsv = arguments.contains("--tsv")
    checkOnly = arguments.contains("--check-only")
    if let index = arguments.firstIndex(of: "--only"), index + 1 < arguments.count {
      only = Set(arguments[index + 1].split(separator: ",").map(String.init))
    }
  }
}

/// How one measurement ended.
enum ScalingOutcome {
  case measured(seconds: Double)
  /// The operation ran past the time limit and was stopped.
  case timedOut
  /// The case threw, returned a wrong result or crashed.
  case failed(String)

  var seconds: Double? {
    if case .measured(let seconds) = self { return seconds }
    return nil
  }
}

/// One measurement of one case, implementation and size.
struct ScalingSample {
  var outcome: ScalingOutcome
  /// Peak resident memory during the operation, in bytes; after a timeout, until it was stopped.
  var peak: Int?
  /// Resident memory kept after the follow-up decodes, in bytes, for cases that measure it.
  var retained: Int?
  /// The follow-up decodes of the retained-memory measurement ran past the time limit.
  var followUpsTimedOut = false
}

/// Runs `keyed-bench --scaling`; returns the exit status.
func runScaling(_ options: ScalingOptions) -> Int32 {
  var cases = makeScalingCases()
  if let only = options.only {
    let names = Set(cases.map(\.name))
    let unknown = only.subtracting(names)
    guard unknown.isEmpty else {
      printError(
        "unknown scaling case \(unknown.sorted().joined(separator: ", ")); the cases are "
          + cases.map(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
          .joined(separator: ", "))
      return 2
    }
    cases = cases.filter { only.contains($0.name) }
  }

  // The check runs at a size where every case has the shape it is about (objects of eight
  // members or more are indexed) and takes well under a second on any coder.
  let checkSize = min(options.n, 200)
  var failedChecks = 0
  var checked: [ScalingCase] = []
  for scalingCase in cases {
    do {
      try checkScalingCase(scalingCase, n: checkSize)
      checked.append(scalingCase)
    } catch {
      failedChecks += 1
      printError(
        "\(scalingCase.name) \(scalingCase.operation): check at n=\(checkSize) failed: "
          + oneLine(String(describing: error)))
    }
  }
  if options.checkOnly {
    if !options.tsv {
      emit("scaling: \(checked.count) of \(cases.count) cases checked at n=\(checkSize)")
    }
    return failedChecks == 0 ? 0 : 1
  }

  if !options.tsv {
    let retained = checked.contains(where: \.measuresRetained)
    emit(
      """
      scaling  n=\(options.n) and 10n  time limit \(options.limit) s
        time: seconds of the decode or encode alone, each in a child process, the best of 3 when
        under 0.5 s; growth: time(10n) / time(n); peak: resident MB during the operation, the
        input included; ratio: keyedjson / foundation at 10n
      """
        + (retained
          ? "\n  retained: resident MB kept after the value is dropped and 5 more documents are decoded"
          : ""))
    emit(tableHeader(measuresRetained: retained))
  }
  for scalingCase in checked {
    let sizes = [options.n, options.n * 10].map { $0 * scalingCase.sizeFactor }
    var samples: [ScalingImplementation: [ScalingSample]] = [:]
    for implementation in ScalingImplementation.allCases {
      samples[implementation] = sizes.map { size in
        measure(scalingCase, implementation, size: size, limit: options.limit)
      }
    }
    if options.tsv {
      for implementation in ScalingImplementation.allCases {
        for (size, sample) in zip(sizes, samples[implementation] ?? []) {
          emit(tsvLine(scalingCase, implementation, size, sample, limit: options.limit))
          if case .failed(let message) = sample.outcome {
            printError(
              "\(scalingCase.name) \(scalingCase.operation) \(implementation) at \(size): \(message)"
            )
          }
        }
      }
    } else {
      emit(tableLines(scalingCase, sizes, samples, limit: options.limit))
    }
  }
  return failedChecks == 0 ? 0 : 1
}

// MARK: - Children

/// Measures one case, implementation and size: once, and twice more when the operation took
/// under half a second, keeping the fastest.
private func measure(
  _ scalingCase: ScalingCase, _ implementation: ScalingImplementation, size: Int, limit: Int
) -> ScalingSample {
  let first = runChild(scalingCase, implementation, size: size, limit: limit)
  guard let seconds = first.outcome.seconds, seconds < 0.5 else { return first }
  var best = first
  for _ in 0..<2 {
    let next = runChild(scalingCase, implementation, size: size, limit: limit)
    guard let nextSeconds = next.outcome.seconds else { return next }
    if nextSeconds < best.outcome.seconds ?? .infinity { best = next }
  }
  return best
}

/// Runs one measurement in a child process and reads what it printed.
private func runChild(
  _ scalingCase: ScalingCase, _ implementation: ScalingImplementation, size: Int, limit: Int
) -> ScalingSample {
  let directory = FileManager.default.temporaryDirectory
  let stem = "keyed-bench-scaling-\(ProcessInfo.processInfo.processIdentifier)"
  let outputURL = directory.appendingPathComponent(stem + ".out")
  let errorsURL = directory.appendingPathComponent(stem + ".err")
  defer {
    try? FileManager.default.removeItem(at: outputURL)
    try? FileManager.default.removeItem(at: errorsURL)
  }
  let process = Process()
  let finished = DispatchSemaphore(value: 0)
  var stoppedByParent = false
  do {
    // Files rather than pipes: a child that writes a lot to standard error can't block on them.
    guard FileManager.default.createFile(atPath: outputURL.path, contents: nil),
      FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
    else {
      return ScalingSample(outcome: .failed("cannot create files in \(directory.path)"))
    }
    let output = try FileHandle(forWritingTo: outputURL)
    let errors = try FileHandle(forWritingTo: errorsURL)
    defer {
      try? output.close()
      try? errors.close()
    }
    process.executableURL = URL(fileURLWithPath: executablePath())
    process.arguments = [
      "--scaling-child", scalingCase.name, scalingCase.operation, implementation.rawValue,
      String(size), String(limit),
    ]
    var environment = ProcessInfo.processInfo.environment
    // A crash is reported from its signal; the runtime's backtrace would only take time.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    process.standardOutput = output
    process.standardError = errors
    process.terminationHandler = { _ in finished.signal() }
    try process.run()
    // The child stops itself at the time limit of each operation (SIGALRM); this is only a
    // safety net for the rest (generating the input, the follow-up decodes).
    let followUps = scalingCase.measuresRetained ? 5 : 0
    let deadline = DispatchTime.now() + .seconds(limit * (2 + followUps) + 120)
    if finished.wait(timeout: deadline) == .timedOut {
      kill(process.processIdentifier, SIGKILL)
      stoppedByParent = true
      finished.wait()
    }
  } catch {
    return ScalingSample(outcome: .failed("cannot run the child: \(error)"))
  }

  let printed = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
  var fields: [String: String] = [:]
  for line in printed.split(separator: "\n") {
    let parts = line.split(separator: " ", maxSplits: 1)
    if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
  }
  var sample = ScalingSample(outcome: .timedOut)
  sample.retained = fields["RETAINED"].flatMap { Int($0) }
  let seconds = fields["TIME"].flatMap { Double($0) }
  let signaled = process.terminationReason == .uncaughtSignal
  let timedOut =
    stoppedByParent || (signaled && process.terminationStatus == SIGALRM)
    || (!signaled && process.terminationStatus == scalingTimeoutStatus)
  // After a timeout of the operation itself, the peak is the peak until it was stopped.
  sample.peak = (fields["PEAK"] ?? (seconds == nil ? fields["TIMEOUT"] : nil)).flatMap { Int($0) }

  if let message = fields["ERROR"] {
    sample.outcome = .failed(message)
  } else if timedOut {
    if let seconds {
      sample.outcome = .measured(seconds: seconds)
      sample.followUpsTimedOut = true
    }
  } else if signaled || process.terminationStatus != 0 {
    let errors = (try? String(contentsOf: errorsURL, encoding: .utf8)) ?? ""
    let last = errors.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
    let how =
      signaled
      ? "crashed with signal \(process.terminationStatus)"
      : "exited with status \(process.terminationStatus)"
    sample.outcome = .failed(how + (last.isEmpty ? "" : ": " + oneLine(last)))
  } else if let seconds {
    sample.outcome = .measured(seconds: seconds)
  } else {
    sample.outcome = .failed("the child printed no time")
  }
  return sample
}

// MARK: - Output

/// Writes `text` and a newline to standard output at once, so progress shows through a pipe.
private func emit(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

private func printError(_ text: String) {
  FileHandle.standardError.write(Data(("keyed-bench: " + text + "\n").utf8))
}

/// Seconds to three significant digits (two under 1 ms), or how the measurement ended.
private func timeText(_ sample: ScalingSample, limit: Int) -> String {
  switch sample.outcome {
  case .measured(let seconds):
    let decimals =
      seconds >= 100
      ? 0 : seconds >= 10 ? 1 : seconds >= 1 ? 2 : seconds >= 0.1 ? 3 : seconds >= 0.01 ? 4 : 5
    return String(format: "%.\(decimals)f s", seconds)
  case .timedOut: return "> \(limit) s"
  case .failed: return "failed"
  }
}

private func megabytes(_ bytes: Int?) -> String {
  bytes.map { String(format: "%.1f", Double($0) / 1_048_576) } ?? "?"
}

/// The peak in MB, marked `>` when the operation was stopped before its end.
private func peakText(_ sample: ScalingSample) -> String {
  if case .timedOut = sample.outcome, sample.peak != nil { return ">" + megabytes(sample.peak) }
  return megabytes(sample.peak)
}

/// time(10n) / time(n), a lower bound when 10n ran past the limit.
private func growthText(_ small: ScalingSample, _ large: ScalingSample, limit: Int) -> String {
  guard let base = small.outcome.seconds else { return "-" }
  switch large.outcome {
  case .measured(let seconds): return String(format: "×%.1f", seconds / base)
  case .timedOut: return String(format: "×>%.0f", Double(limit) / base)
  case .failed: return "-"
  }
}

/// keyedjson / foundation at 10n, a bound when one of them ran past the limit.
private func ratioText(_ keyed: ScalingSample?, _ foundation: ScalingSample?, limit: Int)
  -> String
{
  switch (keyed?.outcome, foundation?.outcome) {
  case (.measured(let keyedSeconds)?, .measured(let foundationSeconds)?):
    return String(format: "%.2f", keyedSeconds / foundationSeconds)
  case (.timedOut?, .measured(let foundationSeconds)?):
    return String(format: "> %.0f", Double(limit) / foundationSeconds)
  case (.measured(let keyedSeconds)?, .timedOut?):
    return String(format: "< %.3f", keyedSeconds / Double(limit))
  default:
    return "-"
  }
}

private func padded(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

private func rightAligned(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

/// The widths of the table's columns: case, operation, n, coder, time at n, time at 10n,
/// growth, peak at n and 10n, ratio.
private let columnWidths = [26, 7, 8, 11, 10, 10, 8, 18, 10]

/// One row of the table.
private func tableRow(_ cells: [String]) -> String {
  var row = "  "
  for (index, cell) in cells.enumerated() {
    let width = index < columnWidths.count ? columnWidths[index] : 0
    // Text columns are left-aligned, figures right-aligned.
    row += index < 4 ? padded(cell, width) : rightAligned(cell, width) + " "
  }
  return row.trimmingTrailingSpaces()
}

/// The header of the table.
private func tableHeader(measuresRetained: Bool) -> String {
  tableRow(
    [
      "case", "op", "n", "coder", "time n", "time 10n", "growth", "peak MB n / 10n", "ratio@10n",
    ] + (measuresRetained ? ["  retained MB n / 10n"] : []))
}

/// The table rows of one case, one per implementation (the ratio on the first), then a line for
/// each failure.
private func tableLines(
  _ scalingCase: ScalingCase, _ sizes: [Int],
  _ samples: [ScalingImplementation: [ScalingSample]], limit: Int
) -> String {
  var rows: [String] = []
  var notes: [String] = []
  for implementation in ScalingImplementation.allCases {
    let pair = samples[implementation] ?? []
    guard pair.count == 2 else { continue }
    let first = rows.isEmpty
    var cells = [
      first ? scalingCase.name : "", first ? scalingCase.operation : "",
      first ? String(sizes[0]) : "", implementation.rawValue,
      timeText(pair[0], limit: limit), timeText(pair[1], limit: limit),
      growthText(pair[0], pair[1], limit: limit),
      "\(peakText(pair[0])) / \(rightAligned(peakText(pair[1]), 6))",
      first
        ? ratioText(samples[.keyedjson]?.last, samples[.foundation]?.last, limit: limit) : "",
    ]
    if scalingCase.measuresRetained {
      let large = pair[1].followUpsTimedOut ? "> \(limit) s" : megabytes(pair[1].retained)
      cells.append("  \(megabytes(pair[0].retained)) / \(large)")
    }
    rows.append(tableRow(cells))
    for (size, sample) in zip(sizes, pair) {
      if case .failed(let message) = sample.outcome {
        notes.append("      \(implementation.rawValue) at \(size): \(message)")
      }
    }
  }
  return (rows + notes).joined(separator: "\n")
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}

/// `case  operation  implementation  n  seconds  peak_bytes  retained_bytes`: seconds is `>limit`
/// after a timeout and `failed` after an error; empty fields are unknown.
private func tsvLine(
  _ scalingCase: ScalingCase, _ implementation: ScalingImplementation, _ size: Int,
  _ sample: ScalingSample, limit: Int
) -> String {
  let seconds: String
  switch sample.outcome {
  case .measured(let value): seconds = String(format: "%.6f", value)
  case .timedOut: seconds = ">\(limit)"
  case .failed: seconds = "failed"
  }
  let retained = sample.followUpsTimedOut ? ">\(limit)" : sample.retained.map(String.init) ?? ""
  return [
    scalingCase.name, scalingCase.operation, implementation.rawValue, String(size), seconds,
    sample.peak.map(String.init) ?? "", retained,
  ].joined(separator: "\t")
}
