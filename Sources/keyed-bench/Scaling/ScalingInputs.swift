import Foundation

// The inputs of the scaling cases, generated at run time (never committed): JSON written byte by
// byte, so that the shape of each document (member names, where each value falls on the
// decoder's tape) is exactly what the case is about.

/// A JSON document written piece by piece.
struct JSONText {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int) {
    bytes.reserveCapacity(capacity)
  }

  mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// Appends `"name":`.
  mutating func appendName(_ name: String) {
    bytes.append(UInt8(ascii: "\""))
    bytes.append(contentsOf: name.utf8)
    bytes.append(contentsOf: "\":".utf8)
  }

  var data: Data { Data(bytes) }
}

/// `value` in decimal, with leading zeros up to `width` digits.
func decimal(_ value: Int, width: Int) -> String {
  let digits = String(value)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// The number of decimal digits of the largest of `count` indexes (at least one).
func indexWidth(_ count: Int) -> Int {
  String(max(0, count - 1)).count
}

// MARK: - [Int: ScalingInner]

/// A document `{"0": {...}, "1": {...}, ...}` of ordinary eight-member objects.
struct DictionaryOfObjects {
  let data: Data
  /// The values, by key.
  let values: [Int: ScalingInner]
  /// The tape entry of each inner object, in document order, as computed while writing.
  let objectEntries: [Int]
}

/// The slot of `KeyedJSONDecoder`'s name-index cache that holds the index of the object at tape
/// entry `entry`.
///
/// A copy of `JSONNameIndex.Cache.slot(of:)` in
/// Sources/KeyedCodable/JSON/Parsing/JSONNameIndex.swift (eight slots), together with the tape's
/// layout in JSONDocument.swift: one entry per value and one per member name, in document order,
/// the root at entry 0. The `cache-slot` case places objects with these rules; if the library
/// changes either, the case no longer targets the root's slot and measures what `dict-objects`
/// does, which is the point: after the fix, where an object falls must not matter. The in-process
/// check recounts the entries from the text (``rootMemberValueEntries(in:)``), so it catches a
/// mistake in this generator, but not a change in the library.
func nameIndexCacheSlot(ofEntry entry: Int) -> Int {
  (entry ^ (entry >> 3) ^ (entry >> 7)) & 7
}

/// Tape entries an inner object takes without padding: itself and eight members of a name and a
/// scalar value each.
private let innerObjectEntries = 1 + 8 * 2

/// Generates `count` objects keyed `"0"`, `"1"`, ….
///
/// With `sharingRootSlot`, each object after the first ends with a member `"pad"` (an array of
/// zeros, ignored by the models) whose length puts the next object on a tape entry that
/// ``nameIndexCacheSlot(ofEntry:)`` maps to the root's slot: decoding the document then evicts the
/// root's index each time an object is read, and the next lookup in the root rebuilds it. The
/// first object is always at entry 2 (the root, then the first name).
func dictionaryOfObjects(count: Int, sharingRootSlot: Bool) -> DictionaryOfObjects {
  var random = Generator(seed: 19)
  var text = JSONText(capacity: count * 160)
  var values: [Int: ScalingInner] = [:]
  values.reserveCapacity(count)
  var entries: [Int] = []
  entries.reserveCapacity(count)
  let rootSlot = nameIndexCacheSlot(ofEntry: 0)
  text.append("{")
  var entry = 2
  for index in 0..<count {
    let inner = ScalingInner(
      id: index, name: random.word(), score: random.double(), active: random.bool(),
      count: random.int(0...1000), label: random.word(), ratio: random.double(),
      visible: random.bool())
    values[index] = inner
    entries.append(entry)
    if index > 0 { text.append(",") }
    text.appendName(String(index))
    text.append(
      #"{"id":\#(inner.id),"name":"\#(inner.name)","score":\#(inner.score),"#
        + #""active":\#(inner.active),"count":\#(inner.count),"label":"\#(inner.label)","#
        + #""ratio":\#(inner.ratio),"visible":\#(inner.visible)"#)
    // The next object's entry: after this object's entries and the next member's name.
    var next = entry + innerObjectEntries + 1
    if sharingRootSlot, index + 1 < count, nameIndexCacheSlot(ofEntry: next) != rootSlot {
      // A member "pad" takes two entries (its name and the array) plus one per element.
      next += 2
      while nameIndexCacheSlot(ofEntry: next) != rootSlot { next += 1 }
      let elements = next - (entry + innerObjectEntries + 1) - 2
      text.append(
        #","pad":["# + Array(repeating: "0", count: elements).joined(separator: ",") + "]")
    }
    text.append("}")
    entry = next
  }
  text.append("}")
  return DictionaryOfObjects(data: text.data, values: values, objectEntries: entries)
}

/// The tape entries of the values of the root object's members, counted from the text with the
/// tape's rules (one entry per value and per member name, the root at entry 0).
///
/// Only for the documents of this file: no whitespace inside tokens, strings without escaped
/// quotes.
func rootMemberValueEntries(in bytes: [UInt8]) -> [Int] {
  var entries: [Int] = []
  var entry = -1
  var depth = 0
  var afterColon = false
  var index = 0
  while index < bytes.count {
    let byte = bytes[index]
    switch byte {
    case UInt8(ascii: ":"):
      afterColon = true
      index += 1
      continue
    case UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "\n"):
      index += 1
      continue
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      depth -= 1
      index += 1
      continue
    default:
      break
    }
    // A value or a member name: one tape entry.
    entry += 1
    if depth == 1, afterColon { entries.append(entry) }
    afterColon = false
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      depth += 1
      index += 1
    case UInt8(ascii: "\""):
      index += 1
      while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
      }
      index += 1
    default:
      while index < bytes.count,
        ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[index])
      {
        index += 1
      }
    }
  }
  return entries
}

// MARK: - Colliding names

/// `count` distinct names that share their first eight bytes, their last eight bytes and their
/// length: `"aaaaaaaa" + index + "zzzzzzzz"`, the index with leading zeros.
func collidingNames(count: Int) -> [String] {
  let width = indexWidth(count)
  return (0..<count).map { "aaaaaaaa" + decimal($0, width: width) + "zzzzzzzz" }
}

/// `{"aaaaaaaa0…zzzzzzzz": 0, …, "id": 42}`: `count` colliding names, then `"id"`.
func collidingNamesDocument(count: Int) -> Data {
  var text = JSONText(capacity: count * 32)
  text.append("{")
  for name in collidingNames(count: count) {
    text.appendName(name)
    text.append("0,")
  }
  text.append(#""id":42}"#)
  return text.data
}

/// Whether `names` all have the same length, first eight bytes and last eight bytes.
func shareFingerprintBytes(_ names: some Collection<String>) -> Bool {
  guard let first = names.first else { return true }
  let head = Array(first.utf8.prefix(8))
  let tail = Array(first.utf8.suffix(8))
  return names.allSatisfy {
    $0.utf8.count == first.utf8.count && Array($0.utf8.prefix(8)) == head
      && Array($0.utf8.suffix(8)) == tail
  }
}

// MARK: - One escaped name

/// An object of `count` integer members, the first named `"\u0061bc"` (an escape, so `"abc"`)
/// with the value 7, the others `"m<index>": index`.
struct EscapedNameDocument {
  let data: Data
  /// The sum of the values.
  let sum: Int
}

func escapedNameDocument(count: Int) -> EscapedNameDocument {
  let width = indexWidth(count)
  var text = JSONText(capacity: count * 20)
  text.append(#"{"\u0061bc":7"#)
  var sum = 7
  for index in 1..<max(1, count) {
    text.append(",")
    text.appendName("m" + decimal(index, width: width))
    text.append(String(index))
    sum &+= index
  }
  text.append("}")
  return EscapedNameDocument(data: text.data, sum: sum)
}

// MARK: - Plain members

/// An object of `count` members `"<prefix><index>": index`.
func plainMembersDocument(count: Int, prefix: String) -> Data {
  let width = indexWidth(count)
  var text = JSONText(capacity: count * 20)
  text.append("{")
  for index in 0..<count {
    if index > 0 { text.append(",") }
    text.appendName(prefix + decimal(index, width: width))
    text.append(String(index))
  }
  text.append("}")
  return text.data
}

// MARK: - Colliding integer keys

/// A document of `[Int: Int]` whose `count` member names share their first eight bytes, their
/// last eight bytes and their length, and the dictionary it holds.
///
/// The names are `"00000001" + index + "00000000"` with the index at four digits or more: leading
/// zeros, which `Int(_:)` reads (as `JSONDecoder` does for a dictionary's keys), so the names can
/// collide at any size; the keys are `10^(width + 8) + index * 10^8`, distinct.
struct CollidingIntKeysDocument {
  let data: Data
  let values: [Int: Int]
  let names: [String]
}

func collidingIntKeysDocument(count: Int) throws -> CollidingIntKeysDocument {
  let width = max(4, indexWidth(count))
  // The key must fit an Int: 1 and the index's digits, then eight zeros.
  guard width + 9 <= 18 else {
    throw BenchmarkError(description: "dict-int-colliding: \(count) keys don't fit Int")
  }
  var text = JSONText(capacity: count * 32)
  var values: [Int: Int] = [:]
  values.reserveCapacity(count)
  var names: [String] = []
  names.reserveCapacity(count)
  var power = 1
  for _ in 0..<(width + 8) { power *= 10 }
  text.append("{")
  for index in 0..<count {
    let name = "00000001" + decimal(index, width: width) + "00000000"
    names.append(name)
    values[power + index * 100_000_000] = index
    if index > 0 { text.append(",") }
    text.appendName(name)
    text.append(String(index))
  }
  text.append("}")
  return CollidingIntKeysDocument(data: text.data, values: values, names: names)
}

/// How many `Int`s at most share a decimal length, first eight bytes and last eight bytes:
/// `"-1000000" + four digits + "00000000"` is the longest such form within `Int`'s range.
let collidingIntGroupSize = 10_000

/// `count` distinct `Int` keys (each with its index as the value) written by an encoder in groups
/// of ``collidingIntGroupSize`` whose names share their length, first eight bytes and last eight
/// bytes: `-(1000000 + group) * 10^12 - index * 10^8`, twenty characters.
///
/// Canonical decimals can't collide in larger groups within `Int`'s range; an encoder that
/// compares a colliding name with all the earlier names of its object is quadratic all the same.
func collidingIntKeys(count: Int) -> [Int: Int] {
  var values: [Int: Int] = [:]
  values.reserveCapacity(count)
  for index in 0..<count {
    let group = index / collidingIntGroupSize
    let member = index % collidingIntGroupSize
    values[-((1_000_000 + group) * 1_000_000_000_000 + member * 100_000_000)] = index
  }
  return values
}

// MARK: - Lossy array

/// `{"items": ["x", …]}`: `count` elements, none of them an `Int`.
func invalidElementsDocument(count: Int) -> Data {
  var text = JSONText(capacity: count * 4 + 16)
  text.append(#"{"items":["#)
  for index in 0..<count {
    text.append(index == 0 ? #""x""# : #","x""#)
  }
  text.append("]}")
  return text.data
}

// MARK: - Strings alike but for their middle

/// The string every eighth text of ``stringEndsTexts(count:)`` repeats, so that the decoder's
/// table of repeated strings stays in use.
let repeatedText = "a value that the document repeats, again and again"

/// `count` texts: every eighth is ``repeatedText``, the others 200 bytes with the same first
/// and last 16 bytes, distinct only at the end of their middle (the worst case of the table of
/// repeated strings: one slot, and each comparison reads most of the text).
func stringEndsTexts(count: Int) -> [String] {
  let head = String(repeating: "A", count: 16)
  let tail = String(repeating: "Z", count: 16)
  return (0..<count).map { index in
    guard index % 8 != 0 else { return repeatedText }
    let number = decimal(index, width: 12)
    return head + String(repeating: "m", count: 168 - number.count) + number + tail
  }
}

/// `[{"text": …}, …]` of ``stringEndsTexts(count:)``.
func stringEndsDocument(count: Int) -> Data {
  var text = JSONText(capacity: count * 220)
  text.append("[")
  for (index, value) in stringEndsTexts(count: count).enumerated() {
    text.append(index == 0 ? #"{"text":""# : #",{"text":""#)
    text.append(value)
    text.append(#""}"#)
  }
  text.append("]")
  return text.data
}

/// `count` objects of 16 snake-case members whose last name alternates between two, so that no
/// object has the names of the one before: each is compared name by name with the names kept
/// from the last object and converted anew. With the sum of the values each object holds.
func alternatingNamesDocument(count: Int) -> (data: Data, sums: [Int]) {
  var objects: [String] = []
  var sums: [Int] = []
  objects.reserveCapacity(count)
  sums.reserveCapacity(count)
  for index in 0..<count {
    let last = index % 2 == 0 ? "last_a" : "last_b"
    let names = (0..<15).map { "member_name_\($0)" } + [last]
    objects.append(
      "{" + names.enumerated().map { #""\#($1)":\#(index &+ $0)"# }.joined(separator: ",") + "}")
    sums.append((0..<16).reduce(0) { $0 &+ index &+ $1 })
  }
  return (Data("[\(objects.joined(separator: ","))]".utf8), sums)
}

/// `count` objects of the same 16 names, written in one order and its reverse in turn, so that
/// no object can take the order the one before was sorted in.
func alternatingOrders(count: Int) -> [ScalingNamesWriter] {
  let names = (0..<16).map { "name\($0)" }
  return (0..<count).map { ScalingNamesWriter(names: $0 % 2 == 0 ? names : names.reversed()) }
}

/// `count` dates of the year 1500 written as `yyyy-MM-dd'T'HH:mm:ss.SSSZ`: the date engine reads
/// each, finds it before 1583 (where `DateFormatter` uses the Julian calendar) and hands it to
/// the formatter, the most a `.formatted` date costs.
func julianDatesDocument(count: Int) -> Data {
  var text = "["
  for index in 0..<count {
    if index > 0 { text += "," }
    let second = index % 60
    let minute = index / 60 % 60
    let day = index / 3600 % 28 + 1
    text += "\"1500-03-\(day < 10 ? "0" : "")\(day)T10:\(minute < 10 ? "0" : "")\(minute):"
    text += "\(second < 10 ? "0" : "")\(second).250+0000\""
  }
  return Data((text + "]").utf8)
}
