import Foundation

extension EncodeRun {
  /// Encodes `value` through the transform of a ``ValueMapping``.
  ///
  /// - Throws: `EncodingError.invalidValue` at the value's coding path when the transform fails,
  ///   and the errors of ``encode(_:_:)``.
  @inlinable
  func encodeValue<Transform: ValueTransform>(
    _ value: Transform.Value, _ mapping: ValueMapping<Transform>
  ) throws {
    #if !KEYED_CODABLE_MAPPING_ONLY
      // ISO 8601 dates of a planned member go straight into the JSON coder's output.
      if Transform.self == ISO8601DateTransform.self, json != nil,
        try encodeISO8601(
          reinterpret(value, as: Date.self),
          reinterpret(mapping.transform, as: ISO8601DateTransform.self), mapping.mapping)
      {
        return
      }
    #endif
    let representation: Transform.Representation
    do {
      representation = try mapping.transform.encode(value)
    } catch {
      throw transformFailure(error, mapping.mapping, value: value)
    }
    try encode(representation, mapping.mapping)
  }

  #if !KEYED_CODABLE_MAPPING_ONLY
    /// Writes `date` with `transform` into the JSON coder's output when `mapping` is a plain
    /// member the plan resolved, as ``encode(_:_:)`` would write the transform's text.
    ///
    /// - Returns: Whether it was written; `false` when the mapping takes the general path.
    /// - Throws: What the transform and ``encode(_:_:)`` throw, as they throw it.
    @usableFromInline
    func encodeISO8601(_ date: Date, _ transform: ISO8601DateTransform, _ mapping: Mapping)
      throws -> Bool
    {
      let position = mapping.reference
      guard let json, position >= 0, !takesSlowPath, !recordsWrites, !follower.diverged,
        mapping.extras == nil,
        let member = follower.plainMember(at: position, valueType: ObjectIdentifier(String.self)),
        member.node < states.count, states[member.node] == .empty
      else { return false }
      do {
        return try json.encodePlanned(date, with: transform, member, in: self)
      } catch let error as ValueTransformError {
        throw transformFailure(error, mapping, value: date)
      } catch {
        throw failure(error, of: mapping)
      }
    }
  #endif

  /// The error for a transform that failed on `value`: `invalidValue` at the value's full
  /// coding path, with the transform's message and its error as the underlying error.
  ///
  /// Out of line: made inside ``encodeISO8601(_:_:_:)`` or ``encodeValue(_:_:)``, it would have
  /// them look up the metadata of `EncodingError` (a resilient type) whenever they start.
  @usableFromInline @inline(never)
  func transformFailure(_ error: any Error, _ mapping: Mapping, value: Any) -> any Error {
    var keys: [PathKey] = []
    var failure = error
    if let element = error as? ElementFailure {
      (keys, failure) = element.flattened
    }
    if failure is EncodingError {
      return failure
    }
    // The transform's own words: its error's description is the message.
    let message = CodingPathText.oneLine(String(describing: failure))
    return EncodingError.invalidValue(
      value,
      .init(
        codingPath: valueCodingPath(of: mapping) + keys, debugDescription: message,
        underlyingError: failure))
  }

  /// The full coding path of the value `mapping` writes, found without recording anything.
  func valueCodingPath(of mapping: Mapping) -> [any CodingKey] {
    let base = backend?.codingPath ?? []
    if let entry = mapping.entry {
      switch entry.target {
      case .flat: return base
      case .value(let parent, _, let key, _): return codingPath(to: parent) + [key]
      case .container(let node): return codingPath(to: node)
      }
    }
    if case .member(let key) = mapping.pending {
      return base + key.path.map { PathKey($0) }
    }
    let (name, options) = mapping.keyAndOptions
    let parsed = ParsedKey(name, options: options)
    guard !parsed.isFlat else { return base }
    return base + (parsed.lossySegments ?? parsed.segments).map { PathKey($0) }
  }
}
