import Foundation
import KeyedCodable
import Testing

/// A `[[Double]]` (a list of points) has a loop of its own in the JSON coder's reader: values,
/// errors and their paths are Foundation's, whatever its elements hold.
struct ScalarArrayReadingTests {
  struct Shape: Codable, Equatable {
    var points: [[Double]]
    var rings: [[[Double]]]
  }

  @Test(arguments: [
    #"[[1,2],[3.5,-4e-3],[],[1e308,5e-324,-0.0]]"#,
    #"[]"#,
    #"[[]]"#,
    #"[[1],[2,3],[4,5,6]]"#,
    // Elements that are not arrays, or arrays of something else: the general way's errors.
    #"[[1,2],null]"#,
    #"[[1,2],3]"#,
    #"[[1,2],{"a":1}]"#,
    #"[[1,"2"]]"#,
    #"[[1,null]]"#,
    #"[[1,[2]]]"#,
    #"[[1,true]]"#,
    #"{"a":[1]}"#,
  ])
  func aListOfPointsReadsAsFoundationReadsIt(json: String) {
    DecoderPair().expectSame([[Double]].self, from: json)
    // The same list inside a model and inside a list of lists.
    DecoderPair().expectSame(
      Shape.self, from: #"{"points":\#(json),"rings":[[[0]],\#(json)]}"#)
  }

  @Test func aNumberThatDoesNotFitIsReportedWhereItIs() {
    // The documented difference from Foundation, which reports it at the root.
    do {
      _ = try KeyedJSONDecoder().decode(
        Shape.self, from: Data(#"{"points":[[1],[2,1e400]],"rings":[]}"#.utf8))
      Issue.record("read 1e400 as a Double")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.map(\.stringValue) == ["points", "Index 1", "Index 1"])
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func aLongListOfPoints() throws {
    var random = SeededGenerator(seed: 7)
    let points = (0..<2_000).map { _ in
      (0..<Int(random.next() % 4)).map { _ in Double(Int64(bitPattern: random.next()) >> 20) / 7 }
    }
    let data = try JSONEncoder().encode(points)
    #expect(try KeyedJSONDecoder().decode([[Double]].self, from: data) == points)
    let pair = DecoderPair()
    #expect(pair.decode([[Double]].self, from: data).ours.success == points)
  }
}
