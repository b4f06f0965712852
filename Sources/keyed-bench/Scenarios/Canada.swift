import Foundation
import KeyedCodable

// canada: canada.json, a GeoJSON feature collection with one polygon of 480 rings and 55,563
// points; almost all numbers, with up to 17 significant digits.

/// What both canada models decode, with every coordinate as its bit pattern, so that doubles
/// compare exactly (`==` on `Double` would let `-0.0` equal `0.0`).
struct CanadaValues: Equatable {
  struct Feature: Equatable {
    var type: String
    var name: String
    var geometryType: String
    var coordinateBits: [[[UInt64]]]
  }

  var type: String
  var features: [Feature]

  /// The bit patterns of polygon coordinates: rings of points of numbers.
  static func bits(_ coordinates: [[[Double]]]) -> [[[UInt64]]] {
    coordinates.map { ring in ring.map { point in point.map(\.bitPattern) } }
  }
}

/// The synthesized model: GeoJSON's objects, nested as in the document.
struct CanadaSynthesized: DocumentModel {
  struct Properties: Codable {
    var name: String
  }

  struct Geometry: Codable {
    var type: String
    var coordinates: [[[Double]]]
  }

  struct Feature: Codable {
    var type: String
    var properties: Properties
    var geometry: Geometry
  }

  var type: String
  var features: [Feature]

  /// The number of points of all polygons.
  var objectCount: Int {
    features.reduce(0) { $0 + $1.geometry.coordinates.reduce(0) { $0 + $1.count } }
  }

  var values: CanadaValues {
    CanadaValues(
      type: type,
      features: features.map {
        CanadaValues.Feature(
          type: $0.type, name: $0.properties.name, geometryType: $0.geometry.type,
          coordinateBits: CanadaValues.bits($0.geometry.coordinates))
      })
  }
}

/// The Keyedable model: key paths lift a feature's name and geometry into the feature.
struct CanadaKeyed: DocumentModel, Keyedable {
  struct Feature: Codable, Keyedable {
    var type = ""
    var name = ""
    var geometryType = ""
    var coordinates: [[[Double]]] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try type <-> map["type"]
      try name <-> map["properties.name"]
      try geometryType <-> map["geometry.type"]
      try coordinates <-> map["geometry.coordinates"]
    }
  }

  var type = ""
  var features: [Feature] = []

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try type <-> map["type"]
    try features <-> map["features"]
  }

  /// The number of points of all polygons.
  var objectCount: Int {
    features.reduce(0) { $0 + $1.coordinates.reduce(0) { $0 + $1.count } }
  }

  var values: CanadaValues {
    CanadaValues(
      type: type,
      features: features.map {
        CanadaValues.Feature(
          type: $0.type, name: $0.name, geometryType: $0.geometryType,
          coordinateBits: CanadaValues.bits($0.coordinates))
      })
  }
}

/// The canada scenario: canada.json; time per object is per point (the document has one
/// feature).
func canadaScenario() throws -> Scenario {
  try documentScenario(
    id: "canada", title: "canada.json: 1 polygon, 480 rings, 55,563 points",
    file: "canada.json", synthesized: CanadaSynthesized.self, keyed: CanadaKeyed.self)
}
