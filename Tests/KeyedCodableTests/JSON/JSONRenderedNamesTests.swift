import Testing

@testable import KeyedCodable

/// The member names an encode keeps as written: each name found is written exactly as it was,
/// with its fingerprint, whichever slot of its pair it took.
struct JSONRenderedNamesTests {
  /// Writes `name` as a member name and offers it to `names`; returns its written bytes.
  func offer(_ name: String, to names: JSONRenderedNames, hasher: JSONNameIndex.NameHasher)
    -> [UInt8]
  {
    let writer = JSONWriter(prettyPrinted: false, escapesSlashes: true)
    writer.string(name)
    return writer.withBytes { bytes in
      names.keep(name, written: bytes.baseAddress!, count: bytes.count, hasher: hasher)
      return Array(bytes)
    }
  }

  @Test func everyNameFoundIsWrittenAsItWasKept() {
    let names = JSONRenderedNames()
    let hasher = JSONNameIndex.NameHasher.shared
    // Small strings, whose representation (so their slots) is their bytes, then longer ones
    // with escapes, which find the slots mostly taken.
    let all =
      (0..<400).map { "name \($0)" } + (0..<100).map { "a longer \"name\" number \($0)" }
    let written = all.map { offer($0, to: names, hasher: hasher) }
    var found = 0
    for (name, bytes) in zip(all, written) {
      guard let rendered = names.rendered(name) else { continue }
      found += 1
      let writer = JSONWriter(prettyPrinted: false, escapesSlashes: true)
      names.write(rendered, to: writer)
      #expect(writer.withBytes { Array($0) } == bytes)
      #expect(
        rendered.fingerprint
          == bytes.withUnsafeBufferPointer {
            hasher.fingerprint($0.baseAddress!, count: $0.count)
          })
      #expect(rendered.isASCII)
    }
    // The first 31 names offered are not kept; of the next 369, most find one of their two
    // slots free (a slot of their own would keep about 195 of them in 256 slots).
    #expect(found > 205 && found <= 256)
    #expect(names.rendered("never offered") == nil)
  }
}
