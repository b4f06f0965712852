/// Plain values fixed when made, shared read-only: a buffer of plain memory that lives as long as
/// the object, whose address hot paths may keep while they keep the object.
///
/// A plan's tables are read on every mapping; read through an array in a class, each read may
/// retain the array. Through a ``FixedBuffer`` whose owner is held, a read is one load.
///
/// `@unchecked Sendable`: the elements are written once, in `init`, before the buffer can be
/// shared, and never again; the compiler cannot see that through a pointer.
final class FixedBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
  /// The first element.
  let base: UnsafeMutablePointer<Element>
  /// The number of elements.
  let count: Int

  /// Copies `elements`, followed by `padding` more copies of `filler` that readers may read past
  /// the end.
  init(_ elements: [Element], padding: Int = 0, filler: Element? = nil) {
    count = elements.count
    base = .allocate(capacity: Swift.max(count &+ padding, 1))
    elements.withUnsafeBufferPointer { source in
      if let start = source.baseAddress {
        base.initialize(from: start, count: count)
      }
    }
    if padding > 0, let filler {
      (base + count).initialize(repeating: filler, count: padding)
    }
  }

  deinit {
    base.deallocate()
  }

  /// The element at `position`, which must be below ``count``.
  @inline(__always)
  subscript(position: Int) -> Element {
    base[position]
  }
}
