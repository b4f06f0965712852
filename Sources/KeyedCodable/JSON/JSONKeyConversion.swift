/// The member-name conversions of the `convertFromSnakeCase` and `convertToSnakeCase` key
/// strategies, written to give exactly what Foundation's `JSONDecoder` and `JSONEncoder` give.
///
/// Foundation splits and joins words with `String` and `Character` operations, capitalizes words
/// with `String.capitalized` and finds word starts with its built-in sets of uppercase (Lu, Lt)
/// and lowercase (Ll) letters. The same rules are written here on Unicode scalar properties, with
/// a byte-level path for ASCII names: a name without `_` (when decoding) or without an uppercase
/// letter (when encoding) is returned as it is, without allocating.
enum JSONKeyConversion {
  /// `first_name` → `firstName`, as Foundation's `convertFromSnakeCase` converts member names.
  ///
  /// Leading and trailing underscores are kept (`_id_` stays `_id_`), a name with no inner
  /// underscore is left as it is, the first word is lowercased and each later word is
  /// capitalized as `String.capitalized` capitalizes it: the first cased letter of each run of
  /// letters is titlecased and the others lowercased, where digits and punctuation end a run
  /// but case-ignorable characters (marks, modifier letters, format characters, `'`) do not.
  /// So `a_1b` → `a1B`, `address_2nd_line` → `address2NdLine`, `a_b-c` → `aB-C`,
  /// `a_ßb` → `aSsb`, `a_ǆx` → `aǅx`, `a_ﬁx` → `aFix`.
  ///
  /// - Parameter name: A member name of the document.
  /// - Returns: The name a coding key is matched against.
  static func fromSnakeCase(_ name: String) -> String {
    let ascii = name.utf8.withContiguousStorageIfAvailable { asciiFromSnakeCase($0) }
    switch ascii {
    case .some(.unchanged): return name
    case .some(.converted(let converted)): return converted
    case .some(.notASCII), .none: return unicodeFromSnakeCase(name)
    }
  }

  /// `firstName` → `first_name`, `URLValue` → `url_value`, as Foundation's `convertToSnakeCase`
  /// converts coding keys.
  ///
  /// An underscore goes before each uppercase or titlecase letter (general categories Lu and Lt,
  /// Foundation's `uppercaseLetters`) that starts a word, and everything is lowercased; a run of
  /// uppercase letters is one word, except for its last letter when a lowercase letter (Ll)
  /// follows it. `Ⅰ` (a letter number) starts no word: `aⅠb` → `aⅰb`; `ǅ` (titlecase) does:
  /// `aǅb` → `a_ǆb`.
  ///
  /// - Parameter name: A coding key's string value.
  /// - Returns: The member name to write.
  static func toSnakeCase(_ name: String) -> String {
    guard !name.isEmpty else { return name }
    // An ASCII name without uppercase letters is one word, lowercased already.
    let unchanged = name.utf8.withContiguousStorageIfAvailable { bytes in
      !bytes.contains { $0 >= 0x80 || $0 &- UInt8(ascii: "A") < 26 }
    }
    if unchanged == true { return name }
    let ascii = name.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.allSatisfy { $0 &- 0x20 < 0x5F } ? asciiToSnakeCase(bytes) : nil
    }
    if let converted = ascii ?? nil { return converted }

    var words: [Range<String.Index>] = []
    var wordStart = name.startIndex
    var searchRange = name.index(after: wordStart)..<name.endIndex
    // Find the next uppercase letter; a run of uppercase letters is one word, except for its
    // last letter when a lowercase one follows (`URLValue` → `URL`, `Value`). Letters are found
    // scalar by scalar, indices are moved character by character, as in Foundation.
    while let upperCase = name.rangeOfScalar(in: searchRange, where: Self.isUppercaseLetter) {
      words.append(wordStart..<upperCase.lowerBound)
      searchRange = upperCase.lowerBound..<searchRange.upperBound
      guard let lowerCase = name.rangeOfScalar(in: searchRange, where: Self.isLowercaseLetter)
      else {
        wordStart = searchRange.lowerBound
        break
      }
      let nextCharacterAfterCapital = name.index(after: upperCase.lowerBound)
      if lowerCase.lowerBound == nextCharacterAfterCapital {
        wordStart = upperCase.lowerBound
      } else {
        let beforeLowerIndex = name.index(before: lowerCase.lowerBound)
        words.append(upperCase.lowerBound..<beforeLowerIndex)
        wordStart = beforeLowerIndex
      }
      searchRange = lowerCase.upperBound..<searchRange.upperBound
    }
    words.append(wordStart..<searchRange.upperBound)
    return words.map { name[$0].lowercased() }.joined(separator: "_")
  }

  /// ``toSnakeCase(_:)`` for a name of printable ASCII, byte by byte: the same words as the
  /// general path, without its `Range`s, `Substring`s and intermediate strings.
  ///
  /// Control characters are left to the general path: there, `\r\n` is one `Character`.
  ///
  /// - Parameter bytes: The name's UTF-8, every byte from 0x20 to 0x7E.
  /// - Returns: The member name to write.
  private static func asciiToSnakeCase(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let count = bytes.count
    // Each word but the first adds an underscore, and a word has a letter at least.
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * count) { output in
      var written = 0
      func append(word: Range<Int>) {
        if written > 0 {
          output[written] = UInt8(ascii: "_")
          written += 1
        }
        for index in word {
          let byte = bytes[index]
          output[written] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
          written += 1
        }
      }
      func first(from start: Int, where isWanted: (UInt8) -> Bool) -> Int? {
        var index = start
        while index < count {
          if isWanted(bytes[index]) { return index }
          index += 1
        }
        return nil
      }
      var wordStart = 0
      var searchStart = 1
      while let upper = first(from: searchStart, where: { $0 &- UInt8(ascii: "A") < 26 }) {
        append(word: wordStart..<upper)
        searchStart = upper
        guard let lower = first(from: upper, where: { $0 &- UInt8(ascii: "a") < 26 }) else {
          wordStart = upper
          break
        }
        if lower == upper + 1 {
          wordStart = upper
        } else {
          // A run of capitals is a word; its last capital starts the next one.
          append(word: upper..<(lower - 1))
          wordStart = lower - 1
        }
        searchStart = lower + 1
      }
      append(word: wordStart..<count)
      return String(decoding: UnsafeBufferPointer(rebasing: output[..<written]), as: UTF8.self)
    }
  }

  // MARK: - From snake case

  /// What the ASCII path made of a name.
  private enum ASCIIConversion {
    /// The name converts to itself.
    case unchanged
    /// The converted name.
    case converted(String)
    /// The name has bytes outside ASCII: the Unicode path converts it.
    case notASCII
  }

  /// ``fromSnakeCase(_:)`` on the UTF-8 bytes of a name, for ASCII names.
  ///
  /// - Parameter bytes: The name's UTF-8.
  /// - Returns: The conversion, or ``ASCIIConversion/notASCII``.
  private static func asciiFromSnakeCase(_ bytes: UnsafeBufferPointer<UInt8>) -> ASCIIConversion {
    let underscore = UInt8(ascii: "_")
    var hasUnderscore = false
    var isASCII = true
    for byte in bytes {
      if byte == underscore { hasUnderscore = true }
      if byte >= 0x80 { isASCII = false }
    }
    // No `_` anywhere (in any script): one word, left as it is.
    guard hasUnderscore else { return .unchanged }
    guard isASCII else { return .notASCII }
    guard let first = bytes.firstIndex(where: { $0 != underscore }),
      let last = bytes.lastIndex(where: { $0 != underscore })
    else { return .unchanged }
    // Only leading and trailing underscores, or one word between them.
    guard bytes[first...last].contains(underscore) else { return .unchanged }

    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    output.append(contentsOf: bytes[..<first])
    var index = first
    var isFirstWord = true
    while index <= last {
      guard bytes[index] != underscore else {
        index &+= 1
        continue
      }
      var end = index
      while end <= last, bytes[end] != underscore { end &+= 1 }
      if isFirstWord {
        for byte in bytes[index..<end] {
          output.append(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte)
        }
        isFirstWord = false
      } else {
        appendCapitalizedASCII(bytes[index..<end], to: &output)
      }
      index = end
    }
    output.append(contentsOf: bytes[(last &+ 1)...])
    return .converted(String(decoding: output, as: UTF8.self))
  }

  /// Appends an ASCII word capitalized as `String.capitalized` capitalizes it.
  ///
  /// - Parameters:
  ///   - word: The word's bytes, all ASCII.
  ///   - output: Where to append them.
  @inline(__always)
  private static func appendCapitalizedASCII(
    _ word: UnsafeBufferPointer<UInt8>.SubSequence, to output: inout [UInt8]
  ) {
    var isLastCased = false
    for byte in word {
      if byte &- UInt8(ascii: "A") < 26 {
        output.append(isLastCased ? byte | 0x20 : byte)
        isLastCased = true
      } else if byte &- UInt8(ascii: "a") < 26 {
        output.append(isLastCased ? byte : byte & ~0x20)
        isLastCased = true
      } else {
        output.append(byte)
        // The case-ignorable characters of ASCII: `'`, `^` and `` ` ``.
        if byte != UInt8(ascii: "'"), byte != UInt8(ascii: "^"), byte != UInt8(ascii: "`") {
          isLastCased = false
        }
      }
    }
  }

  /// ``fromSnakeCase(_:)`` for any name, with `Character` operations as in Foundation.
  ///
  /// - Parameter name: The name.
  /// - Returns: The converted name.
  private static func unicodeFromSnakeCase(_ name: String) -> String {
    guard let firstNonUnderscore = name.firstIndex(where: { $0 != "_" }) else { return name }
    var lastNonUnderscore = name.index(before: name.endIndex)
    while lastNonUnderscore > firstNonUnderscore, name[lastNonUnderscore] == "_" {
      name.formIndex(before: &lastNonUnderscore)
    }
    let words = name[firstNonUnderscore...lastNonUnderscore].split(separator: "_")
    guard let firstWord = words.first, words.count > 1 else { return name }
    var result = String(name[..<firstNonUnderscore])
    result += firstWord.lowercased()
    for word in words.dropFirst() {
      appendCapitalized(word, to: &result)
    }
    result += name[name.index(after: lastNonUnderscore)...]
    return result
  }

  /// Appends a word capitalized as `String.capitalized` capitalizes it.
  ///
  /// Scalar by scalar: an uppercase or titlecase letter after a cased letter is lowercased, a
  /// lowercase letter that follows none is titlecased (`ß` → `Ss`, `ǆ` → `ǅ`, `ﬁ` → `Fi`), any
  /// other letter (`ⅰ`, a letter number) is left as it is; characters that are not
  /// case-ignorable end the run of cased letters.
  ///
  /// - Parameters:
  ///   - word: The word.
  ///   - output: Where to append it.
  private static func appendCapitalized(_ word: Substring, to output: inout String) {
    var isLastCased = false
    for scalar in word.unicodeScalars {
      let properties = scalar.properties
      switch properties.generalCategory {
      case .uppercaseLetter, .titlecaseLetter:
        if isLastCased {
          output += properties.lowercaseMapping
        } else {
          output.unicodeScalars.append(scalar)
        }
        isLastCased = true
      case .lowercaseLetter:
        if isLastCased {
          output.unicodeScalars.append(scalar)
        } else {
          output += properties.titlecaseMapping
        }
        isLastCased = true
      default:
        output.unicodeScalars.append(scalar)
        if !isCaseIgnorable(scalar) { isLastCased = false }
      }
    }
  }

  /// Whether `capitalized` lets a run of cased letters go on across `scalar`: the
  /// case-ignorable set of Core Foundation that Foundation uses (nonspacing and enclosing marks,
  /// format characters, modifier letters and symbols, and the apostrophes U+0027 and U+2019),
  /// narrower than Unicode's `Case_Ignorable` (which also has `.` and `:`).
  ///
  /// - Parameter scalar: A scalar that is not a cased letter.
  /// - Returns: Whether it is case-ignorable.
  private static func isCaseIgnorable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .modifierLetter, .modifierSymbol: true
    default: scalar == "\u{27}" || scalar == "\u{2019}"
    }
  }

  // MARK: - Letters

  /// Whether `scalar` is in Foundation's `uppercaseLetters`: general category Lu or Lt.
  ///
  /// - Parameter scalar: The scalar.
  /// - Returns: Whether it is an uppercase or titlecase letter.
  @inline(__always)
  private static func isUppercaseLetter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return scalar.value &- 0x41 < 26 }
    let category = scalar.properties.generalCategory
    return category == .uppercaseLetter || category == .titlecaseLetter
  }

  /// Whether `scalar` is in Foundation's `lowercaseLetters`: general category Ll.
  ///
  /// - Parameter scalar: The scalar.
  /// - Returns: Whether it is a lowercase letter.
  @inline(__always)
  private static func isLowercaseLetter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return scalar.value &- 0x61 < 26 }
    return scalar.properties.generalCategory == .lowercaseLetter
  }
}

extension String {
  /// The range of the first Unicode scalar in `range` that satisfies `predicate`.
  ///
  /// - Parameters:
  ///   - range: Where to look, on scalar boundaries.
  ///   - predicate: The test.
  /// - Returns: The scalar's range, or `nil`.
  fileprivate func rangeOfScalar(
    in range: Range<String.Index>, where predicate: (Unicode.Scalar) -> Bool
  ) -> Range<String.Index>? {
    let scalars = unicodeScalars[range]
    guard let index = scalars.firstIndex(where: predicate) else { return nil }
    return index..<unicodeScalars.index(after: index)
  }
}
