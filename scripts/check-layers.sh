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
programs='wiring|racmcp'
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
# the public packages (pkg/racrecord) are a library: they call the
# application layer and load settings through wiring, and link no
# command-line, colour or printing package, nor the MCP SDK
for pkg in $(go list ./pkg/...); do
  deps=$(go list -deps "$pkg")
  for forbidden in github.com/spf13/cobra github.com/fatih/color github.com/rac-cli/rac/internal/ui; do
    if grep -qx "$forbidden" <<<"$deps"; then echo "layers: $pkg links $forbidden"; bad=1; fi
  done
  if grep -q '^github.com/modelcontextprotocol/' <<<"$deps"; then echo "layers: $pkg links the MCP SDK"; bad=1; fi
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
# cmd/rac calls the application layer, renders through ui and reads the
# settings through config and wiring: no domain package directly (the
# depguard rule "cmd" says the same of each file)
for imp in $(go list -f '{{join .Imports "\n"}}' ./cmd/rac | grep '/internal/'); do
  case $imp in
    */internal/app|*/internal/ui|*/internal/config|*/internal/wiring) ;;
    *) echo "layers: cmd/rac imports $imp (call it through internal/app or internal/wiring)"; bad=1 ;;
  esac
done
# cmd/rac is the cobra wiring and nothing else: each command's Use,
# Short, long help, examples and flags side by side in its cmd_<verb>.go,
# one call into internal/app and rendering through internal/ui. No line
# cap holds it: golangci-lint's funlen (60 lines a function, in make lint)
# does, so a verb that needs more wiring than that has logic that belongs
# in internal/app (the exit statuses are in its exit.go, the assembly of
# the settings into what the services and hooks take in internal/wiring).
# rac run's start-up runs every package initialiser: a regexp compiled at
# package level costs each recorded command (compile it on first use)
if grep -rnE '^(var )?[[:space:]]*[A-Za-z_][A-Za-z0-9_]* *= *regexp\.MustCompile' --include='*.go' internal cmd | grep -v '_test\.go:' | grep -vE '^internal/[a-z/]*test/'; then
  echo "layers: a package-level regexp.MustCompile above (use sync.OnceValue)"; bad=1
fi
[ $bad = 0 ] && echo "layers: ok ($(wc -w <<<"$domain") domain packages)"
exit $bad
