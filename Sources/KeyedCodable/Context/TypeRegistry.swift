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
  /// The member that names the type.
  public let typeKey: String
  /// The registered names, in the order given.
  public let names: [String]
  /// The types, by name.
  private let types: [String: RegisteredType]
  /// The names of each type, in the order given.
  private let namesByType: [ObjectIdentifier: [String]]

  /// Creates a registry.
  ///
  /// Each type must be `Codable` and a `Base` (a conforming type, or a subclass). A name given
  /// twice keeps its first type. A type may have several names: each of them decodes to it, and
  /// encoding writes the first, unless the value maps the type member itself and holds another
  /// of its names (see ``TypeRegistry``).
  ///
  /// - Parameters:
  ///   - typeKey: The member that names the type; `"type"` unless given.
  ///   - types: The names and their types.
  public init(typeKey: String = "type", _ types: KeyValuePairs<String, any Codable.Type>) {
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
  }

  /// The type registered under `name`.
  func type(named name: String) -> (any Codable.Type)? {
    types[name]?.type
  }

  /// The names `value`'s dynamic type is registered under, the one encoding writes first.
  func names(of value: Any) -> [String]? {
    namesByType[ObjectIdentifier(Swift.type(of: value))]
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
    guard let registry = MappingContext.current?.registry(for: Base.self) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription:
            "No type registry for \(Base.self): pass one to polymorphic(_:) or register it in "
            + "the MappingContext."))
    }
    let container = try decoder.container(keyedBy: PathKey.self)
    let name = try container.decode(String.self, forKey: PathKey(registry.typeKey))
    guard let type = registry.type(named: name) else {
      let known = registry.names.map { "\"\($0)\"" }.joined(separator: ", ")
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription:
            "Unknown type \(CodingPathText.quoted(name)) in member \"\(registry.typeKey)\" for "
            + "\(Base.self); the registered types are \(known)."))
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
    guard let registry = registry ?? MappingContext.current?.registry(for: Base.self) else {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: encoder.codingPath,
          debugDescription:
            "No type registry for \(Base.self): pass one to polymorphic(_:) or register it in "
            + "the MappingContext."))
    }
    guard let names = registry.names(of: value), let name = names.first,
      let encodable = value as? any Encodable
    else {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: encoder.codingPath,
          debugDescription:
            "The type \(Swift.type(of: value)) is not registered for \(Base.self); the "
            + "registered types are \(registry.names.joined(separator: ", "))."))
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
    try KeyedEncoder(with: encoder).encode(from: model, typeMember: typeMember)
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
