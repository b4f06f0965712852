/// A decoding container held by reference.
///
/// The standard container types are resilient structs: outside the standard library every copy
/// of one goes through its value witnesses. KeyedCodable caches containers and hands them out on
/// every mapping, so it keeps each one in a box that is shared with a single retain.
@usableFromInline
final class DecodingContainerBox {
  @usableFromInline let container: KeyedDecodingContainer<PathKey>

  init(_ container: KeyedDecodingContainer<PathKey>) {
    self.container = container
  }
}

/// An encoding container held by reference (see ``DecodingContainerBox``).
@usableFromInline
final class EncodingContainerBox {
  // Written through on every mapping; unchecked exclusivity in release builds only (see
  // ``MappingRun``).
  #if DEBUG
    @usableFromInline var container: KeyedEncodingContainer<PathKey>
  #else
    @usableFromInline @exclusivity(unchecked) var container: KeyedEncodingContainer<PathKey>
  #endif

  init(_ container: KeyedEncodingContainer<PathKey>) {
    self.container = container
  }
}
