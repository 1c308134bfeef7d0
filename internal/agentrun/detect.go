package agentrun

import (
	"bytes"
	"encoding/json"
)

// The harnesses whose streams are recognised (Format.Kind).
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
	GeminiCLI  = "gemini-cli"
)

// The stream formats (Format.Format).
const (
	// StreamJSON is Claude Code's and Gemini CLI's --output-format
	// stream-json: one JSON object per line.
	StreamJSON = "stream-json"
	// ExecJSON is Codex's exec --json: thread, turn and item events, one
	// per line.
	ExecJSON = "exec-json"
	// ResultJSON is Claude Code's --output-format json: one result
	// object, no events.
	ResultJSON = "json"
)

// Format is what a stream was recognised as.
type Format struct {
	Kind   string `json:"kind"`   // ClaudeCode, Codex or GeminiCLI
	Format string `json:"format"` // StreamJSON, ExecJSON or ResultJSON
	// Version is the harness's version where the stream states it (Claude
	// Code's claude_code_version); "" where it does not (Codex, Gemini CLI).
	Version string `json:"version,omitempty"`
}

// Detection looks this far into a stream, at most: a transcript's first
// frame comes first (Claude Code's init frame can be long: it lists every
// tool, skill and slash command).
const (
	DetectBytes = 256 << 10
	// DetectLines is how many lines that are not JSON objects may come
	// before the first frame (a wrapper's banner, a warning on a combined
	// stream).
	DetectLines = 16
)

// head is the fields that tell the harnesses' first frames apart.
type head struct {
	Type       string          `json:"type"`
	Subtype    string          `json:"subtype"`
	SessionID  *string         `json:"session_id"`
	ThreadID   *string         `json:"thread_id"`
	Version    string          `json:"claude_code_version"`
	Model      *string         `json:"model"`
	Message    json.RawMessage `json:"message"`
	Timestamp  *string         `json:"timestamp"`
	NumTurns   *int64          `json:"num_turns"`
	IsError    *bool           `json:"is_error"`
	DurationMS *int64          `json:"duration_ms"`
}

// Recognize says whether frame (one line, without its newline) is the
// first frame of a transcript, and of which.
func Recognize(frame []byte) (Format, bool) {
	frame = bytes.TrimSpace(frame)
	if len(frame) < 2 || frame[0] != '{' {
		return Format{}, false
	}
	var h head
	if json.Unmarshal(frame, &h) != nil {
		return Format{}, false
	}
	switch {
	case h.Type == "system" && h.SessionID != nil && (h.Subtype == "init" || h.Version != ""):
		return Format{Kind: ClaudeCode, Format: StreamJSON, Version: h.Version}, true
	case h.Type == "system" && h.SessionID != nil && len(h.Subtype) > 5 && h.Subtype[:5] == "hook_":
		// a SessionStart hook's frames come before init
		return Format{Kind: ClaudeCode, Format: StreamJSON}, true
	case h.Type == "result" && h.SessionID != nil && h.NumTurns != nil && h.IsError != nil && h.DurationMS != nil:
		return Format{Kind: ClaudeCode, Format: ResultJSON}, true
	case h.Type == "thread.started" && h.ThreadID != nil:
		return Format{Kind: Codex, Format: ExecJSON}, true
	case h.Type == "init" && h.SessionID != nil && h.Model != nil && h.Timestamp != nil:
		return Format{Kind: GeminiCLI, Format: StreamJSON}, true
	}
	return Format{}, false
}

// Sniff looks for a transcript's first frame at the start of a stream: the
// first line that is a JSON object decides, after at most DetectLines
// other lines (blank lines aside), within DetectBytes. Any other stream
// (other JSON lines, a log, a binary) is not a transcript.
func Sniff(head []byte) (Format, bool) {
	var s sniffer
	s.feed(head, true)
	return s.f, s.ok
}

// sniffer is Sniff on a head that grows: each feed looks only at the
// lines it has not seen, so a head that comes a byte at a time costs no
// more than one that comes whole.
type sniffer struct {
	at      int // the head's bytes already looked at (whole lines)
	skipped int // lines that were not JSON objects
	decided bool
	f       Format
	ok      bool
}

// feed looks at head (which starts with what earlier feeds had); final
// says it will not grow. It reports whether the answer is known.
func (s *sniffer) feed(head []byte, final bool) bool {
	if s.decided {
		return true
	}
	if len(head) >= DetectBytes {
		head, final = head[:DetectBytes], true
	}
	for s.skipped <= DetectLines {
		rest := head[s.at:]
		i := bytes.IndexByte(rest, '\n')
		if i < 0 && !final {
			return false
		}
		line := rest
		if i >= 0 {
			line = rest[:i]
			s.at += i + 1
		} else {
			s.at = len(head)
		}
		t := bytes.TrimSpace(line)
		switch {
		case len(t) > 0 && t[0] == '{':
			s.f, s.ok = Recognize(t)
			s.decided = true
			return true
		case len(t) > 0:
			s.skipped++
		}
		if i < 0 {
			break
		}
	}
	s.decided = true
	return true
}
