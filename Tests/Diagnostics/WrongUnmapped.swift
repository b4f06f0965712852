// Unmapped members connected to what can't hold them: Scripts/diagnostics.sh checks each message.

import KeyedCodable

struct WrongUnmapped: Codable, Keyedable {
  var name = ""
  var counts: [String: Int] = [:]

  mutating func map(map: KeyMap) throws {
    // expected-error@+1 {{cannot convert value of type 'UnmappedMembers' to expected argument type 'Mapping'}}
    try name <-> map.unmapped
    // expected-error@+2 {{cannot convert value of type '[String : Int]' to expected argument type '[String : JSONValue]'}}
    // expected-note@+1 {{arguments to generic parameter 'Value' ('Int' and 'JSONValue') are expected to be equal}}
    try counts <-> map.unmapped
  }
}
