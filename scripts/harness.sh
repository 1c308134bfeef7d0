#!/usr/bin/env bash
# harness: the end-to-end suite against the real agent harnesses (Claude
# Code, Codex CLI, Gemini CLI at pinned versions from the npm registry),
# each driven offline by a mock of its model API (internal/harnesstest).
# Usage: scripts/harness.sh [RAC_BINARY]   (make harness passes bin/rac)
# RAC_HARNESS_CORPUS=N|all: how many failures of explain's corpora
# TestExplainCorpusThroughHarnesses replays (default 24; all: about 15 min)
#
# The packages go into a cache folder (RAC_HARNESS_CACHE, default
# ~/.cache/rac-harness), installed once per version set. When they (or
# node and npm) cannot be had, the suite prints a loud SKIP with the
# reason and exits 0: a machine without the registry still runs make.
set -uo pipefail
cd "$(dirname "$0")/.."

CLAUDE_VER=2.1.328
CODEX_VER=0.169.0
GEMINI_VER=0.61.0
# the MCP Inspector CLI, a generic MCP client nobody on the project wrote:
# 0.15.0 is the last version that runs on the Node.js 20 that .ci/run
# installs (0.16-0.22 need >= 22.7.5, 2.x >= 22.19)
INSPECTOR_VER=0.15.0
CACHE=${RAC_HARNESS_CACHE:-$HOME/.cache/rac-harness}
RAC=${1:-bin/rac}

skip() {
  echo
  echo "=================================================================="
  echo "SKIP: make harness: $*"
  echo "=================================================================="
  exit 0
}

if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "harness: installing node and npm"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null \
      || skip "node and npm are missing and apt-get could not install them"
  else
    skip "node and npm are missing (install nodejs and npm, or run as root to let apt-get do it)"
  fi
fi

stamp="$CACHE/.installed-$CLAUDE_VER-$CODEX_VER-$GEMINI_VER"
if [ ! -f "$stamp" ]; then
  echo "harness: installing @anthropic-ai/claude-code@$CLAUDE_VER @openai/codex@$CODEX_VER @google/gemini-cli@$GEMINI_VER into $CACHE"
  mkdir -p "$CACHE"
  if ! npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error \
      "@anthropic-ai/claude-code@$CLAUDE_VER" "@openai/codex@$CODEX_VER" "@google/gemini-cli@$GEMINI_VER" >"$CACHE/npm.log" 2>&1; then
    tail -5 "$CACHE/npm.log"
    skip "npm install failed (no registry?); log: $CACHE/npm.log"
  fi
  touch "$stamp"
fi

# the Inspector in a folder of its own: its version moves apart from the
# harnesses', and a failure to install it skips only its test
inspector_stamp="$CACHE/inspector/.installed-$INSPECTOR_VER"
if [ ! -f "$inspector_stamp" ]; then
  echo "harness: installing @modelcontextprotocol/inspector@$INSPECTOR_VER into $CACHE/inspector"
  mkdir -p "$CACHE/inspector"
  if npm install --prefix "$CACHE/inspector" --no-audit --no-fund --loglevel=error \
      "@modelcontextprotocol/inspector@$INSPECTOR_VER" >"$CACHE/inspector/npm.log" 2>&1; then
    touch "$inspector_stamp"
  else
    echo "harness: the MCP Inspector could not be installed (its test skips); log: $CACHE/inspector/npm.log"
  fi
fi
export RAC_HARNESS_INSPECTOR="$CACHE/inspector/node_modules/.bin/mcp-inspector-cli"

BIN="$CACHE/node_modules/.bin"
for h in claude codex gemini; do
  [ -x "$BIN/$h" ] || skip "$h is missing from $BIN after npm install"
done
echo "harness: $("$BIN/claude" --version 2>&1 | head -1); $("$BIN/codex" --version 2>&1 | head -1); gemini $("$BIN/gemini" --version 2>&1 | head -1)"

if [ $# -eq 0 ] || [ ! -x "$RAC" ]; then
  CGO_ENABLED=0 go build -o "$(dirname "$RAC")/" ./cmd/rac ./cmd/rac-mcp || exit 1
fi
RAC=$(cd "$(dirname "$RAC")" && pwd)/$(basename "$RAC")

# the mocks' worlds live outside /tmp (Codex's workspace-write sandbox
# may write /tmp, not a home): under the cache folder
export RAC_HARNESS=1 RAC_HARNESS_BIN="$BIN" RAC_HARNESS_RAC="$RAC" RAC_HARNESS_WORLDS="$CACHE/worlds"
out=$(mktemp)
# the bound: 10 minutes, 40 when every failure of explain's corpora is
# replayed (that alone took about 15 minutes)
bound=10
[ "${RAC_HARNESS_CORPUS:-}" = all ] && bound=40
go test -count=1 -timeout $((bound * ${RAC_TEST_SCALE:-1}))m -v ./internal/harnesstest/ 2>&1 | tee "$out" | grep -E '^(=== RUN|--- |    --- |PASS|FAIL|ok|panic)|SKIP'
status=${PIPESTATUS[0]}
# The session tests again in a PID namespace of their own, where the
# process session's leader is outside and its id reads 0: a container's
# view (a CI machine's), which took one rule of rac's away unnoticed once.
if [ "$status" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
  echo "harness: the session and MCP tests again in a PID namespace"
  unshare --pid --fork --mount-proc go test -count=1 -timeout $((10 * ${RAC_TEST_SCALE:-1}))m -v -run 'Session|MCP' ./internal/harnesstest/ 2>&1 | tee -a "$out" | grep -E '^(--- |    --- |PASS|FAIL|ok|panic)|SKIP'
  status=${PIPESTATUS[0]}
fi
# the measured tables (docs/agents.md, "Long output"): per harness, what
# the model received of the long failing build and of explain's corpora
# (RAC_HARNESS_CORPUS: how many of the corpora's failures, default 24; all)
echo
echo "harness: what the model received (characters of the first tool result; the causal line in it):"
grep -E '^ +([a-z_]+_test\.go:[0-9]+: measured|\||[A-Za-z ]+, .*: the cause did not reach)' "$out" | sed -E 's/^ +//; s/^[a-z_]+_test\.go:[0-9]+: //'
echo
echo "harness: $(grep -c -- '--- PASS' "$out") passed, $(grep -c -- '--- FAIL' "$out") failed, $(grep -c -- '--- SKIP' "$out") skipped"
if [ "$status" != 0 ]; then
  grep -B2 -A40 -E -- '--- FAIL|Error Trace' "$out" | head -300
  echo "harness: FAILED; the full log (every request the mocks got) is in $out"
  exit "$status"
fi
rm -f "$out"
