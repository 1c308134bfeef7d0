#!/usr/bin/env bash
# The layering, checked on what is linked (go list -deps), not only on
# what is imported directly (depguard): no domain package pulls in the
# command-line, settings or colour libraries, or the layers above it.
set -euo pipefail
cd "$(dirname "$0")/.."
# front ends beside cmd/rac: they call the application layer, as the
# command line does, and never the command-line or settings libraries
frontends='mcpserver'
# programs: the front-end programs' own packages, which may link all of it
programs='appconfig|mcpcmd'
domain=$(go list ./internal/... | grep -Ev "/internal/(app|ui|config|$frontends|$programs)\$")
bad=0
for pkg in $domain; do
  deps=$(go list -deps "$pkg")
  for forbidden in github.com/spf13/cobra github.com/spf13/viper github.com/fatih/color \
      github.com/rac-cli/rac/internal/app github.com/rac-cli/rac/internal/ui github.com/rac-cli/rac/internal/config; do
    if grep -qx "$forbidden" <<<"$deps"; then
      echo "layers: $pkg links $forbidden"; bad=1
    fi
  done
done
for pkg in app $frontends; do
  for forbidden in github.com/spf13/cobra github.com/spf13/viper github.com/fatih/color github.com/rac-cli/rac/internal/ui github.com/rac-cli/rac/internal/config; do
    if go list -deps ./internal/$pkg | grep -qx "$forbidden"; then echo "layers: internal/$pkg links $forbidden"; bad=1; fi
  done
done
# rac run links no MCP SDK: its package initialisers would cost every
# recorded command's start-up (rac mcp runs rac-mcp, which links it)
if go list -deps ./cmd/rac | grep -q '^github.com/modelcontextprotocol/'; then
  echo "layers: cmd/rac links the MCP SDK (it belongs in cmd/rac-mcp)"; bad=1
fi
# hook asks only whether a program is interactive (internal/interactive):
# it links no pseudo-terminal library, as capture does
if go list -deps ./internal/hook | grep -q pty; then
  echo "layers: internal/hook links a pty library (ask internal/interactive, not capture)"; bad=1
fi
# cmd/rac is the cobra wiring and nothing else, and 1,200 lines hold it:
# the commands' long help and examples are in internal/ui (help.go, by
# command path) beside the hints under errors, the exit statuses in
# internal/app (exit.go), and the assembly of the settings into what the
# services and hooks take in internal/appconfig. A verb that needs more
# than about 60 lines of wiring has logic that belongs in a package.
n=$(cat $(ls cmd/rac/*.go | grep -v _test.go) | wc -l)
if [ "$n" -gt 1200 ]; then echo "layers: cmd/rac has $n non-test lines (at most 1200: logic belongs in internal/app, text people read in internal/ui)"; bad=1; fi
# rac run's start-up runs every package initialiser: a regexp compiled at
# package level costs each recorded command (compile it on first use)
if grep -rnE '^(var )?[[:space:]]*[A-Za-z_][A-Za-z0-9_]* *= *regexp\.MustCompile' --include='*.go' internal cmd | grep -v '_test\.go:' | grep -vE '^internal/[a-z/]*test/'; then
  echo "layers: a package-level regexp.MustCompile above (use sync.OnceValue)"; bad=1
fi
[ $bad = 0 ] && echo "layers: ok ($(wc -w <<<"$domain") domain packages; cmd/rac $n non-test lines)"
exit $bad
