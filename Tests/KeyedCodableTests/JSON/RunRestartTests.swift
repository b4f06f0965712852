import Foundation
import KeyedCodable
import Testing

/// A decoder keeps its runs of `Keyedable` models and starts the next value of a type on the run
/// that mapped that type last, keeping its plan (and the array path the elements share). Each
/// value must still be read as if by a run of its own: nothing read for the value before, no
/// node the value before added, its own coding path, the context of its own decode.
@Suite("JSON coder: runs restarted for the next value", .bothCoders)
struct RunRestartTests {
  /// A model of optional members, each of which the values below may lack.
  struct Entry: Codable, Keyedable, Equatable {
    var id = 0
    var size: Int?
    var label: String?
    var depth: Int?

    init() {}

    init(id: Int, size: Int? = nil, label: String? = nil, depth: Int? = nil) {
      self.id = id
      self.size = size
      self.label = label
      self.depth = depth
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try id <-> map["id"]
      try size <-> map["size"]
      try label <-> map["label"]
      try depth <-> map["info.depth"]
    }
  }

  /// Another model, mapped at the same depth as ``Entry`` in ``Pair``.
  struct Note: Codable, Keyedable, Equatable {
    var text = ""
    var id: Int?

    init() {}

    init(text: String, id: Int? = nil) {
      self.text = text
      self.id = id
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try text <-> map["text"]
      try id <-> map["id"]
    }
  }

  /// An ``Entry`` and a ``Note``, decoded one after the other at the same depth.
  struct Pair: Codable, Keyedable, Equatable {
    var entry: Entry?
    var note: Note?

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    init(entry: Entry?, note: Note?) {
      self.entry = entry
      self.note = note
    }

    mutating func map(map: KeyMap) throws {
      try entry <-> map["entry"]
      try note <-> map["note"]
    }
  }

  /// Two arrays of the same model in two members.
  struct Shelves: Codable, Keyedable {
    var first: [Entry] = []
    var second: [Entry] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try first <-> map["first"]
      try second <-> map["second"]
    }
  }

  /// A model whose mappings depend on the value: each kind maps a key of its own.
  struct Tagged: Codable, Keyedable, Equatable {
    var kind = ""
    var value = 0

    init() {}

    init(kind: String, value: Int) {
      self.kind = kind
      self.value = value
    }

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try kind <-> map["kind"]
      try value <-> map[kind.isEmpty ? "none" : "by.\(kind)"]
    }
  }

  @Test func eachElementReadsOnlyItsOwnMembers() throws {
    let json = #"""
      [{"id": 1, "size": 2, "label": "a", "info": {"depth": 3}},
       {"id": 2},
       {"id": 3, "label": "c"},
       {"id": 4, "info": {}},
       {"id": 5, "size": 6, "info": {"depth": 7}},
       {"id": 6, "info": null}]
      """#
    let entries = try decode([Entry].self, from: json)
    #expect(
      entries == [
        Entry(id: 1, size: 2, label: "a", depth: 3), Entry(id: 2), Entry(id: 3, label: "c"),
        Entry(id: 4), Entry(id: 5, size: 6, depth: 7), Entry(id: 6),
      ])
  }

  @Test func twoModelsTakingTurnsAtOneDepthKeepTheirOwnMappings() throws {
    let json = #"""
      [{"entry": {"id": 1, "size": 5}, "note": {"text": "x", "id": 9}},
       {"note": {"text": "y"}},
       {"entry": {"id": 2, "label": "b"}},
       {"entry": {"id": 3}, "note": {"text": "z", "id": 8}}]
      """#
    let pairs = try decode([Pair].self, from: json)
    #expect(
      pairs == [
        Pair(entry: Entry(id: 1, size: 5), note: Note(text: "x", id: 9)),
        Pair(entry: nil, note: Note(text: "y")),
        Pair(entry: Entry(id: 2, label: "b"), note: nil),
        Pair(entry: Entry(id: 3), note: Note(text: "z", id: 8)),
      ])
  }

  @Test func mappingsThatDependOnTheValueAreReadForEachValue() throws {
    let json = #"""
      [{"kind": "a", "by": {"a": 1, "b": 10}},
       {"kind": "b", "by": {"a": 2, "b": 20}},
       {"kind": "b", "by": {"b": 30}},
       {"kind": "a", "by": {"a": 4}},
       {"kind": "", "none": 5}]
      """#
    let values = try decode([Tagged].self, from: json)
    #expect(
      values == [
        Tagged(kind: "a", value: 1), Tagged(kind: "b", value: 20), Tagged(kind: "b", value: 30),
        Tagged(kind: "a", value: 4), Tagged(kind: "", value: 5),
      ])
    // A later value lacking the key its kind maps fails as a value of its own would.
    let missing = #"[{"kind": "a", "by": {"a": 1}}, {"kind": "b", "by": {"a": 2}}]"#
    let error = #expect(throws: DecodingError.self) { try decode([Tagged].self, from: missing) }
    #expect(error.flatMap(shape) == ErrorShape(kind: "keyNotFound(b)", path: ["Index 1", "by"]))
  }

  @Test func anErrorInAnElementNamesItsOwnArray() throws {
    // The elements of `second` follow those of `first` on the same run: their path must be
    // `second`'s, whose node is another.
    let json = #"""
      {"first": [{"id": 1}, {"id": 2}], "second": [{"id": 3}, {"id": 4}, {"id": "five"}]}
      """#
    let error = #expect(throws: DecodingError.self) { try decode(Shelves.self, from: json) }
    #expect(
      error.flatMap(shape) == ErrorShape(kind: "typeMismatch", path: ["second", "Index 2", "id"]))

    let nested = #"""
      {"first": [{"id": 1, "info": {"depth": 2}}],
       "second": [{"id": 3, "info": {"depth": 4}}, {"id": 5, "info": {"depth": null}},
                  {"id": 6, "info": {"depth": true}}]}
      """#
    let nestedError = #expect(throws: DecodingError.self) {
      try decode(Shelves.self, from: nested)
    }
    #expect(
      nestedError.flatMap(shape)
        == ErrorShape(kind: "typeMismatch", path: ["second", "Index 2", "info", "depth"]))
  }

  @Test func theNextDecodeStartsItsRunsAnew() throws {
    // The same decoder, kept between decodes of small documents, with the runs of the last.
    let decoder = KeyedJSONDecoder()
    let full = #"[{"id": 1, "size": 2, "label": "a", "info": {"depth": 3}}]"#
    let bare = #"[{"id": 2}, {"id": 3, "size": 4}]"#
    for _ in 0..<3 {
      #expect(
        try decoder.decode([Entry].self, from: Data(full.utf8)) == [
          Entry(id: 1, size: 2, label: "a", depth: 3)
        ])
      #expect(
        try decoder.decode([Entry].self, from: Data(bare.utf8)) == [
          Entry(id: 2), Entry(id: 3, size: 4),
        ])
    }
  }

  @Test func aSelectionAppliesToEveryElementOfItsDecodeOnly() throws {
    let json = #"[{"id": 1, "size": 2, "label": "a"}, {"id": 3, "size": 4, "label": "b"}]"#
    let selecting = MappingContext.selecting(["id", "label"], in: Entry.self)
    let decoder = KeyedJSONDecoder()
    let selected = try decoder.decode([Entry].self, from: Data(json.utf8), with: selecting)
    #expect(selected == [Entry(id: 1, label: "a"), Entry(id: 3, label: "b")])
    let everything = try decoder.decode([Entry].self, from: Data(json.utf8))
    #expect(everything == [Entry(id: 1, size: 2, label: "a"), Entry(id: 3, size: 4, label: "b")])
    let foundation = try JSONDecoder().decode([Entry].self, from: Data(json.utf8), with: selecting)
    #expect(foundation == selected)
  }
}
