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
  static func split(_ text: String, by delimiter: String) -> [String] {
    guard !delimiter.isEmpty else { return [text] }
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

  /// The rest of `text` after `prefix`, or `nil` when `text` does not start with it.
  static func dropping(prefix: String, from text: Substring) -> Substring? {
    var index = text.startIndex
    for character in prefix {
      guard index < text.endIndex, text[index] == character else { return nil }
      text.formIndex(after: &index)
    }
    return text[index...]
  }
}
