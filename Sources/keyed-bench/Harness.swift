import Dispatch
import Foundation

/// One way of decoding or encoding a scenario's payload.
struct Implementation {
  /// `keyedcodable`, `synthesized` or `handwritten`.
  let name: String
  /// Decodes the scenario's payload; returns a checksum so the work cannot be optimized away.
  let decode: (() throws -> Int)?
  /// Encodes the implementation's decoded values; returns the byte count.
  let encode: (() throws -> Int)?
}

/// A benchmark scenario: one payload, several implementations.
struct Scenario {
  /// `P1` … `P6`, with a size suffix for the scale scenario (`P5-1000`).
  let id: String
  /// What the scenario measures.
  let title: String
  /// The JSON payload every implementation decodes.
  let payload: Data
  /// The number of objects in the payload, for per-object times.
  let objects: Int
  /// The implementations. Ratios are to `synthesized` where it implements the operation, and
  /// to the first implementation that does otherwise (P4 decoding: the hand-written lossy loop).
  let implementations: [Implementation]
  /// Checks that all implementations decode equal values and that what each encodes decodes
  /// back equal; throws a `BenchmarkError` otherwise.
  let validate: () throws -> Void
}

/// A failed validation: the implementations disagree, so timing them would mean nothing.
struct BenchmarkError: Error, CustomStringConvertible {
  let description: String
}

/// Throws unless `values` are all equal to the first.
func expectAllEqual<Value: Equatable>(_ values: [(String, Value)], _ what: String) throws {
  guard let (firstName, first) = values.first else { return }
  for (name, value) in values.dropFirst() where value != first {
    throw BenchmarkError(description: "\(what): \(name) differs from \(firstName)")
  }
}

/// The median of one measured operation.
struct Measurement {
  let scenario: Scenario
  let operation: String
  let implementation: String
  let medianNanoseconds: Double
  /// Bytes processed per run (payload for decoding, output for encoding).
  let bytes: Int
  /// The median of the scenario's reference implementation for the same operation.
  var referenceNanoseconds: Double

  var ratio: Double { medianNanoseconds / referenceNanoseconds }
  var megabytesPerSecond: Double { Double(bytes) / 1_048_576 / (medianNanoseconds / 1e9) }
  var nanosecondsPerObject: Double { medianNanoseconds / Double(scenario.objects) }
}

/// Times every implementation of a scenario in interleaved rounds and keeps the medians.
func run(_ scenario: Scenario, rounds: Int, warmup: Int) throws -> [Measurement] {
  try scenario.validate()
  var measurements: [Measurement] = []
  for operation in ["decode", "encode"] {
    let bodies = scenario.implementations.compactMap { implementation in
      (operation == "decode" ? implementation.decode : implementation.encode).map {
        (implementation.name, $0)
      }
    }
    guard !bodies.isEmpty else { continue }
    var samples = Array(repeating: [Double](), count: bodies.count)
    var bytes = Array(repeating: 0, count: bodies.count)
    for round in 0..<(warmup + rounds) {
      // Rotate the order every round so no implementation always runs right after another.
      for offset in 0..<bodies.count {
        let index = (offset + round) % bodies.count
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try bodies[index].1()
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        blackHole(result)
        if round >= warmup {
          samples[index].append(Double(elapsed))
        }
        bytes[index] = operation == "decode" ? scenario.payload.count : result
      }
    }
    let medians = samples.map(median)
    let reference = medians[bodies.firstIndex { $0.0 == "synthesized" } ?? 0]
    for (index, body) in bodies.enumerated() {
      measurements.append(
        Measurement(
          scenario: scenario, operation: operation, implementation: body.0,
          medianNanoseconds: medians[index], bytes: bytes[index], referenceNanoseconds: reference))
    }
  }
  return measurements
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Keeps a result alive so the optimizer cannot drop the work that produced it.
@inline(never)
func blackHole(_ value: Int) {
  if value == Int.min { print("") }
}
