// Package record owns the recording format: the writer that tees a
// command's output into a recording folder (with its cap), the reader,
// lines, views, follow, and the folder's disk summary. It never starts
// processes (capture does), never searches (search does), and never prints.
//
// A recording is a folder in a session folder:
//
//	meta.json      metadata written before the child starts (format version, argv, cwd, ...)
//	stdout, stderr each stream's bytes, contiguous, exactly as stored
//	chunks         the order and time of every chunk written to a stream
//	lines-stdout   a sparse line index per stream (newlines before an offset)
//	lock           flock held by the recorder while it runs
//	footer.json    written last: outcome, counts, notes, and what the
//	               folder held then (GC's first pass reads that instead
//	               of a stat of every file)
//	footer.reserve the footer's room, taken at the start and renamed to
//	               footer.json at the end, so a full disk cannot cost the
//	               outcome
//
// The recorder must never let recording get in the way of forwarding: a
// failing store turns the recording "broken off", never the command. The
// reader must never trust a file further than the others vouch for it: a
// recording whose files disagree is a DamagedError, never a wrong line,
// and no read costs more than the bytes the footer and indexes state.
package record

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"time"
)

// FormatVersion is the on-disk format this build writes and understands.
const FormatVersion = 1

// File names inside a recording folder.
const (
	MetaFile   = "meta.json"
	FooterFile = "footer.json"
	ChunksFile = "chunks"
	LockFile   = "lock"
	// StoppingFile holds the signal that told the recorder to stop the
	// command, written at once (a harness may SIGKILL rac moments later).
	StoppingFile = "stopping"
	linesPfx     = "lines-"
)

// Stream kinds. A recording holds stdout and stderr, or one combined
// stream: what a pseudo-terminal gives (both streams are the terminal), or
// one pipe for both when rac's stdout and stderr were one open file (2>&1,
// one terminal), so the order of the command's writes is kept exactly.
const (
	Stdout   = "stdout"
	Stderr   = "stderr"
	Combined = "combined"
)

// Capture modes, stored in meta.json's mode.
const (
	ModePipes       = "pipes"       // two pipes, one per stream
	ModeCombined    = "combined"    // one pipe for both streams
	ModePTY         = "pty"         // a pseudo-terminal: one combined stream
	ModePassthrough = "passthrough" // the terminal, untouched: metadata only
)

// Statuses of a recording.
const (
	StatusRunning       = "running"
	StatusExited        = "exited"
	StatusSignaled      = "signaled"
	StatusTimedOut      = "timed_out"
	StatusFailedToStart = "failed_to_start"
	StatusIncomplete    = "incomplete"
	// Statuses of a recording fed by a producer other than rac run's
	// child (rac record, pkg/racrecord), which states the outcome or
	// does not: the stream ended and nobody said how the command did;
	// the producer lost its connection to the command (no exit status).
	StatusStreamEnded    = "stream_ended"
	StatusTransportError = "transport_error"
	// StatusCancelled: whoever started the run gave up on it: a producer
	// cancelled (no exit status), or the MCP run tool's client cancelled
	// the call or went away and the command died of the signal rac passed
	// on (the footer's signal).
	StatusCancelled = "cancelled"
)

var streamIDs = map[string]byte{Stdout: 1, Stderr: 2, Combined: 3}

func streamName(id byte) string {
	for n, i := range streamIDs {
		if i == id {
			return n
		}
	}
	return ""
}

// Meta is written before the child starts.
type Meta struct {
	Format     int       `json:"format"`
	Session    string    `json:"session"`
	Name       string    `json:"name"`
	Seq        int64     `json:"seq"`
	Argv       []string  `json:"argv"`
	Cwd        string    `json:"cwd"`
	StartedAt  time.Time `json:"started_at"`
	RacVersion string    `json:"rac_version"`
	Mode       string    `json:"mode"`
	Streams    []string  `json:"streams"`
	Redact     bool      `json:"redact"`
	PID        int       `json:"pid"`
	MaxBytes   int64     `json:"max_bytes,omitempty"`
	HeadBytes  int64     `json:"head_bytes,omitempty"`
	// Parent is the recording this one ran inside (the RAC_REF rac found
	// in its environment, a qualified reference): a wrapped git started by
	// a recorded make. "" for a run started from outside any recording.
	Parent string `json:"parent,omitempty"`
	// Source is what fed the recording when it was not rac run's child:
	// SourceStdin (rac record), SourceAPI (a program through
	// pkg/racrecord). "" for rac run.
	Source string `json:"source,omitempty"`
}

// Sources of a recording (Meta.Source).
const (
	SourceStdin = "stdin"
	SourceAPI   = "api"
)

// Counts are bytes and lines of one stream. A last line without a newline
// counts as a line.
type Counts struct {
	Bytes int64 `json:"bytes"`
	Lines int64 `json:"lines"`
}

// Footer is written after the child ended; its absence without a held lock
// means the recorder died.
type Footer struct {
	Format   int    `json:"format"`
	Status   string `json:"status"`
	ExitCode *int   `json:"exit_code"`
	Signal   string `json:"signal,omitempty"`
	// OutcomeFrom says where the outcome came from when rac did not see
	// the command end itself (rac record, pkg/racrecord): "--exit-code",
	// "--status-from FILE", "not stated", "the producer". "" for rac run.
	OutcomeFrom string            `json:"outcome_from,omitempty"`
	EndedAt     time.Time         `json:"ended_at"`
	Received    map[string]Counts `json:"received"`
	Stored      map[string]Counts `json:"stored"`
	Redactions  map[string]int    `json:"redactions,omitempty"`
	BrokenOff   bool              `json:"broken_off,omitempty"`
	Notes       []string          `json:"notes,omitempty"`
	// Truncated says a capped recording dropped bytes; Cut says where.
	Truncated bool                 `json:"truncated,omitempty"`
	Cut       map[string]StreamCut `json:"cut,omitempty"`
	// Disk is what the folder held besides the footer (see Disk); absent
	// from footers of older rac and when the folder could not be measured.
	Disk *Disk `json:"disk,omitempty"`
	// Agent is what the recorder noted of a stream that was an agent
	// harness's event stream (internal/agentrun); absent for any other
	// recording and from footers of older rac.
	Agent *AgentNote `json:"agent,omitempty"`
}

// AgentNote is a footer's note on an agent's transcript: which harness
// and format, which stream, and what its frames said of the run.
type AgentNote struct {
	Kind    string `json:"kind"`
	Format  string `json:"format"`
	Version string `json:"version,omitempty"`
	Stream  string `json:"stream"`
	Model   string `json:"model,omitempty"`
	// Outcome is the run's own word for how it ended (success, error,
	// error_max_turns, failed, ...); "" when the stream had no result
	Outcome string `json:"outcome,omitempty"`
	Frames  int64  `json:"frames"`
}

// chunk index: a header, then fixed-size records.
const (
	chunksMagic = "RACCHK1\n"
	chunkSize   = 24
	linesMagic  = "RACLIN1\n"
	lineEntry   = 16
	// lineStride is the byte distance between line index entries: reading
	// --lines near the end costs at most this much scanning.
	lineStride = 64 << 10
)

// Chunk is one write to a stream.
type Chunk struct {
	Stream string
	Off    int64
	Len    int64
	Time   time.Time
}

func encodeChunk(b []byte, id byte, off, n int64, t time.Time) {
	b[0] = id
	b[1], b[2], b[3] = 0, 0, 0
	binary.LittleEndian.PutUint32(b[4:], uint32(n))
	binary.LittleEndian.PutUint64(b[8:], uint64(off))
	binary.LittleEndian.PutUint64(b[16:], uint64(t.UnixNano()))
}

func decodeChunk(b []byte) Chunk {
	return Chunk{
		Stream: streamName(b[0]),
		Len:    int64(binary.LittleEndian.Uint32(b[4:])),
		Off:    int64(binary.LittleEndian.Uint64(b[8:])),
		Time:   time.Unix(0, int64(binary.LittleEndian.Uint64(b[16:]))),
	}
}

// ParseName returns the sequence number of a recording folder name
// (NNNN-slug: at least four digits, a dash, then [a-z0-9-] starting with a
// letter or digit), and whether name is one.
func ParseName(name string) (int64, bool) {
	if len(name) > 40 {
		return 0, false
	}
	i := 0
	for i < len(name) && name[i] >= '0' && name[i] <= '9' {
		i++
	}
	if i < 4 || i > 18 || i+1 >= len(name) || name[i] != '-' {
		return 0, false
	}
	for j := i + 1; j < len(name); j++ {
		c := name[j]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' && j > i+1) {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(name[:i], 10, 64)
	return n, err == nil
}

// MaxNameLen is the longest name rac gives a recording while its number
// has at most four digits.
const MaxNameLen = 24

// valueFlags lists, per program, the options in front of the subcommand that
// take the next argument as their value, so that `git -C dir status` is named
// after `status` and not after `dir`. A flag not listed here is taken to
// stand alone (the form `--flag=value` is one argument either way).
var valueFlags = map[string][]string{
	"git":       {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"},
	"kubectl":   {"-n", "--namespace", "--context", "--cluster", "--user", "--kubeconfig", "-s", "--server", "--as", "--token"},
	"helm":      {"-n", "--namespace", "--kube-context", "--kubeconfig"},
	"docker":    {"-H", "--host", "--context", "--config", "-c", "-l", "--log-level"},
	"podman":    {"--connection", "--url", "--root", "--runroot"},
	"make":      {"-C", "-f", "--file", "--directory", "-I", "-o", "-W"},
	"go":        {"-C"},
	"npm":       {"--prefix", "-w", "--workspace"},
	"cargo":     {"-C", "--manifest-path", "--config", "-Z"},
	"terraform": {"-chdir"},
}

// takesValue reports whether flag a of program prog takes the next argument.
func takesValue(prog, a string) bool {
	for _, f := range valueFlags[prog] {
		if a == f {
			return true
		}
	}
	return false
}

// Name builds a recording name: the number, zero-padded to four digits, and
// a slug of the program's base name plus its first argument that is neither
// a flag nor a value of one of the program's flags in valueFlags, when that is
// a plain word. Nothing else of argv goes into a name: arguments can hold
// secrets, and a name is never redacted.
func Name(seq int64, argv []string) string {
	num := fmt.Sprintf("%04d", seq)
	room := MaxNameLen - len(num) - 1
	prog := ""
	if len(argv) > 0 {
		prog = slug(baseName(argv[0]))
	}
	if prog == "" {
		prog = "cmd"
	}
	s := prog
	base := ""
	if len(argv) > 0 {
		base = baseName(argv[0])
	}
	rest := argv[min(1, len(argv)):]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if len(a) > 0 && a[0] == '-' {
			if takesValue(base, a) {
				i++
			}
			continue
		}
		if plainWord(a) && len(prog)+1+len(a) <= room {
			s = prog + "-" + a
		}
		break
	}
	if room < 3 {
		room = 3
	}
	if len(s) > room {
		s = trimDash(s[:room])
	}
	return num + "-" + s
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

func plainWord(a string) bool {
	if a == "" || len(a) > 16 {
		return false
	}
	for i := 0; i < len(a); i++ {
		c := a[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// slug lower-cases p and maps every other byte to '-', collapsing runs.
func slug(p string) string {
	b := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		default:
			c = '-'
		}
		if c == '-' && (len(b) == 0 || b[len(b)-1] == '-') {
			continue
		}
		b = append(b, c)
	}
	return trimDash(string(b))
}

func trimDash(s string) string {
	for len(s) > 0 && s[len(s)-1] == '-' {
		s = s[:len(s)-1]
	}
	return s
}
