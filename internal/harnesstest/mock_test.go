package harnesstest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Step is one scripted model turn: a call of the harness's shell tool
// (Shell), of another tool (Tool with Input, e.g. an MCP tool), or a
// final answer (Text).
type Step struct {
	Shell string
	// Input holds extra fields of the tool call's input (Claude Code's
	// timeout or run_in_background), or the whole input with Tool.
	Input map[string]any
	Tool  string
	Text  string
	// APIError, when set, answers the turn with this HTTP status and an
	// error body in the provider's shape instead of a model turn.
	APIError int
}

// Say is a final answer.
func Say(text string) Step { return Step{Text: text} }

// Shell is a call of the harness's shell tool with cmd.
func Shell(cmd string) Step { return Step{Shell: cmd} }

// ToolResult is what the model received for one tool call.
type ToolResult struct {
	ID      string
	Output  string
	IsError bool
}

// Logged is one request as it arrived.
type Logged struct {
	Method, Path string
	Body         []byte
}

// provider is one model API's wire format.
type provider interface {
	// turn parses a request of the main loop: how many model turns the
	// conversation holds so far (which picks the next step) and the
	// tool results it carries. ok is false for a side request (a title,
	// a probe), which gets a plain answer.
	turn(r *http.Request, body []byte) (turns int, results []ToolResult, ok bool)
	// answer writes step (or, with side, a short plain answer) as the
	// API's response; id names the tool call.
	answer(w http.ResponseWriter, r *http.Request, step Step, id string, side bool)
}

// Mock is a mock model server on 127.0.0.1 that plays a script: the
// number of model turns in a request's conversation picks the step, so a
// resumed conversation, which sends its history again, continues the
// script where the first process left it.
type Mock struct {
	t      testing.TB
	prov   provider
	srv    *httptest.Server
	mu     sync.Mutex
	script []Step
	log    []Logged
	// results by call id, in the order first seen
	results map[string]ToolResult
	order   []string
	calls   int
}

func newMock(t testing.TB, prov provider, script ...Step) *Mock {
	m := &Mock{t: t, prov: prov, script: script, results: map[string]ToolResult{}}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.srv.Close)
	return m
}

// URL is the server's base URL.
func (m *Mock) URL() string { return m.srv.URL }

// SetScript replaces the script (the turn count keeps picking steps).
func (m *Mock) SetScript(script ...Step) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.script = script
}

func (m *Mock) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	turns, results, ok := m.prov.turn(r, body)
	m.mu.Lock()
	m.log = append(m.log, Logged{Method: r.Method, Path: r.URL.RequestURI(), Body: body})
	for _, res := range results {
		if _, seen := m.results[res.ID]; !seen {
			m.order = append(m.order, res.ID)
		}
		m.results[res.ID] = res
	}
	step := Say("done")
	if ok && turns < len(m.script) {
		step = m.script[turns]
	}
	m.calls++
	id := fmt.Sprintf("call_%03d_%d", turns, m.calls)
	m.mu.Unlock()
	r = r.WithContext(context.WithValue(r.Context(), bodyKey{}, body))
	if step.APIError != 0 && ok {
		apiError(w, m.prov, step.APIError)
		return
	}
	m.prov.answer(w, r, step, id, !ok)
}

// bodyKey carries the request's body (already read) to answer.
type bodyKey struct{}

// Results are the tool results the model received, in order.
func (m *Mock) Results() []ToolResult {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]ToolResult, 0, len(m.order))
	for _, id := range m.order {
		out = append(out, m.results[id])
	}
	return out
}

// Log is every request the server received.
func (m *Mock) Log() []Logged {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Logged(nil), m.log...)
}

// Dump writes the request log to the test's log (on failure).
func (m *Mock) Dump() {
	for i, l := range m.Log() {
		b := string(l.Body)
		if len(b) > 4000 {
			b = b[:2000] + " ... " + b[len(b)-2000:]
		}
		m.t.Logf("request %d: %s %s\n%s", i, l.Method, l.Path, b)
	}
}

// sse writes one server-sent event and flushes it.
func sse(w http.ResponseWriter, event string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func sseHeader(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// textOf flattens a tool result's content: a string, or a list of text
// blocks ({"type":"text","text":...}).
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			parts = append(parts, b.Text)
		}
		return strings.Join(parts, "\n")
	}
	return string(raw)
}

// apiErrorMessage is the message of a scripted API error.
const apiErrorMessage = "mock: this request is refused"

// apiError answers with an HTTP error in the provider's shape.
func apiError(w http.ResponseWriter, prov provider, status int) {
	var body any
	switch prov.(type) {
	case anthropic:
		body = map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": apiErrorMessage}}
	case openai:
		body = map[string]any{"error": map[string]any{"type": "invalid_request_error", "message": apiErrorMessage}}
	default:
		body = map[string]any{"error": map[string]any{"code": status, "message": apiErrorMessage, "status": "INVALID_ARGUMENT"}}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
