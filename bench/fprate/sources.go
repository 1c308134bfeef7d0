package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

const (
	// maxFile: bigger files are skipped (minified bundles, generated
	// tables, data): a few of them would dominate a source.
	maxFile = 8 << 20
	mib     = 1 << 20
	gib     = 1 << 30
)

// item is one stream to redact: a file's contents, or a command's output
// (or its cached log) read from open.
type item struct {
	source string
	name   string
	docs   bool // the whole source is documentation or test output
	gitlog bool // a git log -p: hits are placed in the file of their diff
	data   []byte
	open   func() (io.ReadCloser, error)
	limit  int64 // open: bytes at most
}

// source is one kind of real text. Its cap is fixed so the measured set
// is the same from run to run on one machine: files are taken in sorted
// order until the cap, the last one cut at a line end.
type source struct {
	name   string
	what   string
	cap    int64
	docs   bool
	gather func(g *gatherer, s *source) error
}

// sourceTally is what a source gave.
type sourceTally struct {
	bytes   int64
	streams int
	binary  int // skipped: NUL bytes
	large   int // skipped: over maxFile
	note    string
	full    bool
}

// gatherer walks the sources in order and hands items to the workers.
type gatherer struct {
	cfg    *config
	out    chan<- *item
	tally  map[string]*sourceTally
	gotest time.Duration // spent running go test, not reading
}

func (g *gatherer) run(sources []*source) {
	defer close(g.out)
	for _, s := range sources {
		t := &sourceTally{}
		g.tally[s.name] = t
		if err := s.gather(g, s); err != nil {
			t.note = strings.TrimSpace(t.note + " " + err.Error())
		}
	}
}

// emit caps and sends a file's contents; it returns false once the source
// is full.
func (g *gatherer) emit(s *source, name string, data []byte) bool {
	t := g.tally[s.name]
	if t.full {
		return false
	}
	if rest := s.cap - t.bytes; int64(len(data)) >= rest {
		cut := bytes.LastIndexByte(data[:rest], '\n')
		data = data[:cut+1]
		t.full = true
	}
	if len(data) > 0 {
		t.bytes += int64(len(data))
		t.streams++
		g.out <- &item{source: s.name, name: name, docs: s.docs, data: data}
	}
	return !t.full
}

// emitStream sends a stream whose size is known (a cached log) or bounded
// by the source's cap (a pipe).
func (g *gatherer) emitStream(s *source, it *item, size int64) bool {
	t := g.tally[s.name]
	if t.full {
		return false
	}
	it.source, it.docs = s.name, s.docs
	it.limit = s.cap - t.bytes
	if size >= it.limit {
		t.full = true
	}
	t.bytes += min(size, it.limit)
	t.streams++
	g.out <- it
	return !t.full
}

var errFull = errors.New("source full")

// walk sends every text file under root in lexical order. A .gz file is
// sent decompressed; files with a NUL byte, and files (or decompressed
// files) over maxFile, are skipped.
func (g *gatherer) walk(s *source, root, label string, skip func(rel string, d fs.DirEntry) bool) error {
	t := g.tally[s.name]
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable folders are not text we can use
		}
		rel, _ := filepath.Rel(root, p)
		if skip != nil && rel != "." && skip(rel, d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, ok := readText(p, d, t)
		if !ok {
			return nil
		}
		if !g.emit(s, filepath.Join(label, strings.TrimSuffix(rel, ".gz")), data) {
			return errFull
		}
		return nil
	})
	if errors.Is(err, errFull) {
		return nil
	}
	return err
}

// readText reads a regular file, decompressing .gz, and says whether it is
// text of an acceptable size.
func readText(p string, d fs.DirEntry, t *sourceTally) ([]byte, bool) {
	info, err := d.Info()
	if err != nil {
		return nil, false
	}
	if info.Size() > maxFile {
		t.large++
		return nil, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	if strings.HasSuffix(p, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.binary++
			return nil, false
		}
		data, err = io.ReadAll(io.LimitReader(zr, maxFile+1))
		if err != nil {
			t.binary++
			return nil, false
		}
		if len(data) > maxFile {
			t.large++
			return nil, false
		}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		t.binary++
		return nil, false
	}
	return data, len(data) > 0
}

// goEnv asks the go command for one setting.
func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func gatherModCache(g *gatherer, s *source) error {
	root := goEnv("GOMODCACHE")
	if root == "" {
		return errors.New("go env GOMODCACHE is empty")
	}
	// cache/ holds the zips and .info files the sources came from
	return g.walk(s, root, "", func(rel string, d fs.DirEntry) bool { return d.IsDir() && rel == "cache" })
}

func gatherGoroot(g *gatherer, s *source) error {
	root := goEnv("GOROOT")
	if root == "" {
		return errors.New("go env GOROOT is empty")
	}
	return g.walk(s, root, "GOROOT", func(rel string, d fs.DirEntry) bool {
		return d.IsDir() && (rel == "pkg" || rel == "bin")
	})
}

func gatherUsrDoc(g *gatherer, s *source) error {
	return g.walk(s, "/usr/share/doc", "/usr/share/doc", nil)
}

// gatherGitLog sends this repository's git log -p as one stream.
func gatherGitLog(g *gatherer, s *source) error {
	repo := g.cfg.repo
	g.emitStream(s, &item{name: "git log -p", gitlog: true, open: func() (io.ReadCloser, error) {
		cmd := exec.Command("git", "-C", repo, "log", "-p", "--no-color", "--no-ext-diff", "--no-textconv")
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		return &cmdReader{ReadCloser: out, cmd: cmd}, nil
	}}, 0) // its size is known once read: the workers count every source's bytes
	return nil
}

// cmdReader waits for its command when closed. A git log cut short by the
// cap is killed, and that is not an error.
type cmdReader struct {
	io.ReadCloser
	cmd *exec.Cmd
}

func (c *cmdReader) Close() error {
	_ = c.cmd.Process.Kill()
	_ = c.ReadCloser.Close()
	_ = c.cmd.Wait()
	return nil
}

// goTestModules are module-cache modules whose tests build from the cache
// alone and run in seconds on two cores (x/text's take three minutes, and
// cobra's, logrus's and sh's need modules the cache lacks); their go test
// -v output is real test-log text. A module missing from the cache is
// skipped with a note.
var goTestModules = []string{
	"github.com/!burnt!sushi/toml@v1.6.0",
	"github.com/dlclark/regexp2@v1.12.0",
	"github.com/google/go-cmp@v0.7.0",
	"github.com/magiconair/properties@v1.8.9",
	"github.com/spf13/pflag@v1.0.10",
	"github.com/stretchr/testify@v1.12.1",
	"golang.org/x/mod@v0.42.0",
	"golang.org/x/sync@v0.20.0",
	"golang.org/x/time@v0.15.0",
}

// gatherGoTest sends the go test -v logs of goTestModules, running the
// tests once and keeping their logs in the cache folder (-refresh runs
// them again): test output has timings, so a kept log makes reruns
// measure the same bytes.
func gatherGoTest(g *gatherer, s *source) error {
	modcache := goEnv("GOMODCACHE")
	dir := filepath.Join(g.cfg.cache, "gotest")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var missing []string
	for _, mod := range goTestModules {
		log := filepath.Join(dir, strings.NewReplacer("/", "_", "@", "_", "!", "").Replace(mod)+".log")
		if _, err := os.Stat(log); err != nil || g.cfg.refresh {
			if _, err := os.Stat(filepath.Join(modcache, mod)); err != nil {
				missing = append(missing, mod)
				continue
			}
			start := time.Now()
			runGoTest(filepath.Join(modcache, mod), log)
			g.gotest += time.Since(start)
		}
		info, err := os.Stat(log)
		if err != nil {
			continue
		}
		name := "go test -v " + mod
		if !g.emitStream(s, &item{name: name, open: openFile(log)}, info.Size()) {
			break
		}
	}
	if len(missing) > 0 {
		g.tally[s.name].note = "not in the module cache: " + strings.Join(missing, ", ")
	}
	return nil
}

// runGoTest runs a module's tests offline (no proxy, the cache's own
// modules only) with a time limit, output and errors together; failing
// tests are text like any other.
func runGoTest(dir, log string) {
	f, err := os.Create(log + ".tmp")
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-v", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	cmd.Stdout, cmd.Stderr = f, f
	_ = cmd.Run()
	if err := f.Close(); err != nil {
		return
	}
	_ = os.Rename(log+".tmp", log)
}

func openFile(p string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return os.Open(p) }
}

// npmPackages are installed into the cache folder when no tree is there:
// well-known packages at pinned versions, a lock file keeping their
// dependencies' versions for later runs.
var npmPackages = map[string]string{
	"typescript":                    "5.9.3",
	"aws-sdk":                       "2.1693.0",
	"googleapis":                    "144.0.0",
	"monaco-editor":                 "0.52.2",
	"three":                         "0.170.0",
	"pdfjs-dist":                    "4.10.38",
	"@types/node":                   "22.10.2",
	"lodash":                        "4.17.21",
	"echarts":                       "5.5.1",
	"date-fns":                      "4.1.0",
	"rxjs":                          "7.8.1",
	"@fortawesome/fontawesome-free": "6.7.2",
	"prettier":                      "3.4.2",
	"eslint":                        "9.17.0",
}

// npmRoots are node_modules trees already on the machine.
var npmRoots = []string{"/usr/lib/node_modules", "/usr/local/lib/node_modules"}

func gatherNpm(g *gatherer, s *source) error {
	dir := filepath.Join(g.cfg.cache, "npm")
	t := g.tally[s.name]
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil || g.cfg.refresh {
		if err := npmInstall(dir); err != nil {
			t.note = "npm install failed (" + err.Error() + "): only the trees already here"
		}
	}
	roots := append(append([]string(nil), npmRoots...), filepath.Join(dir, "node_modules"))
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		if err := g.walk(s, root, root, nil); err != nil {
			return err
		}
		if t.full {
			break
		}
	}
	return nil
}

func npmInstall(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(npmPackages))
	for n := range npmPackages {
		names = append(names, n)
	}
	sort.Strings(names)
	var deps []string
	for _, n := range names {
		deps = append(deps, fmt.Sprintf("%q: %q", n, npmPackages[n]))
	}
	pkg := `{"name": "rac-fprate-corpus", "private": true, "dependencies": {` + strings.Join(deps, ", ") + "}}\n"
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s", err, lastLine(out))
	}
	return nil
}

func lastLine(b []byte) string {
	ls := splitLines(bytes.TrimSpace(b))
	if len(ls) == 0 {
		return ""
	}
	return string(ls[len(ls)-1])
}
