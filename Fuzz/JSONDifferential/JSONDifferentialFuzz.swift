// A differential libFuzzer target for KeyedCodable's JSON coder: every input is decoded with
// Foundation's `JSONDecoder` and with `KeyedJSONDecoder`, into a generic JSON value and into
// Keyedable and synthesized models, and what decodes is encoded with `JSONEncoder` and
// `KeyedJSONEncoder` and decoded again.
//
// Build and run with Scripts/fuzz-json.sh. The target traps (so libFuzzer saves the input) when
//
// - a decoder throws an error that is not a `DecodingError`, or an encoder one that is not an
//   `EncodingError`;
// - the two decoders disagree: one succeeds and the other throws, they decode different values,
//   or they throw errors of a different kind, coding path, key or type;
// - the two encoders disagree (`.sortedKeys` always): different bytes, or errors of a different
//   kind or coding path;
// - what `KeyedJSONEncoder` wrote does not decode, with either decoder, to the value encoded.
//
// The documented differences from Foundation are allowed (see `settle`): Foundation accepts
// trailing commas, reports a number that does not fit its type as invalid JSON at the root
// (we report it at the number's coding path), and throws for numbers that underflow to zero
// (we read them as ±0). So are the differences this fuzzer found (each marked "Finding:" where
// it is allowed), unless `JSON_FUZZ_STRICT=1`:
//
// - Foundation checks number tokens, string escapes and UTF-8 only when the value is read
//   (`{"unread":01}` decodes), and ignores an incomplete last code unit of UTF-16 and UTF-32;
// - we tell UTF-16 without a byte-order mark by its first code unit, Foundation by two;
// - Foundation reads some numbers that are not integers as integers (`1.00000000000000000001`
//   as 1, `1e-324` as 0) and rejects some that are (`9223372036854775807.0` as an `Int`);
// - `.iso8601`: Foundation (`Date.ISO8601FormatStyle`) and we (`ISO8601DateFormatter`) accept
//   different strings, and Foundation reports a bad one without the date's own key;
// - `.convertFromSnakeCase`: Foundation capitalizes word by word (`user_2nd` → `user2Nd`);
//   `.convertToSnakeCase`: our conversion traps on a character Swift calls both uppercase and
//   lowercase (`aɴB`), and a Keyedable model whose keys convert to one name writes it twice;
// - `.sortedKeys`: Foundation orders names by UTF-8 bytes, we by `String`'s `<`;
// - Foundation's encoder refuses 512 levels of nesting, which both decoders read.
//
// Crashes, hangs and memory errors are reported by libFuzzer and AddressSanitizer.
//
// Replay a saved input with
//
//   SWIFT_BACKTRACE=enable=no JSON_FUZZ_VERBOSE=1 .build-fuzz-json/json-fuzz <path>

import Foundation

// MARK: - Input

/// The coder options an input asks for, five bits.
struct CoderOptions: CustomStringConvertible {
  var bits: UInt8

  /// `.convertFromSnakeCase` for decoding and `.convertToSnakeCase` for encoding.
  var convertsKeys: Bool { bits & 1 != 0 }
  /// Non-conforming floats read from and written as `"inf"`, `"-inf"` and `"nan"`.
  var nonConformingStrings: Bool { bits & 2 != 0 }
  /// `.prettyPrinted` output.
  var prettyPrinted: Bool { bits & 4 != 0 }
  /// `.withoutEscapingSlashes` output.
  var withoutEscapingSlashes: Bool { bits & 8 != 0 }
  /// Dates as ISO 8601 strings and `Data` as arrays of bytes (`.deferredToData`).
  var isoDatesAndByteArrays: Bool { bits & 16 != 0 }

  var description: String {
    var names: [String] = []
    if convertsKeys { names.append("snake-case keys") }
    if nonConformingStrings { names.append("non-conforming floats as strings") }
    if prettyPrinted { names.append("pretty-printed") }
    if withoutEscapingSlashes { names.append("without escaping slashes") }
    if isoDatesAndByteArrays { names.append("ISO 8601 dates, Data as bytes") }
    return names.isEmpty ? "default options" : names.joined(separator: ", ")
  }

  /// The same options with member names as they are.
  var withDefaultKeys: CoderOptions { CoderOptions(bits: bits & ~1) }
}

/// An input: the coder options and the JSON document.
///
/// No JSON document starts with a byte in `C0`–`DF` (a UTF-8 lead byte, not a byte-order
/// mark), so such a first byte picks the options (its low five bits) and the rest is the
/// document; otherwise the whole input is the document, read with the default options.
struct DifferentialInput {
  var options: CoderOptions
  var document: Data

  init(_ bytes: UnsafeRawBufferPointer) {
    if let first = bytes.first, first & 0xE0 == 0xC0 {
      options = CoderOptions(bits: first & 0x1F)
      document = Data(bytes[1...])
    } else {
      options = CoderOptions(bits: 0)
      document = Data(bytes)
    }
  }

  /// The document as text for a report: its first 2,000 bytes, invalid UTF-8 repaired.
  var documentText: String {
    String(decoding: document.prefix(2_000), as: UTF8.self).debugDescription
  }
}

/// Whether to print what each model does (set `JSON_FUZZ_VERBOSE=1` to replay an input).
let verbose = ProcessInfo.processInfo.environment["JSON_FUZZ_VERBOSE"] == "1"

/// Whether to trap on the differences the fuzzer found and reported, too (set
/// `JSON_FUZZ_STRICT=1`); the documented differences are always allowed.
let strict = ProcessInfo.processInfo.environment["JSON_FUZZ_STRICT"] == "1"

/// Stops the fuzzer on a broken invariant, printing what it needs to reproduce it.
func violation(_ message: String, _ input: DifferentialInput) -> Never {
  fatalError(
    "JSON differential: \(message)\n  options: \(input.options) (bits \(input.options.bits))"
      + "\n  document: \(input.documentText)")
}

// MARK: - Coders

/// Which implementation decodes or encodes.
enum Coder: CustomStringConvertible {
  case foundation
  case keyed

  var description: String {
    switch self {
    case .foundation: "Foundation"
    case .keyed: "KeyedJSON"
    }
  }
}

let nonConformingNames = (positive: "inf", negative: "-inf", nan: "nan")

func foundationDecoder(_ options: CoderOptions) -> JSONDecoder {
  let decoder = JSONDecoder()
  if options.convertsKeys {
    decoder.keyDecodingStrategy = .convertFromSnakeCase
  }
  if options.nonConformingStrings {
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: nonConformingNames.positive,
      negativeInfinity: nonConformingNames.negative, nan: nonConformingNames.nan)
  }
  if options.isoDatesAndByteArrays {
    decoder.dateDecodingStrategy = .iso8601
    decoder.dataDecodingStrategy = .deferredToData
  }
  return decoder
}

func keyedDecoder(_ options: CoderOptions) -> KeyedJSONDecoder {
  let decoder = KeyedJSONDecoder()
  if options.convertsKeys {
    decoder.keyDecodingStrategy = .convertFromSnakeCase
  }
  if options.nonConformingStrings {
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: nonConformingNames.positive,
      negativeInfinity: nonConformingNames.negative, nan: nonConformingNames.nan)
  }
  if options.isoDatesAndByteArrays {
    decoder.dateDecodingStrategy = .iso8601
    decoder.dataDecodingStrategy = .deferredToData
  }
  return decoder
}

/// How an encoding differs from the input's options.
enum EncodingVariant: CustomStringConvertible {
  /// The input's options.
  case asOptions
  /// The input's options with member names as they are, for inputs that convert keys.
  case defaultKeys
  /// The input's options with the `.throw` strategy for non-conforming floats.
  case throwingNonConforming

  var description: String {
    switch self {
    case .asOptions: "the input's options"
    case .defaultKeys: "default keys"
    case .throwingNonConforming: "throwing non-conforming floats"
    }
  }
}

func foundationEncoder(_ options: CoderOptions, _ variant: EncodingVariant) -> JSONEncoder {
  let encoder = JSONEncoder()
  var formatting: JSONEncoder.OutputFormatting = [.sortedKeys]
  if options.prettyPrinted { formatting.insert(.prettyPrinted) }
  if options.withoutEscapingSlashes { formatting.insert(.withoutEscapingSlashes) }
  encoder.outputFormatting = formatting
  if options.convertsKeys, case .asOptions = variant {
    encoder.keyEncodingStrategy = .convertToSnakeCase
  }
  if options.nonConformingStrings, !(variant == .throwingNonConforming) {
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: nonConformingNames.positive,
      negativeInfinity: nonConformingNames.negative, nan: nonConformingNames.nan)
  }
  if options.isoDatesAndByteArrays {
    encoder.dateEncodingStrategy = .iso8601
    encoder.dataEncodingStrategy = .deferredToData
  }
  return encoder
}

func keyedEncoder(_ options: CoderOptions, _ variant: EncodingVariant) -> KeyedJSONEncoder {
  let encoder = KeyedJSONEncoder()
  var formatting: KeyedJSONEncoder.OutputFormatting = [.sortedKeys]
  if options.prettyPrinted { formatting.insert(.prettyPrinted) }
  if options.withoutEscapingSlashes { formatting.insert(.withoutEscapingSlashes) }
  encoder.outputFormatting = formatting
  if options.convertsKeys, case .asOptions = variant {
    encoder.keyEncodingStrategy = .convertToSnakeCase
  }
  if options.nonConformingStrings, !(variant == .throwingNonConforming) {
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: nonConformingNames.positive,
      negativeInfinity: nonConformingNames.negative, nan: nonConformingNames.nan)
  }
  if options.isoDatesAndByteArrays {
    encoder.dateEncodingStrategy = .iso8601
    encoder.dataEncodingStrategy = .deferredToData
  }
  return encoder
}

// MARK: - Outcomes

/// The keys of a coding path: `[index]` for an integer key, the string otherwise.
func pathComponents(_ path: [any CodingKey]) -> [String] {
  path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
}

/// A coding path as text: `[index]` for an integer key, the quoted string otherwise.
func describePath(_ path: [any CodingKey]) -> String {
  "/"
    + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue.debugDescription }
    .joined(separator: "/")
}

/// What a coder threw, in comparable parts.
struct ErrorSummary: Error, CustomStringConvertible {
  /// `keyNotFound`, `valueNotFound`, `typeMismatch`, `dataCorrupted` or `invalidValue`.
  var kind: String
  var path: String
  var components: [String] = []
  /// The missing key, or the expected type.
  var detail: String
  var message: String
  /// Whether it is KeyedJSONDecoder's report of invalid JSON.
  var isSyntaxError = false

  init(_ error: DecodingError) {
    switch error {
    case .keyNotFound(let key, let context):
      kind = "keyNotFound"
      detail = describePath([key])
      path = describePath(context.codingPath)
      components = pathComponents(context.codingPath)
      message = context.debugDescription
    case .valueNotFound(let type, let context):
      kind = "valueNotFound"
      detail = "\(type)"
      path = describePath(context.codingPath)
      components = pathComponents(context.codingPath)
      message = context.debugDescription
    case .typeMismatch(let type, let context):
      kind = "typeMismatch"
      detail = "\(type)"
      path = describePath(context.codingPath)
      components = pathComponents(context.codingPath)
      message = context.debugDescription
    case .dataCorrupted(let context):
      kind = "dataCorrupted"
      detail = ""
      path = describePath(context.codingPath)
      components = pathComponents(context.codingPath)
      message = context.debugDescription
      isSyntaxError = context.underlyingError is JSONSyntaxError
    @unknown default:
      kind = "unknown"
      detail = ""
      path = ""
      message = "\(error)"
    }
  }

  init(_ error: EncodingError) {
    switch error {
    case .invalidValue(_, let context):
      kind = "invalidValue"
      detail = ""
      path = describePath(context.codingPath)
      components = pathComponents(context.codingPath)
      message = context.debugDescription
    @unknown default:
      kind = "unknown"
      detail = ""
      path = ""
      message = "\(error)"
    }
  }

  var description: String {
    "\(kind)(\(detail)) at \(path): \(message)"
  }

  /// Whether Foundation's error (`self`) and ours are the same.
  ///
  /// Foundation reports a number that does not fit the requested type as invalid JSON at the
  /// root; we report it at the number's coding path (documented): the kinds are compared then.
  func matches(ours: ErrorSummary) -> Bool {
    if kind == ours.kind, path == ours.path, detail == ours.detail {
      return true
    }
    guard kind == "dataCorrupted", ours.kind == "dataCorrupted" else { return false }
    if path == "/", ours.message.hasPrefix("Parsed JSON number <"),
      ours.message.contains("> does not fit in ")
    {
      return true
    }
    // Finding: Foundation reports a date that is not ISO 8601 (`.iso8601`) at the coding path
    // of the date's container, without the date's own key or index; we report it at the date.
    return !strict && message == "Expected date string to be ISO8601-formatted."
      && ours.message == message && !ours.components.isEmpty
      && components == Array(ours.components.dropLast())
  }
}

/// What a decode gave: the value in canonical form, or the error.
enum Outcome: CustomStringConvertible {
  case value(String)
  case error(ErrorSummary)

  var description: String {
    switch self {
    case .value(let text): "value \(text)"
    case .error(let error): "error \(error)"
    }
  }

  var error: ErrorSummary? {
    if case .error(let error) = self { return error }
    return nil
  }

  /// Whether Foundation's outcome (`self`) and ours are the same (values compared byte for
  /// byte, so canonically equivalent strings differ).
  func matches(ours: Outcome) -> Bool {
    switch (self, ours) {
    case (.value(let foundation), .value(let keyed)):
      return Array(foundation.utf8) == Array(keyed.utf8)
    case (.error(let foundation), .error(let keyed)):
      return foundation.matches(ours: keyed)
    default:
      return false
    }
  }
}

/// One decode: the value, if any, and the outcome.
struct Attempt<Value> {
  var value: Value?
  var outcome: Outcome
}

func decode<T: Decodable>(
  _ type: T.Type, with coder: Coder, from document: Data, options: CoderOptions,
  _ input: DifferentialInput
) -> Attempt<T> {
  do {
    let value: T
    switch coder {
    case .foundation: value = try foundationDecoder(options).decode(T.self, from: document)
    case .keyed: value = try keyedDecoder(options).decode(T.self, from: document)
    }
    return Attempt(value: value, outcome: .value(canonical(value)))
  } catch let error as DecodingError {
    return Attempt(value: nil, outcome: .error(ErrorSummary(error)))
  } catch {
    violation(
      "\(coder) decoding \(T.self) threw \(Swift.type(of: error)), not a DecodingError: \(error)",
      input)
  }
}

func encode<T: Encodable>(
  _ value: T, with coder: Coder, options: CoderOptions, _ variant: EncodingVariant,
  _ input: DifferentialInput
) -> Result<Data, ErrorSummary> {
  do {
    switch coder {
    case .foundation: return .success(try foundationEncoder(options, variant).encode(value))
    case .keyed: return .success(try keyedEncoder(options, variant).encode(value))
    }
  } catch let error as EncodingError {
    return .failure(ErrorSummary(error))
  } catch {
    violation(
      "\(coder) encoding \(T.self) (\(variant)) threw \(type(of: error)), not an EncodingError: "
        + "\(error)", input)
  }
}

// MARK: - The differential checks

/// How a model's decode went, for the target to decide whether to try the other models.
enum Verdict {
  case decoded
  case failed
  /// KeyedJSONDecoder found the document invalid (and Foundation agreed).
  case invalidJSON
}

/// The coding paths of the dictionaries in a model (`nil` matches any key): Foundation decodes
/// a dictionary's members in its own hash order, and we in document order, so when several
/// members fail the two may report different ones.
struct UnorderedMembers {
  var dictionaries: [[String?]]

  static let none = UnorderedMembers(dictionaries: [])

  func isDictionary(_ path: ArraySlice<String>) -> Bool {
    dictionaries.contains { pattern in
      pattern.count == path.count && zip(pattern, path).allSatisfy { $0 == nil || $0 == $1 }
    }
  }

  /// Whether the two errors may be of two failing members of one dictionary: their paths part
  /// inside a dictionary, or Foundation reports an unfit number without a path and ours is
  /// inside a dictionary.
  func allows(foundation: ErrorSummary, ours: ErrorSummary) -> Bool {
    if foundation.kind == "dataCorrupted", foundation.path == "/" {
      return ours.components.indices.contains { isDictionary(ours.components[..<$0]) }
    }
    let common = zip(foundation.components, ours.components).prefix { $0 == $1 }.count
    return common < foundation.components.count && common < ours.components.count
      && isDictionary(ours.components[..<common])
  }
}

/// Decodes the input's document with both decoders into `T`, requires the same outcome (allowing
/// the documented differences), and checks the encoders with what decoded.
@discardableResult
func check<T: Codable>(
  _ type: T.Type, _ input: DifferentialInput, unorderedMembers: UnorderedMembers = .none
) -> Verdict {
  let foundation = decode(
    T.self, with: .foundation, from: input.document, options: input.options, input)
  let ours = decode(T.self, with: .keyed, from: input.document, options: input.options, input)
  let settled = settle(
    T.self, foundation: foundation, ours: ours, unorderedMembers: unorderedMembers, input)
  if verbose {
    print("\(T.self):\n  Foundation: \(foundation.outcome)\n  KeyedJSON:  \(ours.outcome)")
    if settled.outcome.description != ours.outcome.description {
      print("  settled:    \(settled.outcome)")
    }
  }
  guard let value = settled.value, case .value(let text) = settled.outcome else {
    return settled.outcome.error?.isSyntaxError == true ? .invalidJSON : .failed
  }
  checkEncoders(value, canonical: text, input)
  return .decoded
}

/// Requires Foundation's and our outcome to match, allowing the documented differences (and,
/// unless strict, the differences found), and returns our attempt, or the one that settles a
/// difference.
///
/// When the outcomes differ, the document is rewritten the way the difference says, on our side
/// or on Foundation's, and any of Foundation's outcomes may match any of ours:
///
/// - trailing commas: when we reject the document, the document without its trailing commas
///   (documented);
/// - lazy checks: when we reject the document, the document with the tokens Foundation checks
///   only when they are read repaired (see ``DocumentRewriting/repairingLazyTokens(_:_:)``),
///   and an incomplete last code unit of UTF-16 or UTF-32 dropped (findings);
/// - integers: our document with the numbers Foundation reads as integers though they are not
///   written as Foundation reads them (a finding);
/// - underflow and integers: when Foundation throws invalid-JSON at the root, Foundation's
///   document with the numbers that underflow to zero written as `0` / `-0` (documented), and
///   with integers written with a fraction or an exponent as plain digits (a finding);
/// - dictionaries: when both throw, the errors may be of different members of one dictionary
///   (see ``UnorderedMembers``).
func settle<T: Decodable>(
  _ type: T.Type, foundation: Attempt<T>, ours: Attempt<T>, unorderedMembers: UnorderedMembers,
  _ input: DifferentialInput
) -> Attempt<T> {
  func agree(_ theirs: Outcome, _ ours: Outcome) -> Bool {
    if theirs.matches(ours: ours) {
      return true
    }
    guard let theirError = theirs.error, let ourError = ours.error else { return false }
    return unorderedMembers.allows(foundation: theirError, ours: ourError)
  }
  if agree(foundation.outcome, ours.outcome) {
    return ours
  }
  if !strict, let error = foundation.outcome.error, error.kind == "dataCorrupted",
    error.path == "/", DocumentRewriting.foundationReadsAsUTF8(input.document)
  {
    // Finding: we tell UTF-16 by the first code unit, Foundation by the first two; a document
    // whose second character is beyond U+00FF is UTF-16 for us and invalid UTF-8 for Foundation.
    return ours
  }
  var notes: [String] = []
  let utf8 = DocumentRewriting.utf8(input.document)
  func describe(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.prefix(2_000), as: UTF8.self).debugDescription
  }

  // Our side: the document as it is, then, when we find it invalid, rewritten.
  var oursRewritten: [(document: [UInt8]?, attempt: Attempt<T>)] = [(utf8, ours)]
  if ours.outcome.error?.isSyntaxError == true {
    var base = utf8.map { ("", $0) }
    if base == nil, !strict {
      // Finding: Foundation ignores an incomplete last code unit of a UTF-16 or UTF-32
      // document; we reject the document.
      base = DocumentRewriting.withoutIncompleteCodeUnit(input.document).map {
        ("without the incomplete last code unit, ", $0)
      }
    }
    if let (prefix, bytes) = base {
      let stripped = DocumentRewriting.strippingTrailingCommas(bytes)
      var rewrites: [(String, [UInt8])] = [
        ("\(prefix)as it is", bytes), ("\(prefix)without trailing commas", stripped),
      ]
      // Finding: Foundation checks number tokens, string escapes and UTF-8 only when the value
      // is read; we reject the document.
      for repair in [DocumentRewriting.StringRepair.replacementCharacter, .unfitNumber]
      where !strict {
        rewrites.append(
          (
            "\(prefix)without trailing commas, lazy tokens repaired (\(repair))",
            DocumentRewriting.repairingLazyTokens(stripped, repair)
          ))
      }
      var tried: Set<[UInt8]> = [Array(input.document)]
      for (name, rewritten) in rewrites where tried.insert(rewritten).inserted {
        let attempt = decode(
          T.self, with: .keyed, from: Data(rewritten), options: input.options, input)
        notes.append("KeyedJSON \(name): \(attempt.outcome)\n    \(describe(rewritten))")
        oursRewritten.append((rewritten, attempt))
      }
    }
  }
  if !strict {
    // Finding: Foundation reads some numbers that are not integers as integers (through a
    // `Double` or a `Decimal`: `1.00000000000000000001` as 1, `1e-324` as 0); we throw. Our
    // document gets every such number written as the `Int` Foundation reads (which an
    // element of a lossy array needs), or, one by one, each number we throw for as the integer
    // of the type that throws.
    for (document, _) in oursRewritten {
      guard let document else { continue }
      let rewritten = DocumentRewriting.replacingNumbers(document) { token in
        guard DocumentRewriting.isRFC8259Number(Array(token.utf8)),
          token.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }),
          DocumentRewriting.plainInteger(token) == nil
        else { return nil }
        return foundationInteger(token, "Int", input.options)
      }
      guard rewritten != document else { continue }
      let attempt = decode(
        T.self, with: .keyed, from: Data(rewritten), options: input.options, input)
      notes.append("KeyedJSON with Foundation's integers: \(attempt.outcome)")
      oursRewritten.append((rewritten, attempt))
    }
    for (document, first) in oursRewritten {
      guard var rewritten = document else { continue }
      var attempt = first
      for _ in 0..<8 {
        guard let error = attempt.outcome.error,
          let (token, typeName) = unfitNumber(error),
          let integer = foundationInteger(token, typeName, input.options)
        else { break }
        rewritten = DocumentRewriting.replacingNumbers(rewritten) { $0 == token ? integer : nil }
        attempt = decode(
          T.self, with: .keyed, from: Data(rewritten), options: input.options, input)
        notes.append("KeyedJSON with \(token) as \(typeName) \(integer): \(attempt.outcome)")
        oursRewritten.append((rewritten, attempt))
      }
    }
  }

  // Foundation's side: the document as it is, then, when Foundation finds it invalid,
  // underflows as zero (documented) and integers written with a fraction or an exponent as
  // plain digits (a finding: Foundation rejects `9223372036854775807.0` as an `Int`).
  var theirsRewritten: [Outcome] = [foundation.outcome]
  if let utf8, let error = foundation.outcome.error, error.kind == "dataCorrupted",
    error.path == "/"
  {
    let plain = strict ? utf8 : DocumentRewriting.plainIntegers(utf8)
    var rewrites: [(String, [UInt8])] = []
    for base in [utf8, plain] {
      let prefix = base == utf8 ? "" : "integers as plain digits, "
      rewrites.append(("integers as plain digits", base))
      for float in [false, true] {
        rewrites.append(
          (
            "\(prefix)\(float ? "Float" : "Double") underflows as zero",
            DocumentRewriting.zeroingUnderflows(base, float: float)
          ))
      }
      for only in 0..<min(DocumentRewriting.floatOnlyUnderflows(base), 4) {
        rewrites.append(
          (
            "\(prefix)Double underflows and Float-only underflow \(only) as zero",
            DocumentRewriting.zeroingUnderflows(base, float: true, only: only)
          ))
      }
    }
    var tried: Set<[UInt8]> = [utf8]
    for (name, rewritten) in rewrites where tried.insert(rewritten).inserted {
      let attempt = decode(
        T.self, with: .foundation, from: Data(rewritten), options: input.options, input)
      notes.append("Foundation with \(name): \(attempt.outcome)")
      theirsRewritten.append(attempt.outcome)
    }
  }

  for theirs in theirsRewritten {
    for (_, attempt) in oursRewritten where agree(theirs, attempt.outcome) {
      return attempt
    }
  }
  violation(
    "decoding \(T.self): Foundation and KeyedJSON disagree\n  Foundation: \(foundation.outcome)"
      + "\n  KeyedJSON:  \(ours.outcome)" + notes.map { "\n  \($0)" }.joined(), input)
}

/// The number and the type of our "does not fit" error.
func unfitNumber(_ error: ErrorSummary) -> (token: String, type: String)? {
  let prefix = "Parsed JSON number <"
  guard error.kind == "dataCorrupted", error.message.hasPrefix(prefix),
    let close = error.message.range(of: "> does not fit in ")
  else { return nil }
  let token = String(
    error.message[
      error.message.index(error.message.startIndex, offsetBy: prefix.count)..<close.lowerBound])
  let type = String(error.message[close.upperBound...].dropLast())
  return (token, type)
}

/// The integer Foundation reads `token` as, for an integer type named `typeName`.
func foundationInteger(_ token: String, _ typeName: String, _ options: CoderOptions) -> String? {
  let decoder = foundationDecoder(options)
  let data = Data("[\(token)]".utf8)
  func read<Integer: FixedWidthInteger & Decodable>(_ type: Integer.Type) -> String? {
    (try? decoder.decode([Integer].self, from: data)).flatMap { $0.first.map { "\($0)" } }
  }
  switch typeName {
  case "Int": return read(Int.self)
  case "Int8": return read(Int8.self)
  case "Int16": return read(Int16.self)
  case "Int32": return read(Int32.self)
  case "Int64": return read(Int64.self)
  case "UInt": return read(UInt.self)
  case "UInt8": return read(UInt8.self)
  case "UInt16": return read(UInt16.self)
  case "UInt32": return read(UInt32.self)
  case "UInt64": return read(UInt64.self)
  default: return nil
  }
}

/// Encodes `value` with both encoders and requires the same bytes (or the same error); decodes
/// what we wrote with both decoders and requires the value that was encoded.
func checkEncoders<T: Codable>(_ value: T, canonical text: String, _ input: DifferentialInput) {
  let options = input.options
  var variants: [EncodingVariant] = [.asOptions]
  if options.convertsKeys { variants.append(.defaultKeys) }
  if options.nonConformingStrings { variants.append(.throwingNonConforming) }
  for variant in variants {
    let foundation = encode(value, with: .foundation, options: options, variant, input)
    let ours = encode(value, with: .keyed, options: options, variant, input)
    let describe: (Result<Data, ErrorSummary>) -> String = {
      switch $0 {
      case .success(let data): String(decoding: data, as: UTF8.self).debugDescription
      case .failure(let error): "error \(error)"
      }
    }
    if verbose {
      print("  encoded (\(variant)):\n    Foundation: \(describe(foundation))")
      print("    KeyedJSON:  \(describe(ours))")
    }
    switch (foundation, ours) {
    case (.success(let expected), .success(let written)) where expected == written:
      break
    case (.failure(let expected), .failure(let thrown))
    where expected.kind == thrown.kind && expected.path == thrown.path:
      break
    case (.failure(let expected), .success(let written))
    where !strict && expected.kind == "invalidValue" && expected.path == "/"
      && DocumentRewriting.nestingDepth(Array(written)) >= 512:
      // Finding: Foundation's JSONEncoder refuses to write 512 or more levels of arrays and
      // objects (its decoder reads up to 512); we write any depth.
      break
    case (.success(let expected), .success(let written))
    where !strict && options.convertsKeys && variant == .asOptions
      && repeatsAName(written) && !repeatsAName(expected):
      // Finding: with `.convertToSnakeCase`, two keys of a Keyedable model that convert to one
      // name (`aB` and `a_b`) are both written; Foundation writes the name once.
      break
    case (.success(let expected), .success(let written))
    where !strict && sameExceptMemberOrder(expected, written):
      // Finding: with `.sortedKeys` Foundation orders member names by their UTF-8 bytes, we by
      // Swift's `<` on strings (canonical equivalence): names outside ASCII may come out in
      // another order.
      break
    default:
      violation(
        "encoding \(T.self) (\(variant)): Foundation and KeyedJSON disagree\n  value: \(text)"
          + "\n  Foundation: \(describe(foundation))\n  KeyedJSON:  \(describe(ours))", input)
    }
    guard case .success(let written) = ours else { continue }
    // Member names converted to snake case don't convert back.
    let roundTrips =
      switch variant {
      case .asOptions: !options.convertsKeys
      case .defaultKeys: true
      case .throwingNonConforming: false
      }
    guard roundTrips else { continue }
    for coder in [Coder.foundation, .keyed] {
      let again = decode(
        T.self, with: coder, from: written, options: options.withDefaultKeys, input)
      guard case .value(let decoded) = again.outcome, Array(decoded.utf8) == Array(text.utf8)
      else {
        violation(
          "\(T.self) encoded as \(describe(ours)), which \(coder) decodes to \(again.outcome), "
            + "not \(text)", input)
      }
    }
  }
}

/// Whether an encoder output has an object with two members of the same name (the same bytes,
/// once unescaped).
func repeatsAName(_ output: Data) -> Bool {
  guard
    let document = try? output.withUnsafeBytes({ try JSONDocument(parsing: $0) }),
    document.entryCount > 0
  else { return false }
  for entry in 0..<document.entryCount where document.kind(entry) == .object {
    var names = Set<[UInt8]>()
    var key = entry + 1
    while key < document.next(entry) {
      guard names.insert(Array(JSONStrings.string(at: key, in: document).utf8)).inserted else {
        return true
      }
      key = document.next(key + 1)
    }
  }
  return false
}

/// Whether two encoder outputs differ only in the order of members with names outside ASCII:
/// they decode to the same JSON value (whose members are sorted by UTF-8 bytes).
func sameExceptMemberOrder(_ lhs: Data, _ rhs: Data) -> Bool {
  guard lhs.count == rhs.count, lhs.contains(where: { $0 >= 0x80 }) else { return false }
  let decoder = KeyedJSONDecoder()
  guard let left = try? decoder.decode(JSONAny.self, from: lhs),
    let right = try? decoder.decode(JSONAny.self, from: rhs)
  else { return false }
  return Array(canonical(left).utf8) == Array(canonical(right).utf8)
}

// MARK: - Entry point

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func jsonDifferentialFuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  var input = DifferentialInput(UnsafeRawBufferPointer(start: start, count: count))
  if verbose {
    print("options: \(input.options)\ndocument: \(input.documentText)")
  }
  // Finding: with `.convertFromSnakeCase`, Foundation capitalizes each word of a member name's
  // components with `capitalized` (word by word: `2nd` → `2Nd`, `a=b` → `A=B`, `ß` → `Ss`), we
  // uppercase only the first character and lowercase the rest.
  // (An incomplete last code unit of UTF-16 or UTF-32, which Foundation ignores, is dropped for
  // these rewrites.)
  if !strict, input.options.convertsKeys,
    let utf8 = DocumentRewriting.utf8(input.document)
      ?? DocumentRewriting.withoutIncompleteCodeUnit(input.document)
  {
    let agreeing = DocumentRewriting.agreeingSnakeCaseNames(utf8)
    if agreeing != utf8 {
      input.document = Data(agreeing)
      if verbose {
        print("names the decoders convert differently replaced: \(input.documentText)")
      }
    }
  }
  // Finding: with `.iso8601`, Foundation's JSONDecoder reads dates with `Date.ISO8601FormatStyle`
  // and we with `ISO8601DateFormatter` (`.withInternetDateTime`), which accept different
  // strings (fractional seconds, a leading space, second 60, years beyond four digits...).
  if !strict, input.options.isoDatesAndByteArrays,
    let utf8 = DocumentRewriting.utf8(input.document)
      ?? DocumentRewriting.withoutIncompleteCodeUnit(input.document)
  {
    let agreeing = DocumentRewriting.agreeingDates(utf8, input.options)
    if agreeing != utf8 {
      input.document = Data(agreeing)
      if verbose {
        print("dates the decoders read differently replaced: \(input.documentText)")
      }
    }
  }
  // Every model fails the same way on a document that both decoders reject as invalid.
  guard check(JSONAny.self, input) != .invalidJSON else { return 0 }
  check(KeyedPaths.self, input)
  check(KeyedRequired.self, input)
  check(KeyedListing.self, input)
  check(Typed.self, input)
  check(Loose.self, input)
  check([Int].self, input)
  check([Double?].self, input)
  check([KeyedPaths].self, input)
  check(Float.self, input)
  check(String.self, input)
  check(
    KeyedDictionaries.self, input,
    unorderedMembers: UnorderedMembers(dictionaries: [
      ["user", "stats", "counts"], ["inners"], ["dict", "inner"],
    ]))
  check(
    Dictionaries.self, input,
    unorderedMembers: UnorderedMembers(dictionaries: [
      ["names"], ["dict"], ["table"], ["table", nil], ["intKeys"], ["optionals"],
      ["keyed", "user", "stats", "counts"], ["keyed", "inners"], ["keyed", "dict", "inner"],
    ]))
  check([String: [Int]].self, input, unorderedMembers: UnorderedMembers(dictionaries: [[]]))
  return 0
}
