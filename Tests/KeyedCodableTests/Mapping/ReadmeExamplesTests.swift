import Foundation
import KeyedExamples
import Testing

/// Every example of the KeyedCodable README, decoded, checked value by value, encoded and decoded
/// again.
@Suite(.bothCoders) struct ReadmeExamplesTests {
  @Test func coordinateReadsANestedKeyPath() throws {
    let coordinate = try roundTrip(Coordinate.self, Example.coordinate.json)
    #expect(coordinate.latitude == 51.5)
    #expect(coordinate.longitude == -0.12)
    #expect(coordinate.elevation == 11.2)
    try expectEncoded(
      coordinate, #"{"latitude":51.5,"longitude":-0.12,"additionalInfo":{"elevation":11.2}}"#)
  }

  @Test func innerExampleReadsKeyPathsFromCodingKeys() throws {
    let inner = try roundTrip(InnerExample.self, Example.inner.json)
    #expect(inner.greeting == "Hello")
    #expect(inner.description == "Two levels down")
    try expectEncoded(
      inner, #"{"inner":{"greeting":"Hello","details":{"description":"Two levels down"}}}"#)
  }

  @Test func stringKeysMapLikeCodingKeys() throws {
    let inner = try roundTrip(InnerStringKeysExample.self, Example.inner.json)
    #expect(inner.greeting == "Hello")
    #expect(inner.description == "Two levels down")
    try expectEncoded(
      inner, #"{"inner":{"greeting":"Hello","details":{"description":"Two levels down"}}}"#)
  }

  @Test func flatExampleGroupsTopLevelMembers() throws {
    let example = try roundTrip(InnerWithFlatExample.self, Example.flat.json)
    #expect(example.greeting == "hallo")
    #expect(example.location == Location(lattitude: 3.4, longitude: 3.2))
    try expectEncoded(
      example, #"{"inner":{"greeting":"hallo"},"lattitude":3.4,"longitude":3.2}"#)
  }

  @Test func flatLocationIsNilWhenOneOfItsMembersIsMissing() throws {
    let example = try decode(
      InnerWithFlatExample.self, from: #"{"inner":{"greeting":"hallo"},"longitude":3.2}"#)
    #expect(example.greeting == "hallo")
    #expect(example.location == nil)
    try expectEncoded(example, #"{"inner":{"greeting":"hallo"}}"#)
  }

  @Test func optionalArrayElementsDropsTheInvalidElement() throws {
    let example = try roundTrip(
      OptionalArrayElementsExample.self, Example.optionalArrayElements.json)
    #expect(
      example.array == [
        ArrayElement(element: 1), ArrayElement(element: 3), ArrayElement(element: 4),
      ])
    try expectEncoded(example, #"{"array":[{"element":1},{"element":3},{"element":4}]}"#)
  }

  @Test func paymentMethodsListsEveryVaultMember() throws {
    let methods = try decode(PaymentMethods.self, from: Example.allKeys.json)
    #expect(
      methods.userPaymentMethods.map(\.type).sorted()
        == ["Braintree_CreditCard", "Braintree_CreditCard", "Braintree_PayPalAccount"])
  }

  @Test func paymentMethodsSkipsMembersThatAreNotPaymentMethods() throws {
    let methods = try decode(
      PaymentMethods.self,
      from: #"{"vault":{"0":{"type":"Braintree_CreditCard"},"1":{"kind":"other"},"2":7}}"#)
    #expect(methods.userPaymentMethods.map(\.type) == ["Braintree_CreditCard"])
  }

  @Test func keyOptionsExampleReadsKeysContainingMarkers() throws {
    let example = try roundTrip(KeyOptionsExample.self, Example.keyOptions.json)
    #expect(example.name == "John")
    #expect(example.greeting == "Hallo world")
    #expect(example.description == "Its nice here")
    #expect(example.location == Location(lattitude: 3.4, longitude: 3.2))
    #expect(example.array.map(\.element) == [1, 3, 4])
    #expect(example.array1.map(\.element) == [1, 3, 4])
    try expectEncoded(
      example,
      """
      {"* name":"John","":{".greeting":"Hallo world","details":{"description":"Its nice here"}},
       "longitude":3.2,"lattitude":3.4,
       "array":[{"element":1},{"element":3},{"element":4}],
       "* array1":[{"element":1},{"element":3},{"element":4}]}
      """)
  }

  @Test func everyExampleRunsAndEncodesWhatItDecodes() throws {
    for example in Example.all {
      let output = try example.run()
      #expect(!output.decoded.isEmpty, "\(example.name)")
    }
  }
}
