#!/usr/bin/env bash
# Fuzzes KeyedCodable with libFuzzer and AddressSanitizer for a given number of seconds.
#
#   Scripts/fuzz.sh 60            # fuzz for 60 seconds (the default)
#   Scripts/fuzz.sh 60 -jobs=2    # extra arguments go to libFuzzer
#
# Builds the binary it shares with the differential JSON target (Scripts/fuzz-build.sh: the
# library sources and Fuzz/ in one module, no package changes) and links it as
# .build-fuzz/keyed-fuzz, the name that picks this target. Starts from the committed seed
# corpus Fuzz/corpus/ and keeps what it learns in .build-fuzz/corpus/. Exits non-zero when
# libFuzzer finds a crash, a leak, a timeout or an out-of-memory input, and prints the path of
# the saved input: replay it with
#
#   SWIFT_BACKTRACE=enable=no KEYED_FUZZ_VERBOSE=1 .build-fuzz/keyed-fuzz <path>
#
# Environment: SWIFTC (default swiftc), FUZZ_TIMEOUT (seconds per input, default 10),
# FUZZ_RSS_LIMIT_MB (default 2048).
set -euo pipefail

duration="${1:-60}"
shift || true
if ! [[ "$duration" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 SECONDS [libFuzzer options...]" >&2
  exit 2
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build=".build-fuzz"
binary="$build/keyed-fuzz"
artifacts="$build/artifacts"
corpus="$build/corpus"
mkdir -p "$build" "$artifacts" "$corpus"

# The binary both targets share; its name here picks this target (Fuzz/FuzzTargets.swift).
targets="$(Scripts/fuzz-build.sh)"
ln -sf "$(realpath "$targets")" "$binary"

# Inputs found by earlier runs of this script stay in $artifacts; only new ones count.
before="$(mktemp)"
trap 'rm -f "$before"' EXIT
find "$artifacts" -type f | sort > "$before"

# libFuzzer and AddressSanitizer print the stack of a crash; Swift's own backtracer is slow
# to symbolicate and trips AddressSanitizer while it reads the crashed process.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

echo "==> Fuzzing for ${duration}s"
status=0
"$binary" "$corpus" Fuzz/corpus \
  -dict=Fuzz/keyed.dict \
  -max_total_time="$duration" \
  -timeout="${FUZZ_TIMEOUT:-10}" \
  -rss_limit_mb="${FUZZ_RSS_LIMIT_MB:-2048}" \
  -max_len=4096 \
  -print_final_stats=1 \
  -artifact_prefix="$artifacts/" \
  "$@" || status=$?

found="$(find "$artifacts" -type f | sort | comm -13 "$before" -)"
if [[ -n "$found" ]]; then
  echo "==> libFuzzer saved failing inputs:" >&2
  echo "$found" | sed 's/^/    /' >&2
  echo "    replay with: SWIFT_BACKTRACE=enable=no KEYED_FUZZ_VERBOSE=1 $binary <path>" >&2
  exit 1
fi
if [[ "$status" -ne 0 ]]; then
  echo "==> libFuzzer exited with status $status" >&2
  exit "$status"
fi
echo "==> No crash in ${duration}s"
