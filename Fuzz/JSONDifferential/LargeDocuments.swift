import Foundation

/// Large structured documents made from a few bytes, so that the fuzzer also tries the sizes and
/// shapes that stress member lookup, nesting and long names (see ``DifferentialInput``): a
/// document of tens of thousands of members is out of reach of byte-level mutations, and an
/// input that makes a coder slower than linear on it hits libFuzzer's `-timeout`, one that makes
/// it keep memory hits `-rss_limit_mb`.
///
/// A recipe is: the shape (byte 0), the size (byte 1), then bytes that vary the names.
enum LargeDocuments {
  /// The member names the models read, sprinkled among the generated ones so that the models
  /// find something to decode.
  static let modelNames = [
    "int", "string", "double", "names", "dict", "intKeys", "table", "optionals", "itns", "user",
    "list", "a", "id", "type",
  ]

  /// The document a recipe describes.
  static func document(from recipe: ArraySlice<UInt8>) -> Data {
    let bytes = Array(recipe)
    let shape = bytes.first ?? 0
    let size = Int(bytes.count > 1 ? bytes[1] : 0)
    let salt = bytes.count > 2 ? Array(bytes[2...]) : [0]
    var text: String
    // Sizes stay where both coders and this target's own checks (reflection, sorting,
    // Foundation's decoder, every model in turn), under AddressSanitizer and coverage
    // instrumentation, take at most about 2.5 s on this project's 2-core machine, an eighth of
    // the fuzzer's `-timeout` (20 s), so that a machine a few times slower is still far from it.
    // Measured there (2026-11-28): 8,192 dictionary members took 20-40 s, 1,024 took 4-5 s and
    // 512 about 2.5 s; 4,096 escaped names 3.2 s; 2,048 wide members or 1,024 lossy elements
    // about 2 s.
    // Growth with size is measured by `keyed-bench --scaling` and bounded by counts in the
    // tests' `WorstCaseTests`; here the sizes only need to be past the small-document paths.
    switch shape % 6 {
    case 0: text = wideObject(members: 16 << (size % 8), salt: salt)
    case 1: text = deepValue(depth: 1 + (size * 3) % 530, salt: salt)
    case 2: text = longNames(members: 2 + size % 64, length: 64 << (size % 10), salt: salt)
    case 3: text = escapedNames(members: 16 << (size % 8), salt: salt)
    case 4: text = dictionaries(members: 16 << (size % 6), salt: salt)
    default: text = lossyArrays(elements: 16 << (size % 7), salt: salt)
    }
    return Data(text.utf8)
  }

  /// A byte of the salt, cycling.
  private static func salt(_ salt: [UInt8], _ index: Int) -> UInt8 {
    salt.isEmpty ? 0 : salt[index % salt.count]
  }

  /// An object of `members` members whose names share their length and their first and last
  /// eight bytes, with the models' names among them, some of them repeated.
  private static func wideObject(members: Int, salt: [UInt8]) -> String {
    var parts: [String] = []
    parts.reserveCapacity(members + modelNames.count)
    for index in 0..<members {
      parts.append("\"aaaaaaaa\(String(index, radix: 16))zzzzzzzz\":\(index)")
      let byte = Self.salt(salt, index)
      if byte < 12 {
        parts.append("\"\(modelNames[Int(byte) % modelNames.count])\":\(index)")
      }
    }
    return "{" + parts.joined(separator: ",") + "}"
  }

  /// A value `depth` arrays and objects deep, the models' names on the way.
  private static func deepValue(depth: Int, salt: [UInt8]) -> String {
    var opening = ""
    var closing = ""
    for level in 0..<depth {
      let byte = Self.salt(salt, level)
      if byte & 1 == 0 {
        opening += "{\"\(modelNames[Int(byte >> 1) % modelNames.count])\":"
        closing = "}" + closing
      } else {
        opening += "["
        closing = "]" + closing
      }
    }
    return opening + "1" + closing
  }

  /// `members` members whose names are `length` bytes long and differ in one byte of the
  /// middle.
  private static func longNames(members: Int, length: Int, salt: [UInt8]) -> String {
    let body = String(repeating: "n", count: length)
    var parts: [String] = []
    for index in 0..<members {
      var name = Array(body.utf8)
      name[(length / 2 + index) % length] = UInt8(ascii: "a") + UInt8(index % 26)
      parts.append("\"\(String(decoding: name, as: UTF8.self))\":\(index)")
      parts.append("\"\(modelNames[Int(Self.salt(salt, index)) % modelNames.count])\":\(index)")
    }
    return "{" + parts.joined(separator: ",") + "}"
  }

  /// An object of `members` members, some names escaped (`\u0061`), some outside ASCII in two
  /// normalizations (`é` and `e\u0301`).
  private static func escapedNames(members: Int, salt: [UInt8]) -> String {
    var parts: [String] = []
    for index in 0..<members {
      switch Self.salt(salt, index) % 5 {
      case 0: parts.append("\"\\u0061\(index)\":\(index)")
      case 1: parts.append("\"\\u00e9\(index % 7)\":\(index)")
      case 2: parts.append("\"e\\u0301\(index % 7)\":\(index)")
      case 3: parts.append("\"\(modelNames[index % modelNames.count])\":\(index)")
      default: parts.append("\"k\(index)\":\(index)")
      }
    }
    return "{" + parts.joined(separator: ",") + "}"
  }

  /// The dictionaries the models read, each of `members` members: names that share their
  /// words, integer names that share their digits, nested objects.
  private static func dictionaries(members: Int, salt: [UInt8]) -> String {
    var names: [String] = []
    var integers: [String] = []
    var table: [String] = []
    for index in 0..<members {
      names.append("\"aaaaaaaa\(index)zzzzzzzz\":\(index)")
      integers.append("\"\(1_000_000_000_000 + index * 1_000_000)\":\"\(index)\"")
      if Self.salt(salt, index) & 3 == 0 {
        table.append("\"t\(index)\":{\"a\":\(index),\"b\":\(index + 1)}")
      }
    }
    return "{\"names\":{" + names.joined(separator: ",") + "},\"intKeys\":{"
      + integers.joined(separator: ",") + "},\"table\":{" + table.joined(separator: ",")
      + "},\"dict\":{" + names.prefix(members / 2).joined(separator: ",") + "}}"
  }

  /// Arrays of `elements` elements, most of them of the wrong type.
  private static func lossyArrays(elements: Int, salt: [UInt8]) -> String {
    var values: [String] = []
    values.reserveCapacity(elements)
    for index in 0..<elements {
      values.append(Self.salt(salt, index) & 7 == 0 ? "\(index)" : "\"x\"")
    }
    let array = "[" + values.joined(separator: ",") + "]"
    return "{\"itns\":\(array),\"list\":\(array),\"dict\":{\"inner\":{\"a\":\(array)}}}"
  }
}
