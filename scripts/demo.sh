#!/usr/bin/env bash
# The main job, end to end: rac records a real git command in one shell,
# and a second shell of another session reads it back by the qualified
# reference that the first one printed. It needs nothing from the caller's
# environment but PATH: its store, config and sessions are its own, so it
# works the same from a plain shell, a login shell, CI or an agent.
set -euo pipefail
rac=${1:?usage: demo.sh path/to/rac}
case $rac in /*) ;; *) rac=$PWD/$rac ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the caller's rac settings (RAC_*, a config file) are not the demo's
while IFS= read -r v; do unset "$v"; done < <(env | sed -n 's/^\(RAC_[A-Za-z0-9_]*\)=.*/\1/p')
export RAC_HOME="$work/store" XDG_CONFIG_HOME="$work/config" NO_COLOR=1
git -C "$work" init -q repo
git -C "$work/repo" -c user.name=Demo -c user.email=demo@example.com commit -q --allow-empty -m "first commit"
git -C "$work/repo" -c user.name=Demo -c user.email=demo@example.com commit -q --allow-empty -m "second commit"

echo "== shell 1 (session demo-one): rac run -- git log --oneline"
# rac prints the reference whenever no terminal watches the run (here its
# output goes into tee); --announce both would ask for it at a terminal too
RAC_SESSION=demo-one "$rac" run -- git -C "$work/repo" log --oneline 2>&1 | tee "$work/out"
ref=$(sed -n 's/^rac: ref \([^ ]*\).*/\1/p' "$work/out" | tail -1)
if [ -z "$ref" ]; then
  echo "demo: rac printed no reference" >&2
  exit 1
fi

echo
echo "== shell 2 (session demo-two): rac out read $ref"
env -i RAC_SESSION=demo-two RAC_HOME="$RAC_HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" PATH="$PATH" HOME="${HOME:-$work}" NO_COLOR=1 \
  bash -c '"$0" out read "$1"' "$rac" "$ref"
echo
echo "== shell 2: rac out list --session demo-one"
RAC_SESSION=demo-two "$rac" out list --session demo-one
