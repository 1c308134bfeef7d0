package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/mcpserver"
)

// rawClient speaks newline-delimited JSON-RPC to ServeIO, as a client
// nobody on the project wrote would: no SDK, one request at a time.
type rawClient struct {
	t   *testing.T
	w   io.WriteCloser
	r   *bufio.Scanner
	id  int
	end chan error
}

func newRawClient(t *testing.T, srv *mcpserver.Server) *rawClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &rawClient{t: t, w: inW, r: bufio.NewScanner(outR), end: make(chan error, 1)}
	c.r.Buffer(make([]byte, 1<<20), 4<<20)
	go func() {
		err := srv.ServeIO(context.Background(), inR, outW)
		_ = outW.Close()
		c.end <- err
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		for c.r.Scan() { // the answers still under way
		}
		require.NoError(t, <-c.end)
	})
	return c
}

// call sends one request and returns its answer's result (or fails).
func (c *rawClient) call(method string, params any) map[string]any {
	c.t.Helper()
	c.id++
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	require.NoError(c.t, err)
	_, err = c.w.Write(append(b, '\n'))
	require.NoError(c.t, err)
	for c.r.Scan() {
		var m map[string]any
		require.NoError(c.t, json.Unmarshal(c.r.Bytes(), &m), c.r.Text())
		if m["id"] != float64(c.id) {
			continue // a notification
		}
		require.Nil(c.t, m["error"], "%s: %s", method, c.r.Text())
		return m["result"].(map[string]any)
	}
	c.t.Fatalf("the server ended before it answered %s", method)
	return nil
}

func (c *rawClient) notify(method string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method})
	_, err := c.w.Write(append(b, '\n'))
	require.NoError(c.t, err)
}

// inspectorArg converts a command-line value the way the MCP Inspector CLI
// converts --tool-arg key=value: by the property's schema "type", compared
// as a string (a union of types is no "array", so the value stays a string).
func inspectorArg(prop map[string]any, v string) any {
	switch prop["type"] {
	case "number", "integer":
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			return n
		}
	case "boolean":
		return v == "true"
	case "array", "object":
		var x any
		if json.Unmarshal([]byte(v), &x) == nil {
			return x
		}
	}
	return v
}

// A generic client lists every tool and calls each, run with argv too,
// with its arguments converted from strings by the schemas it was given.
func TestGenericClientCallsEveryTool(t *testing.T) {
	f := newFixture(t)
	ref := f.record(t, "g1", true, "sh", "-c", "seq 1 30; echo 'error: it broke' >&2; exit 1")
	srv := mcpserver.New(mcpserver.Options{App: f.app(""), Rac: []string{os.Args[0]}, Budget: budget, Run: true})
	c := newRawClient(t, srv)
	c.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "generic", "version": "1"}})
	c.notify("notifications/initialized")
	tools := c.call("tools/list", map[string]any{})["tools"].([]any)
	schemas := map[string]map[string]any{}
	for _, tl := range tools {
		tm := tl.(map[string]any)
		props := tm["inputSchema"].(map[string]any)["properties"].(map[string]any)
		schemas[tm["name"].(string)] = props
		for name, p := range props {
			_, plain := p.(map[string]any)["type"].(string)
			assert.True(t, plain, "%s.%s: type %v is not one plain JSON Schema type", tm["name"], name, p.(map[string]any)["type"])
		}
	}
	calls := []struct {
		tool string
		args map[string]string
		want string
	}{
		{"list", map[string]string{"session": "g1", "limit": "5"}, ref},
		{"read", map[string]string{"ref": ref, "stream": "stdout", "lines": "2:3"}, "2: 2"},
		{"grep", map[string]string{"text": "BROKE", "ignore_case": "true", "all_sessions": "true"}, "error: it broke"},
		{"explain", map[string]string{"ref": ref}, "error: it broke"},
		{"run", map[string]string{"argv": `["sh","-c","echo from-argv"]`, "session": "g1", "timeout_seconds": "60"}, "from-argv"},
		{"run", map[string]string{"command": "echo from-command", "session": "g1"}, "from-command"},
	}
	require.Len(t, schemas, 5)
	for _, cl := range calls {
		args := map[string]any{}
		for k, v := range cl.args {
			require.Contains(t, schemas[cl.tool], k)
			args[k] = inspectorArg(schemas[cl.tool][k].(map[string]any), v)
		}
		res := c.call("tools/call", map[string]any{"name": cl.tool, "arguments": args})
		text := ""
		for _, ct := range res["content"].([]any) {
			text += ct.(map[string]any)["text"].(string)
		}
		assert.NotEqual(t, true, res["isError"], "%s %v: %s", cl.tool, cl.args, text)
		assert.True(t, strings.Contains(text, cl.want), "%s %v: %q not in %s", cl.tool, cl.args, cl.want, text)
	}
}
