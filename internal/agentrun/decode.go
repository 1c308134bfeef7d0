package agentrun

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// The digest's entry bounds: what the decoder keeps of each thing as it
// goes, before JSON's shrinking (see JSON).
const (
	MaxLastCalls    = 20
	MaxPaths        = 50
	MaxCounts       = 32
	MaxFinalText    = 2 << 10
	MaxExcerpt      = 1 << 10
	MaxInputExcerpt = 200
	MaxField        = 256 // model, session id, subtype, a tool's name
	// maxTools bounds the tools counted by name; beyond it calls count
	// under otherTools
	maxTools = 256
	// maxOpen bounds the calls waiting for their result
	maxOpen = 4096
	// maxLifted is how much of a string is redacted before an excerpt is
	// cut from it: a secret is never cut in two before the redactor sees it
	maxLifted = 16 << 10
)

const otherTools = "(other tools)"

// Options are a Decoder's inputs besides the frames.
type Options struct {
	// Redact is the redactor every lifted string passes through before
	// it is kept; nil keeps strings as they are (tests).
	Redact func(string) string
	// Argv is the recorded command: the model where the stream does not
	// name it (Codex's -m, Gemini CLI's -m when its init says "auto").
	Argv []string
}

// Decoder turns a transcript's frames into a Digest, in bounded memory
// whatever the stream's length.
type Decoder struct {
	opt    Options
	format Format
	d      Digest
	// tools by name, and their order of first call
	counts map[string]*ToolCount
	order  []string
	open   map[string]*Call // calls waiting for their result, by id
	openQ  []string         // their ids, oldest first (to bound open)
	calls  []*Call          // the last MaxLastCalls calls
	paths  map[string]bool
	// failures as met, by kind; Digest picks by precedence
	resultFail, eventFail, toolFail *Failure
	// Codex sums usage over its turns
	codexTurns int64
	// Gemini CLI streams the final answer in pieces: the text since the
	// last tool call
	text      strings.Builder // at most maxLifted bytes of it
	textBytes int
	line      int64
}

// NewDecoder starts a digest of a stream recognised as f.
func NewDecoder(f Format, opt Options) *Decoder {
	dec := &Decoder{opt: opt, format: f, counts: map[string]*ToolCount{}, open: map[string]*Call{}, paths: map[string]bool{}}
	dec.d.Agent = f
	dec.d.Shows = ShowsAgent
	dec.d.Result.Provider = providerOf(f.Kind)
	dec.d.Result.HarnessVersion = f.Version
	dec.d.Tools.Complete = true
	return dec
}

func providerOf(kind string) string {
	switch kind {
	case ClaudeCode:
		return "anthropic"
	case Codex:
		return "openai"
	case GeminiCLI:
		return "google"
	}
	return ""
}

// Frame decodes one line of the stream (without its newline); line is its
// number in the stream, as rac out read counts. A line that is not a JSON
// object counts as unparsed and is otherwise skipped.
func (dec *Decoder) Frame(line int64, b []byte) {
	dec.line = line
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if b[0] != '{' || d.Decode(&m) != nil {
		dec.d.Frames.Unparsed++
		return
	}
	dec.d.Frames.Read++
	switch dec.format.Kind {
	case ClaudeCode:
		dec.claude(m)
	case Codex:
		dec.codex(m)
	case GeminiCLI:
		dec.gemini(m)
	}
}

// lift is a string taken out of a frame: redacted, then cut to n bytes.
// It says whether it was cut.
func (dec *Decoder) lift(s string, n int) (string, bool) {
	long := len(s) > maxLifted
	if long {
		s = s[:maxLifted]
	}
	if dec.opt.Redact != nil {
		s = dec.opt.Redact(s)
	}
	c := Cut(s, n)
	return c, long || c != s
}

// Cut tells the decoder that frames are missing from the middle of the
// stream (a capped recording): its pairing of calls is not complete.
func (dec *Decoder) Cut() { dec.d.Tools.Complete = false }

func (dec *Decoder) field(s string) string {
	c, _ := dec.lift(s, MaxField)
	return c
}

// call notes a tool call; id pairs it with its result.
func (dec *Decoder) call(id, name string, input any) {
	name = dec.field(name)
	if name == "" {
		name = "(unnamed)"
	}
	dec.d.Tools.TotalCalls++
	tc := dec.count(name)
	tc.Calls++
	c := &Call{Seq: dec.d.Tools.TotalCalls, Name: name, ResultBytes: -1, Line: dec.line}
	c.InputExcerpt, _ = dec.lift(excerptOf(input), MaxInputExcerpt)
	dec.calls = append(dec.calls, c)
	if len(dec.calls) > MaxLastCalls {
		dec.calls = dec.calls[1:]
	}
	if id == "" {
		return
	}
	dec.open[id] = c
	dec.openQ = append(dec.openQ, id)
	for len(dec.openQ) > maxOpen {
		delete(dec.open, dec.openQ[0])
		dec.openQ = dec.openQ[1:]
		dec.d.Tools.Complete = false
	}
}

// result pairs a tool result with its call by id.
func (dec *Decoder) result(id, text string, isError bool) {
	c, ok := dec.open[id]
	if !ok {
		// a result without its call: the call was cut from the recording
		dec.d.Tools.Complete = false
		return
	}
	delete(dec.open, id)
	c.ResultBytes = int64(len(text))
	c.IsError = isError
	if isError {
		dec.count(c.Name).Errors++
		ex, cut := dec.lift(text, MaxExcerpt)
		dec.toolFail = &Failure{Kind: FailTool, Excerpt: c.Name + ": " + ex, Truncated: cut, Line: dec.line}
	}
}

func (dec *Decoder) count(name string) *ToolCount {
	if tc, ok := dec.counts[name]; ok {
		return tc
	}
	if len(dec.counts) >= maxTools {
		name = otherTools
		if tc, ok := dec.counts[name]; ok {
			return tc
		}
	}
	tc := &ToolCount{Name: name}
	dec.counts[name] = tc
	dec.order = append(dec.order, name)
	return tc
}

// wrote notes a path the agent wrote.
func (dec *Decoder) wrote(p string) {
	if p == "" {
		return
	}
	p = dec.field(p)
	if dec.paths[p] {
		return
	}
	dec.d.Artifacts.Count++
	if len(dec.paths) < MaxPaths {
		dec.paths[p] = true
		dec.d.Artifacts.Paths = append(dec.d.Artifacts.Paths, p)
	}
}

func (dec *Decoder) finalText(s string) {
	dec.d.Final.Bytes = len(s)
	dec.d.Final.Text, dec.d.Final.Truncated = dec.lift(s, MaxFinalText)
}

// excerptOf is a tool input as a short text: a command or a path when the
// input has one, else its compact JSON.
func excerptOf(input any) string {
	if m, ok := input.(map[string]any); ok {
		for _, k := range []string{"command", "cmd", "file_path", "path", "absolute_path", "pattern", "url", "query"} {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
		}
	}
	if s, ok := input.(string); ok {
		return s
	}
	b, err := json.Marshal(input)
	if err != nil {
		return ""
	}
	return string(b)
}

// The accessors of a decoded frame.

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func obj(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}

func arr(m map[string]any, k string) []any {
	a, _ := m[k].([]any)
	return a
}

func num(m map[string]any, k string) *int64 {
	n, ok := m[k].(json.Number)
	if !ok {
		return nil
	}
	if i, err := n.Int64(); err == nil {
		return &i
	}
	if f, err := n.Float64(); err == nil {
		i := int64(f)
		return &i
	}
	return nil
}

func float(m map[string]any, k string) *float64 {
	n, ok := m[k].(json.Number)
	if !ok {
		return nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return nil
	}
	return &f
}

func boolean(m map[string]any, k string) *bool {
	b, ok := m[k].(bool)
	if !ok {
		return nil
	}
	return &b
}

func addTo(dst **int64, v *int64) {
	if v == nil {
		return
	}
	if *dst == nil {
		*dst = new(int64)
	}
	**dst += *v
}

// textOf is a tool result's content: a string, or the text of its
// blocks.
func textOf(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, b := range c {
			if bm, ok := b.(map[string]any); ok {
				if t := str(bm, "text"); t != "" {
					parts = append(parts, t)
				}
			}
		}
		return strings.Join(parts, "\n")
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
