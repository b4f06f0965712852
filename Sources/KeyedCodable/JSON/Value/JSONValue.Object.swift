extension JSONValue {
  /// The members of a JSON object: names and values, in order, each name once.
  ///
  /// An ordered dictionary from names to values. It keeps the order members were decoded or
  /// added in (``KeyedJSONEncoder`` writes them in that order), and looks members up by name
  /// in constant time however many there are:
  ///
  /// ```swift
  /// var user: JSONValue.Object = ["name": "Ada", "age": 36]
  /// user["name"]                   // "Ada"
  /// user["email"] = "ada@example.com"   // added at the end
  /// user["age"] = nil                   // removed
  /// for (name, value) in user { print(name, value) }
  /// ```
  ///
  /// Names are compared as Swift strings are: `"\u{E9}"` and `"e\u{301}"` are one name. Of two
  /// members with one name, the first is kept, wherever they come from: a document (the member
  /// Foundation's `JSONDecoder` reads), a dictionary literal or a sequence.
  ///
  /// Two objects are equal when they have the same names with equal values, in any order;
  /// hashing agrees. For a comparison that minds the order, compare the elements:
  /// `lhs.elementsEqual(rhs) { $0.name == $1.name && $0.value == $1.value }`.
  ///
  /// Reading a member by name takes constant time on average: small objects are searched in
  /// order, and an object of 16 members or more builds an index of its names on its first
  /// lookup, which it keeps as it changes. Adding a member and changing a value take constant
  /// time on average; removing one moves the members after it, as removing from an array does,
  /// and the next lookup builds the index again, so removing members one by one in a loop takes
  /// time in proportion to the number of members for each: use ``removeAll(where:)`` to remove
  /// many.
  public struct Object: Sendable {
    /// The members, in order; no two have equal names.
    private(set) var members: [(name: String, value: JSONValue)]
    /// The index of the names of an object with at least ``NameIndex/minimumCount`` members.
    private var index: NameIndex?

    /// Creates an empty object.
    public init() {
      members = []
    }

    /// Creates an object of the members of a sequence, in its order, keeping the first of
    /// members with equal names.
    ///
    /// ```swift
    /// let object = JSONValue.Object([("a", 1), ("b", 2), ("a", 3)])    // {"a":1,"b":2}
    /// ```
    ///
    /// - Parameter members: Names and values.
    public init<Members: Sequence>(_ members: Members)
    where Members.Element == (String, JSONValue) {
      self.init()
      for (name, value) in members where self.index(forName: name) == nil {
        append(name: name, value: value)
      }
    }

    /// An object of members whose names are known to be unique.
    init(uniqueMembers members: [(name: String, value: JSONValue)]) {
      self.members = members
      if members.count >= NameIndex.minimumCount {
        index = NameIndex()
      }
    }

    /// An object of the members of a document, keeping the first of members with equal names.
    ///
    /// - Parameter members: The members, some of which may have equal names.
    init(keepingFirst members: [(name: String, value: JSONValue)]) {
      var positions: [String: Int] = [:]
      positions.reserveCapacity(members.count)
      var unique: [(name: String, value: JSONValue)] = []
      unique.reserveCapacity(members.count)
      for member in members where positions[member.name] == nil {
        positions[member.name] = unique.count
        unique.append(member)
      }
      self.members = unique
      if unique.count >= NameIndex.minimumCount {
        index = NameIndex(built: positions)
      }
    }

    // MARK: - Members by name

    /// The value of the member named `name`, or `nil` when there is none.
    ///
    /// Setting a value changes the member's value where it is, or adds a member at the end;
    /// setting `nil` removes the member.
    ///
    /// - Parameter name: A member name.
    public subscript(name: String) -> JSONValue? {
      get {
        guard let position = index(forName: name) else { return nil }
        return members[position].value
      }
      set {
        if let newValue {
          updateValue(newValue, forName: name)
        } else {
          removeValue(forName: name)
        }
      }
    }

    /// The position of the member named `name`, or `nil` when there is none.
    ///
    /// - Parameter name: A member name.
    /// - Returns: The member's position, from 0.
    public func index(forName name: String) -> Int? {
      if let index {
        return index.position(of: name, in: members)
      }
      return members.firstIndex { $0.name == name }
    }

    /// Sets the value of the member named `name`, adding the member at the end when there is
    /// none.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - name: A member name.
    /// - Returns: The member's previous value, or `nil` when it was added.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forName name: String) -> JSONValue? {
      if let position = index(forName: name) {
        let old = members[position].value
        members[position].value = value
        return old
      }
      append(name: name, value: value)
      return nil
    }

    /// Removes the member named `name`.
    ///
    /// Takes time in proportion to the number of members after it.
    ///
    /// - Parameter name: A member name.
    /// - Returns: The removed member's value, or `nil` when there was none.
    @discardableResult
    public mutating func removeValue(forName name: String) -> JSONValue? {
      guard let position = index(forName: name) else { return nil }
      let removed = members.remove(at: position).value
      // The positions after it moved: the index is built again when next needed.
      index = members.count >= NameIndex.minimumCount ? NameIndex() : nil
      return removed
    }

    /// Removes the members for which `shouldBeRemoved` returns `true`, keeping the order of
    /// the others.
    ///
    /// Takes time in proportion to the number of members, however many are removed: to remove
    /// many members, prefer it to calling ``removeValue(forName:)`` for each, which moves the
    /// members after each one.
    ///
    /// ```swift
    /// var object: JSONValue.Object = ["a": 1, "b": nil, "c": 3]
    /// object.removeAll { $0.value == nil }        // {"a":1,"c":3}
    /// ```
    ///
    /// - Parameter shouldBeRemoved: Whether to remove a member, given its name and value.
    /// - Throws: What `shouldBeRemoved` throws; the object is then unchanged.
    public mutating func removeAll(
      where shouldBeRemoved: ((name: String, value: JSONValue)) throws -> Bool
    ) rethrows {
      let kept = try members.filter { try !shouldBeRemoved($0) }
      guard kept.count != members.count else { return }
      members = kept
      index = members.count >= NameIndex.minimumCount ? NameIndex() : nil
    }

    /// Appends a member whose name is not in the object.
    private mutating func append(name: String, value: JSONValue) {
      members.append((name, value))
      guard members.count >= NameIndex.minimumCount else { return }
      if var current = index {
        index = nil
        if isKnownUniquelyReferenced(&current) {
          current.insert(name, at: members.count &- 1)
          index = current
          return
        }
      }
      // Shared with a copy of this object, or not made yet: a new one, built when needed.
      index = NameIndex()
    }

    /// The names of the members, in order.
    public var names: [String] {
      members.map(\.name)
    }

    /// The values of the members, in order.
    public var values: [JSONValue] {
      members.map(\.value)
    }
  }
}

// MARK: - Collection

extension JSONValue.Object: RandomAccessCollection {
  /// A member: its name and its value.
  public typealias Element = (name: String, value: JSONValue)

  /// The position of the first member: 0.
  public var startIndex: Int { 0 }

  /// The position after the last member: the number of members.
  public var endIndex: Int { members.count }

  /// The member at `position`, from 0.
  ///
  /// - Parameter position: A valid position, less than ``endIndex``.
  public subscript(position: Int) -> (name: String, value: JSONValue) {
    members[position]
  }
}

// MARK: - Literals

extension JSONValue.Object: ExpressibleByDictionaryLiteral {
  /// Creates an object from a dictionary literal, in its order, keeping the first of members
  /// with equal names.
  ///
  /// - Parameter elements: The members.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }
}

// MARK: - Equality and hashing

extension JSONValue.Object: Hashable {
  /// Whether two objects have the same names with equal values, in any order.
  ///
  /// - Parameters:
  ///   - lhs: An object.
  ///   - rhs: Another object.
  /// - Returns: `true` when every member of each has an equal member in the other.
  public static func == (lhs: JSONValue.Object, rhs: JSONValue.Object) -> Bool {
    JSONValue.object(lhs) == JSONValue.object(rhs)
  }

  /// Hashes the members, in a way that doesn't depend on their order.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(JSONValue.object(self).treeHash())
  }

  /// Adds the pairs of values to compare for `self == other`, both of one count, to
  /// `pending`: `false` when a name of one is not in the other.
  ///
  /// Members in the same order, the usual case, are paired without lookups; the others are
  /// looked up by name (in constant time on average, see ``index(forName:)``).
  func pairMembers(with other: JSONValue.Object, into pending: inout [(JSONValue, JSONValue)])
    -> Bool
  {
    var position = 0
    while position < count, members[position].name == other.members[position].name {
      pending.append((members[position].value, other.members[position].value))
      position &+= 1
    }
    while position < count {
      let member = members[position]
      guard let found = other.index(forName: member.name) else { return false }
      pending.append((member.value, other.members[found].value))
      position &+= 1
    }
    return true
  }
}
