package app

// A recording of a headless agent's event stream (Claude Code, Codex,
// Gemini CLI): the recorder notes what it was in the footer
// (record.AgentNote), and explain answers with the agent's digest
// (internal/agentrun) instead of its output lines.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sync"
	"time"

	"github.com/rac-cli/rac/internal/agentrun"
	"github.com/rac-cli/rac/internal/outcome"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/termtext"
)

// agentWatch watches the streams a transcript comes on (stdout, or the
// one combined stream) as they are stored, redacted.
type agentWatch struct {
	mu  sync.Mutex
	obs map[string]*agentrun.Observer
	red func(string) string
	// argv is the command as stored: the model when the stream does not
	// name it
	argv []string
	// before is the note of the parts before an append: the stream it
	// names continues a transcript, whose first frame is not in this part
	before *record.AgentNote
}

// Write of one stream's watcher; the lock is for Finish, which reads
// what the watchers saw.
type agentWriter struct {
	w *agentWatch
	o *agentrun.Observer
}

func (a agentWriter) Write(p []byte) (int, error) {
	a.w.mu.Lock()
	defer a.w.mu.Unlock()
	return a.o.Write(p)
}

// watcher is the writer that watches stream name; nil for a stream a
// transcript does not come on.
func (r *Recording) watcher(name string) io.Writer {
	if name != StreamStdout && name != StreamCombined {
		return nil
	}
	w := &r.agent
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.obs == nil {
		w.obs = map[string]*agentrun.Observer{}
		w.red = r.a.redactString
	}
	o, ok := w.obs[name]
	if !ok {
		opt := agentrun.Options{Redact: w.red, Argv: w.argv}
		if b := w.before; b != nil && b.Stream == name {
			o = agentrun.NewObserverOf(agentrun.Format{Kind: b.Kind, Format: b.Format, Version: b.Version}, opt)
		} else {
			o = agentrun.NewObserver(opt)
		}
		w.obs[name] = o
	}
	return agentWriter{w: w, o: o}
}

// tee is capture's Tee: next's writers (the summary's) and the
// transcript watchers.
func (r *Recording) tee(next func(string) io.Writer) func(string) io.Writer {
	if r == nil {
		return next
	}
	return func(name string) io.Writer {
		w, n := r.watcher(name), next(name)
		switch {
		case w == nil:
			return n
		case n == nil:
			return w
		}
		return io.MultiWriter(n, w)
	}
}

// agentNote is the footer's note on a transcript the watchers saw; nil
// for any other recording.
func (r *Recording) agentNote(failed bool) *record.AgentNote {
	w := &r.agent
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, name := range []string{StreamStdout, StreamCombined} {
		o := w.obs[name]
		if o == nil {
			continue
		}
		if d := o.Digest(failed); d != nil {
			return continuedNote(w.before, &record.AgentNote{
				Kind: d.Agent.Kind, Format: d.Agent.Format, Version: d.Agent.Version, Stream: name,
				Model: d.Result.Model, Outcome: agentOutcome(d), Frames: d.Frames.Read + d.Frames.Unparsed,
			})
		}
	}
	return w.before
}

// continuedNote is an appended part's note after the parts before it (b):
// their frames and, where this part says nothing, their model and
// outcome.
func continuedNote(b, n *record.AgentNote) *record.AgentNote {
	if b == nil {
		return n
	}
	n.Frames += b.Frames
	if n.Model == "" {
		n.Model = b.Model
	}
	if n.Outcome == "" {
		n.Outcome = b.Outcome
	}
	return n
}

// agentOutcome is the run's own word for how it ended: its result's
// subtype, "error" for an error result that calls itself a success (an
// API error), "" for no result.
func agentOutcome(d *agentrun.Digest) string {
	r := d.Result
	if r.IsError != nil && *r.IsError && (r.Subtype == "success" || r.Subtype == "") {
		return "error"
	}
	return r.Subtype
}

// ExplainAgent is explain's answer for a recording of an agent's
// transcript: the digest of what the agent did, every string lifted into
// it redacted. It returns nil, nil for any other recording (explain as
// usual).
func (a *App) ExplainAgent(ctx context.Context, ref string) (*agentrun.Digest, error) {
	red, rec, err := a.openToExplain(ctx, ref)
	if err != nil {
		return nil, err
	}
	defer rec.Close()
	stream, f, ok := transcriptOf(rec)
	if !ok {
		return nil, nil
	}
	meta := explainMeta(rec)
	argv := a.argvGrammar(meta.Argv)
	for i := range argv {
		argv[i] = red.String(argv[i])
	}
	dec := agentrun.NewDecoder(f, agentrun.Options{Redact: red.String, Argv: argv})
	file, err := readTranscript(rec, stream, dec)
	if err != nil {
		return nil, err
	}
	failed := meta.Status != record.StatusRunning && (meta.Status != StatusExited || meta.ExitCode == nil || *meta.ExitCode != 0)
	tail := ""
	if stream == StreamStdout && failed {
		tail = red.String(string(bytes.TrimSpace(streamTail(rec, StreamStderr, 4<<10))))
	}
	d := dec.Digest(tail, failed)
	d.Ref, d.Command, d.File = rec.Ref(), termtext.QuoteArgv(argv), file
	d.Status, d.Signal = meta.Status, meta.Signal
	if meta.Status == StatusExited {
		d.ExitCode = meta.ExitCode
	}
	d.Outcome = outcome.Of(meta.Status, d.ExitCode, meta.Signal).Took(runTime(meta.StartedAt, meta.EndedAt, a.env.Now), !meta.StartedAt.IsZero())
	return d, nil
}

// transcriptOf finds the stream a transcript is on: the footer's note,
// else the first frames of stdout or the combined stream.
func transcriptOf(rec *record.Recording) (string, agentrun.Format, bool) {
	for _, s := range rec.Streams() {
		if s != StreamStdout && s != StreamCombined {
			continue
		}
		if f, ok := agentrun.Sniff(streamHead(rec, s, agentrun.DetectBytes)); ok {
			return s, f, true
		}
	}
	return "", agentrun.Format{}, false
}

// streamHead is up to n bytes of the start of a stream as stored.
func streamHead(rec *record.Recording, stream string, n int64) []byte {
	pieces, closeFn, err := rec.Pieces(stream)
	if err != nil || len(pieces) == 0 {
		return nil
	}
	defer closeFn()
	b, _ := io.ReadAll(io.LimitReader(pieces[0].R, n))
	return b
}

// streamTail is up to n bytes of the end of a stream as stored.
func streamTail(rec *record.Recording, stream string, n int) []byte {
	pieces, closeFn, err := rec.Pieces(stream)
	if err != nil || len(pieces) == 0 {
		return nil
	}
	defer closeFn()
	var keep []byte
	buf := make([]byte, 32<<10)
	for _, p := range pieces {
		for {
			k, rerr := p.R.Read(buf)
			keep = append(keep, buf[:k]...)
			if len(keep) > 2*n {
				keep = append(keep[:0], keep[len(keep)-n:]...)
			}
			if rerr != nil {
				break
			}
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	return keep
}

// readTranscript decodes the stream's kept bytes and states the
// recording's facts about it: what was printed and what is kept, in
// bytes and frames, where a cap cut it, its checksum.
func readTranscript(rec *record.Recording, stream string, dec *agentrun.Decoder) (agentrun.File, error) {
	file := agentrun.File{Stream: stream}
	pieces, closeFn, err := rec.Pieces(stream)
	if err != nil {
		return file, err
	}
	defer closeFn()
	h := sha256.New()
	for _, p := range pieces {
		n, lines, err := dec.Read(io.TeeReader(p.R, h), p.FirstLine-1)
		if err != nil {
			return file, err
		}
		file.BytesKept += n
		file.FramesKept += lines
	}
	file.SHA256 = hex.EncodeToString(h.Sum(nil))
	file.BytesTotal, file.FramesTotal = file.BytesKept, file.FramesKept
	if f := rec.Footer; f != nil {
		if c, ok := f.Received[stream]; ok {
			file.BytesTotal, file.FramesTotal = c.Bytes, c.Lines
		}
	}
	if cuts, err := rec.Cuts(); err == nil {
		if c, ok := cuts[stream]; ok {
			file.Truncated = true
			file.Seam = &agentrun.Seam{AfterByte: c.HeadEnd, AfterFrame: c.HeadLines, BytesDropped: c.DroppedBytes, FramesDropped: c.DroppedLines}
			file.FramesKept = max(file.FramesTotal-c.DroppedLines, 0)
			dec.Cut()
		}
	}
	return file, nil
}

// runTime is how long the run took, or has run so far (0: unknown start).
func runTime(start time.Time, end *time.Time, now func() time.Time) time.Duration {
	switch {
	case start.IsZero():
		return 0
	case end != nil:
		return max(end.Sub(start), 0)
	}
	return max(now().Sub(start), 0)
}
