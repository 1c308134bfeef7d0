#!/usr/bin/env bash
# make faults: the fault suite. rac run killed with SIGKILL at random
# points, gc and purge killed, concurrent runs with gc and readers, a full
# disk (a small tmpfs, as root), hostile stores and references, the secret
# corpus in pipe and pty mode, the wild corpus (testdata/redact/wild.txt:
# three rows, one class a recording in six capture forms with the store,
# every rac out view and the MCP tools checked, the same with --no-redact,
# and the real git, jq, yq and grep in colour), a chatty writer under a
# small cap, a burst of recordings over a session's limit, future-dated
# files, a tail after a 100 MB line and a tampered seq counter, the
# edges of issue 29 (malformed MCP frames through rac-mcp, deny rules
# spelled differently through rac hook claude, ulimit -n 3 to 40, kill
# -TSTP of rac, kill -9 of rac-mcp during a run, the end of input under
# script(1), symlinked settings, C1 controls in --json) (internal/faults,
# RAC_FAULTS=1), the fault testscripts (testdata/script/faults_*.txtar),
# and every fuzz target for FAULTS_FUZZTIME (20s) each. Prints one table
# (scenario, iterations, failures, seed) and exits 1 on any failure.
# RAC_FAULTS_SEED=N replays the randomised parts; RAC_FAULTS_SHORT=1 runs
# few iterations.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
fuzztime=${FAULTS_FUZZTIME:-20s}
seed=${RAC_FAULTS_SEED:-$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary=$work/summary
: >"$summary"
start=$SECONDS
rc=0

row() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$summary"; }

# the binary under test: the Makefile's (make faults builds it), or one
# built here
rac=${1:-}
if [ -z "$rac" ]; then
  rac=$work/rac
  # rac-mcp beside it: the wild corpus's MCP checks start it
  if ! go build -o "$work/" ./cmd/rac ./cmd/rac-mcp; then
    echo "faults: rac does not build"
    exit 1
  fi
fi
rac=$(cd "$(dirname "$rac")" && pwd)/$(basename "$rac")

echo "faults: scenarios (seed $seed)"
if ! RAC_FAULTS=1 RAC_FAULTS_BIN="$rac" RAC_FAULTS_SUMMARY="$summary" RAC_FAULTS_SEED="$seed" \
    go test -count=1 -timeout $((30 * ${RAC_TEST_SCALE:-1}))m -v ./internal/faults/ >"$work/faults.log" 2>&1; then
  rc=1
  grep -vE '^(=== (RUN|PAUSE|CONT)|    --- PASS|--- PASS)' "$work/faults.log" | grep -v 'summary: ' | tail -150
fi

# the fault testscripts, testdata/script/faults_*.txtar: regression cases
# of what the suite found, also part of every test run (TestScripts); a
# script that did not run is a failure too
echo "faults: testscripts"
files=(testdata/script/faults_*.txtar)
if ! GORACE=atexit_sleep_ms=0 go test -count=1 -v -run '^TestScripts$/^faults_' ./cmd/rac/ >"$work/scripts.log" 2>&1; then
  rc=1
  tail -60 "$work/scripts.log"
fi
passed=$(grep -ac -- '--- PASS: TestScripts/faults_' "$work/scripts.log")
if [ "$passed" != "${#files[@]}" ]; then
  rc=1
fi
row "testscripts testdata/script/faults_*.txtar" "${#files[@]}" "$((${#files[@]} - passed))" -

# every fuzz target, the resolver's included, each for $fuzztime. Unlike
# fuzz-all.sh (make fuzz), a failing target does not stop the rest: each
# is counted, and its failing input is left in its package's testdata/fuzz
# (go test's way), named in the output below.
fuzz1() { # PKG FN
  local out
  if out=$(go test -run '^$' -fuzz "^$2\$" -fuzztime "$fuzztime" "$1" 2>&1); then
    return 0
  fi
  echo "$out"
  # the engine can miss its own stop deadline on a loaded machine
  # ("context deadline exceeded", no failing input): once more
  if grep -q 'context deadline exceeded' <<<"$out" && ! grep -q 'Failing input written' <<<"$out"; then
    echo "fuzz $1 $2: the engine missed its stop deadline; once more"
    go test -run '^$' -fuzz "^$2\$" -fuzztime "$fuzztime" "$1"
  else
    return 1
  fi
}
targets=()
while IFS= read -r f; do
  while IFS= read -r fn; do
    targets+=("./$(dirname "$f") $fn")
  done < <(grep -oE '^func Fuzz[A-Za-z0-9_]+' "$f" | sed 's/^func //')
done < <(grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(' internal cmd | sort)
echo "faults: ${#targets[@]} fuzz targets, $fuzztime each"
fstart=$SECONDS
ffail=0
for t in "${targets[@]}"; do
  if ! fuzz1 "${t% *}" "${t#* }" >"$work/fuzz.log" 2>&1; then
    rc=1
    ffail=$((ffail + 1))
    echo "faults: fuzz ${t% *} ${t#* } failed:"
    tail -40 "$work/fuzz.log"
  fi
done
row "fuzz, $fuzztime a target ($((SECONDS - fstart))s)" "${#targets[@]}" "$ffail" -

echo
printf '%-56s %10s %9s  %s\n' scenario iterations failures seed
fails=0
while IFS=$'\t' read -r name iters nfail s; do
  printf '%-56s %10s %9s  %s\n' "$name" "$iters" "$nfail" "$s"
  fails=$((fails + nfail))
done <"$summary"
if [ "$rc" != 0 ] && [ "$fails" = 0 ]; then
  fails=1 # a failure no row counted (a build, a panic)
fi
echo "faults: $fails failures in $((SECONDS - start))s (replay: RAC_FAULTS_SEED=$seed make faults)"
[ "$rc" = 0 ] && [ "$fails" = 0 ]
