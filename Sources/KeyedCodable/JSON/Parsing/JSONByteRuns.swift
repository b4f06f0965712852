#if arch(x86_64) && canImport(_Builtin_intrinsics) && !KEYED_CODABLE_WORD_RUNS
  internal import _Builtin_intrinsics.intel
#endif

/// Finds where a run of plain bytes ends, sixteen bytes at a look on x86-64 (SSE2, which every
/// x86-64 processor has; sixty-four at a step inside long strings) and eight elsewhere.
///
/// Building with `-Xswiftc -DKEYED_CODABLE_WORD_RUNS` takes the eight-byte path on x86-64 too, so
/// that its tests run there.
///
/// Each function reads ``width`` bytes at its pointer (``stringRunLength(_:available:)`` reads on
/// to the end of the run), so the caller must own that many bytes there: a ``JSONDocument`` is
/// followed by ``JSONDocument/padding`` zero bytes, and a zero byte ends every run, so a scan
/// reaches the end of a document and no further.
enum JSONByteRuns {
  #if arch(x86_64) && canImport(_Builtin_intrinsics) && !KEYED_CODABLE_WORD_RUNS
    /// The bytes one look covers.
    static let width = 16
  #else
    /// The bytes one look covers.
    static let width = 8
  #endif

  /// The length of the plain run inside a string that starts at `pointer`: the offset of the
  /// first byte that ends it, a quote, a backslash, a control character or a byte outside
  /// ASCII.
  ///
  /// Looks ``width`` bytes at a time; on x86-64, after two looks of plain bytes, sixty-four at a
  /// time while `available` bytes allow, so that long texts are scanned at several bytes a
  /// cycle: the next look's address never waits for the last look's result. The caller must own
  /// `available` bytes at `pointer` and, past them, bytes up to a byte that ends every run (a
  /// ``JSONDocument``'s padding).
  @inline(__always)
  static func stringRunLength(_ pointer: UnsafeRawPointer, available: Int) -> Int {
    #if arch(x86_64) && canImport(_Builtin_intrinsics) && !KEYED_CODABLE_WORD_RUNS
      let first = stringStopMarks(pointer)
      if first != 0 {
        return first.trailingZeroBitCount
      }
      // Most member names and many texts end in the second look.
      let second = stringStopMarks(pointer + width)
      if second != 0 {
        return width &+ second.trailingZeroBitCount
      }
      var offset = 2 &* width
      while offset &+ 4 &* width <= available {
        let looks = (
          stringStops(pointer + offset), stringStops(pointer + (offset &+ 16)),
          stringStops(pointer + (offset &+ 32)), stringStops(pointer + (offset &+ 48))
        )
        let any = _mm_or_si128(_mm_or_si128(looks.0, looks.1), _mm_or_si128(looks.2, looks.3))
        if _mm_movemask_epi8(any) != 0 {
          let found =
            UInt64(marks(looks.0)) | UInt64(marks(looks.1)) &<< 16 | UInt64(marks(looks.2)) &<< 32
            | UInt64(marks(looks.3)) &<< 48
          return offset &+ found.trailingZeroBitCount
        }
        offset &+= 4 &* width
      }
      while true {
        let found = stringStopMarks(pointer + offset)
        if found != 0 {
          return offset &+ found.trailingZeroBitCount
        }
        offset &+= width
      }
    #else
      var offset = 0
      while true {
        let word = UInt64(littleEndian: (pointer + offset).loadUnaligned(as: UInt64.self))
        let stops = stringStops(in: word)
        if stops != 0 {
          return offset &+ stops.trailingZeroBitCount &>> 3
        }
        offset &+= width
      }
    #endif
  }

  /// The number of spaces (U+0020) that start the ``width`` bytes at `pointer`: ``width`` when
  /// they are all spaces.
  @inline(__always)
  static func leadingSpaces(_ pointer: UnsafeRawPointer) -> Int {
    #if arch(x86_64) && canImport(_Builtin_intrinsics) && !KEYED_CODABLE_WORD_RUNS
      let others = _mm_xor_si128(
        _mm_cmpeq_epi8(load(pointer), _mm_set1_epi8(0x20)), _mm_set1_epi8(-1))
      return firstMarked(others)
    #else
      let word = UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self))
      return (word ^ 0x2020_2020_2020_2020).trailingZeroBitCount &>> 3
    #endif
  }

  /// The offset of the first of the ``width`` bytes at `pointer` that JSON text must escape (a
  /// quote, a backslash, a control character, or a slash when `slashes` is true), or ``width``
  /// when none must be.
  ///
  /// Bytes outside ASCII are written as they are.
  @inline(__always)
  static func escapeStop(_ pointer: UnsafeRawPointer, slashes: Bool) -> Int {
    #if arch(x86_64) && canImport(_Builtin_intrinsics) && !KEYED_CODABLE_WORD_RUNS
      let bytes = load(pointer)
      // A byte is a control character when the smaller of it and 0x1F is the byte itself.
      var stops = _mm_or_si128(
        _mm_or_si128(
          _mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x22)), _mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x5C))),
        _mm_cmpeq_epi8(_mm_min_epu8(bytes, _mm_set1_epi8(0x1F)), bytes))
      if slashes {
        stops = _mm_or_si128(stops, _mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x2F)))
      }
      return firstMarked(stops)
    #else
      let word = UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self))
      return escapeStops(in: word, slashes: slashes).trailingZeroBitCount &>> 3
    #endif
  }

  /// The high bit of each of the eight bytes of `word` (read little-endian) that may end a plain
  /// run inside a string (see ``stringRunLength(_:available:)``); `0` when none does.
  ///
  /// Uses the byte-wise comparisons of Sean Eron Anderson's "Bit Twiddling Hacks": the lowest
  /// marked byte is always one of those, and no such byte goes unmarked; a byte above a marked one
  /// may be marked wrongly (a borrow), so only the lowest mark may be used.
  @inline(__always)
  static func stringStops(in word: UInt64) -> UInt64 {
    (quoteBackslashOrControl(in: word) | word) & (ones &* 0x80)
  }

  /// The high bit of each of the eight bytes of `word` (read little-endian) that JSON text may
  /// have to escape (see ``escapeStop(_:slashes:)``); `0` when none must be.
  ///
  /// As with ``stringStops(in:)``, only the lowest mark may be used; bytes outside ASCII are
  /// never marked.
  @inline(__always)
  static func escapeStops(in word: UInt64, slashes: Bool) -> UInt64 {
    var stops = quoteBackslashOrControl(in: word)
    if slashes {
      let slash = word ^ (ones &* 0x2F)
      stops |= (slash &- ones) & ~slash
    }
    return stops & ~word & (ones &* 0x80)
  }

  /// One in each byte of a word.
  @inline(__always)
  private static var ones: UInt64 { 0x0101_0101_0101_0101 }

  /// The unmasked marks of the quotes, backslashes and control characters among the eight bytes
  /// of `word`, shared by ``stringStops(in:)`` and ``escapeStops(in:slashes:)``.
  ///
  /// A byte's high bit is set when it is one of those, and may also be set for a byte at or above
  /// 0x80 or above a marked byte (a borrow): each caller masks what it needs.
  @inline(__always)
  private static func quoteBackslashOrControl(in word: UInt64) -> UInt64 {
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let hasQuote = (quote &- ones) & ~quote
    let hasBackslash = (backslash &- ones) & ~backslash
    return hasQuote | hasBackslash | ((word &- ones &* 0x20) & ~word)
  }

  #if arch(x86_64) && canImport(_Builtin_intrinsics) && !KEYED_CODABLE_WORD_RUNS
    /// The bytes of the sixteen at `pointer` that end a plain run inside a string, each all ones
    /// (see ``stringRunLength(_:available:)``).
    @inline(__always)
    private static func stringStops(_ pointer: UnsafeRawPointer) -> __m128i {
      let bytes = load(pointer)
      // As signed bytes, the bytes outside ASCII are negative: one comparison with the space
      // finds them and the control characters.
      return _mm_or_si128(
        _mm_or_si128(
          _mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x22)), _mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x5C))),
        _mm_cmplt_epi8(bytes, _mm_set1_epi8(0x20)))
    }

    /// One bit for each of the sixteen bytes at `pointer`, set for a byte that ends a plain run
    /// inside a string; `0` when none does.
    @inline(__always)
    private static func stringStopMarks(_ pointer: UnsafeRawPointer) -> UInt32 {
      marks(stringStops(pointer))
    }

    /// One bit for each byte of a comparison's result, set where the byte is marked.
    @inline(__always)
    private static func marks(_ mask: __m128i) -> UInt32 {
      UInt32(bitPattern: _mm_movemask_epi8(mask))
    }

    /// The sixteen bytes at `pointer`, at any alignment.
    @inline(__always)
    private static func load(_ pointer: UnsafeRawPointer) -> __m128i {
      pointer.loadUnaligned(as: __m128i.self)
    }

    /// The index of the first byte of `mask` whose bits are set (a comparison's result), or 16.
    @inline(__always)
    private static func firstMarked(_ mask: __m128i) -> Int {
      // The bit above the sixteen makes an empty mask count 16.
      Int(
        truncatingIfNeeded: (UInt32(bitPattern: _mm_movemask_epi8(mask)) | 0x1_0000)
          .trailingZeroBitCount)
    }
  #endif
}
