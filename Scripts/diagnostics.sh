#!/usr/bin/env bash
# Compile-time diagnostics: the messages the compiler gives for wrong mappings.
#
# Builds the KeyedCodable module (debug), then type-checks each file of Tests/Diagnostics
# against it:
#   - a file with `expected-error` annotations runs with `-verify`: every error (and note) in
#     the file must be annotated with its exact message, and every annotation produced;
#   - a file without them must type-check with no diagnostic at all (warnings are errors).
# Diagnostics the compiler places in the library's own sources (the notes "where 'Property' =
# 'String', 'Transform.Value' = 'Date'") are not annotated; for each "requires the types 'A'
# and 'B' be equivalent" error, the script checks that such a note names the property's type.
#
# Usage: Scripts/diagnostics.sh [file.swift ...]   (all of Tests/Diagnostics by default)
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --target KeyedCodable
modules="$(swift build --show-bin-path)/Modules"
if [[ ! -f "$modules/KeyedCodable.swiftmodule" && ! -d "$modules/KeyedCodable.swiftmodule" ]]; then
  echo "diagnostics: no KeyedCodable.swiftmodule in $modules" >&2
  exit 1
fi

if (($# > 0)); then
  files=("$@")
else
  files=(Tests/Diagnostics/*.swift)
fi

typecheck() {
  swiftc -typecheck -I "$modules" -swift-version 6 -diagnostic-style llvm "$@"
}

output=$(mktemp)
trap 'rm -f "$output"' EXIT
failed=0
for file in "${files[@]}"; do
  if grep -q 'expected-\(error\|warning\|note\)' "$file"; then
    if ! typecheck -Xfrontend -verify -Xfrontend -verify-ignore-unrelated "$file" \
      > "$output" 2>&1; then
      grep -v 'diagnostic produced elsewhere' "$output" >&2 || true
      echo "FAIL $file: the messages differ from the annotations" >&2
      failed=1
      continue
    fi
    # Each type mismatch of an operator comes with the note that says which type is the
    # property's.
    typecheck "$file" > "$output" 2>&1 || true
    mismatches=$(grep -c "error: operator function '.*' requires the types" \
      "$output" || true)
    notes=$(grep -c "note: where '\(Property\|Wrapped\)' = " "$output" || true)
    if [[ "$mismatches" != "$notes" ]]; then
      echo "FAIL $file: $mismatches type mismatches of operators, $notes notes naming the property" >&2
      failed=1
      continue
    fi
    echo "ok   $file ($(grep -c 'expected-error' "$file") errors as annotated)"
  else
    if ! typecheck -warnings-as-errors "$file"; then
      echo "FAIL $file: correct code does not type-check cleanly" >&2
      failed=1
      continue
    fi
    echo "ok   $file (no diagnostics)"
  fi
done
exit "$failed"
