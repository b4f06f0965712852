/// Reading ``JSONValue`` straight from the tape: no containers, no coding keys, no errors to
/// catch; a document's value is built in one pass over its entries.
extension JSONValueDecoder {
  /// Decodes the value at `entry` as `T`, one of the JSON value types.
  ///
  /// - Throws: `typeMismatch` or `valueNotFound` at `path` when `T` is ``JSONValue/Number``
  ///   or ``JSONValue/Object`` and the value is of another kind.
  func unwrapJSONValue<T>(
    _ valueType: JSONValueType, _ entry: Int, as type: T.Type,
    at path: @autoclosure () -> JSONCodingPath
  ) throws -> T {
    switch valueType {
    case .value:
      return reinterpret(jsonValue(at: entry), as: T.self)
    case .number:
      return reinterpret(try unwrapJSONNumber(entry, at: path()), as: T.self)
    case .object:
      return reinterpret(try unwrapJSONObject(entry, at: path()), as: T.self)
    }
  }

  /// The number at `entry`, with its text.
  ///
  /// - Throws: `typeMismatch`, or `valueNotFound` for `null`, when the value is not a number.
  func unwrapJSONNumber(_ entry: Int, at path: @autoclosure () -> JSONCodingPath) throws
    -> JSONValue.Number
  {
    guard document.kind(entry) == .number else {
      throw mismatch(JSONValue.Number.self, entry, at: path())
    }
    return number(at: entry)
  }

  /// The members of the object at `entry`.
  ///
  /// - Throws: `typeMismatch`, or `valueNotFound` for `null`, when the value is not an object.
  func unwrapJSONObject(_ entry: Int, at path: @autoclosure () -> JSONCodingPath) throws
    -> JSONValue.Object
  {
    guard document.kind(entry) == .object, case .object(let members) = jsonValue(at: entry)
    else {
      throw mismatch(JSONValue.Object.self, entry, at: path())
    }
    return members
  }

  /// The number at `entry` (a number entry).
  private func number(at entry: Int) -> JSONValue.Number {
    // Validated by the scanner: ASCII, and a JSON number.
    JSONValue.Number(validText: String(decoding: document.span(entry), as: UTF8.self))
  }

  /// An array or an object being built.
  private struct OpenContainer {
    /// The tape entry after the container's last one.
    let end: Int
    let isObject: Bool
    /// Whether two members may have equal names (see ``mayRepeatNames(in:)``).
    let mayRepeatNames: Bool
    var elements: [JSONValue] = []
    var members: [(name: String, value: JSONValue)] = []
    /// The name of the member whose value is being read.
    var name = ""
  }

  /// The value at `entry`, built from the tape.
  ///
  /// A loop with a stack of the arrays and objects being built, not recursion: the depth of a
  /// document costs no stack (the scanner allows ``JSONScanner/maximumDepth`` levels).
  func jsonValue(at entry: Int) -> JSONValue {
    var open: [OpenContainer] = []
    var index = entry
    while true {
      var value: JSONValue
      if let last = open.indices.last, open[last].isObject {
        open[last].name = JSONStrings.string(at: index, in: document)
        index &+= 1
      }
      switch document.kind(index) {
      case .null:
        value = .null
        index &+= 1
      case .false:
        value = .bool(false)
        index &+= 1
      case .true:
        value = .bool(true)
        index &+= 1
      case .number:
        value = .number(number(at: index))
        index &+= 1
      case .string:
        value = .string(string(at: index))
        index &+= 1
      case .array:
        let count = document.memberCount(index)
        guard count > 0 else {
          value = .array([])
          index &+= 1
          break
        }
        var container = OpenContainer(
          end: document.next(index), isObject: false, mayRepeatNames: false)
        container.elements.reserveCapacity(count)
        open.append(container)
        index &+= 1
        continue
      case .object:
        let count = document.memberCount(index)
        guard count > 0 else {
          value = .object(JSONValue.Object())
          index &+= 1
          break
        }
        var container = OpenContainer(
          end: document.next(index), isObject: true, mayRepeatNames: mayRepeatNames(in: index))
        container.members.reserveCapacity(count)
        open.append(container)
        index &+= 1
        continue
      }
      // Hand the value to the container it is in, and finish the containers that end here.
      while let last = open.indices.last {
        if open[last].isObject {
          open[last].members.append((open[last].name, value))
        } else {
          open[last].elements.append(value)
        }
        guard index == open[last].end else { break }
        let finished = open.removeLast()
        if finished.isObject {
          value = .object(
            finished.mayRepeatNames
              ? JSONValue.Object(keepingFirst: finished.members)
              : JSONValue.Object(uniqueMembers: finished.members))
        } else {
          value = .array(finished.elements)
        }
      }
      if open.isEmpty {
        return value
      }
    }
  }
}
