import Foundation
import KeyedCodable
import KeyedExamples
import Testing

/// The example of `keyed-examples` for unknown members prints what the article says.
@Suite struct UnmappedMembersExampleTests {
  @Test func theExampleKeepsTheWholeDocument() throws {
    let output = try Example.unmappedMembers.run()
    #expect(
      output.decoded == [
        "theme = light",
        "fontSize = 12",
        "displayExtra = [\"contrast\"]",
        "extra = [\"revision\", \"sync\"]",
        "displayExtra[\"contrast\"] = 1.10 (its text)",
      ])
    #expect(
      output.encoded
        == #"{"display":{"contrast":1.10,"font":{"size":12},"theme":"dark"},"revision":41,"#
        + #""sync":{"devices":["mac","phone"],"enabled":true}}"#)
  }
}
