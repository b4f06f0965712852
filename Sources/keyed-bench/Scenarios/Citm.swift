import Foundation
import KeyedCodable

// citm: citm_catalog.json, a concert hall's catalogue: name tables keyed by id, 184 events
// keyed by id, and 243 performances with their prices and seat categories; mostly integers.

/// The synthesized model: the document's keys are already camelCase, so no `CodingKeys`.
struct CitmSynthesized: DocumentModel, Equatable {
  struct Event: Codable, Equatable {
    var description: String?
    var id: Int
    var logo: String?
    var name: String
    var subTopicIds: [Int]
    var subjectCode: String?
    var subtitle: String?
    var topicIds: [Int]
  }

  struct Price: Codable, Equatable {
    var amount: Int
    var audienceSubCategoryId: Int
    var seatCategoryId: Int
  }

  struct Area: Codable, Equatable {
    var areaId: Int
    var blockIds: [Int]
  }

  struct SeatCategory: Codable, Equatable {
    var areas: [Area]
    var seatCategoryId: Int
  }

  struct Performance: Codable, Equatable {
    var eventId: Int
    var id: Int
    var logo: String?
    var name: String?
    var prices: [Price]
    var seatCategories: [SeatCategory]
    var seatMapImage: String?
    var start: Int
    var venueCode: String
  }

  var areaNames: [String: String]
  var audienceSubCategoryNames: [String: String]
  var blockNames: [String: String]
  var events: [String: Event]
  var performances: [Performance]
  var seatCategoryNames: [String: String]
  var subTopicNames: [String: String]
  var subjectNames: [String: String]
  var topicNames: [String: String]
  var topicSubTopics: [String: [Int]]
  var venueNames: [String: String]

  var objectCount: Int { events.count }
  var values: CitmSynthesized { self }
}

/// The Keyedable model: the same structure, one mapping per member.
struct CitmKeyed: DocumentModel, Keyedable {
  struct Event: Codable, Keyedable {
    var description: String?
    var id = 0
    var logo: String?
    var name = ""
    var subTopicIds: [Int] = []
    var subjectCode: String?
    var subtitle: String?
    var topicIds: [Int] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try description <-> map["description"]
      try id <-> map["id"]
      try logo <-> map["logo"]
      try name <-> map["name"]
      try subTopicIds <-> map["subTopicIds"]
      try subjectCode <-> map["subjectCode"]
      try subtitle <-> map["subtitle"]
      try topicIds <-> map["topicIds"]
    }

    var normalized: CitmSynthesized.Event {
      CitmSynthesized.Event(
        description: description, id: id, logo: logo, name: name, subTopicIds: subTopicIds,
        subjectCode: subjectCode, subtitle: subtitle, topicIds: topicIds)
    }
  }

  struct Price: Codable, Keyedable {
    var amount = 0
    var audienceSubCategoryId = 0
    var seatCategoryId = 0

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try amount <-> map["amount"]
      try audienceSubCategoryId <-> map["audienceSubCategoryId"]
      try seatCategoryId <-> map["seatCategoryId"]
    }

    var normalized: CitmSynthesized.Price {
      CitmSynthesized.Price(
        amount: amount, audienceSubCategoryId: audienceSubCategoryId,
        seatCategoryId: seatCategoryId)
    }
  }

  struct Area: Codable, Keyedable {
    var areaId = 0
    var blockIds: [Int] = []

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try areaId <-> map["areaId"]
      try blockIds <-> map["blockIds"]
    }

    var normalized: CitmSynthesized.Area {
      CitmSynthesized.Area(areaId: areaId, blockIds: blockIds)
    }
  }

  struct SeatCategory: Codable, Keyedable {
    var areas: [Area] = []
    var seatCategoryId = 0

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try areas <-> map["areas"]
      try seatCategoryId <-> map["seatCategoryId"]
    }

    var normalized: CitmSynthesized.SeatCategory {
      CitmSynthesized.SeatCategory(areas: areas.map(\.normalized), seatCategoryId: seatCategoryId)
    }
  }

  struct Performance: Codable, Keyedable {
    var eventId = 0
    var id = 0
    var logo: String?
    var name: String?
    var prices: [Price] = []
    var seatCategories: [SeatCategory] = []
    var seatMapImage: String?
    var start = 0
    var venueCode = ""

    init(from decoder: Decoder) throws {
      try KeyedDecoder(with: decoder).decode(to: &self)
    }

    mutating func map(map: KeyMap) throws {
      try eventId <-> map["eventId"]
      try id <-> map["id"]
      try logo <-> map["logo"]
      try name <-> map["name"]
      try prices <-> map["prices"]
      try seatCategories <-> map["seatCategories"]
      try seatMapImage <-> map["seatMapImage"]
      try start <-> map["start"]
      try venueCode <-> map["venueCode"]
    }

    var normalized: CitmSynthesized.Performance {
      CitmSynthesized.Performance(
        eventId: eventId, id: id, logo: logo, name: name, prices: prices.map(\.normalized),
        seatCategories: seatCategories.map(\.normalized), seatMapImage: seatMapImage,
        start: start, venueCode: venueCode)
    }
  }

  var areaNames: [String: String] = [:]
  var audienceSubCategoryNames: [String: String] = [:]
  var blockNames: [String: String] = [:]
  var events: [String: Event] = [:]
  var performances: [Performance] = []
  var seatCategoryNames: [String: String] = [:]
  var subTopicNames: [String: String] = [:]
  var subjectNames: [String: String] = [:]
  var topicNames: [String: String] = [:]
  var topicSubTopics: [String: [Int]] = [:]
  var venueNames: [String: String] = [:]

  init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }

  mutating func map(map: KeyMap) throws {
    try areaNames <-> map["areaNames"]
    try audienceSubCategoryNames <-> map["audienceSubCategoryNames"]
    try blockNames <-> map["blockNames"]
    try events <-> map["events"]
    try performances <-> map["performances"]
    try seatCategoryNames <-> map["seatCategoryNames"]
    try subTopicNames <-> map["subTopicNames"]
    try subjectNames <-> map["subjectNames"]
    try topicNames <-> map["topicNames"]
    try topicSubTopics <-> map["topicSubTopics"]
    try venueNames <-> map["venueNames"]
  }

  var objectCount: Int { events.count }

  var values: CitmSynthesized {
    CitmSynthesized(
      areaNames: areaNames, audienceSubCategoryNames: audienceSubCategoryNames,
      blockNames: blockNames, events: events.mapValues(\.normalized),
      performances: performances.map(\.normalized), seatCategoryNames: seatCategoryNames,
      subTopicNames: subTopicNames, subjectNames: subjectNames, topicNames: topicNames,
      topicSubTopics: topicSubTopics, venueNames: venueNames)
  }
}

/// The citm scenario: citm_catalog.json; time per object is per event (the document also has
/// 243 performances).
func citmScenario() throws -> Scenario {
  try documentScenario(
    id: "citm", title: "citm_catalog.json: 184 events, 243 performances, name tables",
    file: "citm_catalog.json", synthesized: CitmSynthesized.self, keyed: CitmKeyed.self)
}
