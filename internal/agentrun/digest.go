package agentrun

// Digest is what an agent run did, bounded: the stable JSON shape of
// rac out explain --json for a recording of a transcript (see JSON for
// its bounds and the order of its cuts).
type Digest struct {
	Ref     string `json:"ref"`
	Command string `json:"command"`
	// Shows is "agent": explain's "shows" names what the report holds,
	// and a transcript's report is this digest
	Shows    string `json:"shows"`
	Status   string `json:"status"`
	ExitCode *int   `json:"exit_code,omitempty"`
	Signal   string `json:"signal,omitempty"`
	Outcome  string `json:"outcome"`

	Agent   Format    `json:"agent"`
	Result  Result    `json:"result"`
	Init    *Init     `json:"init,omitempty"`
	Tools   Tools     `json:"tools"`
	Failure *Failure  `json:"failure,omitempty"`
	Final   FinalText `json:"final"`
	// Artifacts are the files the agent wrote or edited, where its
	// stream names them (Claude Code's Write, Edit, MultiEdit and
	// NotebookEdit, Codex's file_change, Gemini CLI's write_file and
	// replace), in the order first written.
	Artifacts Artifacts `json:"artifacts"`
	File      File      `json:"file"`
	// Frames counts what the decoder met: frames read, lines that were
	// not JSON objects (a partial frame at a cut, a warning on a combined
	// stream).
	Frames Frames `json:"frames"`
	// Cut names every cut made to fit, in the order made.
	Cut []string `json:"cut"`
}

// ShowsAgent is Digest.Shows.
const ShowsAgent = "agent"

// Result is the run's own account of itself: its result frame (Claude
// Code, Gemini CLI) or its turn events (Codex), and its init frame.
type Result struct {
	Provider       string `json:"provider"`
	Model          string `json:"model,omitempty"`
	ModelFrom      string `json:"model_from,omitempty"` // "stream" or "argv"
	HarnessVersion string `json:"harness_version,omitempty"`
	SessionID      string `json:"session_id,omitempty"`
	// Subtype is the result's kind: Claude Code's subtype (success,
	// error_max_turns, error_during_execution), Gemini CLI's status,
	// Codex's "completed" or "failed" (its last turn); "" when the
	// stream ended without one.
	Subtype    string `json:"subtype,omitempty"`
	IsError    *bool  `json:"is_error,omitempty"`
	StopReason string `json:"stop_reason,omitempty"`
	NumTurns   *int64 `json:"num_turns,omitempty"`
	DurationMS *int64 `json:"duration_ms,omitempty"`
	APIMS      *int64 `json:"duration_api_ms,omitempty"`
	// CostUSD is the harness's own figure (Claude Code reports one;
	// Codex and Gemini CLI give tokens only).
	CostUSD           *float64 `json:"total_cost_usd,omitempty"`
	Usage             Usage    `json:"usage"`
	PermissionDenials int      `json:"permission_denials"`
}

// Usage is token usage, where the stream gives it.
type Usage struct {
	Input         *int64 `json:"input,omitempty"`
	Output        *int64 `json:"output,omitempty"`
	CacheRead     *int64 `json:"cache_read,omitempty"`
	CacheCreation *int64 `json:"cache_creation,omitempty"`
	Thinking      *int64 `json:"thinking,omitempty"`
}

// Init is the init frame reduced to a whitelist (Reduced is always true:
// the rest of the frame, tool and skill lists above all, is left out).
type Init struct {
	Reduced         bool   `json:"reduced"`
	Type            string `json:"type"`
	Subtype         string `json:"subtype,omitempty"`
	Model           string `json:"model,omitempty"`
	Version         string `json:"version,omitempty"`
	PermissionMode  string `json:"permission_mode,omitempty"`
	SessionID       string `json:"session_id,omitempty"`
	ToolsCount      *int   `json:"tools_count,omitempty"`
	MCPServersCount *int   `json:"mcp_servers_count,omitempty"`
}

// Tools are the tool calls: counted per tool, and the last ones paired
// with their results by id.
type Tools struct {
	Counts     []ToolCount `json:"counts"`
	LastCalls  []Call      `json:"last_calls"`
	TotalCalls int64       `json:"total_calls"`
	ShownCalls int         `json:"shown_calls"`
	// CountsShown < len(every tool) when the counts were cut (the rarest
	// tools go first)
	ToolsTotal int `json:"tools_total"`
	// Complete is false when a call's result may be missing from the
	// pairing: the stream was cut, or ended with calls still open.
	Complete bool `json:"complete"`
}

// ToolCount is one tool's calls and the errors among their results.
type ToolCount struct {
	Name   string `json:"name"`
	Calls  int64  `json:"calls"`
	Errors int64  `json:"errors"`
}

// Call is one tool call and its result.
type Call struct {
	Seq          int64  `json:"seq"` // 1 for the run's first call
	Name         string `json:"name"`
	InputExcerpt string `json:"input_excerpt"`
	// ResultBytes is the size of the result's text; -1 while no result
	// has been seen for the call
	ResultBytes int64 `json:"result_bytes"`
	IsError     bool  `json:"is_error"`
	// Line is the stream line (frame) of the call, as rac out read
	// --lines takes it
	Line int64 `json:"line"`
}

// Failure is why the run failed, by the first of: the result frame (an
// error or a non-success subtype), an error event, the last tool result
// that was an error, the end of stderr.
type Failure struct {
	Kind      string `json:"kind"` // result, error_event, tool_error, stderr
	Excerpt   string `json:"excerpt"`
	Truncated bool   `json:"truncated"`
	Line      int64  `json:"line,omitempty"`
}

// The failure kinds.
const (
	FailResult   = "result"
	FailEvent    = "error_event"
	FailTool     = "tool_error"
	FailStderr   = "stderr"
	FailNoResult = "no_result"
)

// FinalText is the agent's last answer.
type FinalText struct {
	Text      string `json:"text"`
	Bytes     int    `json:"bytes"` // its size before any cut
	Truncated bool   `json:"truncated"`
}

// Artifacts are paths the agent wrote.
type Artifacts struct {
	Count int      `json:"count"`
	Paths []string `json:"paths"`
}

// File is the recording's facts about the stream the digest was read from.
type File struct {
	Stream string `json:"stream"`
	// BytesTotal and FramesTotal are what the command printed on it;
	// BytesKept and FramesKept what the recording holds (a capped
	// recording keeps a head and a tail)
	BytesTotal  int64 `json:"bytes_total"`
	BytesKept   int64 `json:"bytes_kept"`
	FramesTotal int64 `json:"frames_total"`
	FramesKept  int64 `json:"frames_kept"`
	Truncated   bool  `json:"truncated"`
	// Seam is where the recording was cut, in bytes and frames
	Seam   *Seam  `json:"seam,omitempty"`
	SHA256 string `json:"sha256"` // of the bytes kept, as stored
}

// Seam is a capped recording's cut.
type Seam struct {
	AfterByte     int64 `json:"after_byte"`  // the head's end
	AfterFrame    int64 `json:"after_frame"` // frames whole in the head
	BytesDropped  int64 `json:"bytes_dropped"`
	FramesDropped int64 `json:"frames_dropped"` // newlines in the dropped bytes
}

// Frames counts the decoder's input.
type Frames struct {
	Read     int64 `json:"read"`
	Unparsed int64 `json:"unparsed"`
}
