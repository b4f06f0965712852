import Foundation
import KeyedCodable

// anyjson: the JSON value enum users write themselves when a part of a document has no fixed
// shape, decoded with the usual chain of `try?` over twitter, citm and canada. Every value but
// `null` costs one or more failed decodes first (a string tries Bool and Double; an object tries
// four types), so the scenario measures what a thrown typeMismatch costs as much as what a
// successful read does. The enum is `UserJSONValue` (see JSONValues.swift).

/// Decodes and encodes one corpus document as a `UserJSONValue`.
///
/// Implementations: `synthesized` (the enum on Foundation's coders, the reference) and
/// `synthesizedjson` (the same enum on the KeyedJSON coders). Validation checks that both
/// decode equal values and that what each encodes decodes back equal.
///
/// - Parameters:
///   - document: The scenario id's suffix (`twitter`, `citm`, `canada`).
///   - file: The document's file name in the corpus.
/// - Returns: The scenario `anyjson-<document>`.
/// - Throws: `BenchmarkError` when the document is missing or the coders disagree.
func anyJSONScenario(document: String, file: String) throws -> Scenario {
  let payload = try loadCorpusDocument(file)
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let value = try decoder.decode(UserJSONValue.self, from: payload)
  return Scenario(
    id: "anyjson-\(document)", title: "\(file) as a user-written JSON value enum (try? chain)",
    payload: payload, objects: value.count,
    implementations: [
      Implementation(
        name: "synthesized",
        decode: { try decoder.decode(UserJSONValue.self, from: payload).count },
        encode: { try encoder.encode(value).count }),
      Implementation(
        name: "synthesizedjson",
        decode: { try jsonDecoder.decode(UserJSONValue.self, from: payload).count },
        encode: { try jsonEncoder.encode(value).count }),
    ],
    validate: {
      try expectAllEqual(
        [
          ("synthesized", value),
          ("synthesizedjson", try jsonDecoder.decode(UserJSONValue.self, from: payload)),
          (
            "synthesizedjson round trip",
            try jsonDecoder.decode(UserJSONValue.self, from: jsonEncoder.encode(value))
          ),
          (
            "synthesizedjson read by JSONDecoder",
            try decoder.decode(UserJSONValue.self, from: jsonEncoder.encode(value))
          ),
        ], "anyjson-\(document)")
    })
}
