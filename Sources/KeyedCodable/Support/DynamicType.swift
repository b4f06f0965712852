/// The type whose plan maps `value`: `Model` itself when it is a struct or an enum, whose values
/// are always of exactly that type, and the value's dynamic type otherwise (a class instance may
/// be of a subclass, which has a plan of its own).
///
/// `type(of:)` in generic code asks the runtime every time (about 50 instructions); encoding a
/// document of many small models asks once per model. The kind of a type is the first word of
/// its metadata, part of Swift's stable ABI (`docs/ABI/TypeMetadata.rst`): `0x200` for a struct,
/// `0x201` for an enum and `0x202` for an optional, on every platform; a class's first word is
/// `0` or, with Objective-C interoperability, a pointer far above these values.
@inline(__always)
func mappedType<Model>(of value: Model) -> Any.Type {
  let metadata = unsafeBitCast(Model.self as Any.Type, to: UnsafeRawPointer.self)
  let kind = metadata.load(as: UInt.self)
  if kind &- 0x200 < 3 {
    return Model.self
  }
  return type(of: value)
}
