// A libFuzzer target for KeyedCodable: arbitrary bytes become a key, key options and a JSON
// document; several Keyedable models decode the document with that key, and what decodes is
// encoded and decoded again.
//
// Build and run with Scripts/fuzz.sh (the binary is shared with the differential JSON target:
// Fuzz/FuzzTargets.swift). The target traps (so libFuzzer saves the input) only on a
// broken invariant:
//
// - a decode or encode throws an error that is not a `DecodingError` / `EncodingError`;
// - decoding the same document twice with one type, or with two types of the same model (whose
//   cached plans come from different earlier inputs), gives different results;
// - what KeyedCodable encoded does not decode, decodes to a different value, or encodes to
//   different JSON the second time.
//
// Crashes, hangs, memory errors and leaks are reported by libFuzzer and AddressSanitizer.

import Foundation

/// The input split into its parts.
///
/// Layout: byte 0 chooses the options (bits 0–2 the delimiter, 3–4 the flat marker, 5–7 the
/// lossy-array marker, from the tables below), byte 1 the ``Program`` templates, then the key up
/// to the first newline (at most 256 bytes, invalid UTF-8 repaired), then the JSON document.
struct FuzzInput {
  static let delimiters: [String?] = [".", "/", nil, "", "::", "é", "->", "🙂"]
  static let flats: [String?] = ["", nil, "__", "."]
  static let lossyMarkers: [String?] = ["* ", nil, "", "#", "~~ ", "t", "*", "🙂 "]

  var spec: FuzzSpec
  var document: Data
  /// A hash of the whole input, which picks the pool type.
  var hash: UInt64

  init?(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 2 else { return nil }
    let selector = bytes[0]
    let options = KeyOptions(
      delimiter: Self.delimiters[Int(selector & 7)],
      flat: Self.flats[Int(selector >> 3 & 3)],
      optionalArrayElements: Self.lossyMarkers[Int(selector >> 5)])
    let rest = bytes[2...]
    let newline = rest.firstIndex(of: 0x0A)
    let keyEnd = min(newline ?? rest.endIndex, rest.startIndex + 256)
    let key = String(decoding: rest[rest.startIndex..<keyEnd], as: UTF8.self)
    let documentStart = newline.map { $0 + 1 } ?? rest.endIndex
    spec = FuzzSpec(key: key, options: options, templates: bytes[1])
    document = Data(bytes[documentStart...])
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    self.hash = hash
  }
}

/// The outcome of a decode, comparable across types of one model.
enum Decoded<Value: Equatable>: Equatable {
  case value(Value)
  case error(String)
}

/// Stops the fuzzer on a broken invariant, printing what it needs to reproduce it.
func violation(_ message: String, _ input: FuzzInput) -> Never {
  let document = String(decoding: input.document.prefix(2_000), as: UTF8.self)
  fatalError("KeyedFuzz invariant: \(message)\n  \(input.spec)\n  document: \(document)")
}

/// The kind and coding path of a decoding error; traps on any other error.
func describe(_ error: any Error, _ input: FuzzInput, while action: String) -> String {
  let path: (DecodingError.Context) -> String = { context in
    context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue.debugDescription }
      .joined(separator: "/")
  }
  switch error {
  case DecodingError.keyNotFound(let key, let context):
    return "keyNotFound(\(key.stringValue.debugDescription)) at \(path(context))"
  case DecodingError.valueNotFound(_, let context):
    return "valueNotFound at \(path(context))"
  case DecodingError.typeMismatch(_, let context):
    return "typeMismatch at \(path(context))"
  case DecodingError.dataCorrupted(let context):
    return "dataCorrupted at \(path(context))"
  default:
    violation("\(action) threw \(type(of: error)), not a DecodingError: \(error)", input)
  }
}

func decode<Model: FuzzModel>(
  _ type: Model.Type, from data: Data, _ input: FuzzInput, while action: String
) -> Decoded<Model.Value> {
  let decoder = JSONDecoder()
  decoder.userInfo[fuzzSpecKey] = input.spec
  do {
    return .value(try decoder.decode(Model.self, from: data, with: context(input)).value)
  } catch {
    return .error(describe(error, input, while: action))
  }
}

/// The context every decode and encode of an input runs with: the configuration of the
/// configured models.
func context(_ input: FuzzInput) -> MappingContext {
  .configuration(fuzzConfiguration(input.spec))
}

/// Whether to print what each model does (set `KEYED_FUZZ_VERBOSE=1` to replay an input).
let keyedFuzzVerbose = ProcessInfo.processInfo.environment["KEYED_FUZZ_VERBOSE"] == "1"

/// Decodes the input's document with `Model` (twice) and `Pool`, compares, then checks that what
/// decoded survives an encode and a decode unchanged.
func exercise<Model: FuzzModel, Pool: FuzzModel>(
  _ model: Model.Type, _ pool: Pool.Type, _ input: FuzzInput
) where Model.Value == Pool.Value {
  let name = "\(Model.self)"
  let first = decode(Model.self, from: input.document, input, while: "decoding \(name)")
  let second = decode(Model.self, from: input.document, input, while: "decoding \(name) again")
  if first != second {
    violation("\(name) decoded \(first), then \(second)", input)
  }
  if keyedFuzzVerbose {
    print("\(name): \(first)")
  }
  let pooled = decode(Pool.self, from: input.document, input, while: "decoding \(Pool.self)")
  if first != pooled {
    violation("\(name) decoded \(first), \(Pool.self) \(pooled)", input)
  }

  let decoder = JSONDecoder()
  decoder.userInfo[fuzzSpecKey] = input.spec
  guard case .value = first,
    let model = try? decoder.decode(Model.self, from: input.document, with: context(input))
  else { return }
  let encoder = JSONEncoder()
  encoder.outputFormatting = .sortedKeys
  encoder.userInfo[fuzzSpecKey] = input.spec
  let encoded: Data
  do {
    encoded = try encoder.encode(model, with: context(input))
  } catch let error as EncodingError {
    // A conflict between mappings, or more levels than JSONEncoder writes.
    if keyedFuzzVerbose {
      print("  encoding threw \(error)")
    }
    return
  } catch {
    violation("encoding \(name) threw \(type(of: error)), not an EncodingError: \(error)", input)
  }
  let json = String(decoding: encoded, as: UTF8.self)
  if keyedFuzzVerbose {
    print("  encoded: \(json)")
  }
  let again: Model
  do {
    again = try decoder.decode(Model.self, from: encoded, with: context(input))
  } catch {
    violation("\(name) encoded \(json), which does not decode: \(error)", input)
  }
  if again.value != model.value {
    violation("\(name) encoded \(json), which decodes to \(again.value), not \(model.value)", input)
  }
  do {
    let reencoded = try encoder.encode(again, with: context(input))
    if reencoded != encoded {
      violation(
        "\(name) encoded \(json), then \(String(decoding: reencoded, as: UTF8.self))", input)
    }
  } catch {
    violation("\(name) encoded \(json), then threw \(error)", input)
  }
}

/// Runs every model with the `Origin` types and with the pool types of `Pool`.
func exerciseAll<Pool>(_ input: FuzzInput, pool: Pool.Type) {
  exercise(Program<Origin>.self, Program<Pool>.self, input)
  exercise(AllRoot<Origin>.self, AllRoot<Pool>.self, input)
  exercise(AllFor<Origin>.self, AllFor<Pool>.self, input)
  exercise(Configured<Origin>.self, Configured<Pool>.self, input)
  exercise(Shapes<Origin>.self, Shapes<Pool>.self, input)
}

/// Picks the pool type numbered by the low `bits` bits of `number` (64 types for 6 bits): each
/// sees a different subset of the inputs, so its cached plans differ from the `Origin` ones.
func exercise<Tag>(_ input: FuzzInput, tag: Tag.Type, number: UInt64, bits: Int) {
  guard bits > 0 else { return exerciseAll(input, pool: Tag.self) }
  if number & 1 == 0 {
    exercise(input, tag: Bit0<Tag>.self, number: number >> 1, bits: bits - 1)
  } else {
    exercise(input, tag: Bit1<Tag>.self, number: number >> 1, bits: bits - 1)
  }
}

/// This target's libFuzzer entry point (Fuzz/FuzzTargets.swift calls it).
func keyedFuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  guard let input = FuzzInput(UnsafeRawBufferPointer(start: start, count: count)) else {
    return 0
  }
  if keyedFuzzVerbose {
    print("\(input.spec)")
  }
  exercise(input, tag: Origin.self, number: input.hash, bits: 6)
  return 0
}
