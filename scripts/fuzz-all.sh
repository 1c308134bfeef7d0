#!/usr/bin/env bash
# Runs every Fuzz target of the module (except the resolver's, run by the
# Makefile itself) for the given time each.
set -euo pipefail
t=${1:-10s}
cd "$(dirname "$0")/.."
grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(' internal cmd 2>/dev/null | while read -r f; do
  pkg=./$(dirname "$f")
  for fn in $(grep -oE '^func Fuzz[A-Za-z0-9_]+' "$f" | sed 's/^func //'); do
    [ "$fn" = FuzzOpen ] && [ "$pkg" = ./internal/resolve ] && continue
    echo "fuzz $pkg $fn ($t)"
    # The fuzzing engine can miss its own stop deadline on a loaded
    # machine ("context deadline exceeded", no failing input): run that
    # target once more. A real failure writes its input and fails at once.
    if ! out=$(go test -run '^$' -fuzz "^${fn}\$" -fuzztime "$t" "$pkg" 2>&1); then
      echo "$out"
      if grep -q 'context deadline exceeded' <<<"$out" && ! grep -q 'Failing input written' <<<"$out"; then
        echo "fuzz $pkg $fn: the engine missed its stop deadline; once more"
        go test -run '^$' -fuzz "^${fn}\$" -fuzztime "$t" "$pkg"
      else
        exit 1
      fi
    else
      echo "$out" | tail -1
    fi
  done
done
