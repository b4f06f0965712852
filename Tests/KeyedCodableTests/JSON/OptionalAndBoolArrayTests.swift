import Foundation
import KeyedCodable
import Testing

/// Optionals and `Bool`s are read and written by the JSON coder itself rather than through
/// their own `Codable` and a single value container: values, errors and paths stay Foundation's.
struct OptionalAndBoolArrayTests {
  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
  }

  /// A value that encodes nothing: Foundation writes `{}` for it.
  struct Nothing: Codable, Equatable {
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
  }

  struct Model: Codable, Equatable {
    var flags: [Bool]
    var counts: [Int?]
    var names: [String?]
    var points: [Point?]
    var lists: [[Double]?]
    var table: [String: Bool?]
  }

  @Test(arguments: [
    #"[true,false,true]"#, "[]", "[true,null]", "[true,1]", #"[true,"true"]"#, "[[true]]",
    #"{"a":true}"#, "null", "true",
  ])
  func boolArraysReadAsFoundationReadsThem(json: String) {
    let decoders = DecoderPair()
    decoders.expectSame([Bool].self, from: json)
    decoders.expectSame([[Bool]].self, from: "[\(json)]")
    decoders.expectSame([String: [Bool]].self, from: #"{"k":\#(json)}"#)
  }

  @Test(arguments: [
    "[1,null,3]", "[]", "[null]", "[null,null]", "[2.0]", #"["1"]"#, "[true]", "[[1]]",
    #"[{"x":1}]"#, "null", "1",
  ])
  func arraysOfOptionalsReadAsFoundationReadsThem(json: String) {
    let decoders = DecoderPair()
    decoders.expectSame([Int?].self, from: json)
    decoders.expectSame([Double?].self, from: json)
    decoders.expectSame([String?].self, from: json)
    decoders.expectSame([Bool?].self, from: json)
    decoders.expectSame([Int??].self, from: json)
    decoders.expectSame([[Int]?].self, from: json)
    decoders.expectSame([Point?].self, from: json)
    decoders.expectSame([String: Int?].self, from: #"{"a":\#(json)}"#)
    decoders.expectSame([String: [Int?]].self, from: #"{"a":\#(json)}"#)
    decoders.expectSame(Int?.self, from: json)
  }

  @Test func modelsWithOptionalElementsReadAsFoundationReadsThem() {
    let decoders = DecoderPair()
    let good =
      #"{"flags":[true,false],"counts":[1,null],"names":[null,"a"],"#
      + #""points":[{"x":1,"y":2},null],"lists":[[1.5],null,[]],"table":{"a":true,"b":null}}"#
    #expect(
      decoders.expectSame(Model.self, from: good).success
        == Model(
          flags: [true, false], counts: [1, nil], names: [nil, "a"],
          points: [Point(x: 1, y: 2), nil], lists: [[1.5], nil, []],
          table: ["a": true, "b": Bool?.none]))
    // Each wrong value is reported at its own path, with Foundation's words.
    for wrong in [
      #""flags":[true,null]"#, #""counts":[1,"2"]"#, #""names":[null,3]"#,
      #""points":[null,{"x":1}]"#, #""lists":[null,[1,"x"]]"#, #""table":{"a":1}"#,
    ] {
      let fields = [
        #""flags":[]"#, #""counts":[]"#, #""names":[]"#, #""points":[]"#, #""lists":[]"#,
        #""table":{}"#,
      ]
      let name = wrong.prefix { $0 != ":" }
      let json =
        "{" + (fields.filter { !$0.hasPrefix(name) } + [wrong]).joined(separator: ",") + "}"
      #expect(decoders.expectSame(Model.self, from: json).success == nil, "\(json)")
    }
  }

  /// A number that doesn't fit is reported where it is, as for any number (the documented
  /// difference from Foundation, which reports it at the root).
  @Test(arguments: ["[null,1.5]", "[null,1e400]"])
  func aNumberThatDoesNotFitAnOptionalIsReportedAtItsIndex(json: String) {
    for read in [
      { _ = try KeyedJSONDecoder().decode([Int?].self, from: Data(json.utf8)) },
      { _ = try KeyedJSONDecoder().decode([Float?].self, from: Data(json.utf8)) },
    ] as [() throws -> Void] {
      do {
        try read()
        if json.contains("1e400") { Issue.record("read \(json)") }
      } catch DecodingError.dataCorrupted(let context) {
        #expect(context.codingPath.map(\.stringValue) == ["Index 1"])
      } catch {
        Issue.record("unexpected \(error)")
      }
    }
  }

  /// `null` for a `Bool` is a type mismatch in Foundation, wherever it is, not a value not found
  /// as for other types. (Fixed: ours threw `valueNotFound`.)
  @Test func aNullBoolIsATypeMismatchAsInFoundation() {
    struct Flag: Codable, Equatable { var on: Bool }
    let decoders = DecoderPair()
    decoders.expectSame(Flag.self, from: #"{"on":null}"#)
    decoders.expectSame(Bool.self, from: "null")
    decoders.expectSame([String: Bool].self, from: #"{"a":null}"#)
    decoders.expectSame([[Bool]].self, from: "[[null]]")
    do {
      _ = try KeyedJSONDecoder().decode(Flag.self, from: Data(#"{"on":null}"#.utf8))
      Issue.record("read null as a Bool")
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(context.debugDescription == "Expected to decode Bool but found null instead.")
      #expect(context.codingPath.map(\.stringValue) == ["on"])
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func anOptionalElementsErrorNamesItsIndex() {
    do {
      _ = try KeyedJSONDecoder().decode(
        [String: [Int?]].self, from: Data(#"{"a":[null,2,"3"]}"#.utf8))
      Issue.record("read a string as an Int")
    } catch DecodingError.typeMismatch(let type, let context) {
      #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
      #expect(context.codingPath.map(\.stringValue) == ["a", "Index 2"])
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func optionalsAndBoolsWriteAsFoundationWritesThem() {
    let encoders = EncoderPair()
    encoders.expectSame([true, false, true])
    encoders.expectSame([Int?]([1, nil, 3]))
    encoders.expectSame([String?]([nil, "a\"b", nil]))
    encoders.expectSame([Double?]([1.5, nil, -0.0]))
    encoders.expectSame([Int??]([.some(nil), .some(2), nil]))
    encoders.expectSame([Point?]([Point(x: 1, y: 2), nil]))
    encoders.expectSame([[Double]?]([[1, 2], nil, []]))
    encoders.expectSame([Nothing?]([Nothing(), nil]))
    encoders.expectSame(["a": Int?.none, "b": 2])
    encoders.expectSame(Int?.none)
    encoders.expectSame(Point?.some(Point(x: 3, y: 4)))
    encoders.expectSame(
      Model(
        flags: [false], counts: [nil, 7], names: ["x"], points: [nil],
        lists: [nil, [2.5]], table: ["k": false, "n": Bool?.none]))
  }

  @Test func aBadNumberInsideAnOptionalIsReportedAtItsIndex() {
    let encoders = EncoderPair()
    let values: [Double?] = [1, nil, .nan]
    let (ours, foundation) = encoders.encode(values)
    #expect(ours == foundation)
    do {
      _ = try KeyedJSONEncoder().encode(["v": values])
      Issue.record("wrote NaN")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["v", "Index 2"])
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func longArraysRoundTrip() throws {
    var random = SeededGenerator(seed: 11)
    let flags = (0..<3_000).map { _ in random.next() & 1 == 0 }
    let counts: [Int?] = (0..<3_000).map { _ in
      let bits = random.next()
      return bits % 3 == 0 ? nil : Int(truncatingIfNeeded: bits >> 2)
    }
    let model = Model(
      flags: flags, counts: counts, names: counts.map { $0.map(String.init) }, points: [],
      lists: [], table: [:])
    EncoderPair().expectSame(model)
    let data = try KeyedJSONEncoder().encode(model)
    let decoded = try KeyedJSONDecoder().decode(Model.self, from: data)
    #expect(decoded == model)
    #expect(try JSONDecoder().decode(Model.self, from: data) == model)
  }
}
