extension DecodingError {
  /// The same error, of the same kind, with its context changed by `change`; `self` when
  /// `change` returns `nil`.
  func withContext(_ change: (Context) -> Context?) -> DecodingError {
    switch self {
    case .typeMismatch(let type, let context):
      change(context).map { .typeMismatch(type, $0) } ?? self
    case .valueNotFound(let type, let context):
      change(context).map { .valueNotFound(type, $0) } ?? self
    case .keyNotFound(let key, let context):
      change(context).map { .keyNotFound(key, $0) } ?? self
    case .dataCorrupted(let context):
      change(context).map { .dataCorrupted($0) } ?? self
    @unknown default:
      self
    }
  }
}
