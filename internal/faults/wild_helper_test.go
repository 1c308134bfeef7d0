package faults

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/require"
)

// The helpers of wild_test.go: a writer the recorded command is (this test
// binary, run again), rac under a real pseudo-terminal, and a small MCP
// client for rac-mcp over stdio.

// wildWriterEnv makes this test binary the wild corpus's writer instead
// of a test run (see wildWriter).
const wildWriterEnv = "RAC_WILD_WRITER"

func TestMain(m *testing.M) {
	if os.Getenv(wildWriterEnv) == "1" {
		os.Exit(wildWriter())
	}
	os.Exit(m.Run())
}

// wildWriter writes the file RAC_WILD_IN (nothing when unset) with one
// write(2) per piece: RAC_WILD_WRITE is "bytes" (one byte a write) or
// "split:SEED" (pieces of 1 byte to 64 KiB, mostly small); RAC_WILD_FD is
// "1", "2", "mix:SEED" (each piece to stdout or stderr at random: for a
// run whose two streams are one pipe) or "cases:SEED" (each case, from
// its wildCaseMark line on, to one of them at random). It writes its recording's reference
// (RAC_REF) to RAC_WILD_REF_FILE and exits with RAC_WILD_EXIT. Its
// arguments are ignored: under another name it stands in for mysql,
// docker or curl, whose argv is what the case is about.
func wildWriter() int {
	var data []byte
	if p := os.Getenv("RAC_WILD_IN"); p != "" {
		var err error
		if data, err = os.ReadFile(p); err != nil {
			fmt.Fprintln(os.Stderr, "wild writer:", err)
			return 125
		}
	}
	seedOf := func(v string) uint64 {
		_, s, _ := strings.Cut(v, ":")
		n, _ := strconv.ParseUint(s, 10, 64)
		return n
	}
	how, where := os.Getenv("RAC_WILD_WRITE"), os.Getenv("RAC_WILD_FD")
	sizes := rand.New(rand.NewPCG(seedOf(how), 1))
	fds := rand.New(rand.NewPCG(seedOf(where), 2))
	fd := 1
	for len(data) > 0 {
		n := 1
		if how != "bytes" {
			switch k := sizes.IntN(10); {
			case k < 6:
				n = 1 + sizes.IntN(64)
			case k < 9:
				n = 1 + sizes.IntN(4096)
			default:
				n = 1 + sizes.IntN(64<<10)
			}
		}
		n = min(n, len(data))
		switch {
		case where == "2":
			fd = 2
		case strings.HasPrefix(where, "mix:"):
			fd = 1 + fds.IntN(2)
		case strings.HasPrefix(where, "cases:"):
			// a case goes to one stream: a switch inside it would
			// split a name from its value, or a key's header from its
			// body, across two streams, which no redactor can join
			if nl := bytes.IndexByte(data[:n], '\n'); nl >= 0 {
				n = nl + 1
			}
		}
		for piece := data[:n]; len(piece) > 0; {
			k, err := syscall.Write(fd, piece)
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			if err != nil {
				return 1 // the reader went away: as a real command would
			}
			piece = piece[k:]
		}
		if strings.HasPrefix(where, "cases:") && data[n-1] == '\n' && bytes.HasPrefix(data[n:], []byte(wildCaseMark)) {
			fd = 1 + fds.IntN(2)
		}
		data = data[n:]
	}
	// which recording this is, for the test's report
	if p := os.Getenv("RAC_WILD_REF_FILE"); p != "" {
		if err := os.WriteFile(p, []byte(os.Getenv("RAC_REF")), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "wild writer:", err)
			return 125
		}
	}
	code, _ := strconv.Atoi(os.Getenv("RAC_WILD_EXIT"))
	return code
}

// racMCPBin is rac-mcp: beside the rac under test (make build puts them
// side by side), else built once here.
var (
	mcpOnce sync.Once
	mcpBin  string
	mcpErr  error
)

func racMCP(t *testing.T) string {
	t.Helper()
	mcpOnce.Do(func() {
		beside := filepath.Join(filepath.Dir(racBin), "rac-mcp")
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() {
			mcpBin = beside
			return
		}
		dir, err := os.MkdirTemp("", "rac-faults-mcp-")
		if err != nil {
			mcpErr = err
			return
		}
		mcpBin = filepath.Join(dir, "rac-mcp")
		if out, err := exec.Command("go", "build", "-o", mcpBin, "github.com/rac-cli/rac/cmd/rac-mcp").CombinedOutput(); err != nil {
			mcpErr = fmt.Errorf("go build rac-mcp: %v\n%s", err, out)
		}
	})
	require.NoError(t, mcpErr)
	return mcpBin
}

// racIn runs rac with args as the foreground job of a fresh
// pseudo-terminal (a session of its own, the terminal its controlling
// one, as a shell at a terminal starts it), draining what it shows; it
// returns rac's exit code, -1 when it did not end within limit and was
// killed.
func (s *racStore) racIn(limit time.Duration, env []string, args ...string) (int, error) {
	c := exec.Command(racBin, args...)
	c.Env = env
	c.Dir = s.dir
	ptmx, err := pty.StartWithSize(c, &pty.Winsize{Rows: 40, Cols: 160})
	if err != nil {
		return -1, err
	}
	drained := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, ptmx); close(drained) }()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	werr := waitCtx(ctx, c)
	// the master reads EIO once no one holds the terminal any more
	select {
	case <-drained:
	case <-time.After(10 * time.Second):
	}
	cerr := ptmx.Close()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return -1, fmt.Errorf("rac did not end within %v", limit)
	case werr == nil:
		return 0, cerr
	case errors.As(werr, &ee):
		return ee.ExitCode(), cerr
	default:
		return -1, werr
	}
}

// runWith runs rac with args and env, its stdout and stderr as given (the
// same *os.File for both makes them one open file, as 2>&1 does).
func (s *racStore) runWith(limit time.Duration, env []string, stdout, stderr io.Writer, args ...string) (int, error) {
	c := exec.Command(racBin, args...)
	c.Env = env
	c.Dir = s.dir
	c.Stdout, c.Stderr = stdout, stderr
	return startWait(limit, c)
}

// startWait starts c in a process group of its own and waits for its
// exit status, killing the group at limit.
func startWait(limit time.Duration, c *exec.Cmd) (int, error) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Start(); err != nil {
		return -1, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	err := waitCtx(ctx, c)
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return -1, fmt.Errorf("%s did not end within %v", filepath.Base(c.Args[0]), limit)
	case err == nil:
		return 0, nil
	case errors.As(err, &ee):
		return ee.ExitCode(), nil
	default:
		return -1, err
	}
}

// mcpClient talks JSON-RPC to a rac-mcp it started, one request at a time.
type mcpClient struct {
	t    *testing.T
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	pipe *os.File // out's pipe, for read deadlines
	id   int
	errb bytes.Buffer
}

// startMCP starts rac-mcp in the store with env, or rac mcp (which runs
// the rac-mcp beside it, else on PATH) when viaRac, and initialises the
// connection.
func (s *racStore) startMCP(t *testing.T, env []string, viaRac bool) *mcpClient {
	t.Helper()
	c := exec.Command(racMCP(t))
	if viaRac {
		c = exec.Command(racBin, "mcp")
		env = append(slices.Clone(env), "PATH="+filepath.Dir(racMCP(t))+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	c.Env = env
	c.Dir = s.dir
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	m := &mcpClient{t: t, cmd: c}
	c.Stderr = &m.errb
	var err error
	m.in, err = c.StdinPipe()
	require.NoError(t, err)
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	c.Stdout = pw
	m.pipe = pr
	m.out = bufio.NewReaderSize(pr, 1<<20)
	require.NoError(t, c.Start())
	require.NoError(t, pw.Close())
	t.Cleanup(func() { m.close() })
	raw, res := m.call("initialize", map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "rac-faults-wild", "version": "1"},
	})
	require.NotNil(t, res, "initialize: %s", raw)
	m.notify("notifications/initialized")
	return m
}

func (m *mcpClient) send(v any) {
	b, err := json.Marshal(v)
	require.NoError(m.t, err)
	_, err = m.in.Write(append(b, '\n'))
	require.NoError(m.t, err, "rac-mcp: %s", m.errb.String())
}

func (m *mcpClient) notify(method string) {
	m.send(map[string]any{"jsonrpc": "2.0", "method": method})
}

// call sends one request and returns the raw answer line (what a client
// reads: the text and the structured content together) and its result
// (nil for an error answer).
func (m *mcpClient) call(method string, params any) ([]byte, map[string]any) {
	m.t.Helper()
	m.id++
	m.send(map[string]any{"jsonrpc": "2.0", "id": m.id, "method": method, "params": params})
	// a server that stops answering fails the test instead of hanging it
	require.NoError(m.t, m.pipe.SetReadDeadline(time.Now().Add(2*time.Minute)))
	for {
		line, err := m.out.ReadBytes('\n')
		require.NoError(m.t, err, "rac-mcp ended: %s", m.errb.String())
		var msg struct {
			ID     *int           `json:"id"`
			Result map[string]any `json:"result"`
		}
		require.NoError(m.t, json.Unmarshal(line, &msg), "%.300s", line)
		if msg.ID == nil || *msg.ID != m.id {
			continue // a notification of the server's
		}
		return line, msg.Result
	}
}

// tool calls a tool; isError says whether the tool answered with an error.
func (m *mcpClient) tool(name string, args map[string]any) (raw []byte, structured map[string]any, isError bool) {
	m.t.Helper()
	raw, res := m.call("tools/call", map[string]any{"name": name, "arguments": args})
	if res == nil {
		return raw, nil, true
	}
	sc, _ := res["structuredContent"].(map[string]any)
	isErr, _ := res["isError"].(bool)
	return raw, sc, isErr
}

func (m *mcpClient) close() {
	if m.cmd.Process == nil || m.cmd.ProcessState != nil {
		return
	}
	_ = m.in.Close() // the server ends when its input does
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = waitCtx(ctx, m.cmd)
	_ = m.pipe.Close()
}

// recordStdin records one batch as a stream: the writer's stdout piped
// into rac record, whose reference (from its first line on stderr) goes
// to refFile, as the writer itself writes RAC_REF under rac run.
func (w *wildSet) recordStdin(b wildBatch, f wildForm, noRedact bool, refFile string) {
	const limit = 2 * time.Minute
	args := append([]string{"record", "--session", session(b.class)}, f.args...)
	if noRedact {
		args = append(args, "--no-redact")
	}
	env := w.writerEnv(b.file, b.env, f.write, f.fd, f.exit)
	pr, pw, err := os.Pipe()
	require.NoError(w.t, err)
	writer := exec.Command(w.writer)
	writer.Env, writer.Dir, writer.Stdout, writer.Stderr = env, w.st.dir, pw, io.Discard
	writer.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(w.t, writer.Start())
	require.NoError(w.t, pw.Close())
	var out, errb bytes.Buffer
	c := exec.Command(racBin, args...)
	// rac gets the writer's environment, as rac run does: the case's
	// variables are what redaction by variable name reads
	c.Env, c.Dir, c.Stdin, c.Stdout, c.Stderr = env, w.st.dir, pr, &out, &errb
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(w.t, c.Start())
	require.NoError(w.t, pr.Close())
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	rerr, werr := waitCtx(ctx, c), waitCtx(ctx, writer)
	if rerr != nil || werr != nil || ctx.Err() != nil {
		w.problem("rac record (%s), class %s: %v, writer %v: %.300s", f.name, b.class, rerr, werr, errb.String())
	}
	if ref, ok := strings.CutPrefix(strings.SplitN(errb.String(), "\n", 2)[0], "rac: recording "); ok {
		require.NoError(w.t, os.WriteFile(refFile, []byte(ref), 0o600))
	}
	if f.checkOut {
		w.check("rac record stdout ["+f.name+"]", b.class, out.Bytes())
	}
	if f.checkErr {
		w.check("rac record stderr ["+f.name+"]", b.class, errb.Bytes())
	}
}
