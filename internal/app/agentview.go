package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/runspec"
)

// agentWindow is what a harness keeps of a tool result, in bytes (a
// character is at least one): rac run's part is shaped to fit total,
// and its last end bytes (the cause, the tail, the reference) survive a
// harness that shows a long failure as its head and its tail.
type agentWindow struct {
	harness    string
	total, end int
}

// windowFor is the window of the harness getenv names. Claude Code keeps
// the first 30,000 characters of a result and shows a failure as about
// 5 KB of head and 5 KB of tail of those; Codex keeps 10,000 characters
// for a model it does not know (head and tail); Gemini CLI gave the model
// about 40,000 (make harness). Any other harness gets Codex's, the least.
func windowFor(getenv func(string) string) agentWindow {
	switch {
	case getenv("CLAUDECODE") != "" || getenv("CLAUDE_CODE_SESSION_ID") != "":
		return agentWindow{"Claude Code", 30_000, 4_500}
	case getenv("GEMINI_CLI") != "":
		return agentWindow{"Gemini CLI", 30_000, 4_500}
	}
	return agentWindow{"", 10_000, 4_000}
}

// agentEndRoom is what the end block's own lines may take of the end:
// the held-back lines, the cause block, the line to read more and the
// reference. The tail gets the rest.
const agentEndRoom = 2_000

// agentView shapes rac run's forwarded output for an agent harness's cut:
// the head passes live until room runs out (at a line end), the rest is
// held back (it is in the recording) but for a bounded tail per stream,
// which the end block shows after the cause.
type agentView struct {
	mu      sync.Mutex
	room    int64
	holding bool
	tailMax int
	streams map[string]*viewStream
	order   []string
}

// viewStream is what one stream forwarded and held back.
type viewStream struct {
	fwdLines  int64
	heldBytes int64
	heldLines int64
	tail      []byte // the last held bytes, at most 2*tailMax
}

// newAgentView is the view of a run, nil when run.agent_view leaves the
// output alone: off; auto without a harness, or with rac's stdout not
// what the harness captures (a pipe into another program of the same
// command line, a file, a substitution); --summary and the modes other
// than pipe. Call it once rac's start line is written: what the call
// printed before (the offset of a shared output file) counts.
func (a *App) newAgentView(req RunRequest, p runPlan) *agentView {
	if req.Summary || p.lay.mode != runspec.ModePipe || req.Stdout == nil {
		return nil
	}
	switch req.AgentView {
	case runspec.AgentViewOn:
	case runspec.AgentViewAuto:
		if !(p.id.FromAgent || p.lay.agent) || !harnessCaptures(req.Stdout) {
			return nil
		}
	default:
		return nil
	}
	w := windowFor(a.env.Getenv)
	room := int64(w.total - w.end)
	if fd := fdOf(req.Stdout); fd >= 0 && isRegular(req.Stdout) {
		if off, err := unix.Seek(fd, 0, io.SeekCurrent); err == nil {
			room -= off
		}
	}
	return &agentView{room: max(room, 0), tailMax: w.end - agentEndRoom, streams: map[string]*viewStream{}}
}

// fdOf is f's descriptor, -1 when it has none, without the blocking mode
// (*os.File).Fd sets.
func fdOf(f *os.File) int {
	fd := -1
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(u uintptr) { fd = int(u) })
	}
	return fd
}

func isRegular(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode().IsRegular()
}

// shape is capture's Shape (nil without a view).
func (v *agentView) shape() func(string, io.Writer) io.Writer {
	if v == nil {
		return nil
	}
	return func(stream string, fwd io.Writer) io.Writer { return &viewWriter{v: v, name: stream, fwd: fwd} }
}

func (v *agentView) stream(name string) *viewStream {
	s, ok := v.streams[name]
	if !ok {
		s = &viewStream{}
		v.streams[name] = s
		v.order = append(v.order, name)
	}
	return s
}

// take splits b into what is forwarded now and what is held back.
func (v *agentView) take(name string, b []byte) []byte {
	v.mu.Lock()
	defer v.mu.Unlock()
	s := v.stream(name)
	pass := b
	if v.holding || int64(len(b)) > v.room {
		pass = nil
		if !v.holding {
			// the head ends at the last line end that fits
			if i := bytes.LastIndexByte(b[:v.room], '\n'); i >= 0 {
				pass = b[:i+1]
			}
			v.holding = true
		}
		held := b[len(pass):]
		s.heldBytes += int64(len(held))
		s.heldLines += int64(bytes.Count(held, []byte{'\n'}))
		s.tail = append(s.tail, held...)
		if len(s.tail) > 2*v.tailMax {
			s.tail = append(s.tail[:0], s.tail[len(s.tail)-v.tailMax:]...)
		}
	}
	v.room -= int64(len(pass))
	s.fwdLines += int64(bytes.Count(pass, []byte{'\n'}))
	return pass
}

type viewWriter struct {
	v    *agentView
	name string
	fwd  io.Writer
}

func (w *viewWriter) Write(b []byte) (int, error) {
	pass := w.v.take(w.name, b)
	if len(pass) == 0 {
		return len(b), nil
	}
	if _, err := w.fwd.Write(pass); err != nil {
		return 0, err
	}
	return len(b), nil
}

// AgentEnd is what rac run prints at the end of a shaped output: its own
// lines (without "rac: "), then each stream's tail, then the reference.
type AgentEnd struct {
	Lines []string
	Tails []StreamTail
}

// StreamTail is the end of what a stream held back, from a line start.
type StreamTail struct {
	Stream string
	Bytes  []byte
}

// agentEnd is the end block of a view that held output back, nil when
// it held nothing (the output reached the harness as without rac): for
// each stream the lines held back and how to read them, for a failure
// the cause block and the line to read around it, and the tails.
func (a *App) agentEnd(ctx context.Context, v *agentView, o Outcome, rec *Recording) *AgentEnd {
	if v == nil || !v.holding {
		return nil
	}
	end := &AgentEnd{}
	ref := "the recording"
	if rec != nil {
		ref = rec.Ref()
	}
	for _, name := range v.order {
		s := v.streams[name]
		if s.heldBytes == 0 {
			continue
		}
		tail := s.tail
		if int64(len(tail)) < s.heldBytes || len(tail) > v.tailMax {
			if len(tail) > v.tailMax {
				tail = tail[len(tail)-v.tailMax:]
			}
			if i := bytes.IndexByte(tail, '\n'); i >= 0 {
				tail = tail[i+1:] // from a line start
			}
		}
		shown := int64(bytes.Count(tail, []byte{'\n'}))
		from, to := s.fwdLines+1, s.fwdLines+s.heldLines-shown
		if to >= from {
			read := fmt.Sprintf("rac out read %s %s %s", ref, flagWords.set("stream", name), flagWords.set("lines", fmt.Sprintf("%d:%d", from, to)))
			end.Lines = append(end.Lines, fmt.Sprintf("%s lines %d to %d not shown, kept for the harness's window: %s", name, from, to, read))
		}
		end.Tails = append(end.Tails, StreamTail{Stream: name, Bytes: tail})
	}
	if rec != nil && !(o.Status == StatusExited && o.ExitCode == 0) {
		if rep, err := a.Explain(ctx, rec.Ref()); err == nil {
			if block := rep.CauseBlock(summaryCauseLines - 1); block != nil {
				end.Lines = append(end.Lines, block...)
				c := &RunCause{Stream: rep.Lines[0].Stream, Line: rep.Lines[0].Line}
				end.Lines = append(end.Lines, SummaryMore(rec.Ref(), c, false)[len("rac: "):])
			}
		}
	}
	return end
}
