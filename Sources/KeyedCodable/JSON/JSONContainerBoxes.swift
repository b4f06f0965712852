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
/// nothing is kept and every container is made anew.
///
/// At most ``limit`` containers are kept (nesting and recursive types need several of one key
/// type at once); past it, containers are made as before.
struct JSONContainerBoxes<State: AnyObject> {
  /// One kept container.
  private struct Entry {
    /// The key type, `ObjectIdentifier(Key.self)`.
    let key: ObjectIdentifier
    /// The standard library's container, as the reference it is.
    var box: AnyObject
    /// The object the container reads or writes through.
    let state: State
  }

  /// The most containers kept.
  static var limit: Int { 16 }

  private var entries: [Entry] = []
  /// Whether the containers were found to be one reference each (`nil`: not looked at yet).
  private var oneReference: Bool?

  /// A kept container of key type `key` that nothing else refers to, as `Container`, after
  /// `point` has pointed its state at the next object; `nil` when none is free.
  @inline(__always)
  mutating func reuse<Container>(
    for key: ObjectIdentifier, as type: Container.Type, pointing point: (State) -> Void
  ) -> Container? {
    var index = entries.count
    while index > 0 {
      index &-= 1
      if entries[index].key == key, isKnownUniquelyReferenced(&entries[index].box) {
        point(entries[index].state)
        return unsafeBitCast(entries[index].box, to: Container.self)
      }
    }
    return nil
  }

  /// Keeps `container`, the reference `Container` holds, with its `state`, when fewer than
  /// ``limit`` are kept.
  mutating func keep<Container>(_ container: Container, state: State, for key: ObjectIdentifier) {
    guard entries.count < Self.limit else { return }
    if oneReference == nil {
      oneReference = Self.isOneReference(container)
    }
    guard oneReference == true else { return }
    entries.append(
      Entry(key: key, box: unsafeBitCast(container, to: AnyObject.self), state: state))
  }

  /// Lets go of every container kept (each refers to the coder through its state).
  mutating func removeAll() {
    entries.removeAll()
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

/// What ``JSONContainerBoxes`` found of the standard library's keyed containers, by the type of
/// the state its containers point to (one for decoding, one for encoding).
private let oneReferenceContainers = Locked<[ObjectIdentifier: Bool]>([:])
