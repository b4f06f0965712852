/// Member names of standard keyed containers as ``JSONStreamEncoder`` writes them (quoted and
/// escaped), with their fingerprints, kept for one encode: a name written again (a synthesized
/// `CodingKeys` case, once per object of its type) is copied, not scanned for bytes to escape
/// and hashed again.
///
/// A name's pair of slots is picked by a hash of its `String`'s representation (a name takes the
/// free one of the two), and a kept name is used only for a `String` of the same representation,
/// compared as two words: a literal (the `stringValue` of every synthesized key) or a small
/// string has the same representation every time, and its storage stays alive while the name is
/// kept, so the same words are the same text. Any other string (one made anew for each key) is
/// written as before; it would mostly hash to another pair anyway. Comparing texts instead cost
/// a name in the second slot of its pair a comparison with the first slot's name on every use.
/// A pair of slots, where a single slot would have a name of twitter's documents in eight
/// written again.
///
/// Bounds: 256 slots, never replaced, of names of at most 64 bytes as written: 28 KiB per
/// encode, made once it has written 32 names through standard containers (an encode of a few
/// small values makes none), and a document of names that never repeat (a dictionary's keys)
/// costs at most 256 names kept.
final class JSONRenderedNames {
  /// Where a kept name is, and what the repeat check needs of it.
  struct Rendered {
    /// The written name's first byte in ``bytes``.
    var offset: Int
    /// The written name's length, quotes included; `0` for an empty slot.
    var count: Int
    /// The fingerprint of the written name (see ``JSONNameIndex/NameHasher``).
    var fingerprint: UInt64
    /// Whether the written name is all ASCII.
    var isASCII: Bool
  }

  /// The number of slots: a power of two.
  private static var slotCount: Int { 256 }
  /// The longest written name kept.
  private static var maximumLength: Int { 64 }

  /// The name in each slot; `nil` until the first name is kept.
  ///
  /// Storage of its own rather than arrays: a lookup then retains nothing.
  private var names: UnsafeMutablePointer<String>?
  /// Where each slot's name is written.
  private var rendered: UnsafeMutablePointer<Rendered>?
  /// The written names, one after the other.
  private var bytes: UnsafeMutablePointer<UInt8>?
  /// The bytes of ``bytes`` in use.
  private var used = 0
  /// The names offered to keep before the slots were made.
  private var offered = 0
  /// The names offered before any is kept.
  private static var offeredBeforeKeeping: Int { 32 }

  deinit {
    names?.deinitialize(count: Self.slotCount)
    names?.deallocate()
    rendered?.deallocate()
    bytes?.deallocate()
  }

  /// The two words of `name`'s representation; `nil` where a `String` isn't two words.
  @inline(__always)
  private static func words(of name: String) -> (UInt64, UInt64)? {
    guard MemoryLayout<String>.size == MemoryLayout<(UInt64, UInt64)>.size else { return nil }
    return unsafeBitCast(name, to: (UInt64, UInt64).self)
  }

  /// The first slot of the pair of the name whose representation is `words`.
  @inline(__always)
  private static func slot(of words: (UInt64, UInt64)) -> Int {
    let mixed = (words.0 ^ words.1 &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
    return Int(truncatingIfNeeded: mixed &>> 56)
  }

  /// The kept rendering of `name`, if there is one for its representation.
  @inline(__always)
  func rendered(_ name: String) -> Rendered? {
    guard let names, let rendered, let words = Self.words(of: name) else { return nil }
    let slot = Self.slot(of: words)
    if rendered[slot].count > 0, Self.words(of: names[slot]).map({ $0 == words }) == true {
      return rendered[slot]
    }
    let other = slot ^ 1
    if rendered[other].count > 0, Self.words(of: names[other]).map({ $0 == words }) == true {
      return rendered[other]
    }
    return nil
  }

  /// Appends the kept rendering `entry` to `writer`.
  @inline(__always)
  func write(_ entry: Rendered, to writer: JSONWriter) {
    guard let bytes else { return }
    writer.append(padded: bytes + entry.offset, count: entry.count)
  }

  /// Keeps the rendering of `name`, the `count` bytes at `start`, if a slot of its pair is free
  /// and it is short enough.
  func keep(
    _ name: String, written start: UnsafePointer<UInt8>, count: Int,
    hasher: JSONNameIndex.NameHasher
  ) {
    guard count > 0, count <= Self.maximumLength, let words = Self.words(of: name) else { return }
    let slot = Self.slot(of: words)
    if names == nil {
      // An encode that writes a few names keeps none, rather than making the slots.
      offered &+= 1
      guard offered >= Self.offeredBeforeKeeping else { return }
      let made = UnsafeMutablePointer<String>.allocate(capacity: Self.slotCount)
      made.initialize(repeating: "", count: Self.slotCount)
      let entries = UnsafeMutablePointer<Rendered>.allocate(capacity: Self.slotCount)
      entries.initialize(
        repeating: Rendered(offset: 0, count: 0, fingerprint: 0, isASCII: true),
        count: Self.slotCount)
      names = made
      rendered = entries
      // Zeroed, with eight bytes after the last name, so that names are copied eight bytes at a
      // time (see ``JSONWriter/append(padded:count:)``).
      let capacity = Self.slotCount &* Self.maximumLength &+ 8
      let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
      buffer.initialize(repeating: 0, count: capacity)
      bytes = buffer
    }
    guard let names, let rendered, let bytes,
      used &+ count <= Self.slotCount &* Self.maximumLength
    else { return }
    // The first slot of the pair fills first, so a name in the second has the first taken.
    let free = rendered[slot].count == 0 ? slot : slot ^ 1
    guard rendered[free].count == 0 else { return }
    (bytes + used).initialize(from: start, count: count)
    rendered[free] = Rendered(
      offset: used, count: count, fingerprint: hasher.fingerprint(start, count: count),
      isASCII: UnsafeBufferPointer(start: start, count: count).isAllASCII)
    used &+= count
    names[free] = name
  }
}
