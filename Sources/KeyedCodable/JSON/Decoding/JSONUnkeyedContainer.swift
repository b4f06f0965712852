/// The unkeyed container of one JSON array, for ``JSONValueDecoder``: walks the elements on the
/// tape, one entry (or one whole nested value) at a time.
///
/// Three words: what the container shares with its copies (the array, its element count, its
/// coding path) is in a ``JSONUnkeyedFrame``; only the current element and its index are the
/// container's own, so a copy reads on from where it was copied, as a copy of Foundation's
/// container does. Three words fit in the inline buffer of `any UnkeyedDecodingContainer`:
/// `decoder.unkeyedContainer()` allocates no box for the container, and its `mutating` calls
/// don't check that a box is unshared first.
struct JSONUnkeyedContainer: UnkeyedDecodingContainer {
  /// The array, its element count and its coding path.
  let frame: JSONUnkeyedFrame
  /// The tape entry of the current element.
  private var element: Int
  /// The index of the current element.
  private(set) var currentIndex = 0

  init(frame: JSONUnkeyedFrame) {
    self.frame = frame
    element = frame.array &+ 1
  }

  /// The decoder the array belongs to.
  var decoder: JSONValueDecoder { frame.decoder }

  /// The array's coding path.
  var path: JSONCodingPath { frame.path }

  var count: Int? { frame.count }

  var codingPath: [any CodingKey] { path.keys }

  var isAtEnd: Bool { currentIndex >= frame.count }

  /// Whether the current element is `null`, moving past it if it is.
  ///
  /// - Returns: Whether the element is `null`.
  /// - Throws: `valueNotFound(Never.self)` at the next index when the container is at its end,
  ///   as Foundation's container throws.
  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Never.self,
        .init(
          codingPath: path.appending(index: currentIndex).keys,
          debugDescription: "Unkeyed container is at end."))
    }
    guard decoder.document.kind(element) == .null else { return false }
    element = decoder.document.next(element)
    currentIndex &+= 1
    return true
  }

  /// Decodes the current element with `read`, moving past it only when it decodes, as
  /// Foundation's container does.
  ///
  /// `read` is given the decoder, the element's entry, the frame and the element's index: the
  /// array's path and the element's own are joined only when something asks for them (an error,
  /// a nested value's `codingPath`), so reading an element allocates no path node.
  @inline(__always)
  private mutating func next<T>(
    _ type: T.Type, _ read: (JSONValueDecoder, Int, JSONUnkeyedFrame, Int) throws -> T
  ) throws -> T {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        .init(
          codingPath: path.appending(index: currentIndex).keys,
          debugDescription: "Unkeyed container is at end."))
    }
    var following = 0
    let value = try readElement(read, following: &following)
    element = following
    currentIndex &+= 1
    return value
  }

  /// The current element read with `read`; `following` is set to the entry after it.
  ///
  /// The frame is the container's own constant, and the decoder the frame's: both are guaranteed
  /// for the call, not retained, and not used after it. The entry after comes back through
  /// `following` rather than in a tuple with the value: a `(T, Int)` of a generic `T` costs a
  /// lookup of the tuple's metadata, about 120 instructions, on every element.
  @inline(__always)
  private func readElement<T>(
    _ read: (JSONValueDecoder, Int, JSONUnkeyedFrame, Int) throws -> T, following: inout Int
  ) throws -> T {
    let (entry, index) = (element, currentIndex)
    return try Unmanaged.passUnretained(frame)._withUnsafeGuaranteedRef { frame in
      try Unmanaged.passUnretained(frame.decoder)._withUnsafeGuaranteedRef { decoder in
        following = decoder.document.next(entry)
        return try read(decoder, entry, frame, index)
      }
    }
  }

  /// Decodes the current element with `read` unless it is `null`, as Foundation's container
  /// does: it moves past a `null` element and a decoded one, not past one that fails to decode,
  /// and at its end returns `nil` and still moves `currentIndex` on, so that later errors name
  /// the index Foundation's name.
  @inline(__always)
  private mutating func nextIfPresent<T>(
    _ read: (JSONValueDecoder, Int, JSONUnkeyedFrame, Int) throws -> T
  ) throws -> T? {
    guard !isAtEnd else {
      currentIndex &+= 1
      return nil
    }
    guard decoder.document.kind(element) != .null else {
      element = decoder.document.next(element)
      currentIndex &+= 1
      return nil
    }
    var following = 0
    let value = try readElement(read, following: &following)
    element = following
    currentIndex &+= 1
    return value
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    try next(Bool.self) { try $0.unwrapBool($1, at: $2.path.appending(index: $3)) }
  }

  mutating func decode(_ type: String.Type) throws -> String {
    try next(String.self) { try $0.unwrapStringValue($1, at: $2.path.appending(index: $3)) }
  }

  mutating func decode(_ type: Double.Type) throws -> Double {
    try next(Double.self) {
      try $0.unwrapFloat($1, as: Double.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decode(_ type: Float.Type) throws -> Float {
    try next(Float.self) {
      try $0.unwrapFloat($1, as: Float.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decode(_ type: Int.Type) throws -> Int {
    try next(Int.self) { try $0.unwrapInteger($1, as: Int.self, at: $2.path.appending(index: $3)) }
  }

  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    try next(Int8.self) {
      try $0.unwrapInteger($1, as: Int8.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    try next(Int16.self) {
      try $0.unwrapInteger($1, as: Int16.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    try next(Int32.self) {
      try $0.unwrapInteger($1, as: Int32.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    try next(Int64.self) {
      try $0.unwrapInteger($1, as: Int64.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decode(_ type: UInt.Type) throws -> UInt {
    try next(UInt.self) {
      try $0.unwrapInteger($1, as: UInt.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    try next(UInt8.self) {
      try $0.unwrapInteger($1, as: UInt8.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    try next(UInt16.self) {
      try $0.unwrapInteger($1, as: UInt16.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    try next(UInt32.self) {
      try $0.unwrapInteger($1, as: UInt32.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    try next(UInt64.self) {
      try $0.unwrapInteger($1, as: UInt64.self, at: $2.path.appending(index: $3))
    }
  }

  #if compiler(>=6.0)
    /// Decodes the next element as an `Int128`, exactly, over its whole range.
    ///
    /// - Parameter type: `Int128`.
    /// - Returns: The number.
    /// - Throws: As for the other integer types.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 {
      try next(Int128.self) {
        try $0.unwrapInteger($1, as: Int128.self, at: $2.path.appending(index: $3))
      }
    }

    /// Decodes the next element as a `UInt128`, exactly, over its whole range.
    ///
    /// - Parameter type: `UInt128`.
    /// - Returns: The number.
    /// - Throws: As for the other integer types.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
      try next(UInt128.self) {
        try $0.unwrapInteger($1, as: UInt128.self, at: $2.path.appending(index: $3))
      }
    }
  #endif

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try next(T.self) { try $0.unwrap($1, as: T.self, below: $2.path, .index($3)) }
  }

  // `decodeIfPresent` for the types Foundation's container has its own for (not `Int128` and
  // `UInt128`, whose standard implementation does not move past the end).

  mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
    try nextIfPresent { try $0.unwrapBool($1, at: $2.path.appending(index: $3)) }
  }

  mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
    try nextIfPresent { try $0.unwrapStringValue($1, at: $2.path.appending(index: $3)) }
  }

  mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
    try nextIfPresent { try $0.unwrapFloat($1, as: Double.self, at: $2.path.appending(index: $3)) }
  }

  mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
    try nextIfPresent { try $0.unwrapFloat($1, as: Float.self, at: $2.path.appending(index: $3)) }
  }

  mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? {
    try nextIfPresent { try $0.unwrapInteger($1, as: Int.self, at: $2.path.appending(index: $3)) }
  }

  mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
    try nextIfPresent { try $0.unwrapInteger($1, as: Int8.self, at: $2.path.appending(index: $3)) }
  }

  mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
    try nextIfPresent { try $0.unwrapInteger($1, as: Int16.self, at: $2.path.appending(index: $3)) }
  }

  mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
    try nextIfPresent { try $0.unwrapInteger($1, as: Int32.self, at: $2.path.appending(index: $3)) }
  }

  mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
    try nextIfPresent { try $0.unwrapInteger($1, as: Int64.self, at: $2.path.appending(index: $3)) }
  }

  mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
    try nextIfPresent { try $0.unwrapInteger($1, as: UInt.self, at: $2.path.appending(index: $3)) }
  }

  mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
    try nextIfPresent { try $0.unwrapInteger($1, as: UInt8.self, at: $2.path.appending(index: $3)) }
  }

  mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
    try nextIfPresent {
      try $0.unwrapInteger($1, as: UInt16.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
    try nextIfPresent {
      try $0.unwrapInteger($1, as: UInt32.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
    try nextIfPresent {
      try $0.unwrapInteger($1, as: UInt64.self, at: $2.path.appending(index: $3))
    }
  }

  mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
    try nextIfPresent { try $0.unwrap($1, as: T.self, below: $2.path, .index($3)) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try next(KeyedDecodingContainer<NestedKey>.self) {
      try $0.keyedContainer(at: $1, below: $2.path, index: $3, keyedBy: NestedKey.self)
    }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next((any UnkeyedDecodingContainer).self) {
      try $0.unkeyedContainer(at: $1, below: $2.path, .index($3))
    }
  }

  /// A decoder for the current element, moving past it.
  ///
  /// - Returns: The decoder.
  /// - Throws: `valueNotFound` with Foundation's message when the container is at its end.
  mutating func superDecoder() throws -> any Decoder {
    let path = self.path.appending(index: currentIndex)
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        (any Decoder).self,
        .init(
          codingPath: path.keys,
          debugDescription: "Cannot get superDecoder() -- unkeyed container is at end."))
    }
    let entry = element
    element = decoder.document.next(entry)
    currentIndex &+= 1
    return JSONSuperDecoder(decoder: decoder, entry: entry, path: path)
  }
}

/// The array an unkeyed container reads, shared by the container and its copies (see
/// ``JSONUnkeyedContainer``).
///
/// The decoder keeps one frame per nesting depth and points it at the next array when no
/// container uses it any more (see ``JSONValueDecoder/unkeyedFrame(array:below:_:)``): a model
/// that reads each element of an array through an unkeyed container allocates nothing for it.
/// A frame a container still holds is never pointed elsewhere, so to a container its frame
/// never changes.
final class JSONUnkeyedFrame {
  /// The decoder the array belongs to.
  let decoder: JSONValueDecoder
  /// The array's tape entry.
  private(set) var array: Int
  /// The number of elements.
  private(set) var count: Int
  /// The array's coding path, or the path of its parent when ``step`` isn't `.none`: joined the
  /// first time it is asked for (see ``path``).
  private var base: JSONCodingPath
  /// The array's key or index below ``base``; never ``JSONPathStep/member``, which only the
  /// decoder resolves.
  private var step: JSONPathStep

  init(decoder: JSONValueDecoder, array: Int, below base: JSONCodingPath, _ step: JSONPathStep) {
    self.decoder = decoder
    self.array = array
    count = decoder.document.memberCount(array)
    self.base = base
    self.step = step
  }

  /// Points the frame at another array, for a frame no container holds.
  func point(at array: Int, below base: JSONCodingPath, _ step: JSONPathStep) {
    self.array = array
    count = decoder.document.memberCount(array)
    self.base = base
    self.step = step
  }

  /// The array's coding path, joined once.
  var path: JSONCodingPath {
    if case .none = step {
      return base
    }
    base = base.appending(step)
    step = .none
    return base
  }
}
