/// The order in which the objects of a few plans last listed their members, kept by a
/// ``JSONDecodingBackend`` so that it can predict each member of the next object of a plan
/// (see ``JSONDecodingBackend/readMembers(of:)``).
///
/// For each ``PathTable``, a buffer of two entries per node, each a child node or `0` for none
/// known: at `2 × node` the first mapped member of the object at `node`, at `2 × child + 1` the
/// mapped member that followed `child`. Every entry is `0` or a child of the node whose object
/// wrote it, and a prediction is only taken when its name is the name read, so a wrong one costs
/// a comparison and never a wrong member.
///
/// A backend keeps the orders of the first table it reads in its own storage, with no
/// allocation (a top-level call that decodes one small model pays nothing more). A backend that
/// spare runs hand out runs the models of one depth of a document, often several types in turn
/// (a status's user, then its entities): the orders of the last ``capacity`` other tables are
/// kept here, each with a strong reference to its table, so a table's identity is never
/// another's while its orders are kept. Switching tables costs a look at those few references;
/// a table seen again after it was dropped starts with no predictions.
struct JSONMemberOrders {
  /// The orders of one table.
  private struct Entry {
    let table: PathTable
    let orders: UnsafeMutablePointer<Int32>
  }

  /// The most tables whose orders are kept.
  static let capacity = 8

  /// The kept orders, the oldest replaced first.
  private var entries: [Entry] = []
  /// The entry that a new table replaces once ``capacity`` are kept.
  private var nextReplaced = 0

  /// The orders of `table`: the kept ones, or new ones with no predictions.
  mutating func orders(for table: PathTable) -> UnsafeMutablePointer<Int32> {
    for entry in entries where entry.table === table {
      return entry.orders
    }
    let orders = UnsafeMutablePointer<Int32>.allocate(capacity: 2 &* Swift.max(table.count, 1))
    orders.initialize(repeating: 0, count: 2 &* Swift.max(table.count, 1))
    let entry = Entry(table: table, orders: orders)
    if entries.count < Self.capacity {
      entries.append(entry)
    } else {
      entries[nextReplaced].orders.deallocate()
      entries[nextReplaced] = entry
      nextReplaced = (nextReplaced &+ 1) % Self.capacity
    }
    return orders
  }

  /// Frees every kept buffer.
  mutating func removeAll() {
    for entry in entries {
      entry.orders.deallocate()
    }
    entries.removeAll()
    nextReplaced = 0
  }
}
