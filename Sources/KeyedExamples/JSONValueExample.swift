import Foundation
import KeyedCodable

// An untyped part of a document: `JSONValue` keeps a free-form member as it was written.

/// A plugin manifest whose `settings` are the plugin's own business: kept as a `JSONValue`,
/// read with subscripts and key paths, and written back as it came.
public struct PluginManifest: Codable, Keyedable {
  public var name = ""
  public var settings: JSONValue = [:]

  public init() {}

  public mutating func map(map: KeyMap) throws {
    try name <-> map["plugin.name"]
    try settings <-> map["plugin.settings"]
  }
}

extension Example {
  /// The README example of this file.
  public static var jsonValue: Example {
    let json = """
      {
        "plugin": {
          "name": "lint",
          "settings": {
            "rules": {"lineLength": 100, "trailingComma": true},
            "paths": ["Sources", "Tests"],
            "threshold": 0.750
          }
        }
      }
      """
    return Example(name: "JSON values", json: json) {
      let manifest = try KeyedJSONDecoder().decode(PluginManifest.self, from: Data(json.utf8))
      let settings = manifest.settings
      let decoded = [
        "name = \(manifest.name)",
        "settings[path: \"rules.lineLength\"] = \(settings[path: "rules.lineLength"]?.intValue ?? -1)",
        "settings[\"paths\"]?[1] = \(settings["paths"]?[1]?.stringValue ?? "nil")",
        "settings[\"threshold\"] = \(settings["threshold"]?.numberValue?.text ?? "nil") (its text)",
        "settings[\"missing\"] = \(settings["missing"].map(\.description) ?? "nil")",
      ]
      // Members in their order, numbers as written.
      let encoded = String(
        decoding: try KeyedJSONEncoder().encode(manifest), as: UTF8.self)
      return Output(decoded: decoded, encoded: encoded)
    }
  }
}
