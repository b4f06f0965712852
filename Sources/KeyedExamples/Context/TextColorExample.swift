import Foundation
import KeyedCodable

// Typed context (story 6 of "Context and configuration"): a header's text colour depends on the
// screen that shows it; the caller hands it to the decode, the model reads it as its own type.

/// A colour, as an app would define it.
public enum TextColor: String, Sendable, Codable {
  case black, green, blue
}

extension ContextKey where Value == TextColor {
  /// The colour headers are drawn in.
  public static let textColor = ContextKey("textColor")
}

/// A header a screen shows.
public struct HeaderInformation: Codable, Keyedable, Equatable {
  public var title = ""
  public var subtitle = ""
  public var textColor = TextColor.black

  public init() {}

  public mutating func map(map: KeyMap) throws {
    try title <-> map["title"]
    try subtitle <-> map["subtitle"]
    textColor = try map.context(.textColor, default: .black)
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension Example {
  /// The header the server sends.
  public static let headerJSON = """
    {"title": "Welcome", "subtitle": "Your daily summary"}
    """

  /// Typed context.
  public static var textColor: Example {
    Example(name: "Context: typed values", json: headerJSON) {
      let data = Data(headerJSON.utf8)
      let home = try JSONDecoder().decode(
        HeaderInformation.self, from: data, with: .value(.green, for: .textColor))
      let profileDecoder = JSONDecoder()
      profileDecoder.userInfo[ContextKey.textColor.userInfoKey] = TextColor.blue
      let profile = try profileDecoder.decode(HeaderInformation.self, from: data)
      let plain = try JSONDecoder().decode(HeaderInformation.self, from: data)
      return Output(
        decoded: [
          "home textColor = \(home.textColor)",
          "profile textColor = \(profile.textColor)",
          "default textColor = \(plain.textColor)",
        ], encoded: nil)
    }
  }
}
