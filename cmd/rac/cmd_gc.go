package main

// Retention from the command line: rac out gc, rm and purge, and the two
// hooks of rac run (the free-space guard before the command, automatic
// GC after it). The work itself is internal/gc's.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
)

// autoBudget is how long automatic GC may work inside rac run before it
// hands the rest of the pass to a detached process.
const autoBudget = 50 * time.Millisecond

// gcMemoryLimit is the soft memory limit of rac out gc.
const gcMemoryLimit = 48 << 20

// lowSpaceInterval replaces gc.interval while the store's file system is
// short of space: GC runs more often, but not after every command.
const lowSpaceInterval = time.Minute

// gcOptions reads the gc.* limits.
func (a *app) gcOptions() (gc.Options, error) {
	o := gc.Options{Now: a.now, Redact: a.tombstoneRedactor()}
	var err error
	if o.MaxAge, err = a.cfg.ageSetting("gc.max_age"); err != nil {
		return o, err
	}
	if o.MaxSessionBytes, err = a.cfg.sizeSetting("gc.max_session_bytes"); err != nil {
		return o, err
	}
	if o.MaxStoreBytes, err = a.cfg.sizeSetting("gc.max_store_bytes"); err != nil {
		return o, err
	}
	return o, nil
}

// tombstoneRedactor redacts a command before a tombstone keeps it, with
// the configured redactor (built only when a tombstone is written). The
// recorder stored argv already redacted; this is the second line of
// defence. When the redactor cannot be built the tombstone keeps no
// command (fail closed).
func (a *app) tombstoneRedactor() func(string) string {
	return func(s string) string {
		r, err := a.redactor()
		if err != nil {
			return ""
		}
		return r.String(s)
	}
}

// recordingAllowed is the free-space guard: below gc.min_free_bytes free
// on the store's file system rac run does not record (one warning; the
// command still runs and its output is still forwarded) and afterRun runs
// GC. It also reports bad gc.* settings now, since afterRun runs after
// the ref line and stays silent.
func (a *app) recordingAllowed(warn func(string)) bool {
	if a.cfg == nil {
		return true
	}
	if _, err := a.gcOptions(); err != nil {
		warn(fmt.Sprintf("%v; automatic gc is off for this run", firstLineOf(err)))
	} else if _, err := a.cfg.ageSetting("gc.interval"); err != nil {
		warn(fmt.Sprintf("%v; automatic gc is off for this run", firstLineOf(err)))
	}
	minFree, err := a.cfg.sizeSetting("gc.min_free_bytes")
	if err != nil {
		warn(fmt.Sprintf("%v; the free-space guard is off for this run", firstLineOf(err)))
		return true
	}
	free, low := a.lowOnSpace(minFree)
	if !low {
		return true
	}
	warn(fmt.Sprintf("not recording this command: only %s free on the file system of the store %s (gc.min_free_bytes is %s); gc runs after the command",
		gc.FormatBytes(free), store.Locate(a.getenv).Path, gc.FormatBytes(minFree)))
	return false
}

// lowOnSpace reports the free space of the store's file system and
// whether it is under minFree. A file system rac cannot ask is not low.
func (a *app) lowOnSpace(minFree int64) (int64, bool) {
	if minFree <= 0 {
		return 0, false
	}
	free, err := gc.FreeBytes(store.Locate(a.getenv).Path)
	return free, err == nil && free < minFree
}

// afterRun is automatic GC: at most once per gc.interval (more often when
// space is low), under a non-blocking lock, at most autoBudget in rac
// itself; the rest of a longer pass continues in a detached process. It
// prints nothing: the ref line stays rac run's last line.
func (a *app) afterRun() {
	if a.cfg == nil {
		return
	}
	opts, err := a.gcOptions()
	if err != nil {
		return
	}
	interval, err := a.cfg.ageSetting("gc.interval")
	if err != nil {
		return
	}
	if minFree, err := a.cfg.sizeSetting("gc.min_free_bytes"); err == nil {
		if _, low := a.lowOnSpace(minFree); low {
			interval = min(interval, lowSpaceInterval)
		}
	}
	stores, err := a.readStores()
	if err != nil {
		return
	}
	defer closeStores(stores)
	opts.Deadline = time.Now().Add(autoBudget)
	detach := false
	for _, st := range stores {
		if !gc.Due(st, interval, a.now()) {
			continue
		}
		l, err := gc.Lock(st, false)
		if err != nil {
			continue // another pass runs
		}
		if err := gc.MarkRun(st, a.now()); err != nil {
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

// detachGC re-executes rac as "rac out gc --background" in a new process
// session with its standard streams on /dev/null, and does not wait for
// it: no caller ever waits on a pipe it inherited.
func (a *app) detachGC() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer null.Close()
	cmd := &exec.Cmd{
		Path: exe,
		// argv[0] "rac" also lets a test binary standing in for rac
		// dispatch to it
		Args:        []string{"rac", "out", "gc", "--background"},
		Env:         absStoreEnv(a.environ()),
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

// --- rac out gc ---

type gcCmdOptions struct {
	a          *app
	dryRun     bool
	json       bool
	background bool
}

func newGCCmd(a *app) *cobra.Command {
	o := &gcCmdOptions{a: a}
	cmd := &cobra.Command{
		Use:   "gc [--dry-run] [--json]",
		Short: "Remove old recordings now, as the retention settings say",
		Long: `Apply retention now (rac run also does it, at most once per gc.interval):
remove sessions older than gc.max_age (by the newest file of their
recordings); then in each session over gc.max_session_bytes its oldest
finished recordings until it fits; then, while the store is over
gc.max_store_bytes, the oldest finished recordings of any session. Running
recordings are never removed. Every removed recording leaves a tombstone
for 30 days: reading it says when and why it expired. --dry-run prints
what would go and why, and changes nothing.`,
		Example: `  rac out gc --dry-run
  rac out gc
  RAC_GC_MAX_AGE=2d rac out gc --json`,
		Args: cobra.NoArgs,
		RunE: o.run,
	}
	f := cmd.Flags()
	f.BoolVar(&o.dryRun, "dry-run", false, "print what would be removed and why; change nothing")
	f.BoolVar(&o.json, "json", false, "print the result as a JSON object (shape in README)")
	f.BoolVar(&o.background, "background", false, "the detached pass of automatic gc")
	_ = f.MarkHidden("background")
	return cmd
}

func (o *gcCmdOptions) run(cmd *cobra.Command, _ []string) error {
	a := o.a
	if a.getenv("GOMEMLIMIT") == "" {
		// a pass over a large store allocates much and keeps little: a
		// soft limit keeps this process small (GOMEMLIMIT overrides it)
		debug.SetMemoryLimit(gcMemoryLimit)
	}
	opts, err := a.gcOptions()
	if err != nil {
		return err
	}
	opts.DryRun = o.dryRun
	stores, err := a.readStores()
	if err != nil {
		return err
	}
	defer closeStores(stores)
	if o.background {
		// the rest of an automatic pass: skip a store another pass holds
		for _, st := range stores {
			if l, err := gc.Lock(st, false); err == nil {
				_, _ = gc.Run(st, opts)
				l.Close()
			}
		}
		return nil
	}
	total := gc.NewResult(o.dryRun)
	var runErr error
	for _, st := range stores {
		res, err := runOnce(st, opts, a.now())
		total.Merge(res)
		if err != nil {
			total.Errors = append(total.Errors, fmt.Sprintf("%s: %v", st.Path, err))
			runErr = err
		}
	}
	if o.json {
		b, err := json.MarshalIndent(total, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(a.streams.Out, "%s\n", b)
	} else {
		if o.dryRun {
			printPlan(a.streams.Out, total)
		}
		printGCSummary(a.streams.Err, total)
	}
	if runErr != nil || len(total.Errors) > 0 {
		return exitCodeError{code: exitNotFound1} // said above, or in the JSON
	}
	return nil
}

// runOnce makes one pass over a store: under the GC lock (waiting for a
// pass that runs) unless dry, since a dry run writes nothing.
func runOnce(st *store.Store, opts gc.Options, now time.Time) (*gc.Result, error) {
	if opts.DryRun {
		return gc.Run(st, opts)
	}
	l, err := gc.Lock(st, true)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	if err := gc.MarkRun(st, now); err != nil {
		return nil, err
	}
	return gc.Run(st, opts)
}

// printPlan lists, on stdout, what a dry run would remove and why.
func printPlan(w io.Writer, r *gc.Result) {
	for _, s := range r.Sessions {
		fmt.Fprintf(w, "session %s: %s, %s (%s)\n", s.Session, plural(s.Recordings, "recording"), gc.FormatBytes(s.Bytes), s.Reason)
	}
	for _, rec := range r.Recordings {
		fmt.Fprintf(w, "%s: %s (%s)\n", rec.Ref, gc.FormatBytes(rec.Bytes), rec.Reason)
	}
	for _, t := range r.Temporaries {
		fmt.Fprintf(w, "temporary %s (left over, unchanged for a day)\n", escapeControl(t))
	}
	for _, k := range r.Kept {
		fmt.Fprintf(w, "kept %s: %s\n", keptName(k), escapeControl(k.Why))
	}
	for _, u := range r.Unrecognised {
		fmt.Fprintf(w, "left alone %s: not a file rac knows\n", escapeControl(u))
	}
}

func keptName(k gc.Kept) string {
	switch {
	case k.Ref == "":
		return "store " + k.Store
	case !strings.Contains(k.Ref, "/"):
		return "session " + k.Ref
	}
	return k.Ref
}

// printGCSummary writes the one summary line, then a warning for what
// needs the user: errors, limits that could not be met, unknown files.
func printGCSummary(w io.Writer, r *gc.Result) {
	verb := "removed"
	tail := ""
	if r.DryRun {
		verb, tail = "would remove", " (dry run: nothing was removed)"
	}
	fmt.Fprintf(w, "rac: gc %s %s, %s, %s%s\n", verb, plural(r.RemovedSessions, "session"), plural(r.RemovedRecordings, "recording"),
		gc.FormatBytes(max(r.FreedBytes, 0)), tail)
	if r.DryRun {
		return
	}
	for _, k := range r.Kept {
		if !strings.Contains(k.Ref, "/") {
			fmt.Fprintf(w, "rac: warning: %s is %s\n", keptName(k), escapeControl(k.Why))
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "rac: warning: gc: %s\n", escapeControl(e))
	}
	if n := len(r.Unrecognised); n > 0 {
		shown := r.Unrecognised[:min(n, 3)]
		more := ""
		if n > len(shown) {
			more = fmt.Sprintf(" and %d more", n-len(shown))
		}
		fmt.Fprintf(w, "rac: warning: gc left alone %s it does not recognise: %s%s ('rac out gc --dry-run' lists them)\n",
			plural(n, "file"), escapeControl(strings.Join(shown, ", ")), more)
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// --- rac out rm ---

type rmOptions struct{ a *app }

func newRmCmd(a *app) *cobra.Command {
	o := &rmOptions{a: a}
	cmd := &cobra.Command{
		Use:   "rm REF...",
		Short: "Remove recordings now, leaving tombstones",
		Long: `Remove the recordings REF names now (a secret that slipped through, an
output you do not want kept). Each leaves a tombstone for 30 days, so
reading it answers "expired (removed by user ...)"; the tombstone keeps the
number and a hash of the name, never the name or the command. A running
recording is not removed. When a reference is invalid or ambiguous nothing
is removed; one not found (or already expired) is reported and the rest go.`,
		Example: `  rac out rm last
  rac out rm claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-curl 0004-curl`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("rac out rm needs at least one reference: rac out rm REF...")
			}
			return nil
		},
		RunE: o.run,
	}
	cmd.Flags().StringVar(&a.sessionFlag, "session", "", "resolve short references in session `S`")
	return cmd
}

func (o *rmOptions) run(_ *cobra.Command, args []string) error {
	a := o.a
	errw := a.streams.Err
	id, err := a.identify()
	if err != nil {
		return err
	}
	stores, err := a.readStores()
	if err != nil {
		return err
	}
	defer closeStores(stores)
	type group struct {
		st    *store.Store
		sess  string
		names []string
	}
	var groups []*group
	seen := map[string]bool{}
	status := exitOK
	for _, ref := range args {
		t, err := resolve.Find(stores, id.Name, ref)
		if err != nil {
			printError(errw, err)
			status = max(status, exitStatus(err, false))
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
	if status == exitUsage {
		// a typo or an ambiguous prefix among the references: remove
		// nothing rather than part of what was meant
		fmt.Fprintf(errw, "rac: nothing was removed\n")
		return exitCodeError{code: status}
	}
	opts := gc.Options{Now: a.now}
	for _, g := range groups {
		res, err := userRemoval(g.st, func() (*gc.Result, error) { return gc.Remove(g.st, g.sess, g.names, opts) })
		status = max(status, reportUserRemoval(errw, res, err))
		for _, r := range res.Recordings {
			fmt.Fprintf(errw, "rac: removed %s (%s)\n", r.Ref, gc.FormatBytes(r.Bytes))
		}
	}
	if status != exitOK {
		return exitCodeError{code: status}
	}
	return nil
}

func userRemoval(st *store.Store, fn func() (*gc.Result, error)) (*gc.Result, error) {
	l, err := gc.Lock(st, true)
	if err != nil {
		return gc.NewResult(false), err
	}
	defer l.Close()
	res, err := fn()
	if res == nil {
		res = gc.NewResult(false)
	}
	return res, err
}

// reportUserRemoval prints what rm or purge could not do and returns the
// exit status it calls for.
func reportUserRemoval(w io.Writer, res *gc.Result, err error) int {
	status := exitOK
	if err != nil {
		printError(w, err)
		status = exitNotFound1
	}
	for _, k := range res.Kept {
		fmt.Fprintf(w, "rac: %s is %s; it was not removed (remove it once it has ended)\n", k.Ref, k.Why)
		status = exitNotFound1
	}
	for _, e := range res.Errors {
		fmt.Fprintf(w, "rac: %s\n", escapeControl(e))
		status = exitNotFound1
	}
	return status
}

// --- rac out purge ---

type purgeOptions struct {
	a       *app
	session string
	all     bool
	yes     bool
}

func newPurgeCmd(a *app) *cobra.Command {
	o := &purgeOptions{a: a}
	cmd := &cobra.Command{
		Use:   "purge --session S | --all [--yes]",
		Short: "Remove every recording of a session, or of every session, now",
		Long: `Remove every recording of session S (or of every session with --all) now,
leaving tombstones that say "removed by user". Session folders keep their
counters, so a session used again never reuses a number. Running
recordings are not removed. Without --yes rac asks on the terminal; when
stdin is not a terminal it refuses and asks for --yes.`,
		Example: `  rac out purge --session my-task
  rac out purge --all --yes`,
		Args: cobra.NoArgs,
		RunE: o.run,
	}
	f := cmd.Flags()
	f.StringVar(&o.session, "session", "", "purge session `S`")
	f.BoolVar(&o.all, "all", false, "purge every session")
	f.BoolVar(&o.yes, "yes", false, "do not ask for confirmation")
	return cmd
}

func (o *purgeOptions) run(_ *cobra.Command, _ []string) error {
	a := o.a
	errw := a.streams.Err
	if o.session == "" && !o.all || o.session != "" && o.all {
		return usagef("rac out purge needs --session S or --all (one of them)")
	}
	if o.session != "" && !session.ValidName(o.session) {
		return usagef("invalid session name %q: session names look like %s", o.session, session.NameForm)
	}
	stores, err := a.readStores()
	if err != nil {
		return err
	}
	defer closeStores(stores)
	type target struct {
		st   *store.Store
		sess string
	}
	var targets []target
	for _, st := range stores {
		names, err := st.Sessions()
		if err != nil {
			return err
		}
		for _, n := range names {
			if o.all || n == o.session {
				targets = append(targets, target{st, n})
			}
		}
	}
	what := "every session"
	if !o.all {
		what = "session " + o.session
		if len(targets) == 0 {
			return fmt.Errorf("%w: no session %q", resolve.ErrNotFound, o.session)
		}
	}
	if !o.yes {
		if !isTerminal(a.streams.In) {
			return usagef("purge would remove every recording of %s; pass --yes to confirm (stdin is not a terminal, so rac cannot ask)", what)
		}
		fmt.Fprintf(errw, "rac: remove every recording of %s? [y/N] ", what)
		line, _ := bufio.NewReader(a.streams.In).ReadString('\n')
		if ans := strings.ToLower(strings.TrimSpace(line)); ans != "y" && ans != "yes" {
			return exitCodeError{code: exitNotFound1, err: errors.New("purge cancelled: nothing was removed")}
		}
	}
	total := gc.NewResult(false)
	status := exitOK
	opts := gc.Options{Now: a.now}
	for _, t := range targets {
		res, err := userRemoval(t.st, func() (*gc.Result, error) { return gc.Purge(t.st, t.sess, opts) })
		status = max(status, reportUserRemoval(errw, res, err))
		total.Merge(res)
	}
	fmt.Fprintf(errw, "rac: purge removed %s, %s, %s\n", plural(total.RemovedSessions, "session"),
		plural(total.RemovedRecordings, "recording"), gc.FormatBytes(max(total.FreedBytes, 0)))
	if status != exitOK {
		return exitCodeError{code: status}
	}
	return nil
}

// isTerminal reports whether f is a terminal (any terminal, controlling
// or not: the window-size request works on every tty).
func isTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	_, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	return err == nil
}

// expiredHint is the hint line under an "expired" error.
func expiredHint(err error) string {
	var e *resolve.ExpiredError
	if errors.As(err, &e) && e.Command != "" {
		return "its output is gone; run the command again to see it (it was: " + escapeControl(e.Command) + ")"
	}
	return "its output is gone; 'rac out list' shows what this session still keeps"
}

// newRetentionCmds are the rac out verbs of this file.
func newRetentionCmds(a *app) []*cobra.Command {
	return []*cobra.Command{newGCCmd(a), newRmCmd(a), newPurgeCmd(a)}
}
