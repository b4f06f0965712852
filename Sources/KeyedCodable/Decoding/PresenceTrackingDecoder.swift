/// Whether any member an optional flat value reads holds a value.
///
/// Shared by the decoder and every container of one flat decode.
final class FoundValues {
  /// Set once a member read through the tracking decoder turned out present and not `null`.
  private(set) var found = false
  /// The values of the optional flat value this one is flat inside, if any: a member this one
  /// finds, that one finds too.
  var outer: FoundValues?

  /// Notes that a member holds a value, for this flat value and the ones it is inside: each is
  /// marked once, so the walk stops at the first one marked before.
  func markFound() {
    var current: FoundValues? = self
    while let values = current, !values.found {
      values.found = true
      current = values.outer
    }
  }
}

/// A decoder that forwards to another one and notes whether any member it reads is present.
///
/// An optional flat value (`var paging: Paging?` mapped with `map[""]`) decodes from the members
/// of the current object. When none of the members it reads is there, the value is `nil`, as the
/// 1.x README says: otherwise `{}` would decode to `Paging(next: nil, prev: nil)`, which encodes
/// to `{}` again, and `nil` could never round-trip. A member counts as present when it holds
/// something other than `null`; opening a nested object does not count by itself (the encoder
/// never writes empty intermediate objects), the values read inside it do.
///
/// Only optional flat mappings use it, so no other mapping pays for the forwarding.
struct PresenceTrackingDecoder: Decoder {
  let base: any Decoder
  let presence: FoundValues

  /// Tracks what is read through `base`.
  ///
  /// A tracking decoder is not wrapped in another: optional
  /// flat values inside one another read through one, each with its values linked to the outer
  /// one's, so that a read costs the same at any depth.
  init(base: any Decoder, presence: FoundValues) {
    if let tracking = base as? PresenceTrackingDecoder {
      self.base = tracking.base
      presence.outer = tracking.presence
    } else {
      self.base = base
    }
    self.presence = presence
  }

  var codingPath: [any CodingKey] { base.codingPath }
  var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

  func container<Member: CodingKey>(
    keyedBy type: Member.Type
  ) throws -> KeyedDecodingContainer<Member> {
    KeyedDecodingContainer(
      PresenceTrackingContainer(base: try base.container(keyedBy: Member.self), presence: presence)
    )
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let container = try base.unkeyedContainer()
    presence.markFound()
    return container
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    let container = try base.singleValueContainer()
    if !container.decodeNil() {
      presence.markFound()
    }
    return container
  }
}

/// The keyed container of a ``PresenceTrackingDecoder``: every read is forwarded, and a read
/// that finds a value marks the flat value present.
struct PresenceTrackingContainer<Member: CodingKey>: KeyedDecodingContainerProtocol {
  let base: KeyedDecodingContainer<Member>
  let presence: FoundValues

  var codingPath: [any CodingKey] { base.codingPath }
  var allKeys: [Member] { base.allKeys }

  func contains(_ key: Member) -> Bool { base.contains(key) }

  func decodeNil(forKey key: Member) throws -> Bool {
    try base.decodeNil(forKey: key)
  }

  func decode<Value: Decodable>(_ type: Value.Type, forKey key: Member) throws -> Value {
    let value = try base.decode(Value.self, forKey: key)
    presence.markFound()
    return value
  }

  func decodeIfPresent<Value: Decodable>(
    _ type: Value.Type, forKey key: Member
  ) throws -> Value? {
    let value = try base.decodeIfPresent(Value.self, forKey: key)
    if value != nil {
      presence.markFound()
    }
    return value
  }

  func nestedContainer<Nested: CodingKey>(
    keyedBy type: Nested.Type, forKey key: Member
  ) throws -> KeyedDecodingContainer<Nested> {
    KeyedDecodingContainer(
      PresenceTrackingContainer<Nested>(
        base: try base.nestedContainer(keyedBy: Nested.self, forKey: key), presence: presence))
  }

  func nestedUnkeyedContainer(forKey key: Member) throws -> any UnkeyedDecodingContainer {
    let container = try base.nestedUnkeyedContainer(forKey: key)
    presence.markFound()
    return container
  }

  func superDecoder() throws -> any Decoder {
    PresenceTrackingDecoder(base: try base.superDecoder(), presence: presence)
  }

  func superDecoder(forKey key: Member) throws -> any Decoder {
    PresenceTrackingDecoder(base: try base.superDecoder(forKey: key), presence: presence)
  }
}
