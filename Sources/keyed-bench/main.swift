import Foundation

// keyed-bench: KeyedCodable against compiler-synthesized and hand-written Codable.
//
//   swift run -c release keyed-bench            full run (about two minutes)
//   swift run -c release keyed-bench --quick    a small run in seconds
//   swift run keyed-bench --smoke               one round of small sizes, no warm-up: checks that
//                                               every implementation agrees (CI's debug run)
//   swift run -c release keyed-bench --tsv      one tab-separated line per measurement
//   swift run -c release keyed-bench --only P2  only the listed scenarios (P1,...,P6,config,
//                                               dates,twitter,citm,canada,revisit,anyjson,memory,
//                                               stream,jsonvalue)
//
// Worst-case scaling (issue 19), separate from the scenarios above and never part of a plain
// --quick run:
//
//   swift run -c release keyed-bench --scaling           every case at n = 10,000 and 10n, on
//                                                        KeyedJSON and Foundation (minutes)
//   swift run -c release keyed-bench --scaling --quick   n = 1,000
//   ... --scaling --only cache-slot,lossy-report         only the listed cases
//   ... --scaling --scaling-n 30000 --scaling-timeout 120 --tsv
//   ... --scaling --check-only                           only check the inputs and results at a
//                                                        small size, in one process

let arguments = CommandLine.arguments.dropFirst()

if arguments.first == "--scaling-child" {
  runScalingChild(Array(arguments.dropFirst()))
  exit(0)
}

if arguments.first == "--stream-child" {
  try runStreamChild(Array(arguments.dropFirst()))
  exit(0)
}

if arguments.first == "--peak-memory-child", arguments.count == 3 {
  let rest = Array(arguments.dropFirst())
  try measurePeakMemoryInThisProcess(implementation: rest[0], file: rest[1])
  exit(0)
}

// For instruction counts: `valgrind --tool=callgrind keyed-bench --profile P1 decode keyedcodable 20`
// runs one implementation only, after building its scenario.
if arguments.first == "--profile", arguments.count == 5, let times = Int(arguments.last ?? "") {
  let rest = Array(arguments.dropFirst())
  let makers: [String: () throws -> Scenario] = [
    "P1": { try p1Scenario(id: "P1", title: "flat", objects: 1000) },
    "P5": { try p1Scenario(id: "P5-100000", title: "scale", objects: 100_000) },
    "P2": { try p2Scenario(objects: 1000) }, "P3": { try p3Scenario(keys: 5000) },
    "P4": { try p4Scenario(elements: 1000) }, "P6": { try p6Scenario(objects: 1000) },
    "twitter": twitterScenario, "citm": citmScenario, "canada": canadaScenario,
    "config": { try configuredScenario(users: 1000) },
    "dates": { try datesScenario(objects: 100_000) },
    "decimals": { try decimalsScenario(objects: 10_000) },
    "snakecase": { try snakeCaseScenario(objects: 10_000) },
    "uuids": { try uuidsScenario(objects: 10_000) },
    "optionals": { try optionalsScenario(objects: 10_000) },
    "payloads": { try payloadsScenario(objects: 10_000) },
    "maps": { try mapsScenario(objects: 10_000) },
    "sortedkeys": { try sortedKeysScenario(objects: 10_000) },
    "base64": { try base64Scenario(objects: 10_000) },
    "formatteddates": { try formattedDatesScenario(objects: 1000) },
    "small": { try smallDocumentsScenario(documents: 1000) },
    "revisit": { try revisitScenario(objects: 1000) },
    "anyjson-twitter": { try anyJSONScenario(document: "twitter", file: "twitter.json") },
    "anyjson-citm": { try anyJSONScenario(document: "citm", file: "citm_catalog.json") },
    "anyjson-canada": { try anyJSONScenario(document: "canada", file: "canada.json") },
    "jsonvalue-twitter": { try jsonValueScenario(document: "twitter", id: "jsonvalue-twitter") },
    "jsonvalue-citm": { try jsonValueScenario(document: "citm_catalog", id: "jsonvalue-citm") },
    "jsonvalue-canada": { try jsonValueScenario(document: "canada", id: "jsonvalue-canada") },
  ]
  guard let make = makers[rest[0]],
    let implementation = try make().implementations.first(where: { $0.name == rest[2] }),
    let body = rest[1] == "decode" ? implementation.decode : implementation.encode
  else {
    print("unknown scenario, operation or implementation")
    exit(2)
  }
  // KEYED_BENCH_TIMES=1 prints each operation's time (nanoseconds) to standard error.
  let printsTimes = ProcessInfo.processInfo.environment["KEYED_BENCH_TIMES"] != nil
  for _ in 0..<times {
    let start = DispatchTime.now().uptimeNanoseconds
    blackHole(try body())
    if printsTimes {
      FileHandle.standardError.write(Data("\(DispatchTime.now().uptimeNanoseconds - start)\n".utf8))
    }
  }
  exit(0)
}

if arguments.contains("--help") {
  print(
    """
    usage: keyed-bench [--quick | --smoke] [--tsv] [--only P1,P2,P3,P4,P5,P6,config,dates,decimals,snakecase,uuids,optionals,payloads,maps,sortedkeys,base64,formatteddates,small,twitter,citm,canada,revisit,anyjson,memory,stream,jsonvalue]
           keyed-bench --scaling [options below]

    Times KeyedCodable map() models against compiler-synthesized and hand-written Codable on the
    same JSONDecoder/JSONEncoder, in interleaved rounds, and reports medians. Ratios are to the
    synthesized implementation, except P4 decode, where synthesized Codable cannot drop invalid
    elements and the hand-written lossy loop is the reference. twitter, citm and canada decode
    and encode the documents in Tests/Data/corpus/ whole; their parsejson row only
    validates the document with KeyedJSONDecoder. config decodes users with a configuration
    against a hand-written init(from:configuration:) (the reference); dates decodes and encodes
    100,000 ISO 8601 dates against Foundation's .iso8601 strategy. decimals decodes and encodes
    10,000 objects of Decimal amounts, uuids 10,000 objects of two UUIDs, snakecase 10,000
    objects with the snake-case key strategies, optionals 10,000 objects of optional members,
    Bool arrays and arrays of optional numbers, payloads 10,000 objects of enums with associated
    values, maps 10,000 objects of [String: Int], [String: String] and [Int: String]
    members, sortedkeys 10,000 objects of eight members encoded with .sortedKeys, base64
    10,000 objects of two Data values, and formatteddates 1,000 objects of two dates with a
    DateFormatter strategy, synthesized models on both coders. small decodes and encodes 1,000
    documents of one five-member object, a call each with one coder (a server's request and
    response bodies). jsonvalue
    (only when listed; also jsonvalue-twitter, jsonvalue-citm, jsonvalue-canada) decodes and
    encodes the three documents as an untyped JSON value: JSONValue on
    KeyedJSONDecoder/KeyedJSONEncoder (jsonvalue-keyed) and on Foundation's coders
    (jsonvalue-found), and a hand-written enum that tries each kind with try? on both
    (userenum-keyed, and userenum on Foundation's coders, the reference of the ratios).
    --quick runs smaller scenarios with fewer rounds; --smoke runs one round of small sizes,
    without warm-up, to check that the implementations agree (CI's debug run), not to time them.

    usage: keyed-bench --scaling [--quick] [--tsv] [--only CASE,...] [--scaling-n N]
                       [--scaling-timeout S] [--check-only]

    Worst-case inputs at n and 10n (n = 10,000; 1,000 with --quick; N with --scaling-n), each
    decoded or encoded by KeyedJSONDecoder/KeyedJSONEncoder (keyedjson) and by Foundation's
    JSONDecoder/JSONEncoder (foundation) with the same model and input. Each measurement runs in
    a child process that generates the input and times the operation alone (the best of 3 when
    under 0.5 s), with a time limit of S seconds (default 60; "> 60 s" when reached). Prints the
    time, the peak resident memory, the growth time(10n)/time(n) and the ratio keyedjson /
    foundation at 10n; --tsv prints one line per measurement: case, operation, implementation,
    size, seconds (or >S, failed), peak bytes, retained bytes. Each case is first checked at a
    small size in this process; --check-only stops there. The cases:
    \(makeScalingCases().map { "  \($0.name) \($0.operation): \($0.summary)" }.joined(separator: "\n"))
    lossy-report and lossy-drops run at 10n and 100n.
    """)
  exit(0)
}

if arguments.contains("--scaling") {
  do {
    exit(runScaling(try ScalingOptions(Array(arguments))))
  } catch {
    print("keyed-bench: \(error)")
    exit(2)
  }
}

// --smoke is --quick with one round, no warm-up and smaller stream and memory runs: every
// scenario still validates that the implementations decode and encode the same values, which
// is all CI's debug run checks.
let smoke = arguments.contains("--smoke")
let quick = smoke || arguments.contains("--quick")
let tsv = arguments.contains("--tsv")
let only: Set<String>? = arguments.firstIndex(of: "--only").flatMap { index in
  let next = arguments.index(after: index)
  return next < arguments.endIndex
    ? Set(arguments[next].split(separator: ",").map(String.init)) : nil
}

func wanted(_ id: String) -> Bool { only?.contains(id) ?? true }

let rounds = smoke ? 1 : quick ? 5 : 15
let warmup = smoke ? 0 : quick ? 1 : 3

var scenarios: [() throws -> Scenario] = []
if wanted("P1") {
  scenarios.append {
    try p1Scenario(id: "P1", title: "flat: objects of 20 fields", objects: quick ? 200 : 1000)
  }
}
if wanted("P2") { scenarios.append { try p2Scenario(objects: quick ? 200 : 1000) } }
if wanted("P3") { scenarios.append { try p3Scenario(keys: quick ? 1000 : 5000) } }
if wanted("P4") { scenarios.append { try p4Scenario(elements: quick ? 200 : 1000) } }
if wanted("P5") {
  for size in quick ? [100, 1000] : [100, 1000, 10_000, 100_000] {
    scenarios.append {
      try p1Scenario(id: "P5-\(size)", title: "scale: P1 at \(size) objects", objects: size)
    }
  }
}
if wanted("P6") { scenarios.append { try p6Scenario(objects: quick ? 200 : 1000) } }
if wanted("config") { scenarios.append { try configuredScenario(users: quick ? 200 : 1000) } }
if wanted("dates") { scenarios.append { try datesScenario(objects: quick ? 10_000 : 100_000) } }
if wanted("decimals") { scenarios.append { try decimalsScenario(objects: quick ? 2000 : 10_000) } }
if wanted("snakecase") {
  scenarios.append { try snakeCaseScenario(objects: quick ? 2000 : 10_000) }
}
if wanted("uuids") { scenarios.append { try uuidsScenario(objects: quick ? 2000 : 10_000) } }
if wanted("optionals") {
  scenarios.append { try optionalsScenario(objects: quick ? 2000 : 10_000) }
}
if wanted("payloads") {
  scenarios.append { try payloadsScenario(objects: quick ? 2000 : 10_000) }
}
if wanted("maps") { scenarios.append { try mapsScenario(objects: quick ? 2000 : 10_000) } }
if wanted("sortedkeys") {
  scenarios.append { try sortedKeysScenario(objects: quick ? 2000 : 10_000) }
}
if wanted("base64") { scenarios.append { try base64Scenario(objects: quick ? 2000 : 10_000) } }
if wanted("formatteddates") {
  scenarios.append { try formattedDatesScenario(objects: quick ? 200 : 1000) }
}
if wanted("small") {
  scenarios.append { try smallDocumentsScenario(documents: quick ? 200 : 1000) }
}
// The corpus documents have a fixed size; --quick runs them with fewer rounds.
if wanted("twitter") { scenarios.append(twitterScenario) }
if wanted("citm") { scenarios.append(citmScenario) }
if wanted("canada") { scenarios.append(canadaScenario) }
if wanted("revisit") { scenarios.append { try revisitScenario(objects: quick ? 200 : 1000) } }
if wanted("anyjson") {
  for (document, file) in [
    ("twitter", "twitter.json"), ("citm", "citm_catalog.json"), ("canada", "canada.json"),
  ] {
    scenarios.append { try anyJSONScenario(document: document, file: file) }
  }
}
// The same documents as a JSON value; only with --only jsonvalue (or jsonvalue-twitter, ...).
for document in ["twitter", "citm_catalog", "canada"] {
  let id = "jsonvalue-" + (document == "citm_catalog" ? "citm" : document)
  if only?.contains("jsonvalue") == true || only?.contains(id) == true {
    scenarios.append { try jsonValueScenario(document: document, id: id) }
  }
}

var measurements: [Measurement] = []
for make in scenarios {
  let scenario = try make()
  let results = try run(scenario, rounds: rounds, warmup: warmup)
  measurements += results
  if tsv {
    for m in results {
      let value = scenario.id.hasPrefix("P5-") ? m.nanosecondsPerObject : m.medianNanoseconds
      print(
        [
          scenario.id, m.operation, m.implementation, String(format: "%.0f", value),
          String(format: "%.3f", m.ratio),
        ]
        .joined(separator: "\t"))
    }
  } else {
    print("\(scenario.id)  \(scenario.title)  (\(scenario.payload.count / 1024) KiB)")
    for m in results {
      print(
        "  \(m.operation.padding(toLength: 7, withPad: " ", startingAt: 0))"
          + "\(m.implementation.padding(toLength: 16, withPad: " ", startingAt: 0))"
          + String(
            format: "%10.3f ms  %6.3f×  %8.1f MB/s  %9.0f ns/object", m.medianNanoseconds / 1e6,
            m.ratio, m.megabytesPerSecond, m.nanosecondsPerObject))
    }
  }
}

let scale = measurements.filter {
  $0.scenario.id.hasPrefix("P5-") && $0.implementation == "keyedcodable"
}
if !tsv, !scale.isEmpty {
  print("P5  time per object relative to 1,000 objects (keyedcodable)")
  for operation in ["decode", "encode"] {
    let rows = scale.filter { $0.operation == operation }
    guard let base = rows.first(where: { $0.scenario.objects == 1000 }) else { continue }
    let text = rows.map {
      "\($0.scenario.objects): \(String(format: "%.2f", $0.nanosecondsPerObject / base.nanosecondsPerObject))"
    }
    print("  \(operation)  " + text.joined(separator: "  "))
  }
}

if wanted("stream") {
  // Issue 22: a streamed export, written and read back, against the in-memory decode.
  try runStreamScenario(
    records: smoke ? 2_000 : quick ? 20_000 : 1_000_000, rounds: quick ? 1 : 3, tsv: tsv)
}

if wanted("memory") {
  let objects = smoke ? 1_000 : quick ? 10_000 : 100_000
  let peaks = try measurePeakMemory(objects: objects)
  let reference = peaks.first { $0.implementation == "synthesized" }
  for peak in peaks {
    let ratio = Double(peak.decodeIncrease) / Double(max(1, reference?.decodeIncrease ?? 1))
    if tsv {
      print(
        [
          "memory", "decode", peak.implementation, String(peak.decodeIncrease),
          String(format: "%.3f", ratio),
        ].joined(separator: "\t"))
    } else {
      print(
        "memory  P1 × \(objects) decode  \(peak.implementation.padding(toLength: 14, withPad: " ", startingAt: 0))"
          + String(
            format: "peak rise %7.1f MB  %6.3f×  (process peak %.1f MB)",
            Double(peak.decodeIncrease) / 1_048_576, ratio, Double(peak.processPeak) / 1_048_576))
    }
  }
}
