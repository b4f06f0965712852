// Support for the differential JSON fuzz target: a canonical text form of decoded values, and
// the document rewrites that model the documented differences from Foundation.

import Foundation

// MARK: - Canonical values

/// A text form of any decoded value that is equal for two values exactly when they are the
/// same: floating-point numbers by their shortest round-trip digits (so `-0.0` differs from
/// `0.0`; every NaN is `nan`), strings by their scalars, dictionaries and sets sorted, structs
/// and enums by their stored properties.
func canonical(_ value: Any) -> String {
  var text = ""
  writeCanonical(value, to: &text)
  return text
}

/// A value that writes its own canonical form, faster than reflection.
protocol CanonicallyWritten {
  func writeCanonical(to text: inout String)
}

extension JSONAny: CanonicallyWritten {
  func writeCanonical(to text: inout String) {
    switch self {
    case .null:
      text += ".null"
    case .bool(let value):
      text += value ? ".bool(true)" : ".bool(false)"
    case .number(let value):
      text += ".number(\(value))"
    case .string(let value):
      text += ".string(\(value.debugDescription))"
    case .array(let elements):
      text += ".array(["
      for (index, element) in elements.enumerated() {
        if index > 0 { text += "," }
        element.writeCanonical(to: &text)
      }
      text += "])"
    case .object(let members):
      text += ".object(["
      for (index, member) in members.enumerated() {
        if index > 0 { text += "," }
        member.writeCanonical(to: &text)
      }
      text += "])"
    }
  }
}

extension JSONAny.Member: CanonicallyWritten {
  func writeCanonical(to text: inout String) {
    text += name.debugDescription + ":"
    value.writeCanonical(to: &text)
  }
}

private func writeCanonical(_ value: Any, to text: inout String) {
  switch value {
  case let written as CanonicallyWritten:
    written.writeCanonical(to: &text)
    return
  case let members as [JSONAny.Member]:
    text += "["
    for (index, member) in members.enumerated() {
      if index > 0 { text += "," }
      member.writeCanonical(to: &text)
    }
    text += "]"
    return
  case let string as String:
    text += string.debugDescription
    return
  case let double as Double:
    text += double.isNaN ? "nan" : "\(double)"
    return
  case let float as Float:
    text += float.isNaN ? "nan" : "\(float)f"
    return
  case let bool as Bool:
    text += bool ? "true" : "false"
    return
  case let integer as any BinaryInteger:
    text += "\(integer)"
    return
  case let data as Data:
    text += "Data(" + data.map { String($0, radix: 16) }.joined(separator: " ") + ")"
    return
  case let date as Date:
    text += "Date(\(date.timeIntervalSinceReferenceDate))"
    return
  case let url as URL:
    text += "URL(\(url.absoluteString.debugDescription))"
    return
  case let decimal as Decimal:
    text += "Decimal(\(decimal))"
    return
  default:
    break
  }
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .optional:
    if let wrapped = mirror.children.first {
      writeCanonical(wrapped.value, to: &text)
    } else {
      text += "nil"
    }
  case .collection:
    text += "["
    text += mirror.children.map { canonical($0.value) }.joined(separator: ",")
    text += "]"
  case .set, .dictionary:
    // A dictionary's children are (key, value) tuples.
    text += mirror.displayStyle == .set ? "Set[" : "["
    text += mirror.children.map { canonical($0.value) }.sorted(by: utf8Precedes)
      .joined(separator: ",")
    text += "]"
  case .enum:
    if let payload = mirror.children.first {
      text += ".\(payload.label ?? "?")("
      writeCanonical(payload.value, to: &text)
      text += ")"
    } else {
      text += ".\(value)"
    }
  case .struct, .class, .tuple:
    text += "\(mirror.displayStyle == .tuple ? "" : "\(type(of: value))")("
    text += mirror.children.map { ($0.label ?? "") + ":" + canonical($0.value) }
      .joined(separator: ",")
    text += ")"
  default:
    text += "\(value)"
  }
}

// MARK: - Document rewrites

/// Rewrites of a document that model the documented differences from Foundation.
enum DocumentRewriting {
  /// Whether an object of the document has two member names that are different spellings of one
  /// integer (`"0"` and `"-0"`): an `[Int: Value]` keeps the last one it decodes, which for
  /// Foundation depends on the order of its dictionary's hash and changes from run to run.
  static func hasIntegerNamesThatCollide(_ document: Data) -> Bool {
    guard
      let parsed = try? document.withUnsafeBytes({ try JSONDocument(parsing: $0) })
    else { return false }
    var entry = 0
    while entry < parsed.entryCount {
      if parsed.kind(entry) == .object {
        var integers: [Int: String] = [:]
        var name = entry &+ 1
        let end = parsed.next(entry)
        while name < end {
          let text = JSONStrings.string(at: name, in: parsed)
          if let integer = Int(text), let other = integers.updateValue(text, forKey: integer),
            other != text
          {
            return true
          }
          name = parsed.next(name &+ 1)
        }
      }
      entry &+= 1
    }
    return false
  }

  /// The document's UTF-8 bytes (transcoded from UTF-16 or UTF-32 as both decoders do), or
  /// `nil` when it is not valid text.
  static func utf8(_ document: Data) -> [UInt8]? {
    document.withUnsafeBytes { raw -> [UInt8]? in
      switch JSONEncodingDetection.utf8Bytes(of: raw) {
      case .asIs: Array(raw)
      case .transcoded(let bytes): bytes
      case .invalid: nil
      }
    }
  }

  /// Whether we read a document without a byte-order mark as UTF-16, which Foundation reads as
  /// UTF-8 (and so as invalid: it has a zero byte).
  ///
  /// We tell UTF-16 by its first code unit (`xx 00` little-endian, `00 xx` big-endian);
  /// Foundation, from four bytes on, by its first two (`xx 00 xx 00`, `00 xx 00 xx`, as in
  /// RFC 4627), so a document whose second character is beyond U+00FF (a top-level string such
  /// as `"\u{F31}"`) is UTF-16 for us only.
  static func foundationReadsAsUTF8(_ document: Data) -> Bool {
    let bytes = Array(document.prefix(4))
    guard bytes.count == 4 else { return false }
    let (b0, b1, b2, b3) = (bytes[0], bytes[1], bytes[2], bytes[3])
    if (b0 == 0xFE && b1 == 0xFF) || (b0 == 0xFF && b1 == 0xFE) || (b0 == 0 && b1 == 0) {
      return false  // A byte-order mark, or UTF-32.
    }
    if b0 != 0, b1 == 0, !(b2 == 0 && b3 == 0) {
      return !(b2 != 0 && b3 == 0)  // UTF-16LE for us.
    }
    if b0 == 0, b1 != 0 {
      return !(b2 == 0 && b3 != 0)  // UTF-16BE for us.
    }
    return false
  }

  /// The UTF-8 bytes of a UTF-16 or UTF-32 document whose last code unit is incomplete, without
  /// that unit; `nil` for any other document.
  static func withoutIncompleteCodeUnit(_ document: Data) -> [UInt8]? {
    guard utf8(document) == nil else { return nil }
    for count in [document.count % 2, document.count % 4] where count > 0 {
      if let bytes = utf8(document.dropLast(count)) {
        return bytes
      }
    }
    return nil
  }

  /// Calls `body` with each byte and whether it is outside strings.
  private static func forEachByte(
    _ bytes: [UInt8], _ body: (_ index: Int, _ outsideStrings: Bool) -> Void
  ) {
    var inString = false
    var escaped = false
    for index in bytes.indices {
      let byte = bytes[index]
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        body(index, false)
      } else {
        if byte == UInt8(ascii: "\"") {
          inString = true
          body(index, false)
        } else {
          body(index, true)
        }
      }
    }
  }

  private static let whitespace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]

  /// The deepest nesting of arrays and objects in a document.
  static func nestingDepth(_ bytes: [UInt8]) -> Int {
    var depth = 0
    var deepest = 0
    forEachByte(bytes) { index, outside in
      guard outside else { return }
      switch bytes[index] {
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        deepest = max(deepest, depth)
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        depth -= 1
      default:
        break
      }
    }
    return deepest
  }

  /// The document without its trailing commas: commas outside strings followed, after
  /// whitespace, by `]` or `}`.
  static func strippingTrailingCommas(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    forEachByte(bytes) { index, outside in
      if outside, bytes[index] == UInt8(ascii: ",") {
        var next = index + 1
        while next < bytes.count, whitespace.contains(bytes[next]) { next += 1 }
        if next < bytes.count, bytes[next] == UInt8(ascii: "]") || bytes[next] == UInt8(ascii: "}")
        {
          return
        }
      }
      result.append(bytes[index])
    }
    return result
  }

  /// What a string that Foundation reads only lazily becomes in ``repairingLazyTokens(_:_:)``.
  enum StringRepair {
    /// A valid string, `"\uFFFD"`: the same when the string is not read.
    case replacementCharacter
    /// A number that fits no type, `1e400`: read as a string, it fails too (dropped by a lossy
    /// array, for one).
    case unfitNumber
  }

  /// The document with the tokens Foundation's parser only checks when a value is read made
  /// valid: a number token that is not an RFC 8259 number becomes `1e400` (which, as the
  /// invalid token does in Foundation, fails when read as any number and mismatches any other
  /// type), a string value with invalid UTF-8, an invalid escape or an unpaired surrogate escape
  /// is repaired as `repair` says, and such a member name becomes a unique valid name.
  static func repairingLazyTokens(_ bytes: [UInt8], _ repair: StringRepair) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    var names = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        var end = index + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
          end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard end < bytes.count else {
          result += bytes[index...]
          break
        }
        let token = bytes[index...end]
        if validEscapes(Array(token.dropFirst().dropLast())) {
          result += token
        } else {
          var next = end + 1
          while next < bytes.count, whitespace.contains(bytes[next]) { next += 1 }
          if next < bytes.count, bytes[next] == UInt8(ascii: ":") {
            names += 1
            result += Array("\"\\uFFFD#\(names)\"".utf8)
          } else {
            switch repair {
            case .replacementCharacter: result += Array("\"\\uFFFD\"".utf8)
            case .unfitNumber: result += Array("1e400".utf8)
            }
          }
        }
        index = end + 1
      } else if byte == UInt8(ascii: "-") || isDigit(byte) {
        var end = index
        while end < bytes.count, isNumberByte(bytes[end]) { end += 1 }
        let token = Array(bytes[index..<end])
        result += isRFC8259Number(token) ? token : Array("1e400".utf8)
        index = end
      } else {
        result.append(byte)
        index += 1
      }
    }
    return result
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
      || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
  }

  /// Whether `token` is `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
  static func isRFC8259Number(_ token: [UInt8]) -> Bool {
    var index = 0
    func digits() -> Int {
      let start = index
      while index < token.count, isDigit(token[index]) { index += 1 }
      return index - start
    }
    if index < token.count, token[index] == UInt8(ascii: "-") { index += 1 }
    guard index < token.count else { return false }
    if token[index] == UInt8(ascii: "0") {
      index += 1
    } else if digits() == 0 {
      return false
    }
    if index < token.count, token[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return false }
    }
    if index < token.count, token[index] == UInt8(ascii: "e") || token[index] == UInt8(ascii: "E") {
      index += 1
      if index < token.count, token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { return false }
    }
    return index == token.count
  }

  /// Whether a string's content is valid: UTF-8 without control characters, valid escapes, every
  /// surrogate escape paired.
  static func validEscapes(_ content: [UInt8]) -> Bool {
    guard String(validating: content, as: UTF8.self) != nil, !content.contains(where: { $0 < 0x20 })
    else { return false }
    var index = 0
    func hexUnit(at start: Int) -> UInt16? {
      guard start + 4 <= content.count else { return nil }
      var unit: UInt16 = 0
      for byte in content[start..<start + 4] {
        guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
        unit = unit << 4 | UInt16(digit)
      }
      return unit
    }
    while index < content.count {
      guard content[index] == UInt8(ascii: "\\") else {
        index += 1
        continue
      }
      guard index + 1 < content.count else { return false }
      let escaped = content[index + 1]
      if Array("\"\\/bfnrt".utf8).contains(escaped) {
        index += 2
        continue
      }
      guard escaped == UInt8(ascii: "u"), let unit = hexUnit(at: index + 2) else { return false }
      index += 6
      if unit >= 0xDC00 && unit <= 0xDFFF { return false }
      if unit >= 0xD800 && unit <= 0xDBFF {
        guard index + 1 < content.count, content[index] == UInt8(ascii: "\\"),
          content[index + 1] == UInt8(ascii: "u"), let low = hexUnit(at: index + 2),
          low >= 0xDC00 && low <= 0xDFFF
        else { return false }
        index += 6
      }
    }
    return true
  }

  /// The document with each number token (outside strings) that `transform` maps to a
  /// replacement replaced.
  static func replacingNumbers(_ bytes: [UInt8], _ transform: (String) -> String?) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var token: [UInt8] = []
    func flush() {
      guard !token.isEmpty else { return }
      if let replacement = transform(String(decoding: token, as: UTF8.self)) {
        result += Array(replacement.utf8)
      } else {
        result += token
      }
      token.removeAll()
    }
    forEachByte(bytes) { index, outside in
      let byte = bytes[index]
      // A number starts with a digit or a minus sign; `e` alone is part of `true` or `false`.
      if outside, isNumberByte(byte), !token.isEmpty || isDigit(byte) || byte == UInt8(ascii: "-") {
        token.append(byte)
      } else {
        flush()
        result.append(byte)
      }
    }
    flush()
    return result
  }

  /// The document with every number that is an integer written with a fraction or an exponent
  /// (`1.0`, `1e2`, `9223372036854775807.0`) written as plain digits, when that takes at most
  /// 40 digits.
  static func plainIntegers(_ bytes: [UInt8]) -> [UInt8] {
    replacingNumbers(bytes) { token in
      guard token.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }),
        isRFC8259Number(Array(token.utf8))
      else { return nil }
      return plainInteger(token)
    }
  }

  /// A valid number token as plain integer digits, or `nil` when it is not an integer or needs
  /// more than 40 digits.
  static func plainInteger(_ token: String) -> String? {
    let negative = token.hasPrefix("-")
    let unsigned = negative ? token.dropFirst() : Substring(token)
    let significand = unsigned.prefix { $0 != "e" && $0 != "E" }
    var exponent = 0
    if significand.count < unsigned.count {
      guard let value = Int(unsigned.dropFirst(significand.count + 1)), value.magnitude < 1_000
      else {
        return nil
      }
      exponent = value
    }
    let parts = significand.split(separator: ".", omittingEmptySubsequences: false)
    var digits = Array(parts[0]) + (parts.count > 1 ? Array(parts[1]) : [])
    exponent -= parts.count > 1 ? parts[1].count : 0
    while let last = digits.last, last == "0", digits.count > 1 {
      digits.removeLast()
      exponent += 1
    }
    while let first = digits.first, first == "0", digits.count > 1 {
      digits.removeFirst()
    }
    if digits == ["0"] {
      return negative ? "-0" : "0"
    }
    guard exponent >= 0, digits.count + exponent <= 40 else { return nil }
    return (negative ? "-" : "") + String(digits) + String(repeating: "0", count: exponent)
  }
}
