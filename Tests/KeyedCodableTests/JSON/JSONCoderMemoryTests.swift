import Foundation
import KeyedCodable
import Testing

/// What ``KeyedJSONDecoder`` and ``KeyedJSONEncoder`` keep for the next ``Keyedable`` value of a
/// run (key maps, runs, backends) is let go when the decode or the encode ends.
@Suite struct JSONCoderMemoryTests {
  /// The decoder or the encoder a value was last given, held weakly.
  final class CoderProbe: @unchecked Sendable {
    weak var coder: AnyObject?

    static let key = CodingUserInfoKey(rawValue: "memory.probe")!
  }

  struct Item: Codable, Keyedable {
    var id = 0
    var name: String?

    init(id: Int, name: String?) {
      self.id = id
      self.name = name
    }

    init(from decoder: any Decoder) throws {
      (decoder.userInfo[CoderProbe.key] as? CoderProbe)?.coder = decoder as AnyObject
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    func encode(to encoder: any Encoder) throws {
      (encoder.userInfo[CoderProbe.key] as? CoderProbe)?.coder = encoder as AnyObject
      try KeyedEncoder(with: encoder).encode(from: self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try name <-> map["info.name"]
    }
  }

  @Test func aDecodeOfKeyedableValuesLetsGoOfItsDecoder() throws {
    let probe = CoderProbe()
    var decoder: KeyedJSONDecoder? = KeyedJSONDecoder()
    decoder?.userInfo[CoderProbe.key] = probe
    let json = #"[{"id":1,"info":{"name":"a"}},{"id":2},{"id":3,"info":{"name":"c"}}]"#
    let items = try decoder?.decode([Item].self, from: Data(json.utf8))
    #expect(items?.map(\.id) == [1, 2, 3])
    #expect(items?.map(\.name) == ["a", nil, "c"])
    // Kept for the next small document, by the KeyedJSONDecoder only.
    #expect(probe.coder != nil)
    decoder = nil
    #expect(probe.coder == nil)

    // Also when the decode throws.
    decoder = KeyedJSONDecoder()
    decoder?.userInfo[CoderProbe.key] = probe
    #expect(throws: DecodingError.self) {
      try decoder?.decode([Item].self, from: Data(#"[{"id":1},{"id":"x"}]"#.utf8))
    }
    #expect(probe.coder != nil)
    decoder = nil
    #expect(probe.coder == nil)
  }

  @Test func aDecoderDroppedForNewOptionsOrALargeDocumentIsLetGo() throws {
    let probe = CoderProbe()
    let decoder = KeyedJSONDecoder()
    decoder.userInfo[CoderProbe.key] = probe
    _ = try decoder.decode([Item].self, from: Data(#"[{"id":1}]"#.utf8))
    #expect(probe.coder != nil)
    // New options: the kept decoder, whose kept runs' backends it owns, is let go.
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    #expect(probe.coder == nil)

    _ = try decoder.decode([Item].self, from: Data(#"[{"id":1}]"#.utf8))
    #expect(probe.coder != nil)
    // A document too large to keep its decoder.
    let large = "[" + (0..<5000).map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]"
    let items = try decoder.decode([Item].self, from: Data(large.utf8))
    #expect(items.count == 5000)
    #expect(probe.coder == nil)
  }

  @Test func anEncodeOfKeyedableValuesLetsGoOfItsEncoder() throws {
    let probe = CoderProbe()
    var encoder: KeyedJSONEncoder? = KeyedJSONEncoder()
    encoder?.userInfo[CoderProbe.key] = probe
    let json = try encoder?.encode([Item(id: 1, name: "a"), Item(id: 2, name: nil)])
    #expect(
      json.map { String(decoding: $0, as: UTF8.self) }
        == #"[{"id":1,"info":{"name":"a"}},{"id":2}]"#)
    // Kept for the next small document, by the KeyedJSONEncoder only.
    #expect(probe.coder != nil)
    encoder = nil
    #expect(probe.coder == nil)
  }

  @Test func anEncoderDroppedForNewOptionsOrALargeDocumentIsLetGo() throws {
    let probe = CoderProbe()
    let encoder = KeyedJSONEncoder()
    encoder.userInfo[CoderProbe.key] = probe
    _ = try encoder.encode([Item(id: 1, name: "a")])
    #expect(probe.coder != nil)
    // New options: the kept encoder, whose kept runs refer to it, is let go.
    encoder.outputFormatting = [.sortedKeys]
    #expect(probe.coder == nil)

    _ = try encoder.encode([Item(id: 1, name: "a")])
    #expect(probe.coder != nil)
    // A document too large to keep its encoder.
    let large = (0..<5000).map { Item(id: $0, name: "item \($0)") }
    _ = try encoder.encode(large)
    #expect(probe.coder == nil)
  }
}
