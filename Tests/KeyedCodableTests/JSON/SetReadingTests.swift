import Foundation
import KeyedCodable
import Testing

/// Sets are read as the arrays they are written as, then inserted in order: values, errors and
/// their paths are Foundation's, and of equal elements the first stays.
struct SetReadingTests {
  struct Tagged: Codable, Equatable {
    var tags: Set<String>
    var ids: Set<Int>
    var scores: Set<Double>
    var points: Set<Point>?
  }

  struct Point: Codable, Hashable {
    var x: Int
    var y: Int
  }

  @Test(arguments: [
    #"[]"#,
    #"["a","b","a","c"]"#,
    #"["ü","\u00fc","u\u0308",""]"#,
    #"[1,2,2,3]"#,
    // Elements of the wrong kind, null elements and values that are not arrays.
    #"["a",1]"#,
    #"["a",null]"#,
    #"[1,true]"#,
    #"[1,"2"]"#,
    #"{"a":1}"#,
    #""a""#,
    #"null"#,
  ])
  func aSetReadsAsFoundationReadsIt(json: String) {
    DecoderPair().expectSame(Set<String>.self, from: json)
    DecoderPair().expectSame(Set<Int>.self, from: json)
    DecoderPair().expectSame(Set<Double>.self, from: json)
    DecoderPair().expectSame(
      Tagged.self, from: #"{"tags":\#(json),"ids":\#(json),"scores":\#(json)}"#)
    DecoderPair().expectSame(
      Tagged.self, from: #"{"tags":["x"],"ids":[1],"scores":[0.5],"points":\#(json)}"#)
  }

  @Test func setsOfModelsAndOfSetsReadAsFoundationReadsThem() {
    DecoderPair().expectSame(
      Tagged.self,
      from:
        #"{"tags":[],"ids":[],"scores":[],"points":[{"x":1,"y":2},{"x":1,"y":2},{"x":3,"y":4}]}"#)
    DecoderPair().expectSame(
      Tagged.self, from: #"{"tags":[],"ids":[],"scores":[],"points":[{"x":1,"y":2},{"x":1}]}"#)
    DecoderPair().expectSame([Set<Int>].self, from: #"[[1,2],[],[3,3],[4,"5"]]"#)
    DecoderPair().expectSame(Set<Double>.self, from: #"[1,2.5,2.50,-0.0,0]"#)
    DecoderPair().expectSame([String: Set<String>].self, from: #"{"a":["x","y"],"b":["x",7]}"#)
  }

  @Test func ofEqualStringsTheFirstStays() throws {
    // U+00FC and "u" with a combining diaeresis are one `String` for `==`: the set keeps the
    // element inserted first, as the standard library's `init(from:)` does.
    for json in [#"["\u00fc","u\u0308"]"#, #"["u\u0308","\u00fc"]"#] {
      let data = Data(json.utf8)
      let ours = try KeyedJSONDecoder().decode(Set<String>.self, from: data)
      let foundation = try JSONDecoder().decode(Set<String>.self, from: data)
      #expect(ours.count == 1)
      #expect(ours.map { Array($0.unicodeScalars) } == foundation.map { Array($0.unicodeScalars) })
    }
  }

  @Test func aLargeSet() throws {
    var random = SeededGenerator(seed: 11)
    let words = (0..<5_000).map { _ in String(random.next() % 3_000, radix: 36) }
    let numbers = (0..<5_000).map { _ in Int(truncatingIfNeeded: random.next() % 2_000) }
    let value = Tagged(
      tags: Set(words), ids: Set(numbers), scores: Set(numbers.map { Double($0) / 4 }),
      points: Set(numbers.prefix(100).map { Point(x: $0, y: -$0) }))
    let data = try JSONEncoder().encode(value)
    #expect(try KeyedJSONDecoder().decode(Tagged.self, from: data) == value)
    let pair = DecoderPair()
    #expect(pair.decode(Tagged.self, from: data).ours.success == value)
  }
}
