import Foundation
import KeyedCodable

// revisit: P2's document, mapped by a Keyedable model whose key paths come back to an object
// after leaving it (meta, user, stats, meta again, ...), as models grouped by meaning rather than
// by place are written. The JSON coder's writer holds such a model's values until its map(map:)
// returns and writes them grouped by object.

struct RevisitKeyed: Codable, Keyedable {
  var id = 0
  var created = ""
  var name = ""
  var age = 0
  var email = ""
  var city = ""
  var lat = 0.0
  var lng = 0.0
  var views = 0
  var likes = 0

  mutating func map(map: KeyMap) throws {
    try id <-> map["meta.id"]
    try name <-> map["user.name"]
    try views <-> map["stats.counts.views"]
    try created <-> map["meta.created"]
    try age <-> map["user.profile.age"]
    try likes <-> map["stats.counts.likes"]
    try city <-> map["user.address.city"]
    try email <-> map["user.profile.email"]
    try lat <-> map["user.address.geo.lat"]
    try lng <-> map["user.address.geo.lng"]
  }

  var values: P2Values {
    P2Values(
      id: id, created: created, name: name, age: age, email: email, city: city, lat: lat, lng: lng,
      views: views, likes: likes)
  }
}

/// The `revisit` scenario: P2's document with the interleaved model, against the synthesized
/// model of P2.
///
/// - Parameter objects: The number of objects.
/// - Returns: The scenario.
/// - Throws: `BenchmarkError` when the implementations disagree.
func revisitScenario(objects: Int) throws -> Scenario {
  let payload = try Coders.encoder().encode(P2Synthesized.generate(objects))
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let synthesized = try decoder.decode([P2Synthesized].self, from: payload)
  let keyed = try decoder.decode([RevisitKeyed].self, from: payload)
  return Scenario(
    id: "revisit", title: "interleaved key paths: \(objects) objects, 10 values at depth 2-4",
    payload: payload, objects: objects,
    implementations: [
      Implementation(
        name: "synthesized",
        decode: { try decoder.decode([P2Synthesized].self, from: payload).count },
        encode: { try encoder.encode(synthesized).count }),
      Implementation(
        name: "keyedcodable",
        decode: { try decoder.decode([RevisitKeyed].self, from: payload).count },
        encode: { try encoder.encode(keyed).count }),
      Implementation(
        name: "keyedjson",
        decode: { try jsonDecoder.decode([RevisitKeyed].self, from: payload).count },
        encode: { try jsonEncoder.encode(keyed).count }),
      Implementation(
        name: "synthesizedjson",
        decode: { try jsonDecoder.decode([P2Synthesized].self, from: payload).count },
        encode: { try jsonEncoder.encode(synthesized).count }),
    ],
    validate: {
      let reference = synthesized.map(\.values)
      try expectAllEqual(
        [
          ("synthesized", reference), ("keyedcodable", keyed.map(\.values)),
          ("keyedjson", try jsonDecoder.decode([RevisitKeyed].self, from: payload).map(\.values)),
          (
            "keyedjson round trip",
            try jsonDecoder.decode([RevisitKeyed].self, from: jsonEncoder.encode(keyed)).map(
              \.values)
          ),
          (
            "keyedjson read as the synthesized model",
            try decoder.decode([P2Synthesized].self, from: jsonEncoder.encode(keyed)).map(
              \.values)
          ),
          (
            "keyedcodable round trip",
            try decoder.decode([RevisitKeyed].self, from: encoder.encode(keyed)).map(\.values)
          ),
        ], "revisit")
    })
}
