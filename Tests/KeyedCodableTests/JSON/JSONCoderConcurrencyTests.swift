import Foundation
import KeyedCodable
import Testing

/// One ``KeyedJSONDecoder`` and one ``KeyedJSONEncoder``, configured once, serve many tasks at
/// once: every result must be what a coder used by one task alone gives.
///
/// Run it under the thread sanitizer too:
/// `swift test --sanitize=thread --filter JSONCoderConcurrencyTests`.
@Suite(.timeLimit(.minutes(5)))
struct JSONCoderConcurrencyTests {
  static let taskCount = 8
  static let iterations = Stress.count(500)

  /// Compiler-synthesized `Codable`: keyed, unkeyed and single value containers, dates, a
  /// dictionary, names that the key strategies convert.
  struct Order: Codable, Equatable, Sendable {
    var orderNumber: Int
    var placedAt: Date
    var customer: Customer
    var lines: [Line]
    var notes: [String: String]
    var total: Double
  }

  struct Customer: Codable, Equatable, Sendable {
    var fullName: String
    var address: Address?
  }

  struct Address: Codable, Equatable, Sendable {
    var city: String
    var zipCode: String
  }

  struct Line: Codable, Equatable, Sendable {
    var sku: String
    var quantity: Int
  }

  /// A ``Keyedable`` view of the same document, read through key paths (of the names as the
  /// key strategy converts them: `order_number` is `orderNumber`).
  struct Summary: Codable, Keyedable, Equatable, Sendable {
    var id = 0
    var name = ""
    var city: String?
    var placedAt = Date(timeIntervalSince1970: 0)

    init() {}

    init(id: Int, name: String, city: String?, placedAt: Date) {
      self.id = id
      self.name = name
      self.city = city
      self.placedAt = placedAt
    }

    init(from decoder: any Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["orderNumber"]
      try name <-> map["customer.fullName"]
      try city <-> map["customer.address.city"]
      try placedAt <-> map["placedAt"]
    }
  }

  /// The order of one task's iteration: every task and iteration writes different values.
  static func order(task: Int, iteration: Int) -> Order {
    let id = task * 100_000 + iteration
    return Order(
      orderNumber: id,
      placedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(id) * 61),
      customer: Customer(
        fullName: "Customer \(id) \u{E9}",
        address: iteration % 3 == 0 ? nil : Address(city: "City \(task)", zipCode: "\(id)")),
      lines: (0..<(iteration % 4)).map { Line(sku: "sku-\(task)-\($0)", quantity: $0 + id) },
      notes: ["task": "\(task)", "iteration_\(iteration % 5)": "x/y"],
      total: Double(id) / 8)
  }

  /// What went wrong in one task.
  struct Mismatch: Error, CustomStringConvertible {
    var description: String
  }

  @Test func oneDecoderAndOneEncoderServeEightTasksAtOnce() async throws {
    let encoder = KeyedJSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    let decoder = KeyedJSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601

    let checked = try await withThrowingTaskGroup(of: Int.self) { group in
      for task in 0..<Self.taskCount {
        group.addTask {
          // The expected bytes: Foundation's encoder, one per task, with the same options.
          let reference = JSONEncoder()
          reference.outputFormatting = [.sortedKeys]
          reference.keyEncodingStrategy = .convertToSnakeCase
          reference.dateEncodingStrategy = .iso8601
          for iteration in 0..<Self.iterations {
            let order = Self.order(task: task, iteration: iteration)
            let data = try encoder.encode(order)
            guard data == (try reference.encode(order)) else {
              throw Mismatch(description: "task \(task), iteration \(iteration): encoded bytes")
            }
            guard try decoder.decode(Order.self, from: data) == order else {
              throw Mismatch(description: "task \(task), iteration \(iteration): decoded order")
            }
            // The key paths of a Keyedable type, matched against the converted names.
            let summary = try decoder.decode(Summary.self, from: data)
            let expected = Summary(
              id: order.orderNumber, name: order.customer.fullName,
              city: order.customer.address?.city,
              placedAt: order.placedAt)
            guard summary == expected else {
              throw Mismatch(description: "task \(task), iteration \(iteration): summary")
            }
          }
          return Self.iterations
        }
      }
      var total = 0
      for try await count in group {
        total += count
      }
      return total
    }
    #expect(checked == Self.taskCount * Self.iterations)
  }
}
