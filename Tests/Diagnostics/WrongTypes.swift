// Mistakes of type: a transform, modifier, rule or default whose values are not of the
// property's type. Checked by Scripts/diagnostics.sh with `swiftc -typecheck -verify`; each
// annotation is the message the compiler gives for the line below it.

import Foundation
import KeyedCodable

protocol Animal {}
struct Dog: Animal, Codable {}

extension TypeRegistry where Base == any Animal {
  static let animals = TypeRegistry(typeKey: "type", ["dog": Dog.self])
}

struct WrongTypes: Codable, Keyedable {
  var name = ""
  var optionalName: String?
  var count = 0
  var optionalCount: Int?
  var numbers: [Int] = []
  var strings: [String] = []
  var date = Date()
  var url = URL(fileURLWithPath: "/")
  var presence: Presence<String> = .absent

  mutating func map(map: KeyMap) throws {
    // A transform of another type, with each operator.
    // expected-error@+1 {{operator function '<->' requires the types 'String' and 'Date' be equivalent}}
    try name <-> map["created"].using(.iso8601)
    // expected-error@+1 {{operator function '<<-' requires the types 'String' and 'Date' be equivalent}}
    try name <<- map["created"].using(.iso8601)
    // expected-error@+1 {{cannot convert value of type 'String' to expected argument type 'Date'}}
    try name ->> map["created"].using(.iso8601)
    // expected-error@+1 {{operator function '<?>' requires the types 'String' and 'Date' be equivalent}}
    try name <?> map["created"].using(.iso8601)
    // A transform of another type on optional storage and on a Presence.
    // expected-error@+1 {{operator function '<->' requires the types 'String?' and 'Date' be equivalent}}
    try optionalName <-> map["created"].using(.iso8601)
    // expected-error@+1 {{operator function '<->' requires the types 'Presence<String>' and 'Date' be equivalent}}
    try presence <-> map["created"].using(.iso8601)
    // A transform that makes an optional value, on a non-optional property.
    // expected-error@+1 {{operator function '<->' requires the types 'String' and 'String?' be equivalent}}
    try name <-> map["nickname"].trimmedNilIfEmpty()
    // A transform of arrays on a single value, and of an enumeration on an Int.
    // expected-error@+1 {{operator function '<->' requires the types 'URL' and '[URL]' be equivalent}}
    try url <-> map["links"].using(.array(.url))
    // expected-error@+1 {{static method 'rawValue(_:fallback:)' requires that 'Int' conform to 'RawRepresentable'}}
    try count <-> map["level"].using(.rawValue())
    // A modifier on the wrong type, and after a transform of the wrong type.
    // expected-error@+1 {{operator function '<->' requires the types 'Int' and 'String' be equivalent}}
    try count <-> map["count"].trimmed()
    // expected-error@+1 {{operator function '<->' requires the types 'Int?' and 'String' be equivalent}}
    try optionalCount <-> map["count"].trimmed()
    // expected-error@+2 {{operator function '<->' requires the types 'Date' and 'String' be equivalent}}
    // expected-error@+1 {{referencing instance method 'trimmed()' on 'ValueMapping' requires the types 'Date' and 'String' be equivalent}}
    try date <-> map["created"].using(.iso8601).trimmed()
    // expected-error@+2 {{operator function '<->' requires the types 'Int' and '[Element]' be equivalent}}
    // expected-error@+1 {{generic parameter 'Element' could not be inferred}}
    try count <-> map["count"].sorted()
    // A polymorphic mapping on a property that is not of the registry's base type.
    // expected-error@+1 {{operator function '<->' requires the types 'String' and '[any Animal]' be equivalent}}
    try name <-> map["pet"].polymorphic(.animals)
    // expected-error@+1 {{operator function '<->' requires the types 'Int?' and '[any Animal]' be equivalent}}
    try optionalCount <-> map["pet"].polymorphic(.animals)
    // A rule on a value it cannot check.
    // expected-error@+1 {{'nonEmpty' is unavailable: 'nonEmpty' checks a String or a collection, and the value this rule checks is neither; with validateEach(_:) the rule checks each element of the array}}
    try numbers <-> map["numbers"].validateEach(.nonEmpty)
    // expected-error@+1 {{'nonEmpty' is unavailable: 'nonEmpty' checks a String or a collection, and the value this rule checks is neither; with validateEach(_:) the rule checks each element of the array}}
    try count <-> map["count"].validate(.nonEmpty)
    // expected-error@+1 {{'count' is unavailable: 'count(_:)' checks a String or a collection, and the value this rule checks is neither; with validateEach(_:) the rule checks each element of the array}}
    try count <-> map["count"].validate(.count(1...3))
    // expected-error@+1 {{'pattern' is unavailable: 'pattern(_:)' checks a String, and the value this rule checks is not one; with validateEach(_:) the rule checks each element of the array}}
    try numbers <-> map["numbers"].validateEach(.pattern("^[0-9]+$"))
    // expected-error@+2 {{operator function '<->' requires the types 'String' and '[Element]' be equivalent}}
    // expected-error@+1 {{generic parameter 'Element' could not be inferred}}
    try name <-> map["name"].validateEach(.nonEmpty)
    // A default of the wrong type.
    // expected-error@+1 {{cannot convert value of type 'String' to expected argument type 'Int'}}
    try count <-> map["count"].default("zero")
    // expected-error@+1 {{cannot convert value of type 'String' to expected argument type 'Date'}}
    try date <-> map["created"].using(.iso8601).default("now")
    // expected-error@+1 {{'nil' is not compatible with expected argument type 'Int'}}
    try count <-> map["count"].default(nil, when: .invalid)
    // Still poor: a rule, range or closure whose type comes from literals or the closure itself
    // fails in more than one place against the ValueMapping overloads, and the compiler reports
    // the conversion to the plain mapping instead (see Tests/Diagnostics/README.md).
    // expected-error@+1 {{cannot convert value of type 'ValueMapping<ValidatingTransform<Int>>' to expected argument type 'Mapping'}}
    try name <-> map["name"].validate(.range(0...10))
    // expected-error@+1 {{cannot convert value of type 'ValueMapping<ClampedTransform<Int>>' to expected argument type 'Mapping'}}
    try name <-> map["name"].clamped(to: 0...10)
    // expected-error@+2 {{cannot convert value of type 'ValueMapping<ModifiedTransform<Value>>' to expected argument type 'Mapping'}}
    // expected-error@+1 {{cannot infer type of closure parameter '$0' without a type annotation}}
    try count <-> map["count"].modified { $0.lowercased() }
    // expected-error@+1 {{cannot convert value of type 'ValueMapping<ArrayTransform<ValidatingTransform<Int>>>' to expected argument type 'Mapping'}}
    try strings <-> map["strings"].validateEach(.range(0...3))
  }
}
