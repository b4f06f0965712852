extension KeyMap {
  // MARK: - Configurations

  /// The configuration of type `type` the caller handed to this decode or encode, if any.
  ///
  /// The caller gives it with ``MappingContext/configuration(_:)-swift.type.method``, or a
  /// parent model hands it to this value with ``Mapping/configured(with:)``; the nearest one
  /// wins.
  ///
  /// ```swift
  /// mutating func map(map: KeyMap) throws {
  ///     let limits = map.configuration(SearchConfiguration.self)
  ///     try biography <-> map["biography"]
  ///     if let limit = limits?.biographyLimit { biography = String(biography.prefix(limit)) }
  /// }
  /// ```
  ///
  /// - Parameter type: The configuration's type.
  /// - Returns: The configuration, or `nil` when none of that type was given.
  public func configuration<Configuration>(_ type: Configuration.Type) -> Configuration? {
    // Through the box: calling a method of the bound context copies it.
    MappingContext.Binding.box?.context.configurations.value(of: type)
  }

  /// The configuration of type `type`, which this model cannot be mapped without.
  ///
  /// ```swift
  /// if map.type.isDecoding {
  ///     favorites = try map.requiredConfiguration(Favorites.self)
  /// }
  /// ```
  ///
  /// - Parameter type: The configuration's type.
  /// - Returns: The configuration.
  /// - Throws: `DecodingError.valueNotFound` (while decoding) or `EncodingError.invalidValue`
  ///   (while encoding) naming the missing type, at the coding path of this model.
  public func requiredConfiguration<Configuration>(_ type: Configuration.Type) throws
    -> Configuration
  {
    if let configuration = configuration(type) {
      return configuration
    }
    throw run.missingContext(
      "No configuration of type \(Configuration.self) was given to map \(run.modelName). Pass "
        + "one with MappingContext.configuration(_:), or from the parent's mapping with "
        + "configured(with:).",
      expected: Configuration.self)
  }

  // MARK: - Values

  /// The value the caller handed to this decode or encode under `key`, if any.
  ///
  /// Looks in the ``MappingContext`` of the call, then in the `userInfo` of the decoder or
  /// encoder under ``ContextKey/userInfoKey``.
  ///
  /// - Parameter key: The value's typed key.
  /// - Returns: The value, or `nil` when there is none under `key`.
  /// - Throws: `DecodingError.typeMismatch` (while decoding) or `EncodingError.invalidValue`
  ///   (while encoding) when the value under `key` has another type; the message names both.
  public func context<Value>(_ key: ContextKey<Value>) throws -> Value? {
    let found: Any
    if let value = MappingContext.Binding.box?.context.values[key.name] {
      found = value
    } else if let value = userInfo[key.userInfoKey] {
      found = value
    } else {
      return nil
    }
    if let value = found as? Value {
      return value
    }
    throw run.wrongContextType(
      "The context value \(key) is a \(Swift.type(of: found)), but \(run.modelName) reads it as a "
        + "\(Value.self).",
      expected: Value.self, found: found)
  }

  /// The value the caller handed to this decode or encode under `key`, or `defaultValue`.
  ///
  /// ```swift
  /// textColor = try map.context(.textColor, default: .black)
  /// ```
  ///
  /// - Parameters:
  ///   - key: The value's typed key.
  ///   - defaultValue: The value to use when there is none under `key`.
  /// - Returns: The value.
  /// - Throws: `DecodingError.typeMismatch` or `EncodingError.invalidValue` when the value under
  ///   `key` has another type.
  public func context<Value>(
    _ key: ContextKey<Value>, default defaultValue: @autoclosure () -> Value
  )
    throws -> Value
  {
    try context(key) ?? defaultValue()
  }

  /// The value under `key`, which this model cannot be mapped without.
  ///
  /// - Parameter key: The value's typed key.
  /// - Returns: The value.
  /// - Throws: `DecodingError.valueNotFound` or `EncodingError.invalidValue` naming the key and
  ///   its type when there is no value, and the errors of ``context(_:)`` when it has another
  ///   type.
  public func requiredContext<Value>(_ key: ContextKey<Value>) throws -> Value {
    if let value = try context(key) {
      return value
    }
    throw run.missingContext(
      "No context value \(key) of type \(Value.self) was given to map \(run.modelName). Pass one "
        + "with MappingContext.value(_:for:) or in the coder's userInfo.",
      expected: Value.self)
  }
}

extension MappingRun {
  /// The name of the model type, for messages.
  var modelName: String { String(describing: model) }

  /// The error for context a model requires and was not given.
  func missingContext(_ message: String, expected: Any.Type) -> any Error {
    if follower.isDecoding {
      return DecodingError.valueNotFound(
        expected, .init(codingPath: modelCodingPath, debugDescription: message))
    }
    return EncodingError.invalidValue(
      String(describing: expected), .init(codingPath: modelCodingPath, debugDescription: message))
  }

  /// The error for a context value of an unexpected type.
  func wrongContextType(_ message: String, expected: Any.Type, found: Any) -> any Error {
    if follower.isDecoding {
      return DecodingError.typeMismatch(
        expected, .init(codingPath: modelCodingPath, debugDescription: message))
    }
    return EncodingError.invalidValue(
      found, .init(codingPath: modelCodingPath, debugDescription: message))
  }
}
