import Foundation
import KeyedCodable

// P6: one value at a 32-segment key path. The synthesized side needs one struct per level.

enum P6Synthesized {
  struct L31: Codable, Equatable {
    var l31: Int
  }
  struct L30: Codable, Equatable {
    var l30: L31
  }
  struct L29: Codable, Equatable {
    var l29: L30
  }
  struct L28: Codable, Equatable {
    var l28: L29
  }
  struct L27: Codable, Equatable {
    var l27: L28
  }
  struct L26: Codable, Equatable {
    var l26: L27
  }
  struct L25: Codable, Equatable {
    var l25: L26
  }
  struct L24: Codable, Equatable {
    var l24: L25
  }
  struct L23: Codable, Equatable {
    var l23: L24
  }
  struct L22: Codable, Equatable {
    var l22: L23
  }
  struct L21: Codable, Equatable {
    var l21: L22
  }
  struct L20: Codable, Equatable {
    var l20: L21
  }
  struct L19: Codable, Equatable {
    var l19: L20
  }
  struct L18: Codable, Equatable {
    var l18: L19
  }
  struct L17: Codable, Equatable {
    var l17: L18
  }
  struct L16: Codable, Equatable {
    var l16: L17
  }
  struct L15: Codable, Equatable {
    var l15: L16
  }
  struct L14: Codable, Equatable {
    var l14: L15
  }
  struct L13: Codable, Equatable {
    var l13: L14
  }
  struct L12: Codable, Equatable {
    var l12: L13
  }
  struct L11: Codable, Equatable {
    var l11: L12
  }
  struct L10: Codable, Equatable {
    var l10: L11
  }
  struct L9: Codable, Equatable {
    var l9: L10
  }
  struct L8: Codable, Equatable {
    var l8: L9
  }
  struct L7: Codable, Equatable {
    var l7: L8
  }
  struct L6: Codable, Equatable {
    var l6: L7
  }
  struct L5: Codable, Equatable {
    var l5: L6
  }
  struct L4: Codable, Equatable {
    var l4: L5
  }
  struct L3: Codable, Equatable {
    var l3: L4
  }
  struct L2: Codable, Equatable {
    var l2: L3
  }
  struct L1: Codable, Equatable {
    var l1: L2
  }
  struct L0: Codable, Equatable {
    var l0: L1
  }

  static func make(_ value: Int) -> L0 {
    L0(
      l0: L1(
        l1: L2(
          l2: L3(
            l3: L4(
              l4: L5(
                l5: L6(
                  l6: L7(
                    l7: L8(
                      l8: L9(
                        l9: L10(
                          l10: L11(
                            l11: L12(
                              l12: L13(
                                l13: L14(
                                  l14: L15(
                                    l15: L16(
                                      l16: L17(
                                        l17: L18(
                                          l18: L19(
                                            l19: L20(
                                              l20: L21(
                                                l21: L22(
                                                  l22: L23(
                                                    l23: L24(
                                                      l24: L25(
                                                        l25: L26(
                                                          l26: L27(
                                                            l27: L28(
                                                              l28: L29(
                                                                l29: L30(l30: L31(l31: value))))))))
                                                  ))))))))))))))))))))))))
  }

  static func value(of root: L0) -> Int {
    root.l0.l1.l2.l3.l4.l5.l6.l7.l8.l9.l10.l11.l12.l13.l14.l15.l16.l17.l18.l19.l20.l21.l22.l23.l24
      .l25.l26.l27.l28.l29.l30.l31
  }
}

struct P6Keyed: Codable, Keyedable {
  static let path =
    "l0.l1.l2.l3.l4.l5.l6.l7.l8.l9.l10.l11.l12.l13.l14.l15.l16.l17.l18.l19.l20.l21.l22.l23.l24.l25.l26.l27.l28.l29.l30.l31"
  var value = 0

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try value <-> map[Self.path]
  }
}

struct P6Handwritten: Codable {
  var value: Int

  struct Level: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  static let levels = (0..<32).map { Level(stringValue: "l\($0)") }

  init(from decoder: Decoder) throws {
    var container = try decoder.container(keyedBy: Level.self)
    for level in Self.levels.dropLast() {
      container = try container.nestedContainer(keyedBy: Level.self, forKey: level)
    }
    value = try container.decode(Int.self, forKey: Self.levels[Self.levels.count - 1])
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: Level.self)
    for level in Self.levels.dropLast() {
      container = container.nestedContainer(keyedBy: Level.self, forKey: level)
    }
    try container.encode(value, forKey: Self.levels[Self.levels.count - 1])
  }
}

func p6Scenario(objects: Int) throws -> Scenario {
  let synthesized = (0..<objects).map { P6Synthesized.make($0 * 7) }
  let payload = try Coders.encoder().encode(synthesized)
  let decoder = Coders.decoder()
  let encoder = Coders.encoder()
  let jsonDecoder = Coders.jsonDecoder()
  let jsonEncoder = Coders.jsonEncoder()
  let keyed = try decoder.decode([P6Keyed].self, from: payload)
  let handwritten = try decoder.decode([P6Handwritten].self, from: payload)
  return Scenario(
    id: "P6", title: "depth: one value 32 levels down, \(objects) objects", payload: payload,
    objects: objects,
    implementations: [
      Implementation(
        name: "synthesized",
        decode: { try decoder.decode([P6Synthesized.L0].self, from: payload).count },
        encode: { try encoder.encode(synthesized).count }),
      Implementation(
        name: "keyedcodable",
        decode: { try decoder.decode([P6Keyed].self, from: payload).count },
        encode: { try encoder.encode(keyed).count }),
      Implementation(
        name: "handwritten",
        decode: { try decoder.decode([P6Handwritten].self, from: payload).count },
        encode: { try encoder.encode(handwritten).count }),
      Implementation(
        name: "keyedjson",
        decode: { try jsonDecoder.decode([P6Keyed].self, from: payload).count },
        encode: { try jsonEncoder.encode(keyed).count }),
      Implementation(
        name: "synthesizedjson",
        decode: { try jsonDecoder.decode([P6Synthesized.L0].self, from: payload).count },
        encode: { try jsonEncoder.encode(synthesized).count }),
    ],
    validate: {
      try expectAllEqual(
        [
          ("synthesized", synthesized.map(P6Synthesized.value(of:))),
          ("keyedcodable", keyed.map(\.value)),
          ("handwritten", handwritten.map(\.value)),
        ], "P6 decode")
      try expectAllEqual(
        [
          (
            "synthesized",
            try decoder.decode([P6Synthesized.L0].self, from: encoder.encode(synthesized)).map(
              P6Synthesized.value(of:))
          ),
          (
            "keyedcodable",
            try decoder.decode([P6Keyed].self, from: encoder.encode(keyed)).map(\.value)
          ),
          (
            "handwritten",
            try decoder.decode([P6Handwritten].self, from: encoder.encode(handwritten)).map(\.value)
          ),
        ], "P6 encode round trip")
      try expectAllEqual(
        [
          ("synthesized", synthesized.map(P6Synthesized.value(of:))),
          ("keyedjson", try jsonDecoder.decode([P6Keyed].self, from: payload).map(\.value)),
          (
            "keyedjson round trip",
            try jsonDecoder.decode([P6Keyed].self, from: jsonEncoder.encode(keyed)).map(\.value)
          ),
          (
            "keyedjson read by JSONDecoder",
            try decoder.decode([P6Keyed].self, from: jsonEncoder.encode(keyed)).map(\.value)
          ),
        ], "P6 keyedjson")
      try expectAllEqual(
        [
          ("synthesized", synthesized.map(P6Synthesized.value(of:))),
          (
            "synthesizedjson",
            try jsonDecoder.decode([P6Synthesized.L0].self, from: payload).map(
              P6Synthesized.value(of:))
          ),
          (
            "synthesizedjson round trip",
            try jsonDecoder.decode([P6Synthesized.L0].self, from: jsonEncoder.encode(synthesized))
              .map(P6Synthesized.value(of:))
          ),
        ], "P6 synthesizedjson")
    })
}
