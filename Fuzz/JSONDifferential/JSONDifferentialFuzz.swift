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
// The differences from Foundation that Docs/KeyedCodable.docc/JSONCoder.md lists ("Differences
// from Foundation") are allowed, each where it is marked "Difference:", unless
// `JSON_FUZZ_STRICT=1`, which allows none of them (to see which still occur):
//
// - RFC 8259, strictly: we reject trailing commas, and number tokens, string escapes and UTF-8
//   that Foundation checks only when the value is read (`{"a":1,"a":01}` decodes);
// - byte order marks and stray bytes: we tell UTF-16 without a byte-order mark by its first code
//   unit, Foundation by its first two; Foundation ignores an incomplete last code unit of UTF-16
//   and UTF-32;
// - numbers that don't fit (`300` as an `Int8`, `1e-400` as a `Double`): Foundation reports them
//   as invalid JSON at the root, we at the number's coding path;
// - integers are read exactly: Foundation reads some numbers that are not integers as integers
//   (`1.00000000000000000001` as 1, `1e-400` as 0) and rejects some that are
//   (`9223372036854775807.0` as an `Int`);
// - `.iso8601`: Foundation reports a string that is not a date without the date's own key;
// - 512 levels are written: Foundation's encoder refuses 512 levels of nesting, which both
//   decoders read.
//
// Foundation decodes a dictionary's members in the order of its hash, which changes from run to
// run, and we in document order: when several members fail, the two may report different ones
// (see `UnorderedMembers`; allowed also when strict).
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
/// document. Nor does one start with `F8` (never in UTF-8): the second byte picks the options
/// and the rest is a recipe for a large document (see ``LargeDocuments``). Otherwise the whole
/// input is the document, read with the default options.
struct DifferentialInput {
  var options: CoderOptions
  var document: Data

  init(_ bytes: UnsafeRawBufferPointer) {
    if let first = bytes.first, first & 0xE0 == 0xC0 {
      options = CoderOptions(bits: first & 0x1F)
      document = Data(bytes[1...])
    } else if bytes.first == 0xF8, bytes.count >= 2 {
      options = CoderOptions(bits: bytes[1] & 0x1F)
      document = LargeDocuments.document(from: Array(bytes[2...])[...])
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
let jsonFuzzVerbose = ProcessInfo.processInfo.environment["JSON_FUZZ_VERBOSE"] == "1"

/// Whether to trap on the documented differences from Foundation too (set
/// `JSON_FUZZ_STRICT=1`), to see which of them still occur.
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
  /// Unless strict, allows the documented differences in where an error is reported.
  func matches(ours: ErrorSummary) -> Bool {
    if kind == ours.kind, path == ours.path, detail == ours.detail {
      return true
    }
    guard !strict, kind == "dataCorrupted", ours.kind == "dataCorrupted" else { return false }
    // Difference: Foundation reports a number that does not fit the type read (too large, or
    // not zero but rounding to zero) as invalid JSON at the root; we report it at its path.
    if path == "/", isUnfitNumber(ours.message) {
      return true
    }
    // Difference: Foundation reports a date that is not ISO 8601 (`.iso8601`) at the coding path
    // of the date's container, without the date's own key or index; we report it at the date.
    return message == "Expected date string to be ISO8601-formatted."
      && ours.message == message && !ours.components.isEmpty
      && components == Array(ours.components.dropLast())
  }
}

/// Whether a message is of our error for a number that does not fit the type read: too large
/// ("Parsed JSON number <300> does not fit in Int8."), or not zero but rounding to zero
/// ("Number 1e-400 is not representable in Swift.").
func isUnfitNumber(_ message: String) -> Bool {
  (message.hasPrefix("Parsed JSON number <") && message.contains("> does not fit in "))
    || (message.hasPrefix("Number ") && message.hasSuffix(" is not representable in Swift."))
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
  /// inside a dictionary, or (unless strict) Foundation reports an unfit number without a path
  /// and ours is inside a dictionary.
  func allows(foundation: ErrorSummary, ours: ErrorSummary) -> Bool {
    if foundation.kind == "dataCorrupted", foundation.path == "/" {
      return !strict && ours.components.indices.contains { isDictionary(ours.components[..<$0]) }
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
  if jsonFuzzVerbose {
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

/// Requires Foundation's and our outcome to match, allowing (unless strict) the documented
/// differences, and returns our attempt, or the one that settles a difference.
///
/// When the outcomes differ, the document is rewritten the way the difference says, on our side
/// or on Foundation's, and any of Foundation's outcomes may match any of ours:
///
/// - UTF-16 detection: when Foundation finds invalid UTF-8 in what we read as UTF-16 without a
///   byte-order mark, ours stands;
/// - strict RFC 8259: when we reject the document, the document without its trailing commas,
///   and with the tokens Foundation checks only when they are read repaired (see
///   ``DocumentRewriting/repairingLazyTokens(_:_:)``), and an incomplete last code unit of
///   UTF-16 or UTF-32 dropped;
/// - integers: our document with the numbers Foundation reads as integers though they are not
///   written as Foundation reads them, and, when Foundation throws invalid JSON at the root,
///   Foundation's document with integers written with a fraction or an exponent as plain
///   digits;
/// - dictionaries: when both throw, the errors may be of different members of one dictionary
///   (see ``UnorderedMembers``), also when strict.
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
  if foundation.value != nil, ours.value != nil,
    DocumentRewriting.hasIntegerNamesThatCollide(input.document)
  {
    // Not a difference of ours: two spellings of one integer key (`"0"` and `"-0"`) in an
    // `[Int: Value]`, whose last one wins in the order Foundation's dictionary hashes them
    // (which changes from run to run), and in document order for us.
    return ours
  }
  if !strict, let error = foundation.outcome.error, error.kind == "dataCorrupted",
    error.path == "/", DocumentRewriting.foundationReadsAsUTF8(input.document)
  {
    // Difference: we tell UTF-16 by the first code unit, Foundation by the first two; a document
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
      // Difference: Foundation ignores an incomplete last code unit of a UTF-16 or UTF-32
      // document; we reject the document.
      base = DocumentRewriting.withoutIncompleteCodeUnit(input.document).map {
        ("without the incomplete last code unit, ", $0)
      }
    }
    if let (prefix, bytes) = base, !strict {
      // Difference: Foundation accepts trailing commas; we reject the document.
      let stripped = DocumentRewriting.strippingTrailingCommas(bytes)
      var rewrites: [(String, [UInt8])] = [
        ("\(prefix)as it is", bytes), ("\(prefix)without trailing commas", stripped),
      ]
      // Difference: Foundation checks number tokens, string escapes and UTF-8 only when the
      // value is read; we reject the document.
      for repair in [DocumentRewriting.StringRepair.replacementCharacter, .unfitNumber] {
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
    // Difference: Foundation reads some numbers that are not integers as integers (through a
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

  // Foundation's side: the document as it is, then, when Foundation finds it invalid, with
  // integers written with a fraction or an exponent as plain digits (difference: Foundation
  // rejects `9223372036854775807.0` as an `Int`).
  var theirsRewritten: [Outcome] = [foundation.outcome]
  if !strict, let utf8, let error = foundation.outcome.error, error.kind == "dataCorrupted",
    error.path == "/"
  {
    let plain = DocumentRewriting.plainIntegers(utf8)
    if plain != utf8 {
      let attempt = decode(
        T.self, with: .foundation, from: Data(plain), options: input.options, input)
      notes.append("Foundation with integers as plain digits: \(attempt.outcome)")
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
    if jsonFuzzVerbose {
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
      // Difference: Foundation's JSONEncoder refuses to write 512 or more levels of arrays and
      // objects (its decoder reads 512); we write any depth.
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
    // `.iso8601` writes dates truncated to the second, as Foundation does: a date with a fraction
    // of a second decodes to what Foundation decodes from the same bytes.
    var expected = text
    for coder in [Coder.foundation, .keyed] {
      let again = decode(
        T.self, with: coder, from: written, options: options.withDefaultKeys, input)
      if coder == .foundation, options.isoDatesAndByteArrays,
        case .value(let decoded) = again.outcome
      {
        expected = decoded
      }
      guard case .value(let decoded) = again.outcome, Array(decoded.utf8) == Array(expected.utf8)
      else {
        violation(
          "\(T.self) encoded as \(describe(ours)), which \(coder) decodes to \(again.outcome), "
            + "not \(expected)", input)
      }
    }
  }
}

// MARK: - Entry point

/// This target's libFuzzer entry point (Fuzz/FuzzTargets.swift calls it).
func jsonDifferentialFuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let input = DifferentialInput(UnsafeRawBufferPointer(start: start, count: count))
  if jsonFuzzVerbose {
    print("options: \(input.options)\ndocument: \(input.documentText)")
  }
  // Every model fails the same way on a document that both decoders reject as invalid.
  checkStreams(input)
  guard check(JSONAny.self, input) != .invalidJSON else { return 0 }
  checkJSONValue(input)
  check(KeyedPaths.self, input)
  check(KeyedRequired.self, input)
  check(KeyedListing.self, input)
  check(Typed.self, input)
  check(Loose.self, input)
  check([Int].self, input)
  check([Double?].self, input)
  check([KeyedPaths].self, input)
  check(Shaped.self, input)
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

/// Streams (issue 22): the document as a streamed top-level array and as JSON Lines, fed in
/// small chunks, gives what the in-memory decoder gives: the same elements (or values of each
/// line), and an error exactly where the in-memory decoder refuses the document (or a line).
func checkStreams(_ input: DifferentialInput) {
  let bytes = Array(input.document)
  // UTF-16 and UTF-32, which the in-memory decoder converts, are refused by streams.
  if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 || bytes[0] >= 0xFE { return }
  let chunk = 1 + bytes.count % 7
  func stream(lines: Bool) -> (values: [JSONValue], error: (any Error)?) {
    let engine = JSONStreamEngine(
      keyPath: lines ? nil : "", keyOptions: .default, lossy: false,
      options: KeyedJSONDecoder.Options(), context: nil)
    var values: [JSONValue] = []
    var offset = 0
    do {
      while true {
        switch try engine.next(JSONValue.self) {
        case .value(let value):
          values.append(value)
        case .end:
          return (values, nil)
        case .needsInput:
          if offset >= bytes.count {
            engine.endInput()
          } else {
            let end = min(bytes.count, offset + chunk)
            bytes[offset..<end].withUnsafeBytes { engine.append($0) }
            offset = end
          }
        }
      }
    } catch {
      return (values, error)
    }
  }
  let whole = try? KeyedJSONDecoder().decode(JSONValue.self, from: input.document)
  let streamed = stream(lines: false)
  switch whole {
  case .array(let elements)?:
    guard streamed.error == nil, streamed.values == elements else {
      violation(
        "A streamed array differs from the document's: \(streamed.values) / \(elements), "
          + "\(String(describing: streamed.error))", input)
    }
  case nil:
    guard streamed.error != nil else {
      violation("A stream accepted a document the decoder refuses: \(streamed.values)", input)
    }
  case .some:
    guard case DecodingError.dataCorrupted? = streamed.error else { break }
    violation("A stream refused a valid document that is not an array", input)
  }
  // JSON Lines: each line that isn't blank, read alone.
  var expected: [JSONValue] = []
  var failed = false
  // A byte-order mark is skipped at the start of the document only.
  let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
  for line in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
    guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
    // A line alone may be read as UTF-16 or after a byte-order mark; in a stream it is refused.
    guard line.first != 0xEF, !line.contains(where: { $0 == 0 || $0 >= 0xFE }),
      let value = try? KeyedJSONDecoder().decode(JSONValue.self, from: Data(line))
    else {
      failed = true
      break
    }
    expected.append(value)
  }
  let lines = stream(lines: true)
  if failed {
    guard lines.error != nil, lines.values == expected else {
      violation(
        "JSON Lines accepted a line the decoder refuses, or lost the ones before it: "
          + "\(lines.values) / \(expected)", input)
    }
  } else {
    guard lines.error == nil, lines.values == expected else {
      violation(
        "JSON Lines differ from the lines read alone: \(lines.values) / \(expected), "
          + "\(String(describing: lines.error))", input)
    }
  }
}

/// ``JSONValue`` on both decoders: KeyedJSONDecoder reads it whenever it reads the document as
/// any value, KeyedJSONEncoder writes it back to an identical value (numbers by their text,
/// members in order), and Foundation's decoder reads it through containers without a crash
/// (its numbers are written afresh and its members sorted, so its value isn't compared).
func checkJSONValue(_ input: DifferentialInput) {
  let ours = decode(
    JSONValue.self, with: .keyed, from: input.document, options: input.options, input)
  _ = decode(JSONValue.self, with: .foundation, from: input.document, options: input.options, input)
  let any = decode(JSONAny.self, with: .keyed, from: input.document, options: input.options, input)
  guard let value = ours.value else {
    if any.value != nil {
      violation("KeyedJSONDecoder read the document but not as a JSONValue: \(ours.outcome)", input)
    }
    return
  }
  do {
    let written = try KeyedJSONEncoder().encode(value)
    let again = try KeyedJSONDecoder().decode(JSONValue.self, from: written)
    guard again == value, again.hashValue == value.hashValue,
      again.description == value.description
    else {
      violation("A JSONValue written and read back differs: \(value) / \(again)", input)
    }
  } catch {
    violation("A JSONValue read by KeyedJSONDecoder didn't round-trip: \(error)", input)
  }
}

extension JSONValue: CanonicallyWritten {
  /// Compact JSON, numbers by their text and members in order.
  func writeCanonical(to text: inout String) {
    text += description
  }
}
