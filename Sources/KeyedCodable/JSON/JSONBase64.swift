import Foundation

/// Base64 text as `Data.base64EncodedString()` writes it and `Data(base64Encoded:)` reads it:
/// the standard alphabet, `=` padding, no line breaks, four letters for three bytes.
///
/// ``JSONWriter/base64(_:)`` writes `Data` with ``pairs``; ``JSONValueDecoder`` reads the
/// canonical text of `Data` with ``data(fromCanonical:)`` and leaves any other text to
/// Foundation, whose rules then decide what it means.
enum JSONBase64 {
  /// The 64 letters, in the order of their values.
  private static let letters: StaticString =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

  /// The two letters of each 12 bits, the first in the low byte: four letters from two loads.
  static let pairs: [UInt16] = {
    var pairs = [UInt16](repeating: 0, count: 4096)
    letters.withUTF8Buffer { letters in
      for bits in 0..<4096 {
        pairs[bits] = UInt16(letters[bits &>> 6]) | UInt16(letters[bits & 63]) &<< 8
      }
    }
    return pairs
  }()

  /// The letter count of the Base64 text of `count` bytes.
  @inline(__always)
  static func textCount(of count: Int) -> Int {
    (count / 3 &+ (count % 3 == 0 ? 0 : 1)) &* 4
  }

  /// The value of each byte as a letter, or ``notALetter`` (`=` included).
  private static let values: [UInt8] = {
    var values = [UInt8](repeating: notALetter, count: 256)
    letters.withUTF8Buffer { letters in
      for (value, letter) in letters.enumerated() {
        values[Int(letter)] = UInt8(value)
      }
    }
    return values
  }()

  /// The value of each byte as a letter, shifted to its place in a group of four letters.
  ///
  /// Entry `256 × place + byte`, the first letter's bits highest. A byte that is not a letter
  /// has the high byte set, which an OR of the four keeps.
  private static let placedValues: [UInt32] = {
    var placed = [UInt32](repeating: 0xFF00_0000, count: 4 &* 256)
    letters.withUTF8Buffer { letters in
      for (value, letter) in letters.enumerated() {
        for place in 0..<4 {
          placed[place &* 256 &+ Int(letter)] = UInt32(value) &<< UInt32(18 &- 6 &* place)
        }
      }
    }
    return placed
  }()

  /// What ``values`` holds for a byte that is not a letter: any of its two high bits makes an
  /// OR of four values show that one of them was not a letter.
  private static var notALetter: UInt8 { 0xFF }

  /// The bytes of `text` when it is the canonical Base64 text of some bytes, the text
  /// `base64EncodedString()` writes: a whole number of groups of four letters, the last of
  /// which may end in one or two `=` in place of letters whose unused bits are zero.
  ///
  /// - Returns: `nil` for any other text (empty, of another length, with another byte, with
  ///   padding elsewhere or unused bits set): the caller asks `Data(base64Encoded:)`, so that
  ///   every text it doesn't read here means what Foundation says it means.
  static func data(fromCanonical text: UnsafeBufferPointer<UInt8>) -> Data? {
    let count = text.count
    guard count > 0, count % 4 == 0, let source = text.baseAddress else { return nil }
    let padding =
      source[count &- 1] == UInt8(ascii: "=")
      ? (source[count &- 2] == UInt8(ascii: "=") ? 2 : 1) : 0
    let length = count / 4 &* 3 &- padding
    return values.withUnsafeBufferPointer { values in
      placedValues.withUnsafeBufferPointer { placed in
        guard length > stackLength else {
          // Decoded on the stack, then copied once into the data's own storage.
          return withUnsafeTemporaryAllocation(byteCount: length, alignment: 1) { target in
            guard let start = target.baseAddress,
              decode(
                source, count: count, padding: padding, into: target, values: values,
                placed: placed)
            else { return nil }
            return Data(bytes: start, count: length)
          }
        }
        var data = Data(count: length)
        let decoded = data.withUnsafeMutableBytes { target in
          decode(
            source, count: count, padding: padding, into: target, values: values, placed: placed)
        }
        return decoded ? data : nil
      }
    }
  }

  /// The longest data decoded on the stack.
  private static var stackLength: Int { 256 }

  /// Decodes the `count` letters at `source`, of which the last `padding` are `=`, into
  /// `target`, which has room for exactly their bytes.
  ///
  /// - Returns: Whether every other byte was a letter and the unused bits of the last group
  ///   were zero.
  private static func decode(
    _ source: UnsafePointer<UInt8>, count: Int, padding: Int,
    into target: UnsafeMutableRawBufferPointer,
    values: UnsafeBufferPointer<UInt8>, placed: UnsafeBufferPointer<UInt32>
  ) -> Bool {
    guard let output = target.baseAddress, let placed = placed.baseAddress else { return false }
    // The groups before the last: three bytes from four letters, each letter's bits already in
    // place, written as four bytes (big-endian) whose last the next group overwrites: the last
    // group writes at least one byte after them.
    let last = count &- 4
    var index = 0
    var written = 0
    while index < last {
      let group =
        placed[Int(source[index])] | placed[256 &+ Int(source[index &+ 1])]
        | placed[512 &+ Int(source[index &+ 2])] | placed[768 &+ Int(source[index &+ 3])]
      guard group & 0xFF00_0000 == 0 else { return false }
      output.storeBytes(of: (group &<< 8).bigEndian, toByteOffset: written, as: UInt32.self)
      index &+= 4
      written &+= 3
    }
    // The last group: its `=` count as zero bits, which the letters before them must end in.
    let a = values[Int(source[last])]
    let b = values[Int(source[last &+ 1])]
    let c = padding == 2 ? 0 : values[Int(source[last &+ 2])]
    let d = padding >= 1 ? 0 : values[Int(source[last &+ 3])]
    guard (a | b | c | d) & 0xC0 == 0 else { return false }
    let group = UInt32(a) &<< 18 | UInt32(b) &<< 12 | UInt32(c) &<< 6 | UInt32(d)
    // Foundation on Linux reads set unused bits too and drops them; they go to Foundation all
    // the same, so that whichever Foundation a platform has decides.
    let unused: UInt32 = padding == 2 ? 0xFFFF : padding == 1 ? 0xFF : 0
    guard group & unused == 0 else { return false }
    output.storeBytes(
      of: UInt8(truncatingIfNeeded: group &>> 16), toByteOffset: written, as: UInt8.self)
    if padding < 2 {
      output.storeBytes(
        of: UInt8(truncatingIfNeeded: group &>> 8), toByteOffset: written &+ 1, as: UInt8.self)
    }
    if padding < 1 {
      output.storeBytes(
        of: UInt8(truncatingIfNeeded: group), toByteOffset: written &+ 2, as: UInt8.self)
    }
    return true
  }
}
