// Mistakes of form: a missing `try`, a `let` or get-only property, a property that is not
// Codable, a mapping on the left of its operator. Checked by Scripts/diagnostics.sh with
// `swiftc -typecheck -verify`; each annotation is the message the compiler gives.

import Foundation
import KeyedCodable

struct NotCodable {}

struct WrongShapes: Codable, Keyedable {
  var name = ""
  var count = 0
  var date = Date()
  // expected-note@+2 {{change 'let' to 'var' to make it mutable}}
  // expected-note@+1 {{change 'let' to 'var' to make it mutable}}
  let id = 0
  var thing = NotCodable()
  var shout: String { name.uppercased() }

  mutating func map(map: KeyMap) throws {
    // A mapping operator throws.
    // expected-error@+4 {{operator can throw but expression is not marked with 'try'}}
    // expected-note@+3 {{did you mean to use 'try'?}}
    // expected-note@+2 {{did you mean to handle error as optional value?}}
    // expected-note@+1 {{did you mean to disable error propagation?}}
    name <-> map["name"]
    // Decoding writes the property.
    // expected-error@+1 {{left side of mutating operator isn't mutable: 'id' is a 'let' constant}}
    try id <-> map["id"]
    // expected-error@+1 {{left side of mutating operator isn't mutable: 'id' is a 'let' constant}}
    try id <<- map["id"]
    // expected-error@+1 {{left side of mutating operator isn't mutable: 'shout' is a get-only property}}
    try shout <-> map["shout"]
    // The property must be Codable.
    // expected-error@+2 {{operator function '<->' requires that 'NotCodable' conform to 'Decodable'}}
    // expected-error@+1 {{operator function '<->' requires that 'NotCodable' conform to 'Encodable'}}
    try thing <-> map["thing"]
    // The property goes on the left, the mapping on the right.
    // expected-error@+1 {{'<<-' is unavailable: the property goes on the left and the mapping on the right: 'try value <<- map["key"]' decodes only, 'try value ->> map["key"]' encodes only}}
    try map["id"] <<- count
    // expected-error@+1 {{'->>' is unavailable: the property goes on the left and the mapping on the right: 'try value ->> map["key"]' encodes only, 'try value <<- map["key"]' decodes only}}
    try map["id"] ->> count
    // expected-error@+1 {{'<->' is unavailable: the property goes on the left and the mapping on the right: 'try value <-> map["key"]'}}
    try map["id"] <-> count
    // expected-error@+1 {{'<?>' is unavailable: the property goes on the left and the mapping on the right: 'try value <?> map["key"]'}}
    try map["id"] <?> count
    // expected-error@+1 {{'<->' is unavailable: the property goes on the left and the mapping on the right: 'try value <-> map["key"].using(...)'}}
    try map["created"].using(.iso8601) <-> date
    // expected-error@+1 {{'->>' is unavailable: the property goes on the left and the mapping on the right: 'try value ->> map["key"].using(...)' encodes only, 'try value <<- map["key"].using(...)' decodes only}}
    try map["created"].using(.iso8601) ->> date
  }
}
