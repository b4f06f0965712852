import Foundation
import KeyedCodable
import KeyedExamples
import Testing

// Story 6: typed context values.

extension ContextKey where Value == Int {
  static let pageSize = ContextKey("pageSize")
}

/// Requires the page size.
struct Page: Codable, Keyedable {
  var items: [Int] = []
  var pageSize = 0

  mutating func map(map: KeyMap) throws {
    try items <-> map["items"]
    pageSize = try map.requiredContext(.pageSize)
  }

  init() {}
  init(from decoder: Decoder) throws { try KeyedDecoder(with: decoder).decode(to: &self) }
}

@Suite("Context: typed values", .bothCoders)
struct ContextValueTests {
  @Test func aValueIsReadAsItsOwnType() throws {
    let header = try decode(
      HeaderInformation.self, from: Example.headerJSON, with: .value(.green, for: .textColor))
    #expect(header.textColor == .green)
    #expect(header.title == "Welcome")
  }

  @Test func theDefaultIsUsedWhenNoValueIsGiven() throws {
    let header = try decode(HeaderInformation.self, from: Example.headerJSON)
    #expect(header.textColor == .black)
  }

  @Test func aValueCanComeFromTheCodersUserInfo() throws {
    let header = try decode(
      HeaderInformation.self, from: Example.headerJSON,
      userInfo: [ContextKey.textColor.userInfoKey: TextColor.blue])
    #expect(header.textColor == .blue)
  }

  @Test func theContextWinsOverUserInfo() throws {
    let header = try withMappingContext(.value(.green, for: .textColor)) {
      try decode(
        HeaderInformation.self, from: Example.headerJSON,
        userInfo: [ContextKey.textColor.userInfoKey: TextColor.blue])
    }
    #expect(header.textColor == .green)
  }

  @Test func aValueOfTheWrongTypeThrowsNamingBothTypes() throws {
    expectError("typeMismatch", at: []) {
      try decode(
        HeaderInformation.self, from: Example.headerJSON,
        userInfo: [ContextKey.textColor.userInfoKey: "red"])
    }
    do {
      _ = try decode(
        HeaderInformation.self, from: Example.headerJSON,
        userInfo: [ContextKey.textColor.userInfoKey: "red"])
    } catch {
      #expect(
        message(of: error)
          == "The context value \"textColor\" is a String, but HeaderInformation reads it as a "
          + "TextColor.")
    }
  }

  @Test func aRequiredValueIsRead() throws {
    let page = try decode(Page.self, from: #"{"items": [1]}"#, with: .value(20, for: .pageSize))
    #expect(page.pageSize == 20)
    #expect(page.items == [1])
  }

  @Test func aMissingRequiredValueThrowsValueNotFoundNamingTheKeyAndType() throws {
    do {
      _ = try decode(Page.self, from: #"{"items": [1]}"#)
      Issue.record("expected an error")
    } catch DecodingError.valueNotFound(let type, let context) {
      #expect(type is Int.Type)
      #expect(context.codingPath.isEmpty)
      #expect(
        context.debugDescription
          == "No context value \"pageSize\" of type Int was given to map Page. Pass one with "
          + "MappingContext.value(_:for:) or in the coder's userInfo.")
    }
  }

  @Test func encodingReadsValuesAndReportsMissingOnesAsInvalidValue() throws {
    var page = Page()
    page.items = [3]
    try expectEncoded(page, with: .value(5, for: .pageSize), #"{"items": [3]}"#)
    expectError("invalidValue", at: []) { try encodeJSON(page) }
  }
}
