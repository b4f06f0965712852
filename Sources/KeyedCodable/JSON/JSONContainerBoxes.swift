/// The keyed containers a JSON coder made, kept so that each can be handed out again.
///
/// `KeyedDecodingContainer(_:)` and `KeyedEncodingContainer(_:)` look up the metadata of two
/// generic types (the coder's container for the key type, and the standard library's box around
/// it), find a conformance, and allocate the box: a thousand instructions or more, the biggest
/// part of reading or writing a synthesized object of a few members, paid again on freeing the
/// box. A coder keeps what it made here, with the state object its container points to, and
/// reuses a container of the same key type once nothing else refers to it (the code that asked
/// for it returned without keeping a copy), after pointing the state at the new object.
///
/// The stored container is the standard library's container struct reinterpreted as the one
/// reference it holds. Whether the container is one reference is checked against the
/// containers the coder makes (see ``isOneReference(_:)``) before any is kept; if it is not,
/// nothing is kept and every container is made anew. A kept container is made again from that
/// reference by a ``JSONTypedContainerRebuilder`` kept beside it, so that handing one out looks
/// up no metadata (see ``Kept/container(as:)``).
///
/// Containers are kept in a table of ``slots`` slots; a hash of the key type and the nesting
/// depth picks a group of ``ways`` of them, so finding one costs the same whatever the model:
/// values of one type nested in each other (a tree) or of several types side by side at one
/// depth each get a slot of their own unless more than ``ways`` hash alike. A slot whose
/// container is in use is left as it is; the first slot of the group that is empty or whose
/// container is free takes a new container; when none is, the new container is made and not
/// kept, as before.
struct JSONContainerBoxes<State: AnyObject> {
  /// One slot: a kept container, or none.
  private struct Entry {
    /// The key type, `ObjectIdentifier(Key.self)`.
    var key: ObjectIdentifier?
    /// The nesting depth the container was made at.
    var depth = 0
    /// The standard library's container, as the reference it is.
    var box: AnyObject?
    /// The object the container reads or writes through.
    var state: State?
    /// What makes the container again from ``box``, knowing its type.
    var rebuilder: JSONContainerRebuilder?
  }

  /// A kept container found free: the reference it is, and what makes it from that reference.
  struct Kept {
    /// The standard library's container, as the reference it is.
    let box: AnyObject
    /// A ``JSONTypedContainerRebuilder`` of the container's type, which its slot keeps.
    let rebuilder: Unmanaged<JSONContainerRebuilder>

    /// The container, as `type`: the type it was kept as, which a table's key type decides
    /// (a coder keeps one kind of container per table; a debug build checks the type).
    ///
    /// The standard library's containers are resilient: code outside it moves one through its
    /// type's metadata, and a generic method that returns one for a key type it only knows at
    /// run time looks that metadata up (about 330 instructions, a sixth of reading a
    /// synthesized object of two members). The rebuilder, made when the container was kept,
    /// holds the metadata as its own generic argument, which its method reads from the object.
    @inline(__always)
    consuming func container<Container>(as type: Container.Type) -> Container {
      rebuilder._withUnsafeGuaranteedRef {
        unsafeDowncast($0, to: JSONTypedContainerRebuilder<Container>.self)
          .container(from: box)
      }
    }
  }

  /// The number of slots: a power of two.
  static var slots: Int { 256 }
  /// The slots a key type and depth may use: `first ^ 0` to `first ^ (ways - 1)`, a power of two.
  static var ways: Int { 4 }

  /// The slots, made when the coder has made ``madeBeforeKeeping`` containers (a decode that
  /// reads a few objects through containers allocates nothing).
  private var entries: [Entry] = []
  /// The slots that hold a container, in the order they were filled.
  private var occupied: [Int] = []
  /// Whether the containers were found to be one reference each (`nil`: not looked at yet).
  private var oneReference: Bool?
  /// The containers made before the slots were.
  private var made = 0

  /// The containers a coder makes before it keeps any.
  static var madeBeforeKeeping: Int { 4 }

  /// The first of the slots of containers of key type `key` made at nesting depth `depth`.
  ///
  /// The others are its neighbours (see ``ways``). Fibonacci hashing of the two: whatever a
  /// document nests, a collision only costs a container made anew. Internal for tests.
  @inline(__always)
  static func slot(for key: ObjectIdentifier, depth: Int) -> Int {
    let mixed =
      (UInt(bitPattern: key) &>> 4 ^ UInt(bitPattern: depth) &* 0x9E37_79B9)
      &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed &>> 56)
  }

  /// The kept container of key type `key` made at nesting depth `depth`, if nothing else refers
  /// to it, after `point` has pointed its state at the next object; `nil` otherwise.
  ///
  /// Not generic over the container's type, so that finding one looks up no metadata: the
  /// caller makes the container with ``Kept/container(as:)``.
  @inline(__always)
  mutating func reuse(for key: ObjectIdentifier, depth: Int, pointing point: (State) -> Void)
    -> Kept?
  {
    guard !entries.isEmpty else { return nil }
    let first = Self.slot(for: key, depth: depth)
    for way in 0..<Self.ways {
      let slot = first ^ way
      if entries[slot].key == key, entries[slot].depth == depth,
        isKnownUniquelyReferenced(&entries[slot].box), let box = entries[slot].box,
        let rebuilder = entries[slot].rebuilder.map(Unmanaged.passUnretained),
        let state = entries[slot].state.map(Unmanaged.passUnretained)
      {
        // The slot holds the state, and the box holds it too: it is lent to `point`
        // without a retain.
        state._withUnsafeGuaranteedRef(point)
        return Kept(box: box, rebuilder: rebuilder)
      }
    }
    return nil
  }

  /// Keeps `container`, the reference `Container` holds, with its `state`, in the first slot of
  /// `key` and `depth` that is empty, or else in the first whose container is not in use.
  ///
  /// Empty slots first: two key types whose first slots are the same (more likely than not
  /// among 25 key types and 256 slots, as metadata addresses fall) would otherwise take turns in
  /// that slot, each evicting the other's free container, and every object of both would make
  /// a new container (twitter.json in one build: 146 per decode instead of none).
  ///
  /// Inlined into the coder's method, which knows `State`: a call that only counts a container
  /// (the first few of each encode or decode) then touches no generic metadata, where the
  /// generic method looked up that of ``Entry`` and of its array, about 700 instructions, on
  /// every call (a decode of a five-member object: 12.5K in all).
  @inline(__always)
  mutating func keep<Container>(
    _ container: Container, state: State, for key: ObjectIdentifier, depth: Int
  ) {
    if entries.isEmpty {
      // A coder that makes only a few containers keeps none rather than allocating the slots
      // (or, the first time in the process, reflecting on a container).
      made &+= 1
      guard made >= Self.madeBeforeKeeping else { return }
      if oneReference == nil {
        oneReference = Self.isOneReference(container)
      }
      guard oneReference == true else { return }
      makeSlots()
    }
    guard let slot = freeSlot(for: key, depth: depth) else { return }
    // A slot that held a container of the same key type has a rebuilder of the same type.
    let rebuilder =
      entries[slot].key == key
      ? entries[slot].rebuilder ?? JSONTypedContainerRebuilder<Container>()
      : JSONTypedContainerRebuilder<Container>()
    fill(
      slot,
      with: Entry(
        key: key, depth: depth, box: unsafeBitCast(container, to: AnyObject.self), state: state,
        rebuilder: rebuilder))
  }

  /// Makes the empty slots.
  @inline(never)
  private mutating func makeSlots() {
    entries = Array(repeating: Entry(), count: Self.slots)
  }

  /// The first slot of `key` and `depth` that is empty, or else the first whose container is
  /// not in use (see ``keep(_:state:for:depth:)``); `nil` when every one is in use.
  @inline(never)
  private mutating func freeSlot(for key: ObjectIdentifier, depth: Int) -> Int? {
    let first = Self.slot(for: key, depth: depth)
    let free =
      (0..<Self.ways).first { entries[first ^ $0].box == nil }
      ?? (0..<Self.ways).first { isKnownUniquelyReferenced(&entries[first ^ $0].box) }
    return free.map { first ^ $0 }
  }

  /// Puts `entry` in `slot`, noting the slot when it was empty.
  @inline(never)
  private mutating func fill(_ slot: Int, with entry: Entry) {
    if entries[slot].box == nil {
      occupied.append(slot)
    }
    entries[slot] = entry
  }

  /// Readies the kept containers for the next decode of a decoder kept between decodes: the
  /// state of each container nothing else refers to is handed to `detach` (which makes it let go
  /// of the coder), and the others are let go, as the code that kept them may still use them.
  ///
  /// Looks at the slots that hold a container only, not at all ``slots``.
  mutating func park(detaching detach: (State) -> Void) {
    var kept = 0
    for index in occupied.indices {
      let slot = occupied[index]
      if isKnownUniquelyReferenced(&entries[slot].box), let state = entries[slot].state {
        detach(state)
        occupied[kept] = slot
        kept &+= 1
      } else {
        entries[slot] = Entry()
      }
    }
    if kept < occupied.count {
      occupied.removeLast(occupied.count &- kept)
    }
  }

  /// Lets go of every container kept (each refers to the coder through its state).
  mutating func removeAll() {
    guard made != 0 || !entries.isEmpty else { return }
    entries.removeAll()
    occupied.removeAll()
    made = 0
  }

  /// Whether `container` is one strong reference to an object and nothing else, so that it can
  /// be stored as that reference and rebuilt from it with `unsafeBitCast`.
  ///
  /// The size is known when the code is compiled; the reflection runs once per process and
  /// kind of state (see ``oneReferenceContainers``).
  private static func isOneReference<Container>(_ container: Container) -> Bool {
    guard MemoryLayout<Container>.size == MemoryLayout<AnyObject>.size,
      MemoryLayout<Container>.alignment == MemoryLayout<AnyObject>.alignment
    else { return false }
    let kind = ObjectIdentifier(State.self)
    if let known = oneReferenceContainers.withLock({ $0[kind] }) {
      return known
    }
    let children = Mirror(reflecting: container).children
    let found =
      children.count == 1 && children.first.map { type(of: $0.value) is AnyObject.Type } == true
    oneReferenceContainers.withLock { $0[kind] = found }
    return found
  }
}

/// Makes a kept container again from the reference it is (see ``JSONContainerBoxes/Kept``).
class JSONContainerRebuilder {}

/// Makes a kept container of type `Container` again from the reference it is.
final class JSONTypedContainerRebuilder<Container>: JSONContainerRebuilder {
  /// `box` as the container it is.
  ///
  /// Never inlined: here `Container`'s metadata is this object's generic argument, where the
  /// caller would look it up.
  @inline(never)
  func container(from box: consuming AnyObject) -> Container {
    unsafeBitCast(box, to: Container.self)
  }
}

/// What ``JSONContainerBoxes`` found of the standard library's keyed containers, by the type of
/// the state its containers point to (one for decoding, one for encoding).
private let oneReferenceContainers = Locked<[ObjectIdentifier: Bool]>([:])
