#!/usr/bin/env bash
# The main job, end to end: rac records a real git command in one shell,
# and a second shell of another session reads it back by the qualified
# reference that the first one printed.
set -euo pipefail
rac=${1:?usage: demo.sh path/to/rac}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RAC_HOME="$work/store"
git -C "$work" init -q repo
git -C "$work/repo" -c user.name=Demo -c user.email=demo@example.com commit -q --allow-empty -m "first commit"
git -C "$work/repo" -c user.name=Demo -c user.email=demo@example.com commit -q --allow-empty -m "second commit"

echo "== shell 1 (session demo-one): rac run -- git log --oneline"
RAC_SESSION=demo-one "$rac" run -- git -C "$work/repo" log --oneline 2> "$work/stderr"
cat "$work/stderr"
ref=$(sed -n 's/^rac: ref \([^ ]*\).*/\1/p' "$work/stderr" | tail -1)

echo
echo "== shell 2 (session demo-two): rac out read $ref"
env RAC_SESSION=demo-two RAC_HOME="$RAC_HOME" PATH="$PATH" HOME="$HOME" bash -c "'$rac' out read '$ref'"
echo
echo "== shell 2: rac out list --session demo-one"
RAC_SESSION=demo-two "$rac" out list --session demo-one
