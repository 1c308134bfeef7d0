# rac: build, demo, test, bench. `make demo` and `make test` are all a
# fresh machine needs (Go 1.26 and the tools .ci/run installs).
GO            ?= go
BIN           := $(CURDIR)/bin
RAC           := $(BIN)/rac
GOLANGCI_VER  := v2.15.0
# kept outside the clone so a CI machine builds it once
GOLANGCI      := $(shell $(GO) env GOPATH)/bin/golangci-lint-$(GOLANGCI_VER)
FUZZTIME      ?= 10s
# RAC_TEST_SCALE: a whole number that stretches every test timeout (go
# test's -timeout and the tests' own bounded waits) on a slow or busy
# machine: make test RAC_TEST_SCALE=3
RAC_TEST_SCALE ?= 1
export RAC_TEST_SCALE
export GOFLAGS := -buildvcs=false

.PHONY: all build demo test lint vet unit corpus teddy-table fuzz fuzz-long bench fprate terminal signals harness faults man clean

all: build

# rac, and rac-mcp (the MCP server rac mcp runs) beside it
build:
	CGO_ENABLED=0 $(GO) build -o $(BIN)/ ./cmd/rac ./cmd/rac-mcp

# demo: record a real git command, then read it back from a second shell
# that belongs to another session, by the qualified reference.
demo: build
	@./scripts/demo.sh $(RAC)

test: lint unit fuzz

vet:
	$(GO) vet ./...
	GOOS=darwin $(GO) vet ./...

lint: vet $(GOLANGCI)
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@# another golangci-lint on the machine (an editor's, a second
	@# checkout's) holds the cache lock: wait for it instead of failing
	$(GOLANGCI) run --allow-serial-runners ./...
	@./scripts/check-layers.sh

$(GOLANGCI):
	@mkdir -p $(dir $(GOLANGCI))
	GOBIN=$(CURDIR)/.golangci-tmp $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_VER)
	mv $(CURDIR)/.golangci-tmp/golangci-lint $(GOLANGCI) && rmdir $(CURDIR)/.golangci-tmp

unit:
	$(GO) test -race -count=1 -timeout $$((10 * $(RAC_TEST_SCALE)))m ./...
	@# the explain corpus score beside tail -10's and grep's, for the log
	@# (scored on the runs kept in internal/explain/testdata/corpus)
	@$(GO) test -count=1 -run 'TestCorpus' -v ./internal/explain/ | grep -E '^explain corpus' || true

# corpus: make the explain corpus's runs again with the real tools (go,
# git, python3, java, gcc, cargo, node, kubectl, ...), rewrite the kept
# runs in internal/explain/testdata/corpus, score them beside the held-out
# sets' kept runs (pinned: never recorded again here), and name the tools
# this machine lacks (their cases keep the runs they had). Run in the
# package's folder so go test shows the score and the skipped tools.
corpus:
	cd internal/explain && $(GO) test -count=1 -timeout 15m -run '^TestCorpus$$' -corpus.live .

# teddy-table: choose the redactor's prefilter buckets for the built-in
# literals again (internal/redact/teddy_table.go), on command output and
# files made or found on this machine (scripts/teddy-corpus.sh), and show
# the positions per MiB they pass on TEDDY_EVAL (the bench's shapes, kept
# by go run ./bench -only throughput/shapes -keep). Needed when a rule's
# literals change: TestTeddyBuiltinTableFresh fails until then.
TEDDY_CORPUS ?= $(CURDIR)/.teddy-corpus
TEDDY_EVAL ?=
teddy-table:
	./scripts/teddy-corpus.sh $(TEDDY_CORPUS)
	cd internal/redact && $(GO) test -count=1 -timeout 30m -run '^TestTeddyTrain$$' -v -teddy.train=$(TEDDY_CORPUS) -teddy.eval='$(TEDDY_EVAL)' .
	rm -rf $(TEDDY_CORPUS)

# a short fuzz run of the resolver, and of every other property target
# (long runs: make fuzz-long)
FUZZTIME_OTHERS ?= 3s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzOpen$$' -fuzztime $(FUZZTIME) ./internal/resolve/
	@./scripts/fuzz-all.sh $(FUZZTIME_OTHERS)

fuzz-long:
	$(MAKE) fuzz FUZZTIME=5m FUZZTIME_OTHERS=5m

# bench: throughput, memory and start-up against tee, dd and a minimal
# wrapper measured in the same run (medians of interleaved runs).
# BASELINE=REV also builds rac as it was at REV (git archive into a
# temporary folder, removed after) and measures it in the same rounds:
# make bench BASELINE=HEAD (the work tree against the last commit)
BASELINE ?=
bench: build
	@set -e; set --; \
	if [ -n "$(BASELINE)" ]; then \
	  rev=$$(git rev-parse --verify --quiet "$(BASELINE)^{commit}") || { echo "make bench: BASELINE=$(BASELINE) names no commit"; exit 2; }; \
	  tmp=$$(mktemp -d "$${TMPDIR:-/tmp}/rac-baseline-XXXXXX"); \
	  trap 'rm -rf "$$tmp"' EXIT; trap 'exit 130' INT TERM; \
	  git archive "$$rev" | tar -x -C "$$tmp"; \
	  (cd "$$tmp" && CGO_ENABLED=0 $(GO) build -o "$$tmp/rac" ./cmd/rac); \
	  echo "baseline: $(BASELINE) ($$rev)"; set -- -baseline "$$tmp/rac"; \
	fi; \
	$(GO) run ./bench -rac $(RAC) "$$@"
	$(GO) test -run '^$$' -bench 'BenchmarkExplain(64MiB|Mixed64MiB)' -benchtime 5x ./internal/explain/
	$(GO) test -run '^$$' -bench 'BenchmarkWriter' -benchtime 3x ./internal/redact/

# fprate: the redactor's false-positive rate on about 1.1 GiB of real text
# already on the machine (the module cache, git log -p, go test -v logs,
# /usr/share/doc, npm packages, GOROOT): hits and false hits per rule and
# per GiB, and a sample to review by hand. FPRATE_MD=PATH also writes the
# manual's table. The first run installs pinned npm packages and runs a
# few module-cache tests into a cache folder (two minutes or so).
FPRATE_MD ?=
fprate:
	$(GO) run ./bench/fprate $(if $(FPRATE_MD),-md $(FPRATE_MD))

# signals: the signal cases of cmd/rac/signals_test.go, 20 runs each
# (make test runs each 3 times)
signals:
	RAC_SIGNAL_RUNS=20 $(GO) test -count=1 -timeout $$((20 * $(RAC_TEST_SCALE)))m -run '^TestSignals' -v ./cmd/rac/

# terminal: the real-terminal suite, rac run in tmux panes compared with
# the same commands without rac (needs tmux, less, python3, git)
terminal:
	RAC_TMUX=1 $(GO) test -count=1 -timeout $$((15 * $(RAC_TEST_SCALE)))m -run 'TestTmux|TestShell|TestPager' -v ./cmd/rac/

# harness: the real agent harnesses (Claude Code, Codex, Gemini CLI, pinned
# versions from the npm registry, installed into a cache folder) against
# mock model servers; a loud SKIP when they cannot be had
harness: build
	@./scripts/harness.sh $(RAC)

# faults: kill -9 loops, concurrency, hostile stores, the secret corpus in
# pty mode and 20s of fuzzing per target, with a summary table
faults: build
	@./scripts/faults.sh $(RAC)

# man: man pages for every command, from the command tree (cobra/doc)
man: build
	@./scripts/man.sh $(RAC)

clean:
	rm -rf $(BIN)
