package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func init() { register("mcp", benchMCP) }

// Targets of the MCP issue: a tail stays O(lines), not O(size), and a
// fresh server answers initialize about as fast as rac starts at all.
const (
	mcpTailTarget = 2.0
	mcpInitTarget = 2.0
)

// benchMCP: read of the last 80 lines of a 512 MiB recording made with
// --no-redact (redacted again on the way out, with its block state)
// against a 1 MiB one through one open MCP session, the same read of a
// 512 MiB recording redacted on the way in for information, and a fresh
// rac mcp's first initialize answer against rac --version.
func benchMCP(b *bench) {
	b.resetStore()
	env := append(append([]string(nil), b.env...), "RAC_RECORD_MAX_BYTES=1GiB", "RAC_SESSION=mcpbench",
		"RAC_GC_MAX_SESSION_BYTES=4GiB", "RAC_GC_MAX_STORE_BYTES=8GiB") // gc must keep the 512 MiB recording
	big := b.textFile("text-512m.log", 512<<20)
	small := b.textFile("text-1m.log", 1<<20)
	b.timeCmd(env, b.rac, "run", "-q", "--no-redact", "--", "cat", big)
	b.timeCmd(env, b.rac, "run", "-q", "--no-redact", "--", "cat", small)
	b.timeCmd(env, b.rac, "run", "-q", "--", "cat", big)

	ctx := context.Background()
	cs, _ := mcpConnect(ctx, env, b.rac, "mcp")
	read := func(ref string) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"ref": ref, "tail": 80}})
		d := time.Since(start)
		check(err)
		if res.IsError {
			check(fmt.Errorf("read %s: %s", ref, res.Content[0].(*mcp.TextContent).Text))
		}
		return d
	}
	// the first read of a --no-redact recording in a server redacts it
	// from its start and notes where no block is open; later reads start
	// at the last such line before the tail (see outMarks in internal/app)
	first := read("mcpbench/1")
	var tb, ts, tin []time.Duration
	for i := 0; i < 20**runs; i++ {
		tb = append(tb, read("mcpbench/1"))
		ts = append(ts, read("mcpbench/2"))
		tin = append(tin, read("mcpbench/3"))
	}
	check(cs.Close())
	mb, msm := median(tb), median(ts)
	fmt.Printf("read tail 80, 512 MiB recording %7.2f ms (fastest %.2f ms; the server's first read of it %.2f ms)\n", ms(mb), ms(slices.Min(tb)), ms(first))
	fmt.Printf("read tail 80, 1 MiB recording   %7.2f ms (fastest %.2f ms)\n", ms(msm), ms(slices.Min(ts)))
	fmt.Printf("read tail 80, 512 MiB recording redacted on the way in %7.2f ms (fastest %.2f ms)\n", ms(median(tin)), ms(slices.Min(tin)))
	fmt.Printf("MCP read tail 512 MiB vs 1 MiB %.2fx (target <= %.1fx: %s) over %d interleaved calls each\n",
		mb.Seconds()/msm.Seconds(), mcpTailTarget, verdict(mb.Seconds()/msm.Seconds() <= mcpTailTarget), len(tb))
	b.resetStore()

	// a fresh server, as rac agent-init --mcp registers it (rac-mcp beside
	// rac, with --rac): from its start to the answer of initialize (the
	// client's Connect sends initialize and waits for it); rac mcp, which
	// execs it, for information
	server := filepath.Join(filepath.Dir(b.rac), "rac-mcp")
	connect := func(argv ...string) time.Duration {
		start := time.Now()
		cs, _ := mcpConnect(ctx, env, argv...)
		d := time.Since(start)
		check(cs.Close())
		return d
	}
	var ti, tv, tr []time.Duration
	for i := 0; i < 10**runs; i++ {
		ti = append(ti, connect(server, "--rac", b.rac))
		tv = append(tv, b.timeCmd(env, b.rac, "--version").wall)
		tr = append(tr, connect(b.rac, "mcp"))
	}
	mi, mv := median(ti), median(tv)
	fmt.Printf("rac-mcp: first initialize answer %7.2f ms (fastest %.2f ms)\n", ms(mi), ms(slices.Min(ti)))
	fmt.Printf("rac --version                    %7.2f ms (fastest %.2f ms)\n", ms(mv), ms(slices.Min(tv)))
	fmt.Printf("for information: rac mcp (execs rac-mcp) %.2f ms, %.2fx of rac --version\n", ms(median(tr)), median(tr).Seconds()/mv.Seconds())
	fmt.Printf("MCP initialize vs rac --version %.2fx (target <= %.1fx: %s) over %d interleaved runs each\n",
		mi.Seconds()/mv.Seconds(), mcpInitTarget, verdict(mi.Seconds()/mv.Seconds() <= mcpInitTarget), len(ti))
}

// mcpConnect starts argv (rac mcp, or rac-mcp) in env as an MCP server
// and returns the session once the server has answered initialize, and
// the server's command.
func mcpConnect(ctx context.Context, env []string, argv ...string) (*mcp.ClientSession, *exec.Cmd) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	check(err)
	return cs, cmd
}
