#!/bin/sh
# teddy-corpus.sh DIR: writes into DIR the text `make teddy-table` chooses
# the prefilter's bucket assignment on (internal/redact, TestTeddyTrain):
# command output and files of the kinds rac records, made or found on this
# machine. Every file weighs the same in the training, whatever its size.
# The bench's shapes are not among them: they are the held-out check.
set -u
dir=$1
mkdir -p "$dir"
root=$(git rev-parse --show-toplevel)
goroot=$(go env GOROOT)

git -C "$root" log -p --no-color | head -c 40000000 >"$dir/gitlog.txt"

# go test -v of standard packages (their tests are quick and need no network)
(cd "$goroot/src" && go test -v -count=1 strings bytes strconv sort unicode/utf8 \
	encoding/json encoding/base64 regexp text/template path/filepath container/list \
	bufio fmt errors slices maps math time io go/parser go/scanner encoding/xml \
	encoding/csv compress/flate hash/crc32 crypto/sha256 net/url html/template mime \
	unicode text/tabwriter archive/tar) >"$dir/gotest.txt" 2>&1

(cd "$root" && go list -json -deps ./... && go list -m -json all) >"$dir/json.txt" 2>/dev/null

# system listings, as an agent's session prints them
{
	for _ in 1 2 3; do
		env
		ps aux
		ps -ef
		ip a
		ip route
		df -h
		mount
		ls -la /usr/bin /usr/lib /etc
	done
	dpkg -l
	cat /proc/cpuinfo
	ls -laR /usr/share/doc | head -c 8000000
} >"$dir/sys.txt" 2>/dev/null

for f in /usr/share/doc/*/*; do
	case $f in
	*.gz) zcat "$f" ;;
	*copyright | *README* | *NEWS* | *.txt | *.md) cat "$f" ;;
	esac
done 2>/dev/null | head -c 30000000 >"$dir/docs.txt"

find "$goroot/src/net" "$goroot/src/crypto" "$goroot/src/cmd/go" -name '*.go' | sort | head -3000 |
	xargs cat | head -c 30000000 >"$dir/gosrc.txt"

if command -v npm >/dev/null && [ -d "$(npm root -g)/npm" ]; then
	find "$(npm root -g)/npm" \( -name '*.js' -o -name '*.json' -o -name '*.md' \) | sort | head -4000 |
		xargs cat 2>/dev/null | head -c 30000000 >"$dir/npm.txt"
fi
ls -l "$dir"
