import Foundation
import KeyedCodable
import Testing

/// Classes decode with `decode(to: self)` and subclasses extend the mapping with `super.map`.
@Suite(.bothCoders) struct ClassTests {
  class Animal: Codable, Keyedable {
    var name: String!
    var legs: Int?

    init(name: String, legs: Int?) {
      self.name = name
      self.legs = legs
    }

    required init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: self)
    }

    func map(map: KeyMap) throws {
      try name <-> map["name"]
      try legs <-> map["body.legs"]
    }
  }

  final class Dog: Animal {
    var breed: String!

    init(name: String, breed: String) {
      self.breed = breed
      super.init(name: name, legs: 4)
    }

    required init(from decoder: Decoder) throws {
      try super.init(from: decoder)
    }

    override func map(map: KeyMap) throws {
      try super.map(map: map)
      try breed <-> map["body.breed"]
    }
  }

  /// An enum maps itself too: its values are always of its own type.
  enum Toggle: Codable, Keyedable, Equatable {
    case on, off

    init(from decoder: Decoder) throws {
      self = .off
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      var isOn = self == .on
      try isOn <-> map["state.on"]
      if map.type.isDecoding {
        self = isOn ? .on : .off
      }
    }
  }

  @Test func anEnumMapsItselfWithItsOwnPlan() throws {
    let json = #"[{"state":{"on":true}},{"state":{"on":false}}]"#
    #expect(try decode([Toggle].self, from: json) == [.on, .off])
    try expectEncoded([Toggle.on, .off], json)
  }

  @Test func aClassDecodesIntoItself() throws {
    let animal = try decode(Animal.self, from: #"{"name":"Ant","body":{"legs":6}}"#)
    #expect(animal.name == "Ant")
    #expect(animal.legs == 6)
    try expectEncoded(animal, #"{"name":"Ant","body":{"legs":6}}"#)
  }

  @Test func aSubclassAddsToItsParentsMapping() throws {
    let json = #"{"name":"Rex","body":{"legs":4,"breed":"Collie"}}"#
    let dog = try decode(Dog.self, from: json)
    #expect(dog.name == "Rex")
    #expect(dog.legs == 4)
    #expect(dog.breed == "Collie")
    try expectEncoded(dog, json)
    try expectEncoded(Dog(name: "Rex", breed: "Collie"), json)
    let animals: [Animal] = [Animal(name: "Ant", legs: 6), Dog(name: "Rex", breed: "Collie")]
    try expectEncoded(animals, #"[{"name":"Ant","body":{"legs":6}},\#(json)]"#)
  }
}
