/// A mapping key string read according to its ``KeyOptions``.
///
/// Parsing happens once per distinct key of a model: the result is stored in the model's
/// ``MappingPlan`` and reused by every later decode and encode.
struct ParsedKey: Equatable, Sendable {
  /// The key equals the flat marker: the value maps from the current object itself.
  var isFlat: Bool
  /// The key path read literally (any lossy marker is part of a member name).
  var segments: [String]
  /// The key path with the lossy-array marker removed, when the key carries one.
  var lossySegments: [String]?

  /// Reads `key` with the markers in `options`.
  ///
  /// - The key is flat when it equals `options.flat` exactly.
  /// - Otherwise it is split on `options.delimiter`; empty segments are real empty-string keys.
  /// - A lossy marker is recognised at the start of the whole key (`"* a.b"`) or, failing that,
  ///   at the start of the last segment (`"a.* b"`), and removed once.
  init(_ key: String, options: KeyOptions) {
    if let flat = options.flat, key == flat {
      isFlat = true
      segments = []
      lossySegments = nil
      return
    }
    isFlat = false
    let delimiter = options.delimiter ?? ""
    segments = Self.split(key, by: delimiter)
    lossySegments = nil
    guard let marker = options.optionalArrayElements, !marker.isEmpty else { return }
    if let rest = Self.dropping(prefix: marker, from: Substring(key)) {
      lossySegments = Self.split(String(rest), by: delimiter)
    } else if let last = segments.last,
      let rest = Self.dropping(prefix: marker, from: Substring(last))
    {
      var stripped = segments
      stripped[stripped.count - 1] = String(rest)
      lossySegments = stripped
    }
  }

  /// Splits `text` on every occurrence of `delimiter`, keeping empty segments.
  ///
  /// Compares whole characters, as `String` equality does, so a delimiter never matches half of
  /// a grapheme cluster. An empty delimiter yields the whole text as one segment.
  ///
  /// A text of ASCII split on one ASCII byte other than a line break is split byte by byte: there
  /// every byte is a character, but for a carriage return and the line feed after it, which
  /// such a delimiter never matches. Keys made from data are parsed on every run once a plan is
  /// full (see ``PlanFollower/recordingLimit``), so this is their common path.
  static func split(_ text: String, by delimiter: String) -> [String] {
    guard !delimiter.isEmpty else { return [text] }
    if let byte = singleASCIIByte(delimiter), byte != 0x0A, byte != 0x0D,
      let segments = splitASCII(text, by: byte)
    {
      return segments
    }
    let pattern = Array(delimiter)
    var segments: [String] = []
    var segmentStart = text.startIndex
    var index = text.startIndex
    while index < text.endIndex {
      if text[index...].starts(with: pattern) {
        segments.append(String(text[segmentStart..<index]))
        index = text.index(index, offsetBy: pattern.count)
        segmentStart = index
      } else {
        text.formIndex(after: &index)
      }
    }
    segments.append(String(text[segmentStart...]))
    return segments
  }

  /// The byte of `text` when it is one ASCII character.
  private static func singleASCIIByte(_ text: String) -> UInt8? {
    var bytes = text.utf8.makeIterator()
    guard let byte = bytes.next(), byte < 0x80, bytes.next() == nil else { return nil }
    return byte
  }

  /// The segments of `text` between the occurrences of `byte`, or `nil` when `text` is not all
  /// ASCII (or not contiguous); the text itself, not a copy, when `byte` is not in it.
  private static func splitASCII(_ text: String, by byte: UInt8) -> [String]? {
    let found = text.utf8.withContiguousStorageIfAvailable { bytes -> [Int]? in
      var positions: [Int] = []
      for (offset, unit) in bytes.enumerated() {
        if unit >= 0x80 { return nil }
        if unit == byte { positions.append(offset) }
      }
      return positions
    }
    guard let found, let positions = found else { return nil }
    guard !positions.isEmpty else { return [text] }
    let utf8 = text.utf8
    var segments: [String] = []
    segments.reserveCapacity(positions.count &+ 1)
    var start = 0
    for position in positions + [utf8.count] {
      let range =
        utf8.index(
          utf8.startIndex, offsetBy: start)..<utf8.index(
          utf8.startIndex, offsetBy: position)
      segments.append(String(text[range]))
      start = position &+ 1
    }
    return segments
  }

  /// The rest of `text` after `prefix`, or `nil` when `text` does not start with it.
  ///
  /// Compares characters. Two that start with different ASCII bytes differ (the first is the
  /// base of each, which no normalization changes), so most texts are refused by their first
  /// byte; when both are ASCII and the prefix doesn't end in a carriage return (which a line
  /// feed after it in `text` would join), the bytes are compared, which is the same.
  static func dropping(prefix: String, from text: Substring) -> Substring? {
    if let first = text.utf8.first, let prefixFirst = prefix.utf8.first, first < 0x80,
      prefixFirst < 0x80, first != prefixFirst
    {
      return nil
    }
    let length = prefix.utf8.withContiguousStorageIfAvailable { prefixBytes in
      text.utf8.withContiguousStorageIfAvailable { textBytes -> Int? in
        guard prefixBytes.last != 0x0D, prefixBytes.isAllASCII, textBytes.isAllASCII else {
          return nil
        }
        guard textBytes.count >= prefixBytes.count,
          zip(prefixBytes, textBytes).allSatisfy({ $0 == $1 })
        else { return -1 }
        return prefixBytes.count
      }
    }
    if case .some(.some(.some(let count))) = length {
      guard count >= 0 else { return nil }
      return text[text.utf8.index(text.utf8.startIndex, offsetBy: count)...]
    }
    var index = text.startIndex
    for character in prefix {
      guard index < text.endIndex, text[index] == character else { return nil }
      text.formIndex(after: &index)
    }
    return text[index...]
  }
}
