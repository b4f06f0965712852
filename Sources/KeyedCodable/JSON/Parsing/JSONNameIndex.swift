/// Hash indexes of the member names of large objects, so a lookup costs one probe whatever the
/// order members are read in, and whatever the names are.
///
/// Synthesized `Codable` models read an object's members in their own order, which is seldom the
/// document's (Foundation's `JSONEncoder` writes members in hash order). Scanning for each member
/// would cost a comparison per member already passed; an object of ``minimumCount`` members or
/// more gets an index the first time a member is looked up by name in it.
///
/// The worst case is bounded, whatever a document holds:
///
/// - **Names are hashed whole, with a secret.** ``NameHasher`` mixes every byte of a name with
///   a seed drawn at random once per process, so a document can't be written to make names
///   collide; an index is probed linearly, at most half full.
/// - **An index that probes too long anyway is replaced** by a dictionary of the names as
///   strings (Swift's `Hasher`, also seeded per process), so even bad luck costs a constant
///   factor, never a quadratic build.
/// - **Names with escapes or outside ASCII** (``JSONDocument/hasComplexNames``) are indexed as
///   decoded strings, since two spellings of one text are one name, as Foundation compares them.
/// - **An object is indexed at most twice per decode.** Indexes are kept in a small ``Cache``
///   of eight slots rather than one per object, so a document of many large objects holds only
///   the few indexes of the objects being read at once; an object whose index gave way and that
///   is read again is indexed once more and then kept for the rest of the decode. Indexing work
///   is therefore at most twice the size of the objects looked up, and the indexes kept are at
///   most a few words per member of the document.
///
/// A plain index is its capacity's worth of slots of two words: the member's name entry plus one
/// (`0` for an empty slot) and the low half of the name's fingerprint, probed linearly from the
/// high half. A name that repeats is indexed once, at its first member, as Foundation's
/// `JSONDecoder` reads the first.
enum JSONNameIndex {
  /// The fewest members an object needs for an index: smaller objects are scanned.
  static let minimumCount = 8

  /// A name's length and its first and last eight bytes (the same word for names of up to eight
  /// bytes, zeros after the name): two names of up to 16 bytes are equal exactly when these are;
  /// longer names also compare the bytes between.
  struct NameWords: Equatable {
    let head: UInt64
    let tail: UInt64
    let count: Int

    /// The words of the empty name.
    static let empty = NameWords(head: 0, tail: 0, count: 0)

    private init(head: UInt64, tail: UInt64, count: Int) {
      self.head = head
      self.tail = tail
      self.count = count
    }

    /// The words of the `count` bytes at `start`.
    @inline(__always)
    init(_ start: UnsafePointer<UInt8>, count: Int) {
      head = NameWords.load(start, count: Swift.min(count, 8))
      tail = count > 8 ? NameWords.load(start + (count &- 8), count: 8) : head
      self.count = count
    }

    /// The words of the `count` bytes at `start` inside a ``JSONDocument``, whose padding lets
    /// eight bytes be read from any position of the document.
    @inline(__always)
    init(inDocument start: UnsafePointer<UInt8>, count: Int) {
      let word = UInt64(littleEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self))
      head =
        count >= 8 ? word : word & ((1 &<< (UInt64(truncatingIfNeeded: count) &* 8)) &- 1)
      tail =
        count > 8
        ? UInt64(
          littleEndian: UnsafeRawPointer(start + (count &- 8)).loadUnaligned(as: UInt64.self))
        : head
      self.count = count
    }

    /// Up to eight bytes at `start`, as the low bytes of a word.
    @inline(__always)
    private static func load(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
      let raw = UnsafeRawPointer(start)
      if count == 8 {
        return UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
      }
      // Two loads that overlap for fewer bytes than twice their size: the bytes they share are
      // the same bytes, at the same places of the word.
      if count >= 4 {
        let first = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
        let last = UInt64(
          UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
        return first | last &<< (UInt64(truncatingIfNeeded: count &- 4) &* 8)
      }
      guard count > 0 else { return 0 }
      let middle = count &>> 1
      return UInt64(start[0]) | UInt64(start[middle]) &<< (UInt64(truncatingIfNeeded: middle) &* 8)
        | UInt64(start[count &- 1]) &<< (UInt64(truncatingIfNeeded: count &- 1) &* 8)
    }
  }

  /// Hashes member names: every byte of a name, mixed with a secret seed.
  ///
  /// The seed is drawn once per process (``shared``), so which names share a fingerprint can't
  /// be known from outside, and a document can't be made to fill an index with collisions. The
  /// mixing is a 64 × 64 → 128-bit multiply folded to 64 bits, per 16 bytes of name (the
  /// construction of wyhash); a name of up to 16 bytes costs one multiply more than reading its
  /// ``NameWords``.
  struct NameHasher: Sendable {
    private let seed0: UInt64
    private let seed1: UInt64

    /// The hasher of this process, seeded on first use from the standard library's `Hasher`,
    /// whose seed is random per process like `Set`'s and `Dictionary`'s (and fixed, as theirs,
    /// when the `SWIFT_DETERMINISTIC_HASHING` environment variable is set, so that profiles
    /// of two builds compare).
    static let shared: NameHasher = {
      // Two hashes per word, so that a 32-bit `Int` still gives 64 bits.
      func hash(_ salt: UInt64, _ half: UInt64) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(salt)
        hasher.combine(half)
        return UInt64(truncatingIfNeeded: hasher.finalize())
      }
      func word(_ salt: UInt64) -> UInt64 { hash(salt, 0) &<< 32 ^ hash(salt, 1) }
      return NameHasher(seed0: word(0x6b65_7965_6430), seed1: word(0x6b65_7965_6431) | 1)
    }()

    /// A hasher with a given seed, for tests.
    init(seed0: UInt64, seed1: UInt64) {
      self.seed0 = seed0
      self.seed1 = seed1
    }

    /// The fingerprint of the name whose words are `words` and whose bytes are at `start`
    /// (read only for names longer than 16 bytes): equal names have equal fingerprints.
    ///
    /// A name of up to 16 bytes is all in its words; a longer one is read in blocks of 16 bytes
    /// from its start, and its last 16 bytes end it, so that every byte counts.
    @inline(__always)
    func fingerprint(_ words: NameWords, at start: UnsafePointer<UInt8>) -> UInt64 {
      guard words.count > 16 else {
        return finish(words.head, words.tail, count: words.count, state: seed0)
      }
      let raw = UnsafeRawPointer(start)
      let last = words.count &- 16
      return finish(
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: last, as: UInt64.self)),
        words.tail, count: words.count, state: middle(start, count: words.count))
    }

    /// The fingerprint of a name of up to 16 bytes, whose words are `words`.
    @inline(__always)
    func fingerprint(shortName words: NameWords) -> UInt64 {
      finish(words.head, words.tail, count: words.count, state: seed0)
    }

    /// The fingerprint of the `count` bytes at `start`.
    @inline(__always)
    func fingerprint(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
      fingerprint(NameWords(start, count: count), at: start)
    }

    /// The fingerprint of a name inside a ``JSONDocument``, whose padding lets eight bytes be read
    /// from any position of the document (or in any buffer with eight readable bytes after the
    /// name, such as ``JSONWriter``'s after a ``JSONWriter/reserve(_:)``).
    @inline(__always)
    func fingerprint(inDocument start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
      fingerprint(NameWords(inDocument: start, count: count), at: start)
    }

    /// A fingerprint of the `count` bytes at `start`, 16 or more, from their first and last 16
    /// bytes only: equal strings have equal ones, in constant time whatever their length, but
    /// strings that differ only in their middle too.
    @inline(__always)
    func fingerprint(ends start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
      let raw = UnsafeRawPointer(start)
      /// Two words in one, the second turned so that swapping them changes the result.
      func fold(_ offset: Int) -> UInt64 {
        let second = raw.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
        return raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          ^ (second &>> 29 | second &<< 35)
      }
      return finish(fold(0), fold(count &- 16), count: count, state: seed0)
    }

    /// The state after the bytes of a name longer than 16 bytes, but for its last 16, in blocks
    /// of 16 (the last 16, which ``finish(_:_:count:state:)`` mixes in, may overlap the last
    /// block: that changes nothing about which names are equal).
    @inline(__always)
    private func middle(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
      var state = seed0
      var index = 0
      let raw = UnsafeRawPointer(start)
      while count &- index > 16 {
        let low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let high = UInt64(
          littleEndian: raw.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self))
        state = Self.mix(low ^ seed1, high ^ state)
        index &+= 16
      }
      return state
    }

    @inline(__always)
    private func finish(_ head: UInt64, _ tail: UInt64, count: Int, state: UInt64) -> UInt64 {
      let (high, low) = (head ^ seed1).multipliedFullWidth(by: tail ^ state)
      return Self.mix(low ^ seed0 ^ UInt64(truncatingIfNeeded: count), high ^ seed1)
    }

    /// The 128-bit product of two words, folded to 64 bits.
    @inline(__always)
    private static func mix(_ lhs: UInt64, _ rhs: UInt64) -> UInt64 {
      let (high, low) = lhs.multipliedFullWidth(by: rhs)
      return high ^ low
    }
  }

  /// The index of one object's member names, kept for the rest of a decode (see ``Cache``).
  enum Index {
    /// An open-addressing table of plain names (see ``buildTable(for:in:hasher:into:)``), and
    /// whether the object repeats a name.
    case bytes([UInt32], repeats: Bool)
    /// The value entries by name as a string (see ``buildStrings(for:in:)``), and whether the
    /// object repeats a name.
    case strings([String: Int], repeats: Bool)

    var repeats: Bool {
      switch self {
      case .bytes(_, let repeats), .strings(_, let repeats): repeats
      }
    }
  }

  /// The indexes of the large objects looked up by name in one decode, by object.
  ///
  /// Eight slots picked by the object's entry hold the indexes of the objects read last: the
  /// objects one decode reads at once (a value and the values around it) seldom share one. An
  /// object's first index goes into its slot; an object indexed before whose index gave way is
  /// indexed again into ``kept``, where it stays for the rest of the decode. So no object is
  /// indexed more than twice, whatever order the decode reads objects in.
  struct Cache {
    /// For each slot, the object whose index it holds, or `-1`; empty until the first index (a
    /// decode of small objects allocates nothing).
    private var objects: [Int] = []
    /// For each slot, whether its object repeats a name.
    private var repeats: [Bool] = []
    /// For each slot, its table of plain names (storage reused from object to object); empty
    /// when the slot's index is in ``strings``.
    private var tables: [[UInt32]] = []
    /// For each slot whose object is indexed by strings, its index.
    private var strings: [Int: [String: Int]] = [:]
    /// One bit per tape entry, set for the objects indexed once in this decode (made on the first
    /// index).
    private var indexedOnce: [UInt64] = []
    /// The indexes of objects indexed a second time, by object.
    private var kept: [Int: Index] = [:]
    /// The hasher of the names.
    let hasher = NameHasher.shared
    /// The members of the objects indexed so far, counted once per index made: at most twice
    /// the members of the objects looked up.
    private(set) var indexedMembers = 0

    /// Whether no object was indexed yet.
    var isEmpty: Bool { indexedOnce.isEmpty }

    @inline(__always)
    private static func slot(of object: Int) -> Int {
      (object ^ (object &>> 3) ^ (object &>> 7)) & 7
    }

    /// The value entry of the first member named `name` in the object at `object`, indexing it
    /// first if needed.
    ///
    /// `bytes`, when given, is `name`'s UTF-8, so that a name is not copied to be compared with
    /// plain names.
    mutating func member(
      _ name: String, bytes: UnsafeBufferPointer<UInt8>?, in object: Int, document: JSONDocument
    ) -> Int? {
      let slot = Self.slot(of: object)
      if objects.isEmpty || objects[slot] != object {
        guard index(object, slot: slot, in: document) else {
          return Self.member(name, bytes: bytes, in: kept[object], document, hasher)
        }
      }
      guard !tables[slot].isEmpty else {
        return strings.isEmpty ? nil : strings[slot]?[name]
      }
      let hasher = hasher
      guard let bytes else {
        var name = name
        return name.withUTF8 { bytes in
          tables[slot].withUnsafeBufferPointer { Self.lookUp(bytes, in: $0, document, hasher) }
        }
      }
      return tables[slot].withUnsafeBufferPointer { Self.lookUp(bytes, in: $0, document, hasher) }
    }

    /// Whether the object at `object` repeats a name.
    mutating func repeatsNames(in object: Int, document: JSONDocument) -> Bool {
      let slot = Self.slot(of: object)
      if objects.isEmpty || objects[slot] != object {
        guard index(object, slot: slot, in: document) else {
          return kept[object]?.repeats ?? false
        }
      }
      return repeats[slot]
    }

    /// Indexes `object`, whose slot holds another object's: into the slot, or into ``kept`` if
    /// it was indexed before.
    ///
    /// - Returns: Whether the index is in the slot.
    private mutating func index(_ object: Int, slot: Int, in document: JSONDocument) -> Bool {
      guard kept[object] == nil else { return false }
      let word = object &>> 6
      let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: object & 63)
      if indexedOnce.isEmpty {
        indexedOnce = [UInt64](repeating: 0, count: (document.entryCount &+ 63) &>> 6)
        objects = [Int](repeating: -1, count: 8)
        repeats = [Bool](repeating: false, count: 8)
        tables = [[UInt32]](repeating: [], count: 8)
      }
      indexedMembers &+= document.memberCount(object)
      if indexedOnce[word] & bit != 0 {
        kept[object] = JSONNameIndex.build(for: object, in: document, hasher: hasher)
        return false
      }
      indexedOnce[word] |= bit
      objects[slot] = object
      if document.flags(object) & JSONDocument.hasComplexNames == 0,
        let repeated = JSONNameIndex.buildTable(
          for: object, in: document, hasher: hasher, into: &tables[slot])
      {
        repeats[slot] = repeated
        if !strings.isEmpty { strings[slot] = nil }
      } else {
        tables[slot].removeAll(keepingCapacity: true)
        let index = JSONNameIndex.buildStrings(for: object, in: document)
        repeats[slot] = index.repeats
        if case .strings(let entries, _) = index {
          strings[slot] = entries
        }
      }
      return true
    }

    /// The value entry of the member named `name` in `index`.
    private static func member(
      _ name: String, bytes: UnsafeBufferPointer<UInt8>?, in index: Index?,
      _ document: JSONDocument, _ hasher: NameHasher
    ) -> Int? {
      switch index {
      case .bytes(let table, _):
        guard let bytes else {
          var name = name
          return name.withUTF8 { bytes in
            table.withUnsafeBufferPointer { lookUp(bytes, in: $0, document, hasher) }
          }
        }
        return table.withUnsafeBufferPointer { lookUp(bytes, in: $0, document, hasher) }
      case .strings(let entries, _):
        return entries[name]
      case nil:
        return nil
      }
    }

    /// The value entry of the member whose plain name is `bytes`, in a table of plain names.
    @inline(__always)
    private static func lookUp(
      _ bytes: UnsafeBufferPointer<UInt8>, in table: UnsafeBufferPointer<UInt32>,
      _ document: JSONDocument, _ hasher: NameHasher
    ) -> Int? {
      let fingerprint =
        bytes.baseAddress.map { hasher.fingerprint($0, count: bytes.count) }
        ?? hasher.fingerprint(shortName: .empty)
      let mask = table.count / 2 &- 1
      let low = UInt32(truncatingIfNeeded: fingerprint)
      var position = Int(truncatingIfNeeded: fingerprint &>> 32) & mask
      while true {
        let entry = Int(table[position &* 2])
        guard entry != 0 else { return nil }
        if table[position &* 2 &+ 1] == low,
          JSONStrings.plainName(at: entry &- 1, in: document, equals: bytes)
        {
          return entry
        }
        position = (position &+ 1) & mask
      }
    }
  }

  /// Indexes the member names of the object at `object`: a table of plain names, or, for an
  /// object with escaped or non-ASCII names or a table that probes too long, a dictionary of
  /// decoded names.
  static func build(for object: Int, in document: JSONDocument, hasher: NameHasher) -> Index {
    if document.flags(object) & JSONDocument.hasComplexNames == 0 {
      var table: [UInt32] = []
      if let repeats = buildTable(for: object, in: document, hasher: hasher, into: &table) {
        return .bytes(table, repeats: repeats)
      }
    }
    return buildStrings(for: object, in: document)
  }

  /// Indexes the plain names of the object at `object` into `table` (whose storage is reused).
  ///
  /// - Returns: Whether the object repeats a name (the table then has its first member); `nil`
  ///   when the table probes more than a few slots per name, bad luck that the seeded hash
  ///   makes as good as impossible: the names are then indexed as strings.
  static func buildTable(
    for object: Int, in document: JSONDocument, hasher: NameHasher, into table: inout [UInt32]
  ) -> Bool? {
    let count = document.memberCount(object)
    var capacity = 16
    while capacity < count &* 2 { capacity &*= 2 }
    table.removeAll(keepingCapacity: true)
    table.append(contentsOf: repeatElement(0, count: capacity &* 2))
    let mask = capacity &- 1
    var repeats = false
    // Linear probing at most half full takes 2.5 probes per name on average at worst: many times
    // more means that the names collide.
    var probesLeft = count &* 8 &+ 64
    let built = table.withUnsafeMutableBufferPointer { table in
      var name = object &+ 1
      let end = document.next(object)
      while name < end {
        let fingerprint = hasher.fingerprint(
          inDocument: document.bytes + document.offset(name), count: document.length(name))
        let low = UInt32(truncatingIfNeeded: fingerprint)
        var slot = Int(truncatingIfNeeded: fingerprint &>> 32) & mask
        while true {
          let taken = Int(table[slot &* 2])
          if taken == 0 {
            table[slot &* 2] = UInt32(truncatingIfNeeded: name &+ 1)
            table[slot &* 2 &+ 1] = low
            break
          }
          if table[slot &* 2 &+ 1] == low, sameName(taken &- 1, name, in: document) {
            repeats = true
            break
          }
          probesLeft &-= 1
          guard probesLeft > 0 else { return false }
          slot = (slot &+ 1) & mask
        }
        name = document.next(name &+ 1)
      }
      return true
    }
    guard built else {
      table.removeAll(keepingCapacity: true)
      return nil
    }
    return repeats
  }

  /// Indexes the names of the object at `object` as decoded strings, compared as Swift compares
  /// strings (canonical equivalence), as Foundation's `JSONDecoder` compares them.
  static func buildStrings(for object: Int, in document: JSONDocument) -> Index {
    let count = document.memberCount(object)
    var entries: [String: Int] = [:]
    entries.reserveCapacity(count)
    var name = object &+ 1
    let end = document.next(object)
    while name < end {
      let text = JSONStrings.string(at: name, in: document)
      if entries[text] == nil {
        entries[text] = name &+ 1
      }
      name = document.next(name &+ 1)
    }
    return .strings(entries, repeats: entries.count < count)
  }

  /// Whether the plain names at entries `lhs` and `rhs` have the same bytes.
  @inline(__always)
  static func sameName(_ lhs: Int, _ rhs: Int, in document: JSONDocument) -> Bool {
    let length = document.length(lhs)
    guard length == document.length(rhs) else { return false }
    return length == 0
      || JSONStrings.equal(
        document.bytes + document.offset(lhs), document.bytes + document.offset(rhs),
        count: length)
  }
}
