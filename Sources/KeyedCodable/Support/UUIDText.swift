import Foundation

/// The canonical text of a UUID, `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, read and written
/// byte by byte.
///
/// On Linux, `UUID(uuidString:)` parses with `sscanf` and `uuidString` prints with `snprintf`:
/// about 8,000 and 2,000 instructions a UUID, more than the rest of decoding or encoding one.
/// Text in the canonical form (36 bytes: hexadecimal digits of either case, hyphens after the
/// 8th, 12th, 16th and 20th digit) gives the same UUID here; any other text is left to
/// `UUID(uuidString:)`, which decides what the platform accepts.
enum UUIDText {
  /// The length of the canonical text.
  static let count = 36

  /// Whether a hyphen stands at `index` of the canonical text: after the 8th, 12th, 16th and
  /// 20th digit.
  @inline(__always)
  private static func isHyphenPosition(_ index: Int) -> Bool {
    index == 8 || index == 13 || index == 18 || index == 23
  }

  /// The UUID that `bytes` spell in the canonical form, or `nil` when they are not in it.
  ///
  /// - Parameter bytes: UTF-8 text.
  /// - Returns: The UUID, or `nil`.
  static func uuid(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
    guard bytes.count == count else { return nil }
    var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let parsed = withUnsafeMutableBytes(of: &uuid) { output -> Bool in
      var index = 0
      for byteIndex in 0..<16 {
        if isHyphenPosition(index) {
          guard bytes[index] == UInt8(ascii: "-") else { return false }
          index += 1
        }
        guard let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) else {
          return false
        }
        output[byteIndex] = high << 4 | low
        index += 2
      }
      return true
    }
    return parsed ? UUID(uuid: uuid) : nil
  }

  /// The UUID `text` spells: read here in the canonical form, by `UUID(uuidString:)` otherwise.
  ///
  /// - Parameter text: The text.
  /// - Returns: The UUID, or `nil` when `text` is not one.
  static func uuid(_ text: String) -> UUID? {
    var text = text
    if let uuid = text.withUTF8({ uuid($0) }) {
      return uuid
    }
    return UUID(uuidString: text)
  }

  /// Calls `body` with the canonical text of `uuid`: what `uuidString` gives, or its lowercase
  /// form.
  ///
  /// - Parameters:
  ///   - uuid: The UUID.
  ///   - lowercase: Whether the digits above 9 are lowercase letters.
  ///   - body: Receives the 36 bytes.
  /// - Returns: What `body` returns.
  static func withText<Result>(
    _ uuid: UUID, lowercase: Bool = false, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    let letters = lowercase ? UInt8(ascii: "a") : UInt8(ascii: "A")
    return withUnsafeBytes(of: uuid.uuid) { input in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { output in
        var index = 0
        for byteIndex in 0..<16 {
          if isHyphenPosition(index) {
            output[index] = UInt8(ascii: "-")
            index += 1
          }
          let byte = input[byteIndex]
          output[index] = digit(byte >> 4, letters: letters)
          output[index + 1] = digit(byte & 0x0F, letters: letters)
          index += 2
        }
        return body(UnsafeBufferPointer(output))
      }
    }
  }

  /// The canonical text of `uuid`: `uuidString`, or its lowercase form.
  ///
  /// - Parameters:
  ///   - uuid: The UUID.
  ///   - lowercase: Whether the digits above 9 are lowercase letters.
  /// - Returns: The text.
  static func string(_ uuid: UUID, lowercase: Bool = false) -> String {
    withText(uuid, lowercase: lowercase) { String(decoding: $0, as: UTF8.self) }
  }

  /// The hexadecimal digit of `value` (0 to 15), whose letters start at `letters`.
  @inline(__always)
  private static func digit(_ value: UInt8, letters: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : letters + value - 10
  }

  /// The value of a hexadecimal digit, or `nil` for any other byte.
  @inline(__always)
  private static func hexValue(_ byte: UInt8) -> UInt8? {
    if byte &- UInt8(ascii: "0") < 10 { return byte &- UInt8(ascii: "0") }
    let letter = byte | 0x20
    if letter &- UInt8(ascii: "a") < 6 { return letter &- UInt8(ascii: "a") &+ 10 }
    return nil
  }
}
