import Foundation
import KeyedCodable
import Testing

protocol Gadget {}

/// A polymorphic model that keeps what it doesn't map: the type member the registry reads and
/// writes is kept too, and written once.
struct Lamp: Gadget, Codable, Keyedable, Equatable {
  var watts = 0
  var extra: [String: JSONValue] = [:]
  mutating func map(map: KeyMap) throws {
    try watts <-> map["watts"]
    try extra <-> map.unmapped
  }
}

extension TypeRegistry where Base == any Gadget {
  static let gadgets = TypeRegistry(typeKey: "kind", ["lamp": Lamp.self])
}

struct Shelf: Codable, Keyedable {
  var gadgets: [any Gadget] = []
  mutating func map(map: KeyMap) throws {
    try gadgets <-> map["gadgets"].polymorphic(.gadgets)
  }
}

@Suite(.bothCoders) struct UnmappedMembersEdgeTests {
  @Test func aPolymorphicModelWritesItsTypeMemberOnce() throws {
    let json = #"{"gadgets":[{"kind":"lamp","watts":40,"color":"red"}]}"#
    let shelf = try decode(Shelf.self, from: json)
    let lamp = try #require(shelf.gadgets.first as? Lamp)
    #expect(lamp.extra == ["kind": "lamp", "color": "red"])
    try expectEncoded(shelf, json)
    var changed = lamp
    changed.extra["kind"] = "torch"
    expectError("invalidValue", at: ["gadgets", "Index 0", "kind"]) {
      try encodeJSON(Shelf(gadgets: [changed]))
    }
  }

  @Test func aFlatValueThatReadsTheObjectsMemberMakesTheNestedFormThrow() {
    struct Inner: Codable {
      var display: [String: Int]?
    }
    struct Model: Codable, Keyedable {
      var inner: Inner?
      var extra: [String: JSONValue] = [:]
      mutating func map(map: KeyMap) throws {
        try inner <-> map[""]
        try extra <-> map.unmapped(at: "display")
      }
    }
    expectError("dataCorrupted", at: []) {
      try decode(Model.self, from: #"{"display":{"a":1}}"#)
    }
  }

  @Test func anObjectInOneDirection() throws {
    struct Model: Codable, Keyedable, Equatable {
      var kept: JSONValue = [:]
      var written: JSONValue = ["added": true]
      mutating func map(map: KeyMap) throws {
        try kept <<- map.unmapped(at: "in")
        try written ->> map.unmapped(at: "out")
      }
    }
    let model = try decode(Model.self, from: #"{"in":{"b":1,"a":2},"out":{"x":1}}"#)
    #expect(model.kept == ["b": 1, "a": 2])
    #expect(model.written == ["added": true])
    try expectEncoded(model, #"{"out":{"added":true}}"#)
  }

  @Test func listingANestedObjectReadsAllItsMembers() throws {
    struct Sensors: Codable, Keyedable, Equatable {
      var readings: [String: Double] = [:]
      var sensorExtra: [String: JSONValue] = [:]
      var extra: [String: JSONValue] = [:]
      mutating func map(map: KeyMap) throws {
        if case .decoding(let keys) = map.type {
          for key in keys.all(for: "sensors") where key.stringValue != "unit" {
            var reading: Double?
            try reading <<- map[key]
            readings[key.stringValue] = reading
          }
        } else {
          try readings ->> map["sensors"]
        }
        try sensorExtra <-> map.unmapped(at: "sensors")
        try extra <-> map.unmapped
      }
    }
    let sensors = try decode(
      Sensors.self, from: #"{"sensors":{"hall":20.5,"unit":"C"},"site":"north"}"#)
    #expect(sensors.readings == ["hall": 20.5])
    #expect(sensors.sensorExtra == [:])
    #expect(sensors.extra == ["site": "north"])
  }

  @Test func aSubclassKeepsWhatNeitherClassMaps() throws {
    class Vehicle: Codable, Keyedable {
      var make = ""
      required init() {}
      required init(from decoder: Decoder) throws {
        try KeyedDecoder(with: decoder).decode(to: self)
      }
      func map(map: KeyMap) throws {
        try make <-> map["make"]
      }
    }
    final class Truck: Vehicle {
      var payload = 0.0
      var extra: [String: JSONValue] = [:]
      required init() { super.init() }
      required init(from decoder: Decoder) throws {
        try super.init(from: decoder)
      }
      override func map(map: KeyMap) throws {
        try super.map(map: map)
        try payload <-> map["specs.payload"]
        try extra <-> map.unmapped
      }
    }
    let json = #"{"make":"Volvo","specs":{"payload":2.5},"wheels":6}"#
    let truck = try decode(Truck.self, from: json)
    #expect(truck.extra == ["wheels": 6])
    try expectEncoded(truck, json)
  }
}

/// Key strategies: the names are those the strategy gives, both ways.
@Suite struct UnmappedMembersKeyStrategyTests {
  struct Account: Codable, Keyedable, Equatable {
    var userName = ""
    var extra: [String: JSONValue] = [:]
    mutating func map(map: KeyMap) throws {
      try userName <-> map["userName"]
      try extra <-> map.unmapped
    }
  }

  @Test func snakeCaseNamesComeBackAsTheyWere() throws {
    let json = Data(#"{"user_name":"ada","last_seen":3}"#.utf8)
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = .convertFromSnakeCase
    let keyed = KeyedJSONDecoder()
    keyed.keyDecodingStrategy = .convertFromSnakeCase
    for account in [
      try foundation.decode(Account.self, from: json), try keyed.decode(Account.self, from: json),
    ] {
      #expect(account.userName == "ada")
      #expect(account.extra == ["lastSeen": 3])
      let encoder = KeyedJSONEncoder()
      encoder.keyEncodingStrategy = .convertToSnakeCase
      encoder.outputFormatting = [.sortedKeys]
      #expect(
        String(decoding: try encoder.encode(account), as: UTF8.self)
          == #"{"last_seen":3,"user_name":"ada"}"#)
    }
  }
}
