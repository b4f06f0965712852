import Foundation
import KeyedCodable
import Testing

/// Member names of standard keyed containers, once the encoder keeps them as written: a name
/// new to its object is copied and noted at once, and every other case (a repeated name, a
/// write to an outer container after a nested one opened, a name outside ASCII, an object of
/// more names than its filter tells apart) writes what Foundation writes.
struct KeptMemberNameTests {
  /// Writes the members `steps` describe, in order, through one container of `AnyKey`s.
  struct Writer: Encodable {
    enum Step {
      /// A member written to the object's own container.
      case member(String, Int)
      /// A nested object holding one member, then a member written to the outer container.
      case nested(String, inner: String, then: String)
    }

    var steps: [Step]

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      for step in steps {
        switch step {
        case .member(let name, let value):
          try container.encode(value, forKey: AnyKey(stringValue: name))
        case .nested(let name, let inner, let then):
          var nested = container.nestedContainer(
            keyedBy: AnyKey.self, forKey: AnyKey(stringValue: name))
          try nested.encode(1, forKey: AnyKey(stringValue: inner))
          try container.encode(2, forKey: AnyKey(stringValue: then))
        }
      }
    }
  }

  /// Enough elements of one shape that the names are kept before the cases under test.
  private func expectSame(_ steps: [Writer.Step], sourceLocation: SourceLocation = #_sourceLocation)
  {
    let values = Array(repeating: Writer(steps: steps), count: 40)
    EncoderPair().expectSame(values, sourceLocation: sourceLocation)
    EncoderPair([.sortedKeys, .prettyPrinted]).expectSame(values, sourceLocation: sourceLocation)
  }

  @Test func newNamesAreWrittenAsInFoundation() {
    expectSame([.member("a", 1), .member("b", 2), .member("c", 3)])
  }

  @Test func aRepeatedNameKeepsFoundationsValue() {
    expectSame([.member("a", 1), .member("b", 2), .member("a", 3)])
    expectSame([.member("a", 1), .member("a", 2)])
  }

  @Test func membersWrittenAfterANestedObjectOpened() {
    expectSame([.member("a", 1), .nested("n", inner: "x", then: "b"), .member("c", 3)])
    // The member after the nested object repeats an earlier name, then the nested one's.
    expectSame([.member("a", 1), .nested("n", inner: "x", then: "a"), .member("n", 3)])
  }

  @Test func namesOutsideASCII() {
    expectSame([.member("\u{E9}", 1), .member("b", 2), .member("e\u{301}", 3)])
    expectSame([.member("na\u{EF}ve", 1), .member("caf\u{E9}", 2), .member("a", 3)])
  }

  @Test func objectsOfMoreNamesThanTheFilterTellsApart() {
    let names = (0..<70).map { "member\($0)" }
    expectSame(names.enumerated().map { .member($1, $0) })
    expectSame(names.enumerated().map { .member($1, $0) } + [.member("member3", -1)])
    expectSame(names.enumerated().map { .member($1, $0) } + [.member("member69", -1)])
  }
}
