import Foundation
import KeyedCodable

// keyed-bench --scaling: the worst-case inputs of issue 19, each at n and 10n, on KeyedCodable's
// JSON coder and on Foundation's, with the same model and the same input.

/// The coders a scaling case runs on.
enum ScalingImplementation: String, CaseIterable {
  /// `KeyedJSONDecoder` and `KeyedJSONEncoder`.
  case keyedjson
  /// Foundation's `JSONDecoder` and `JSONEncoder`.
  case foundation

  /// A function that decodes a `T` with this implementation's decoder, made once.
  func decoder<T: Decodable>(_ type: T.Type) -> (Data) throws -> T {
    switch self {
    case .keyedjson:
      let decoder = KeyedJSONDecoder()
      return { try decoder.decode(T.self, from: $0) }
    case .foundation:
      let decoder = JSONDecoder()
      return { try decoder.decode(T.self, from: $0) }
    }
  }

  /// A function that decodes a `T` with a report of what was dropped, made once.
  func reportingDecoder<T: Decodable>(_ type: T.Type) -> (Data) throws -> (T, DecodingReport) {
    switch self {
    case .keyedjson:
      let decoder = KeyedJSONDecoder()
      return { try decoder.decodeWithReport(T.self, from: $0) }
    case .foundation:
      let decoder = JSONDecoder()
      return { try decoder.decodeWithReport(T.self, from: $0) }
    }
  }

  /// A function that decodes a `T` with `.convertFromSnakeCase`, made once.
  func snakeCaseDecoder<T: Decodable>(_ type: T.Type) -> (Data) throws -> T {
    switch self {
    case .keyedjson:
      let decoder = KeyedJSONDecoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      return { try decoder.decode(T.self, from: $0) }
    case .foundation:
      let decoder = JSONDecoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      return { try decoder.decode(T.self, from: $0) }
    }
  }

  /// A function that decodes a `T` with a `.formatted` date strategy, made once.
  func formattedDateDecoder<T: Decodable>(_ type: T.Type) -> (Data) throws -> T {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSZ"
    switch self {
    case .keyedjson:
      let decoder = KeyedJSONDecoder()
      decoder.dateDecodingStrategy = .formatted(formatter)
      return { try decoder.decode(T.self, from: $0) }
    case .foundation:
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .formatted(formatter)
      return { try decoder.decode(T.self, from: $0) }
    }
  }

  /// A function that encodes a `T` with `.sortedKeys`, made once.
  func sortingEncoder<T: Encodable>(_ type: T.Type) -> (T) throws -> Data {
    switch self {
    case .keyedjson:
      let encoder = KeyedJSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      return { try encoder.encode($0) }
    case .foundation:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      return { try encoder.encode($0) }
    }
  }

  /// A function that encodes a `T` with this implementation's encoder, made once.
  func encoder<T: Encodable>(_ type: T.Type) -> (T) throws -> Data {
    switch self {
    case .keyedjson:
      let encoder = KeyedJSONEncoder()
      return { try encoder.encode($0) }
    case .foundation:
      let encoder = JSONEncoder()
      return { try encoder.encode($0) }
    }
  }

  /// Decodes and encodes a tiny value of a type no case uses, so that one-time costs of the coder
  /// itself are paid before the timed operation (and the types of the cases are left alone: the
  /// first decode of a `Keyedable` type is part of some cases).
  func warmUp() throws {
    let values = try decoder([Int].self)(Data("[1,2]".utf8))
    _ = try encoder([Int].self)(values)
  }
}

/// One operation of a scaling case, with its input generated, ready to time.
struct ScalingRun {
  /// The timed decode or encode; returns a checksum of what it read or the number of bytes
  /// written.
  let body: () throws -> Int
  /// The checksum `body` must return, when the input tells it (decoding).
  let expected: Int?
  /// Decodes of other documents, run after the timed one for the retained memory (only for the
  /// cases that measure it).
  let followUps: [() throws -> Int]

  init(body: @escaping () throws -> Int, expected: Int?, followUps: [() throws -> Int] = []) {
    self.body = body
    self.expected = expected
    self.followUps = followUps
  }
}

/// A scaling case: one input shape and one operation.
struct ScalingCase {
  /// The name `--only` takes; a case that decodes and encodes has one entry for each.
  let name: String
  /// `decode` or `encode`.
  let operation: String
  /// What the input is.
  let summary: String
  /// The sizes are this many times n and 10n.
  var sizeFactor = 1
  /// Whether the child measures the memory still resident after the value is dropped and more
  /// documents are decoded.
  var measuresRetained = false
  /// Generates the input of size `n` for an implementation.
  let prepare: (ScalingImplementation, Int) throws -> ScalingRun
  /// Checks at a small size, in this process, that the input has the shape the case is about and
  /// that both implementations decode or encode it as expected, beyond the checksums that
  /// ``checkScalingCase(_:n:)`` compares; throws a `BenchmarkError` otherwise.
  let check: ((Int) throws -> Void)?
}

/// Throws unless both implementations' runs of `scalingCase` at `n` return the expected
/// checksum, or (when none is known) the same one.
private func checkRuns(_ scalingCase: ScalingCase, _ n: Int) throws {
  var checksums: [(String, Int)] = []
  for implementation in ScalingImplementation.allCases {
    let run = try scalingCase.prepare(implementation, n)
    let checksum = try run.body()
    if let expected = run.expected, checksum != expected {
      throw BenchmarkError(
        description:
          "\(scalingCase.name) on \(implementation): checksum \(checksum), expected \(expected)")
    }
    checksums.append((implementation.rawValue, checksum))
  }
  if scalingCase.operation == "decode" {
    try expectAllEqual(checksums, "\(scalingCase.name) checksums")
  }
}

/// Throws unless `condition`.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw BenchmarkError(description: message()) }
}

/// A checksum of decoded `[Int: ScalingInner]` values.
private func checksum(_ values: [Int: ScalingInner]) -> Int {
  values.reduce(values.count) { $0 &+ $1.key &* 31 &+ $1.value.id &* 7 &+ $1.value.count }
}

/// A checksum of a decoded `[Int: Int]`.
private func checksum(_ values: [Int: Int]) -> Int {
  values.reduce(values.count) { $0 &+ ($1.key &* 31 ^ $1.value) }
}

/// A checksum of the sums of decoded objects, by position.
private func checksum(_ sums: [Int]) -> Int {
  sums.enumerated().reduce(sums.count) { $0 &+ ($1.offset &* 31 ^ $1.element) }
}

/// Checks that both implementations decode `data` to `expected`.
private func checkDecodesEqual<T: Decodable & Equatable>(
  _ name: String, _ data: Data, as type: T.Type, _ expected: T
) throws {
  for implementation in ScalingImplementation.allCases {
    let value = try implementation.decoder(T.self)(data)
    try require(value == expected, "\(name): \(implementation) decodes another value")
  }
}

/// Checks that what each implementation encodes of `value` decodes back equal on Foundation's
/// decoder.
private func checkEncodesBack<T: Codable & Equatable>(_ name: String, _ value: T) throws {
  for implementation in ScalingImplementation.allCases {
    let data = try implementation.encoder(T.self)(value)
    let back = try JSONDecoder().decode(T.self, from: data)
    try require(back == value, "\(name): \(implementation)'s output decodes to another value")
  }
}

/// The scaling cases, in the order they run.
func makeScalingCases() -> [ScalingCase] {
  [
    ScalingCase(
      name: "dict-objects", operation: "decode",
      summary: "[Int: Inner] of ordinary 8-member objects",
      prepare: { implementation, n in
        let document = dictionaryOfObjects(count: n, sharingRootSlot: false)
        let decode = implementation.decoder([Int: ScalingInner].self)
        return ScalingRun(
          body: { checksum(try decode(document.data)) }, expected: checksum(document.values))
      },
      check: { n in
        let document = dictionaryOfObjects(count: n, sharingRootSlot: false)
        try checkDecodesEqual(
          "dict-objects", document.data, as: [Int: ScalingInner].self, document.values)
      }),
    ScalingCase(
      name: "dict-objects", operation: "encode",
      summary: "[Int: Inner] of ordinary 8-member objects (a control: no collisions)",
      prepare: { implementation, n in
        let values = dictionaryOfObjects(count: n, sharingRootSlot: false).values
        let encode = implementation.encoder([Int: ScalingInner].self)
        return ScalingRun(body: { try encode(values).count }, expected: nil)
      },
      check: { n in
        try checkEncodesBack(
          "dict-objects", dictionaryOfObjects(count: n, sharingRootSlot: false).values)
      }),
    ScalingCase(
      name: "cache-slot", operation: "decode",
      summary: "the same, each object placed in the root's slot of the 8-slot name-index cache",
      prepare: { implementation, n in
        let document = dictionaryOfObjects(count: n, sharingRootSlot: true)
        let decode = implementation.decoder([Int: ScalingInner].self)
        return ScalingRun(
          body: { checksum(try decode(document.data)) }, expected: checksum(document.values))
      },
      check: { n in
        let document = dictionaryOfObjects(count: n, sharingRootSlot: true)
        let counted = rootMemberValueEntries(in: Array(document.data))
        try require(
          counted == document.objectEntries,
          "cache-slot: the objects' tape entries counted from the text differ from the generator's")
        let rootSlot = nameIndexCacheSlot(ofEntry: 0)
        try require(
          counted.dropFirst().allSatisfy { nameIndexCacheSlot(ofEntry: $0) == rootSlot },
          "cache-slot: an object after the first is not in the root's slot")
        try checkDecodesEqual(
          "cache-slot", document.data, as: [Int: ScalingInner].self, document.values)
      }),
    ScalingCase(
      name: "string-ends", operation: "decode",
      summary: "[{text}] of n texts of 200 bytes alike but for their middle, 1 in 8 repeated",
      prepare: { implementation, n in
        let data = stringEndsDocument(count: n)
        let decode = implementation.decoder([ScalingText].self)
        return ScalingRun(body: { try decode(data).count }, expected: n)
      },
      check: { n in
        let texts = stringEndsTexts(count: n)
        let alike = texts.filter { $0 != repeatedText }
        let first = alike.first ?? ""
        try require(
          alike.allSatisfy {
            $0.utf8.count == 200 && $0.prefix(16) == first.prefix(16)
              && $0.suffix(16) == first.suffix(16)
          } && Set(alike).count == alike.count,
          "string-ends: texts differ in their ends or repeat")
        try checkDecodesEqual(
          "string-ends", stringEndsDocument(count: n), as: [ScalingText].self,
          texts.map { ScalingText(text: $0) })
      }),
    ScalingCase(
      name: "colliding-names", operation: "decode",
      summary: "synthesized {id} after n names with equal first 8 and last 8 bytes and length",
      prepare: { implementation, n in
        let data = collidingNamesDocument(count: n)
        let decode = implementation.decoder(ScalingID.self)
        return ScalingRun(body: { try decode(data).id }, expected: 42)
      },
      check: { n in
        try require(
          shareFingerprintBytes(collidingNames(count: n)), "colliding-names: names don't collide")
        try require(Set(collidingNames(count: n)).count == n, "colliding-names: names repeat")
        try checkDecodesEqual(
          "colliding-names", collidingNamesDocument(count: n), as: ScalingID.self, ScalingID(id: 42)
        )
      }),
    ScalingCase(
      name: "colliding-names-keyedable", operation: "decode",
      summary: "the same into a Keyedable {id}, its first decode in the process",
      prepare: { implementation, n in
        let data = collidingNamesDocument(count: n)
        let decode = implementation.decoder(ScalingIDKeyed.self)
        return ScalingRun(body: { try decode(data).id }, expected: 42)
      },
      check: nil),
    ScalingCase(
      name: "escaped-allkeys", operation: "decode",
      summary: "allKeys + decode(forKey:) over n members, one name escaped (\\u0061bc)",
      prepare: { implementation, n in
        let document = escapedNameDocument(count: n)
        let decode = implementation.decoder(ScalingAllKeysSum.self)
        return ScalingRun(
          body: {
            let value = try decode(document.data)
            return value.sum &+ value.count &* 1_000_003
          },
          expected: document.sum &+ n &* 1_000_003)
      },
      check: nil),
    ScalingCase(
      name: "escaped-keys-all", operation: "decode",
      summary: "Keyedable keys.all(for: \"\") + map[key], same document",
      prepare: { implementation, n in
        let document = escapedNameDocument(count: n)
        let decode = implementation.decoder(ScalingListedSum.self)
        return ScalingRun(
          body: {
            let value = try decode(document.data)
            return value.sum &+ value.count &* 1_000_003
          },
          expected: document.sum &+ n &* 1_000_003)
      },
      check: nil),
    ScalingCase(
      name: "dict-int-colliding", operation: "decode",
      summary: "[Int: Int], n names with equal first 8 and last 8 bytes and length (leading zeros)",
      prepare: { implementation, n in
        let document = try collidingIntKeysDocument(count: n)
        let decode = implementation.decoder([Int: Int].self)
        return ScalingRun(
          body: { checksum(try decode(document.data)) }, expected: checksum(document.values))
      },
      check: { n in
        let document = try collidingIntKeysDocument(count: n)
        try require(
          shareFingerprintBytes(document.names), "dict-int-colliding: names don't collide")
        try require(document.values.count == n, "dict-int-colliding: keys repeat")
        try checkDecodesEqual(
          "dict-int-colliding", document.data, as: [Int: Int].self, document.values)
      }),
    ScalingCase(
      name: "dict-int-colliding", operation: "encode",
      summary:
        "[Int: Int], keys whose names collide in groups of 10,000 (Int's range allows no more)",
      prepare: { implementation, n in
        let values = collidingIntKeys(count: n)
        let encode = implementation.encoder([Int: Int].self)
        return ScalingRun(body: { try encode(values).count }, expected: nil)
      },
      check: { n in
        let values = collidingIntKeys(count: 2 * collidingIntGroupSize + n)
        try require(
          values.count == 2 * collidingIntGroupSize + n, "dict-int-colliding: keys repeat")
        let groups = Dictionary(grouping: values.keys.map(String.init)) { String($0.prefix(8)) }
        try require(
          groups.count == 3 && groups.values.allSatisfy(shareFingerprintBytes),
          "dict-int-colliding: names don't collide in groups")
        try checkEncodesBack("dict-int-colliding", collidingIntKeys(count: n))
      }),
    ScalingCase(
      name: "snake-alternating", operation: "decode",
      summary: "objects of 16 members, .convertFromSnakeCase, the last name alternating",
      prepare: { implementation, n in
        let document = alternatingNamesDocument(count: n)
        let decode = implementation.snakeCaseDecoder([ScalingSnakeMembers].self)
        return ScalingRun(
          body: { checksum(try decode(document.data).map(\.sum)) },
          expected: checksum(document.sums))
      },
      check: { n in
        let document = alternatingNamesDocument(count: n)
        for implementation in ScalingImplementation.allCases {
          let decoded = try implementation.snakeCaseDecoder([ScalingSnakeMembers].self)(
            document.data)
          try require(
            decoded.map(\.sum) == document.sums
              && decoded.enumerated().allSatisfy { ($1.lastA == nil) == ($0 % 2 == 1) },
            "snake-alternating: \(implementation) read other members")
        }
      }),
    ScalingCase(
      name: "sorted-alternating", operation: "encode",
      summary: "n objects of 16 names, .sortedKeys, written in two orders in turn",
      prepare: { implementation, n in
        let values = alternatingOrders(count: n)
        let encode = implementation.sortingEncoder([ScalingNamesWriter].self)
        return ScalingRun(body: { try encode(values).count }, expected: nil)
      },
      check: { n in
        let values = alternatingOrders(count: n)
        let outputs = try ScalingImplementation.allCases.map {
          try $0.sortingEncoder([ScalingNamesWriter].self)(values)
        }
        try require(
          outputs.dropFirst().allSatisfy { $0 == outputs[0] },
          "sorted-alternating: the encoders wrote different bytes")
      }),
    ScalingCase(
      name: "formatted-fallback", operation: "decode",
      summary: "n DateFormatter dates of 1500, each read by the date engine, then by the formatter",
      prepare: { implementation, n in
        let document = julianDatesDocument(count: n)
        let decode = implementation.formattedDateDecoder([Date].self)
        return ScalingRun(body: { try decode(document).count }, expected: n)
      },
      check: { n in
        let document = julianDatesDocument(count: n)
        let decoded = try ScalingImplementation.allCases.map {
          try $0.formattedDateDecoder([Date].self)(document)
        }
        try require(
          decoded[0].count == n && decoded.dropFirst().allSatisfy { $0 == decoded[0] },
          "formatted-fallback: the decoders read different dates")
      }),
    ScalingCase(
      name: "encode-colliding-names", operation: "encode",
      summary: "a keyed container writing n names with equal first 8 and last 8 bytes and length",
      prepare: { implementation, n in
        let value = ScalingNamesWriter(names: collidingNames(count: n))
        let encode = implementation.encoder(ScalingNamesWriter.self)
        return ScalingRun(body: { try encode(value).count }, expected: nil)
      },
      check: { n in
        let names = collidingNames(count: n)
        let expected = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        for implementation in ScalingImplementation.allCases {
          let data = try implementation.encoder(ScalingNamesWriter.self)(
            ScalingNamesWriter(names: names))
          let back = try JSONDecoder().decode([String: Int].self, from: data)
          try require(
            back == expected, "encode-colliding-names: \(implementation) wrote another object")
        }
      }),
    ScalingCase(
      name: "lossy-report", operation: "decode",
      summary: "decodeWithReport, a lossy array of invalid elements (sizes ×10)",
      sizeFactor: 10,
      prepare: { implementation, n in
        let data = invalidElementsDocument(count: n)
        let decode = implementation.reportingDecoder(ScalingLossyInts.self)
        return ScalingRun(
          body: {
            let (value, report) = try decode(data)
            // Every element is dropped; the report lists at least one (the fix may bound it).
            return value.items.count + (report.isEmpty ? 1 : 0)
          },
          expected: 0)
      },
      check: nil),
    ScalingCase(
      name: "lossy-drops", operation: "decode",
      summary: "the same without a report (a control)",
      sizeFactor: 10,
      prepare: { implementation, n in
        let data = invalidElementsDocument(count: n)
        let decode = implementation.decoder(ScalingLossyInts.self)
        return ScalingRun(body: { try decode(data).items.count }, expected: 0)
      },
      check: nil),
    ScalingCase(
      name: "data-driven-keys", operation: "decode",
      summary: "Keyedable keys.all + map[key.stringValue] over n members; retained after 5 more",
      measuresRetained: true,
      prepare: { implementation, n in
        let data = plainMembersDocument(count: n, prefix: "m")
        // Other documents with other names, decoded after the value of the first is dropped.
        let others = (1...5).map { plainMembersDocument(count: n, prefix: "d\($0)m") }
        let decode = implementation.decoder(ScalingDataDrivenSum.self)
        let expected = (n &* (n &- 1) / 2) &+ n &* 1_000_003
        let body = {
          let value = try decode(data)
          return value.sum &+ value.count &* 1_000_003
        }
        return ScalingRun(
          body: body, expected: expected,
          followUps: others.map { other in
            {
              let value = try decode(other)
              guard value.sum &+ value.count &* 1_000_003 == expected else {
                throw BenchmarkError(
                  description: "data-driven-keys: a later decode read another sum")
              }
              return value.count
            }
          })
      },
      check: nil),
  ]
}

/// Checks a case in this process at size `n` (times its size factor): the shape of its input,
/// then that both implementations return the expected checksum, or the same one.
///
/// - Throws: A `BenchmarkError` that says what is wrong, or the error of a decode or encode.
func checkScalingCase(_ scalingCase: ScalingCase, n: Int) throws {
  try scalingCase.check?(n * scalingCase.sizeFactor)
  try checkRuns(scalingCase, n * scalingCase.sizeFactor)
}
