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

  /// Without a registry in the context, a mapping made with a base type throws, decoding and
  /// encoding, with the message the Context and Configuration article shows.
  @Test func aMissingRegistryIsNamedInBothDirections() throws {
    struct Canvas: Codable, Keyedable {
      var shapes: [any Shape] = []
      mutating func map(map: KeyMap) throws {
        try shapes <-> map["shapes"].polymorphic((any Shape).self)
      }
      init() {}
      init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
    }
    let expected =
      "No type registry for Shape: pass one to polymorphic(_:) or register it in the "
      + "MappingContext."
    let json = #"{"shapes": [{"type": "circle", "radius": 1}]}"#
    expectError("dataCorrupted", at: ["shapes", "Index 0"]) { try decode(Canvas.self, from: json) }
    #expect(throws: (any Error).self) { try decode(Canvas.self, from: json) }
    do {
      _ = try decode(Canvas.self, from: json)
    } catch {
      #expect(message(of: error) == expected)
    }
    var canvas = Canvas()
    canvas.shapes = [Circle(radius: 1)]
    expectError("invalidValue", at: ["shapes", "Index 0"]) { try encodeJSON(canvas) }
    do {
      _ = try encodeJSON(canvas)
    } catch {
      #expect(message(of: error) == expected)
    }
    try expectEncoded(
      canvas, with: .registering(TypeRegistry<any Shape>.shapes),
      #"{"shapes": [{"type": "circle", "radius": 1}]}"#)
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

  // MARK: - Models that map their own type member

  @Test func anElementThatMapsItsOwnTypeMemberWritesItOnce() throws {
    var sheet = Sheet()
    sheet.figures = [Square(side: 2), Dot(x: 3)]
    sheet.main = Square(side: 4)
    let json = #"""
      {"figures": [{"type": "square", "side": 2}, {"type": "dot", "x": 3}],
       "main": {"type": "square", "side": 4}}
      """#
    try expectEncoded(sheet, json)
    let decoded = try roundTrip(Sheet.self, json)
    #expect(decoded.figures.count == 2)
    #expect((decoded.figures.first as? Square) == Square(side: 2))
    #expect((decoded.figures.last as? Dot) == Dot(x: 3))
    #expect((decoded.main as? Square) == Square(side: 4))
  }

  @Test func aTypeRegisteredUnderTwoNamesWritesBackTheNameItMapsItself() throws {
    let json = #"{"figures": [{"type": "sq", "side": 3}, {"type": "square", "side": 1}]}"#
    let sheet = try decode(Sheet.self, from: json)
    #expect((sheet.figures.first as? Square)?.kind == "sq")
    #expect((sheet.figures.last as? Square)?.kind == "square")
    try expectEncoded(sheet, json)
  }

  @Test func aTypeRegisteredUnderTwoNamesWritesItsFirstNameWhenItDoesNotMapIt() throws {
    let sheet = try decode(Sheet.self, from: #"{"figures": [{"type": "blot", "ink": 2}]}"#)
    #expect((sheet.figures.first as? Blob) == Blob(ink: 2))
    try expectEncoded(sheet, #"{"figures": [{"type": "blob", "ink": 2}]}"#)
  }

  @Test func aTypeMemberTheModelLeavesOutIsWrittenByTheRegistry() throws {
    var sheet = Sheet()
    var square = Square(side: 5)
    square.kindIsWritten = false
    sheet.figures = [square]
    try expectEncoded(sheet, #"{"figures": [{"type": "square", "side": 5}]}"#)
  }

  @Test func aFlatValueThatWritesTheTypeMemberWritesItOnce() throws {
    var sheet = Sheet()
    sheet.figures = [Patch()]
    let json = #"{"figures": [{"type": "patch", "color": "red"}]}"#
    try expectEncoded(sheet, json)
    #expect((try roundTrip(Sheet.self, json).figures.first as? Patch)?.header == Patch.Header())
    var patch = Patch()
    patch.header.type = "blob"
    sheet.figures = [patch]
    expectError("invalidValue", at: ["figures", "Index 0", "type"]) { try encodeJSON(sheet) }
    do {
      _ = try encodeJSON(sheet)
    } catch {
      #expect(
        message(of: error)
          == #"Key path "type" is written twice with different values: "patch" by the type "#
          + #"registry, then "blob" by map[""]; one would overwrite the other."#)
    }
  }

  @Test func aTypeMemberThatNamesAnotherTypeThrows() throws {
    var sheet = Sheet()
    var square = Square(side: 5)
    square.kind = "dot"
    sheet.figures = [Dot(x: 1), square]
    expectError("invalidValue", at: ["figures", "Index 1", "type"]) { try encodeJSON(sheet) }
    do {
      _ = try encodeJSON(sheet)
    } catch {
      #expect(
        message(of: error)
          == #"Key path "type" must hold a name Square is registered under ("square", "sq"), "#
          + #"as the type registry reads it back; map["type"] writes "dot"."#)
      #expect(
        readableDescription(of: error)
          == #"Cannot encode dot at figures[1].type (Square): Key path "type" must hold a name "#
          + #"Square is registered under ("square", "sq"), as the type registry reads it back; "#
          + #"map["type"] writes "dot"."#)
    }
  }

  @Test func aNilDefaultReplacesAnInvalidPolymorphicValue() throws {
    let json = #"{"main": {"type": "hexagon"}, "spare": {"type": "blob", "ink": 4}}"#
    let (sheet, report) = try decodeWithReport(LenientSheet.self, from: json)
    #expect(sheet.main == nil)
    #expect((sheet.spare as? Blob) == Blob(ink: 4))
    #expect(report.entries.map(\.pathDescription) == ["main"])
    #expect(report.entries.map(\.event) == [.defaulted(value: "nil")])
  }

  @Test func aNilDefaultLeavesAbsentAndNullPolymorphicValuesNil() throws {
    let absent = try decode(LenientSheet.self, from: #"{}"#)
    #expect(absent.main == nil)
    #expect(absent.spare == nil)
    let null = try decode(LenientSheet.self, from: #"{"main": null, "spare": null}"#)
    #expect(null.main == nil)
    #expect(null.spare == nil)
  }

  @Test func aPolymorphicValueWithANilDefaultEncodesWithItsTypeMember() throws {
    var sheet = LenientSheet()
    sheet.main = Blob(ink: 2)
    try expectEncoded(sheet, #"{"main": {"type": "blob", "ink": 2}}"#)
    let decoded = try roundTrip(LenientSheet.self, #"{"main": {"type": "blob", "ink": 2}}"#)
    #expect((decoded.main as? Blob) == Blob(ink: 2))
  }

  /// Elements whose key paths come from each instance leave the plan the first one published:
  /// each collects its key paths, its type member with them, and is written whole, with its
  /// type member once.
  @Test func polymorphicElementsThatLeaveTheirPlanKeepTheirTypeMember() throws {
    var sheet = LabeledSheet()
    sheet.figures = [
      Labeled(label: "a", labelKey: "label"), Labeled(label: "b", labelKey: "meta.label"),
      Labeled(label: "c", labelKey: "other"), Labeled(label: "labeled", labelKey: "type"),
      Labeled(label: "d", labelKey: "label"),
    ]
    try expectEncoded(
      sheet,
      #"""
      {"figures": [
        {"type": "labeled", "label": "a"},
        {"type": "labeled", "meta": {"label": "b"}},
        {"type": "labeled", "other": "c"},
        {"type": "labeled"},
        {"type": "labeled", "label": "d"}
      ]}
      """#)
  }
}

/// A figure whose flat value writes its type member.
struct Patch: Figure, Codable, Keyedable {
  var header = Header()

  init() {}

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try header <-> map[""]
  }

  /// The members of a patch, its type member among them.
  struct Header: Codable, Equatable {
    var type = "patch"
    var color = "red"
  }
}

/// A figure of a ``Sheet``.
protocol Figure: Sendable {}

/// A figure that maps its own type member.
struct Square: Figure, Codable, Keyedable, Equatable {
  var kind = "square"
  var side = 0
  /// Whether `kind` is written (it is optional storage then, and `nil`).
  var kindIsWritten = true

  init(side: Int) {
    self.side = side
  }

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    if kindIsWritten {
      try kind <-> map["type"]
    } else {
      var none: String?
      try none <-> map["type"]
    }
    try side <-> map["side"]
  }

  static func == (lhs: Square, rhs: Square) -> Bool {
    lhs.kind == rhs.kind && lhs.side == rhs.side
  }
}

/// A figure whose synthesized conformance writes its own type member.
struct Dot: Figure, Codable, Equatable {
  var type = "dot"
  var x: Int

  init(x: Int) {
    self.x = x
  }
}

/// A figure that leaves its type member to the registry.
struct Blob: Figure, Codable, Keyedable, Equatable {
  var ink = 0

  init(ink: Int) {
    self.ink = ink
  }

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try ink <-> map["ink"]
  }
}

extension TypeRegistry where Base == any Figure {
  /// Square and blob under two names each.
  static let figures = TypeRegistry(
    typeKey: "type",
    [
      "square": Square.self, "sq": Square.self, "dot": Dot.self, "blob": Blob.self,
      "blot": Blob.self, "patch": Patch.self,
    ]
  )
}

/// Figures in an array and on their own.
struct Sheet: Codable, Keyedable {
  var figures: [any Figure] = []
  var main: (any Figure)?

  init() {}

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try figures <-> map["figures"].polymorphic(.figures)
    try main <-> map["main"].polymorphic(.figures)
  }
}

/// Figures on their own whose invalid values decode as `nil`.
struct LenientSheet: Codable, Keyedable {
  var main: (any Figure)?
  var spare: (any Figure)?

  init() {}

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try main <-> map["main"].polymorphic(.figures).default(nil, when: .invalid)
    try spare <-> map["spare"].polymorphic(.figures).default(nil, when: .absentOrInvalid)
  }
}

/// A figure whose key path comes from each instance.
struct Labeled: Figure, Codable, Keyedable {
  var label = ""
  var labelKey = "label"

  init() {}

  init(label: String, labelKey: String) {
    self.label = label
    self.labelKey = labelKey
  }

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try label <-> map[labelKey]
  }
}

extension TypeRegistry where Base == any Figure {
  /// Labeled figures alone.
  static let labeled = TypeRegistry(typeKey: "type", ["labeled": Labeled.self])
}

/// Labeled figures in an array.
struct LabeledSheet: Codable, Keyedable {
  var figures: [any Figure] = []

  init() {}

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try figures <-> map["figures"].polymorphic(.labeled)
  }
}
