// The libFuzzer entry point of the one binary both fuzz targets share (Scripts/fuzz-build.sh
// compiles the library once for both): the name it runs under picks the target.
//
// - `json-fuzz` (Scripts/fuzz-json.sh): the differential JSON target,
//   Fuzz/JSONDifferential/JSONDifferentialFuzz.swift;
// - any other name, `keyed-fuzz` (Scripts/fuzz.sh): the key-path target, Fuzz/KeyedFuzz.swift.

import Foundation

/// Whether this process runs the differential JSON target: its executable's name ends in
/// `json-fuzz` (libFuzzer keeps the name for the processes it starts itself).
let fuzzesJSON = (CommandLine.arguments.first ?? "").hasSuffix("json-fuzz")

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  fuzzesJSON ? jsonDifferentialFuzzOneInput(start, count) : keyedFuzzOneInput(start, count)
}
