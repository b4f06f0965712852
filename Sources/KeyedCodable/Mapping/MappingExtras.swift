/// What a ``Mapping`` does besides reading and writing its value.
///
/// Kept out of line, in one optional reference, so a plain mapping stays small and the fast
/// paths only check that it is `nil`.
@usableFromInline
final class MappingExtras {
  /// Changes to the context for the value of the mapping, given the value's type.
  var scope: ((inout MappingContext, Any.Type) -> Void)?
  /// Whether the scope needs a run of the models below to look at the context when it starts.
  var scopeAffectsRuns = false
  /// The conversions the mapping may use when the value has another type (`nil`: those of the
  /// context).
  var conversions: Conversions?
  /// Whether a `nil` optional is written as `null` (`nil`: as the context says).
  var explicitNull: Bool?
  /// Whether the value the mapping sees is printed while decoding.
  var debug = false

  init() {}

  /// A copy, for a mapping made from another one.
  func copy() -> MappingExtras {
    let copy = MappingExtras()
    copy.scope = scope
    copy.scopeAffectsRuns = scopeAffectsRuns
    copy.conversions = conversions
    copy.explicitNull = explicitNull
    copy.debug = debug
    return copy
  }
}

extension Mapping {
  /// This mapping with `change` applied to a copy of its extras.
  func withExtras(_ change: (MappingExtras) -> Void) -> Mapping {
    var mapping = self
    let extras = self.extras?.copy() ?? MappingExtras()
    change(extras)
    mapping.extras = extras
    return mapping
  }

  /// This mapping with one more change to the context of its value.
  func scoped(affectsRuns: Bool, _ change: @escaping (inout MappingContext, Any.Type) -> Void)
    -> Mapping
  {
    withExtras { extras in
      if let previous = extras.scope {
        extras.scope = { context, type in
          previous(&context, type)
          change(&context, type)
        }
      } else {
        extras.scope = change
      }
      extras.scopeAffectsRuns = extras.scopeAffectsRuns || affectsRuns
    }
  }

  // MARK: - Context for the value

  /// This mapping, handing `configuration` to the value it maps.
  ///
  /// The models decoded or encoded for this mapping, and those below them, read it with
  /// ``KeyMap/configuration(_:)`` instead of a configuration of the same type given by the
  /// caller. Works for a single model and for the elements of an array or dictionary of them:
  ///
  /// ```swift
  /// try videogames <-> map["videogames"].configured(with: VideogameConfiguration(showRatings: false))
  /// ```
  ///
  /// - Parameter configuration: A value of any `Sendable` type.
  /// - Returns: A copy of the mapping that hands the configuration down.
  public func configured<Configuration: Sendable>(with configuration: Configuration) -> Mapping {
    scoped(affectsRuns: false) { context, _ in
      context.configurations.set(configuration)
    }
  }

  /// This mapping, restricting the models it maps to the keys in `keys`.
  ///
  /// The models are those of the mapped value: the value itself, or the elements of an array,
  /// set or dictionary, or the value of an optional. See
  /// ``MappingContext/selecting(_:in:)-swift.type.method`` for what a selection does.
  ///
  /// ```swift
  /// try games ->> map["games"].selecting(["videogameId", "personalRating", "hoursPlayed"])
  /// ```
  ///
  /// - Parameter keys: Key paths as the document spells them.
  /// - Returns: A copy of the mapping that selects keys in the value.
  public func selecting(_ keys: [String]) -> Mapping {
    let selection = KeySelection(keys)
    return scoped(affectsRuns: true) { context, valueType in
      context.selections[ObjectIdentifier(modelType(of: valueType))] = selection
    }
  }

  // MARK: - Writing nil

  /// This mapping, writing `null` when its optional value is `nil` instead of leaving the key
  /// out.
  ///
  /// ```swift
  /// var middleName: String?
  /// try middleName <-> map["middleName"].explicitNull()   // {"middleName": null}
  /// ```
  ///
  /// A required mapping (``required()``) still throws for `nil`.
  ///
  /// - Parameter enabled: Whether `nil` is written as `null`; `false` leaves the key out even
  ///   when the context asks for explicit nulls.
  /// - Returns: A copy of the mapping.
  public func explicitNull(_ enabled: Bool = true) -> Mapping {
    withExtras { $0.explicitNull = enabled }
  }
}
