import Foundation
import KeyedCodable
import KeyedExamples
import Testing

// Story 7: polymorphism through a type registry.

@Suite("Context: polymorphism", .bothCoders)
struct PolymorphismTests {
  @Test func mixedElementsDecodeIntoTheirTypes() throws {
    let drawing = try decode(Drawing.self, from: Example.drawingJSON)
    #expect(drawing.name == "Sketch")
    #expect(drawing.shapes.count == 2)
    #expect((drawing.shapes[0] as? Circle) == Circle(radius: 1))
    #expect((drawing.shapes[1] as? Rectangle) == Rectangle(width: 2, height: 3))
    #expect((drawing.background as? Rectangle) == Rectangle(width: 10, height: 10))
  }

  @Test func elementsEncodeWithTheirTypeMember() throws {
    var drawing = Drawing()
    drawing.name = "D"
    drawing.shapes = [Rectangle(width: 1, height: 2), Circle(radius: 3)]
    try expectEncoded(
      drawing,
      #"""
      {"name": "D", "shapes": [
        {"type": "rectangle", "size": {"width": 1, "height": 2}},
        {"type": "circle", "radius": 3}
      ]}
      """#)
  }

  @Test func aDrawingRoundTripsExactly() throws {
    let drawing = try roundTrip(Drawing.self, Example.drawingJSON)
    #expect(try canonicalJSON(try encodeJSON(drawing)) == (try canonicalJSON(Example.drawingJSON)))
  }

  @Test func anUnknownTypeIsDataCorruptedAtTheElementsPath() throws {
    let json = #"{"name": "x", "shapes": [{"type": "circle", "radius": 1}, {"type": "hexagon"}]}"#
    expectError("dataCorrupted", at: ["shapes", "Index 1"]) { try decode(Drawing.self, from: json) }
    do {
      _ = try decode(Drawing.self, from: json)
    } catch {
      #expect(
        message(of: error)
          == "Unknown type \"hexagon\" in member \"type\" for Shape; the registered types are "
          + "\"circle\", \"rectangle\".")
    }
  }

  @Test func aMissingTypeMemberIsKeyNotFound() throws {
    expectError("keyNotFound(type)", at: ["shapes", "Index 0"]) {
      try decode(Drawing.self, from: #"{"name": "x", "shapes": [{"radius": 1}]}"#)
    }
  }

  @Test func theLossyMarkerDropsUnknownTypesAndReportsThem() throws {
    let json = #"{"shapes": [{"type": "triangle"}, {"type": "circle", "radius": 2}, 7]}"#
    let (drawing, report) = try decodeWithReport(LenientDrawing.self, from: json)
    #expect(drawing.shapes.count == 1)
    #expect((drawing.shapes.first as? Circle) == Circle(radius: 2))
    #expect(report.entries.map(\.pathDescription) == ["shapes[0]", "shapes[2]"])
    #expect(report.entries.map(\.event) == [.droppedElement, .droppedElement])
    #expect(report.entries.map(\.keyPath) == ["* shapes", "* shapes"])
  }

  @Test func aRegistryCanComeFromTheCaller() throws {
    struct Canvas: Codable, Keyedable {
      var shapes: [any Shape] = []
      mutating func map(map: KeyMap) throws {
        try shapes <-> map["shapes"].polymorphic((any Shape).self)
      }
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let json = #"{"shapes": [{"type": "circle", "radius": 1}]}"#
    let canvas = try decode(
      Canvas.self, from: json, with: .registering(TypeRegistry<any Shape>.shapes))
    #expect((canvas.shapes.first as? Circle) == Circle(radius: 1))
    expectError("dataCorrupted", at: ["shapes", "Index 0"]) { try decode(Canvas.self, from: json) }
  }

  @Test func anUnregisteredTypeCannotBeEncoded() throws {
    struct Triangle: Shape, Codable { var area: Double { 1 } }
    var drawing = Drawing()
    drawing.shapes = [Triangle()]
    expectError("invalidValue", at: ["shapes", "Index 0"]) { try encodeJSON(drawing) }
  }

  @Test func aCustomTypeKeyIsUsedBothWays() throws {
    struct Zoo: Codable, Keyedable {
      static let animals = TypeRegistry<any Sendable>(typeKey: "kind", ["circle": Circle.self])
      var animals: [any Sendable] = []
      mutating func map(map: KeyMap) throws {
        try animals <-> map["animals"].polymorphic(Self.animals)
      }
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let zoo = try roundTrip(Zoo.self, #"{"animals": [{"kind": "circle", "radius": 4}]}"#)
    #expect((zoo.animals.first as? Circle) == Circle(radius: 4))
    try expectEncoded(zoo, #"{"animals": [{"kind": "circle", "radius": 4}]}"#)
  }
}
