import Foundation

// On KeyedJSONDecoder and KeyedJSONEncoder the coders read and write the three types themselves
// (see `JSONValueType`): a value never reaches these methods there, except when called
// directly with one of their decoders or encoders, which is checked first. Any other coder goes
// through its containers.

extension JSONValue: Codable {
  /// Decodes any JSON value.
  ///
  /// With ``KeyedJSONDecoder``, the value is read from the parsed document as it is: numbers
  /// with their text, objects with their members in order (the first of two with one name).
  ///
  /// With any other decoder, the value is read through its containers, trying each kind:
  /// `null`, a Boolean, a string, a number, an array, an object. What such a decoder can tell
  /// is all that is kept:
  ///
  /// - A number is read as an `Int64` or a `UInt64` when it is an integer that fits, otherwise
  ///   as a `Decimal` when the decoder reads one from the number's text (Foundation's
  ///   `JSONDecoder` does, keeping 38 significant digits) and it rounds to the same `Double`,
  ///   otherwise as a `Double`. Its text is then written afresh: `1.0` comes back as `1`,
  ///   `1E2` as `100`, and a number with more digits than those types hold is rounded.
  /// - An object's members are read as a `[String: JSONValue]` (so that no key strategy
  ///   changes their names), and put in the order of their names, as the decoder doesn't tell
  ///   the document's order.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.typeMismatch` when the value is of no JSON kind (a date in a
  ///   property list); the decoder's error for a number it can't read as a `Double`; the errors
  ///   of the elements and members.
  public init(from decoder: any Decoder) throws {
    #if !KEYED_CODABLE_MAPPING_ONLY
      if let json = decoder as? JSONValueDecoder {
        self = json.jsonValue(at: json.value)
        return
      }
      if let member = decoder as? JSONSuperDecoder {
        self = member.entry < 0 ? .null : member.decoder.jsonValue(at: member.entry)
        return
      }
    #endif
    self = try Self.decodeThroughContainers(decoder)
  }

  /// Encodes the value.
  ///
  /// With ``KeyedJSONEncoder``, the value is written as it is: numbers as their text, objects
  /// with their members in order (sorted with `.sortedKeys`), names as they are whatever the
  /// key strategy.
  ///
  /// With any other encoder, the value is written through its containers: a number as an
  /// `Int64` or a `UInt64` when it is an integer that fits, otherwise as the nearest `Double`;
  /// an object as a `[String: JSONValue]`, so that no key strategy changes its names (its
  /// members are then in the encoder's order).
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: `EncodingError.invalidValue` for a number that `Double` can't hold (`1e400`)
  ///   with any encoder but ``KeyedJSONEncoder``, or a value nested deeper than JSON is read;
  ///   the encoder's own errors.
  public func encode(to encoder: any Encoder) throws {
    if writesJSONItself(encoder) {
      var container = encoder.singleValueContainer()
      try container.encode(self)
      return
    }
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .number(let value):
      try value.encode(to: encoder)
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let elements):
      try Self.nested(encoding: self, at: encoder) {
        var container = encoder.unkeyedContainer()
        for element in elements {
          try container.encode(element)
        }
      }
    case .object(let members):
      try Self.nested(encoding: self, at: encoder) {
        try members.encode(to: encoder)
      }
    }
  }

  /// Runs `body`, which decodes the elements or members of an array or object through
  /// `decoder`'s containers, one level deeper in the thread's count of nested values: on a
  /// fresh stack when the thread's runs low, and not at all past
  /// ``StackGuard/maximumNesting`` levels (see ``StackGuard``).
  ///
  /// - Throws: What `body` throws; `DecodingError.dataCorrupted` with the decoder's coding
  ///   path for a value nested too deep.
  static func nested<Value>(decodingAt decoder: any Decoder, _ body: () throws -> Value) throws
    -> Value
  {
    guard let pool = RunPool.current else { return try body() }
    return try pool.nested(decodingAt: decoder.codingPath, body)
  }

  /// Runs `body`, which encodes the elements or members of `value` through `encoder`'s
  /// containers, one level deeper in the thread's count of nested values (see
  /// ``nested(decodingAt:_:)``).
  ///
  /// - Throws: What `body` throws; `EncodingError.invalidValue` with the encoder's coding path
  ///   for a value nested too deep.
  static func nested(encoding value: JSONValue, at encoder: any Encoder, _ body: () throws -> Void)
    throws
  {
    guard let pool = RunPool.current else { return try body() }
    try pool.nested(encoding: value, at: encoder.codingPath, body)
  }

  /// Decodes a value with any decoder, through its containers.
  private static func decodeThroughContainers(_ decoder: any Decoder) throws -> JSONValue {
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      return .null
    }
    // Each kind is tried in turn; a decoder throws `typeMismatch` for a value of another kind.
    // Anything else it throws is about a value of that kind, and is the outcome.
    if let value = try? single.decode(Bool.self) {
      return .bool(value)
    }
    if let value = try? single.decode(String.self) {
      return .string(value)
    }
    do {
      return .number(try Number.decodeThroughContainer(single))
    } catch DecodingError.typeMismatch {
      // Not a number.
    }
    if var container = try? decoder.unkeyedContainer() {
      return try nested(decodingAt: decoder) {
        var elements: [JSONValue] = []
        if let count = container.count {
          elements.reserveCapacity(count)
        }
        while !container.isAtEnd {
          elements.append(try container.decode(JSONValue.self))
        }
        return .array(elements)
      }
    }
    if (try? decoder.container(keyedBy: PathKey.self)) != nil {
      return try nested(decodingAt: decoder) {
        .object(try Object.decodeThroughContainer(single))
      }
    }
    throw DecodingError.typeMismatch(
      JSONValue.self,
      .init(
        codingPath: decoder.codingPath,
        debugDescription:
          "Expected a JSON value (null, a Boolean, a string, a number, an array or an object)."))
  }
}

extension JSONValue.Number: Codable {
  /// Decodes a number.
  ///
  /// With ``KeyedJSONDecoder``, the number's text is kept as it is. With any other decoder the
  /// number is read as ``JSONValue/init(from:)`` reads one, and its text written afresh.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.typeMismatch`, or `valueNotFound` for `null`, when the value is
  ///   not a number; the decoder's error for a number it can't read as a `Double`.
  public init(from decoder: any Decoder) throws {
    #if !KEYED_CODABLE_MAPPING_ONLY
      if let json = decoder as? JSONValueDecoder {
        self = try json.unwrapJSONNumber(json.value, at: json.path)
        return
      }
      if decoder is JSONSuperDecoder {
        // Its single value container reads the three types from the document.
        self = try decoder.singleValueContainer().decode(Self.self)
        return
      }
    #endif
    self = try Self.decodeThroughContainer(decoder.singleValueContainer())
  }

  /// Encodes the number.
  ///
  /// ``KeyedJSONEncoder`` writes its text as it is. Any other encoder is given an `Int64` or a
  /// `UInt64` when the number is an integer that fits, otherwise the nearest `Double`.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: `EncodingError.invalidValue` for a number `Double` can't hold, with any encoder
  ///   but ``KeyedJSONEncoder``; the encoder's own errors.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if writesJSONItself(encoder) {
      try container.encode(self)
    } else if let value = integer(as: Int64.self) {
      try container.encode(value)
    } else if let value = integer(as: UInt64.self) {
      try container.encode(value)
    } else if let value = doubleValue {
      try container.encode(value)
    } else {
      throw EncodingError.invalidValue(
        self,
        .init(
          codingPath: encoder.codingPath,
          debugDescription:
            "The number \(text) is beyond the range of Double: only KeyedJSONEncoder writes it."))
    }
  }

  /// Reads a number through a single value container (see ``JSONValue/init(from:)``).
  ///
  /// - Throws: What decoding a `Double` throws, when the value is not one.
  static func decodeThroughContainer(_ container: any SingleValueDecodingContainer) throws
    -> JSONValue.Number
  {
    if let value = try? container.decode(Int64.self) {
      return JSONValue.Number(value)
    }
    if let value = try? container.decode(UInt64.self) {
      return JSONValue.Number(value)
    }
    let double: Double
    do {
      double = try container.decode(Double.self)
    } catch {
      // A number the decoder reads as a `Decimal` only (Foundation's reads `0e1` so).
      if case DecodingError.typeMismatch = error { throw error }
      if let decimal = try? container.decode(Decimal.self), let number = JSONValue.Number(decimal) {
        return number
      }
      throw error
    }
    // A decoder that reads a decimal from the number's text keeps more digits than `Double`.
    if let decimal = try? container.decode(Decimal.self), let number = JSONValue.Number(decimal),
      number.doubleValue == double
    {
      return number
    }
    guard let number = JSONValue.Number(double) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: container.codingPath,
          debugDescription: "The number \(double) can't be written in JSON."))
    }
    return number
  }
}

extension JSONValue.Object: Codable {
  /// Decodes an object's members.
  ///
  /// With ``KeyedJSONDecoder``, the members are kept in the document's order, the first of two
  /// with one name. With any other decoder they are read as a `[String: JSONValue]` and put in
  /// the order of their names (see ``JSONValue/init(from:)``).
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.typeMismatch`, or `valueNotFound` for `null`, when the value is
  ///   not an object; the errors of the members.
  public init(from decoder: any Decoder) throws {
    #if !KEYED_CODABLE_MAPPING_ONLY
      if let json = decoder as? JSONValueDecoder {
        self = try json.unwrapJSONObject(json.value, at: json.path)
        return
      }
      if decoder is JSONSuperDecoder {
        self = try decoder.singleValueContainer().decode(Self.self)
        return
      }
    #endif
    self = try Self.decodeThroughContainer(decoder.singleValueContainer())
  }

  /// Encodes the members.
  ///
  /// ``KeyedJSONEncoder`` writes them in order, with their names as they are. Any other
  /// encoder is given a `[String: JSONValue]`, whose names no key strategy changes.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: The errors of the members, and the encoder's own.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if writesJSONItself(encoder) {
      try container.encode(self)
      return
    }
    var dictionary: [String: JSONValue] = [:]
    dictionary.reserveCapacity(count)
    for (name, value) in self {
      dictionary[name] = value
    }
    try container.encode(dictionary)
  }

  /// Reads an object through a single value container, as a dictionary.
  static func decodeThroughContainer(_ container: any SingleValueDecodingContainer) throws
    -> JSONValue.Object
  {
    let dictionary = try container.decode([String: JSONValue].self)
    let sorted = dictionary.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    return JSONValue.Object(uniqueMembers: sorted.map { (name: $0.key, value: $0.value) })
  }
}

/// Whether `encoder` is ``KeyedJSONEncoder``'s own, which writes JSON values as they are.
@inline(__always)
private func writesJSONItself(_ encoder: any Encoder) -> Bool {
  #if KEYED_CODABLE_MAPPING_ONLY
    false
  #else
    JSONStreamEncoder.writesJSONValues(encoder)
  #endif
}
