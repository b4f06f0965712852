/// The string values of 16 bytes or more a decode made, kept so that a value the document
/// repeats (an image URL, a client's name, a retweeted text) shares the storage of the first
/// instead of being allocated and copied again.
///
/// A direct-mapped table by a fingerprint of the string's first and last 16 bytes
/// (``JSONNameIndex/NameHasher/fingerprint(ends:count:)``), made on the first string that
/// qualifies with 64 slots, and made again four times larger (emptied) when as many strings
/// as it has slots missed, up to a slot per 256 bytes of document and 1,024 slots. A string is compared
/// byte for byte with the string that filled its slot, in the document; when they differ, it
/// takes the slot. So each string costs a fingerprint of constant time and at most one
/// comparison of its bytes, which the copy it may save costs too: the work stays linear in the
/// document, and the table holds no more than 1,024 strings of the document.
///
/// A document whose strings don't repeat would pay the fingerprints for nothing: when fewer
/// than 8 of 128 strings in a row are found, the table is left alone for the rest of the decode
/// (``isOff``).
struct JSONRepeatedStrings {
  private struct Slot {
    var fingerprint: UInt64 = 0
    /// The tape entry of the string in the slot, or `-1`.
    var entry = -1
    var string = ""
  }

  /// The shortest strings kept, in the document's bytes: shorter ones are small strings,
  /// made without an allocation.
  static let minimumLength = 16

  /// The strings looked up in a window of ``window``, and how many of them were found.
  private static let window = 128
  private static let fewestFound = 8

  private var slots: [Slot] = []
  private var mask = 0
  /// The strings not found since the table was made.
  private var missed = 0
  private var hasher = JSONNameIndex.NameHasher.shared
  /// The strings looked up, and those found, since the last window began.
  private var looked = 0
  private var found = 0
  /// Whether the document's strings repeat too little for the table to pay.
  private(set) var isOff = false

  /// Whether no string was looked up yet.
  var isEmpty: Bool { slots.isEmpty && looked == 0 && !isOff }

  /// The string at tape entry `entry` of `document`, a string of at least ``minimumLength``
  /// bytes: the one made for an equal string before, or a new one.
  mutating func string(at entry: Int, in document: JSONDocument) -> String {
    if missed >= slots.count {
      grow(for: document)
    }
    let count = document.length(entry)
    let start = document.bytes + document.offset(entry)
    let fingerprint = hasher.fingerprint(ends: start, count: count)
    let index = Int(truncatingIfNeeded: fingerprint &>> 40) & mask
    looked &+= 1
    if looked == Self.window {
      isOff = found < Self.fewestFound
      looked = 0
      found = 0
    }
    return slots.withUnsafeMutableBufferPointer { slots in
      let other = slots[index].entry
      if slots[index].fingerprint == fingerprint, other >= 0, document.hasLength(other, count),
        JSONStrings.equal(start, document.bytes + document.offset(other), count: count)
      {
        found &+= 1
        return slots[index].string
      }
      missed &+= 1
      let string = JSONStrings.string(at: entry, in: document)
      slots[index] = Slot(fingerprint: fingerprint, entry: entry, string: string)
      return string
    }
  }

  /// Makes the table for the first time, or four times larger and empty while `document` is
  /// large enough; otherwise lets it be.
  private mutating func grow(for document: JSONDocument) {
    let count = slots.isEmpty ? 64 : slots.count &* 4
    guard slots.isEmpty || (count <= 1024 && count &* 256 <= document.count) else {
      missed = Int.min
      return
    }
    slots = [Slot](repeating: Slot(), count: count)
    mask = count &- 1
    missed = 0
  }
}
