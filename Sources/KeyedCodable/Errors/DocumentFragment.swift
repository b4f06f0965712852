import Foundation

/// The lines of a JSON document around the place an error is about, with a caret under it.
///
/// The detailed form of a `DecodingError` shows them:
///
/// ```
///   document:
///      2 |   "name": "Ann",
///      3 |   "address": { "city": "Paris" }
///        |              ^
///      4 | }
/// ```
///
/// The place is found by parsing the document with KeyedCodable's own parser and following the
/// error's coding path (see ``JSONDocument/location(of:)``); for a syntax error, it is where the
/// parser stopped. When the place can't be found, a single line says why. No document, however
/// broken, large or unrelated to the error, makes it trap.
enum DocumentFragment {
  /// The most characters of a line shown, markers included; longer lines are clipped around
  /// the caret, with `…` where text is left out.
  static let width = 100
  /// The lines shown before the line of the caret.
  static let linesBefore = 2
  /// The lines shown after the line of the caret.
  static let linesAfter = 1

  /// The `document:` lines of a report's detailed form.
  ///
  /// - Parameters:
  ///   - report: The error's report.
  ///   - data: The JSON document that was decoded.
  /// - Returns: `  document:` and the fragment, or `  document: ` and why there is none.
  static func lines(for report: ErrorReport, in data: Data) -> [String] {
    let result = data.withUnsafeBytes { raw -> Result<[String], Failure> in
      if report.invalidJSONSentence != nil {
        return syntaxErrorFragment(raw, report: report)
      }
      return valueFragment(raw, report: report)
    }
    switch result {
    case .success(let lines):
      return ["  document:"] + lines
    case .failure(let failure):
      return ["  document: " + CodingPathText.oneLine(failure.reason)]
    }
  }

  /// Why no fragment is shown.
  struct Failure: Error {
    /// The reason, in words.
    let reason: String
  }

  /// The fragment at the place the parser rejects the document.
  private static func syntaxErrorFragment(_ raw: UnsafeRawBufferPointer, report: ErrorReport)
    -> Result<[String], Failure>
  {
    do {
      _ = try JSONDocument(parsing: raw)
    } catch {
      let bytes: [UInt8]
      switch (JSONEncodingDetection.utf8Bytes(of: raw), error.reason) {
      case (.transcoded(let transcoded), let reason) where reason != .invalidUnicode:
        bytes = transcoded
      default:
        bytes = Array(raw)
      }
      return .success(bytes.withUnsafeBufferPointer { render($0, at: error.offset) })
    }
    if report.underlying is JSONSyntaxError {
      return .failure(Failure(reason: "the document is valid JSON: the error is about another one"))
    }
    return .failure(
      Failure(
        reason:
          "the document is valid JSON (JSONDecoder also reports a number that does not fit its "
          + "type, such as 1.5 for an Int, as invalid JSON)"))
  }

  /// The fragment at the value the error's coding path leads to.
  private static func valueFragment(_ raw: UnsafeRawBufferPointer, report: ErrorReport)
    -> Result<[String], Failure>
  {
    let document: JSONDocument
    do {
      document = try JSONDocument(parsing: raw)
    } catch {
      return .failure(Failure(reason: "the document is not valid JSON: \(error.description)"))
    }
    let entry: Int
    switch document.location(of: report.codingPath) {
    case .found(let found):
      entry = found
    case .stopped(let depth, let container, let reason):
      // An array that ran out of elements: the caret points at the array.
      guard case .valueNotFound = report.kind, depth == report.codingPath.count - 1 else {
        return .failure(Failure(reason: "the path could not be followed (\(reason))"))
      }
      entry = container
    }
    let buffer = UnsafeBufferPointer(start: document.bytes, count: document.count)
    return .success(render(buffer, at: document.sourceOffset(of: entry)))
  }

  // MARK: - Rendering

  /// The lines around byte `offset` of `bytes`, numbered, with a caret line under the line of
  /// the offset.
  ///
  /// - Parameters:
  ///   - bytes: The document's UTF-8 bytes (invalid sequences are shown as `�`).
  ///   - offset: The byte offset of the caret, from `0` to `bytes.count`.
  /// - Returns: The numbered lines and the caret line.
  static func render(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> [String] {
    let offset = Swift.min(Swift.max(offset, 0), bytes.count)
    // The starts of the line of the offset and of the lines before it.
    var starts = [0]
    var lineNumber = 1
    for index in 0..<offset where bytes[index] == 0x0A {
      starts.append(index + 1)
      if starts.count > linesBefore + 1 { starts.removeFirst() }
      lineNumber += 1
    }
    var lines: [(number: Int, range: Range<Int>)] = []
    for (position, start) in starts.enumerated() {
      let number = lineNumber - (starts.count - 1 - position)
      lines.append((number, lineRange(bytes, from: start)))
    }
    guard let current = lines.last else { return [] }
    var after = current.range.upperBound
    for number in 0..<linesAfter {
      // The line break, and a "\r" before it, end the line.
      while after < bytes.count, bytes[after] != 0x0A { after += 1 }
      guard after + 1 < bytes.count else { break }
      let range = lineRange(bytes, from: after + 1)
      lines.append((current.number + 1 + number, range))
      after = range.upperBound
    }

    // The caret's column, in characters; past the last one when the offset is on the line break.
    let caretEnd = Swift.min(Swift.max(offset, current.range.lowerBound), current.range.upperBound)
    let caret = scalarCount(bytes, current.range.lowerBound..<caretEnd)
    let length = scalarCount(bytes, current.range)
    let start = windowStart(caret: caret, length: length)
    let numberWidth = Swift.max(2, String(lines.last?.number ?? 1).count)
    func prefix(_ label: String) -> String {
      "    " + String(repeating: " ", count: Swift.max(0, numberWidth - label.count)) + label
        + " |"
    }
    var output: [String] = []
    for line in lines {
      let text = clipped(bytes, line.range, from: start)
      output.append(
        text.isEmpty ? prefix(String(line.number)) : prefix(String(line.number)) + " " + text)
      if line.number == current.number {
        let column = (start > 0 ? 1 : 0) + caret - start
        output.append(prefix("") + " " + String(repeating: " ", count: column) + "^")
      }
    }
    return output
  }

  /// The bytes of the line that starts at `start`, without its line break or a `"\r"` before
  /// it; the line 1 without a UTF-8 byte-order mark.
  private static func lineRange(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int>
  {
    var start = start
    if start == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      start = 3
    }
    var end = start
    while end < bytes.count, bytes[end] != 0x0A { end += 1 }
    if end > start, bytes[end - 1] == 0x0D { end -= 1 }
    return start..<end
  }

  /// The first character shown of each line: `0`, or a column that keeps the caret in view when
  /// the line of the caret is longer than ``width``.
  private static func windowStart(caret: Int, length: Int) -> Int {
    guard length > width else { return 0 }
    let start = Swift.max(0, caret - width / 2)
    guard start > 0 else { return 0 }
    // Everything from `start` fits after the left marker: show the end of the line.
    if length - start <= width - 1 {
      return length - (width - 1)
    }
    return start
  }

  /// The characters of a line from column `start`, at most ``width`` with the markers: `…`
  /// first when characters before `start` are left out, `…` last when the line goes on.
  ///
  /// Tabs are shown as a space and other control characters as `�`, so each character takes
  /// one column and the caret stays under its character.
  private static func clipped(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, from start: Int
  ) -> String {
    var text = ""
    let leftMarker = start > 0 && !range.isEmpty
    if leftMarker { text += "…" }
    let room = width - (leftMarker ? 1 : 0)
    var column = 0
    var shown = 0
    var clippedRight = false
    forEachScalar(bytes, range) { scalar, _ in
      defer { column += 1 }
      guard column >= start else { return true }
      guard shown < room else {
        clippedRight = true
        return false
      }
      text.unicodeScalars.append(display(scalar))
      shown += 1
      return true
    }
    if clippedRight {
      // The last character shown gives way to the marker.
      text.unicodeScalars.removeLast()
      text += "…"
    }
    while text.last == " " { text.removeLast() }
    return text
  }

  /// How a character is shown: a tab as a space, other control characters as `�`.
  private static func display(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if scalar == "\t" { return " " }
    if scalar.properties.generalCategory == .control { return "\u{FFFD}" }
    return scalar
  }

  /// The number of characters (Unicode scalars, an invalid byte sequence counting as one) in
  /// `range` of `bytes`.
  private static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    var count = 0
    forEachScalar(bytes, range) { _, _ in
      count += 1
      return true
    }
    return count
  }

  /// Calls `body` with each Unicode scalar of `range` of `bytes` and its byte offset, an invalid
  /// sequence giving `U+FFFD`, until `body` returns `false`.
  private static func forEachScalar(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
    _ body: (Unicode.Scalar, Int) -> Bool
  ) {
    guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= bytes.count else { return }
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes[range].makeIterator()
    var position = range.lowerBound
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        guard body(Unicode.UTF8.decode(encoded), position) else { return }
        position += encoded.count
      case .error(let length):
        guard body("\u{FFFD}", position) else { return }
        position += length
      case .emptyInput:
        return
      }
    }
  }
}
