/// Following a coding path through a parsed document, to show where an error happened.
///
/// Used only to describe errors (see ``DocumentFragment``): nothing here is on a decoding path,
/// so it favours plain code over speed, and it never traps, whatever the path and the document.
extension JSONDocument {
  /// Where a coding path leads in a document.
  enum PathLocation: Equatable {
    /// The path leads to the value at this tape entry.
    case found(entry: Int)
    /// The key at `depth` of the path leads nowhere: `container` is the entry of the value the
    /// path reached before it, and `reason` says why, such as `no member "zip"`.
    case stopped(depth: Int, container: Int, reason: String)
  }

  /// Follows `path` from the top-level value, one key at a time.
  ///
  /// In an object, a key names the first member with that name, as the decoders read it; a
  /// member whose `snake_case` name converts to the key is found too, so paths of the
  /// `convertFromSnakeCase` strategy can be followed. In an array, a key's `intValue` is the
  /// index of an element (Foundation's keys `"Index 2"` have one).
  ///
  /// - Parameter path: The coding path, from the root of the document.
  /// - Returns: The entry the path leads to, or where and why it stops.
  func location(of path: [any CodingKey]) -> PathLocation {
    guard entryCount > 0 else {
      return .stopped(depth: 0, container: 0, reason: "the document is empty")
    }
    var entry = 0
    for (depth, key) in path.enumerated() {
      switch kind(entry) {
      case .object:
        guard let member = member(named: key.stringValue, in: entry) else {
          return .stopped(
            depth: depth, container: entry,
            reason: "no member \(CodingPathText.quoted(key.stringValue))")
        }
        entry = member
      case .array:
        guard let index = key.intValue ?? CodingPathText.index(of: key) else {
          return .stopped(
            depth: depth, container: entry,
            reason:
              "\(CodingPathText.render(Array(path.prefix(depth)))) is an array, "
              + "not an object with member \(CodingPathText.quoted(key.stringValue))")
        }
        guard let element = element(index, in: entry) else {
          let count = memberCount(entry)
          return .stopped(
            depth: depth, container: entry,
            reason:
              "no element [\(index)]: the array has \(count) element\(count == 1 ? "" : "s")")
        }
        entry = element
      default:
        return .stopped(
          depth: depth, container: entry,
          reason:
            "\(CodingPathText.render(Array(path.prefix(depth)))) is \(describeKind(entry)), "
            + "not an object or an array")
      }
    }
    return .found(entry: entry)
  }

  /// The byte offset of the first byte of the value at `entry`: the opening quote of a string,
  /// the bracket or brace of a container.
  ///
  /// - Parameter entry: A tape entry.
  /// - Returns: An offset from `0` to ``count``.
  func sourceOffset(of entry: Int) -> Int {
    Swift.min(Swift.max(start(of: entry), 0), count)
  }

  /// The value entry of the first member of the object at `object` named `name`, or of the
  /// first member whose name converts from `snake_case` to `name`.
  private func member(named name: String, in object: Int) -> Int? {
    let end = next(object)
    var key = object + 1
    while key < end {
      if JSONStrings.name(at: key, in: self, equals: name) { return key + 1 }
      key = next(key + 1)
    }
    key = object + 1
    while key < end {
      if JSONKeyConversion.fromSnakeCase(JSONStrings.string(at: key, in: self)) == name {
        return key + 1
      }
      key = next(key + 1)
    }
    return nil
  }

  /// The entry of element `index` of the array at `array`, or `nil`.
  private func element(_ index: Int, in array: Int) -> Int? {
    guard index >= 0, index < memberCount(array) else { return nil }
    var element = array + 1
    for _ in 0..<index {
      element = next(element)
    }
    return element
  }

  /// The kind of the value at `entry`, with an article: `a string`, `null`.
  private func describeKind(_ entry: Int) -> String {
    switch kind(entry) {
    case .null: "null"
    case .true, .false: "a Boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
