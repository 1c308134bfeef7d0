#!/usr/bin/env bash
# make faults: the fault suite. rac run killed with SIGKILL at random
# points, gc and purge killed, concurrent runs with gc and readers, a full
# disk (a small tmpfs, as root), hostile stores and references, the secret
# corpus in pipe and pty mode (internal/faults, RAC_FAULTS=1), the fault
# testscripts (cmd/rac/testdata/faults_*.txtar), and every fuzz target
# for FAULTS_FUZZTIME (20s) each. Prints one table (scenario, iterations,
# failures, seed) and exits 1 on any failure. RAC_FAULTS_SEED=N replays
# the randomised parts; RAC_FAULTS_SHORT=1 runs few iterations.
set -uo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FAULTS_FUZZTIME:-20s}
seed=${RAC_FAULTS_SEED:-$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary=$work/summary
: >"$summary"
start=$SECONDS
rc=0

row() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$summary"; }

if ! go build -o "$work/rac" ./cmd/rac; then
  echo "faults: rac does not build"
  exit 1
fi

echo "faults: scenarios (seed $seed)"
if ! RAC_FAULTS=1 RAC_FAULTS_BIN="$work/rac" RAC_FAULTS_SUMMARY="$summary" RAC_FAULTS_SEED="$seed" \
    go test -count=1 -timeout 30m -v ./internal/faults/ >"$work/faults.log" 2>&1; then
  rc=1
  grep -vE '^(=== (RUN|PAUSE|CONT)|    --- PASS|--- PASS)' "$work/faults.log" | grep -v 'summary: ' | tail -150
fi

echo "faults: testscripts"
n=$(ls cmd/rac/testdata/faults_*.txtar | wc -l)
if GORACE=atexit_sleep_ms=0 go test -count=1 -run '^TestFaultScripts$' ./cmd/rac/ >"$work/scripts.log" 2>&1; then
  row "testscripts cmd/rac/testdata/faults_*" "$n" 0 -
else
  rc=1
  row "testscripts cmd/rac/testdata/faults_*" "$n" "$(grep -c -- '--- FAIL: TestFaultScripts/' "$work/scripts.log")" -
  tail -60 "$work/scripts.log"
fi

# every fuzz target: the resolver's (which fuzz-all leaves to the
# Makefile) and fuzz-all's
n=$(( $(grep -rh --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(' internal cmd | wc -l) ))
echo "faults: $n fuzz targets, $fuzztime each"
fstart=$SECONDS
if go test -run '^$' -fuzz '^FuzzOpen$' -fuzztime "$fuzztime" ./internal/resolve/ >"$work/fuzz.log" 2>&1 &&
    ./scripts/fuzz-all.sh "$fuzztime" >>"$work/fuzz.log" 2>&1; then
  row "fuzz, $fuzztime a target ($((SECONDS - fstart))s)" "$n" 0 -
else
  rc=1
  row "fuzz, $fuzztime a target ($((SECONDS - fstart))s)" "$n" 1 -
  tail -60 "$work/fuzz.log"
fi

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
