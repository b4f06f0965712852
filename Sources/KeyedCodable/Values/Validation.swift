import Foundation

/// A condition a decoded value must meet; a value that does not is rejected.
///
/// Use a rule with ``Mapping/validate(_:)-(ValidationRule<Value>)``; a value that breaks it throws
/// `DecodingError.dataCorrupted` at the value's full coding path, with a message that names the
/// rule and shows the value. With ``Mapping/validateEach(_:)`` and the lossy marker, elements of
/// an array that break the rule are dropped and reported instead.
///
/// ```swift
/// try age <-> map["age"].validate(.range(0...150))
/// try name <-> map["name"].trimmed().validate(.nonEmpty)
/// try code <-> map["code"].validate(.pattern("^[A-Z]{3}$"))
/// try tags <-> map["tags"].validate(.count(1...10))
/// try email <-> map["email"].validate("contains @") { $0.contains("@") }
/// ```
public struct ValidationRule<Value>: @unchecked Sendable {
  // Unchecked: a rule made with the public initializer holds a `@Sendable` closure; the built-in
  // rules hold closures that capture only `Sendable` values and the type's own metadata, which
  // is immutable (the compiler cannot see that the metatype of a generic parameter is safe).

  /// The rule as a short phrase, used in messages: `in 0...150`.
  public let name: String
  /// Whether a value meets the rule.
  private let check: (Value) -> Bool

  /// Creates a rule.
  ///
  /// - Parameters:
  ///   - name: The rule as a short phrase for messages, such as `"a valid email"`.
  ///   - check: Whether a value meets the rule.
  public init(_ name: String, _ check: @escaping @Sendable (Value) -> Bool) {
    self.name = name
    self.check = check
  }

  /// A built-in rule, whose closure captures only `Sendable` values.
  private init(builtIn name: String, _ check: @escaping (Value) -> Bool) {
    self.name = name
    self.check = check
  }

  /// Whether `value` meets the rule.
  ///
  /// - Parameter value: The value.
  /// - Returns: `true` when it does.
  public func isSatisfied(by value: Value) -> Bool {
    check(value)
  }
}

extension ValidationRule where Value: Comparable & Sendable {
  /// A value within `range`.
  ///
  /// - Parameter range: The allowed values.
  /// - Returns: The rule.
  public static func range(_ range: ClosedRange<Value>) -> ValidationRule {
    ValidationRule(builtIn: "in \(range.lowerBound)...\(range.upperBound)") { range.contains($0) }
  }

  /// A value of at least `minimum`.
  ///
  /// - Parameter minimum: The smallest allowed value.
  /// - Returns: The rule.
  public static func atLeast(_ minimum: Value) -> ValidationRule {
    let allowed = minimum...
    return ValidationRule(builtIn: "at least \(minimum)") { allowed.contains($0) }
  }

  /// A value of at most `maximum`.
  ///
  /// - Parameter maximum: The largest allowed value.
  /// - Returns: The rule.
  public static func atMost(_ maximum: Value) -> ValidationRule {
    let allowed = ...maximum
    return ValidationRule(builtIn: "at most \(maximum)") { allowed.contains($0) }
  }
}

extension ValidationRule where Value: Collection {
  /// A string or collection with at least one element.
  public static var nonEmpty: ValidationRule {
    ValidationRule(builtIn: "not empty") { !$0.isEmpty }
  }

  /// A string or collection whose number of elements (characters, for a string) is in `range`.
  ///
  /// - Parameter range: The allowed counts.
  /// - Returns: The rule.
  public static func count(_ range: ClosedRange<Int>) -> ValidationRule {
    ValidationRule(builtIn: "with \(range.lowerBound)...\(range.upperBound) elements") {
      range.contains($0.count)
    }
  }
}

extension ValidationRule where Value == String {
  /// A string that the regular expression `pattern` matches as a whole.
  ///
  /// The expression is compiled once per pattern and shared; an invalid pattern rejects every
  /// value, and its message says the pattern is invalid.
  ///
  /// - Parameter pattern: An `NSRegularExpression` pattern.
  /// - Returns: The rule.
  public static func pattern(_ pattern: String) -> ValidationRule {
    let expression = CompiledPatterns.shared.expression(for: pattern)
    let name =
      expression == nil
      ? "matching \(CodingPathText.quoted(pattern)) (an invalid pattern)"
      : "matching \(CodingPathText.quoted(pattern))"
    return ValidationRule(builtIn: name) { value in
      guard let expression = expression?.expression else { return false }
      let range = NSRange(value.startIndex..<value.endIndex, in: value)
      guard let match = expression.firstMatch(in: value, options: [.anchored], range: range)
      else { return false }
      return match.range == range
    }
  }
}

/// Compiled regular expressions, one per pattern, shared by every rule made with it.
final class CompiledPatterns: Sendable {
  static let shared = CompiledPatterns()

  /// A compiled expression, shareable: `NSRegularExpression` is immutable and documented as
  /// safe to use from many threads.
  struct Compiled: @unchecked Sendable {
    let expression: NSRegularExpression
  }

  private let cache = Locked<[String: Compiled?]>([:])

  /// The compiled expression for `pattern`, or `nil` when it is invalid.
  func expression(for pattern: String) -> Compiled? {
    if let cached = cache.withLock({ $0[pattern] }) {
      return cached
    }
    let compiled = (try? NSRegularExpression(pattern: pattern)).map(Compiled.init)
    cache.withLock { $0[pattern] = compiled }
    return compiled
  }
}

/// The error of a value that breaks a ``ValidationRule``.
public struct ValidationError: Error, Sendable, CustomStringConvertible, Equatable {
  /// The rule, as a short phrase.
  public let rule: String
  /// The rejected value as text, shortened when long.
  public let value: String

  /// The message, such as `The value 200 breaks the rule "in 0...150".`.
  public var description: String {
    "The value \(value) breaks the rule \"\(rule)\"."
  }
}

/// Rejects values that break a rule; made by ``Mapping/validate(_:)-(ValidationRule<Value>)``.
public struct ValidatingTransform<Value: Codable>: ValueTransform {
  /// The rule.
  public let rule: ValidationRule<Value>

  /// Creates the transform.
  ///
  /// - Parameter rule: The rule values must meet.
  public init(_ rule: ValidationRule<Value>) {
    self.rule = rule
  }

  /// The value, when it meets the rule.
  ///
  /// - Parameter value: The value.
  /// - Returns: The same value.
  /// - Throws: ``ValidationError`` when it breaks the rule.
  public func decode(_ value: Value) throws -> Value {
    guard rule.isSatisfied(by: value) else {
      throw ValidationError(
        rule: rule.name, value: CodingPathText.shown(value))
    }
    return value
  }

  /// The value, unchanged: rules check what is decoded.
  ///
  /// - Parameter value: The value.
  /// - Returns: The same value.
  public func encode(_ value: Value) -> Value { value }
}

extension Mapping {
  /// This mapping, rejecting values that break `rule`.
  ///
  /// - Parameter rule: The rule.
  /// - Returns: A mapping for a property of the rule's type.
  public func validate<Value: Codable>(_ rule: ValidationRule<Value>)
    -> ValueMapping<ValidatingTransform<Value>>
  {
    using(ValidatingTransform(rule))
  }

  /// This mapping, rejecting values for which `check` returns `false`.
  ///
  /// - Parameters:
  ///   - name: The rule as a short phrase for messages.
  ///   - check: Whether a value is valid.
  /// - Returns: A mapping for a property of the closure's type.
  public func validate<Value: Codable>(
    _ name: String = "custom rule", _ check: @escaping @Sendable (Value) -> Bool
  ) -> ValueMapping<ValidatingTransform<Value>> {
    using(ValidatingTransform(ValidationRule(name, check)))
  }

  /// This mapping, rejecting array elements that break `rule`; with the lossy marker
  /// (`"* scores"`), they are dropped and reported instead of failing the decode.
  ///
  /// - Parameter rule: The rule each element must meet.
  /// - Returns: A mapping for an array property.
  public func validateEach<Element: Codable>(_ rule: ValidationRule<Element>)
    -> ValueMapping<ArrayTransform<ValidatingTransform<Element>>>
  {
    using(.array(ValidatingTransform(rule)))
  }
}

extension ValueMapping where Transform.Value: Codable {
  /// This mapping, rejecting values its transform makes that break `rule`.
  ///
  /// - Parameter rule: The rule.
  /// - Returns: The mapping with the rule after its transform.
  public func validate(_ rule: ValidationRule<Transform.Value>)
    -> ValueMapping<ChainedTransform<Transform, ValidatingTransform<Transform.Value>>>
  {
    then(ValidatingTransform(rule))
  }

  /// This mapping, rejecting values its transform makes for which `check` returns `false`.
  ///
  /// - Parameters:
  ///   - name: The rule as a short phrase for messages.
  ///   - check: Whether a value is valid.
  /// - Returns: The mapping with the rule after its transform.
  public func validate(
    _ name: String = "custom rule", _ check: @escaping @Sendable (Transform.Value) -> Bool
  ) -> ValueMapping<ChainedTransform<Transform, ValidatingTransform<Transform.Value>>> {
    then(ValidatingTransform(ValidationRule(name, check)))
  }
}
