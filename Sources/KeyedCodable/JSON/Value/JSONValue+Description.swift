extension JSONValue: CustomStringConvertible {
  /// The value as compact JSON: numbers as their text, members in order, slashes unescaped.
  ///
  /// ```swift
  /// let value: JSONValue = ["name": "Ada", "scores": [1.50, 2]]
  /// print(value)            // {"name":"Ada","scores":[1.5,2]}
  /// ```
  public var description: String {
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
  }
}

extension JSONValue.Object: CustomStringConvertible {
  /// The object as compact JSON, as ``JSONValue/description`` writes it.
  public var description: String {
    JSONValue.object(self).description
  }
}
