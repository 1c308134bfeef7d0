#!/usr/bin/env bash
# man: one man page per command, from the command tree (cobra/doc), into
# man/ (MAN_DIR overrides). The pages come from cmd/rac's TestManPages,
# so rac itself does not link a markdown renderer; the binary given as $1
# (make man builds it) only names the version the pages carry.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${MAN_DIR:-man}
version=
if [ -n "${1:-}" ]; then
  version=$("$1" version | sed 's/^rac version //')
fi
rm -rf "$out"
mkdir -p "$out"
dir=$(cd "$out" && pwd)
RAC_MAN_DIR="$dir" RAC_MAN_VERSION="$version" go test -count=1 -run '^TestManPages$' ./cmd/rac >/dev/null
n=$(find "$dir" -name '*.1' | wc -l)
echo "man: $n pages in $out/ (read one with: man -l $out/rac-out-read.1; install: cp $out/*.1 /usr/local/share/man/man1/)"
