// Command fprate measures how often rac's redactor hides text that is not
// a credential. It runs at least 1 GiB of real text that is on the machine
// anyway (the Go module cache's sources, this repository's git log -p, go
// test -v logs of module-cache packages, /usr/share/doc, npm packages'
// sources, the Go toolchain's sources) through a Redactor built as rac
// builds it, minus the environment, recovers the span behind every marker,
// judges whether that span is a credential, and prints hits and false hits
// per rule and per GiB. Run it with `make fprate`; -md writes the table the
// manual quotes.
//
// Everything is streamed: a few files of at most 8 MiB are in memory at
// once, and only the sampled hits are kept (about 160 MB resident).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/rac-cli/rac/internal/redact"
)

type config struct {
	repo       string
	cache      string
	md         string
	samples    string
	review     string
	refresh    bool
	only       string
	gatherOnly bool
	workers    int
	label      string
	scale      float64
}

// sources in the order they are read, with their caps. A cap keeps one
// big source (a module cache after a large go get) from crowding out the
// others and keeps the set fixed; the caps add up to 1.56 GiB, so a
// machine with a smaller source still reaches 1 GiB from the rest. On the
// machine the baseline was measured on, every source was under its cap
// and taken whole (1.09 GiB).
func allSources() []*source {
	return []*source{
		{name: "gomodcache", what: "Go module cache sources (go env GOMODCACHE, cache/ left out)", cap: 448 * mib, gather: gatherModCache},
		{name: "gitlog", what: "git log -p of this repository", cap: 64 * mib, gather: gatherGitLog},
		{name: "gotest", what: "go test -v logs of module-cache modules", cap: 64 * mib, docs: true, gather: gatherGoTest},
		{name: "usrdoc", what: "/usr/share/doc, .gz decompressed", cap: 320 * mib, docs: true, gather: gatherUsrDoc},
		{name: "npm", what: "npm packages' sources (node_modules trees)", cap: 512 * mib, gather: gatherNpm},
		{name: "goroot", what: "Go toolchain sources (go env GOROOT, pkg/ and bin/ left out)", cap: 192 * mib, gather: gatherGoroot},
	}
}

func main() {
	cfg := &config{}
	flag.StringVar(&cfg.repo, "repo", ".", "the repository whose git log -p is read")
	flag.StringVar(&cfg.cache, "cache", defaultCache(), "folder for the npm packages and go test logs it installs or runs once")
	flag.StringVar(&cfg.md, "md", "", "write the results as markdown for the manual to this file")
	flag.StringVar(&cfg.samples, "samples", "", "also write the review sample (every sampled hit) to this file")
	flag.StringVar(&cfg.review, "review", "bench/fprate/review.tsv", "hand verdicts (id, true|false, note) to compare the judge with")
	flag.BoolVar(&cfg.refresh, "refresh", false, "run the go tests and npm install again")
	flag.StringVar(&cfg.only, "only", "", "comma-separated sources to read (default all)")
	flag.BoolVar(&cfg.gatherOnly, "gather-only", false, "read the sources and print their sizes without redacting")
	flag.Float64Var(&cfg.scale, "scale", 1, "multiply every source's cap (a quick look: -scale 0.05; the measurement is 1)")
	flag.StringVar(&cfg.label, "label", "", "how to name the redactor measured (default: the checkout's commit)")
	flag.IntVar(&cfg.workers, "workers", runtime.GOMAXPROCS(0), "streams redacted at once")
	flag.Parse()
	if err := run(cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fprate:", err)
		os.Exit(1)
	}
}

func defaultCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "rac-fprate")
}

// run gathers, redacts and reports.
func run(cfg *config, w io.Writer) error {
	sources, err := selectSources(cfg.only)
	if err != nil {
		return err
	}
	for _, s := range sources {
		s.cap = int64(float64(s.cap) * cfg.scale)
	}
	// No environment: values of secret-named variables in this process
	// would become literals and fire on text they happen to occur in.
	red, err := redact.New(redact.Config{})
	if err != nil {
		return err
	}
	start := time.Now()
	items := make(chan *item, 4)
	g := &gatherer{cfg: cfg, out: items, tally: map[string]*sourceTally{}}
	go g.run(sources)
	res, scanned, err := redactAll(cfg, red, items)
	if err != nil {
		return err
	}
	rep := &report{cfg: cfg, sources: sources, tally: g.tally, scanned: scanned, res: res,
		elapsed: time.Since(start), gotest: g.gotest}
	return rep.write(w)
}

func selectSources(only string) ([]*source, error) {
	all := allSources()
	if only == "" {
		return all, nil
	}
	var out []*source
	for _, name := range strings.Split(only, ",") {
		found := false
		for _, s := range all {
			if s.name == name {
				out = append(out, s)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("no source %q", name)
		}
	}
	return out, nil
}

// redactAll runs the workers until the gatherer is done and adds up their
// results.
func redactAll(cfg *config, red *redact.Redactor, items <-chan *item) (*results, map[string]int64, error) {
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		total   = newResults()
		scanned = map[string]int64{}
		firstEr error
	)
	for range max(1, cfg.workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := &streamScanner{red: red, res: newResults()}
			local := map[string]int64{}
			var err error
			for it := range items {
				if err != nil {
					continue // drain, so the gatherer is not left blocked
				}
				n, serr := sc.scanItem(it, cfg.gatherOnly)
				local[it.source] += n
				if errors.Is(serr, redact.ErrRedactorFailed) {
					// A finding, not a reason to stop measuring. A fresh
					// Redactor, so nothing of the failed stream's engine
					// can reach the next stream.
					sc.res.failures = append(sc.res.failures, fmt.Sprintf("%s %s: %v", it.source, it.name, serr))
					if fresh, nerr := redact.New(redact.Config{}); nerr == nil {
						sc.red = fresh
					}
				} else if serr != nil {
					err = fmt.Errorf("%s %s: %w", it.source, it.name, serr)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			total.merge(sc.res)
			for k, v := range local {
				scanned[k] += v
			}
			if err != nil && firstEr == nil {
				firstEr = err
			}
		}()
	}
	wg.Wait()
	return total, scanned, firstEr
}

// scanItem opens an item and redacts it (or only counts it).
func (sc *streamScanner) scanItem(it *item, countOnly bool) (int64, error) {
	var r io.Reader
	var closer io.Closer
	if it.open != nil {
		rc, err := it.open()
		if err != nil {
			return 0, fmt.Errorf("%s: %w", it.name, err)
		}
		r, closer = io.LimitReader(rc, it.limit), rc
	} else {
		r = bytes.NewReader(it.data)
	}
	var n int64
	var err error
	if countOnly {
		n, err = io.Copy(io.Discard, r)
	} else {
		n, err = sc.scan(it, r)
	}
	if closer != nil {
		if cerr := closer.Close(); err == nil {
			err = cerr
		}
	}
	return n, err
}
