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
    go test -run '^$' -fuzz "^${fn}\$" -fuzztime "$t" "$pkg"
  done
done
