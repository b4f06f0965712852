import Foundation
import Testing

@testable import KeyedCodable

/// `JSONStrings.equal(_:_:count:)`, which compares member names and repeated strings eight,
/// then four bytes at a time with overlapping loads, tells every length apart at every position
/// and reads nothing outside the bytes it compares.
struct JSONByteComparisonTests {
  /// Whether `equal` finds `count` bytes equal, each run placed between guard bytes that differ
  /// from one side to the other: a read outside the run would see them differ.
  static func compare(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    let padded =
      [0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA] + left + Array(repeating: 0xAA, count: 8)
    let other =
      [0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55] + right + Array(repeating: 0x55, count: 8)
    return padded.withUnsafeBufferPointer { lhs in
      other.withUnsafeBufferPointer { rhs in
        guard let lhs = lhs.baseAddress, let rhs = rhs.baseAddress else { return false }
        return JSONStrings.equal(lhs + 8, rhs + 8, count: left.count)
      }
    }
  }

  @Test func everyLengthIsEqualToItselfAndUnequalWithAnyByteChanged() {
    for count in 0...40 {
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
      #expect(Self.compare(bytes, bytes), "length \(count)")
      for position in 0..<count {
        var changed = bytes
        changed[position] ^= 0x20
        #expect(!Self.compare(bytes, changed), "length \(count), byte \(position)")
      }
    }
  }

  /// Synthesized keys of 19 and 32 bytes that share their first and last eight bytes and differ
  /// in one byte of the middle are read each from its own member.
  struct MiddleNames: Codable, Equatable {
    var first: Int
    var second: Int
    var third: Int
    var fourth: Int

    enum CodingKeys: String, CodingKey {
      case first = "abcdefgh_1_stuvwxyz"
      case second = "abcdefgh_2_stuvwxyz"
      case third = "abcdefgh_mmmmmmmmmmmmm1_stuvwxyz"
      case fourth = "abcdefgh_mmmmmmmmmmmmm2_stuvwxyz"
    }
  }

  @Test func namesThatDifferOnlyInTheMiddleAreToldApart() throws {
    let json = """
      {"abcdefgh_2_stuvwxyz":2,"abcdefgh_1_stuvwxyz":1,
      "abcdefgh_mmmmmmmmmmmmm2_stuvwxyz":4,"abcdefgh_mmmmmmmmmmmmm1_stuvwxyz":3}
      """
    let value = try KeyedJSONDecoder().decode(MiddleNames.self, from: Data(json.utf8))
    #expect(value == MiddleNames(first: 1, second: 2, third: 3, fourth: 4))
  }
}
