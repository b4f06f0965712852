import Foundation
import Testing

@testable import KeyedCodable

/// The plan engine on its own: recording a plan, following it, diverging from it.
@Suite struct PlanFollowerTests {
  /// Records a plan for `keys` (each mapped as an `Int`) the way a first run does.
  func record(_ keys: [String], options: KeyOptions = .default) -> MappingPlan? {
    var follower = PlanFollower(plan: nil, recording: true, decoding: true)
    for key in keys {
      #expect(follower.matchNext(key, options) == nil, "a recording run parses")
      _ = follower.resolve(key, options, valueType: Int.self)
    }
    // Published for a type no model uses; the returned plan is the one recorded either way.
    return follower.finish(modelType: ObjectIdentifier(PlanFollowerTests.self), publishing: true)
  }

  @Test func aRecordedPlanHoldsEveryKeyParsedOnceWithSharedPrefixes() throws {
    let plan = try #require(record(["a.b", "a.c", "d", "a.b.e"]))
    #expect(plan.entries.map(\.key) == ["a.b", "a.c", "d", "a.b.e"])
    // root, a, a.b, a.c, d, a.b.e
    #expect(plan.table.count == 6)
    #expect(plan.table.keys.map(\.stringValue) == ["", "a", "b", "c", "d", "e"])
    #expect(plan.table.parents == [-1, 0, 1, 1, 0, 2])
    #expect(plan.table.hasChildren == [true, true, true, false, false, false])
    #expect(plan.entryIndex == ["a.b": 0, "a.c": 1, "d": 2, "a.b.e": 3])
    // "a.b" holds a value and "a.b.e" continues below it: an encode must compare what it writes.
    #expect(plan.mayOverlap)
    #expect(try #require(record(["a.b", "a.c", "d"])).mayOverlap == false)
    #expect(try #require(record(["x", "x"])).mayOverlap)
    #expect(try #require(record(["", "x"])).mayOverlap)
  }

  @Test func aFollowingRunMatchesEveryEntryInOrderWithoutParsing() throws {
    let plan = try #require(record(["a.b", "a.c", "d"]))
    var follower = PlanFollower(plan: plan, recording: false, decoding: true)
    for (position, key) in ["a.b", "a.c", "d"].enumerated() {
      #expect(follower.matchNext(key, .default) == position)
      #expect(follower.cursor == position + 1)
    }
    #expect(follower.diverged == false)
    #expect(follower.tree.count == plan.table.count, "no node added")
  }

  @Test func aKeyWithOtherOptionsIsNotTheRecordedEntry() throws {
    let plan = try #require(record(["a.b"]))
    var follower = PlanFollower(plan: plan, recording: false, decoding: true)
    #expect(follower.matchNext("a.b", KeyOptions(delimiter: nil)) == nil)
    let target = follower.resolve("a.b", KeyOptions(delimiter: nil), valueType: Int.self)
    guard case .value(let parent, let node, let key, false) = target else {
      Issue.record("expected a member target, got \(target)")
      return
    }
    #expect(parent == 0)
    #expect(key.stringValue == "a.b")
    #expect(node >= plan.table.count, "the new key path gets a node of this run")
    #expect(follower.diverged)
  }

  @Test func aBranchTheFirstRunDidNotTakeResyncsOnTheNextKnownKey() throws {
    let plan = try #require(record(["flag", "even.value", "tail"]))
    var follower = PlanFollower(plan: plan, recording: false, decoding: true)
    #expect(follower.matchNext("flag", .default) == 0)
    // The other branch: unknown to the plan, parsed now.
    #expect(follower.matchNext("odd.value", .default) == nil)
    let target = follower.resolve("odd.value", .default, valueType: Int.self)
    guard case .value(let parent, _, _, _) = target else {
      Issue.record("expected a member target")
      return
    }
    #expect(follower.tree.key(of: parent).stringValue == "odd")
    #expect(follower.diverged)
    // "tail" is not at the cursor (which still expects "even.value"): found by its text.
    #expect(follower.matchNext("tail", .default) == nil)
    let matchedTail = follower.match("tail", .default, valueType: ObjectIdentifier(Int.self))
    let tail = try #require(matchedTail)
    #expect(tail === plan.entries[2])
    #expect(follower.cursor == 3)
    // The shared table is never changed by the run.
    #expect(plan.table.count == 5)
  }

  @Test func aValueOfAnotherTypeThanRecordedIsResolvedAgain() throws {
    let plan = try #require(record(["* items"]))
    guard case .value(_, _, let key, let lossy) = plan.entries[0].target else {
      Issue.record("expected a member target")
      return
    }
    // Recorded as an Int: the marker is part of the member name.
    #expect(key.stringValue == "* items")
    #expect(lossy == false)
    var follower = PlanFollower(plan: plan, recording: false, decoding: true)
    let matched = follower.matchNext("* items", .default)
    let position = try #require(matched)
    #expect(plan.entries[position].valueType == ObjectIdentifier(Int.self))
    // Mapped as an array this time: a lossy array named "items".
    guard
      case .value(_, _, let arrayKey, true) = follower.resolve(
        "* items", .default, valueType: [Int].self)
    else {
      Issue.record("expected a lossy target")
      return
    }
    #expect(arrayKey.stringValue == "items")
  }

  @Test func theNodeTreeAddsNodesWithoutCopyingItsTable() throws {
    let plan = try #require(record(["a.b"]))
    var tree = NodeTree(base: plan.table)
    let found = tree.existingChild(of: 0, named: "a")
    let a = try #require(found)
    let c = tree.child(of: a, key: PathKey("c"))
    #expect(c == plan.table.count)
    #expect(tree.parent(of: c) == a)
    #expect(tree.hasChildren(a))
    #expect(tree.path(to: c).map(\.stringValue) == ["a", "c"])
    #expect(tree.keyPath(to: c) == "a.c")
    #expect(tree.node(at: ["a", "c"]) == c)
    #expect(tree.node(at: ["a", "c"], hint: c) == c)
    #expect(tree.node(at: ["a", "b"], hint: c) != c, "a wrong hint is checked and ignored")
    let table = tree.table(use: .both)
    #expect(table.count == plan.table.count + 1)
    #expect(plan.table.count == 3, "the published table is unchanged")
  }

  @Test func theMemberIndexFindsEachChildByItsBytes() throws {
    let plan = try #require(
      record(["a.b", "a.c", "d", "", "a.long-member-name", "a.long-member-name-2", "a.ab"]))
    let table = plan.table
    let members = table.members
    // root: a, d (the flat key adds no node); a: b, c, long-member-name
    #expect(members.childPositions(of: 0).map { Int(members.children[$0]) } == [1, 4])
    let a = try #require(table.children[PathTable.Child(parent: 0, name: "a")])
    #expect(members.childPositions(of: a).count == 5)
    func find(_ name: String, in parent: Int) -> Int {
      members.child(of: parent, named: name)
    }
    for node in 1..<table.count {
      #expect(find(table.keys[node].stringValue, in: table.parents[node]) == node)
    }
    #expect(find("b", in: 0) == 0, "a name of another parent")
    #expect(find("x", in: a) == 0)
    #expect(find("long-member-namE", in: a) == 0)
    #expect(find("long-mEmber-name", in: a) == 0, "the middle of a long name is compared")
    #expect(find("a", in: a) == 0)
  }

  /// A decoding plan's index holds the lookup tables and no JSON names; an encoding plan's the
  /// names as compact JSON (escaped as the encoder escapes them) and no lookup tables.
  @Test func theMemberIndexHoldsWhatItsDirectionReads() throws {
    let parents = [-1, 0, 1, 0]
    let keys = [PathKey.empty, PathKey("a/b"), PathKey("c\"d"), PathKey("e")]
    let decoding = PathTable.MemberIndex(parents: parents, keys: keys, use: .decoding)
    let encoding = PathTable.MemberIndex(parents: parents, keys: keys, use: .encoding)
    let both = PathTable.MemberIndex(parents: parents, keys: keys, use: .both)
    for index in [decoding, encoding, both] {
      #expect(index.childPositions(of: 0).map { Int(index.children[$0]) } == [1, 3])
    }
    #expect(decoding.namedNodes == 0 && encoding.namedNodes == 4 && both.namedNodes == 4)
    for node in 1..<4 {
      let expected = try #require(
        [1: #","a\/b":"#, 2: #","c\"d":"#, 3: #","e":"#][node])
      #expect(String(decoding: encoding.jsonMember(node), as: UTF8.self) == expected)
      #expect(String(decoding: both.jsonMember(node), as: UTF8.self) == expected)
      #expect(encoding.hasSlash[node] == (node == 1))
      #expect(decoding.child(of: parents[node], named: keys[node].stringValue) == node)
      #expect(both.child(of: parents[node], named: keys[node].stringValue) == node)
      #expect(
        encoding.child(of: parents[node], named: keys[node].stringValue) == 0,
        "no lookup table: nothing is found")
    }
  }

  @Test func theASCIIChildIndexFindsWhatTheDictionaryFinds() throws {
    let names = (0..<300).map { "key\($0)" } + ["a.b", "a.c", "a.key1", "d.e.f", "x-y z"]
    let table = try #require(record(names)).table
    let index = table.asciiChildren
    for node in 1..<table.count {
      let name = table.keys[node].stringValue
      let parent = table.parents[node]
      #expect(
        lookUp(index, parent, name, table)
          == .found(node))
    }
    // Every name is ASCII: a miss is final, and names not in ASCII are left to the dictionary.
    for (name, parent) in [("key300", 0), ("b", 0), ("key1", 0) as (String, Int)] {
      let expected: PathTable.ChildLookup =
        table.children[PathTable.Child(parent: parent, name: name)].map { .found($0) } ?? .absent
      #expect(
        lookUp(index, parent, name, table) == expected)
    }
    #expect(
      lookUp(index, 0, "k\u{E9}y", table) == .unknown)
    #expect(lookUp(index, 0, "", table) == .unknown)
  }

  /// What `index` knows of member `name` of `parent` in `table`.
  func lookUp(_ index: PathTable.ASCIIChildren, _ parent: Int, _ name: String, _ table: PathTable)
    -> PathTable.ChildLookup
  {
    index.node(
      of: parent, named: name,
      fingerprint: PathTable.ASCIIChildren.fingerprint(of: name, parent: parent),
      parents: table.parents, keys: table.keys)
  }

  /// Nodes a run adds (members named by data) are found as a dictionary of names would find
  /// them: ASCII names by their bytes, through a table that grows, until a name that isn't
  /// ASCII switches to the names themselves; restarting forgets them all.
  @Test func addedNodesAreFoundAsByTheirNames() throws {
    let table = try #require(record(["id", "a.b"])).table
    var tree = NodeTree(base: table)
    var generator = SystemRandomNumberGenerator()
    for round in 0..<4 {
      var reference: [PathTable.Child: Int] = [:]
      for node in 1..<table.count {
        reference[
          PathTable.Child(parent: table.parents[node], name: table.keys[node].stringValue)] =
          node
      }
      let a = try #require(reference[PathTable.Child(parent: 0, name: "a")])
      // The third round meets a name that isn't ASCII half-way; the Kelvin sign equals "K".
      let names =
        (0..<200).map { _ in "k\(Int.random(in: 0..<150, using: &generator))" } + ["K", "id", "b"]
        + (round == 2 ? ["\u{212A}", "caf\u{E9}", "cafe\u{301}"] : [])
        + (0..<100).map { _ in "k\(Int.random(in: 100..<250, using: &generator))" }
      for (position, name) in names.enumerated() {
        let parent = position % 3 == 0 ? a : 0
        let known = reference[PathTable.Child(parent: parent, name: name)]
        #expect(tree.existingChild(of: parent, named: name) == known, "\(name) under \(parent)")
        let node = tree.child(of: parent, key: PathKey(name))
        if let known {
          #expect(node == known, "\(name) under \(parent) is found, not added")
        } else {
          #expect(node == tree.count - 1, "\(name) under \(parent) is added")
          reference[PathTable.Child(parent: parent, name: name)] = node
        }
        #expect(tree.parent(of: node) == parent)
      }
      #expect(tree.count == reference.count + 1)
      #expect(tree.hasChildren(a) && tree.hasChildren(0))
      tree.restart(base: nil)
      #expect(tree.count == table.count, "a restarted tree knows its table's nodes only")
      #expect(tree.existingChild(of: 0, named: "k1") == nil)
    }
  }

  @Test func aNameEqualToANonASCIIOneIsFoundThroughTheDictionary() throws {
    // The Kelvin sign is canonically equivalent to "K": equal as strings, other bytes.
    let table = try #require(record(["\u{212A}", "caf\u{E9}", "plain"])).table
    var tree = NodeTree(base: table)
    let foundKelvin = tree.existingChild(of: 0, named: "\u{212A}")
    let kelvin = try #require(foundKelvin)
    #expect(tree.existingChild(of: 0, named: "K") == kelvin)
    #expect(
      tree.existingChild(of: 0, named: "cafe\u{301}")
        == tree.existingChild(of: 0, named: "caf\u{E9}"))
    #expect(tree.existingChild(of: 0, named: "plain") != nil)
    #expect(tree.existingChild(of: 0, named: "other") == nil)
    #expect(
      lookUp(table.asciiChildren, 0, "K", table)
        == .unknown, "some name is not ASCII: a miss is not final")
    let added = tree.child(of: 0, key: PathKey("added"))
    #expect(tree.existingChild(of: 0, named: "added") == added)
  }

  /// A key string's bits are equal for the same string (a literal, a copy, a small string
  /// however made), and may differ for equal text built apart: the follower then compares the
  /// text, so a run follows its plan whatever strings its keys are.
  @Test func keysAreMatchedByTheirBitsOrElseByTheirText() throws {
    let long = "additionalInformation.elevation"
    let copy = long
    #expect(KeyBits(long) == KeyBits(copy))
    #expect(KeyBits("id") == KeyBits(String("xid".dropFirst())), "small strings hold their text")
    let builtApart = ["additional", "Information", ".elevation"].joined()
    #expect(builtApart == long)
    #expect(KeyBits(builtApart) != KeyBits(long), "two storages of one long text")

    let plan = try #require(record([long, "id", "name"]))
    var follower = PlanFollower(plan: plan, recording: false, decoding: true)
    #expect(follower.matchNext(builtApart, nil) == 0)
    #expect(follower.matchNext(String("xid".dropFirst()), .default) == 1, "options given")
    #expect(follower.matchNext("name", KeyOptions(delimiter: nil)) == nil, "other options")
    #expect(follower.matchNext("name", nil) == 2)
    #expect(follower.diverged == false)
  }

  /// The quick entries repeat what the fast paths read of each entry, in the same order.
  @Test func quickEntriesRepeatTheirEntries() throws {
    let plan = try #require(record(["a.b", "", "* items", "d"]))
    #expect(plan.quickEntries.count == plan.entries.count)
    for (position, entry) in plan.entries.enumerated() {
      let quick = plan.quickEntries[position]
      #expect(quick.key == KeyBits(entry.key))
      #expect(quick.valueType == entry.valueType)
      #expect(quick.hasDefaultOptions == entry.hasDefaultOptions)
      #expect(quick.isPlainMember == entry.isPlainMember)
      #expect(quick.valueIsOptional == entry.valueIsOptional)
      if entry.isPlainMember {
        #expect(Int(quick.parent) == entry.parent)
        #expect(Int(quick.node) == entry.node)
      }
    }
    let follower = PlanFollower(plan: plan, recording: false, decoding: true)
    let member = try #require(follower.plainMember(at: 0, valueType: ObjectIdentifier(Int.self)))
    #expect(member.parent == plan.entries[0].parent)
    #expect(member.node == plan.entries[0].node)
    #expect(follower.plainMember(at: 0, valueType: ObjectIdentifier(String.self)) == nil)
    #expect(follower.plainMember(at: 1, valueType: ObjectIdentifier(Int.self)) == nil, "flat")
    #expect(
      follower.plainMember(at: plan.entries.count, valueType: ObjectIdentifier(Int.self)) == nil)
  }
}
