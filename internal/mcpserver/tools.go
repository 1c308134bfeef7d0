package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/explain"
	"github.com/rac-cli/rac/internal/outcome"
	"github.com/rac-cli/rac/internal/termtext"
	"github.com/rac-cli/rac/internal/units"
)

func (s *Server) addTools() {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	mcp.AddTool(s.srv, &mcp.Tool{
		Name:  "list",
		Title: "List recordings",
		Description: "List the recordings of commands run through rac in this conversation's session (or a named session, or all sessions), " +
			"newest first: at most limit entries (default 20), then skip to page to older ones. " +
			"Each entry has the reference (SESSION/NAME) that read, grep and explain take, the command, its status and exit code, and its size.",
		Annotations: ro, InputSchema: inputSchema[ListIn](),
	}, structured(s.list))
	mcp.AddTool(s.srv, &mcp.Tool{
		Name:  "read",
		Title: "Read a recording",
		Description: "Read the output of a recorded command: its last lines (tail, the default: 80), its first lines (head) or a line range (lines A:B). " +
			"Lines are numbered per stream from 1, as grep reports them. The result is bounded; when it is cut it says so and gives the range to ask for next.",
		Annotations: ro, InputSchema: inputSchema[ReadIn](),
	}, structured(s.read))
	mcp.AddTool(s.srv, &mcp.Tool{
		Name:  "grep",
		Title: "Search recordings",
		Description: "Search the recordings of this conversation's session (or a named session, or all sessions) for literal text (not a regular expression), " +
			"optionally ignoring ASCII case, with context lines. Hits come oldest recording first with reference, stream and line number (read lines=N: shows more); " +
			"the result is bounded and says how many hits it left out (skip pages on).",
		Annotations: ro, InputSchema: inputSchema[GrepIn](),
	}, structured(s.grep))
	mcp.AddTool(s.srv, &mcp.Tool{
		Name:  "explain",
		Title: "Explain a recording",
		Description: "Explain a recorded command: its outcome and the output lines most likely to be the cause of a failure (or its last lines when nothing stands out), " +
			"folded and bounded, with line numbers to read around." +
			" For a headless agent's event stream (claude -p --output-format stream-json, codex exec --json, gemini --output-format stream-json) it gives the agent's digest instead: outcome, model, cost, tool calls, the failure, the final text.",
		Annotations: ro, InputSchema: inputSchema[ExplainIn](),
	}, s.explain)
	if s.o.Run {
		s.addRun()
	}
}

// structured makes a typed handler's result its structured content
// without declaring an output schema: inferring and resolving those
// schemas (ListEntry, RunView) costs more than rac's whole start-up, and
// a fresh server must answer initialize quickly. The contracts are in the
// tools' descriptions, docs/mcp.md and these types.
func structured[In, Out any](h func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, Out, error)) mcp.ToolHandlerFor[In, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		res, out, err := h(ctx, req, in)
		if err != nil || res == nil {
			return res, nil, err
		}
		if res.StructuredContent == nil {
			res.StructuredContent = out
		}
		return res, nil, nil
	}
}

// ListIn is the list tool's input.
type ListIn struct {
	Session     string `json:"session,omitempty" jsonschema:"list this session instead of the conversation's"`
	AllSessions bool   `json:"all_sessions,omitempty" jsonschema:"list every session's recordings"`
	Limit       int    `json:"limit,omitempty" jsonschema:"at most this many entries, newest first (default 20, at most 200)"`
	Skip        int    `json:"skip,omitempty" jsonschema:"leave out this many of the newest first, to page to older ones"`
}

// ListOut is the list tool's structured result.
type ListOut struct {
	Sessions []string        `json:"sessions" jsonschema:"the sessions looked at"`
	Total    int             `json:"total" jsonschema:"how many recordings the scope holds"`
	Entries  []app.ListEntry `json:"entries" jsonschema:"the recordings shown, newest first (the shape of rac out list --json)"`
	Cut      []string        `json:"cut" jsonschema:"every cut this result made, empty when none"`
	NextSkip *int            `json:"next_skip,omitempty" jsonschema:"call again with this skip for the older entries left out"`
	Notes    []string        `json:"notes"`
}

func (s *Server) list(ctx context.Context, _ *mcp.CallToolRequest, in ListIn) (*mcp.CallToolResult, ListOut, error) {
	switch {
	case in.Limit < 0 || in.Skip < 0:
		return nil, ListOut{}, s.toolError(app.Usagef("limit and skip take numbers from 0"))
	case in.Limit == 0:
		in.Limit = 20
	case in.Limit > 200:
		in.Limit = 200
	}
	sess := in.Session
	if in.AllSessions {
		sess = ""
	}
	c, err := s.appForScope(sess, in.AllSessions)
	if err != nil {
		return nil, ListOut{}, s.toolError(err)
	}
	res, err := c.List(ctx, app.Scope{Session: in.Session, All: in.AllSessions})
	if err != nil {
		return nil, ListOut{}, s.toolError(s.elsewhereErr(c, err))
	}
	all := res.Entries
	if len(all) == 0 {
		c.noteElsewhere(s)
	}
	// newest first: by start across sessions, by number within one
	slices.Reverse(all)
	slices.SortStableFunc(all, func(a, b app.ListEntry) int { return b.StartedAt.Compare(a.StartedAt) })
	window := all[min(in.Skip, len(all)):]
	limited := len(window) > in.Limit
	window = window[:min(in.Limit, len(window))]
	build := func(k int, _ bool) (string, any) {
		out := ListOut{Sessions: res.Sessions, Total: len(all), Entries: window[:k], Cut: []string{}, Notes: append([]string{}, c.notes...)}
		if out.Sessions == nil {
			out.Sessions = []string{}
		}
		if k < len(window) {
			out.Cut = append(out.Cut, fmt.Sprintf("budget: %d of the %d entries asked for shown", k, len(window)))
		}
		if limited || k < len(window) {
			n := in.Skip + k
			out.NextSkip = &n
			if limited && k == len(window) {
				out.Cut = append(out.Cut, fmt.Sprintf("limit: %d older entries not shown", len(all)-n))
			}
		}
		return listText(out), out
	}
	text, out := build(fit(len(window), int(s.o.Budget), false, build), false)
	return textResult(text), out.(ListOut), nil
}

// appForScope is appFor for list and grep: a named session or all of them
// need no default session.
func (s *Server) appForScope(sess string, all bool) (*callApp, error) {
	if all {
		return s.appFor("", "all/")
	}
	return s.appFor(sess, "")
}

func listText(o ListOut) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d recordings in %s, newest first:\n", o.Total, strings.Join(o.Sessions, ", "))
	for _, e := range o.Entries {
		sig := ""
		if e.Signal != nil {
			sig = *e.Signal
		}
		size := e.StdoutBytes + e.StderrBytes + e.CombinedBytes
		fmt.Fprintf(&b, "%s  %s  %s  %s  %s\n", e.Ref, outcome.Of(e.Status, e.ExitCode, sig).Short(), e.StartedAt.UTC().Format("2006-01-02T15:04:05Z"),
			units.Bytes(size), cutString(termtext.EscapeLine(termtext.QuoteArgv(e.Argv)), 200))
	}
	for _, n := range o.Notes {
		fmt.Fprintf(&b, "rac: %s\n", n)
	}
	for _, c := range o.Cut {
		fmt.Fprintf(&b, "rac: cut: %s\n", c)
	}
	if o.NextSkip != nil {
		fmt.Fprintf(&b, "rac: next: list skip=%d\n", *o.NextSkip)
	}
	return b.String()
}

// GrepIn is the grep tool's input.
type GrepIn struct {
	Text        string `json:"text" jsonschema:"the literal text to find (not a regular expression)"`
	IgnoreCase  bool   `json:"ignore_case,omitempty" jsonschema:"ignore ASCII case"`
	Context     int    `json:"context,omitempty" jsonschema:"lines of context before and after each hit (at most 10)"`
	Session     string `json:"session,omitempty" jsonschema:"search this session instead of the conversation's"`
	AllSessions bool   `json:"all_sessions,omitempty" jsonschema:"search every session"`
	Skip        int    `json:"skip,omitempty" jsonschema:"leave out this many hits first, to page on"`
}

// GrepOut is the grep tool's structured result.
type GrepOut struct {
	Hits     []app.GrepHit `json:"hits" jsonschema:"the hits shown (the shape of rac out grep --json)"`
	Total    int           `json:"total" jsonschema:"how many hits there are in all"`
	Cut      []string      `json:"cut" jsonschema:"every cut this result made, empty when none"`
	NextSkip *int          `json:"next_skip,omitempty" jsonschema:"call again with this skip for the hits left out"`
	Notes    []string      `json:"notes"`
}

// maxContext bounds grep's context: more would not fit a result.
const maxContext = 10

func (s *Server) grep(ctx context.Context, _ *mcp.CallToolRequest, in GrepIn) (*mcp.CallToolResult, GrepOut, error) {
	if in.Context < 0 || in.Context > maxContext || in.Skip < 0 {
		return nil, GrepOut{}, s.toolError(app.Usagef("context takes 0 to %d lines, skip a number from 0", maxContext))
	}
	c, err := s.appForScope(in.Session, in.AllSessions)
	if err != nil {
		return nil, GrepOut{}, s.toolError(err)
	}
	budget := int(s.o.Budget)
	maxText := max(64, (budget-1024)/(4*(1+2*in.Context)))
	var hits []app.GrepHit
	cost, seen, full := 0, 0, false
	total, err := c.GrepLazy(ctx, app.GrepRequest{Text: in.Text, IgnoreCase: in.IgnoreCase, Context: in.Context,
		Scope: app.Scope{Session: in.Session, All: in.AllSessions}}, maxText, func(get func() app.GrepHit) error {
		// every hit is counted; only those that fit are built and kept
		seen++
		if seen <= in.Skip || full {
			return nil
		}
		h := get()
		hc := hitCost(h)
		if cost+hc > budget {
			full = true
			return nil
		}
		hits = append(hits, h)
		cost += hc
		return nil
	})
	if err != nil {
		return nil, GrepOut{}, s.toolError(s.elsewhereErr(c, err))
	}
	if total == 0 {
		c.noteElsewhere(s)
	}
	build := func(k int, _ bool) (string, any) {
		out := GrepOut{Hits: hits[:k], Total: total, Cut: []string{}, Notes: append([]string{}, c.notes...)}
		if shownTo := in.Skip + k; shownTo < total {
			out.NextSkip = &shownTo
			out.Cut = append(out.Cut, fmt.Sprintf("budget: hits %d to %d of %d not shown", shownTo+1, total, total))
		}
		return grepText(out, in), out
	}
	text, out := build(fit(len(hits), budget, false, build), false)
	return textResult(text), out.(GrepOut), nil
}

func hitCost(h app.GrepHit) int {
	n := 96 + 2*len(h.Ref) + 2*len(h.Text)
	for _, l := range h.Before {
		n += 32 + 2*len(l.Text)
	}
	for _, l := range h.After {
		n += 32 + 2*len(l.Text)
	}
	return n
}

func grepText(o GrepOut, in GrepIn) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d hits for %q:\n", o.Total, cutString(in.Text, 200))
	for i, h := range o.Hits {
		if in.Context > 0 && i > 0 {
			b.WriteString("--\n")
		}
		line := func(n int64, text, mark string, cut bool) {
			fmt.Fprintf(&b, "%s%s%s%s%d%s%s\n", h.Ref, mark, h.Stream, mark, n, mark, termtext.EscapeLine(text))
			if cut {
				b.WriteString(app.CutLineMarker(n, h.Stream) + "\n")
			}
		}
		for _, l := range h.Before {
			line(l.Line, l.Text, "-", l.Cut)
		}
		line(h.Line, h.Text, ":", h.Cut)
		for _, l := range h.After {
			line(l.Line, l.Text, "-", l.Cut)
		}
	}
	for _, n := range o.Notes {
		fmt.Fprintf(&b, "rac: %s\n", n)
	}
	for _, c := range o.Cut {
		fmt.Fprintf(&b, "rac: cut: %s\n", c)
	}
	if o.NextSkip != nil {
		fmt.Fprintf(&b, "rac: next: grep skip=%d\n", *o.NextSkip)
	}
	return b.String()
}

// ExplainIn is the explain tool's input.
type ExplainIn struct {
	Ref     string `json:"ref" jsonschema:"the recording: SESSION/NAME as rac printed it, or within the session a number, a name prefix or last"`
	Session string `json:"session,omitempty" jsonschema:"the session a short ref is looked up in; default: this conversation's"`
}

func (s *Server) explain(ctx context.Context, _ *mcp.CallToolRequest, in ExplainIn) (*mcp.CallToolResult, any, error) {
	if err := checkRef(in.Ref); err != nil {
		return nil, nil, s.toolError(err)
	}
	c, err := s.appFor(in.Session, in.Ref)
	if err != nil {
		return nil, nil, s.toolError(err)
	}
	if res, err := s.explainAgent(ctx, c, in.Ref); err != nil || res != nil {
		if err != nil {
			return nil, nil, s.toolError(s.elsewhereErr(c, err))
		}
		return res, nil, nil
	}
	rep, err := c.Explain(ctx, in.Ref)
	if err != nil {
		return nil, nil, s.toolError(s.elsewhereErr(c, err))
	}
	lines := rep.Lines
	budget := int(s.o.Budget)
	var res *mcp.CallToolResult
	var j []byte
	for k := len(lines); k >= 0; k-- {
		rep.Lines = lines[:k]
		var cuts []string
		if k < len(lines) {
			cuts = append(cuts, fmt.Sprintf("budget: %d of the %d lines of the report shown", k, len(lines)))
		}
		if res, j, err = explainResult(rep, c.notes, cuts); err != nil {
			return nil, nil, s.toolError(err)
		}
		if ResultSize(res) <= budget {
			return res, nil, nil
		}
	}
	// even the report without lines is too big: its text gives way
	const textCut = "budget: the text ends here; the structured content has the report"
	if j, err = withCuts(j, []string{textCut}); err != nil {
		return nil, nil, s.toolError(err)
	}
	res.StructuredContent = json.RawMessage(j)
	t := res.Content[0].(*mcp.TextContent)
	room := max(0, budget-ResultSize(res)+len(t.Text)-len(textCut)-64)
	t.Text = cutString(t.Text, room) + "\nrac: cut: " + textCut + "\n"
	return res, nil, nil
}

// explainResult is the report's text and structured content with the
// same cuts in both: those the report's JSON made to fit (which its text
// does not make, so the text names them) and cuts, the result's own.
func explainResult(rep *explain.Report, notes, cuts []string) (*mcp.CallToolResult, []byte, error) {
	j, err := rep.JSON()
	if err != nil {
		return nil, nil, err
	}
	if j, err = withCuts(j, cuts); err != nil {
		return nil, nil, err
	}
	var v struct {
		Cut []string `json:"cut"`
	}
	if err := json.Unmarshal(j, &v); err != nil {
		return nil, nil, err
	}
	var tb strings.Builder
	if err := rep.WriteText(&tb); err != nil {
		return nil, nil, err
	}
	for _, n := range notes {
		tb.WriteString("rac: " + n + "\n")
	}
	for _, c := range v.Cut {
		tb.WriteString("rac: cut: " + c + "\n")
	}
	res := textResult(tb.String())
	res.StructuredContent = json.RawMessage(j)
	return res, j, nil
}

// withCuts adds cuts to the "cut" list of a report's JSON.
func withCuts(j []byte, cuts []string) ([]byte, error) {
	if len(cuts) == 0 {
		return j, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(j, &m); err != nil {
		return nil, err
	}
	var have []string
	if err := json.Unmarshal(m["cut"], &have); err != nil {
		return nil, err
	}
	b, err := json.Marshal(append(have, cuts...))
	if err != nil {
		return nil, err
	}
	m["cut"] = b
	return json.Marshal(m)
}
