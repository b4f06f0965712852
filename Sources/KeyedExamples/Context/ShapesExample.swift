import Foundation
import KeyedCodable

// Polymorphism through context (story 7 of "Context and configuration"): a `"type"` member picks
// the concrete type of each element of a mixed array.

/// A shape of a drawing.
public protocol Shape: Sendable {
  /// The shape's area.
  var area: Double { get }
}

/// A circle.
public struct Circle: Shape, Codable, Keyedable, Equatable {
  public var radius = 0.0
  public var area: Double { Double.pi * radius * radius }

  public init(radius: Double) { self.radius = radius }

  public mutating func map(map: KeyMap) throws {
    try radius <-> map["radius"]
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

/// A rectangle.
public struct Rectangle: Shape, Codable, Keyedable, Equatable {
  public var width = 0.0
  public var height = 0.0
  public var area: Double { width * height }

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  public mutating func map(map: KeyMap) throws {
    try width <-> map["size.width"]
    try height <-> map["size.height"]
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension TypeRegistry where Base == any Shape {
  /// The shapes a drawing may hold.
  public static let shapes = TypeRegistry(
    typeKey: "type", ["circle": Circle.self, "rectangle": Rectangle.self])
}

/// A drawing of mixed shapes.
public struct Drawing: Codable, Keyedable {
  public var name = ""
  public var shapes: [any Shape] = []
  public var background: (any Shape)?

  public init() {}

  public mutating func map(map: KeyMap) throws {
    try name <-> map["name"]
    try shapes <-> map["shapes"].polymorphic(.shapes)
    try background <-> map["background"].polymorphic(.shapes)
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

/// A drawing that skips the shapes it does not know.
public struct LenientDrawing: Codable, Keyedable {
  public var shapes: [any Shape] = []

  public init() {}

  public mutating func map(map: KeyMap) throws {
    try shapes <-> map["* shapes"].polymorphic(.shapes)
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension Example {
  /// A drawing with a circle, a rectangle and a triangle nobody registered.
  public static let drawingJSON = """
    {
      "name": "Sketch",
      "shapes": [
        {"type": "circle", "radius": 1},
        {"type": "rectangle", "size": {"width": 2, "height": 3}}
      ],
      "background": {"type": "rectangle", "size": {"width": 10, "height": 10}}
    }
    """

  /// Polymorphism.
  public static var shapes: Example {
    Example(name: "Context: polymorphic arrays", json: drawingJSON) {
      let drawing = try JSONDecoder().decode(Drawing.self, from: Data(drawingJSON.utf8))
      let lenient = try JSONDecoder().decode(
        LenientDrawing.self,
        from: Data(#"{"shapes": [{"type": "triangle"}, {"type": "circle", "radius": 2}]}"#.utf8))
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      return Output(
        decoded: [
          "shapes = \(drawing.shapes.map { String(describing: type(of: $0)) })",
          "total area = \(drawing.shapes.map(\.area).reduce(0, +))",
          "background = \(drawing.background.map { String(describing: type(of: $0)) } ?? "nil")",
          "lenient shapes (triangle dropped) = \(lenient.shapes.map { String(describing: type(of: $0)) })",
        ],
        encoded: String(decoding: try encoder.encode(drawing), as: UTF8.self))
    }
  }
}
