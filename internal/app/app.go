// Package app is rac's application layer: the services behind the verbs
// (run, list, read, grep, explain, path, gc and automatic gc, rm, purge,
// session) and their views, the stable --json shapes that the command line
// and any other front end return, and the recording lifecycle (Recording:
// created and published, fed through the redactor, finished with an
// Outcome or left incomplete) that rac run's capture and any other
// producer feed. It decides policy: which store, what to redact in
// metadata (argv, cwd, notes, rac's own messages), when gc is due.
//
// It never imports cobra, viper, color or ui, never writes to os.Stdout or
// os.Stderr, never exits, and does not know any front end's command line
// (Env.BackgroundGC is the front end's): front ends pass it settings as
// values and a context that cancels, and render what it returns. Its
// requests and results carry its own types, not capture's or record's.
package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rac-cli/rac/internal/redact"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
)

// Env is the outside world rac sees, passed as values.
type Env struct {
	Getenv  func(string) string
	Environ func() []string
	Now     func() time.Time
	// Version is rac's version, stored in each recording's metadata.
	Version string
	// BackgroundGC is the program that does the rest of a long automatic
	// gc pass in a process of its own, and its argv (argv[0] first): the
	// front end's command line, which app does not know. nil: the rest
	// waits for the next pass.
	BackgroundGC func() (path string, argv []string, err error)
}

// Settings are the values of the settings the services need, resolved by
// the front end (flags, environment, config file, defaults).
type Settings struct {
	// StrictConfig: rac run refuses a settings problem (a team redaction
	// rule or redact.args entry it cannot use) instead of running the
	// command unrecorded (--strict-config, RAC_STRICT_CONFIG=1).
	StrictConfig bool
	// Session is the --session flag ("" when not given).
	Session    string
	IDVars     []string
	MarkerVars []string

	RedactEnabled  bool
	RedactEnvNames []string
	RedactAllow    []string
	RedactRules    []redact.RuleSpec
	// RedactArgs are redact.args: more entries of the argv grammar's table
	// (redact.ParseArgSpec).
	RedactArgs []string

	MaxBytes  int64
	HeadBytes int64
	// Compress is record.compress: gc stores finished recordings
	// compressed.
	Compress bool

	// StoreWorkdir is store.workdir: the working folder's .rac is the
	// last store place a recording falls back to (and readers search).
	StoreWorkdir bool

	GC GCLimits
}

// GCLimits are the gc.* settings.
type GCLimits struct {
	MaxAge          time.Duration
	MaxSessionBytes int64
	MaxStoreBytes   int64
	MinFreeBytes    int64
	Interval        time.Duration
	// Off turns automatic gc off (a bad gc.* setting in rac run).
	Off bool
}

// App holds one invocation's environment and settings. It is cheap to
// build; expensive parts (the redactor) are made on first use.
type App struct {
	env Env
	set Settings
	// Warn prints one line for the user (rac: warning: ...). The text is
	// already redacted; the front end escapes and paints it.
	Warn func(msg string)
	// Note prints one plain line for the user (rac: ...): what a reader
	// should know about a recording, a summary of what gc did.
	Note func(msg string)
	// red is built once, on first use or by WarmRedactor; copies of the
	// App (one per MCP call) share it
	red *lazyRedactor
	// autoBudget overrides autoBudget (0: the constant); tests on a
	// loaded machine give a pass the time it needs in process
	autoBudget time.Duration
	// followWait, when set, runs before each wait of a follow (tests
	// change the recording there)
	followWait func()
}

type lazyRedactor struct {
	once sync.Once
	r    *redact.Redactor
	err  error
	// the argv grammar's table with redact.args (argv.go)
	argvOnce sync.Once
	argv     *redact.ArgvRules
	argvErr  error
	// marks are where the outbound pass over a --no-redact stream found
	// nothing open, found with r (outmarks.go)
	marks *outMarks
}

// New returns an App over env and set.
func New(env Env, set Settings) *App {
	if env.Now == nil {
		env.Now = time.Now
	}
	return &App{env: env, set: set, Warn: func(string) {}, Note: func(string) {}, red: &lazyRedactor{marks: newOutMarks()}}
}

// Settings returns the settings the App was made with.
func (a *App) Settings() Settings { return a.set }

// UsageError marks bad input from the user (a flag, a value, a name): rac
// out exits 2 for it, rac run 125.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError.
func Usagef(format string, a ...any) error {
	return &UsageError{fmt.Errorf(format, a...)}
}

// Usage wraps err as a UsageError (nil stays nil).
func Usage(err error) error {
	if err == nil {
		return nil
	}
	return &UsageError{err}
}

// IsUsage reports whether err is a usage error.
func IsUsage(err error) bool {
	var ue *UsageError
	return errors.As(err, &ue)
}

// Redactor builds (once) the redactor from rac's environment and the
// redact.* settings. A rule that does not compile is a usage error naming
// it, never a weaker redactor.
func (a *App) Redactor() (*redact.Redactor, error) {
	a.red.once.Do(func() {
		a.red.r, a.red.err = redact.New(redact.Config{
			Environ:  a.env.Environ(),
			EnvNames: a.set.RedactEnvNames,
			Allow:    a.set.RedactAllow,
			Rules:    a.set.RedactRules,
		})
		if a.red.err != nil {
			a.red.err = Usage(a.red.err)
		}
	})
	return a.red.r, a.red.err
}

// WarmRedactor starts building the redactor in the background: rac run
// needs it only once the session and store are known, and building it
// (about 0.1 ms) then overlaps finding them.
func (a *App) WarmRedactor() {
	go func() { _, _ = a.Redactor() }()
}

// RedactString redacts s with the redactor, or returns "" when it cannot
// be built (fail closed: rac never shows metadata it could not redact).
func (a *App) RedactString(s string) string { return a.redactString(s) }

func (a *App) redactString(s string) string {
	r, err := a.Redactor()
	if err != nil {
		return ""
	}
	return r.String(s)
}

// warnf redacts a message of rac's own and hands it to Warn.
func (a *App) warnf(format string, args ...any) {
	a.Warn(a.redactString(fmt.Sprintf(format, args...)))
}

// Identify works out the current session with the harness tables the
// settings extend; withReport also reports the rules after the taken one.
func (a *App) Identify(withReport bool) (session.Identity, error) {
	opts := session.Options{Flag: a.set.Session, Getenv: a.env.Getenv, NoReport: !withReport}
	var err error
	if opts.IDVars, opts.MarkerVars, err = a.harnessVars(); err != nil {
		return session.Identity{}, Usage(err)
	}
	id, err := session.Identify(opts)
	if errors.Is(err, session.ErrInvalidName) {
		err = Usage(err)
	}
	return id, err
}

// Stores opens the stores rac out searches: every store place that
// exists (open.go).
func (a *App) Stores() (Stores, error) { return a.openStores(a.set.StoreWorkdir) }

// Stores are the open stores of one call, searched in order.
type Stores []*store.Store

// Close closes every store.
func (s Stores) Close() {
	for _, st := range s {
		st.Close()
	}
}

// canceled is ctx's error once it is done, checked without blocking: the
// services check it per line or per recording, so a front end that
// cancels (an MCP client, a closed connection) stops them soon.
func canceled(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
		return nil
	}
}

// FirstLine is the first line of an error's text (store errors can carry
// a wrapped multi-line message).
func FirstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// ValidUTF8 replaces invalid UTF-8 so a JSON view stays valid.
func ValidUTF8(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

func validUTF8s(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = ValidUTF8(s)
	}
	return out
}

// harnessVars are the harness tables with the settings' additions (nil:
// the defaults); a bad entry leaves its table nil and is the error, the
// id table's first.
func (a *App) harnessVars() (ids []session.IDVar, markers []session.MarkerVar, err error) {
	if a.set.IDVars != nil {
		ids, err = session.ParseIDVars(a.set.IDVars)
	}
	if a.set.MarkerVars != nil {
		var merr error
		markers, merr = session.ParseMarkerVars(a.set.MarkerVars)
		err = cmp.Or(err, merr)
	}
	return ids, markers, err
}

// agentPresent reports whether an agent runs rac (session.AgentPresent).
// A bad harness entry is Identify's error to report; here its table
// falls back to the defaults.
func (a *App) agentPresent() bool {
	ids, markers, _ := a.harnessVars()
	agent, _ := session.AgentPresent(a.env.Getenv, ids, markers)
	return agent
}
