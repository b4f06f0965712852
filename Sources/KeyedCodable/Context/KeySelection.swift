/// The keys of a model that a decode or an encode maps; its other mappings do nothing.
///
/// Made by ``MappingContext/selecting(_:in:)`` or ``Mapping/selecting(_:)``. Keys are key paths
/// as the document spells them (`"videogameId"`, `"stats.hoursPlayed"`), read with the default
/// options, so the lossy marker and other options of a mapping do not change its name. Selecting
/// an object (`"stats"`) selects every mapping below it.
struct KeySelection: Sendable, Hashable {
  /// The selected key paths, split into segments.
  let paths: [[String]]
  /// The keys as the caller wrote them, for messages.
  let names: [String]

  init(_ keys: [String]) {
    names = keys
    paths = keys.map { ParsedKey($0, options: .default).segments }
  }

  /// The positions of the selected paths that select a mapping at `path`, or an empty array
  /// when none does.
  func selectors(of path: [String]) -> [Int] {
    var found: [Int] = []
    for (position, selected) in paths.enumerated()
    where selected.count <= path.count && path.starts(with: selected) {
      found.append(position)
    }
    return found
  }
}

/// The model type a selection or a configuration handed to a mapping applies to: the value's own
/// type, or the element type of the optionals, arrays, sets and dictionaries around it.
func modelType(of type: Any.Type) -> Any.Type {
  var current = type
  // Bounded: each step unwraps one level of a finite type.
  while let wrapper = current as? any ModelWrapper.Type {
    current = wrapper.wrappedModelType
  }
  return current
}

/// Implemented by the standard generic types that hold values of another type.
protocol ModelWrapper {
  /// The type of the values held.
  static var wrappedModelType: Any.Type { get }
}

extension Optional: ModelWrapper {
  static var wrappedModelType: Any.Type { Wrapped.self }
}

extension Array: ModelWrapper {
  static var wrappedModelType: Any.Type { Element.self }
}

extension ContiguousArray: ModelWrapper {
  static var wrappedModelType: Any.Type { Element.self }
}

extension Set: ModelWrapper {
  static var wrappedModelType: Any.Type { Element.self }
}

extension Dictionary: ModelWrapper {
  static var wrappedModelType: Any.Type { Value.self }
}
