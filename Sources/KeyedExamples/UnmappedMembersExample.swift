import Foundation
import KeyedCodable

// Unknown members kept: a client edits two settings of a server's document and sends the whole
// document back, including the members its model doesn't name.

/// The settings a client edits: the theme and the font size. Everything else in the document
/// (the server's members, the other members of `display`) is kept in `extra` and
/// `displayExtra`, and written back as it came.
public struct EditableSettings: Codable, Keyedable {
  public var theme = ""
  public var fontSize = 12
  public var displayExtra: [String: JSONValue] = [:]
  public var extra: [String: JSONValue] = [:]

  public init() {}

  public mutating func map(map: KeyMap) throws {
    try theme <-> map["display.theme"]
    try fontSize <-> map["display.font.size"]
    try displayExtra <-> map.unmapped(at: "display")  // every member of display but theme, font
    try extra <-> map.unmapped  // every member but display
  }
}

extension Example {
  /// The README example of this file.
  public static var unmappedMembers: Example {
    let json = """
      {
        "display": {"theme": "light", "font": {"size": 12}, "contrast": 1.10},
        "revision": 41,
        "sync": {"enabled": true, "devices": ["mac", "phone"]}
      }
      """
    return Example(name: "Unknown members kept", json: json) {
      var settings = try KeyedJSONDecoder().decode(EditableSettings.self, from: Data(json.utf8))
      let decoded = [
        "theme = \(settings.theme)",
        "fontSize = \(settings.fontSize)",
        "displayExtra = \(settings.displayExtra.keys.sorted())",
        "extra = \(settings.extra.keys.sorted())",
        "displayExtra[\"contrast\"] = \(settings.displayExtra["contrast"]?.numberValue?.text ?? "nil") (its text)",
      ]
      // The edit, then the whole document back: only the theme changed.
      settings.theme = "dark"
      let encoder = KeyedJSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let encoded = String(decoding: try encoder.encode(settings), as: UTF8.self)
      return Output(decoded: decoded, encoded: encoded)
    }
  }
}
