package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/units"
)

// autoBudget is how long automatic GC may work inside rac run before it
// hands the rest of the pass to a detached process.
const autoBudget = 50 * time.Millisecond

// gcMemoryLimit is the soft memory limit of rac out gc.
const gcMemoryLimit = 48 << 20

// softMemoryLimit sets the Go runtime's soft memory limit for a command
// whose live memory is bounded by its design but whose garbage is not:
// the collector then keeps the heap near what is live instead of letting
// it grow to twice that. GOMEMLIMIT, when set, overrides it. It returns
// what puts the limit before back, for a process that does more than this
// (the MCP server's grep).
func (a *App) softMemoryLimit(limit int64) (restore func()) {
	if a.env.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	before := debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(before) }
}

// lowSpaceInterval replaces gc.interval while the store's file system is
// short of space: GC runs more often, but not after every command.
const lowSpaceInterval = time.Minute

func (a *App) gcOptions() gc.Options {
	l := a.set.GC
	return gc.Options{
		Now: a.env.Now, Redact: a.redactCommandLine, // the tombstone's command line
		MaxAge: l.MaxAge, MaxSessionBytes: l.MaxSessionBytes, MaxStoreBytes: l.MaxStoreBytes,
		Compress: a.set.Compress,
	}
}

// spaceForRecording is the free-space guard: below gc.min_free_bytes free
// on the store's file system rac run does not record (one warning; the
// command still runs and its output is still forwarded) and AutoGC runs.
func (a *App) spaceForRecording() error {
	free, low := a.lowOnSpace()
	if !low {
		return nil
	}
	return fmt.Errorf("only %s free on the file system of the store %s (gc.min_free_bytes is %s); gc runs after the command",
		units.Bytes(free), a.recordingPlace(), units.Bytes(a.set.GC.MinFreeBytes))
}

// recordingPlace is where rac run would record: the first of the store's
// places (store.Places) that can be written, else the store itself. The
// free-space guard asks its file system, not that of a store a sandbox
// forbids (a read-only home reports no free space at all).
func (a *App) recordingPlace() string {
	loc := store.Locate(a.env.Getenv)
	for _, p := range store.Places(loc, workdirOf(a.set.StoreWorkdir)) {
		if store.Writable(p.Path) == nil {
			return p.Path
		}
	}
	return loc.Path
}

// lowOnSpace reports the free space of the store's file system and
// whether it is under gc.min_free_bytes. A file system rac cannot ask is
// not low.
func (a *App) lowOnSpace() (int64, bool) {
	if a.set.GC.MinFreeBytes <= 0 {
		return 0, false
	}
	free, err := gc.FreeBytes(a.recordingPlace())
	return free, err == nil && free < a.set.GC.MinFreeBytes
}

// AutoGC is automatic GC after rac run: at most once per gc.interval (more
// often when space is low), under a non-blocking lock, at most autoBudget
// here; the rest of a longer pass continues in a detached process. It
// reports nothing: the ref line stays rac run's last line.
func (a *App) AutoGC(ctx context.Context) {
	if a.set.GC.Off || ctx.Err() != nil {
		return
	}
	interval := a.set.GC.Interval
	if _, low := a.lowOnSpace(); low {
		interval = min(interval, lowSpaceInterval)
	}
	stores, err := a.Stores()
	if err != nil {
		return
	}
	defer stores.Close()
	opts := a.gcOptions()
	budget := autoBudget
	if a.autoBudget > 0 {
		budget = a.autoBudget
	}
	opts.Deadline = time.Now().Add(budget)
	detach := false
	for _, st := range stores {
		if ctx.Err() != nil {
			return
		}
		if !gc.Due(st, interval, a.env.Now()) {
			continue
		}
		l, err := gc.Lock(st, false)
		if err != nil {
			continue // another pass runs
		}
		if err := gc.MarkRun(st, a.env.Now()); err != nil {
			l.Close()
			continue
		}
		if gc.Large(st) {
			err = gc.ErrDeadline // sure to take longer: no time spent here
		} else {
			_, err = gc.Run(st, opts)
		}
		l.Close()
		if errors.Is(err, gc.ErrDeadline) {
			detach = true
		}
	}
	if detach {
		a.detachGC()
	}
}

// detachGC starts the front end's background gc (Env.BackgroundGC) in a
// new process session with its standard streams on /dev/null, and does
// not wait for it: no caller ever waits on a pipe it inherited.
func (a *App) detachGC() {
	if a.env.BackgroundGC == nil {
		return
	}
	exe, argv, err := a.env.BackgroundGC()
	if err != nil {
		return
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer null.Close()
	cmd := &exec.Cmd{
		Path:        exe,
		Args:        argv,
		Env:         absStoreEnv(a.env.Environ()),
		Dir:         "/", // never keep a mount or a deleted folder busy
		Stdin:       null,
		Stdout:      null,
		Stderr:      null,
		SysProcAttr: &syscall.SysProcAttr{Setsid: true},
	}
	if err := cmd.Start(); err != nil {
		return
	}
	_ = cmd.Process.Release()
}

// absStoreEnv makes the variables that locate the store absolute, since
// the detached process runs in /.
func absStoreEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if (k == "RAC_HOME" || k == "TMPDIR") && v != "" && !filepath.IsAbs(v) {
			if abs, err := filepath.Abs(v); err == nil {
				kv = k + "=" + abs
			}
		}
		out = append(out, kv)
	}
	return out
}

// ErrReported marks a failure whose details are already in the result (a
// gc pass's errors, what rm could not remove): the front end prints
// nothing more and exits 1.
var ErrReported = errors.New("failed (reported above)")

// GC is rac out gc: one pass over every store under the GC lock, or with
// dryRun a plan that changes nothing. background is the detached rest of
// an automatic pass. The error is ErrReported when the result holds errors.
func (a *App) GC(ctx context.Context, dryRun, background bool) (*gc.Result, error) {
	// a pass over a large store allocates much and keeps little
	a.softMemoryLimit(gcMemoryLimit)
	opts := a.gcOptions()
	opts.DryRun = dryRun
	stores, err := a.Stores()
	if err != nil {
		return nil, err
	}
	defer stores.Close()
	if background {
		// the rest of an automatic pass: skip a store another pass holds
		for _, st := range stores {
			if ctx.Err() != nil {
				break
			}
			if l, err := gc.Lock(st, false); err == nil {
				_, _ = gc.Run(st, opts)
				pruneHarness(st, opts, a.env.Now())
				l.Close()
			}
		}
		return gc.NewResult(false), nil
	}
	total := gc.NewResult(dryRun)
	for _, st := range stores {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		res, err := gcOnce(st, opts, a.env.Now())
		total.Merge(res)
		var ro *ReadOnlyStoreError
		switch {
		case errors.As(err, &ro):
			total.Errors = append(total.Errors, err.Error()) // names the store
		case err != nil:
			total.Errors = append(total.Errors, fmt.Sprintf("%s: %v", st.Path, err))
		}
	}
	if len(total.Errors) > 0 {
		return total, ErrReported
	}
	return total, nil
}

// gcOnce makes one pass over a store: under the GC lock (waiting for a
// pass that runs) unless dry, since a dry run writes nothing.
func gcOnce(st *store.Store, opts gc.Options, now time.Time) (*gc.Result, error) {
	if opts.DryRun {
		return gc.Run(st, opts)
	}
	l, err := gc.Lock(st, true)
	if err != nil {
		return nil, readOnly(st, err)
	}
	defer l.Close()
	if err := gc.MarkRun(st, now); err != nil {
		return nil, readOnly(st, err)
	}
	res, err := gc.Run(st, opts)
	pruneHarness(st, opts, now)
	return res, err
}

// pruneHarness drops the harness notes (which session a harness process
// announced) older than gc.max_age: their processes are long gone.
func pruneHarness(st *store.Store, opts gc.Options, now time.Time) {
	if opts.MaxAge > 0 {
		_, _ = st.PruneHarness(now.Add(-opts.MaxAge)) // best effort, like the notes themselves
	}
}

// RemoveResult is what rac out rm did: per reference, an error or nothing;
// per store, gc's result.
type RemoveResult struct {
	RefErrors []error
	Results   []*gc.Result
	Errors    []error
}

// Total is the sum of the stores' results.
func (r RemoveResult) Total() *gc.Result {
	total := gc.NewResult(false)
	for _, res := range r.Results {
		total.Merge(res)
	}
	return total
}

// Remove is rac out rm. When any reference is invalid or ambiguous nothing
// is removed (a typo must not remove part of what was meant); one not
// found is reported and the rest go.
func (a *App) Remove(ctx context.Context, refs []string) (RemoveResult, error) {
	var out RemoveResult
	id, err := a.Identify(false)
	if err != nil {
		return out, err
	}
	stores, err := a.Stores()
	if err != nil {
		return out, err
	}
	defer stores.Close()
	type group struct {
		st    *store.Store
		sess  string
		names []string
	}
	var groups []*group
	seen := map[string]bool{}
	refused := false
	for _, ref := range refs {
		t, err := resolve.Find(stores, id.Name, ref)
		if err != nil {
			out.RefErrors = append(out.RefErrors, a.redactExpired(err))
			refused = refused || IsUsage(err) || errors.Is(err, resolve.ErrInvalid) || errors.Is(err, resolve.ErrAmbiguous)
			continue
		}
		qualified := t.Ref()
		t.Dir.Close()
		if seen[qualified] {
			continue
		}
		seen[qualified] = true
		var g *group
		for _, x := range groups {
			if x.st == t.Store && x.sess == t.Dir.Name {
				g = x
			}
		}
		if g == nil {
			g = &group{st: t.Store, sess: t.Dir.Name}
			groups = append(groups, g)
		}
		g.names = append(g.names, t.Name)
	}
	if refused {
		return out, ErrNothingRemoved
	}
	opts := gc.Options{Now: a.env.Now}
	for _, g := range groups {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		res, err := userRemoval(g.st, func() (*gc.Result, error) { return gc.Remove(g.st, g.sess, g.names, opts) })
		out.Results = append(out.Results, res)
		if err != nil {
			out.Errors = append(out.Errors, fmt.Errorf("cannot remove %s: %w", g.sess+"/"+strings.Join(g.names, ", "+g.sess+"/"), err))
		}
	}
	return out, nil
}

// readOnly says in words that a store cannot be changed when err is the
// file system refusing a write (a read-only mount, a sandbox), instead of
// the system call that met it ("openat gc.lock: read-only file system").
func readOnly(st *store.Store, err error) error {
	if !store.IsUnwritable(err) {
		return err
	}
	return &ReadOnlyStoreError{Path: st.Path, Err: err}
}

// ReadOnlyStoreError is a store rm, purge or gc cannot change: nothing in
// it was removed.
type ReadOnlyStoreError struct {
	Path string
	Err  error
}

func (e *ReadOnlyStoreError) Error() string {
	return fmt.Sprintf("the store %s cannot be written (%s): nothing in it was removed", e.Path, errText(e.Err))
}

func (e *ReadOnlyStoreError) Unwrap() error { return e.Err }

// ErrNothingRemoved: a reference was invalid or ambiguous, so rm removed
// nothing.
var ErrNothingRemoved = errors.New("nothing was removed")

func userRemoval(st *store.Store, fn func() (*gc.Result, error)) (*gc.Result, error) {
	l, err := gc.Lock(st, true)
	if err != nil {
		return gc.NewResult(false), readOnly(st, err)
	}
	defer l.Close()
	res, err := fn()
	if res == nil {
		res = gc.NewResult(false)
	}
	return res, err
}

// PurgeRequest is rac out purge: one session, or all of them.
type PurgeRequest struct {
	Session string
	All     bool
	// Confirm asks the user; it is called once the targets are known,
	// with what would be purged ("session S", "every session").
	Confirm func(what string) (bool, error)
}

// ErrCancelled: the user said no.
var ErrCancelled = errors.New("purge cancelled: nothing was removed")

// Purge is rac out purge.
func (a *App) Purge(ctx context.Context, req PurgeRequest) (RemoveResult, error) {
	var out RemoveResult
	if req.Session == "" && !req.All || req.Session != "" && req.All {
		return out, Usagef("rac out purge needs --session S or --all (one of them)")
	}
	if req.Session != "" {
		if err := session.CheckName(req.Session, "--session"); err != nil {
			return out, Usage(err)
		}
	}
	stores, err := a.Stores()
	if err != nil {
		return out, err
	}
	defer stores.Close()
	type target struct {
		st   *store.Store
		sess string
	}
	var targets []target
	for _, st := range stores {
		names, err := st.Sessions()
		if err != nil {
			return out, err
		}
		for _, n := range names {
			if req.All || n == req.Session {
				targets = append(targets, target{st, n})
			}
		}
	}
	what := "every session"
	if !req.All {
		what = "session " + req.Session
		if len(targets) == 0 {
			return out, &resolve.NotFoundError{Session: req.Session, Reason: resolve.NoSession}
		}
	}
	if req.Confirm != nil {
		ok, err := req.Confirm(what)
		if err != nil {
			return out, err
		}
		if !ok {
			return out, ErrCancelled
		}
	}
	opts := gc.Options{Now: a.env.Now}
	for _, t := range targets {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		res, err := userRemoval(t.st, func() (*gc.Result, error) { return gc.Purge(t.st, t.sess, opts) })
		out.Results = append(out.Results, res)
		if err != nil {
			out.Errors = append(out.Errors, err)
		}
	}
	return out, nil
}
