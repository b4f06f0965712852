// Mapping operators written the wrong way round: `map["id"] <<- id`. Each overload below takes
// the mapping on the left, where no real operator does, so correct code never reaches one (they
// do not make a correct mapping ambiguous) and a reversed one gets a message that says what to
// write instead of "left side of mutating operator isn't mutable".
//
// A property of the wrong type is reported by the real operators (see ValueOperators.swift).

/// Unavailable: the property goes on the left, `try value <-> map["key"]`.
@available(
  *, unavailable,
  message:
    "the property goes on the left and the mapping on the right: 'try value <-> map[\"key\"]'"
)
public func <-> <Value>(left: Mapping, right: Value) throws {}

/// Unavailable: the property goes on the left, `try value <<- map["key"]` to decode only or
/// `try value ->> map["key"]` to encode only.
@available(
  *, unavailable,
  message:
    "the property goes on the left and the mapping on the right: 'try value <<- map[\"key\"]' decodes only, 'try value ->> map[\"key\"]' encodes only"
)
public func <<- <Value>(left: Mapping, right: Value) throws {}

/// Unavailable: the property goes on the left, `try value ->> map["key"]` to encode only or
/// `try value <<- map["key"]` to decode only.
@available(
  *, unavailable,
  message:
    "the property goes on the left and the mapping on the right: 'try value ->> map[\"key\"]' encodes only, 'try value <<- map[\"key\"]' decodes only"
)
public func ->> <Value>(left: Mapping, right: Value) throws {}

/// Unavailable: the property goes on the left, `try value <?> map["key"]`.
@available(
  *, unavailable,
  message:
    "the property goes on the left and the mapping on the right: 'try value <?> map[\"key\"]'"
)
public func <?> <Value>(left: Mapping, right: Value) throws {}

/// Unavailable: the property goes on the left, `try value <<? map["key"]`.
@available(
  *, unavailable,
  message:
    "the property goes on the left and the mapping on the right: 'try value <<? map[\"key\"]'"
)
public func <<? <Value>(left: Mapping, right: Value) throws {}

/// Unavailable: the property goes on the left, `try value ?>> map["key"]`.
@available(
  *, unavailable,
  message:
    "the property goes on the left and the mapping on the right: 'try value ?>> map[\"key\"]'"
)
public func ?>> <Value>(left: Mapping, right: Value) throws {}

/// Unavailable: the property goes on the left, `try value <-> map["key"].using(...)`.
@available(
  *, unavailable,
  message:
    "the property goes on the left and the mapping on the right: 'try value <-> map[\"key\"].using(...)'"
)
public func <-> <Transform, Value>(left: ValueMapping<Transform>, right: Value) throws {}

/// Unavailable: the property goes on the left, `try value <<- map["key"].using(...)`.
@available(
  *, unavailable,
  message:
    "the property goes on the left and the mapping on the right: 'try value <<- map[\"key\"].using(...)' decodes only, 'try value ->> map[\"key\"].using(...)' encodes only"
)
public func <<- <Transform, Value>(left: ValueMapping<Transform>, right: Value) throws {}

/// Unavailable: the property goes on the left, `try value ->> map["key"].using(...)`.
@available(
  *, unavailable,
  message:
    "the property goes on the left and the mapping on the right: 'try value ->> map[\"key\"].using(...)' encodes only, 'try value <<- map[\"key\"].using(...)' decodes only"
)
public func ->> <Transform, Value>(left: ValueMapping<Transform>, right: Value) throws {}
