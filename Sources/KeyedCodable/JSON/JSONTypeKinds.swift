import Foundation

/// How the JSON coders handle a Swift type, found once per type and coder run.
///
/// Deciding it takes a dynamic cast to a marker protocol, which costs more than reading a small
/// value; a small cache keeps the answer, with the conformance found, for the types a document
/// uses. Each type has two slots it may be in, picked by a multiplicative hash of its metadata
/// address: metadata the runtime allocates lies at addresses that share their low bits, and a
/// cache indexed by those bits alone had types of one document evict each other on every value
/// (citm_catalog.json: 500 dynamic casts per decode instead of 15).
///
/// Where a third type of one pair comes (which depends on where the process loaded the types'
/// metadata, so on the build and the run), the table is made four times larger, up to 1,024
/// slots, and the types it holds take their slots in it; only then does a type evict another,
/// which keeps its kind in a dictionary, so that types that take turns in one pair cost a
/// dictionary lookup, never a second cast. A run of few types keeps the 64 slots it started
/// with.
struct JSONTypeKindCache<Array, Dictionary, OptionalKind> {
  /// How one type is handled.
  enum Kind {
    /// Through the type's own `Codable` implementation.
    case other
    /// Through the type's own `Codable` implementation, which reads or writes one value
    /// through a single value container: a `RawRepresentable` type (an enum with raw values)
    /// unless it has its own, or a type seen to open no container (see ``learn(_:for:)``). The
    /// coders give a member of such a type its place without a coding path node (see
    /// ``JSONValueDecoder/decodeMember(_:as:of:key:)`` and
    /// ``JSONStreamEncoder/encodeMember(_:of:key:)``), and make the path if it is asked for.
    case singleValue
    /// As one of the scalar types the coder writes or reads itself (dates, data, numbers other
    /// than `Int` and `Double`, URLs, decimals).
    case scalar
    /// As an array, element by element: the conformance to the coder's array marker.
    case array(Array)
    /// As a `[String: Value]` or an `[Int: Value]`, member by member.
    case dictionary(Dictionary)
    /// As an `Optional`: `null`, or the wrapped value read or written as the coder reads or
    /// writes its type, without the single value container `Optional`'s own `Codable` opens.
    case optional(OptionalKind)
    /// As one of the JSON value types, read from the document and written into the output by
    /// the coder itself.
    case jsonValue(JSONValueType)
  }

  /// Whether the type's own `Codable` implementation reads or writes it: ``other`` or
  /// ``singleValue``.
  @inline(__always)
  static func decodesItself(_ kind: Kind) -> Bool {
    switch kind {
    case .other, .singleValue: true
    default: false
    }
  }

  /// The number of slots a cache starts with, and the most it grows to (powers of two).
  private static var firstSlotCount: Int { 64 }
  private static var mostSlots: Int { 1024 }

  private var types = [ObjectIdentifier?](repeating: nil, count: Self.firstSlotCount)
  private var kinds = [Kind](repeating: .other, count: Self.firstSlotCount)
  /// How far a type's hash is shifted right to give its slot: 64 minus the slots' bit count.
  private var shift = 64 &- Self.firstSlotCount.trailingZeroBitCount
  /// The number of slots, for tests.
  var slotCount: Int { types.count }
  /// The kinds of the types evicted from their slots.
  private var evicted: [ObjectIdentifier: Kind] = [:]

  /// The kind of `type`, worked out with `classify` when the cache doesn't know it.
  @inline(__always)
  mutating func kind(of type: Any.Type, classify: (Any.Type) -> Kind) -> Kind {
    let id = ObjectIdentifier(type)
    let slot = slot(of: id)
    if types[slot] == id {
      return kinds[slot]
    }
    if types[slot ^ 1] == id {
      return kinds[slot ^ 1]
    }
    return learn(type, slot: slot, classify: classify)
  }

  /// Keeps `kind` as the kind of `type`, when the cache holds `type` in one of its slots: what
  /// a coder learned of a type of kind ``other`` by running its `Codable` implementation.
  mutating func learn(_ kind: Kind, for type: Any.Type) {
    let id = ObjectIdentifier(type)
    let slot = slot(of: id)
    if types[slot] == id {
      kinds[slot] = kind
    } else if types[slot ^ 1] == id {
      kinds[slot ^ 1] = kind
    }
  }

  /// Works out the kind of `type` and keeps it in `slot` or the other slot of its pair, the
  /// empty one if any: out of line, so that the frames of the callers (on the path of every
  /// nested value) stay small.
  @inline(never)
  private mutating func learn(_ type: Any.Type, slot: Int, classify: (Any.Type) -> Kind) -> Kind {
    let id = ObjectIdentifier(type)
    let kind = evicted.isEmpty ? classify(type) : evicted[id] ?? classify(type)
    var slot = slot
    while types[slot] != nil, types[slot ^ 1] != nil, types.count < Self.mostSlots {
      grow()
      slot = self.slot(of: id)
    }
    slot = types[slot] == nil || types[slot ^ 1] != nil ? slot : slot ^ 1
    if let old = types[slot] {
      evicted[old] = kinds[slot]
    }
    types[slot] = id
    kinds[slot] = kind
    return kind
  }

  /// The first slot of the pair of the type `id`.
  ///
  /// Fibonacci hashing: the high bits of the product depend on every bit of the address (a
  /// SipHash per value would cost more than the cast it saves).
  @inline(__always)
  private func slot(of id: ObjectIdentifier) -> Int {
    let hash = UInt64(truncatingIfNeeded: UInt(bitPattern: id)) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: hash &>> UInt64(truncatingIfNeeded: shift))
  }

  /// Makes the table four times larger, with the types it holds in their new slots.
  private mutating func grow() {
    let oldTypes = types
    let oldKinds = kinds
    let count = types.count &* 4
    types = [ObjectIdentifier?](repeating: nil, count: count)
    kinds = [Kind](repeating: .other, count: count)
    shift &-= 2
    for (index, id) in oldTypes.enumerated() {
      guard let id else { continue }
      let slot = slot(of: id)
      let free = types[slot] == nil ? slot : slot ^ 1
      if types[free] == nil {
        types[free] = id
        kinds[free] = oldKinds[index]
      } else {
        evicted[id] = oldKinds[index]
      }
    }
  }
}

/// The types of ``JSONValue`` and its parts, which the JSON coders read straight from the parsed
/// document and write straight into the output (see ``JSONValue``).
enum JSONValueType {
  /// ``JSONValue``.
  case value
  /// ``JSONValue/Number``.
  case number
  /// ``JSONValue/Object``.
  case object

  /// The JSON value type `type` is, or `nil` for any other type.
  init?(_ type: Any.Type) {
    if type == JSONValue.self {
      self = .value
    } else if type == JSONValue.Number.self {
      self = .number
    } else if type == JSONValue.Object.self {
      self = .object
    } else {
      return nil
    }
  }
}

/// The types the JSON coders read and write themselves, besides `String`, `Int`, `Double` and
/// `Bool`, which their callers handle first.
enum JSONScalarTypes {
  private static let types: Set<ObjectIdentifier> = {
    var types: [Any.Type] = [
      Float.self, Int64.self, Int32.self, Int16.self, Int8.self, UInt.self, UInt64.self,
      UInt32.self, UInt16.self, UInt8.self, Date.self, Data.self, URL.self, Decimal.self,
      UUID.self,
    ]
    #if compiler(>=6.0)
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
        types += [Int128.self, UInt128.self]
      }
    #endif
    return Set(types.map { ObjectIdentifier($0) })
  }()

  /// Whether the coders handle `type` as a scalar.
  static func contains(_ type: Any.Type) -> Bool {
    types.contains(ObjectIdentifier(type))
  }
}
