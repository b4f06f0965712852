import Foundation
import KeyedCodable
import Testing

/// Members of a wrapper type (not `RawRepresentable`) whose `Codable` implementation reads or
/// writes one value: once the JSON coders have seen it open no container, they give its members
/// their place without a coding path node. A wrapper that opens a container only for some values
/// must still get the paths and errors Foundation gives it, before and after it was learned.
struct SingleValueMemberTests {
  /// A string, or an object with a `text` member; notes the path it was decoded at.
  struct Either: Codable, Equatable {
    var text: String
    var path = ""
    var containerPath = ""
    var ratio = 1.0

    init(text: String, ratio: Double = 1) {
      self.text = text
      self.ratio = ratio
    }

    enum CodingKeys: String, CodingKey {
      case text, ratio, path, container
    }

    init(from decoder: any Decoder) throws {
      path = decoder.codingPath.map(CodingErrorShape.describe).joined(separator: ".")
      if let text = try? decoder.singleValueContainer().decode(String.self) {
        self.text = text
        return
      }
      let container = try decoder.container(keyedBy: CodingKeys.self)
      containerPath = container.codingPath.map(CodingErrorShape.describe).joined(separator: ".")
      text = try container.decode(String.self, forKey: .text)
    }

    /// A text of more than one letter is written as an object.
    func encode(to encoder: any Encoder) throws {
      let path = encoder.codingPath.map(CodingErrorShape.describe).joined(separator: ".")
      guard text.count > 1 else {
        var container = encoder.singleValueContainer()
        try container.encode(text + "@" + path)
        return
      }
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(text, forKey: .text)
      try container.encode(path, forKey: .path)
      try container.encode(
        container.codingPath.map(CodingErrorShape.describe).joined(separator: "."),
        forKey: .container)
      try container.encode(ratio, forKey: .ratio)
    }
  }

  struct Row: Codable, Equatable {
    var id: Int
    var either: Either
    var spare: Either?
  }

  let decoders = DecoderPair()
  let encoders = EncoderPair()

  @Test func aWrapperThatSometimesOpensAContainerDecodesAsInFoundation() throws {
    let json = #"""
      [{"id":1,"either":"a","spare":"b"},{"id":2,"either":{"text":"c"}},
       {"id":3,"either":"d","spare":{"text":"e"}}]
      """#
    let rows = try #require(decoders.expectSame([Row].self, from: json).success)
    #expect(rows.map(\.either.text) == ["a", "c", "d"])
    #expect(
      rows.map(\.either.path) == ["Index 0#0.either", "Index 1#1.either", "Index 2#2.either"])
    #expect(rows.map(\.either.containerPath) == ["", "Index 1#1.either", ""])
    #expect(rows[2].spare?.containerPath == "Index 2#2.spare")
    let bad = decoders.expectSame(
      [Row].self, from: #"[{"id":1,"either":"a"},{"id":2,"either":{"text":5}}]"#)
    #expect(
      bad == .error(CodingErrorShape("typeMismatch(String)", at: ["Index 1#1", "either", "text"])))
    let missing = decoders.expectSame(
      [String: Row].self, from: #"{"k":{"id":1,"either":"a"},"m":{"id":2,"either":{}}}"#)
    #expect(missing == .error(CodingErrorShape("keyNotFound(text)", at: ["m", "either"])))
  }

  @Test func aWrapperThatSometimesOpensAContainerEncodesAsInFoundation() throws {
    let rows = [
      Row(id: 1, either: Either(text: "a"), spare: Either(text: "b")),
      Row(id: 2, either: Either(text: "cc"), spare: nil),
      Row(id: 3, either: Either(text: "d"), spare: Either(text: "ee")),
    ]
    #expect(
      encoders.expectSame(rows)
        == .value(
          #"[{"either":"a@Index 0#0.either","id":1,"spare":"b@Index 0#0.spare"},"#
            + #"{"either":{"container":"Index 1#1.either","path":"Index 1#1.either","ratio":1,"#
            + #""text":"cc"},"id":2},{"either":"d@Index 2#2.either","id":3,"#
            + #""spare":{"container":"Index 2#2.spare","path":"Index 2#2.spare","ratio":1,"#
            + #""text":"ee"}}]"#))
    let bad = [
      Row(id: 1, either: Either(text: "a"), spare: nil),
      Row(id: 2, either: Either(text: "b"), spare: Either(text: "ff", ratio: .nan)),
    ]
    #expect(
      encoders.expectSame(bad)
        == .error(CodingErrorShape("invalidValue", at: ["Index 1#1", "spare", "ratio"])))
  }
}
