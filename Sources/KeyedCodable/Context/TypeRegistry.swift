/// The concrete types a polymorphic value may have, each under the name a member of the
/// document gives it.
///
/// Decoding reads the member (`"type"` unless told otherwise), finds the type registered under
/// its value and decodes that type; encoding writes the member next to the value's own members.
/// Declare a registry next to the base type, and map with `polymorphic(_:)`:
///
/// ```swift
/// protocol Shape { var area: Double { get } }
///
/// extension TypeRegistry where Base == any Shape {
///     static let shapes = TypeRegistry(typeKey: "type", [
///         "circle": Circle.self,
///         "square": Square.self,
///     ])
/// }
///
/// // in Drawing.map(map:)
/// try shapes <-> map["shapes"].polymorphic(.shapes)     // [any Shape]
/// try shapes <-> map["* shapes"].polymorphic(.shapes)   // unknown types dropped
/// ```
///
/// A registry can also come from the caller, with
/// ``MappingContext/registering(_:)-swift.type.method``, for mappings made with
/// `polymorphic(_:)` with a base type.
///
/// A ``Keyedable`` type may map the type member itself (`try kind <-> map["type"]`): the member
/// is written once, and its value must be a name the type is registered under. A type registered
/// under several names, such as a new name and an old one, decodes from each of them; encoding
/// writes its first name, or, when the value maps the type member, the name the value holds,
/// so a value writes back the name it was decoded with.
public struct TypeRegistry<Base>: Sendable {
  /// The member that names the type; empty for a registry that finds the name with a function
  /// (``init(_:fallback:nameOf:)``).
  public let typeKey: String
  /// The registered names, in the order given.
  public let names: [String]
  /// The types, by name.
  private let types: [String: RegisteredType]
  /// The names of each type, in the order given.
  private let namesByType: [ObjectIdentifier: [String]]
  /// The type of values whose name no type is registered under, if any.
  private let fallbackType: RegisteredType?
  /// The function that finds a value's name, for a registry made with one.
  private let nameFunction: (@Sendable (any Decoder) throws -> String)?

  /// Creates a registry.
  ///
  /// Each type must be `Codable` and a `Base` (a conforming type, or a subclass). A name given
  /// twice keeps its first type. A type may have several names: each of them decodes to it, and
  /// encoding writes the first, unless the value maps the type member itself and holds another
  /// of its names (see ``TypeRegistry``).
  ///
  /// With a `fallback` type, an object whose name no type is registered under decodes as that
  /// type instead of throwing, and a value of that type encodes as it is, with no type member
  /// added: give it a property that keeps the name (and, to write the object back unchanged,
  /// the members it doesn't know).
  ///
  /// ```swift
  /// static let payloads = TypeRegistry<any EventPayload>(
  ///     ["PushEvent": PushPayload.self, "WatchEvent": WatchPayload.self],
  ///     fallback: UnknownPayload.self)
  /// ```
  ///
  /// - Parameters:
  ///   - typeKey: The member that names the type; `"type"` unless given.
  ///   - types: The names and their types.
  ///   - fallback: The type of objects of an unknown name, or `nil` to throw for them.
  public init(
    typeKey: String = "type", _ types: KeyValuePairs<String, any Codable.Type>,
    fallback: (any Codable.Type)? = nil
  ) {
    self.init(typeKey: typeKey, types, fallback: fallback, nameFunction: nil)
  }

  /// Creates a registry that finds the name of a value's type with a function of the value.
  ///
  /// Use it when no single member names the type: the name is part of a string (a route's
  /// scheme in `"profile://42"`), depends on which members are present, or sits in a member of
  /// another name in each version of an API. The function is given the decoder of the value
  /// and returns a name registered in `types`; an unknown name decodes as `fallback`, or throws
  /// `DecodingError.dataCorrupted` at the value's path. Encoding writes the value as it is: the
  /// value's own members must say what it is, as they did when it was decoded.
  ///
  /// ```swift
  /// static let routes = TypeRegistry<any Route>(
  ///     ["profile": ProfileRoute.self, "settings": SettingsRoute.self]
  /// ) { decoder in
  ///     let text = try decoder.singleValueContainer().decode(String.self)
  ///     return String(text.prefix { $0 != ":" })
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - types: The names and their types.
  ///   - fallback: The type of values of an unknown name, or `nil` to throw for them.
  ///   - nameOf: Reads the name of a value's type from its decoder; its errors are thrown as
  ///     they are.
  public init(
    _ types: KeyValuePairs<String, any Codable.Type>, fallback: (any Codable.Type)? = nil,
    nameOf: @escaping @Sendable (any Decoder) throws -> String
  ) {
    self.init(typeKey: "", types, fallback: fallback, nameFunction: nameOf)
  }

  private init(
    typeKey: String, _ types: KeyValuePairs<String, any Codable.Type>,
    fallback: (any Codable.Type)?, nameFunction: (@Sendable (any Decoder) throws -> String)?
  ) {
    self.typeKey = typeKey
    var names: [String] = []
    var byName: [String: RegisteredType] = [:]
    var byType: [ObjectIdentifier: [String]] = [:]
    for (name, type) in types where byName[name] == nil {
      names.append(name)
      byName[name] = RegisteredType(type: type)
      byType[ObjectIdentifier(type), default: []].append(name)
    }
    self.names = names
    self.types = byName
    namesByType = byType
    fallbackType = fallback.map(RegisteredType.init(type:))
    self.nameFunction = nameFunction
  }

  /// The type registered under `name`.
  func type(named name: String) -> (any Codable.Type)? {
    types[name]?.type
  }

  /// The type of values of an unknown name.
  var fallback: (any Codable.Type)? { fallbackType?.type }

  /// Whether the name of a value's type is found by a function rather than a member.
  var findsNamesWithAFunction: Bool { nameFunction != nil }

  /// The name of the type of the value `decoder` decodes.
  func name(in decoder: any Decoder) throws -> String {
    if let nameFunction {
      return try nameFunction(decoder)
    }
    let container = try decoder.container(keyedBy: PathKey.self)
    return try container.decode(String.self, forKey: PathKey(typeKey))
  }

  /// The names `value`'s dynamic type is registered under, the one encoding writes first.
  func names(of value: Any) -> [String]? {
    namesByType[ObjectIdentifier(Swift.type(of: value))]
  }

  /// Whether `value` is of the fallback type (and not registered under a name of its own).
  func isFallback(_ value: Any) -> Bool {
    guard let fallbackType else { return false }
    return ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier(fallbackType.type)
  }
}

/// A registered type.
///
/// `@unchecked Sendable`: a metatype is an immutable reference to type metadata, safe to share;
/// the existential metatype is not marked `Sendable` by the standard library.
private struct RegisteredType: @unchecked Sendable {
  let type: any Codable.Type
}

/// Decodes and encodes values of a registered type as a `Base` (see ``TypeRegistry``); made by
/// `polymorphic(_:)`.
public struct PolymorphicTransform<Base>: ValueTransform {
  /// The registry, or `nil` to use the one of the context.
  let registry: TypeRegistry<Base>?

  init(_ registry: TypeRegistry<Base>?) {
    self.registry = registry
  }

  /// The value the document's object decoded as.
  ///
  /// - Parameter representation: The decoded object.
  /// - Returns: The value.
  public func decode(_ representation: PolymorphicValue<Base>) -> Base {
    representation.value
  }

  /// The value, to be written with the name of its type.
  ///
  /// - Parameter value: The value.
  /// - Returns: The object to write.
  public func encode(_ value: Base) -> PolymorphicValue<Base> {
    PolymorphicValue(value, registry: registry)
  }
}

/// A value of a registered type, decoded and encoded with the member that names its type.
public struct PolymorphicValue<Base>: Codable {
  /// The value.
  public let value: Base
  /// The registry to encode with, or `nil` to use the one of the context.
  let registry: TypeRegistry<Base>?

  init(_ value: Base, registry: TypeRegistry<Base>?) {
    self.value = value
    self.registry = registry
  }

  /// Decodes the object of `decoder` as the type its type member names.
  ///
  /// - Parameter decoder: The decoder of the object.
  /// - Throws: `DecodingError.dataCorrupted` at the object's coding path for an unknown type
  ///   name or when no registry was given; `keyNotFound` when the type member is missing; the
  ///   errors of the concrete type.
  public init(from decoder: any Decoder) throws {
    guard let registry = MappingContext.Binding.box?.context.registry(for: Base.self) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription:
            "No type registry for \(Base.self): pass one to polymorphic(_:) or register it in "
            + "the MappingContext."))
    }
    let name = try registry.name(in: decoder)
    guard let type = registry.type(named: name) ?? registry.fallback else {
      let known = registry.names.map { "\"\($0)\"" }.joined(separator: ", ")
      let source =
        registry.findsNamesWithAFunction ? "" : " in member \"\(registry.typeKey)\""
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription:
            "Unknown type \(CodingPathText.quoted(name))\(source) for \(Base.self); the "
            + "registered types are \(known)."))
    }
    let decoded = try type.init(from: decoder)
    guard let value = decoded as? Base else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription:
            "The type \(type) registered as \"\(name)\" for \(Base.self) is not a \(Base.self)."))
    }
    self.value = value
    self.registry = nil
  }

  /// Encodes the value with a member naming its type.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError.invalidValue` when the value's type is not registered or no
  ///   registry was given; the errors of the value's own encoding.
  public func encode(to encoder: any Encoder) throws {
    guard let registry = registry ?? MappingContext.Binding.box?.context.registry(for: Base.self)
    else {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: encoder.codingPath,
          debugDescription:
            "No type registry for \(Base.self): pass one to polymorphic(_:) or register it in "
            + "the MappingContext."))
    }
    let names = registry.names(of: value)
    guard let encodable = value as? any Encodable,
      names != nil || registry.isFallback(value)
    else {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: encoder.codingPath,
          debugDescription:
            "The type \(Swift.type(of: value)) is not registered for \(Base.self); the "
            + "registered types are \(registry.names.joined(separator: ", "))."))
    }
    // A value of the fallback type, or of a registry that finds names with a function, says
    // what it is with its own members.
    guard let names, let name = names.first, !registry.findsNamesWithAFunction else {
      try encodable.encode(to: encoder)
      return
    }
    if let keyed = value as? any Keyedable {
      try encodeKeyed(
        keyed, typeMember: TypeMember(key: registry.typeKey, names: names), to: encoder)
    } else {
      var container = encoder.container(keyedBy: PathKey.self)
      try container.encode(name, forKey: PathKey(registry.typeKey))
      try encodable.encode(to: encoder)
    }
  }

  private func encodeKeyed<Model: Keyedable>(
    _ model: Model, typeMember: TypeMember, to encoder: any Encoder
  ) throws {
    try KeyedEncoder.encode(model, typeMember: typeMember, to: encoder)
  }
}

extension Mapping {
  /// This mapping, decoding an object as the registered type its type member names, and
  /// encoding a value with that member (see ``TypeRegistry``).
  ///
  /// - Parameter registry: The registry.
  /// - Returns: A mapping for a property of type `Base`.
  public func polymorphic<Base>(_ registry: TypeRegistry<Base>)
    -> ValueMapping<PolymorphicTransform<Base>>
  {
    registering(registry).using(PolymorphicTransform(registry))
  }

  /// This mapping, decoding every element of an array as the registered type its type member
  /// names; with the lossy marker (`"* shapes"`), elements of unknown types are dropped and
  /// reported.
  ///
  /// - Parameter registry: The registry.
  /// - Returns: A mapping for a property of type `[Base]`.
  public func polymorphic<Base>(_ registry: TypeRegistry<Base>)
    -> ValueMapping<ArrayTransform<PolymorphicTransform<Base>>>
  {
    registering(registry).using(.array(PolymorphicTransform(registry)))
  }

  /// This mapping, decoding an object as the type its type member names in the registry the
  /// caller registered for `base` (see ``MappingContext/registering(_:)-swift.type.method``).
  ///
  /// ```swift
  /// try shapes <-> map["shapes"].polymorphic((any Shape).self)
  /// ```
  ///
  /// - Parameter base: The base type of the registry.
  /// - Returns: A mapping for a property of type `Base`.
  public func polymorphic<Base>(_ base: Base.Type) -> ValueMapping<PolymorphicTransform<Base>> {
    using(PolymorphicTransform<Base>(nil))
  }

  /// This mapping, decoding every element of an array as the type its type member names in the
  /// registry the caller registered for `base`.
  ///
  /// - Parameter base: The base type of the registry.
  /// - Returns: A mapping for a property of type `[Base]`.
  public func polymorphic<Base>(_ base: Base.Type)
    -> ValueMapping<ArrayTransform<PolymorphicTransform<Base>>>
  {
    using(.array(PolymorphicTransform<Base>(nil)))
  }

  /// This mapping with `registry` in the context of its value.
  private func registering<Base>(_ registry: TypeRegistry<Base>) -> Mapping {
    scoped(affectsRuns: false) { context, _ in
      context.registries[ObjectIdentifier(Base.self)] = registry
    }
  }
}
