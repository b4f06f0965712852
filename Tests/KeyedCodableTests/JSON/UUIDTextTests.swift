import Foundation
import Testing

@testable import KeyedCodable

/// ``UUIDText`` against `UUID(uuidString:)` and `uuidString`, and UUIDs on the JSON coder
/// against Foundation's coders: values, output and errors.
@Suite struct UUIDTextTests {
  /// Random UUIDs from a seeded generator, so that a failure names one that reproduces.
  static func uuids(_ count: Int, seed: UInt64) -> [UUID] {
    var state = seed
    return (0..<count).map { _ in
      var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &bytes) { output in
        for index in 0..<16 {
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          output[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
      }
      return UUID(uuid: bytes)
    }
  }

  @Test func textIsUUIDStringAndReadsBackInEitherCase() {
    var failures: [String] = []
    for uuid in Self.uuids(5_000, seed: 1) + [
      UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    ] {
      let upper = UUIDText.string(uuid)
      let lower = UUIDText.string(uuid, lowercase: true)
      if upper != uuid.uuidString || lower != uuid.uuidString.lowercased() {
        failures.append("\(uuid): \(upper), \(lower)")
      }
      var mixed = Array(upper.utf8)
      for index in mixed.indices where index % 3 == 0 { mixed[index] |= 0x20 }
      for text in [upper, lower, String(decoding: mixed, as: UTF8.self)] {
        let parsed = Array(text.utf8).withUnsafeBufferPointer { UUIDText.uuid($0) }
        if parsed != uuid || parsed != UUID(uuidString: text) {
          failures.append("\(text) read as \(String(describing: parsed))")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")
  }

  /// Texts out of the canonical form: the fast path refuses them all, and the reading of a
  /// `String` then gives what `UUID(uuidString:)` gives on this platform.
  static let nonCanonical: [String] = {
    let text = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
    var texts = [
      "", "E621E1F8C36C495A93FC0C247A3E6E5F", text + "0", String(text.dropLast()),
      " " + String(text.dropFirst()), "+" + String(text.dropFirst()),
      "0x21E1F8-C36C-495A-93FC-0C247A3E6E5F", text.replacingOccurrences(of: "-", with: "_"),
      "E621E1F-8C36C-495A-93FC-0C247A3E6E5F", text.lowercased() + "\u{0}",
      "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}", "E621E1F8-C36C-495A-93FC-0C247A3E6E5\u{E9}",
    ]
    // Each position in turn holding a byte that does not belong there.
    let bytes = Array(text.utf8)
    for index in bytes.indices {
      for replacement in ["G", "g", "-", " ", "/", ":", "@", "`", "\u{7F}"] {
        var changed = bytes
        changed[index] = replacement.utf8.first ?? 0
        if changed != bytes { texts.append(String(decoding: changed, as: UTF8.self)) }
      }
    }
    return texts
  }()

  @Test func textOutOfTheCanonicalFormIsLeftToFoundation() {
    var failures: [String] = []
    for text in Self.nonCanonical {
      let fast = Array(text.utf8).withUnsafeBufferPointer { UUIDText.uuid($0) }
      if fast != nil { failures.append("fast path read \(text)") }
      if UUIDText.uuid(text) != UUID(uuidString: text) { failures.append("read \(text)") }
    }
    #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")
  }

  struct Record: Codable, Equatable {
    var id: UUID
    var others: [UUID]
    var optional: UUID?
  }

  @Test func uuidsDecodeAndEncodeAsFoundationDoes() throws {
    let uuids = Self.uuids(50, seed: 2)
    let records = stride(from: 0, to: 48, by: 3).map { index in
      Record(
        id: uuids[index], others: [uuids[index + 1], uuids[index + 2]],
        optional: index % 2 == 0 ? nil : uuids[index])
    }
    EncoderPair().expectSame(records)
    EncoderPair().expectSame(uuids)
    let json = String(decoding: try JSONEncoder().encode(records), as: UTF8.self)
    #expect(DecoderPair().expectSame([Record].self, from: json).success == records)
    let lower = #"[{"id":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","others":[]}]"#
    #expect(DecoderPair().expectSame([Record].self, from: lower).success?.first?.id != nil)
  }

  @Test(arguments: [
    #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5","others":[]}"#,
    #"{"id":"not a uuid","others":[]}"#,
    #"{"id":12,"others":[]}"#,
    #"{"id":null,"others":[]}"#,
    #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","others":["x"]}"#,
    #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","others":[true]}"#,
    #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","others":[],"optional":"E621E1F8"}"#,
  ])
  func badUUIDsThrowFoundationsErrors(json: String) {
    let outcome = DecoderPair().expectSame(Record.self, from: json)
    #expect(outcome.success == nil)
  }
}
