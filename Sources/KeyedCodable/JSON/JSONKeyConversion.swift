/// The member-name conversions of the `convertFromSnakeCase` and `convertToSnakeCase` key
/// strategies, written to give exactly what Foundation's `JSONDecoder` and `JSONEncoder` give.
enum JSONKeyConversion {
  /// `first_name` → `firstName`; leading and trailing underscores are kept (`_id_` stays
  /// `_id_`), a name with no inner underscore is left as it is, and the words after the first
  /// are capitalized (their first letter uppercased, the rest lowercased), the first one
  /// lowercased.
  static func fromSnakeCase(_ name: String) -> String {
    guard !name.isEmpty,
      let firstNonUnderscore = name.firstIndex(where: { $0 != "_" })
    else { return name }
    var lastNonUnderscore = name.index(before: name.endIndex)
    while lastNonUnderscore > firstNonUnderscore, name[lastNonUnderscore] == "_" {
      name.formIndex(before: &lastNonUnderscore)
    }
    let keyRange = firstNonUnderscore...lastNonUnderscore
    let leading = name[name.startIndex..<firstNonUnderscore]
    let trailing = name[name.index(after: lastNonUnderscore)...]
    let components = name[keyRange].split(separator: "_")
    let joined: String
    if components.count == 1 {
      joined = String(name[keyRange])
    } else {
      joined =
        components[0].lowercased()
        + components.dropFirst().map { capitalized($0) }.joined()
    }
    return String(leading) + joined + String(trailing)
  }

  /// `firstName` → `first_name`, `URLValue` → `url_value`: an underscore before each uppercase
  /// letter that starts a word, everything lowercased.
  static func toSnakeCase(_ name: String) -> String {
    guard !name.isEmpty else { return name }
    var words: [Range<String.Index>] = []
    var wordStart = name.startIndex
    var searchRange = name.index(after: wordStart)..<name.endIndex
    // Find the next uppercase letter; a run of uppercase letters is one word, except for its
    // last letter when a lowercase one follows (`URLValue` → `URL`, `Value`).
    while let upperCaseRange = name.rangeOfCharacter(in: searchRange, where: \.isUppercase) {
      let untilUpperCase = wordStart..<upperCaseRange.lowerBound
      words.append(untilUpperCase)
      searchRange = upperCaseRange.lowerBound..<searchRange.upperBound
      guard let lowerCaseRange = name.rangeOfCharacter(in: searchRange, where: \.isLowercase)
      else {
        wordStart = searchRange.lowerBound
        break
      }
      let nextCharacterAfterCapital = name.index(after: upperCaseRange.lowerBound)
      if lowerCaseRange.lowerBound == nextCharacterAfterCapital {
        wordStart = upperCaseRange.lowerBound
      } else {
        let beforeLowerIndex = name.index(before: lowerCaseRange.lowerBound)
        words.append(upperCaseRange.lowerBound..<beforeLowerIndex)
        wordStart = beforeLowerIndex
      }
      searchRange = lowerCaseRange.upperBound..<searchRange.upperBound
    }
    words.append(wordStart..<searchRange.upperBound)
    return words.map { name[$0].lowercased() }.joined(separator: "_")
  }

  /// A word with its first letter uppercased and the others lowercased.
  private static func capitalized(_ word: Substring) -> String {
    guard let first = word.first else { return "" }
    return first.uppercased() + word.dropFirst().lowercased()
  }
}

extension String {
  /// The range of the first character in `range` that satisfies `predicate`.
  fileprivate func rangeOfCharacter(
    in range: Range<String.Index>, where predicate: (Character) -> Bool
  ) -> Range<String.Index>? {
    guard let index = self[range].firstIndex(where: predicate) else { return nil }
    return index..<self.index(after: index)
  }
}
