// Package mcpserver is rac mcp: rac's recordings, search, explanations and
// (when allowed) a summarising run tool, served over the Model Context
// Protocol with the official Go SDK. It calls the same internal/app
// services as the command line and returns their views, every result
// within a byte budget with each cut stated and the next range to ask for.
//
// It owns the tools' contracts, the budget and the choice of a call's
// session. It never imports cobra, viper, color, ui or config (the front
// end passes plain values), never writes to os.Stdout or os.Stderr itself
// (the transport does), and never lets a tool's failure end the server: a
// bad call is a tool error the model can read.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
)

// MinBudget is the smallest budget a result gets: below it not even a tool
// error with its candidates would fit.
const MinBudget = 2 << 10

// Options are the server's inputs, as plain values.
type Options struct {
	// App is the base application: the environment and settings of rac
	// mcp. Each call works on a copy with the call's session.
	App *app.App
	// Budget bounds every result: its text and its structured content
	// together, in bytes (mcp.budget). Below MinBudget, MinBudget.
	Budget int64
	// Run offers the run tool (mcp.run).
	Run bool
	// Rac is the command that starts rac itself (its executable): the run
	// tool starts "rac run" through it, in a process group of its own.
	Rac []string
	// ParentPID is the harness process that started the server
	// (os.Getppid()): the default session is the one its SessionStart hook
	// last announced. 0: none.
	ParentPID int
	// Version is rac's version, the server's in initialize.
	Version string
}

// Server is one rac mcp.
type Server struct {
	o      Options
	srv    *mcp.Server
	groups *groups
	ready  sync.Once // the redactor of o.App is built
	// parentStart is when ParentPID started, read once at New: a later
	// process with that pid (the harness gone, the pid reused) is not it
	parentStart uint64
}

// New builds the server and its tools.
func New(o Options) *Server {
	if o.Budget < MinBudget {
		o.Budget = MinBudget
	}
	s := &Server{o: o, groups: newGroups()}
	if o.ParentPID > 0 {
		s.parentStart, _ = store.ProcStart(o.ParentPID)
	}
	// in the background: initialize need not wait for it
	go s.base()
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "rac", Title: "rac recordings", Version: o.Version}, &mcp.ServerOptions{
		Instructions: instructions(o.Run),
		Capabilities: &mcp.ServerCapabilities{},
	})
	s.addTools()
	return s
}

func instructions(run bool) string {
	s := "rac keeps the full output of commands run through 'rac run' (references look like SESSION/NAME, e.g. claude-1a2b/0042-go-test). " +
		"Use list to find recordings, read for their lines (head, tail or a range), grep to search them and explain for why a command failed. " +
		"Every result is bounded; a cut result says what it left out and what to ask for next."
	if run {
		s += " run runs a command, records it and returns a compact summary with its reference."
	}
	return s
}

// base is the App every call copies, once its redactor is built (built
// once, so that the copies share it, and never while one is copied).
func (s *Server) base() *app.App {
	s.ready.Do(func() { _, _ = s.o.App.Redactor() })
	return s.o.App
}

// MCP returns the SDK server, for a caller that connects its own transport.
func (s *Server) MCP() *mcp.Server { return s.srv }

// Serve answers one client on t until it leaves or ctx ends, then kills
// what the run tool started and has not ended.
func (s *Server) Serve(ctx context.Context, t mcp.Transport) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopped := make(chan struct{})
	go func() {
		// at once, not after the calls under way have returned: they
		// wait for the commands
		<-ctx.Done()
		s.groups.stopAll(cancelGrace + time.Second)
		close(stopped)
	}()
	err := s.srv.Run(ctx, t)
	cancel()
	<-stopped // the runs have ended, or their groups are killed
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// Close stops the run calls still under way (SIGTERM, and SIGKILL to
// their groups after a grace) and returns once they have ended.
func (s *Server) Close() { s.groups.stopAll(cancelGrace + time.Second) }

// callApp is the App of one call, whose notes and warnings it collects.
type callApp struct {
	*app.App
	notes []string
	// guessed is the default session when only the server's own process
	// chose it (its terminal or process session): a generic client with
	// no harness hook, whose recordings are most likely elsewhere
	guessed string
}

// appFor chooses the session of one call: the session argument; else an
// explicit one of the server (rac mcp --session, or RAC_SESSION where rac
// run's rules take it); else the one the harness's SessionStart hook
// announced for the server's parent;
// else the one conversation the parent holds a file of open (Codex's
// thread lock); else rac run's rules, unless they found nothing better than the default
// session. A qualified reference names its own session and needs none.
func (s *Server) appFor(sess, ref string) (*callApp, error) {
	name, guessed := "", false
	switch {
	case sess != "":
		if err := session.CheckName(sess, "session"); err != nil {
			return nil, err
		}
		name = sess
	case strings.Contains(ref, "/"):
	default:
		var err error
		if name, guessed, err = s.defaultSession(); err != nil {
			return nil, err
		}
	}
	c := &callApp{App: s.base().WithSession(name)}
	if guessed {
		c.guessed = name
	}
	c.Note = func(m string) { c.notes = append(c.notes, m) }
	c.Warn = func(m string) { c.notes = append(c.notes, "warning: "+m) }
	return c, nil
}

// parentAlive reports whether the harness that started the server is still
// the process with its pid: gone (no /proc entry) is not, and a start time
// that differs from the one read at New is another process. Where start
// times cannot be read at all (no /proc: macOS) the pid alone counts, as
// it does for the notes themselves.
func (s *Server) parentAlive() bool {
	if s.o.ParentPID <= 0 {
		return false
	}
	start, err := store.ProcStart(s.o.ParentPID)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false
	case err != nil:
		return true
	}
	return s.parentStart == 0 || start == s.parentStart
}

// ErrNoSession is a call that names no session when the server cannot
// tell which conversation it serves.
var ErrNoSession = errors.New("no session")

// defaultSession is the session of a call that names none; guessed is
// true when only the server's own terminal or process session chose it.
func (s *Server) defaultSession() (name string, guessed bool, err error) {
	id, err := s.base().Identify(false)
	if err != nil {
		return "", false, err
	}
	if id.Rule == session.RuleFlag || id.Rule == session.RuleEnv {
		return id.Name, false, nil
	}
	if s.parentAlive() {
		if n, ok, err := s.base().HarnessSession(s.o.ParentPID, s.parentStart); err == nil && ok {
			return n.Session, false, nil
		}
		if name, ok, _ := session.HeldConversation(s.o.ParentPID); ok {
			return name, false, nil
		}
	}
	if id.Rule != session.RuleDefault {
		return id.Name, id.Rule == session.RulePane || id.Rule == session.RuleProcessSession, nil
	}
	cands, _ := s.base().RecentSessions(8)
	msg := fmt.Sprintf("%v: this server cannot tell which conversation it serves (no SessionStart hook announced one for its harness, pid %d, the harness holds no conversation's file open, and rac run's rules found none); pass session", ErrNoSession, s.o.ParentPID)
	if len(cands) == 0 {
		return "", false, errors.New(msg + " (the store has no sessions yet)")
	}
	return "", false, fmt.Errorf("%s, one of (most recent first): %s", msg, strings.Join(cands, ", "))
}

// elsewhere is what a call in a guessed session that found nothing
// says: where recordings are. "" when the session was not guessed.
func (s *Server) elsewhere(c *callApp) string {
	if c.guessed == "" {
		return ""
	}
	msg := fmt.Sprintf("%s is the session of this server's own process: no harness hook told it which conversation it serves", c.guessed)
	cands, _ := s.base().RecentSessions(8)
	cands = slices.DeleteFunc(cands, func(n string) bool { return n == c.guessed })
	if len(cands) == 0 {
		return msg + "; the store has no other sessions"
	}
	return fmt.Sprintf("%s; recordings are in other sessions (most recent first: %s): pass session, or all_sessions=true to list and grep them all", msg, strings.Join(cands, ", "))
}

// noteElsewhere notes where recordings are, when the call's session was
// guessed and it found nothing there.
func (c *callApp) noteElsewhere(s *Server) {
	if m := s.elsewhere(c); m != "" {
		c.notes = append(c.notes, m)
	}
}

// elsewhereErr adds where recordings are to a reference not found in a
// guessed session.
func (s *Server) elsewhereErr(c *callApp, err error) error {
	if m := s.elsewhere(c); m != "" && (errors.Is(err, resolve.ErrNotFound) || errors.Is(err, resolve.ErrExpired)) {
		return fmt.Errorf("%w; %s", err, m)
	}
	return err
}

// toolError turns a service's error into the text of a tool error: what
// went wrong and what to call next, redacted and bounded.
func (s *Server) toolError(err error) error {
	msg := app.FirstLine(err)
	var hint string
	switch {
	case errors.Is(err, resolve.ErrAmbiguous):
		hint = "; give more of the name, or the number"
	case errors.Is(err, resolve.ErrNotFound), errors.Is(err, resolve.ErrExpired):
		hint = "; list shows the recordings there are"
	case errors.Is(err, resolve.ErrInvalid):
		hint = "; references look like SESSION/NAME, a number, a name prefix or last"
	}
	msg = s.base().RedactString(app.ValidUTF8("rac: " + msg + hint))
	if limit := int(s.o.Budget) - 64; len(msg) > limit {
		msg = msg[:limit] + " [rac: message cut]"
	}
	return errors.New(msg)
}

// checkRef refuses a reference before any store is opened (traversal,
// absolute paths, odd bytes): the error says what references look like.
func checkRef(ref string) error {
	_, err := resolve.Parse(ref)
	return err
}

// ServeIO is Serve over newline-delimited JSON on r and w (rac mcp's
// stdin and stdout).
// Every line of r passes frameFilter first, so a malformed one is answered
// with a JSON-RPC error and the server goes on.
func (s *Server) ServeIO(ctx context.Context, r io.Reader, w io.Writer) error {
	lw := &lockedWriter{w: w}
	pr, pw := io.Pipe()
	go filterFrames(r, pw, lw)
	// at the end of input the client has gone: the runs under way are
	// cancelled, and their answers (cancelled) are still written
	return s.Serve(ctx, drainTransport{Transport: &mcp.IOTransport{Reader: pr, Writer: lw, MaxLineLength: MaxFrame + 2}, atEOF: s.groups.cancelAll})
}
