import Foundation
import KeyedCodableMapping
import Testing

// The `KeyedCodableMapping` product: the mapping layer built without the JSON coder, for apps
// that use only Foundation's coders (or others). Every mapping feature works on those coders;
// these tests run a few of each kind on `JSONDecoder`/`JSONEncoder` and property lists, as the
// main suite does for the `KeyedCodable` module.

/// A model with nested key paths, a lossy array, an optional and a transform, and no
/// initializer.
struct MappingOnlyPlace: Codable, Keyedable, Equatable {
  var name = ""
  var latitude = 0.0
  var elevation: Int?
  var tags: [String] = []
  var opened = Date(timeIntervalSince1970: 0)

  mutating func map(map: KeyMap) throws {
    try name <-> map["name"]
    try latitude <-> map["location.latitude"]
    try elevation <-> map["location.info.elevation"]
    try tags <-> map["* tags"]
    try opened <-> map["opened"].using(.iso8601)
  }
}

/// A model that keeps a free-form part as a ``JSONValue``.
struct MappingOnlySettings: Codable, Keyedable, Equatable {
  var theme = ""
  var extra: JSONValue = nil

  mutating func map(map: KeyMap) throws {
    try theme <-> map["display.theme"]
    try extra <-> map["extra"]
  }
}

/// Sorts the keys of a JSON document, so that two documents compare by content.
private func canonical(_ data: Data) throws -> String {
  let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
  let sorted = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
  return String(decoding: sorted, as: UTF8.self)
}

@Test func mappingOnlyDecodesAndEncodesKeyPathsOnFoundationsCoders() throws {
  let json = #"""
    {"name":"Hut","location":{"latitude":46.5,"info":{"elevation":2850}},
     "tags":["alpine",7,"stone"],"opened":"2020-06-01T08:00:00Z"}
    """#
  let place = try JSONDecoder().decode(MappingOnlyPlace.self, from: Data(json.utf8))
  #expect(
    place
      == MappingOnlyPlace(
        name: "Hut", latitude: 46.5, elevation: 2850, tags: ["alpine", "stone"],
        opened: Date(timeIntervalSince1970: 1_590_998_400)))

  let encoded = try JSONEncoder().encode(place)
  #expect(
    try canonical(encoded)
      == #"{"location":{"info":{"elevation":2850},"latitude":46.5},"name":"Hut","#
      + #""opened":"2020-06-01T08:00:00Z","tags":["alpine","stone"]}"#)
}

@Test func mappingOnlyRoundTripsThroughPropertyLists() throws {
  let place = MappingOnlyPlace(
    name: "Hut", latitude: 46.5, elevation: nil, tags: ["a"],
    opened: Date(timeIntervalSince1970: 86_400))
  let data = try PropertyListEncoder().encode(place)
  #expect(try PropertyListDecoder().decode(MappingOnlyPlace.self, from: data) == place)
}

@Test func mappingOnlyReportsAMissingNestedKeyWithItsFullPath() throws {
  let json = #"{"name":"Hut","location":{},"tags":[],"opened":"2020-06-01T08:00:00Z"}"#
  #expect {
    _ = try JSONDecoder().decode(MappingOnlyPlace.self, from: Data(json.utf8))
  } throws: { error in
    guard case DecodingError.keyNotFound(let key, let context) = error else { return false }
    return key.stringValue == "latitude"
      && context.codingPath.map(\.stringValue) == ["location"]
  }
}

@Test func mappingOnlyReportsWhatALossyArrayDropped() throws {
  let json =
    #"{"name":"Hut","location":{"latitude":1},"tags":["a",2],"opened":"2020-06-01T08:00:00Z"}"#
  let (place, report) = try JSONDecoder().decodeWithReport(
    MappingOnlyPlace.self, from: Data(json.utf8))
  #expect(place.tags == ["a"])
  #expect(report.entries.map(\.pathDescription) == ["tags[1]"])
}

@Test func mappingOnlyJSONValuesRoundTripAndPrintCompactly() throws {
  let json = #"{"display":{"theme":"dark"},"extra":{"b":[1,2.5,null,true],"a":"x/y"}}"#
  let settings = try JSONDecoder().decode(MappingOnlySettings.self, from: Data(json.utf8))
  #expect(settings.theme == "dark")
  #expect(settings.extra == ["a": "x/y", "b": [1, 2.5, nil, true]])
  // Decoded through containers, the members come in the order of their names.
  #expect(settings.extra.description == #"{"a":"x/y","b":[1,2.5,null,true]}"#)
  #expect(
    try canonical(try JSONEncoder().encode(settings))
      == #"{"display":{"theme":"dark"},"extra":{"a":"x\/y","b":[1,2.5,null,true]}}"#)
}

@Test func mappingOnlyJSONValueDescriptionEscapesAndNests() {
  let quoted: JSONValue = ["q\"\n": ["\u{1}", [:], []]]
  #expect(quoted.description == #"{"q\"\n":["\u0001",{},[]]}"#)

  var deep: JSONValue = []
  for _ in 0..<1_000 {
    deep = [deep]
  }
  let text = deep.description
  #expect(text.utf8.count == 2 * 1_001)
  #expect(text.hasPrefix("[[[") && text.hasSuffix("]]]"))
}

/// A model that keeps the members it doesn't map.
struct MappingOnlyServerObject: Codable, Keyedable, Equatable {
  var name = ""
  var extra: [String: JSONValue] = [:]

  mutating func map(map: KeyMap) throws {
    try name <-> map["profile.name"]
    try extra <-> map.unmapped
  }
}

@Test func mappingOnlyKeepsUnmappedMembersThroughARoundTrip() throws {
  let json = #"{"profile":{"name":"Ada"},"revision":41,"sync":{"enabled":true,"peers":["a"]}}"#
  var object = try JSONDecoder().decode(MappingOnlyServerObject.self, from: Data(json.utf8))
  #expect(object.name == "Ada")
  #expect(object.extra == ["revision": 41, "sync": ["enabled": true, "peers": ["a"]]])

  object.name = "Grace"
  #expect(
    try canonical(try JSONEncoder().encode(object))
      == #"{"profile":{"name":"Grace"},"revision":41,"sync":{"enabled":true,"peers":["a"]}}"#)
}
