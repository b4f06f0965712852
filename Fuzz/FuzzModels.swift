// The Keyedable models the fuzz target decodes. Their keys come from the input, through the
// coders' `userInfo`, so one model type is mapped with a different key on almost every run.
//
// Compiled into one module with the library sources and the differential JSON target (see
// Scripts/fuzz-build.sh); only the library's public API is used.

import Foundation

/// What an input asks the models to map.
struct FuzzSpec: Sendable, CustomStringConvertible {
  /// The key string, read with ``options``.
  var key: String
  /// The markers the key is read with.
  var options: KeyOptions
  /// Which of the eight ``Program`` mappings run (bit `i` for template `i`).
  var templates: UInt8

  /// The delimiter as text to join segments with (`""` when there is none).
  var delimiter: String { options.delimiter ?? "" }

  /// The key of template `index`: the input's key behind a first segment `t<index>`, so that
  /// the key paths of two templates never overlap whatever the key and the delimiter are (no
  /// delimiter of ``FuzzInput/delimiters`` contains `t` or a digit).
  func templateKey(_ index: Int) -> String {
    "t\(index)" + delimiter + key
  }

  var description: String {
    "key \(key.debugDescription) (\(Array(key.unicodeScalars.map(\.value)))), \(options), "
      + "templates \(String(templates, radix: 2))"
  }
}

/// The `userInfo` key of the ``FuzzSpec``.
let fuzzSpecKey: CodingUserInfoKey = {
  guard let key = CodingUserInfoKey(rawValue: "keyed.fuzz.spec") else {
    fatalError("CodingUserInfoKey rejected the fuzz spec key")
  }
  return key
}()

/// The spec of the coder that runs `map`.
func fuzzSpec(_ userInfo: [CodingUserInfoKey: Any]) -> FuzzSpec {
  guard let spec = userInfo[fuzzSpecKey] as? FuzzSpec else {
    fatalError("The fuzz models need a FuzzSpec in userInfo")
  }
  return spec
}

/// A plain `Codable` value, decoded by synthesized code; it ignores members it does not know.
struct Leaf: Codable, Equatable {
  var name: String?
  var weight: Double?
}

/// A Keyedable model inside a Keyedable model, mapped with the input's key and options.
struct Inner: Codable, Keyedable, Equatable {
  var name: String?
  var values: [Int?]?

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    let spec = fuzzSpec(map.userInfo)
    try name <-> map[spec.key, spec.options]
    try values <-> map["* v"]
  }
}

/// Orders keys by their UTF-8 bytes: a total order, so members are read in the same order on
/// every decode (JSONDecoder lists them in no fixed order, and the first member that fails
/// decides the error).
func precedes(_ lhs: some CodingKey, _ rhs: some CodingKey) -> Bool {
  lhs.stringValue.utf8.lexicographicallyPrecedes(rhs.stringValue.utf8)
}

/// Any JSON value; objects are read member by member, so duplicate or equivalent keys never reach
/// a dictionary initializer that traps.
enum FuzzJSON: Codable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([FuzzJSON])
  case object([String: FuzzJSON])

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: Decoder) throws {
    if let object = try? decoder.container(keyedBy: AnyKey.self) {
      var members: [String: FuzzJSON] = [:]
      for key in object.allKeys.sorted(by: precedes) {
        members[key.stringValue] = try object.decode(FuzzJSON.self, forKey: key)
      }
      self = .object(members)
      return
    }
    if var array = try? decoder.unkeyedContainer() {
      var elements: [FuzzJSON] = []
      while !array.isAtEnd {
        elements.append(try array.decode(FuzzJSON.self))
      }
      self = .array(elements)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let bool = try? single.decode(Bool.self) {
      self = .bool(bool)
    } else if let number = try? single.decode(Double.self) {
      self = .number(number)
    } else {
      self = .string(try single.decode(String.self))
    }
  }

  func encode(to encoder: Encoder) throws {
    switch self {
    case .null:
      var single = encoder.singleValueContainer()
      try single.encodeNil()
    case .bool(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .number(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .string(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .array(let elements):
      var array = encoder.unkeyedContainer()
      for element in elements {
        try array.encode(element)
      }
    case .object(let members):
      var object = encoder.container(keyedBy: AnyKey.self)
      for (name, value) in members.sorted(by: { $0.key < $1.key }) {
        try object.encode(value, forKey: AnyKey(stringValue: name))
      }
    }
  }
}

/// A fuzz model: decoded from the input's document, encoded, decoded again.
///
/// Its mapped properties are gathered in a `Value` that does not depend on `Tag`, so the results
/// of two tags can be compared.
protocol FuzzModel: Codable, Keyedable {
  associatedtype Value: Equatable
  var value: Value { get }
}

/// What ``Program`` maps.
struct ProgramValue: Equatable {
  var text: String?
  var number: Int?
  var lossyNumbers: [Int]?
  var leaves: [Leaf]?
  var flat: Leaf?
  var inner: Inner?
  var real = 0.0
  var flag: Bool?
}

/// Up to eight mappings, one per template, each under its own first segment: nested paths
/// (the input's key with its delimiter), lossy arrays (marker on the whole key and on the last
/// segment), a flat value, a nested Keyedable, an if-present mapping and a required one.
///
/// `Tag` only makes distinct types, each with its own cached plan.
struct Program<Tag>: FuzzModel {
  var value = ProgramValue()

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    let spec = fuzzSpec(map.userInfo)
    let options = spec.options
    let lossy = options.optionalArrayElements ?? ""
    func uses(_ index: Int) -> Bool { spec.templates & (1 << index) != 0 }
    if uses(0) {
      try value.text <-> map[spec.templateKey(0), options]
    }
    if uses(1) {
      try value.number <-> map[spec.templateKey(1) + spec.delimiter + "n", options]
    }
    if uses(2) {
      try value.lossyNumbers <-> map[lossy + spec.templateKey(2), options]
    }
    if uses(3) {
      try value.leaves <-> map[spec.templateKey(3) + spec.delimiter + lossy + "items", options]
    }
    if uses(4) {
      try value.flat <-> map[options.flat ?? spec.templateKey(4), options]
    }
    if uses(5) {
      try value.inner <-> map[spec.templateKey(5), options]
    }
    if uses(6) {
      try value.real <?> map[spec.templateKey(6), options]
    }
    if uses(7) {
      try value.flag <-> map[spec.templateKey(7), options].required()
    }
  }
}

/// Every member of the mapped object, listed with `keys.all` and written back literally.
struct AllRoot<Tag>: FuzzModel {
  var members: [String: FuzzJSON] = [:]

  var value: [String: FuzzJSON] { members }

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    guard case .decoding(let keys) = map.type else {
      for (name, value) in members.sorted(by: { $0.key < $1.key }) {
        try value ->> map[Key(stringValue: name)]
      }
      return
    }
    for key in keys.all.sorted(by: precedes) {
      var value = FuzzJSON.null
      try value <<- map[key]
      members[key.stringValue] = value
    }
  }
}

/// Every member of the object at the input's key, listed with `keys.all(for:options:)` and
/// written back as a dictionary at that key.
struct AllFor<Tag>: FuzzModel {
  var members: [String: FuzzJSON] = [:]

  var value: [String: FuzzJSON] { members }

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    let spec = fuzzSpec(map.userInfo)
    guard case .decoding(let keys) = map.type else {
      try members ->> map[spec.key, spec.options]
      return
    }
    for key in keys.all(for: spec.key, options: spec.options).sorted(by: precedes) {
      var value = FuzzJSON.null
      try value <<- map[key]
      members[key.stringValue] = value
    }
  }
}

/// Type-level numbers for `Tag`: `Bit1<Bit0<Origin>>` and so on, each a distinct type.
enum Origin {}
enum Bit0<Rest> {}
enum Bit1<Rest> {}
