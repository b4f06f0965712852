import Foundation
import KeyedCodable
import XCTest

/// A record of the streaming tests, decoded through synthesized code.
struct StreamRecord: Codable, Equatable, Sendable {
  var id: Int
  var name: String
}

/// A record mapped with key paths.
struct MappedStreamRecord: Codable, Keyedable, Equatable, Sendable {
  var id = 0
  var city = ""

  mutating func map(map: KeyMap) throws {
    try id <-> map["id"]
    try city <-> map["address.city"]
  }
}

/// A file with `text` in it, removed when the test ends.
func temporaryFile(_ text: String, _ test: XCTestCase) throws -> URL {
  try temporaryFile(Data(text.utf8), test)
}

/// A file with `data` in it, removed when the test ends.
func temporaryFile(_ data: Data, _ test: XCTestCase) throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("keyed-stream-\(UUID().uuidString).json")
  try data.write(to: url)
  test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
  return url
}

/// An empty file to write to, and its handle, both closed and removed when the test ends.
func temporaryOutput(_ test: XCTestCase) throws -> (URL, FileHandle) {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("keyed-stream-out-\(UUID().uuidString).json")
  _ = FileManager.default.createFile(atPath: url.path, contents: nil)
  let handle = try FileHandle(forWritingTo: url)
  test.addTeardownBlock {
    try? handle.close()
    try? FileManager.default.removeItem(at: url)
  }
  return (url, handle)
}

/// Every value a reader gives, and the error that ended it, if any.
func readAll<T>(_ reader: JSONElementReader<T>) -> (values: [T], error: (any Error)?) {
  var values: [T] = []
  do {
    while let value = try reader.read() {
      values.append(value)
    }
    return (values, nil)
  } catch {
    return (values, error)
  }
}

/// Every value an asynchronous sequence gives, and the error that ended it, if any.
func readAll<T>(_ elements: JSONAsyncElements<T>) async -> (values: [T], error: (any Error)?) {
  var values: [T] = []
  do {
    for try await value in elements {
      values.append(value)
    }
    return (values, nil)
  } catch {
    return (values, error)
  }
}

/// `bytes` in chunks of `size` bytes, as an asynchronous sequence.
struct Chunks: AsyncSequence, Sendable {
  typealias Element = [UInt8]
  let bytes: [UInt8]
  let size: Int

  struct AsyncIterator: AsyncIteratorProtocol {
    let bytes: [UInt8]
    let size: Int
    var position = 0

    mutating func next() async throws -> [UInt8]? {
      guard position < bytes.count else { return nil }
      let end = Swift.min(bytes.count, position + size)
      defer { position = end }
      return Array(bytes[position..<end])
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(bytes: bytes, size: size)
  }
}

/// The coding path of an error, as text (`data.items[2].name`).
func pathText(_ error: (any Error)?) -> String? {
  let path: [any CodingKey]
  switch error {
  case DecodingError.dataCorrupted(let context)?: path = context.codingPath
  case DecodingError.keyNotFound(let key, let context)?: path = context.codingPath + [key]
  case DecodingError.typeMismatch(_, let context)?: path = context.codingPath
  case DecodingError.valueNotFound(_, let context)?: path = context.codingPath
  case EncodingError.invalidValue(_, let context)?: path = context.codingPath
  default: return nil
  }
  var text = ""
  for key in path {
    if let index = key.intValue {
      text += "[\(index)]"
    } else {
      text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
    }
  }
  return text
}

/// The debug description of a decoding error.
func message(_ error: (any Error)?) -> String {
  switch error {
  case DecodingError.dataCorrupted(let context)?: context.debugDescription
  case DecodingError.keyNotFound(_, let context)?: context.debugDescription
  case DecodingError.typeMismatch(_, let context)?: context.debugDescription
  case DecodingError.valueNotFound(_, let context)?: context.debugDescription
  case EncodingError.invalidValue(_, let context)?: context.debugDescription
  default: String(describing: error)
  }
}
