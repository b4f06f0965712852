extension JSONValue: CustomStringConvertible {
  /// The value as compact JSON: numbers as their text, members in order, slashes unescaped.
  ///
  /// ```swift
  /// let value: JSONValue = ["name": "Ada", "scores": [1.50, 2]]
  /// print(value)            // {"name":"Ada","scores":[1.5,2]}
  /// ```
  public var description: String {
    #if KEYED_CODABLE_MAPPING_ONLY
      let writer = JSONWriter(prettyPrinted: false, escapesSlashes: false)
      Self.writeCompact(self, to: writer)
      return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    #else
      var options = KeyedJSONEncoder.Options()
      options.outputFormatting = [.withoutEscapingSlashes]
      let encoder = JSONStreamEncoder(options: options)
      defer { encoder.finish() }
      do {
        let writer = try encoder.encodeRoot(self, as: JSONValue.self, reporting: self)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
      } catch {
        // Only a value nested deeper than JSON is read fails.
        return "<JSONValue: \(error)>"
      }
    #endif
  }

  #if KEYED_CODABLE_MAPPING_ONLY
    /// Writes `root` as compact JSON, without recursion (a value may nest deeper than the
    /// stack allows).
    private static func writeCompact(_ root: JSONValue, to writer: JSONWriter) {
      enum Frame {
        case array([JSONValue], Int)
        case object(JSONValue.Object, Int)
      }
      var frames: [Frame] = []
      var next: JSONValue? = root
      while true {
        if let value = next {
          next = nil
          switch value {
          case .null: writer.null()
          case .bool(let value): writer.bool(value)
          case .number(let number): writer.append(contentsOf: number.text.utf8)
          case .string(let text): writer.string(text)
          case .array(let elements):
            writer.open(UInt8(ascii: "["))
            frames.append(.array(elements, 0))
          case .object(let members):
            writer.open(UInt8(ascii: "{"))
            frames.append(.object(members, 0))
          }
        }
        guard let frame = frames.popLast() else { return }
        switch frame {
        case .array(let elements, let index):
          guard index < elements.count else {
            writer.close(UInt8(ascii: "]"), count: index)
            continue
          }
          writer.separate(count: index)
          frames.append(.array(elements, index + 1))
          next = elements[index]
        case .object(let members, let index):
          guard index < members.members.count else {
            writer.close(UInt8(ascii: "}"), count: index)
            continue
          }
          writer.separate(count: index)
          let member = members.members[index]
          writer.name(member.name)
          frames.append(.object(members, index + 1))
          next = member.value
        }
      }
    }
  #endif
}

extension JSONValue.Object: CustomStringConvertible {
  /// The object as compact JSON, as ``JSONValue/description`` writes it.
  public var description: String {
    JSONValue.object(self).description
  }
}
