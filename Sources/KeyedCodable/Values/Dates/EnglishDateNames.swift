/// The English month and day names of the POSIX locale, and case-insensitive matching of them.
enum _EnglishDateNames {
  /// Month abbreviations, January first.
  static let monthAbbreviations: [StaticString] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// Full month names, January first.
  static let months: [StaticString] = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]

  /// Day abbreviations, Sunday first (index = ``CivilDate/weekday``).
  static let weekdayAbbreviations: [StaticString] = [
    "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
  ]

  /// Full day names, Sunday first (index = ``CivilDate/weekday``).
  static let weekdays: [StaticString] = [
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
  ]

  /// The full name of a month, for messages.
  ///
  /// - Parameter month: The month, 1–12.
  /// - Returns: `February`.
  static func monthName(_ month: Int) -> String {
    guard (1...12).contains(month) else { return "month \(month)" }
    return months[month - 1].description
  }

  /// The full name of a day of the week, for messages.
  ///
  /// - Parameter weekday: 0 (Sunday) to 6 (Saturday).
  /// - Returns: `Tuesday`.
  static func weekdayName(_ weekday: Int) -> String {
    guard (0...6).contains(weekday) else { return "day \(weekday)" }
    return weekdays[weekday].description
  }

  /// Finds the name that `bytes[start..<end]` spells, ignoring ASCII case.
  ///
  /// - Parameters:
  ///   - names: The names to try.
  ///   - bytes: The text.
  ///   - start: The first byte of the word.
  ///   - end: The byte after the word.
  /// - Returns: The index of the name in `names`, or `nil`.
  static func index(
    of names: [StaticString], matching bytes: UnsafeBufferPointer<UInt8>, from start: Int,
    to end: Int
  ) -> Int? {
    for (index, name) in names.enumerated() where matches(name, bytes, from: start, to: end) {
      return index
    }
    return nil
  }

  /// Whether `bytes[start..<end]` spells `name`, ignoring ASCII case.
  ///
  /// - Parameters:
  ///   - name: An ASCII name.
  ///   - bytes: The text.
  ///   - start: The first byte of the word.
  ///   - end: The byte after the word.
  /// - Returns: `true` when the lengths and every letter match.
  static func matches(
    _ name: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
  ) -> Bool {
    name.utf8CodeUnitCount == end - start && equalIgnoringCase(name, bytes, at: start)
  }

  /// Finds the longest name that starts at `start`, ignoring ASCII case.
  ///
  /// - Parameters:
  ///   - names: The names to try.
  ///   - bytes: The text.
  ///   - start: Where the name would start.
  /// - Returns: The index of the name in `names` and its length in bytes, or `nil`.
  static func longestPrefix(
    of names: [StaticString], in bytes: UnsafeBufferPointer<UInt8>, at start: Int
  ) -> (index: Int, length: Int)? {
    var best: (index: Int, length: Int)?
    for (index, name) in names.enumerated() {
      let length = name.utf8CodeUnitCount
      guard length > (best?.length ?? 0), start + length <= bytes.count,
        equalIgnoringCase(name, bytes, at: start)
      else { continue }
      best = (index, length)
    }
    return best
  }

  /// Whether the bytes at `start` spell `name`, ignoring ASCII case; the caller checks length.
  ///
  /// - Parameters:
  ///   - name: An ASCII name.
  ///   - bytes: The text.
  ///   - start: Where the name would start.
  /// - Returns: `true` when every byte matches.
  private static func equalIgnoringCase(
    _ name: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, at start: Int
  ) -> Bool {
    let count = name.utf8CodeUnitCount
    guard start >= 0, start + count <= bytes.count else { return false }
    let letters = name.utf8Start
    for offset in 0..<count where bytes[start + offset] | 0x20 != letters[offset] | 0x20 {
      return false
    }
    return true
  }
}
