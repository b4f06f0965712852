/// Writing ``JSONValue`` straight into the output: numbers as their text, strings, arrays and
/// objects through the encoder's frames (so pretty-printing and sorted keys apply), without a
/// container or a coding key per value.
extension JSONStreamEncoder {
  /// Writes `value`, of one of the JSON value types.
  ///
  /// - Throws: `EncodingError.invalidValue` when the value is nested deeper than the decoders
  ///   read.
  func writeJSONValue<T>(
    _ value: T, as valueType: JSONValueType, at path: () -> JSONCodingPath
  ) throws {
    switch valueType {
    case .value:
      try write(reinterpret(value, as: JSONValue.self), at: path)
    case .number:
      write(reinterpret(value, as: JSONValue.Number.self))
    case .object:
      try write(.object(reinterpret(value, as: JSONValue.Object.self)), at: path)
    }
  }

  /// Whether `encoder` is one of the encoders of a stream, whose single value containers write
  /// a JSON value straight into the output.
  static func writesJSONValues(_ encoder: any Encoder) -> Bool {
    encoder is JSONStreamEncoder || encoder is JSONSlotEncoder || encoder is JSONSuperEncoder
  }

  /// Writes a number's text.
  private func write(_ number: JSONValue.Number) {
    if number.text.utf8.withContiguousStorageIfAvailable({ writer.append(contentsOf: $0) }) == nil {
      writer.append(contentsOf: number.text.utf8)
    }
  }

  /// An array or an object being written.
  private struct OpenValue {
    /// The elements of an array.
    let elements: [JSONValue]
    /// The members of an object.
    let members: JSONValue.Object?
    /// The next element or member to write.
    var position = 0
    /// The array's or object's frame.
    let frame: (index: Int, id: Int)
  }

  /// Writes `value`.
  ///
  /// A loop with a stack of the arrays and objects being written, not recursion: a value as
  /// deep as the decoders read costs no stack.
  private func write(_ value: JSONValue, at path: () -> JSONCodingPath) throws {
    var open: [OpenValue] = []
    var next = value
    while true {
      switch next {
      case .null:
        writer.null()
      case .bool(let bool):
        writer.bool(bool)
      case .number(let number):
        write(number)
      case .string(let string):
        writer.string(string)
      case .array(let elements):
        guard frames.count < Self.maximumDepth else {
          throw Self.tooDeep(next, at: self.path(of: open, below: path()))
        }
        open.append(
          OpenValue(elements: elements, members: nil, frame: pushFrame(object: false)))
      case .object(let members):
        guard frames.count < Self.maximumDepth else {
          throw Self.tooDeep(next, at: self.path(of: open, below: path()))
        }
        open.append(OpenValue(elements: [], members: members, frame: pushFrame(object: true)))
      }
      // The next element or member of the innermost open value, closing those that are done.
      while let last = open.indices.last {
        let position = open[last].position
        let frame = open[last].frame
        if let members = open[last].members {
          if position < members.count {
            let member = members[position]
            try beginMember(frame.index, id: frame.id, name: member.name, mayRepeat: false)
            open[last].position = position &+ 1
            next = member.value
            break
          }
        } else if position < open[last].elements.count {
          try beginElement(frame.index, id: frame.id)
          open[last].position = position &+ 1
          next = open[last].elements[position]
          break
        }
        try closeFrames(above: frame.index)
        open.removeLast()
      }
      // Nothing left open: the value is written. Otherwise `next` is the next one to write.
      if open.isEmpty {
        return
      }
    }
  }

  /// The coding path of the value being written inside the `open` values, below `base`.
  private func path(of open: [OpenValue], below base: JSONCodingPath) -> JSONCodingPath {
    var path = base
    for value in open {
      // `position` is past the element or member being written.
      let current = value.position &- 1
      if let members = value.members {
        path = path.appending(dictionaryMemberKey(members[current].name))
      } else {
        path = path.appending(index: current)
      }
    }
    return path
  }
}
