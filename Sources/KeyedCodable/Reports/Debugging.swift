// Printing what mappings see while decoding: per mapping with `Mapping.debug(_:inReleaseBuilds:)`,
// per model type with `MappingContext.debugging(_:inReleaseBuilds:output:)`. Off by default, and
// never in release builds unless asked.

extension Mapping {
  /// This mapping, printing the JSON it reads while decoding.
  ///
  /// ```swift
  /// try address <-> map["address"].debug()
  /// // KeyedCodable: User["address"] at address sees {"city":"Paris","zip":"75001"}
  /// ```
  ///
  /// Prints with the output of the context (see
  /// ``MappingContext/debugging(_:inReleaseBuilds:output:)-swift.type.method``), or with `print`.
  /// Release builds print nothing unless `inReleaseBuilds` is `true`.
  ///
  /// - Parameters:
  ///   - enabled: Whether to print.
  ///   - inReleaseBuilds: Whether to print in release builds too.
  /// - Returns: A copy of the mapping.
  public func debug(_ enabled: Bool = true, inReleaseBuilds: Bool = false) -> Mapping {
    #if DEBUG
      let prints = enabled
    #else
      let prints = enabled && inReleaseBuilds
    #endif
    return withExtras { $0.debug = prints }
  }
}

extension MappingContext {
  /// A context that prints the whole JSON object each model of `types` sees while decoding.
  ///
  /// ```swift
  /// let user = try decoder.decode(User.self, from: data, with: .debugging([Address.self]))
  /// // KeyedCodable: Address at address sees {"city":"Paris","zip":"75001"}
  /// ```
  ///
  /// - Parameters:
  ///   - types: The model types to print.
  ///   - inReleaseBuilds: Whether to print in release builds too; otherwise they print nothing.
  ///   - output: Where the lines go; `print` unless given.
  /// - Returns: A new context.
  public static func debugging(
    _ types: [Any.Type], inReleaseBuilds: Bool = false,
    output: (@Sendable (String) -> Void)? = nil
  ) -> MappingContext {
    MappingContext().debugging(types, inReleaseBuilds: inReleaseBuilds, output: output)
  }

  /// This context, printing the whole JSON object each model of `types` sees while decoding
  /// (see ``debugging(_:inReleaseBuilds:output:)-swift.type.method``), and sending what
  /// debugged mappings print to `output`.
  ///
  /// - Parameters:
  ///   - types: The model types to print.
  ///   - inReleaseBuilds: Whether to print in release builds too.
  ///   - output: Where the lines go; `print` unless given.
  /// - Returns: A new context.
  public func debugging(
    _ types: [Any.Type], inReleaseBuilds: Bool = false,
    output: (@Sendable (String) -> Void)? = nil
  ) -> MappingContext {
    var context = self
    #if DEBUG
      let prints = true
    #else
      let prints = inReleaseBuilds
    #endif
    if prints {
      context.debuggedTypes.formUnion(types.map(ObjectIdentifier.init))
    }
    if let output {
      context.debugOutput = DebugOutput(write: output)
    }
    return context
  }
}

/// Where debugging lines go.
struct DebugOutput: Sendable {
  let write: @Sendable (String) -> Void
}

extension DecodeRun {
  /// Prints the JSON the model of this run sees, when the context asks for it.
  func debugModelIfAsked(_ context: MappingContext) {
    guard context.debuggedTypes.contains(modelType) else { return }
    let seen = (try? SeenValue(from: backend.rootDecoder()))?.json ?? "(not readable)"
    let path = CodingPathText.render(backend.rootDecoder().codingPath)
    write("KeyedCodable: \(modelName) at \(path) sees \(seen)", context)
  }

  /// Prints the JSON the value at `target` holds, for a debugged mapping.
  func debugMapping(_ mapping: Mapping, at target: MappingTarget) {
    let seen: String
    let path = valueCodingPath(of: target)
    switch target {
    case .value(let parent, _, let key, _):
      if (try? objectIsOpen(parent, for: mapping, required: false)) == true,
        let presence = try? backend.presence(of: key, in: parent)
      {
        seen =
          presence == .missing
          ? "nothing (the key is missing)"
          : (try? backend.decode(SeenValue.self, forKey: key, in: parent))?.json ?? "(not readable)"
      } else {
        seen = "nothing (an object on the way is missing or null)"
      }
    case .flat, .container:
      seen = (try? SeenValue(from: backend.rootDecoder()))?.json ?? "(not readable)"
    }
    write(
      "KeyedCodable: \(modelName)[\(CodingPathText.quoted(mapping.keyDescription))] at "
        + "\(CodingPathText.render(path)) sees \(seen)", MappingContext.current)
  }

  private func write(_ line: String, _ context: MappingContext?) {
    if let output = context?.debugOutput {
      output.write(line)
    } else {
      print(line)
    }
  }
}

/// Any JSON value, read to be printed.
private enum SeenValue: Decodable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([SeenValue])
  case object([(String, SeenValue)])

  init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: PathKey.self) {
      // Sorted: coders list members in no fixed order, and a line must read the same on every
      // decode.
      let keys = container.allKeys.sorted {
        $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8)
      }
      self = .object(
        try keys.map { ($0.stringValue, try container.decode(SeenValue.self, forKey: $0)) })
    } else if var container = try? decoder.unkeyedContainer() {
      var elements: [SeenValue] = []
      while !container.isAtEnd {
        elements.append(try container.decode(SeenValue.self))
      }
      self = .array(elements)
    } else {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let value = try? container.decode(Bool.self) {
        self = .bool(value)
      } else if let value = try? container.decode(Int64.self) {
        self = .number(String(value))
      } else if let value = try? container.decode(UInt64.self) {
        self = .number(String(value))
      } else if let value = try? container.decode(Double.self) {
        self = .number(NumericTextParsing.jsonText(of: value))
      } else {
        self = .string(try container.decode(String.self))
      }
    }
  }

  /// The value as compact JSON.
  var json: String {
    switch self {
    case .null: "null"
    case .bool(let value): value ? "true" : "false"
    case .number(let text): text
    case .string(let text): CodingPathText.quoted(text)
    case .array(let elements): "[" + elements.map(\.json).joined(separator: ",") + "]"
    case .object(let members):
      "{" + members.map { "\(CodingPathText.quoted($0.0)):\($0.1.json)" }.joined(separator: ",")
        + "}"
    }
  }
}
