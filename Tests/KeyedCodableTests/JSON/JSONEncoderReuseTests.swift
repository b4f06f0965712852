import Foundation
import KeyedCodable
import Testing

/// An encoder that writes documents of changing sizes writes each as a fresh encoder would (its
/// first buffer follows the sizes it wrote before).
@Suite struct JSONEncoderReuseTests {
  @Test func documentsOfChangingSizesAreWrittenAsByAFreshEncoder() throws {
    let shared = KeyedJSONEncoder()
    let sizes = [10, 50_000, 3, 200_000, 200_000, 1, 1, 20_000, 0, 300_000, 2]
    for size in sizes {
      let values = (0..<size).map { "value \($0)" }
      let data = try shared.encode(values)
      #expect(data == (try KeyedJSONEncoder().encode(values)), "\(size) values")
      #expect(try JSONDecoder().decode([String].self, from: data) == values)
      let bytes = try shared.encodeBytes(values)
      #expect(Data(bytes) == data)
    }
  }
}
