// The types the differential JSON fuzz target decodes with Foundation's `JSONDecoder` and with
// `KeyedJSONDecoder`, and encodes with both encoders.
//
// Compiled into one module with the library sources and the other fuzz target's Fuzz/*.swift
// (see Scripts/fuzz-build.sh). Only the library's public API is used here.

import Foundation

// MARK: - Any JSON value

/// What `body` returns, or `nil` when it throws `DecodingError.typeMismatch`.
func ifOfType<T>(_ body: () throws -> T) throws -> T? {
  do {
    return try body()
  } catch DecodingError.typeMismatch {
    return nil
  }
}

/// Orders strings by their UTF-8 bytes: a total order that tells apart names Swift considers
/// equal (canonically equivalent), so both decoders' members are read in the same order.
func utf8Precedes(_ lhs: String, _ rhs: String) -> Bool {
  lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
}

/// Any JSON value, with numbers as `Double`.
///
/// An object keeps its members as the decoder lists them (`allKeys`, sorted by UTF-8 bytes), so
/// a difference in the listed names shows.
enum JSONAny: Codable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONAny])
  case object([Member])

  /// One member of an object.
  struct Member {
    var name: String
    var value: JSONAny
  }

  /// Any member name.
  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: Decoder) throws {
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
      return
    }
    // Each kind is tried in turn, moving on only on a type mismatch: any other error (a string
    // or number the decoder can't read) is the value's error.
    if let object = try ifOfType({ try decoder.container(keyedBy: AnyKey.self) }) {
      var members: [Member] = []
      for key in object.allKeys.sorted(by: { utf8Precedes($0.stringValue, $1.stringValue) }) {
        members.append(
          Member(name: key.stringValue, value: try object.decode(JSONAny.self, forKey: key)))
      }
      self = .object(members)
    } else if var array = try ifOfType({ try decoder.unkeyedContainer() }) {
      var elements: [JSONAny] = []
      while !array.isAtEnd {
        elements.append(try array.decode(JSONAny.self))
      }
      self = .array(elements)
    } else if let bool = try ifOfType({ try single.decode(Bool.self) }) {
      self = .bool(bool)
    } else if let string = try ifOfType({ try single.decode(String.self) }) {
      self = .string(string)
    } else {
      self = .number(try single.decode(Double.self))
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
      for member in members {
        try object.encode(member.value, forKey: AnyKey(stringValue: member.name))
      }
    }
  }
}

// MARK: - Keyedable models

/// A group of members read with the flat key.
struct Position: Codable {
  var lat: Double
  var lon: Double
}

/// An element of a lossy array: elements without an `id` are dropped.
struct Item: Codable {
  var id: Int
  var name: String?
  var price: Double?
}

/// A Keyedable model inside other models.
struct KeyedInner: Codable, Keyedable {
  var title: String?
  var count = 0
  var ids: [Int]?

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try title <-> map["info.title"]
    try count <?> map["info.count"]
    try ids <-> map["info.* ids"]
  }
}

/// Optional mappings of every shape: nested paths, lossy arrays (whole key and last segment,
/// with optional elements), the flat key, a nested Keyedable, an if-present mapping, other
/// delimiters, no delimiter, an empty segment and nested arrays.
struct KeyedPaths: Codable, Keyedable {
  var name: String?
  var id: Int?
  var score: Double?
  var active: Bool?
  var tags: [String]?
  var items: [Item]?
  var matrix: [[Double]]?
  var position: Position?
  var inner: KeyedInner?
  var flag = false
  var slashed: String?
  var dotted: Int?
  var numbers: [Int?]?
  var empty: String?
  var small: Int8?

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try name <-> map["user.name"]
    try id <-> map["user.id"]
    try score <-> map["user.stats.score"]
    try active <-> map["user.stats.active"]
    try tags <-> map["* tags"]
    try items <-> map["data.* items"]
    try matrix <-> map["data.matrix"]
    try position <-> map[""]
    try inner <-> map["inner"]
    try flag <?> map["flag"]
    try slashed <-> map["a/b", KeyOptions(delimiter: "/")]
    try dotted <-> map["x.y", KeyOptions(delimiter: nil)]
    try numbers <-> map["* numbers"]
    try empty <-> map["e..f"]
    try small <-> map["user.small"]
  }
}

/// Required mappings: non-optional storage and `.required()`.
struct KeyedRequired: Codable, Keyedable {
  var version = 0
  var kind: String?
  var values: [Int] = []
  var ratio: Float = 0
  var when: Date?
  var big: UInt64 = 0

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try version <-> map["meta.version"]
    try kind <-> map["meta.kind"].required()
    try values <-> map["meta.* values"]
    try ratio <-> map["ratio"]
    try when <-> map["meta.when"]
    try big <-> map["meta.big"]
  }
}

/// Every member of the mapped object and of the object at `dict.inner`, listed with `keys.all`;
/// the mapped object's members are written back literally.
struct KeyedListing: Codable, Keyedable {
  var members: [JSONAny.Member] = []
  var nested: [JSONAny.Member] = []

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    guard case .decoding(let keys) = map.type else {
      // `nested` is part of `members` (under "dict"), so only `members` is written.
      for member in members {
        try member.value ->> map[Key(stringValue: member.name)]
      }
      return
    }
    for key in keys.all.sorted(by: { utf8Precedes($0.stringValue, $1.stringValue) }) {
      var value = JSONAny.null
      try value <<- map[key]
      members.append(JSONAny.Member(name: key.stringValue, value: value))
    }
    for key in keys.all(for: "dict.inner").sorted(by: {
      utf8Precedes($0.stringValue, $1.stringValue)
    }) {
      var value = JSONAny.null
      try value <<- map[key]
      nested.append(JSONAny.Member(name: key.stringValue, value: value))
    }
  }
}

// MARK: - Synthesized models

/// Typed required fields, decoded by compiler-written code.
struct Typed: Codable {
  var int: Int
  var double: Double
  var string: String
  var bool: Bool
  var ints: [Int]
  var nested: Nested
  var optional: String?
}

/// The nested struct of ``Typed``.
struct Nested: Codable {
  var float: Float
  var int8: Int8
  var uint64: UInt64
  var inner: KeyedInner?
}

/// Optional fields of every type the JSON coders treat specially.
struct Loose: Codable {
  var int: Int?
  var double: Double?
  var float: Float?
  var string: String?
  var bool: Bool?
  var int8: Int8?
  var int16: Int16?
  var int32: Int32?
  var int64: Int64?
  var uint: UInt?
  var uint8: UInt8?
  var uint16: UInt16?
  var uint32: UInt32?
  var uint64: UInt64?
  var ints: [Int]?
  var doubles: [Double?]?
  var matrix: [[Int]]?
  var set: Set<Int>?
  var data: Data?
  var url: URL?
  var date: Date?
  var decimal: Decimal?
  var typed: Typed?
  var keyed: KeyedPaths?
  var any: JSONAny?
}

// MARK: - Dictionaries

// Foundation decodes a dictionary's members in its own hash order, and we in document order, so
// when several members fail the two may report different ones: these models are compared with
// that allowance (see `check(_:_:unorderedMembers:)`), the others strictly.

/// Dictionaries mapped by a Keyedable model.
struct KeyedDictionaries: Codable, Keyedable {
  var counts: [String: Int]?
  var inners: [String: KeyedInner]?
  var lossy: [String: [Int]]?

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try counts <-> map["user.stats.counts"]
    try inners <-> map["inners"]
    try lossy <-> map["dict.inner"]
  }
}

/// Dictionaries decoded by compiler-written code.
struct Dictionaries: Codable {
  var names: [String: Int]?
  var dict: [String: Double]?
  var table: [String: [String: Int]]?
  var intKeys: [Int: String]?
  var optionals: [String: Bool?]?
  var keyed: KeyedDictionaries?
}

// MARK: - Polymorphic values and super encoders

/// The shapes of ``Shaped``.
protocol DifferentialShape: Sendable {}

/// A shape that maps its own type member, registered under two names: it writes back the name
/// it was decoded with.
struct Arc: DifferentialShape, Codable, Keyedable {
  var kind = "arc"
  var radius: Double?

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try kind <-> map["type"]
    try radius <-> map["r"]
  }
}

/// A shape that leaves its type member to the registry.
struct Block: DifferentialShape, Codable, Keyedable {
  var size: [Int]?

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try size <-> map["size"]
  }
}

extension TypeRegistry where Base == any DifferentialShape {
  /// Every shape; an arc has two names.
  static let differentialShapes = TypeRegistry(
    typeKey: "type", ["arc": Arc.self, "curve": Arc.self, "block": Block.self, "quiet": Quiet.self]
  )
}

/// Hands super encoders nothing: a keyed container's `superEncoder()` and
/// `superEncoder(forKey:)`, and an unkeyed container's before its element. Each leaves an empty
/// object, which decoding steps over (with `superDecoder()` and `decodeIfPresent`, also past
/// the end of the array).
struct Quiet: DifferentialShape, Codable {
  var first: Int?
  var second: Int?

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: JSONAny.AnyKey.self)
    first = try container.decodeIfPresent(Int.self, forKey: JSONAny.AnyKey(stringValue: "first"))
    let listKey = JSONAny.AnyKey(stringValue: "list")
    guard container.contains(listKey) else { return }
    var list = try container.nestedUnkeyedContainer(forKey: listKey)
    if !list.isAtEnd {
      _ = try list.superDecoder()
    }
    second = try list.decodeIfPresent(Int.self)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: JSONAny.AnyKey.self)
    try container.encodeIfPresent(first, forKey: JSONAny.AnyKey(stringValue: "first"))
    _ = container.superEncoder()
    _ = container.superEncoder(forKey: JSONAny.AnyKey(stringValue: "base"))
    var list = container.nestedUnkeyedContainer(forKey: JSONAny.AnyKey(stringValue: "list"))
    _ = list.superEncoder()
    if let second {
      try list.encode(second)
    }
  }
}

/// Polymorphic values (an array and one value) and super encoders that write nothing, at a key
/// and in a flat value.
struct Shaped: Codable, Keyedable {
  var shapes: [any DifferentialShape]?
  var main: (any DifferentialShape)?
  var quiet: Quiet?
  var flatQuiet: Quiet?

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try shapes <-> map["data.shapes"].polymorphic(.differentialShapes)
    try main <-> map["data.main"].polymorphic(.differentialShapes)
    try quiet <-> map["data.quiet"]
    try flatQuiet <-> map["~", KeyOptions(flat: "~")]
  }
}
