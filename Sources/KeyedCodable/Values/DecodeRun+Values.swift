import Foundation

extension DecodeRun {
  /// Decodes the value of a ``ValueMapping``: its representation, converted by its transform.
  ///
  /// Inlined into the model: a mapping with nothing but a transform reads its representation on
  /// the fast path of ``decode(_:_:required:)``. Defaults, collections and extras take
  /// ``decodeValueGenerally(_:required:)``.
  ///
  /// - Returns: The value, or `nil` when it is absent and not required, or when the mapping is
  ///   not selected.
  /// - Throws: `DecodingError` with the full coding path; a failed transform as `dataCorrupted`.
  @inlinable
  func decodeValue<Transform: ValueTransform>(
    _ mapping: ValueMapping<Transform>, required: Bool
  ) throws -> Transform.Value? {
    guard !mapping.needsGeneralPath else {
      return try decodeValueGenerally(mapping, required: required)
    }
    #if !KEYED_CODABLE_MAPPING_ONLY
      // ISO 8601 dates of a planned member are read from the JSON document's bytes; anything
      // else (an escape, a missing member, text the format rejects) takes the general way.
      if Transform.self == ISO8601DateTransform.self, json != nil,
        let date = plannedISO8601Date(mapping.mapping)
      {
        return reinterpret(date, as: Transform.Value.self)
      }
    #endif
    guard
      let representation = try decode(
        Transform.Representation.self, mapping.mapping, required: required)
    else { return nil }
    do {
      return try convert(representation, with: mapping.transform, for: mapping.mapping)
    } catch {
      throw transformFailure(
        error, mapping.mapping, representation: representation, valueType: Transform.Value.self)
    }
  }

  #if !KEYED_CODABLE_MAPPING_ONLY
    /// The date of an ISO 8601 transform's plain `mapping` the plan resolved, read from the
    /// bytes of its member in the JSON document, or `nil` when the mapping must be read the
    /// general way (the member's object isn't open yet, the member is missing, not a string or
    /// has escapes, or the format rejects it).
    @usableFromInline
    func plannedISO8601Date(_ mapping: Mapping) -> Date? {
      let position = mapping.reference
      guard let json, position >= 0, !takesSlowPath, mapping.extras == nil,
        let member = follower.plainMember(at: position, valueType: ObjectIdentifier(String.self))
      else { return nil }
      return json.plannedISO8601Date(member.node, in: member.parent)
    }
  #endif

  /// Decodes the value of a ``ValueMapping`` with a default, a collection transform or extras.
  @usableFromInline
  func decodeValueGenerally<Transform: ValueTransform>(
    _ mapping: ValueMapping<Transform>, required: Bool
  ) throws -> Transform.Value? {
    try checkInUse(mapping.mapping)
    if selection != nil, skips(mapping.mapping) {
      return nil
    }
    let target = target(of: mapping.mapping, valueType: Transform.Representation.self)
    if mapping.mapping.extras?.debug == true {
      debugMapping(mapping.mapping, at: target)
    }
    guard let extras = mapping.mapping.extras, let scope = extras.scope else {
      return try decodeValue(mapping, at: target, required: required)
    }
    return try scoped(scope, Transform.Value.self, affectsRuns: extras.scopeAffectsRuns) {
      try decodeValue(mapping, at: target, required: required)
    }
  }

  /// Decodes the value of a ``ValueMapping`` at its target, applying its default.
  private func decodeValue<Transform: ValueTransform>(
    _ mapping: ValueMapping<Transform>, at target: MappingTarget, required: Bool
  ) throws -> Transform.Value? {
    let fallback = mapping.fallback
    if fallback != nil {
      // A default stands in for this value, not for the model: a model that is not an object
      // (or is `null`) fails as it would without defaults.
      _ = try objectIsOpen(0, for: mapping.mapping, required: true)
    }
    do {
      if let value = try decodeConverted(mapping, at: target, required: false) {
        return value
      }
    } catch {
      guard let fallback, fallback.condition.coversInvalid else { throw error }
      report(
        .defaulted(value: CodingPathText.shown(fallback.value)),
        at: valueCodingPath(of: target), keyPath: mapping.mapping.keyDescription, error: error)
      return fallback.value
    }
    if let fallback, fallback.condition.coversAbsent {
      return fallback.value
    }
    guard required else { return nil }
    // Absent and required: decode again as required for the exact error (`keyNotFound` or
    // `valueNotFound` naming the member), or `nil` for an `Optional` value.
    return try decodeConverted(mapping, at: target, required: true)
  }

  /// Decodes and converts the representation at `target`.
  private func decodeConverted<Transform: ValueTransform>(
    _ mapping: ValueMapping<Transform>, at target: MappingTarget, required: Bool
  ) throws -> Transform.Value? {
    if let elementwise = mapping.elementwise {
      do {
        return try elementwise(self, mapping.mapping, target, required)
      } catch {
        if MappingErrors.isDecodingError(error) {
          throw error
        }
        throw transformFailure(
          error, at: valueCodingPath(of: target), representation: nil,
          valueType: Transform.Value.self)
      }
    }
    guard
      let representation = try decodeRecovering(
        Transform.Representation.self, at: target, mapping.mapping, required: required)
    else { return nil }
    do {
      return try convert(
        representation, with: mapping.transform, path: { valueCodingPath(of: target) },
        keyPath: mapping.mapping.keyDescription)
    } catch {
      throw transformFailure(
        error, at: valueCodingPath(of: target), representation: representation,
        valueType: Transform.Value.self)
    }
  }

  // MARK: - Collections

  /// Decodes an array whose elements `element` converts; with the lossy marker, elements that
  /// fail are dropped and reported.
  func decodeElements<Element: ValueTransform>(
    _ element: Element, _ mapping: Mapping, _ target: MappingTarget, required: Bool
  ) throws -> [Element.Value]? {
    guard case .value(let parent, _, let key, true) = target else {
      let representation = try decodeRecovering(
        [Element.Representation].self, at: target, mapping, required: required)
      return try representation.map {
        try convert(
          $0, with: ArrayTransform(element), path: { valueCodingPath(of: target) },
          keyPath: mapping.keyDescription)
      }
    }
    guard try objectIsOpen(parent, for: mapping, required: required) else { return nil }
    if !required, try backend.isAbsent(key, in: parent) {
      return nil
    }
    var container = try backend.elements(forKey: key, in: parent)
    let arrayPath = container.codingPath
    var values: [Element.Value] = []
    while !container.isAtEnd {
      let position = container.currentIndex
      do {
        let representation = try container.decode(Element.Representation.self)
        let path = arrayPath + [PathKey(index: position)]
        do {
          values.append(
            try convert(
              representation, with: element, path: { path }, keyPath: mapping.keyDescription))
        } catch {
          report(
            .droppedElement, at: path, keyPath: mapping.keyDescription,
            error: transformFailure(
              error, at: path, representation: representation, valueType: Element.Value.self))
        }
        continue
      } catch {
        report(
          .droppedElement, at: arrayPath + [PathKey(index: position)],
          keyPath: mapping.keyDescription, error: error)
      }
      try container.skipFailedElement(at: position)
    }
    return values
  }

  /// Decodes a dictionary whose values `element` converts; with the lossy marker, entries that
  /// fail are dropped and reported.
  func decodeEntries<Element: ValueTransform>(
    _ element: Element, _ mapping: Mapping, _ target: MappingTarget, required: Bool
  ) throws -> [String: Element.Value]? {
    guard case .value(_, _, _, true) = target else {
      let representation = try decodeRecovering(
        [String: Element.Representation].self, at: target, mapping, required: required)
      return try representation.map {
        try convert(
          $0, with: DictionaryTransform(element), path: { valueCodingPath(of: target) },
          keyPath: mapping.keyDescription)
      }
    }
    guard
      let representation = try decodeRecovering(
        [String: Element.Representation].self, at: target, mapping, required: required)
    else { return nil }
    let dictionaryPath = valueCodingPath(of: target)
    var values: [String: Element.Value] = [:]
    for key in representation.keys.sorted() {
      guard let item = representation[key] else { continue }
      let path = dictionaryPath + [PathKey(stringValue: key)]
      do {
        values[key] = try convert(
          item, with: element, path: { path }, keyPath: mapping.keyDescription)
      } catch {
        report(
          .droppedEntry, at: path, keyPath: mapping.keyDescription,
          error: transformFailure(
            error, at: path, representation: item, valueType: Element.Value.self))
      }
    }
    return values
  }

  // MARK: - Errors

  /// The full coding path of the value at `target`.
  func valueCodingPath(of target: MappingTarget) -> [any CodingKey] {
    switch target {
    case .flat: codingPath(to: 0)
    case .value(let parent, _, let key, _): codingPath(to: parent) + [key]
    case .container(let node): codingPath(to: node)
    }
  }

  /// The full coding path of the value `mapping` reads, found without recording anything.
  func valueCodingPath(of mapping: Mapping) -> [any CodingKey] {
    if let entry = mapping.entry {
      return valueCodingPath(of: entry.target)
    }
    if case .member(let key) = mapping.pending {
      let parent = follower.tree.node(at: key.parentPath, hint: key.parentNode)
      return codingPath(to: parent) + [key.codingKey]
    }
    let (name, options) = mapping.keyAndOptions
    let parsed = ParsedKey(name, options: options)
    guard !parsed.isFlat else { return codingPath(to: 0) }
    let segments = parsed.lossySegments ?? parsed.segments
    let parent = follower.tree.node(at: segments.dropLast())
    return codingPath(to: parent) + [PathKey(segments.last ?? "")]
  }

  /// The error for a transform that failed on the value `mapping` read (out of line, as error
  /// makers are: see ``EncodeRun``'s).
  @usableFromInline @inline(never)
  func transformFailure(
    _ error: any Error, _ mapping: Mapping, representation: Any?, valueType: Any.Type
  ) -> any Error {
    if let error = error as? DecodingError {
      return error
    }
    return transformFailure(
      error, at: valueCodingPath(of: mapping), representation: representation,
      valueType: valueType)
  }

  /// The error for a transform that failed on the value at `path`: `dataCorrupted` with the
  /// transform's message, the failing element's path, and the transform's error as the
  /// underlying error.
  @inline(never)
  func transformFailure(
    _ error: any Error, at path: [any CodingKey], representation: Any?, valueType: Any.Type
  ) -> any Error {
    var keys: [PathKey] = []
    var failure = error
    if let element = error as? ElementFailure {
      (keys, failure) = element.flattened
    }
    if failure is DecodingError {
      return failure
    }
    // The transform's own words: its error's description is the message.
    let message = CodingPathText.oneLine(String(describing: failure))
    return DecodingError.dataCorrupted(
      .init(codingPath: path + keys, debugDescription: message, underlyingError: failure))
  }
}
