#!/usr/bin/env bash
# The layering, checked on what is linked (go list -deps), not only on
# what is imported directly (depguard): no domain package pulls in the
# command-line, settings or colour libraries, or the layers above it.
set -euo pipefail
cd "$(dirname "$0")/.."
domain=$(go list ./internal/... | grep -Ev '/internal/(app|ui|config)$')
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
for forbidden in github.com/spf13/cobra github.com/spf13/viper github.com/fatih/color github.com/rac-cli/rac/internal/ui github.com/rac-cli/rac/internal/config; do
  if go list -deps ./internal/app | grep -qx "$forbidden"; then echo "layers: internal/app links $forbidden"; bad=1; fi
done
n=$(cat $(ls cmd/rac/*.go | grep -v _test.go) | wc -l)
if [ "$n" -gt 1200 ]; then echo "layers: cmd/rac has $n non-test lines (at most 1200: logic belongs in internal/app)"; bad=1; fi
[ $bad = 0 ] && echo "layers: ok ($(wc -w <<<"$domain") domain packages; cmd/rac $n non-test lines)"
exit $bad
