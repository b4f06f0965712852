import Testing

@testable import KeyedCodable

/// The table of kept containers: key types whose first slots are the same both keep theirs.
struct JSONContainerBoxesTests {
  /// What a kept container reads through.
  final class State {}
  /// The object a container is.
  final class Box {}
  /// A container: one reference, as the standard library's keyed containers are.
  struct Container {
    var box: Box
  }

  /// Keeps a container of `key` in `boxes` and returns its box, for `reuse` to find.
  private func keep(_ key: ObjectIdentifier, in boxes: inout JSONContainerBoxes<State>) {
    boxes.keep(Container(box: Box()), state: State(), for: key, depth: 1)
  }

  private func reused(_ key: ObjectIdentifier, in boxes: inout JSONContainerBoxes<State>) -> Bool {
    boxes.reuse(for: key, depth: 1, as: Container.self, pointing: { _ in }) != nil
  }

  @Test func keyTypesOfOneSlotTakeNoTurns() throws {
    // Two key types (any object's identity stands for one) whose first slots are the same.
    let candidates = (0..<2_000).map { _ in State() }
    var bySlot: [Int: ObjectIdentifier] = [:]
    var pair: (ObjectIdentifier, ObjectIdentifier)?
    for candidate in candidates {
      let id = ObjectIdentifier(candidate)
      let slot = JSONContainerBoxes<State>.slot(for: id, depth: 1)
      if let other = bySlot[slot] {
        pair = (other, id)
        break
      }
      bySlot[slot] = id
    }
    let (first, second) = try #require(pair)
    var boxes = JSONContainerBoxes<State>()
    // The first containers a coder makes are not kept.
    for _ in 0..<JSONContainerBoxes<State>.madeBeforeKeeping {
      keep(first, in: &boxes)
    }
    #expect(reused(first, in: &boxes))
    keep(second, in: &boxes)
    // Both are found again, in turns, without being made anew.
    for _ in 0..<3 {
      #expect(reused(first, in: &boxes))
      #expect(reused(second, in: &boxes))
    }
  }
}
