import Foundation
import KeyedCodable
import KeyedExamples
import Testing

/// KeyedCodable works over any coder: property lists, and values inside ordinary Codable types.
@Suite(.bothCoders) struct CodersTests {
  func plistRoundTrip<T: Codable>(_ value: T) throws -> T {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    return try PropertyListDecoder().decode(T.self, from: try encoder.encode(value))
  }

  @Test func propertyListsRoundTripEveryFeature() throws {
    let coordinate = try plistRoundTrip(try decode(Coordinate.self, from: Example.coordinate.json))
    #expect(coordinate.elevation == 11.2)
    let flat = try plistRoundTrip(try decode(InnerWithFlatExample.self, from: Example.flat.json))
    #expect(flat.location == Location(lattitude: 3.4, longitude: 3.2))
    #expect(flat.greeting == "hallo")
    let lossy = try plistRoundTrip(
      try decode(OptionalArrayElementsExample.self, from: Example.optionalArrayElements.json))
    #expect(lossy.array.map(\.element) == [1, 3, 4])
    let options = try plistRoundTrip(
      try decode(KeyOptionsExample.self, from: Example.keyOptions.json))
    #expect(options.greeting == "Hallo world")
    #expect(options.array1.map(\.element) == [1, 3, 4])
  }

  @Test func propertyListDecodingReportsFullPaths() throws {
    struct Wrapper: Codable {
      var items: [InnerExample]
    }
    func plist(_ items: String) -> Data {
      Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>items</key><array>\(items)</array></dict></plist>
        """.utf8)
    }
    let good = "<dict><key>inner</key><dict><key>greeting</key><string>hi</string></dict></dict>"
    let bad = "<dict><key>inner</key><dict><key>greeting</key><integer>3</integer></dict></dict>"
    let wrapper = try PropertyListDecoder().decode(Wrapper.self, from: plist(good))
    #expect(wrapper.items[0].greeting == "hi")
    #expect(wrapper.items[0].description == nil)
    expectError("typeMismatch", at: ["items", "Index 1", "inner", "greeting"]) {
      try PropertyListDecoder().decode(Wrapper.self, from: plist(good + bad))
    }
  }

  @Test func keyedableValuesNestInsideSynthesizedCodable() throws {
    struct Trip: Codable {
      var name: String
      var stops: [Coordinate]
    }
    let json =
      #"{"name":"t","stops":[{"latitude":1,"longitude":2,"additionalInfo":{"elevation":3}}]}"#
    let trip = try roundTrip(Trip.self, json)
    #expect(trip.stops.first?.elevation == 3)
    try expectEncoded(trip, json)
  }
}
