/// Encodes a ``Keyedable`` value to any `Encoder` by running its `map(map:)` function.
///
/// `Keyedable & Encodable` types use it through their default `encode(to:)`. A type that writes
/// its own `encode(to:)` calls it the same way:
///
/// ```swift
/// func encode(to encoder: Encoder) throws {
///     try KeyedEncoder(with: encoder).encode(from: self)
/// }
/// ```
///
/// Keys are written in the order the mappings are made. Values the output cannot hold without
/// losing one of them (two mappings writing the same key path, members written under a key that
/// holds a number) throw `EncodingError.invalidValue` instead of overwriting silently.
public struct KeyedEncoder {
  private let encoder: any Encoder

  /// Creates a keyed encoder that writes to `encoder`.
  ///
  /// - Parameter encoder: The encoder passed to `encode(to:)`.
  public init(with encoder: any Encoder) {
    self.encoder = encoder
  }

  /// Encodes the mappings of `object`.
  ///
  /// - Parameter object: The value to write; its `map(map:)` says where each property goes.
  /// - Throws: `EncodingError` whose `codingPath` is the full path of the failing value.
  public func encode<Model: Keyedable>(from object: Model) throws {
    try Self.encode(object, typeMember: nil, to: encoder)
  }

  /// Encodes the mappings of `object` to `encoder`, with a member naming its type (see
  /// ``TypeRegistry``), `encoder` opened to its own type.
  ///
  /// The member comes first, unless the model maps it itself: its value is then checked to be
  /// one of the type's names, and the first name is written after the model's mappings only if
  /// the model wrote nothing there.
  ///
  /// The default `encode(to:)` of `Keyedable` models calls it without making a `KeyedEncoder`,
  /// so the encoder is never copied into an existential box on the way (four copies of it, each
  /// a retain and a release, for every nested model on the JSON coder).
  ///
  /// - Parameters:
  ///   - object: The value to write.
  ///   - typeMember: The member's key and the type's names, or `nil` for none.
  ///   - encoder: The encoder passed to `encode(to:)`.
  /// - Throws: `EncodingError` whose `codingPath` is the full path of the failing value.
  static func encode<Model: Keyedable, Target: Encoder>(
    _ object: Model, typeMember: TypeMember?, to encoder: Target
  ) throws {
    #if !KEYED_CODABLE_MAPPING_ONLY
      if Target.self == JSONStreamEncoder.self {
        // `Target` is `JSONStreamEncoder`: the value is that reference, read as its own type and
        // used without retaining it (`encoder` keeps it alive).
        let json = withUnsafePointer(to: encoder) {
          UnsafeRawPointer($0).load(as: Unmanaged<JSONStreamEncoder>.self)
        }
        return try json._withUnsafeGuaranteedRef {
          try encode(object, typeMember: typeMember, json: $0)
        }
      }
    #endif
    // The JSON coder counts its own nesting; on other coders, each thread's pool does.
    if let pool = RunPool.current {
      return try pool.nested(encoding: object, at: encoder.codingPath) {
        try encode(object, typeMember: typeMember, containers: encoder, pool: pool)
      }
    }
    try encode(object, typeMember: typeMember, containers: encoder, pool: nil)
  }

  #if !KEYED_CODABLE_MAPPING_ONLY
    /// ``encode(_:typeMember:to:)`` on the coder's own JSON encoder.
    private static func encode<Model: Keyedable>(
      _ object: Model, typeMember: TypeMember?, json: JSONStreamEncoder
    ) throws {
      let model = mappedType(of: object)
      let modelType = ObjectIdentifier(model)
      var plan = json.plan(for: modelType)
      if plan == nil || plan?.isStable == false {
        // Learn every key path of this encode before writing, so a value that shares its key
        // path with other mappings is known to be shared before it is written.
        plan = try collectKeyPaths(
          of: object, typeMember: typeMember, plan: plan, userInfo: json.userInfo)
        json.forgetPlan(of: modelType)
      }
      let spare = json.takeRun(for: model, plan: plan)
      do {
        try encode(object, typeMember: typeMember, plan: plan, with: spare.map, run: spare.run)
      } catch {
        json.keepRun(spare)
        throw error
      }
      json.keepRun(spare)
    }
  #endif

  /// ``encode(_:typeMember:to:)`` on the containers of any other encoder, with the thread's
  /// pool when there is one.
  private static func encode<Model: Keyedable>(
    _ object: Model, typeMember: TypeMember?, containers encoder: any Encoder, pool: RunPool?
  ) throws {
    let model = mappedType(of: object)
    var (plan, readsContext) = PlanRegistry.shared.planAndContextFlag(
      for: ObjectIdentifier(model), decoding: false)
    if plan == nil || plan?.isStable == false {
      plan = try collectKeyPaths(
        of: object, typeMember: typeMember, plan: plan, userInfo: encoder.userInfo)
    }
    var map: KeyMap
    if let pool {
      map = pool.encodingMap(for: encoder, model: model, plan: plan, readsContext: readsContext)
    } else {
      map = KeyMap(
        encoding: EncodeRun(
          containers: ContainerEncodingBackend(encoder), model: model, plan: plan,
          readsContext: readsContext))
    }
    defer { pool?.recycleEncoding(&map) }
    guard let run = map.encoding else { return }
    try encode(object, typeMember: typeMember, plan: plan, with: map, run: run)
  }

  /// Runs `object`'s mappings with `map`, whose run is `run`, collecting its key paths first
  /// if the run leaves its plan.
  private static func encode<Model: Keyedable>(
    _ object: Model, typeMember: TypeMember?, plan: MappingPlan?, with map: KeyMap,
    run: EncodeRun
  ) throws {
    // Only a run that leaves its plan collects, from the value as it was handed over.
    try withUnsafePointer(to: object) { original in
      // The run keeps the value's address for as long as it runs.
      // Plain words, so that setting and clearing them copies and releases nothing; the type
      // member, a polymorphic value's alone, is kept apart.
      run.keyPathCollector = KeyPathCollector(model: Model.self, object: UnsafeRawPointer(original))
      if case .some = typeMember {
        run.collectorTypeMember = typeMember
      }
      defer {
        run.keyPathCollector = nil
        if case .some = typeMember {
          run.collectorTypeMember = nil
        }
      }
      var object = object
      let mapsTypeMember = typeMember.map { plan?.mapsMember($0.key) ?? false } ?? false
      // `run.run(_:)` without its closure: a frame less for every encoded model.
      do {
        // Held writes refer to the key map, which refers to the run: a run that throws lets go
        // of them here, not when it is next used.
        defer { run.discardDeferredWrites() }
        // The mapped object is always an object, even when every optional is nil.
        run.openRoot()
        if let typeMember {
          run.beginTypeMember(typeMember, mappedByModel: mapsTypeMember)
          if !mapsTypeMember {
            try typeMember.name ->> map[Key(stringValue: typeMember.key)]
          }
        }
        try object.map(map: map)
        try run.writeDeferred()
        if let typeMember, run.typeMemberIsEmpty {
          try typeMember.name ->> map[Key(stringValue: typeMember.key)]
        }
      } catch {
        run.abandon()
        throw error
      }
      try run.complete()
    }
  }

  /// The key paths of an encode of `object`, learned by running its `map(map:)` without
  /// writing anything.
  static func collectKeyPaths<Model: Keyedable>(
    of object: Model, typeMember: TypeMember?, plan: MappingPlan?,
    userInfo: [CodingUserInfoKey: Any]
  ) throws -> MappingPlan? {
    var object = object
    let collector = EncodeRun(collectingFor: type(of: object), plan: plan, userInfo: userInfo)
    let map = KeyMap(encoding: collector)
    return try collector.run {
      if let typeMember {
        try typeMember.name ->> map[Key(stringValue: typeMember.key)]
      }
      try object.map(map: map)
    }
  }
}

/// How a run that leaves its plan learns every key path of its encode (see
/// ``EncodeRun/keyPathCollector``): the value being encoded, as it was handed over, and what its
/// `map(map:)` runs with.
///
/// Holds the value by address, with its type, rather than in a closure: a closure capturing the
/// value would be allocated for every encoded value, and only a run that leaves its plan uses it.
/// Valid while the encode of the value lasts.
struct KeyPathCollector {
  /// The value's static type.
  let model: any Keyedable.Type
  /// The value, a `model`.
  let object: UnsafeRawPointer

  /// Runs the value's `map(map:)` without writing anything.
  ///
  /// - Parameters:
  ///   - typeMember: The member naming the value's type, if any (see ``TypeRegistry``).
  ///   - userInfo: The encoder's `userInfo`, which `map(map:)` may read.
  /// - Returns: The plan the run recorded.
  /// - Throws: What `map(map:)` throws.
  func collect(typeMember: TypeMember?, userInfo: [CodingUserInfoKey: Any]) throws
    -> MappingPlan?
  {
    try Self.collect(model, self, typeMember: typeMember, userInfo: userInfo)
  }

  private static func collect<Model: Keyedable>(
    _ type: Model.Type, _ collector: Self, typeMember: TypeMember?,
    userInfo: [CodingUserInfoKey: Any]
  ) throws -> MappingPlan? {
    try KeyedEncoder.collectKeyPaths(
      of: collector.object.load(as: Model.self), typeMember: typeMember, plan: nil,
      userInfo: userInfo)
  }
}

/// The member that names the type of a polymorphic value (see ``TypeRegistry``).
struct TypeMember {
  /// The member's name, a member of the mapped object.
  let key: String
  /// The names the value's type is registered under, in the registry's order.
  let names: [String]

  /// The name encoding writes when the model does not write one.
  var name: String { names.first ?? "" }
}
