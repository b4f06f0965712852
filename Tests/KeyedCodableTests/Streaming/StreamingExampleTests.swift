import Foundation
import KeyedCodable
import KeyedExamples
import Testing

/// The streaming example of `keyed-examples` prints what the article says.
@Suite struct StreamingExampleTests {
  @Test func theExampleStreamsDropsAndWritesLines() throws {
    let output = try Example.streaming.run()
    #expect(
      output.decoded == [
        "order 1 = Ada, 12.5",
        "order 3 = Grace, 7.0",
        "dropped: data.items[1]",
        "JSON Lines read back = 2 orders",
      ])
    #expect(
      output.encoded
        == #"{"id":1,"customer":{"name":"Ada"},"total":12.5}"# + "\n"
        + #"{"id":3,"customer":{"name":"Grace"},"total":7}"# + "\n")
  }
}
