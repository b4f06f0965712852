/// Finds the Unicode encoding of a JSON document, as Foundation's `JSONDecoder` does.
///
/// RFC 8259 requires UTF-8 between systems, but Foundation also reads UTF-16 and UTF-32, with or
/// without a byte-order mark: the first bytes tell the encoding (a document starts with an ASCII
/// character, so the zero bytes of its first code unit give it away). A UTF-8 byte-order mark is
/// skipped.
enum JSONEncodingDetection {
  /// The document as UTF-8.
  enum UTF8Bytes {
    /// The bytes are UTF-8 (without a byte-order mark, which ``JSONScanner`` skips).
    case asIs
    /// The document was UTF-16 or UTF-32; these are its UTF-8 bytes.
    case transcoded([UInt8])
    /// The document was UTF-16 or UTF-32 with an invalid code unit at this byte offset.
    case invalid(offset: Int)

    /// The number of UTF-8 bytes of the document whose input is `source`.
    func length(of source: UnsafeRawBufferPointer) -> Int {
      switch self {
      case .asIs: source.count
      case .transcoded(let transcoded): transcoded.count
      case .invalid: 0
      }
    }
  }

  /// The UTF-8 bytes of `source`.
  static func utf8Bytes(of source: UnsafeRawBufferPointer) -> UTF8Bytes {
    let count = source.count
    func byte(_ index: Int) -> UInt8 { index < count ? source[index] : 0xFF }
    let b0 = byte(0)
    let b1 = byte(1)
    let b2 = byte(2)
    let b3 = byte(3)
    if count >= 4, b0 == 0, b1 == 0, b2 == 0xFE, b3 == 0xFF {
      return transcode(source, dropping: 4, unit: 4, bigEndian: true)
    }
    if count >= 4, b0 == 0xFF, b1 == 0xFE, b2 == 0, b3 == 0 {
      return transcode(source, dropping: 4, unit: 4, bigEndian: false)
    }
    if count >= 2, b0 == 0xFE, b1 == 0xFF {
      return transcode(source, dropping: 2, unit: 2, bigEndian: true)
    }
    if count >= 2, b0 == 0xFF, b1 == 0xFE {
      return transcode(source, dropping: 2, unit: 2, bigEndian: false)
    }
    if count >= 4, b0 == 0, b1 == 0, b2 == 0, b3 != 0 {
      return transcode(source, dropping: 0, unit: 4, bigEndian: true)
    }
    if count >= 4, b0 != 0, b1 == 0, b2 == 0, b3 == 0 {
      return transcode(source, dropping: 0, unit: 4, bigEndian: false)
    }
    if count >= 2, b0 == 0, b1 != 0 {
      return transcode(source, dropping: 0, unit: 2, bigEndian: true)
    }
    if count >= 2, b0 != 0, b1 == 0 {
      return transcode(source, dropping: 0, unit: 2, bigEndian: false)
    }
    return .asIs
  }

  private static func transcode(
    _ source: UnsafeRawBufferPointer, dropping prefix: Int, unit: Int, bigEndian: Bool
  ) -> UTF8Bytes {
    var utf8: [UInt8] = []
    utf8.reserveCapacity(source.count)
    let units = (source.count - prefix) / unit
    guard (source.count - prefix) % unit == 0 else {
      return .invalid(offset: source.count - (source.count - prefix) % unit)
    }
    func codeUnit(_ index: Int) -> UInt32 {
      var value: UInt32 = 0
      let start = prefix + index * unit
      for position in 0..<unit {
        let byte = UInt32(source[start + (bigEndian ? position : unit - 1 - position)])
        value = value << 8 | byte
      }
      return value
    }
    if unit == 4 {
      for index in 0..<units {
        guard let scalar = Unicode.Scalar(codeUnit(index)) else {
          return .invalid(offset: prefix + index * unit)
        }
        if let encoded = UTF8.encode(scalar) {
          utf8.append(contentsOf: encoded)
        }
      }
      return .transcoded(utf8)
    }
    var failed = false
    let codeUnits = (0..<units).lazy.map { UInt16(truncatingIfNeeded: codeUnit($0)) }
    failed = Swift.transcode(
      codeUnits.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true
    ) { utf8.append($0) }
    return failed ? .invalid(offset: prefix) : .transcoded(utf8)
  }
}
