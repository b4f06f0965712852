#!/usr/bin/env bash
# Builds the one libFuzzer binary both fuzz targets share: the library sources, Fuzz/*.swift
# (the key-path target and the entry point) and Fuzz/JSONDifferential/*.swift (the differential
# JSON target), compiled into one module (no package changes). Compiling the library with
# optimizations takes minutes; this way it happens once for Scripts/fuzz.sh and
# Scripts/fuzz-json.sh. A binary newer than every source is kept (a new compiler or SWIFTC is not
# noticed: remove .build-fuzz/ then).
#
#   Scripts/fuzz-build.sh [SANITIZERS]   # default fuzzer,address
#
# Prints the binary's path, .build-fuzz/<sanitizers>/fuzz-targets. The name a link to it runs
# under picks the target (Fuzz/FuzzTargets.swift): `json-fuzz` the differential JSON target,
# any other the key-path target. Environment: SWIFTC (default swiftc).
set -euo pipefail

sanitizers="${1:-fuzzer,address}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build=".build-fuzz/${sanitizers//,/-}"
binary="$build/fuzz-targets"
mkdir -p "$build"

# Scripts/fuzz.sh and Scripts/fuzz-json.sh started at once after a source change would both
# build into the same path: the second waits for the first (flock, where the system has it) and
# then finds the binary up to date.
if command -v flock > /dev/null; then
  exec 9> "$build/.build-lock"
  flock 9
fi

mapfile -t sources < <(
  {
    find Sources/KeyedCodable -name '*.swift'
    find Fuzz -maxdepth 1 -name '*.swift'
    find Fuzz/JSONDifferential -maxdepth 1 -name '*.swift'
  } | sort
)
script="${BASH_SOURCE[0]}"
if [[ -x "$binary" ]] \
  && [[ -z "$(find "${sources[@]}" "$script" -newer "$binary" -print -quit)" ]]; then
  echo "==> $binary is up to date" >&2
else
  echo "==> Building $binary (${#sources[@]} files, -sanitize=$sanitizers)" >&2
  # Line tables are all a crash report needs (file and line of each frame), and cost less to
  # produce than full debug information. The driver runs one frontend job at a time unless told
  # otherwise: one per core builds in 176 s instead of about 290 s on two cores.
  jobs="$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 2)"
  "${SWIFTC:-swiftc}" -sanitize="$sanitizers" -parse-as-library -O -j "$jobs" -gline-tables-only \
    -swift-version 6 -module-name KeyedFuzz -use-ld=lld \
    "${sources[@]}" -o "$binary" >&2
fi
echo "$binary"
