extension UnsafeBufferPointer<UInt8> {
  /// Whether every byte is ASCII (below 0x80): all of them are read, with no early exit, as
  /// the short names this checks are read fastest.
  @inline(__always)
  var isAllASCII: Bool {
    var any: UInt8 = 0
    for byte in self {
      any |= byte
    }
    return any < 0x80
  }
}
