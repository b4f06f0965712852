import Foundation
import KeyedCodable

// Document scenarios: the standard JSON documents of nativejson-benchmark (twitter.json,
// citm_catalog.json, canada.json), decoded and encoded whole, each with a synthesized model
// that mirrors the document and a Keyedable model of the same data.

/// A model of a whole corpus document.
protocol DocumentModel: Codable {
  /// The form both models of a document convert to, so that they can be compared.
  associatedtype Values: Equatable
  /// The number of objects the scenario reports time per object for.
  var objectCount: Int { get }
  /// The decoded data in the form both models of the document share.
  var values: Values { get }
}

/// Decodes a document without building any value: the decoder still parses and validates the
/// whole document, so decoding it measures the parser alone.
struct JSONSkip: Decodable {
  init(from decoder: Decoder) throws {}
}

/// A value stored out of line, so that a struct can hold a value of its own type (a retweet
/// holds the status it retweets). It codes as the value itself, with no container around it.
final class Indirect<Value: Codable>: Codable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }

  init(from decoder: Decoder) throws {
    value = try Value(from: decoder)
  }

  func encode(to encoder: Encoder) throws {
    try value.encode(to: encoder)
  }
}

extension Indirect: Equatable where Value: Equatable {
  static func == (left: Indirect, right: Indirect) -> Bool {
    left.value == right.value
  }
}

/// Reads a document of the corpus in `Tests/Data/corpus/` of the package.
///
/// The package root is found from this source file's path and from the current directory.
///
/// - Parameter name: The document's file name, such as `twitter.json`.
/// - Returns: The document's bytes.
/// - Throws: `BenchmarkError` when no candidate directory holds the document.
func loadCorpusDocument(_ name: String) throws -> Data {
  // #filePath is <root>/Sources/keyed-bench/Scenarios/Documents.swift.
  let fromSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let fromCurrentDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
  let candidates = [fromSource, fromCurrentDirectory].map {
    $0.appendingPathComponent("Tests/Data/corpus").appendingPathComponent(name)
      .standardizedFileURL
  }
  for candidate in candidates where FileManager.default.fileExists(atPath: candidate.path) {
    return try Data(contentsOf: candidate)
  }
  throw BenchmarkError(
    description: "corpus document \(name) not found; looked for "
      + candidates.map(\.path).joined(separator: " and "))
}

/// A scenario that decodes and encodes one corpus document whole.
///
/// Implementations: `synthesized` and `keyedcodable` on Foundation's coders, `keyedjson` and
/// `synthesizedjson` on KeyedJSON coders, and `parsejson`, which only validates the document
/// with `KeyedJSONDecoder` (decoding only). Validation checks that the four models decode equal
/// values and that what each encodes decodes back equal, with the same family of coders, with
/// Foundation's `JSONDecoder`, and as the other model.
///
/// - Parameters:
///   - id: The scenario id (`twitter`, `citm`, `canada`).
///   - title: What the document holds, for the report.
///   - file: The document's file name in the corpus.
///   - synthesized: The synthesized model of the document.
///   - keyed: The Keyedable model of the document.
/// - Returns: The scenario, with the document as its payload.
/// - Throws: `BenchmarkError` when the document is missing, and decoding errors.
func documentScenario<Synthesized: DocumentModel, Keyed: DocumentModel>(
  id: String, title: String, file: String, synthesized: Synthesized.Type, keyed: Keyed.Type
) throws -> Scenario where Synthesized.Values == Keyed.Values {
  let payload = try loadCorpusDocument(file)
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let synthesizedValue = try decoder.decode(Synthesized.self, from: payload)
  let keyedValue = try decoder.decode(Keyed.self, from: payload)
  return Scenario(
    id: id, title: title, payload: payload, objects: synthesizedValue.objectCount,
    implementations: [
      Implementation(
        name: "synthesized",
        decode: { try decoder.decode(Synthesized.self, from: payload).objectCount },
        encode: { try encoder.encode(synthesizedValue).count }),
      Implementation(
        name: "keyedcodable",
        decode: { try decoder.decode(Keyed.self, from: payload).objectCount },
        encode: { try encoder.encode(keyedValue).count }),
      Implementation(
        name: "keyedjson",
        decode: { try jsonDecoder.decode(Keyed.self, from: payload).objectCount },
        encode: { try jsonEncoder.encode(keyedValue).count }),
      Implementation(
        name: "synthesizedjson",
        decode: { try jsonDecoder.decode(Synthesized.self, from: payload).objectCount },
        encode: { try jsonEncoder.encode(synthesizedValue).count }),
      Implementation(
        name: "parsejson",
        decode: {
          _ = try jsonDecoder.decode(JSONSkip.self, from: payload)
          return payload.count
        },
        encode: nil),
    ],
    validate: {
      let reference = synthesizedValue.values
      try expectAllEqual(
        [
          ("synthesized", reference), ("keyedcodable", keyedValue.values),
          ("keyedjson", try jsonDecoder.decode(Keyed.self, from: payload).values),
          ("synthesizedjson", try jsonDecoder.decode(Synthesized.self, from: payload).values),
        ], "\(id) decode")
      let synthesizedData = try encoder.encode(synthesizedValue)
      let keyedData = try encoder.encode(keyedValue)
      let keyedJSONData = try jsonEncoder.encode(keyedValue)
      let synthesizedJSONData = try jsonEncoder.encode(synthesizedValue)
      try expectAllEqual(
        [
          ("synthesized", reference),
          (
            "synthesized round trip",
            try decoder.decode(Synthesized.self, from: synthesizedData).values
          ),
          ("keyedcodable round trip", try decoder.decode(Keyed.self, from: keyedData).values),
          (
            "keyedjson round trip", try jsonDecoder.decode(Keyed.self, from: keyedJSONData).values
          ),
          (
            "keyedjson read by JSONDecoder",
            try decoder.decode(Keyed.self, from: keyedJSONData).values
          ),
          (
            "synthesizedjson round trip",
            try jsonDecoder.decode(Synthesized.self, from: synthesizedJSONData).values
          ),
          (
            "synthesizedjson read by JSONDecoder",
            try decoder.decode(Synthesized.self, from: synthesizedJSONData).values
          ),
          // The two models must write the same document, not only one each can read back.
          (
            "keyedcodable read as synthesized",
            try decoder.decode(Synthesized.self, from: keyedData).values
          ),
          (
            "synthesized read as keyed",
            try decoder.decode(Keyed.self, from: synthesizedData).values
          ),
        ], "\(id) encode round trip")
    })
}
