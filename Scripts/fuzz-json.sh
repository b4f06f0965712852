#!/usr/bin/env bash
# Fuzzes KeyedJSONDecoder and KeyedJSONEncoder against Foundation's JSONDecoder and JSONEncoder
# with libFuzzer and AddressSanitizer, for a given number of seconds.
#
#   Scripts/fuzz-json.sh 60                          # fuzz for 60 seconds (the default)
#   Scripts/fuzz-json.sh 3600 -jobs=1 -workers=1     # extra arguments go to libFuzzer
#
# Builds the binary it shares with the key-path target (Scripts/fuzz-build.sh: the library
# sources and Fuzz/ in one module, no package changes) and links it as
# .build-fuzz-json/json-fuzz, the name that picks this target. Starts from the committed seed corpus
# Fuzz/JSONDifferential/corpus/ and keeps what it learns in .build-fuzz-json/corpus/. Exits
# non-zero when libFuzzer finds a difference (the target traps), a crash, a leak, a timeout or
# an out-of-memory input, and prints the path of the saved input: replay it with
#
#   SWIFT_BACKTRACE=enable=no JSON_FUZZ_VERBOSE=1 .build-fuzz-json/json-fuzz <path>
#
# An input is a JSON document; a first byte in C0-DF picks coder options instead (see
# Fuzz/JSONDifferential/JSONDifferentialFuzz.swift).
#
# Environment: SWIFTC (default swiftc), FUZZ_TIMEOUT (seconds per input, default 20: the
# large documents of LargeDocuments.swift take up to about 2 s here under AddressSanitizer, and a
# shared CI machine can be several times slower),
# FUZZ_RSS_LIMIT_MB (default 2048), FUZZ_SANITIZERS (default fuzzer,address; `fuzzer` alone runs
# several times faster for long differential runs, without memory-error checks),
# ASAN_OPTIONS (default malloc_context_size=2),
# JSON_FUZZ_STRICT=1 (trap on the documented differences from Foundation too, to see which still
# occur).
set -euo pipefail

duration="${1:-60}"
shift || true
if ! [[ "$duration" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 SECONDS [libFuzzer options...]" >&2
  exit 2
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="Fuzz/JSONDifferential"
build=".build-fuzz-json"
binary="$build/json-fuzz"
artifacts="$build/artifacts"
corpus="$build/corpus"
mkdir -p "$build" "$artifacts" "$corpus"

# The binary both targets share; its name here picks this target (Fuzz/FuzzTargets.swift).
targets="$(Scripts/fuzz-build.sh "${FUZZ_SANITIZERS:-fuzzer,address}")"
ln -sf "$(realpath "$targets")" "$binary"

# Inputs found by earlier runs of this script stay in $artifacts; only new ones count.
before="$(mktemp)"
trap 'rm -f "$before"' EXIT
find "$artifacts" -type f | sort > "$before"

# libFuzzer and AddressSanitizer print the stack of a crash; Swift's own backtracer is slow
# to symbolicate and trips AddressSanitizer while it reads the crashed process.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
# Recording the whole allocation stack of every malloc halves the speed of this
# allocation-heavy target, so two frames are kept: a memory error still reports its own stack,
# and LeakSanitizer needs a frame past malloc to report a leak (with none it reports nothing,
# libFuzzer stops looking for leaks, and a leak shows only as out-of-memory much later). Set
# ASAN_OPTIONS to override.
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=2}"

echo "==> Fuzzing for ${duration}s"
status=0
"$binary" "$corpus" "$target/corpus" \
  -dict="$target/json.dict" \
  -max_total_time="$duration" \
  -timeout="${FUZZ_TIMEOUT:-20}" \
  -rss_limit_mb="${FUZZ_RSS_LIMIT_MB:-2048}" \
  -max_len=4096 \
  -print_final_stats=1 \
  -artifact_prefix="$artifacts/" \
  "$@" || status=$?

found="$(find "$artifacts" -type f | sort | comm -13 "$before" -)"
if [[ -n "$found" ]]; then
  echo "==> libFuzzer saved failing inputs:" >&2
  echo "$found" | sed 's/^/    /' >&2
  echo "    replay with: SWIFT_BACKTRACE=enable=no JSON_FUZZ_VERBOSE=1 $binary <path>" >&2
  exit 1
fi
if [[ "$status" -ne 0 ]]; then
  echo "==> libFuzzer exited with status $status" >&2
  exit "$status"
fi
echo "==> No difference in ${duration}s"
