package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/mcpserver"
	"github.com/rac-cli/rac/internal/runspec"
)

// fakeRacEnv makes the test binary act as "rac run": the run tool starts
// rac through Options.Rac, and here that is this binary.
const fakeRacEnv = "RAC_MCPSERVER_TEST_FAKE_RAC"

// secretEnv is a variable whose value redaction must keep out of results.
const (
	secretEnv = "RAC_MCP_TEST_API_TOKEN"
	secret    = "hunter2-0123456789-very-secret"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == serveArg {
		os.Exit(serveStdio())
	}
	if os.Getenv(fakeRacEnv) == "1" {
		os.Exit(fakeRac(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeRac is rac run [--stop-is-cancel] --session S --summary --json --timeout D --mcp-call -- CMD...:
// the same app.Run, printing what cmd/rac prints for those flags.
func fakeRac(args []string) int {
	stopIsCancel := len(args) > 1 && args[1] == "--stop-is-cancel"
	if stopIsCancel {
		args = append(args[:1:1], args[2:]...)
	}
	if len(args) < 9 || args[0] != "run" || args[1] != "--session" || args[3] != "--summary" || args[4] != "--json" || args[5] != "--timeout" || args[7] != "--mcp-call" || args[8] != "--" {
		fmt.Fprintf(os.Stderr, "rac: fake rac: unexpected arguments %q\n", args)
		return 125
	}
	timeout, err := time.ParseDuration(args[6])
	if err != nil {
		fmt.Fprintf(os.Stderr, "rac: fake rac: %v\n", err)
		return 125
	}
	a := app.New(app.Env{Getenv: os.Getenv, Environ: os.Environ, Now: time.Now}, settings(args[2], true))
	a.Warn = func(m string) { fmt.Fprintf(os.Stderr, "rac: warning: %s\n", m) }
	res, err := a.Run(context.Background(), app.RunRequest{
		Argv: args[9:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Timeout: timeout, KillAfter: 100 * time.Millisecond, DrainTimeout: 100 * time.Millisecond,
		Announce: runspec.AnnounceAuto, Mode: "auto", Summary: true, SummaryHead: 5, SummaryTail: 5,
		StopIsCancel: stopIsCancel, Contain: true,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "rac: %v\n", err)
		return 125
	}
	for _, l := range res.Summary {
		fmt.Println(l)
	}
	b, _ := json.Marshal(res.View())
	fmt.Fprintf(os.Stderr, "%s\n", b)
	return 0
}

// serveArg makes the test binary a server over its stdin and stdout with
// the run tool on, whose rac is this binary (fakeRac): a server process
// of its own, for a test to kill.
const serveArg = "serve-mcp-for-test"

func serveStdio() int {
	a := app.New(app.Env{Getenv: os.Getenv, Environ: os.Environ, Now: time.Now}, settings("", true))
	srv := mcpserver.New(mcpserver.Options{App: a, Budget: budget, Run: true, Rac: []string{os.Args[0]}})
	if err := srv.ServeIO(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "serve: %v\n", err)
		return 1
	}
	return 0
}

func settings(session string, redact bool) app.Settings {
	return app.Settings{
		Session: session, RedactEnabled: redact, RedactEnvNames: []string{secretEnv},
		MaxBytes: 1 << 30, HeadBytes: 1 << 20,
		GC: app.GCLimits{Off: true},
	}
}

// fixture is a store in a temporary folder and the environment that
// points rac at it. The real environment gets RAC_HOME too: the run
// tool's rac is a process of its own.
type fixture struct {
	home string
	env  map[string]string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	home := filepath.Join(t.TempDir(), "store")
	require.NoError(t, os.Mkdir(home, 0o700))
	t.Setenv("RAC_HOME", home)
	t.Setenv(secretEnv, secret)
	t.Setenv(fakeRacEnv, "1") // for the children only: TestMain has run
	return &fixture{home: home, env: map[string]string{"RAC_HOME": home, secretEnv: secret, "PATH": os.Getenv("PATH")}}
}

func (f *fixture) appEnv() app.Env {
	return app.Env{
		Getenv: func(k string) string { return f.env[k] },
		Environ: func() []string {
			var out []string
			for k, v := range f.env {
				out = append(out, k+"="+v)
			}
			return out
		},
		Now: time.Now,
	}
}

func (f *fixture) app(session string) *app.App {
	return app.New(f.appEnv(), settings(session, true))
}

// record runs argv through app.Run into session and returns the reference.
func (f *fixture) record(t *testing.T, session string, redact bool, argv ...string) string {
	t.Helper()
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	a := app.New(f.appEnv(), settings(session, redact))
	// with the summary, nothing is forwarded and stdout and stderr are
	// two pipes, as under an agent
	res, err := a.Run(context.Background(), app.RunRequest{Argv: argv, Stdin: null, Announce: runspec.AnnounceNone, Mode: "pipe", Summary: true, SummaryHead: 1, SummaryTail: 1,
		DrainTimeout: time.Second, KillAfter: time.Second})
	require.NoError(t, err)
	require.NotEmpty(t, res.Ref)
	return res.Ref
}

// connect starts a server with o (App and Rac filled in when empty) and
// returns a client session to it.
func (f *fixture) connect(t *testing.T, o mcpserver.Options) *mcp.ClientSession {
	t.Helper()
	if o.App == nil {
		o.App = f.app("")
	}
	if o.Rac == nil {
		o.Rac = []string{os.Args[0]}
	}
	cs, _ := start(t, o)
	return cs
}

// start is connect that also returns the function that stops the server
// and waits for it.
func start(t *testing.T, o mcpserver.Options) (*mcp.ClientSession, func()) {
	t.Helper()
	srv := mcpserver.New(o)
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, st) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	require.NoError(t, err)
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		_ = cs.Close()
		require.NoError(t, <-done)
	}
	t.Cleanup(stop)
	return cs, stop
}

// call calls a tool and returns its result, its text and its structured
// content decoded into a map; every result is held to the budget.
func call(t *testing.T, cs *mcp.ClientSession, budget int, tool string, args map[string]any) (*mcp.CallToolResult, string, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err, "a protocol error: the server must answer with a tool result")
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	require.LessOrEqual(t, mcpserver.ResultSize(res), budget, "result of %s %v over the budget:\n%s", tool, args, cut(text.String()))
	var sc map[string]any
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &sc))
	}
	return res, text.String(), sc
}

func cut(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

// waitFile waits for a file the command writes, up to a bound that only a
// broken test reaches.
func waitFile(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			return strings.TrimSpace(string(b))
		}
		require.True(t, time.Now().Before(deadline), "%s never appeared", path)
		time.Sleep(10 * time.Millisecond)
	}
}

// waitGone waits until process pid has ended (gone, or a zombie nobody
// has reaped yet), up to a bound that only a process left running reaches.
func waitGone(t *testing.T, pid string) {
	t.Helper()
	n, err := strconv.Atoi(pid)
	require.NoError(t, err)
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(n) + "/stat")
		if err != nil {
			return
		}
		if i := strings.LastIndexByte(string(b), ')'); i > 0 && strings.HasPrefix(string(b[i+1:]), " Z") {
			return
		}
		require.True(t, time.Now().Before(deadline), "process %d is still running", n)
		time.Sleep(10 * time.Millisecond)
	}
}
