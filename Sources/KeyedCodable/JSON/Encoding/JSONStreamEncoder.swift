import Foundation

/// The `Encoder` that ``KeyedJSONEncoder`` hands to `encode(to:)`: writes JSON bytes as values
/// are encoded.
///
/// The output is one ``JSONWriter`` buffer. Open arrays and objects form a stack of *frames*;
/// a container writes into its frame, first closing any frame opened after it (a nested
/// container is done once its parent is written to again), and a value's frames are closed
/// when its `encode(to:)` returns. A value is encoded into a *slot*: the place after a member
/// name or an array separator, filled by the first container or single value the value asks
/// for.
///
/// What a stream can't write (a container used after it was closed, one name written twice in
/// an object, also in two canonically equivalent spellings) throws ``Restart``;
/// ``KeyedJSONEncoder`` then encodes the value with Foundation's encoder instead.
final class JSONStreamEncoder: Encoder, EncodingBackendProvider {
  /// Thrown when the value can't be written as a stream.
  struct Restart: Error {}

  /// One open array or object.
  struct Frame {
    var isObject: Bool
    /// Members or elements written so far.
    var count: Int
    /// Identifies the frame, so a container of a frame that was closed can tell.
    var id: Int
    /// Where the frame's members start in ``names`` (member names, for repeats and sorting).
    var firstName: Int
    /// Where the frame's first member starts in the output (after the opening bracket).
    var contentStart: Int
    /// Whether a member name outside ASCII (or one whose fingerprint an earlier name had) was
    /// checked for repeats in this object: names are then also compared as Swift strings (see
    /// ``canonicalNames``).
    var hasNonASCIIName = false
    /// One bit for each name noted in the frame, picked by its fingerprint: a name whose bit
    /// is clear is new to the object, with no comparison.
    var nameBits = NameBits()
    /// Whether the frame has more names than its ``nameBits`` tell apart, and a table of them in
    /// ``JSONStreamEncoder/nameTables``.
    var hasNameTable = false
  }

  /// A filter of 256 bits, one set for each name noted in an object, picked by the top byte of
  /// its fingerprint: a name whose bit is clear is new to the object.
  ///
  /// With at most ``JSONStreamEncoder/namesInBits`` names, a new name finds its bit set (and is
  /// compared with the earlier names of its fingerprint) at most a quarter of the time.
  struct NameBits {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// Sets the bit of `fingerprint`.
    ///
    /// - Returns: Whether the bit was set already.
    @inline(__always)
    mutating func insert(_ fingerprint: UInt64) -> Bool {
      let bit: UInt64 = 1 &<< ((fingerprint &>> 56) & 63)
      let was: UInt64
      switch fingerprint &>> 62 {
      case 0:
        was = words.0
        words.0 |= bit
      case 1:
        was = words.1
        words.1 |= bit
      case 2:
        was = words.2
        words.2 |= bit
      default:
        was = words.3
        words.3 |= bit
      }
      return was & bit != 0
    }
  }

  /// The most names an object tells apart with its ``Frame/nameBits``; a bigger object keeps
  /// a table of them (``JSONNameTable``).
  static let namesInBits = 64

  /// A member name written into an object: for finding repeats and for sorting.
  struct MemberName {
    /// The name's fingerprint (see ``JSONNameIndex/NameHasher/fingerprint(inDocument:count:)``).
    var fingerprint: UInt64
    /// Where the member starts in the output (at its separator).
    var start: Int
    /// Where its name, quotes included, starts and ends in the output (bounds rather than a
    /// `Range`, which isn't `BitwiseCopyable`, as ``RawStack`` needs).
    var nameStart: Int
    var nameEnd: Int

    init(fingerprint: UInt64, start: Int, name: Range<Int>) {
      self.fingerprint = fingerprint
      self.start = start
      nameStart = name.lowerBound
      nameEnd = name.upperBound
    }

    /// Where its name, quotes included, is in the output.
    var name: Range<Int> { nameStart..<nameEnd }
  }

  /// The place the next value fills.
  struct Slot {
    /// The coding path of the array or object that holds the value.
    var base: JSONCodingPath
    /// The value's key or index in it, or none for the document and for a value that fills
    /// the place of another (a custom strategy's); ``JSONPathStep/member`` for a member the
    /// encoder notes apart (see ``JSONStreamEncoder/slotPath``).
    var step: JSONPathStep
    /// The number of frames open when the slot was made: frames above it belong to its value.
    var depth: Int
    /// Whether the value has written something (a container, or a single value).
    var isFilled = false

    init(base: JSONCodingPath, step: JSONPathStep, depth: Int) {
      self.base = base
      self.step = step
      self.depth = depth
    }
  }

  /// The output.
  ///
  /// A `let`: the encoder's hottest reference, used without a retain. A kept encoder hands each
  /// finished document to a writer of its own (``JSONWriter/detached()``) and starts the next in
  /// this one (see ``restart(capacity:)``).
  let writer: JSONWriter
  let options: KeyedJSONEncoder.Options
  let userInfo: [CodingUserInfoKey: Any]
  #if DEBUG
    private(set) var frames = RawStack<Frame>(capacity: 16)
  #else
    @exclusivity(unchecked) private(set) var frames = RawStack<Frame>(capacity: 16)
  #endif
  #if DEBUG
    private var names = RawStack<MemberName>(capacity: 64)
  #else
    @exclusivity(unchecked) private var names = RawStack<MemberName>(capacity: 64)
  #endif
  #if DEBUG
    private var nextFrameID = 0
  #else
    @exclusivity(unchecked) private var nextFrameID = 0
  #endif
  /// The number of values being encoded inside one another, and the fresh stacks they started
  /// (see ``StackGuard``).
  #if DEBUG
    private var nesting = 0
    private var freshStacks = 0
  #else
    @exclusivity(unchecked) private var nesting = 0
    @exclusivity(unchecked) private var freshStacks = 0
  #endif
  /// The slot being filled, if any.
  #if DEBUG
    private(set) var slot = Slot(base: .root, step: .none, depth: 0)
  #else
    @exclusivity(unchecked) private(set) var slot = Slot(base: .root, step: .none, depth: 0)
  #endif
  /// The container and key of the slot's value while the slot's step is
  /// ``JSONPathStep/member``: a member of a plain `Codable` type's keyed container whose type has
  /// raw values or that writes a single value (see ``encodeMember(_:of:key:)``).
  ///
  /// Neither is retained nor copied: both belong to the frame of the container method that
  /// encodes the member, which outlives the slot, and what keeps the path beyond the member's
  /// encode (a container, a `Keyedable` value's backend) joins it first (see ``slotPath``).
  #if DEBUG
    private var memberState: Unmanaged<JSONStreamKeyedContainerState>?
    private var memberKey: UnsafeRawPointer?
    private var memberKeyType: any CodingKey.Type = IndexKey.self
  #else
    @exclusivity(unchecked) private var memberState: Unmanaged<JSONStreamKeyedContainerState>?
    @exclusivity(unchecked) private var memberKey: UnsafeRawPointer?
    @exclusivity(unchecked) private var memberKeyType: any CodingKey.Type = IndexKey.self
  #endif
  /// The number of containers and `Keyedable` backends opened on this encoder so far: a type
  /// whose `encode(to:)` opened none is learned as writing a single value (see
  /// ``encodeMember(_:of:key:)``).
  #if DEBUG
    private var opened = 0
  #else
    @exclusivity(unchecked) private var opened = 0
  #endif
  /// An error met where the Codable API can't throw (opening a container), thrown when the value
  /// that met it finishes.
  #if DEBUG
    private(set) var deferredError: (any Error)?
  #else
    @exclusivity(unchecked) private(set) var deferredError: (any Error)?
  #endif
  private let sortsKeys: Bool
  private let prettyPrinted: Bool
  /// Whether a key encoding strategy changes member names.
  let convertsKeys: Bool
  /// The formatter of the `.iso8601` strategy on systems without `Date.ISO8601FormatStyle`,
  /// made on first use, once per encode.
  private var iso8601Formatter: ISO8601DateFormatter?
  /// The `.formatted` strategy's formatter and the pattern standing in for it, made on first
  /// use, once per encode (see ``JSONFormattedDates``).
  #if DEBUG
    private var formattedDates: JSONFormattedDates?
  #else
    @exclusivity(unchecked) private var formattedDates: JSONFormattedDates?
  #endif
  #if DEBUG
    private var typeKinds = TypeKinds()
  #else
    @exclusivity(unchecked) private var typeKinds = TypeKinds()
  #endif

  init(options: KeyedJSONEncoder.Options, capacity: Int = 1024) {
    self.options = options
    userInfo = options.userInfo
    writer = JSONWriter(
      prettyPrinted: options.outputFormatting.contains(.prettyPrinted),
      escapesSlashes: !options.outputFormatting.contains(.withoutEscapingSlashes),
      capacity: capacity)
    sortsKeys = options.outputFormatting.contains(.sortedKeys)
    prettyPrinted = options.outputFormatting.contains(.prettyPrinted)
    if case .useDefaultKeys = options.keyEncodingStrategy {
      convertsKeys = false
    } else {
      convertsKeys = true
    }
  }

  var codingPath: [any CodingKey] { slotPath.keys }

  /// The coding path of the slot's value, made on every call.
  var slotPath: JSONCodingPath {
    place(below: slot.base, slot.step)
  }

  /// The slot's place, with a ``JSONPathStep/member`` step joined: for what keeps the path
  /// beyond the slot's value (a container, a `Keyedable` value's backend).
  var slotPlace: (base: JSONCodingPath, step: JSONPathStep) {
    opened &+= 1
    if case .member = slot.step {
      return (memberPath(), .none)
    }
    return (slot.base, slot.step)
  }

  /// The coding path of the member or element `step` of the array or object at `base`.
  @inline(__always)
  private func place(below base: JSONCodingPath, _ step: JSONPathStep) -> JSONCodingPath {
    if case .member = step {
      return memberPath()
    }
    return base.appending(step)
  }

  /// The coding path of the member that ``memberState`` and ``memberKey`` note.
  private func memberPath() -> JSONCodingPath {
    guard let memberState, let memberKey else { return slot.base }
    return .key(
      JSONValueDecoder.key(memberKeyType, at: memberKey), memberState.takeUnretainedValue().path)
  }

  /// Encodes `value` as the whole document.
  ///
  /// `original`, the value errors name, is made only for an error: a value as `Any` is boxed,
  /// an allocation on every encode of a struct larger than three words.
  func encodeRoot<T: Encodable>(
    _ value: T, as type: Any.Type, reporting original: @autoclosure () -> Any
  ) throws -> JSONWriter {
    try encodeValue(value, at: .root)
    guard writer.count > 0 else {
      throw EncodingError.invalidValue(
        original(),
        .init(codingPath: [], debugDescription: "Top-level \(type) did not encode any values."))
    }
    return writer
  }

  // MARK: - Values

  /// Writes `value` at the current position: as a scalar, or by letting it encode itself into a
  /// new slot.
  func encodeValue<T: Encodable>(_ value: T, at path: @autoclosure () -> JSONCodingPath) throws {
    if T.self == String.self {
      writer.string(reinterpret(value, as: String.self))
    } else if T.self == Int.self {
      writer.integer(reinterpret(value, as: Int.self))
    } else if T.self == Double.self {
      try double(reinterpret(value, as: Double.self), at: path())
    } else if T.self == Bool.self {
      writer.bool(reinterpret(value, as: Bool.self))
    } else if try !encodeScalar(value, at: path()) {
      try encodeNested(value, at: path())
    }
  }

  /// Writes `value`, the element or member `step` of the array or object at `base`: as
  /// ``encodeValue(_:at:)``, without making the value's coding path unless it is asked for.
  func encodeValue<T: Encodable>(
    _ value: T, below base: @autoclosure () -> JSONCodingPath, _ step: JSONPathStep
  ) throws {
    if T.self == String.self {
      writer.string(reinterpret(value, as: String.self))
    } else if T.self == Int.self {
      writer.integer(reinterpret(value, as: Int.self))
    } else if T.self == Double.self {
      try double(reinterpret(value, as: Double.self), at: base().appending(step))
    } else if T.self == Bool.self {
      writer.bool(reinterpret(value, as: Bool.self))
    } else if try !encodeScalar(value, at: base().appending(step)) {
      try encodeNested(value, below: base(), step)
    }
  }

  /// Lets `value` encode itself into a new slot at `path`.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - path: Its coding path.
  ///   - reported: The value errors name, when not `value` itself (the `Date` or `Data` a custom
  ///     strategy encodes).
  /// - Throws: What `value` throws, or `EncodingError.invalidValue` when it is nested too deep.
  func encodeNested<T: Encodable>(
    _ value: T, at path: JSONCodingPath, reporting reported: Any? = nil
  )
    throws
  {
    try encodeNested(value, below: path, .none, reporting: reported)
  }

  /// Lets `value`, the element or member `step` of the array or object at `base`, encode itself
  /// into a new slot (see ``encodeNested(_:at:reporting:)``).
  func encodeNested<T: Encodable>(
    _ value: T, below base: JSONCodingPath, _ step: JSONPathStep, reporting reported: Any? = nil
  )
    throws
  {
    try descend(reported ?? value, at: place(below: base, step)) {
      try encodeNestedHere(value, below: base, step, reporting: reported)
    }
  }

  /// ``encodeNested(_:below:_:reporting:)`` once the value's place in the nesting is known.
  private func encodeNestedHere<T: Encodable>(
    _ value: T, below base: JSONCodingPath, _ step: JSONPathStep, reporting reported: Any?
  ) throws {
    let outer = slot
    let outerError = deferredError
    deferredError = nil
    slot = Slot(base: base, step: step, depth: frames.count)
    defer {
      slot = outer
      if deferredError == nil { deferredError = outerError }
    }
    try value.encode(to: self)
    if let deferredError {
      throw deferredError is DepthExceeded
        ? Self.tooDeep(reported ?? value, at: place(below: base, step)) : deferredError
    }
    if !slot.isFilled {
      guard outer.depth > 0 || !frames.isEmpty || writer.count > 0 else {
        // The whole document encoded nothing: ``encodeRoot(_:as:reporting:)`` reports it.
        return
      }
      // Nothing encoded: an empty object, as Foundation writes.
      writer.open(UInt8(ascii: "{"))
      writer.close(UInt8(ascii: "}"), count: 0)
    }
    try closeFrames(above: slot.depth)
  }

  /// Writes `value`, the member `key` of the object `object` writes.
  ///
  /// A value of a type that writes a single value (``JSONTypeKindCache/Kind/singleValue``: an
  /// enum's `encode(to:)` writes its raw value through a single value container, which needs no
  /// path, and so does a wrapper type seen to open no container) is encoded without making the
  /// member's coding path, nor the object's when the object is an array's element; a container
  /// or an error asked for inside makes it as for any other type (see ``slotPath``), so a type
  /// learned wrongly is still written with its paths, only less quickly.
  func encodeMember<T: Encodable, Key: CodingKey>(
    _ value: T, of object: JSONStreamKeyedContainerState, key: Key
  ) throws {
    if T.self == String.self {
      writer.string(reinterpret(value, as: String.self))
    } else if T.self == Int.self {
      writer.integer(reinterpret(value, as: Int.self))
    } else if T.self == Double.self {
      try double(reinterpret(value, as: Double.self), at: object.path.appending(key))
    } else if T.self == Bool.self {
      writer.bool(reinterpret(value, as: Bool.self))
    } else {
      // The kind is looked up once, for the nested value and for the scalars alike.
      let kind = typeKinds.kind(of: T.self, classify: Self.classify)
      switch kind {
      case .other:
        // A type that opens no container writes a single value: its members are then given
        // their slot as those of an enum with raw values.
        let before = opened
        try encodeNested(value, at: object.path.appending(key))
        if opened == before {
          typeKinds.learn(.singleValue, for: T.self)
        }
      case .singleValue:
        try encodeSingleValue(value, of: object, key: key)
      case .array(let array):
        try encodeArrayMember(value, array, at: object.path.appending(key))
      default:
        if try !encodeScalar(value, kind: kind, at: object.path.appending(key)) {
          try encodeNested(value, at: object.path.appending(key))
        }
      }
    }
  }

  /// ``encodeMember(_:of:key:)`` for an array of kind `array`: identifiers, indices, tags and
  /// series (`[Int]`, `[String]`, `[Double]`) are written in code specialized for them.
  @inline(never)
  private func encodeArrayMember<T: Encodable>(
    _ value: T, _ array: JSONEncodableArrayKind, at path: @autoclosure () -> JSONCodingPath
  ) throws {
    if T.self == [Int].self {
      try encodeIntegerArray(reinterpret(value, as: [Int].self), at: path())
    } else if T.self == [String].self {
      try encodeStringArray(reinterpret(value, as: [String].self), at: path())
    } else if T.self == [Double].self {
      try encodeDoubleArray(reinterpret(value, as: [Double].self), at: path())
    } else {
      try encodeArray(value, as: array.type, slots: array.elementsTakeSlots, at: path)
    }
  }

  /// ``encodeMember(_:of:key:)`` for a type that writes a single value, with the slot's step
  /// ``JSONPathStep/member``.
  @inline(never)
  private func encodeSingleValue<T: Encodable, Key: CodingKey>(
    _ value: T, of object: JSONStreamKeyedContainerState, key: Key
  ) throws {
    try withUnsafePointer(to: key) { key in
      var outerState: Unmanaged<JSONStreamKeyedContainerState>? = Unmanaged.passUnretained(object)
      var outerKey: UnsafeRawPointer? = UnsafeRawPointer(key)
      var outerKeyType: any CodingKey.Type = Key.self
      swap(&memberState, &outerState)
      swap(&memberKey, &outerKey)
      swap(&memberKeyType, &outerKeyType)
      defer {
        swap(&memberState, &outerState)
        swap(&memberKey, &outerKey)
        swap(&memberKeyType, &outerKeyType)
      }
      try encodeNested(value, below: slot.base, .member)
    }
  }

  /// Whether values of `type` encode themselves with their own `encode(to:)` (models), rather
  /// than being written by this encoder as scalars, arrays, dictionaries or JSON values.
  func encodesItself(_ type: Any.Type) -> Bool {
    TypeKinds.decodesItself(typeKinds.kind(of: type, classify: Self.classify))
  }

  /// Writes the types this encoder writes itself; `false` for any other type.
  @inline(__always)
  private func encodeScalar<T: Encodable>(_ value: T, at path: @autoclosure () -> JSONCodingPath)
    throws -> Bool
  {
    // The kind first, cached per type: most values that reach here are models and arrays, which
    // would otherwise be compared with every scalar type.
    try encodeScalar(
      value, kind: typeKinds.kind(of: T.self, classify: Self.classify), at: path())
  }

  /// ``encodeScalar(_:at:)`` with the kind of `T` looked up already.
  private func encodeScalar<T: Encodable>(
    _ value: T, kind: TypeKinds.Kind, at path: @autoclosure () -> JSONCodingPath
  ) throws -> Bool {
    switch kind {
    case .array(let array):
      try encodeArray(value, as: array.type, slots: array.elementsTakeSlots, at: path)
      return true
    case .dictionary(.stringKeyed(let dictionaryType)):
      try encodeDictionary(value, as: dictionaryType, at: path)
      return true
    case .dictionary(.intKeyed(let dictionaryType)):
      // A key strategy converts the names of integer keys too: the dictionary's own
      // `encode(to:)` writes them through a keyed container, which converts them.
      guard !convertsKeys else { return false }
      try encodeDictionary(value, as: dictionaryType, at: path)
      return true
    case .other, .singleValue:
      return false
    case .jsonValue(let valueType):
      try writeJSONValue(value, as: valueType, at: path)
      return true
    case .optional(let optionalType):
      try encodeOptional(value, as: optionalType, at: path)
      return true
    case .scalar:
      break
    }
    let type = ObjectIdentifier(T.self)
    if type == ObjectIdentifier(Float.self) {
      try float(reinterpret(value, as: Float.self), at: path())
    } else if type == ObjectIdentifier(Int64.self) {
      writer.integer(reinterpret(value, as: Int64.self))
    } else if type == ObjectIdentifier(Int32.self) {
      writer.integer(reinterpret(value, as: Int32.self))
    } else if type == ObjectIdentifier(Int16.self) {
      writer.integer(reinterpret(value, as: Int16.self))
    } else if type == ObjectIdentifier(Int8.self) {
      writer.integer(reinterpret(value, as: Int8.self))
    } else if type == ObjectIdentifier(UInt.self) {
      writer.integer(reinterpret(value, as: UInt.self))
    } else if type == ObjectIdentifier(UInt64.self) {
      writer.integer(reinterpret(value, as: UInt64.self))
    } else if type == ObjectIdentifier(UInt32.self) {
      writer.integer(reinterpret(value, as: UInt32.self))
    } else if type == ObjectIdentifier(UInt16.self) {
      writer.integer(reinterpret(value, as: UInt16.self))
    } else if type == ObjectIdentifier(UInt8.self) {
      writer.integer(reinterpret(value, as: UInt8.self))
    } else if type == ObjectIdentifier(Date.self) {
      try date(reinterpret(value, as: Date.self), at: path())
    } else if type == ObjectIdentifier(Data.self) {
      try data(reinterpret(value, as: Data.self), at: path())
    } else if type == ObjectIdentifier(URL.self) {
      writer.string(reinterpret(value, as: URL.self).absoluteString)
    } else if type == ObjectIdentifier(Decimal.self) {
      let decimal = reinterpret(value, as: Decimal.self)
      if JSONNumber.withDecimalText(decimal, { writer.append(contentsOf: $0) }) == nil {
        writer.append(contentsOf: decimal.description.utf8)
      }
    } else if type == ObjectIdentifier(UUID.self) {
      // As `UUID`'s `encode(to:)` writes it: `uuidString`, which never needs escaping.
      UUIDText.withText(reinterpret(value, as: UUID.self)) { text in
        writer.append(UInt8(ascii: "\""))
        writer.append(contentsOf: text)
        writer.append(UInt8(ascii: "\""))
      }
    } else {
      return false
    }
    return true
  }

  typealias TypeKinds = JSONTypeKindCache<
    JSONEncodableArrayKind, JSONEncodableDictionaryKind, any JSONEncodableOptional.Type
  >

  /// How `type` is encoded: by this encoder element by element or member by member, or by its
  /// own `encode(to:)`.
  private static func classify(_ type: Any.Type) -> TypeKinds.Kind {
    if JSONScalarTypes.contains(type) { return .scalar }
    if let valueType = JSONValueType(type) { return .jsonValue(valueType) }
    if let arrayType = type as? any JSONEncodableArray.Type {
      return .array(
        JSONEncodableArrayKind(
          type: arrayType, elementsTakeSlots: arrayType.elementsTakeSlots))
    }
    if let dictionaryType = type as? any JSONStringKeyedEncodableDictionary.Type {
      return .dictionary(.stringKeyed(dictionaryType))
    }
    if let dictionaryType = type as? any JSONIntKeyedEncodableDictionary.Type {
      return .dictionary(.intKeyed(dictionaryType))
    }
    if let optionalType = type as? any JSONEncodableOptional.Type {
      return .optional(optionalType)
    }
    if type is any RawRepresentable.Type {
      return .singleValue
    }
    return .other
  }

  /// Encodes `value`, an optional of type `O`.
  private func encodeOptional<T, O: JSONEncodableOptional>(
    _ value: T, as type: O.Type, at path: () -> JSONCodingPath
  ) throws {
    try reinterpret(value, as: O.self).encodeOptional(to: self, at: path)
  }

  /// Encodes `value`, an array of type `A`.
  private func encodeArray<T, A: JSONEncodableArray>(
    _ value: T, as type: A.Type, slots: Bool, at path: () -> JSONCodingPath
  ) throws {
    guard frames.count < Self.maximumDepth else { throw Self.tooDeep(value, at: path()) }
    try descend(value, at: path()) {
      if slots {
        try reinterpret(value, as: A.self).encodeSlotElements(to: self, at: path)
      } else {
        try reinterpret(value, as: A.self).encodeElements(to: self, at: path)
      }
    }
  }

  /// Encodes `value`, a string-keyed dictionary of type `D`.
  private func encodeDictionary<T, D: JSONStringKeyedEncodableDictionary>(
    _ value: T, as type: D.Type, at path: () -> JSONCodingPath
  ) throws {
    guard frames.count < Self.maximumDepth else { throw Self.tooDeep(value, at: path()) }
    try descend(value, at: path()) {
      try reinterpret(value, as: D.self).encodeMembers(to: self, at: path)
    }
  }

  /// Encodes `value`, an integer-keyed dictionary of type `D`.
  private func encodeDictionary<T, D: JSONIntKeyedEncodableDictionary>(
    _ value: T, as type: D.Type, at path: () -> JSONCodingPath
  ) throws {
    guard frames.count < Self.maximumDepth else { throw Self.tooDeep(value, at: path()) }
    try descend(value, at: path()) {
      try reinterpret(value, as: D.self).encodeMembers(to: self, at: path)
    }
  }

  // MARK: - Depth

  /// The most arrays and objects open at once: as many as the decoders read.
  static let maximumDepth = JSONScanner.maximumDepth

  /// Runs `body`, the encode of `value` nested inside the values being encoded: counted, and on
  /// a fresh stack when this thread's runs low (see ``StackGuard``).
  ///
  /// - Throws: `EncodingError.invalidValue` when the value is inside more arrays and objects than
  ///   the decoders read, nested deeper than ``StackGuard/maximumNesting``, or where no fresh
  ///   stack can be started; and what `body` throws.
  @inline(__always)
  private func descend(
    _ value: @autoclosure () -> Any, at path: @autoclosure () -> JSONCodingPath,
    _ body: () throws -> Void
  ) throws {
    // Inside more frames than allowed: the innermost one is too deep already.
    guard frames.count <= Self.maximumDepth else { throw Self.tooDeep(value(), at: path()) }
    nesting &+= 1
    defer { nesting &-= 1 }
    switch StackGuard.descent(atDepth: nesting, freshStacks: freshStacks) {
    case .here:
      try body()
    case .freshStack:
      freshStacks &+= 1
      try StackGuard.onFreshStack(
        orThrow: StackGuard.tooDeepToEncode(value(), .stack, codingPath: path().keys), body)
    case .tooDeep(let limit):
      throw StackGuard.tooDeepToEncode(value(), limit, codingPath: path().keys)
    }
  }

  /// A container opened inside as many arrays and objects as the decoders read, which the
  /// value that opened it reports as ``tooDeep(_:at:)``.
  private struct DepthExceeded: Error {}

  /// The error of a value inside more arrays and objects than the decoders read.
  static func tooDeep(_ value: Any, at path: JSONCodingPath) -> EncodingError {
    .invalidValue(
      value,
      .init(
        codingPath: path.keys,
        debugDescription:
          "Too many nested arrays or objects: JSON is written \(maximumDepth) levels deep at most, as deep as it is read."
      ))
  }

  func double(_ value: Double, at path: @autoclosure () -> JSONCodingPath) throws {
    guard value.isFinite else { return try nonConforming(value, at: path()) }
    writer.double(value)
  }

  /// Writes `array` as the value just begun (a member's, after its name), as the general path
  /// writes an `[Int]`, without its type lookup.
  ///
  /// - Throws: `EncodingError.invalidValue` when the array would be deeper than the decoders
  ///   read, at `path`, the array's own.
  func encodeIntegerArray(_ array: [Int], at path: @autoclosure () -> JSONCodingPath) throws {
    try encodeScalarArray(array, at: path) { try encodeIntegers($0, in: $1) }
  }

  /// Writes `array` as the value just begun, as ``encodeIntegerArray(_:at:)`` writes an `[Int]`.
  ///
  /// - Throws: `EncodingError.invalidValue` when the array would be deeper than the decoders
  ///   read, at `path`, the array's own.
  func encodeStringArray(_ array: [String], at path: @autoclosure () -> JSONCodingPath) throws {
    try encodeScalarArray(array, at: path) { try encodeStrings($0, in: $1) }
  }

  /// Writes `array` as the value just begun, as ``encodeIntegerArray(_:at:)`` writes an `[Int]`.
  ///
  /// - Throws: `EncodingError.invalidValue` when the array would be deeper than the decoders
  ///   read, or holds a value JSON cannot hold (see ``double(_:at:)``), at `path`, the array's
  ///   own, or its element's.
  func encodeDoubleArray(_ array: [Double], at path: @autoclosure () -> JSONCodingPath) throws {
    try encodeScalarArray(array, at: path) { try encodeDoubles($0, in: $1, at: path) }
  }

  /// Opens an array frame, writes `array`'s elements with `write`, and closes the frame.
  ///
  /// What ``encodeArray(_:as:slots:at:)`` and ``JSONEncodableArray/encodeElements(to:at:)`` do
  /// for an array of one scalar type. Its elements don't encode themselves, so no stack is
  /// counted.
  @inline(__always)
  private func encodeScalarArray<Element>(
    _ array: [Element], at path: () -> JSONCodingPath,
    _ write: (UnsafeBufferPointer<Element>, (index: Int, id: Int)) throws -> Void
  ) throws {
    guard frames.count < Self.maximumDepth else { throw Self.tooDeep(array, at: path()) }
    let frame = pushFrame(object: false)
    try array.withUnsafeBufferPointer { try write($0, frame) }
    try closeFrames(above: frame.index)
  }

  /// Writes `elements`, the elements of a `[Double]` whose array is the open frame `frame`.
  ///
  /// - Throws: `EncodingError.invalidValue` for a value JSON cannot hold (see ``double(_:at:)``),
  ///   at the element's path below `path`.
  func encodeDoubles(
    _ elements: UnsafeBufferPointer<Double>, in frame: (index: Int, id: Int),
    at path: () -> JSONCodingPath
  ) throws {
    try encodeElements(elements, in: frame) { value, index in
      if value.isFinite {
        writer.double(value)
      } else {
        try nonConforming(value, at: path().appending(index: index))
      }
    }
  }

  /// Writes `elements`, the elements of an `[Int]` whose array is the open frame `frame`.
  ///
  /// - Throws: ``Restart`` when the frame was closed already.
  func encodeIntegers(_ elements: UnsafeBufferPointer<Int>, in frame: (index: Int, id: Int))
    throws
  {
    try encodeElements(elements, in: frame) { value, _ in writer.integer(value) }
  }

  /// Writes `elements`, the elements of a `[String]` whose array is the open frame `frame`.
  ///
  /// - Throws: ``Restart`` when the frame was closed already.
  func encodeStrings(_ elements: UnsafeBufferPointer<String>, in frame: (index: Int, id: Int))
    throws
  {
    try encodeElements(elements, in: frame) { value, _ in writer.string(value) }
  }

  /// Writes `elements` into the open array frame `frame` with `write`: the frame is made current
  /// once, as nothing else writes between two elements of a scalar type.
  @inline(__always)
  private func encodeElements<Element>(
    _ elements: UnsafeBufferPointer<Element>, in frame: (index: Int, id: Int),
    _ write: (Element, Int) throws -> Void
  ) throws {
    try activate(frame.index, id: frame.id)
    var count = frames[frame.index].count
    defer { frames[frame.index].count = count }
    for index in elements.indices {
      writer.separate(count: count)
      count &+= 1
      try write(elements[index], index)
    }
  }

  /// Writes `arrays`, the elements of a `[[Double]]` whose array is the open frame `frame` (the
  /// points of GeoJSON and of most coordinate lists): each as ``encodeDoubles(_:in:at:)``
  /// does, without going through the type of each element.
  ///
  /// - Throws: `EncodingError.invalidValue` for a value JSON cannot hold, or for arrays nested
  ///   deeper than ``maximumDepth``, at the element's path below `path`.
  func encodeDoubleArrays(
    _ arrays: UnsafeBufferPointer<[Double]>, in frame: (index: Int, id: Int),
    at path: () -> JSONCodingPath
  ) throws {
    for index in arrays.indices {
      try beginElement(frame.index, id: frame.id)
      // The elements are numbers: nothing nests below, so no stack is needed beyond this one.
      guard frames.count < Self.maximumDepth else {
        throw Self.tooDeep(arrays[index], at: path().appending(index: index))
      }
      let inner = pushFrame(object: false)
      try arrays[index].withUnsafeBufferPointer {
        try encodeDoubles($0, in: inner, at: { path().appending(index: index) })
      }
      try closeFrames(above: inner.index)
    }
  }

  func float(_ value: Float, at path: @autoclosure () -> JSONCodingPath) throws {
    guard value.isFinite else { return try nonConforming(value, at: path()) }
    writer.float(value)
  }

  private func nonConforming<F: BinaryFloatingPoint>(_ value: F, at path: JSONCodingPath) throws {
    guard
      case .convertToString(let positive, let negative, let nan) =
        options.nonConformingFloatEncodingStrategy
    else {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: path.keys,
          debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
    }
    writer.string(value.isNaN ? nan : value < 0 ? negative : positive)
  }

  private func date(_ value: Date, at path: JSONCodingPath) throws {
    switch options.dateEncodingStrategy {
    case .deferredToDate:
      // What `Date.encode(to:)` writes, without a container.
      try double(value.timeIntervalSinceReferenceDate, at: path)
    case .secondsSince1970:
      try double(value.timeIntervalSince1970, at: path)
    case .millisecondsSince1970:
      try double(value.timeIntervalSince1970 * 1000, at: path)
    case .iso8601:
      JSONISO8601.write(value, to: writer, formatter: &iso8601Formatter)
    case .formatted(let formatter):
      let dates = JSONFormattedDates.kept(in: &formattedDates, for: formatter)
      dates.write(value, to: writer)
    case .custom(let closure):
      try encodeCustom(value, at: path) { try closure(value, $0) }
    }
  }

  private func data(_ value: Data, at path: JSONCodingPath) throws {
    switch options.dataEncodingStrategy {
    case .deferredToData:
      try encodeNested(value, at: path)
    case .base64:
      writer.base64(value)
    case .custom(let closure):
      try encodeCustom(value, at: path) { try closure(value, $0) }
    }
  }

  /// Runs a custom strategy's closure with this encoder, in a slot of its own.
  ///
  /// A closure that writes nothing gives an empty object, as in Foundation: also for a top-level
  /// value, which ``encodeNested(_:at:)`` leaves empty for ``encodeRoot(_:as:reporting:)`` to
  /// report.
  private func encodeCustom(
    _ value: Any, at path: JSONCodingPath, _ body: (any Encoder) throws -> Void
  ) throws {
    try withoutActuallyEscaping(body) { body in
      try encodeNested(CustomStrategyValue(body: body), at: path, reporting: value)
    }
    if writer.count == 0 {
      writer.open(UInt8(ascii: "{"))
      writer.close(UInt8(ascii: "}"), count: 0)
    }
  }

  // MARK: - Encoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    opened &+= 1
    if case .member = slot.step {
      return keyedContainer(frame: openFrame(object: true), below: memberPath(), .none)
    }
    return keyedContainer(frame: openFrame(object: true), below: slot.base, slot.step)
  }

  /// The keyed containers made so far, to be handed out again (see ``JSONContainerBoxes``).
  #if DEBUG
    private var containers = JSONContainerBoxes<JSONStreamKeyedContainerState>()
  #else
    @exclusivity(unchecked) private var containers = JSONContainerBoxes<
      JSONStreamKeyedContainerState
    >()
  #endif

  /// A keyed container for the object frame `frame`, the member or element `step` of the array
  /// or object at `base` (its coding path is made only when asked for): a kept one when one of
  /// `Key` is free.
  ///
  /// The place is consumed: a kept container's state swaps it in, without a retain.
  func keyedContainer<Key: CodingKey>(
    frame: (index: Int, id: Int), below base: consuming JSONCodingPath,
    _ step: consuming JSONPathStep
  ) -> KeyedEncodingContainer<Key> {
    let key = ObjectIdentifier(Key.self)
    var place = (base: base, step: step)
    if let kept = containers.reuse(
      for: key, depth: frame.index, pointing: { $0.point(at: frame, swapping: &place) })
    {
      return kept.container(as: KeyedEncodingContainer<Key>.self)
    }
    let state = JSONStreamKeyedContainerState(
      encoder: self, frame: frame, below: place.base, place.step)
    let container = KeyedEncodingContainer(JSONStreamKeyedContainer<Key>(state: state))
    containers.keep(container, state: state, for: key, depth: frame.index)
    return container
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    opened &+= 1
    return JSONStreamUnkeyedContainer(
      encoder: self, frame: openFrame(object: false), path: slotPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    JSONStreamSingleValueContainer(encoder: self, depth: slot.depth)
  }

  func makeEncodingBackend() -> any EncodingBackend {
    JSONEncodingBackend(encoder: self)
  }

  // MARK: - Runs of Keyedable values

  /// The runs this coder keeps for the next Keyedable value.
  typealias SpareRuns = JSONSpareRuns<EncodeRun, JSONEncodingBackend>

  /// Runs that finished, ready for the next Keyedable value (see ``withKeyMap(for:plan:_:)``).
  #if DEBUG
    private var spareRuns = SpareRuns()
  #else
    @exclusivity(unchecked) private var spareRuns = SpareRuns()
  #endif
  /// The encoding plans looked up so far, by model type.
  #if DEBUG
    private var plans = TypeCache<MappingPlan>()
  #else
    @exclusivity(unchecked) private var plans = TypeCache<MappingPlan>()
  #endif
  /// Whether runs must look at the current ``MappingContext`` when they start (see
  /// ``JSONValueDecoder/contextsAffectRuns``).
  #if DEBUG
    var contextsAffectRuns = PlanRegistry.shared.contextsAffectRuns
  #else
    @exclusivity(unchecked) var contextsAffectRuns = PlanRegistry.shared.contextsAffectRuns
  #endif

  /// The encoding plan of `model`, from this encode's cache or the registry.
  ///
  /// A plan found unstable later (a run that left it) is still fine to start from: such a run
  /// collects its key paths when it leaves the plan.
  func plan(for model: ObjectIdentifier) -> MappingPlan? {
    if let plan = plans.value(for: model) {
      return plan
    }
    let plan = PlanRegistry.shared.plan(for: model, decoding: false)
    if let plan {
      plans.set(plan, for: model)
    }
    return plan
  }

  /// Forgets the cached plan of `model`, which an encode just made or replaced.
  func forgetPlan(of model: ObjectIdentifier) {
    plans.remove(model)
  }

  /// A run writing `model` at the current slot, with its key map.
  ///
  /// One that finished if one is kept (see ``JSONValueDecoder/decodeKeyed(_:as:)``), restarted,
  /// or a new one. Hand it back with ``keepRun(_:)`` when the model's `map(map:)` returns or
  /// throws.
  ///
  /// Taken and kept by the caller rather than lent to a closure: a document of many small objects
  /// makes a run per object, and each closure frame costs every one of them.
  ///
  /// - Parameters:
  ///   - model: The dynamic type whose `map(map:)` runs.
  ///   - plan: Its encoding plan, if it has one.
  /// - Returns: The run, its key map and its backend.
  @inline(__always)
  func takeRun(for model: Any.Type, plan: MappingPlan?) -> SpareRuns.Spare {
    let (spare, reused) = spareRuns.take { makeRun(for: model, plan: plan) }
    if reused {
      spare.backend.reset()
      spare.run.restart(model: model, plan: plan, readsContext: contextsAffectRuns)
    }
    return spare
  }

  /// Hands back a run taken with ``takeRun(for:plan:)``: it is kept again only when nothing
  /// refers to its key map any more (a mapping kept after its run must keep throwing when used).
  @inline(__always)
  func keepRun(_ spare: consuming SpareRuns.Spare) {
    spareRuns.keep(spare)
  }

  /// A new run writing `model` at the current slot, for ``takeRun(for:plan:)``.
  @inline(never)
  private func makeRun(for model: Any.Type, plan: MappingPlan?) -> SpareRuns.Spare {
    let backend = JSONEncodingBackend(encoder: self)
    let run = EncodeRun(json: backend, model: model, plan: plan, readsContext: contextsAffectRuns)
    return .init(map: KeyMap(encoding: run), run: run, backend: backend)
  }

  /// Lets go of the runs and containers kept for reuse when the top-level encode ends, or when
  /// ``KeyedJSONEncoder`` stops keeping this encoder for the next: their backends and states
  /// refer to this encoder, which would otherwise never be freed.
  func finish() {
    spareRuns.removeAll()
    containers.removeAll()
  }

  /// Makes the encoder ready for another encode with the same options, into a first buffer of
  /// `capacity` bytes (see ``KeyedJSONEncoder``'s kept encoder).
  ///
  /// Only an encoder whose last encode succeeded is restarted: that encode closed every frame,
  /// gave the slot back and left no deferred error. What depends only on the options and the
  /// types met (how each type is encoded, the plans, the runs and containers kept, the names
  /// written, the sort orders and working storage) is kept; the `.formatted` strategy's
  /// settings, which are read once per encode, and whether contexts affect runs are read
  /// again.
  ///
  /// - Parameter capacity: The first buffer's size.
  func restart(capacity: Int) {
    assert(frames.isEmpty && names.isEmpty && nesting == 0 && deferredError == nil)
    writer.restart(capacity: capacity)
    formattedDates = nil
    contextsAffectRuns = PlanRegistry.shared.contextsAffectRuns
  }

  /// The frame a container of the slot's value writes into: a new one when the slot is still
  /// empty, the same one when the value asks for its container again.
  ///
  /// - Returns: The frame's position and identity, or `(-1, -1)` when no frame can be opened (the
  ///   error is thrown when the value finishes).
  func openFrame(object: Bool) -> (index: Int, id: Int) {
    if slot.isFilled {
      // The value asks for a container again: the frame it opened must still be open.
      let index = slot.depth
      if index < frames.count, frames[index].isObject == object {
        return (index, frames[index].id)
      }
      deferError(Restart())
      return (-1, -1)
    }
    slot.isFilled = true
    return pushFrame(object: object)
  }

  /// Opens an array or an object at the current position of the output.
  func pushFrame(object: Bool) -> (index: Int, id: Int) {
    if frames.count >= Self.maximumDepth {
      // Thrown when the value finishes, as `tooDeep` with the value (see `encodeNested`).
      deferError(DepthExceeded())
    }
    writer.open(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
    let id = nextFrameID
    nextFrameID &+= 1
    frames.append(
      Frame(
        isObject: object, count: 0, id: id, firstName: names.count,
        contentStart: writer.count))
    return (frames.count &- 1, id)
  }

  /// Records an error met where the Codable API can't throw; the value being encoded throws it
  /// when it finishes.
  func deferError(_ error: any Error) {
    if deferredError == nil {
      deferredError = error
    }
  }

  /// Makes the frame at `index` the innermost one, closing those above it.
  ///
  /// - Throws: ``Restart`` when the frame was closed already.
  @inline(__always)
  func activate(_ index: Int, id: Int) throws {
    guard index >= 0, index < frames.count, frames[index].id == id else { throw Restart() }
    if index &+ 1 < frames.count {
      try closeFrames(above: index &+ 1)
    }
  }

  /// Closes the frames at positions `depth` and above.
  func closeFrames(above depth: Int) throws {
    while frames.count > depth {
      let frame = frames.removeLast()
      if frame.isObject {
        if sortsKeys, frame.count > 1 {
          sortMembers(of: frame, depth: frames.count)
        }
        names.truncate(to: frame.firstName)
        if frame.hasNonASCIIName {
          canonicalNames[frame.id] = nil
        }
        if frame.hasNameTable {
          nameTables.removeLast()
        }
        writer.close(UInt8(ascii: "}"), count: frame.count)
      } else {
        writer.close(UInt8(ascii: "]"), count: frame.count)
      }
    }
  }

  /// Starts the next member `name` of a standard keyed container's object frame at `index`:
  /// ``beginMember(_:id:name:mayRepeat:keepsName:)`` with `keepsName`, inlined for its common
  /// case.
  ///
  /// That case is the innermost frame, and a kept ASCII name whose bit in the frame is clear (a
  /// name new to the object): the name is copied and noted, with no call. Anything else, the
  /// first use of a name included, goes the general way. Measured: about 60 fewer instructions
  /// per member than the general way alone (its prologue, its epilogue and its other cases).
  ///
  /// - Throws: ``Restart`` when the frame was closed already or has a member with this name.
  @inline(__always)
  func beginKeptMember(_ index: Int, id: Int, name: String) throws {
    if index >= 0, index &+ 1 == frames.count, frames[index].id == id,
      !frames[index].hasNonASCIIName,
      names.count &- frames[index].firstName < Self.namesInBits,
      let rendered = renderedNames.rendered(name), rendered.isASCII,
      !frames[index].nameBits.insert(rendered.fingerprint)
    {
      let start = writer.count
      writer.separate(count: frames[index].count)
      let nameStart = writer.count
      renderedNames.write(rendered, to: writer)
      names.append(
        MemberName(fingerprint: rendered.fingerprint, start: start, name: nameStart..<writer.count))
      writer.colon()
      frames[index].count &+= 1
      return
    }
    try beginMember(index, id: id, name: name, keepsName: true)
  }

  /// Starts the next member of the object frame at `index`: its separator and name.
  ///
  /// A name of a standard keyed container (`keepsName`) is written from ``renderedNames`` when
  /// it was written before, and kept there the first time.
  ///
  /// - Throws: ``Restart`` when the frame was closed already or has a member with this name.
  func beginMember(
    _ index: Int, id: Int, name: String, mayRepeat: Bool = true, keepsName: Bool = false
  ) throws {
    try activate(index, id: id)
    let start = writer.count
    writer.separate(count: frames[index].count)
    let nameStart = writer.count
    if keepsName, let rendered = renderedNames.rendered(name) {
      renderedNames.write(rendered, to: writer)
      // Mostly an ASCII name new to a small object, whose bit is clear: it is only kept.
      if mayRepeat, rendered.isASCII, !frames[index].hasNonASCIIName,
        names.count &- frames[index].firstName < Self.namesInBits,
        !frames[index].nameBits.insert(rendered.fingerprint)
      {
        names.append(
          MemberName(
            fingerprint: rendered.fingerprint, start: start, name: nameStart..<writer.count))
      } else if mayRepeat || sortsKeys {
        try noteName(
          in: index, start: start, name: nameStart..<writer.count, check: mayRepeat,
          known: rendered)
      }
    } else {
      writer.string(name)
      if keepsName {
        renderedNames.keep(
          name, written: writer.base + nameStart, count: writer.count &- nameStart,
          hasher: hasher)
      }
      if mayRepeat || sortsKeys {
        try noteName(in: index, start: start, name: nameStart..<writer.count, check: mayRepeat)
      }
    }
    writer.colon()
    frames[index].count &+= 1
  }

  /// Starts the next member of the object frame at `index` whose start is already written as
  /// compact JSON (`member` is `,"name":`, from ``PathTable/MemberIndex/jsonMembers``, padded),
  /// when no repeat is possible.
  @inline(__always)
  func beginMember(_ index: Int, id: Int, member: UnsafeBufferPointer<UInt8>) throws {
    try activate(index, id: id)
    let count = frames[index].count
    frames[index].count = count &+ 1
    guard !prettyPrinted, !sortsKeys else {
      // The name, quotes included, is between the comma and the colon.
      let quoted = UnsafeBufferPointer(rebasing: member[1..<(member.count &- 1)])
      let start = writer.count
      writer.separate(count: count)
      let nameStart = writer.count
      writer.append(contentsOf: quoted)
      if sortsKeys {
        try noteName(in: index, start: start, name: nameStart..<writer.count, check: false)
      }
      writer.colon()
      return
    }
    // The first member has no comma before it. The plan's members are padded (see
    // ``PathTable/MemberIndex/jsonMembers``).
    guard let start = member.baseAddress else { return }
    let first = count == 0 ? 1 : 0
    writer.append(padded: start + first, count: member.count &- first)
  }

  /// Starts the next element of the array frame at `index`.
  @inline(__always)
  func beginElement(_ index: Int, id: Int) throws {
    try activate(index, id: id)
    writer.separate(count: frames[index].count)
    frames[index].count &+= 1
  }

  /// The member name for `key` in an object at `path`, after the key strategy.
  @inline(__always)
  func name(for key: some CodingKey, at path: @autoclosure () -> JSONCodingPath) -> String {
    guard convertsKeys else { return key.stringValue }
    switch options.keyEncodingStrategy {
    case .useDefaultKeys: return key.stringValue
    case .convertToSnakeCase: return JSONKeyConversion.toSnakeCase(key.stringValue)
    case .custom(let convert): return convert(path().keys + [key]).stringValue
    }
  }

  /// The coding key of the member `name` of a `[String: Value]`, as Foundation's paths have it.
  ///
  /// With the default key strategy, Foundation encodes the dictionary through its own
  /// `encode(to:)`, whose keys carry the integer value of a name that reads as an `Int`; with
  /// any other strategy it writes the members itself, with keys that have no integer value.
  ///
  /// - Parameter name: The member's name.
  /// - Returns: The key.
  func dictionaryMemberKey(_ name: String) -> PathKey {
    convertsKeys ? PathKey(name) : PathKey(dictionaryMember: name)
  }

  // MARK: - Member names

  /// Remembers the member name the frame at `index` just got, and checks that no earlier member
  /// of the frame has the same name.
  ///
  /// `known` is the name's kept rendering, whose fingerprint and ASCII test are then not made
  /// again.
  ///
  /// - Throws: ``Restart`` when the name is there already.
  private func noteName(
    in index: Int, start: Int, name: Range<Int>, check: Bool,
    known: JSONRenderedNames.Rendered? = nil
  ) throws {
    // Eight bytes to spare after the output, so that a name is read a word at a time (bytes
    // past the name are masked off).
    writer.reserve(8)
    let fingerprint: UInt64
    // Whether the name is ASCII, when known without reading it again (`nil`: a long name).
    let knownASCII: Bool?
    if let known {
      fingerprint = known.fingerprint
      knownASCII = known.isASCII
    } else {
      let words = JSONNameIndex.NameWords(
        inDocument: writer.base + name.lowerBound, count: name.count)
      fingerprint = hasher.fingerprint(words, at: writer.base + name.lowerBound)
      // A name of up to 16 bytes, quotes included, is all in its words.
      knownASCII =
        name.count <= 16 ? (words.head | words.tail) & 0x8080_8080_8080_8080 == 0 : nil
    }
    if check {
      let first = frames[index].firstName
      // Whether an earlier name has the same fingerprint but other bytes: the seeded hash makes
      // it as good as impossible, but if it happens the names are compared as strings.
      var collides = false
      // Objects are small as a rule: a name whose bit is clear is new, others are compared
      // with the earlier names of the same fingerprint. A big object (a dictionary) keeps a
      // table of its fingerprints, each with its first name (see ``JSONNameTable``).
      if names.count &- first < Self.namesInBits {
        if frames[index].nameBits.insert(fingerprint) {
          for position in first..<names.count where names[position].fingerprint == fingerprint {
            if sameName(names[position].name, name) { throw Restart() }
            collides = true
          }
        }
      } else {
        // The object being written is the innermost one, so its table is the last one.
        if !frames[index].hasNameTable {
          frames[index].hasNameTable = true
          nameTables.append(
            JSONNameTable(
              (first..<names.count).lazy.map { self.names[$0].fingerprint },
              firstPosition: first))
        }
        if let earlier = nameTables[nameTables.count &- 1].insert(
          names.count, fingerprint: fingerprint)
        {
          if sameName(names[earlier].name, name) { throw Restart() }
          collides = true
        }
      }
      let isASCII = knownASCII ?? isASCII(name)
      if collides || frames[index].hasNonASCIIName || !isASCII {
        try checkCanonicalEquivalence(in: index, name: name)
      }
    }
    names.append(MemberName(fingerprint: fingerprint, start: start, name: name))
  }

  /// Checks that no earlier member of the object frame at `index` has a name equal to `name` as
  /// a Swift string: two spellings of one text (`"\u{E9}"` and `"e\u{301}"`) are one name for
  /// Foundation's `JSONEncoder`, which keeps the last value written, so they are a repeat.
  ///
  /// Only objects with a name outside ASCII pay for it: a set of their names, decoded, made when
  /// the first such name comes.
  ///
  /// - Throws: ``Restart`` when the name is there already.
  private func checkCanonicalEquivalence(in index: Int, name: Range<Int>) throws {
    let id = frames[index].id
    if !frames[index].hasNonASCIIName {
      frames[index].hasNonASCIIName = true
      canonicalNames[id] = Set(
        (frames[index].firstName..<names.count).map { decodedName(names[$0].name) })
    }
    if canonicalNames[id]?.insert(decodedName(name)).inserted == false {
      throw Restart()
    }
  }

  /// Whether a name written in the output is all ASCII (its escapes are); the eight bytes
  /// after the output must be readable (see ``noteName(in:start:name:check:)``).
  @inline(__always)
  private func isASCII(_ name: Range<Int>) -> Bool {
    let base = UnsafeRawPointer(writer.base)
    var index = name.lowerBound
    while index < name.upperBound {
      var word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let rest = name.upperBound &- index
      if rest < 8 {
        word &= (1 &<< (UInt64(truncatingIfNeeded: rest) &* 8)) &- 1
      }
      if word & 0x8080_8080_8080_8080 != 0 { return false }
      index &+= 8
    }
    return true
  }

  /// A name written in the output (quotes included), as the string it stands for.
  private func decodedName(_ name: Range<Int>) -> String {
    writer.withBytes { bytes in
      JSONStrings.unescaped(
        UnsafeBufferPointer(rebasing: bytes[(name.lowerBound &+ 1)..<(name.upperBound &- 1)]))
    }
  }

  /// The names, decoded, of the objects that have a name outside ASCII, by frame.
  #if DEBUG
    private var canonicalNames: [Int: Set<String>] = [:]
  #else
    @exclusivity(unchecked) private var canonicalNames: [Int: Set<String>] = [:]
  #endif

  /// Whether two names written in the output are the same bytes.
  @inline(__always)
  private func sameName(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
    lhs.count == rhs.count
      && JSONStrings.equal(
        writer.base + lhs.lowerBound, writer.base + rhs.lowerBound, count: lhs.count)
  }

  /// The name tables of the big objects being written, one for each frame with
  /// ``Frame/hasNameTable``, in the order of the frames: a frame's table is made when it is the
  /// innermost open frame, and goes when it closes.
  #if DEBUG
    private var nameTables: [JSONNameTable] = []
  #else
    @exclusivity(unchecked) private var nameTables: [JSONNameTable] = []
  #endif
  /// The hasher of member names (see ``JSONNameIndex/NameHasher``).
  private let hasher = JSONNameIndex.NameHasher.shared
  /// The names of standard keyed containers written so far (see ``JSONRenderedNames``).
  private let renderedNames = JSONRenderedNames()

  /// Where a member's name is, unescaped, for sorting: in the output (a name written without
  /// escapes) or in a side buffer.
  private struct SortName {
    /// Whether the name is in the side buffer rather than in the output.
    var isUnescapedCopy: Bool
    /// Where the name's UTF-8 starts, in the output or in the side buffer.
    var start: Int
    /// The name's UTF-8 length.
    var count: Int
    /// The member (separator, name, value) in the output.
    var member: Range<Int>
  }

  /// The names of the object being sorted, its unescaped names and its sorted members:
  /// ``sortMembers(of:depth:)``'s working storage, kept from object to object.
  #if DEBUG
    private var sortNames: [SortName] = []
    private var sortUnescaped: [UInt8] = []
    private var sortBytes: [UInt8] = []
  #else
    @exclusivity(unchecked) private var sortNames: [SortName] = []
    @exclusivity(unchecked) private var sortUnescaped: [UInt8] = []
    @exclusivity(unchecked) private var sortBytes: [UInt8] = []
  #endif
  /// The order the members of the object sorted last at each nesting depth and member count
  /// were put in, by their positions (``sortOrderSlot(depth:count:)``): tried first for the
  /// next object sorted there.
  #if DEBUG
    private var sortOrders: [[Int]] = []
  #else
    @exclusivity(unchecked) private var sortOrders: [[Int]] = []
  #endif

  /// Puts the members of an object frame, closed at nesting depth `depth`, in the order of
  /// their names.
  ///
  /// Names are ordered as Foundation's `JSONEncoder` orders them: by their UTF-8 bytes (so by
  /// their Unicode scalars), not by `String` comparison, which would compare canonically
  /// equivalent forms alike. A name written without escapes is compared where it is in the
  /// output; only one with escapes is unescaped, into a side buffer.
  ///
  /// The objects of an array of one type have the same names in the same order: the order the
  /// last object at the same depth with as many members took is tried first, and kept when each name in it comes
  /// before the next (`n - 1` comparisons); any other order is sorted. So an object costs a
  /// linear check and a copy of its members, and at worst a sort, as before.
  private func sortMembers(of frame: Frame, depth: Int) {
    let first = frame.firstName
    let memberCount = names.count &- first
    let end = writer.count
    sortNames.removeAll(keepingCapacity: true)
    sortUnescaped.removeAll(keepingCapacity: true)
    for offset in 0..<memberCount {
      let member = names[first &+ offset]
      let next = offset &+ 1 < memberCount ? names[first &+ offset &+ 1].start : end
      // The name without its quotes.
      let name = (member.name.lowerBound &+ 1)..<(member.name.upperBound &- 1)
      if writer.withBytes({ $0[name].contains(UInt8(ascii: "\\")) }) {
        let text = writer.withBytes { bytes in
          JSONStrings.unescaped(UnsafeBufferPointer(rebasing: bytes[name]))
        }
        let start = sortUnescaped.count
        sortUnescaped.append(contentsOf: text.utf8)
        sortNames.append(
          SortName(
            isUnescapedCopy: true, start: start, count: sortUnescaped.count &- start,
            member: member.start..<next))
      } else {
        sortNames.append(
          SortName(
            isUnescapedCopy: false, start: name.lowerBound, count: name.count,
            member: member.start..<next))
      }
    }
    let slot = Self.sortOrderSlot(depth: depth, count: memberCount)
    if sortOrders.count <= slot {
      sortOrders.append(contentsOf: repeatElement([], count: slot &+ 1 &- sortOrders.count))
    }
    // Taken out while it is changed, so that it isn't copied.
    var order = sortOrders[slot]
    sortOrders[slot] = []
    writer.withBytes { output in
      sortUnescaped.withUnsafeBufferPointer { copies in
        sortNames.withUnsafeBufferPointer { sortNames in
          /// The name of the member at `position`, unescaped.
          func name(_ position: Int) -> UnsafeBufferPointer<UInt8> {
            let name = sortNames[position]
            return UnsafeBufferPointer(
              rebasing: (name.isUnescapedCopy ? copies : output)[
                name.start..<(name.start &+ name.count)])
          }
          let isSorted =
            order.count == memberCount
            && (1..<Swift.max(memberCount, 1)).allSatisfy {
              Self.precedes(name(order[$0 &- 1]), name(order[$0]))
            }
          if !isSorted {
            order.removeAll(keepingCapacity: true)
            order.append(contentsOf: 0..<memberCount)
            order.sort { Self.precedes(name($0), name($1)) }
          }
        }
      }
    }
    // The members copied aside, then written back in order: the same members with the same
    // separators, so the object keeps its length.
    let start = frame.contentStart
    sortBytes.removeAll(keepingCapacity: true)
    writer.withBytes { output in
      sortBytes.append(contentsOf: UnsafeBufferPointer(rebasing: output[start..<end]))
    }
    sortBytes.withUnsafeBufferPointer { copy in
      guard let source = copy.baseAddress else { return }
      var target = writer.base + start
      let limit = writer.base + end
      for (position, index) in order.enumerated() {
        var member = sortNames[index].member
        // Each member starts with its separator: a comma except for the first member, then the
        // line break and indentation when pretty-printing.
        if member.lowerBound < member.upperBound,
          source[member.lowerBound &- start] == UInt8(ascii: ",")
        {
          member = (member.lowerBound &+ 1)..<member.upperBound
        }
        let comma = position > 0 ? 1 : 0
        guard member.lowerBound >= start, member.upperBound <= end,
          target + comma + member.count <= limit
        else { return }
        if comma > 0 {
          target.pointee = UInt8(ascii: ",")
          target += 1
        }
        target.update(from: source + (member.lowerBound &- start), count: member.count)
        target += member.count
      }
    }
    sortOrders[slot] = order
  }

  /// Where ``sortOrders`` keeps the order of an object at nesting depth `depth` with `count`
  /// members: four slots per depth, by the count's last two bits, so that objects whose optional
  /// members are there in some and missing in others each find their own.
  @inline(__always)
  private static func sortOrderSlot(depth: Int, count: Int) -> Int {
    depth &* 4 &+ count & 3
  }

  /// Whether the bytes of `lhs` come before those of `rhs` (a prefix first).
  @inline(__always)
  private static func precedes(
    _ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let common = Swift.min(lhs.count, rhs.count)
    var index = 0
    while index < common {
      let left = lhs[index]
      let right = rhs[index]
      if left != right { return left < right }
      index &+= 1
    }
    return lhs.count < rhs.count
  }
}

/// A value whose encoding is a custom strategy's closure.
private struct CustomStrategyValue: Encodable {
  let body: (any Encoder) throws -> Void

  func encode(to encoder: any Encoder) throws {
    try body(encoder)
  }
}

// MARK: - Containers

/// The keyed container of one object frame of a ``JSONStreamEncoder``.
struct JSONStreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  /// The object the container writes: one reference, so that a kept container can be pointed
  /// at another object (see ``JSONContainerBoxes``).
  let state: JSONStreamKeyedContainerState

  var encoder: JSONStreamEncoder { state.encoder }
  /// The object's frame.
  var index: Int { state.index }
  /// The frame's identity, to tell a container kept after its object closed.
  var id: Int { state.id }
  /// The object's coding path.
  var path: JSONCodingPath { state.path }

  var codingPath: [any CodingKey] { path.keys }

  @inline(__always)
  private func begin(_ key: Key) throws {
    try encoder.beginMember(
      index, id: id, name: encoder.name(for: key, at: path), keepsName: true)
  }

  /// Begins the member `key` and writes its value with `write`, which gets the encoder lent
  /// without a retain: the state holds the encoder, and this container holds the state.
  @inline(__always)
  private func member(_ key: Key, _ write: (JSONStreamEncoder) throws -> Void) throws {
    try Unmanaged.passUnretained(state.encoder)._withUnsafeGuaranteedRef { encoder in
      // The key's own name unless a strategy converts it: the strategy's closure for the path
      // would retain the state.
      let name = encoder.convertsKeys ? convertedName(key, by: encoder) : key.stringValue
      try encoder.beginKeptMember(index, id: id, name: name)
      try write(encoder)
    }
  }

  /// The name the key strategy of `encoder` gives `key`.
  @inline(never)
  private func convertedName(_ key: Key, by encoder: JSONStreamEncoder) -> String {
    encoder.name(for: key, at: path)
  }

  mutating func encodeNil(forKey key: Key) throws {
    try member(key) { $0.writer.null() }
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws {
    try member(key) { $0.writer.bool(value) }
  }

  mutating func encode(_ value: String, forKey key: Key) throws {
    try member(key) { $0.writer.string(value) }
  }

  mutating func encode(_ value: Double, forKey key: Key) throws {
    // Out of line otherwise: the closure making the path would retain the state.
    guard value.isFinite else { return try encodeNonFinite(value, forKey: key) }
    try member(key) { $0.writer.double(value) }
  }

  /// Writes the member `key` of a Double that JSON has no number for, by the encoder's
  /// strategy.
  @inline(never)
  private func encodeNonFinite(_ value: Double, forKey key: Key) throws {
    try begin(key)
    try encoder.double(value, at: path.appending(key))
  }

  mutating func encode(_ value: Float, forKey key: Key) throws {
    // Out of line otherwise: the closure making the path would retain the state.
    guard value.isFinite else { return try encodeNonFinite(value, forKey: key) }
    try member(key) { $0.writer.float(value) }
  }

  /// Writes the member `key` of a Float that JSON has no number for, by the encoder's
  /// strategy.
  @inline(never)
  private func encodeNonFinite(_ value: Float, forKey key: Key) throws {
    try begin(key)
    try encoder.float(value, at: path.appending(key))
  }

  mutating func encode(_ value: Int, forKey key: Key) throws {
    try member(key) { $0.writer.integer(value) }
  }

  mutating func encode(_ value: Int8, forKey key: Key) throws {
    try member(key) { $0.writer.integer(value) }
  }

  mutating func encode(_ value: Int16, forKey key: Key) throws {
    try member(key) { $0.writer.integer(value) }
  }

  mutating func encode(_ value: Int32, forKey key: Key) throws {
    try member(key) { $0.writer.integer(value) }
  }

  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try member(key) { $0.writer.integer(value) }
  }

  mutating func encode(_ value: UInt, forKey key: Key) throws {
    try member(key) { $0.writer.integer(value) }
  }

  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    try member(key) { $0.writer.integer(value) }
  }

  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    try member(key) { $0.writer.integer(value) }
  }

  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    try member(key) { $0.writer.integer(value) }
  }

  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    try member(key) { $0.writer.integer(value) }
  }

  #if compiler(>=6.0)
    /// Writes an `Int128` member, all its digits, as Foundation does.
    ///
    /// - Parameters:
    ///   - value: The number.
    ///   - key: The member's key.
    /// - Throws: ``JSONStreamEncoder/Restart`` when the container can't be written to any more.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws {
      try member(key) { $0.writer.integer(value) }
    }

    /// Writes a `UInt128` member, all its digits, as Foundation does.
    ///
    /// - Parameters:
    ///   - value: The number.
    ///   - key: The member's key.
    /// - Throws: ``JSONStreamEncoder/Restart`` when the container can't be written to any more.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
      try member(key) { $0.writer.integer(value) }
    }
  #endif

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    // The state lent as the encoder is (see ``member(_:_:)``).
    try Unmanaged.passUnretained(state)._withUnsafeGuaranteedRef { state in
      try Unmanaged.passUnretained(state.encoder)._withUnsafeGuaranteedRef { encoder in
        let name = encoder.convertsKeys ? convertedName(key, by: encoder) : key.stringValue
        try encoder.beginKeptMember(state.index, id: state.id, name: name)
        try encoder.encodeMember(value, of: state, key: key)
      }
    }
  }

  // `encodeIfPresent`: a `nil` writes nothing, as in the standard library's defaults, which the
  // ones below replace. Its generic one looks up the metadata of `T?` (about 300 instructions)
  // for every member; the others reach `encode` through the protocol's witness table.

  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    guard let value else { return }
    try encode(value, forKey: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    // The member's name and the frame written here rather than by a ``JSONSlotEncoder``, whose
    // closure writing the name would be allocated (an enum with associated values opens one
    // such container per value). The path keeps the key itself, as the slot encoder's did.
    let frame: (index: Int, id: Int)
    do {
      try begin(key)
      frame = encoder.pushFrame(object: true)
    } catch {
      encoder.deferError(error)
      frame = (-1, -1)
    }
    return encoder.keyedContainer(frame: frame, below: path.appending(key), .none)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let container = self
    return JSONSlotEncoder(encoder: encoder, path: path.appending(key)) { try container.begin(key) }
      .unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let key = PathKey.superKey
    let container = self
    // `super` goes through the key strategy, as in Foundation.
    return JSONSuperEncoder(encoder: encoder, path: path.appending(key)) {
      try container.encoder.beginMember(
        container.index, id: container.id,
        name: container.encoder.name(for: key, at: container.path))
    }
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    let container = self
    return JSONSuperEncoder(encoder: encoder, path: path.appending(key)) {
      try container.begin(key)
    }
  }
}

/// The unkeyed container of one array frame of a ``JSONStreamEncoder``.
struct JSONStreamUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: JSONStreamEncoder
  let index: Int
  let id: Int
  let path: JSONCodingPath

  init(encoder: JSONStreamEncoder, frame: (index: Int, id: Int), path: JSONCodingPath) {
    self.encoder = encoder
    index = frame.index
    id = frame.id
    self.path = path
  }

  var codingPath: [any CodingKey] { path.keys }

  var count: Int {
    index >= 0 && index < encoder.frames.count && encoder.frames[index].id == id
      ? encoder.frames[index].count : 0
  }

  mutating func encodeNil() throws {
    try encoder.beginElement(index, id: id)
    encoder.writer.null()
  }

  mutating func encode(_ value: Bool) throws {
    try encoder.beginElement(index, id: id)
    encoder.writer.bool(value)
  }

  mutating func encode(_ value: String) throws {
    try encoder.beginElement(index, id: id)
    encoder.writer.string(value)
  }

  mutating func encode(_ value: Double) throws {
    let position = count
    try encoder.beginElement(index, id: id)
    try encoder.double(value, at: path.appending(index: position))
  }

  mutating func encode(_ value: Float) throws {
    let position = count
    try encoder.beginElement(index, id: id)
    try encoder.float(value, at: path.appending(index: position))
  }

  mutating func encode(_ value: Int) throws {
    try encoder.beginElement(index, id: id)
    encoder.writer.integer(value)
  }

  mutating func encode(_ value: Int64) throws {
    try encoder.beginElement(index, id: id)
    encoder.writer.integer(value)
  }

  mutating func encode(_ value: UInt64) throws {
    try encoder.beginElement(index, id: id)
    encoder.writer.integer(value)
  }

  #if compiler(>=6.0)
    /// Writes an `Int128` element, all its digits, as Foundation does.
    ///
    /// - Parameter value: The number.
    /// - Throws: ``JSONStreamEncoder/Restart`` when the container can't be written to any more.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encode(_ value: Int128) throws {
      try encoder.beginElement(index, id: id)
      encoder.writer.integer(value)
    }

    /// Writes a `UInt128` element, all its digits, as Foundation does.
    ///
    /// - Parameter value: The number.
    /// - Throws: ``JSONStreamEncoder/Restart`` when the container can't be written to any more.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encode(_ value: UInt128) throws {
      try encoder.beginElement(index, id: id)
      encoder.writer.integer(value)
    }
  #endif

  mutating func encode<T: Encodable>(_ value: T) throws {
    let position = count
    try encoder.beginElement(index, id: id)
    // The element's own path is joined only when something asks for it.
    try encoder.encodeValue(value, below: path, .index(position))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let encoder = self.encoder
    let index = self.index
    let id = self.id
    return JSONSlotEncoder(encoder: encoder, path: path.appending(index: count)) {
      try encoder.beginElement(index, id: id)
    }.container(keyedBy: NestedKey.self)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let encoder = self.encoder
    let index = self.index
    let id = self.id
    return JSONSlotEncoder(encoder: encoder, path: path.appending(index: count)) {
      try encoder.beginElement(index, id: id)
    }.unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let container = self
    let position = count
    return JSONSuperEncoder(encoder: encoder, path: path.appending(index: position)) {
      // The element is the one at `position`, as in Foundation, even when it is written after
      // later elements: then only Foundation's encoder can put it there.
      guard container.count == position else { throw JSONStreamEncoder.Restart() }
      try container.encoder.beginElement(container.index, id: container.id)
    }
  }
}

/// The single value container of a slot of a ``JSONStreamEncoder``.
struct JSONStreamSingleValueContainer: SingleValueEncodingContainer {
  let encoder: JSONStreamEncoder
  /// The depth of the slot this container fills.
  let depth: Int

  var codingPath: [any CodingKey] { encoder.codingPath }

  /// Marks the slot filled.
  ///
  /// - Throws: `EncodingError.invalidValue` when it was filled already (Foundation traps).
  private func fill(_ value: Any) throws {
    guard !encoder.slotIsFilled else {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: encoder.codingPath,
          debugDescription:
            "Attempt to encode value through single value container when previously value already encoded."
        ))
    }
    encoder.fillSlot()
  }

  mutating func encodeNil() throws {
    try fill(Any?.none as Any)
    encoder.writer.null()
  }

  mutating func encode(_ value: Bool) throws {
    try fill(value)
    encoder.writer.bool(value)
  }

  mutating func encode(_ value: String) throws {
    try fill(value)
    encoder.writer.string(value)
  }

  mutating func encode(_ value: Double) throws {
    try fill(value)
    try encoder.double(value, at: encoder.slotPath)
  }

  mutating func encode(_ value: Float) throws {
    try fill(value)
    try encoder.float(value, at: encoder.slotPath)
  }

  mutating func encode(_ value: Int) throws {
    try fill(value)
    encoder.writer.integer(value)
  }

  #if compiler(>=6.0)
    /// Writes an `Int128`, all its digits, as Foundation does.
    ///
    /// - Parameter value: The number.
    /// - Throws: `EncodingError.invalidValue` when the slot was filled already.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encode(_ value: Int128) throws {
      try fill(value)
      encoder.writer.integer(value)
    }

    /// Writes a `UInt128`, all its digits, as Foundation does.
    ///
    /// - Parameter value: The number.
    /// - Throws: `EncodingError.invalidValue` when the slot was filled already.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encode(_ value: UInt128) throws {
      try fill(value)
      encoder.writer.integer(value)
    }
  #endif

  mutating func encode<T: Encodable>(_ value: T) throws {
    try fill(value)
    try encoder.encodeValue(value, at: encoder.slotPath)
  }
}

extension JSONStreamEncoder {
  /// Whether the current slot's value has written something.
  var slotIsFilled: Bool { slot.isFilled }

  /// Marks the current slot filled by a single value.
  func fillSlot() {
    slot.isFilled = true
  }

}

/// An encoder for one member or element whose position is written only when it is first
/// used: by the nested containers and, through ``JSONSuperEncoder``, the super encoders of the
/// stream's containers.
struct JSONSlotEncoder: Encoder {
  let encoder: JSONStreamEncoder
  let path: JSONCodingPath
  /// Writes the member's name or the element's separator.
  let begin: () throws -> Void

  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { encoder.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    encoder.keyedContainer(frame: open(object: true), below: path, .none)
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    JSONStreamUnkeyedContainer(encoder: encoder, frame: open(object: false), path: path)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    JSONSlotValueContainer(slot: self)
  }

  /// Writes the position and opens a frame there (a nested container lives on after this call,
  /// so its frame is not closed here: the next write into an outer frame closes it).
  private func open(object: Bool) -> (index: Int, id: Int) {
    do {
      try begin()
    } catch {
      encoder.deferError(error)
      return (-1, -1)
    }
    return encoder.pushFrame(object: object)
  }
}

/// The encoder the super encoders of the stream's containers hand out: a ``JSONSlotEncoder``
/// whose member or element is an empty object when nothing is written through it.
///
/// Foundation's `JSONEncoder` writes `{}` for a super encoder that nothing is written through
/// (`{"a":1,"p":{}}`, `[1,{},2]`), when the super encoder goes away; so does this one, from its
/// `deinit`. A member can be written then whatever was written since; an element only when no
/// element came after it (its position is checked when it is written), otherwise the value is
/// encoded by Foundation's encoder (see ``JSONStreamEncoder/Restart``).
final class JSONSuperEncoder: Encoder {
  let encoder: JSONStreamEncoder
  let path: JSONCodingPath
  /// Writes the member's name or the element's separator.
  private let start: () throws -> Void
  /// Whether the position was written: something was written through this encoder.
  private var isStarted = false

  init(encoder: JSONStreamEncoder, path: JSONCodingPath, start: @escaping () throws -> Void) {
    self.encoder = encoder
    self.path = path
    self.start = start
  }

  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { encoder.userInfo }

  /// The slot the containers write into, noting that the position was written.
  private var slot: JSONSlotEncoder {
    JSONSlotEncoder(encoder: encoder, path: path) { [self] in
      isStarted = true
      try start()
    }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    slot.container(keyedBy: Key.self)
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    slot.unkeyedContainer()
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    slot.singleValueContainer()
  }

  deinit {
    guard !isStarted else { return }
    do {
      try start()
      encoder.writer.open(UInt8(ascii: "{"))
      encoder.writer.close(UInt8(ascii: "}"), count: 0)
    } catch {
      // Thrown when the value being encoded finishes (a restart, as a rule).
      encoder.deferError(error)
    }
  }
}

/// The single value container of a ``JSONSlotEncoder``.
struct JSONSlotValueContainer: SingleValueEncodingContainer {
  let slot: JSONSlotEncoder
  var codingPath: [any CodingKey] { slot.codingPath }

  mutating func encodeNil() throws {
    try slot.begin()
    slot.encoder.writer.null()
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try slot.begin()
    try slot.encoder.encodeValue(value, at: slot.path)
  }

  #if compiler(>=6.0)
    /// Writes an `Int128`, all its digits, as Foundation does.
    ///
    /// - Parameter value: The number.
    /// - Throws: ``JSONStreamEncoder/Restart`` when the position can't be written to any more.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encode(_ value: Int128) throws {
      try slot.begin()
      slot.encoder.writer.integer(value)
    }

    /// Writes a `UInt128`, all its digits, as Foundation does.
    ///
    /// - Parameter value: The number.
    /// - Throws: ``JSONStreamEncoder/Restart`` when the position can't be written to any more.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encode(_ value: UInt128) throws {
      try slot.begin()
      slot.encoder.writer.integer(value)
    }
  #endif
}

/// The object a ``JSONStreamKeyedContainer`` writes: a class, so that a kept container can be
/// pointed at another object (see ``JSONContainerBoxes``).
final class JSONStreamKeyedContainerState {
  let encoder: JSONStreamEncoder
  /// The object's frame.
  private(set) var index: Int
  /// The frame's identity, to tell a container kept after its object closed.
  private(set) var id: Int
  /// The coding path of the array or object that holds the object.
  private var base: JSONCodingPath
  /// The object's index or key in it.
  private var step: JSONPathStep
  /// The object's coding path, once asked for: most objects (those whose members are all
  /// scalars, and that throw no error) never make it.
  private var madePath: JSONCodingPath?

  /// The object's coding path.
  var path: JSONCodingPath {
    if case .none = step {
      return base
    }
    if let madePath {
      return madePath
    }
    let path = base.appending(step)
    madePath = path
    return path
  }

  init(
    encoder: JSONStreamEncoder, frame: (index: Int, id: Int), below base: JSONCodingPath,
    _ step: JSONPathStep
  ) {
    self.encoder = encoder
    index = frame.index
    id = frame.id
    self.base = base
    self.step = step
  }

  /// Points the state at the object frame `frame`, the member or element `step` of the array
  /// or object at `base`.
  ///
  /// The place is swapped in: `place` gets the state's last one, so that a caller's path moves
  /// in without a retain.
  @inline(__always)
  func point(
    at frame: (index: Int, id: Int),
    swapping place: inout (base: JSONCodingPath, step: JSONPathStep)
  ) {
    index = frame.index
    id = frame.id
    swap(&base, &place.base)
    swap(&step, &place.step)
    madePath = nil
  }
}
