import Foundation
import KeyedCodable
import Testing

/// `encodeIfPresent` of every scalar type and of any `Encodable`, which the JSON encoder's keyed
/// container implements itself: a `nil` writes nothing and a value writes what `encode` writes,
/// byte for byte as Foundation (keys sorted: Foundation's order is a dictionary's), with the key strategy, non-finite numbers and repeated keys.
struct OptionalMemberWritingTests {
  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
  }

  /// A member of each type the keyed container has an `encodeIfPresent` for, all optional, so
  /// that the synthesized `encode(to:)` writes each with `encodeIfPresent`.
  struct Scalars: Codable, Equatable {
    var flagValue: Bool?
    var textValue: String?
    var doubleValue: Double?
    var floatValue: Float?
    var intValue: Int?
    var int8Value: Int8?
    var int16Value: Int16?
    var int32Value: Int32?
    var int64Value: Int64?
    var uintValue: UInt?
    var uint8Value: UInt8?
    var uint16Value: UInt16?
    var uint32Value: UInt32?
    var uint64Value: UInt64?
    var pointValue: Point?
    var listValue: [Int?]?
    var dateValue: Date?
  }

  static let full = Scalars(
    flagValue: false, textValue: "caf\u{E9} \"quoted\"", doubleValue: -0.1, floatValue: 1.5e-7,
    intValue: .min, int8Value: .min, int16Value: .max, int32Value: -7, int64Value: .max,
    uintValue: .max, uint8Value: 255, uint16Value: 0, uint32Value: 4_000_000_000,
    uint64Value: .max, pointValue: Point(x: 1, y: -2), listValue: [1, nil, 3],
    dateValue: Date(timeIntervalSince1970: 1_234.5))

  /// Every member present, none, and each one alone.
  static var cases: [Scalars] {
    let full = Self.full
    let empty = Scalars()
    var alone: [Scalars] = []
    func only(_ set: (inout Scalars) -> Void) {
      var value = empty
      set(&value)
      alone.append(value)
    }
    only { $0.flagValue = full.flagValue }
    only { $0.textValue = full.textValue }
    only { $0.doubleValue = full.doubleValue }
    only { $0.floatValue = full.floatValue }
    only { $0.intValue = full.intValue }
    only { $0.int8Value = full.int8Value }
    only { $0.int16Value = full.int16Value }
    only { $0.int32Value = full.int32Value }
    only { $0.int64Value = full.int64Value }
    only { $0.uintValue = full.uintValue }
    only { $0.uint8Value = full.uint8Value }
    only { $0.uint16Value = full.uint16Value }
    only { $0.uint32Value = full.uint32Value }
    only { $0.uint64Value = full.uint64Value }
    only { $0.pointValue = full.pointValue }
    only { $0.listValue = full.listValue }
    only { $0.dateValue = full.dateValue }
    return [full, empty] + alone
  }

  @Test(arguments: cases)
  func optionalMembersAreWrittenAsFoundationWritesThem(value: Scalars) throws {
    let encoders = EncoderPair()
    let written = try #require(encoders.expectSame(value).success)
    // Nothing is lost: the text reads back as the value.
    #expect(try JSONDecoder().decode(Scalars.self, from: Data(written.utf8)) == value)
    encoders.expectSame([value, value])
    let converted = EncoderPair()
    converted.ours.keyEncodingStrategy = .convertToSnakeCase
    converted.foundation.keyEncodingStrategy = .convertToSnakeCase
    converted.expectSame(value)
  }

  @Test func theEmptyModelWritesAnEmptyObject() {
    #expect(EncoderPair().expectSame(Scalars()) == .value("{}"))
  }

  /// A handwritten `encode(to:)` writing optionals with `encodeIfPresent`, some twice.
  struct Repeated: Encodable {
    var first: Double?
    var second: Double?
    var point: Point?
    var again: Point?

    enum CodingKeys: String, CodingKey {
      case value, point
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encodeIfPresent(first, forKey: .value)
      try container.encodeIfPresent(second, forKey: .value)
      try container.encodeIfPresent(point, forKey: .point)
      try container.encodeIfPresent(again, forKey: .point)
    }
  }

  @Test(arguments: [
    Repeated(first: 1, second: nil, point: nil, again: Point(x: 1, y: 2)),
    Repeated(first: nil, second: 2, point: Point(x: 3, y: 4), again: nil),
    Repeated(first: 1, second: 2, point: Point(x: 3, y: 4), again: Point(x: 5, y: 6)),
    Repeated(first: nil, second: nil, point: nil, again: nil),
  ])
  func aKeyWrittenTwiceKeepsFoundationsValue(value: Repeated) {
    EncoderPair().expectSame(value)
  }

  /// Non-finite numbers throw with the member's path, or are written by the strategy.
  @Test(arguments: [Double.infinity, -.infinity, .nan])
  func nonFiniteOptionalsThrowOrConvertAsInFoundation(number: Double) {
    var value = Scalars()
    value.doubleValue = number
    let thrown = EncoderPair().expectSame([value])
    guard case .error(let shape) = thrown else {
      Issue.record("expected an error, got \(thrown)")
      return
    }
    #expect(shape.path == ["Index 0#0", "doubleValue"])
    var single = Scalars()
    single.floatValue = Float(number)
    EncoderPair().expectSame([single])
    let converting = EncoderPair()
    let strategy = (positive: "+inf", negative: "-inf", nan: "nan")
    converting.ours.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: strategy.positive, negativeInfinity: strategy.negative, nan: strategy.nan)
    converting.foundation.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: strategy.positive, negativeInfinity: strategy.negative, nan: strategy.nan)
    converting.expectSame([value])
    converting.expectSame([single])
  }
}
