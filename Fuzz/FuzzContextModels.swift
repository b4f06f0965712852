// Fuzz models for context and values: a configured model that hands a configuration to nested
// models, with transforms, defaults and lossy conversions; and a polymorphic array, with a shape
// that maps its own type member and one whose super encoders write nothing.
//
// Every value these models keep survives an encode and a decode unchanged (dates are compared to
// the second they are written with), so the round-trip invariants of KeyedFuzz.swift hold.

import Foundation

/// The configuration the fuzz target hands to every decode and encode.
struct FuzzConfiguration: Sendable, Equatable {
  /// The most characters of a string a configured model keeps.
  var limit: Int
}

/// The configuration of an input: a limit from its template bits.
func fuzzConfiguration(_ spec: FuzzSpec) -> FuzzConfiguration {
  FuzzConfiguration(limit: Int(spec.templates % 7))
}

/// What ``Configured`` maps.
struct ConfiguredValue: Equatable {
  var text: String?
  var inner: [Limited]?
  var when: Double?
  var count = 0
  var flag: Bool?
  var link: String?
}

/// A model that reads the configuration its parent hands it.
struct Limited: Codable, Keyedable, Equatable {
  var name: String?
  var limit = -1

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    let spec = fuzzSpec(map.userInfo)
    try name <-> map[spec.key, spec.options]
    guard let configuration = map.configuration(FuzzConfiguration.self) else { return }
    limit = configuration.limit
    if map.type.isDecoding, let text = name {
      name = String(text.prefix(configuration.limit))
    }
  }
}

/// A configured model: it shortens its text by the caller's configuration, and hands a
/// configuration of its own to nested models.
struct Configured<Tag>: FuzzModel {
  var text: String?
  var inner: [Limited]?
  var when: Date?
  var count = 0
  var flag: Bool?
  var link: URL?

  var value: ConfiguredValue {
    ConfiguredValue(
      // `.iso8601` writes whole seconds, a half second rounded up (toward the future, also
      // before 1970), so the value is compared as written.
      text: text, inner: inner,
      when: when.map { ($0.timeIntervalSince1970 + 0.5).rounded(.down) },
      count: count, flag: flag, link: link?.absoluteString)
  }

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    let spec = fuzzSpec(map.userInfo)
    let options = spec.options
    let lossy = options.optionalArrayElements ?? ""
    let configuration = try map.requiredConfiguration(FuzzConfiguration.self)
    try text
      <-> map[spec.templateKey(0), options].modified { String($0.prefix(configuration.limit)) }
    try inner
      <-> map[lossy + spec.templateKey(1), options].configured(
        with: FuzzConfiguration(limit: configuration.limit + 1))
    try when <-> map[spec.templateKey(2), options].using(.iso8601)
    try count <-> map[spec.templateKey(3), options].default(7, when: .absentOrInvalid)
    try flag <-> map[spec.templateKey(4), options].converting(.lossy)
    try link <-> map[spec.templateKey(5), options].using(.url)
  }
}

/// The shapes of ``Shapes``.
protocol FuzzShape: Sendable {}

/// A shape decoded by synthesized code.
struct Dot: FuzzShape, Codable, Equatable {
  var size: Int?
}

/// A shape decoded by `map(map:)`.
struct Line: FuzzShape, Codable, Keyedable, Equatable {
  var from: Int?
  var to: Int?

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try from <-> map["p.from"]
    try to <-> map["p.to"]
  }
}

/// A shape that maps its own type member, registered under two names: it writes back the name
/// it was decoded with.
struct Curve: FuzzShape, Codable, Keyedable, Equatable {
  var kind = "curve"
  var bend: Int?

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try kind <-> map["kind"]
    try bend <-> map["b"]
  }
}

/// A shape that hands its super encoders nothing: `superEncoder()`, and an unkeyed container's
/// before its element; each leaves an empty object, which decoding steps over.
struct Hollow: FuzzShape, Codable, Equatable {
  var size: Int?

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: FuzzJSON.AnyKey.self)
    let list = FuzzJSON.AnyKey(stringValue: "list")
    guard container.contains(list) else { return }
    var elements = try container.nestedUnkeyedContainer(forKey: list)
    if !elements.isAtEnd {
      _ = try elements.superDecoder()
    }
    size = try elements.decodeIfPresent(Int.self)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: FuzzJSON.AnyKey.self)
    _ = container.superEncoder()
    var elements = container.nestedUnkeyedContainer(forKey: FuzzJSON.AnyKey(stringValue: "list"))
    _ = elements.superEncoder()
    if let size {
      try elements.encode(size)
    }
  }
}

extension TypeRegistry where Base == any FuzzShape {
  static let fuzzShapes = TypeRegistry(
    typeKey: "kind",
    [
      "dot": Dot.self, "line": Line.self, "curve": Curve.self, "arc": Curve.self,
      "hollow": Hollow.self,
    ])
}

/// A shape as a comparable value.
enum ShapeValue: Equatable {
  case dot(Dot)
  case line(Line)
  case curve(Curve)
  case hollow(Hollow)
  case other
}

/// A polymorphic array under the input's key (behind a first segment, so never the flat key,
/// where an array cannot be), lossy when the first template bit is set.
struct Shapes<Tag>: FuzzModel {
  var shapes: [any FuzzShape]?

  var value: [ShapeValue]? {
    shapes?.map { shape in
      if let dot = shape as? Dot { return .dot(dot) }
      if let line = shape as? Line { return .line(line) }
      if let curve = shape as? Curve { return .curve(curve) }
      if let hollow = shape as? Hollow { return .hollow(hollow) }
      return .other
    }
  }

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    let spec = fuzzSpec(map.userInfo)
    let lossy = spec.templates & 1 == 1 ? spec.options.optionalArrayElements ?? "" : ""
    try shapes <-> map[lossy + spec.templateKey(0), spec.options].polymorphic(.fuzzShapes)
  }
}
