/// A stack of plain values in plain memory, for state a hot path changes on every step.
///
/// An array stored in a class checks that its buffer is unique on every change; this stack
/// only checks its capacity when it grows. It cannot be copied, so its memory has one owner.
/// Callers keep positions below ``count``.
struct RawStack<Element: BitwiseCopyable>: ~Copyable {
  private var base: UnsafeMutablePointer<Element>
  /// The number of elements.
  private(set) var count = 0
  private var capacity: Int

  /// Creates an empty stack with room for `capacity` elements.
  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 4)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  /// Whether the stack is empty.
  var isEmpty: Bool { count == 0 }

  /// The element at `position`, which must be below ``count``.
  @inline(__always)
  subscript(position: Int) -> Element {
    unsafeAddress { UnsafePointer(base + position) }
    nonmutating unsafeMutableAddress { base + position }
  }

  /// Pushes `element`.
  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity {
      grow()
    }
    (base + count).initialize(to: element)
    count &+= 1
  }

  /// Pops the top element; the stack must not be empty.
  @inline(__always)
  mutating func removeLast() -> Element {
    count &-= 1
    return base[count]
  }

  /// Drops the elements from position `newCount` on.
  @inline(__always)
  mutating func truncate(to newCount: Int) {
    count = newCount
  }

  private mutating func grow() {
    let newCapacity = capacity &* 2
    let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    grown.moveInitialize(from: base, count: count)
    base.deallocate()
    base = grown
    capacity = newCapacity
  }
}
