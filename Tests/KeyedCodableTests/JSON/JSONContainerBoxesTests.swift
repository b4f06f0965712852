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
    boxes.reuse(for: key, depth: 1, pointing: { _ in })?.container(as: Container.self) != nil
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

  @Test func aKeptContainerComesBackAsItWasOnceFree() {
    var boxes = JSONContainerBoxes<State>()
    let key = ObjectIdentifier(State.self)
    // The last container kept, known by its identity: holding it would keep it in use.
    var kept = (box: ObjectIdentifier(Box.self), state: State())
    for _ in 0..<JSONContainerBoxes<State>.madeBeforeKeeping {
      let container = Container(box: Box())
      kept = (ObjectIdentifier(container.box), State())
      boxes.keep(container, state: kept.state, for: key, depth: 1)
    }
    let (box, state) = kept
    var pointed: State?
    var again = boxes.reuse(for: key, depth: 1, pointing: { pointed = $0 })?
      .container(as: Container.self)
    #expect(again.map { ObjectIdentifier($0.box) } == box)
    #expect(pointed === state)
    // In use: not handed out twice, and not at another depth.
    #expect(boxes.reuse(for: key, depth: 1, pointing: { _ in }) == nil)
    again = nil
    #expect(boxes.reuse(for: key, depth: 2, pointing: { _ in }) == nil)
    let last = boxes.reuse(for: key, depth: 1, pointing: { _ in })?.container(as: Container.self)
    #expect(last.map { ObjectIdentifier($0.box) } == box)
  }
}
