package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/redact"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
)

// The streams a recording holds, by name.
const (
	StreamStdout   = record.Stdout
	StreamStderr   = record.Stderr
	StreamCombined = record.Combined
)

// How the command was connected, as a recording's metadata says (meta.json's
// mode and rac run --json's mode).
const (
	RecordPipes       = record.ModePipes
	RecordCombined    = record.ModeCombined
	RecordPTY         = record.ModePTY
	RecordPassthrough = record.ModePassthrough
)

// How a command ended (Outcome.Status).
const (
	StatusExited        = record.StatusExited
	StatusSignaled      = record.StatusSignaled
	StatusTimedOut      = record.StatusTimedOut
	StatusFailedToStart = record.StatusFailedToStart
	// the outcomes of a producer other than rac run (rac record,
	// pkg/racrecord): nobody stated one, the connection to the command
	// was lost, the producer gave up
	StatusStreamEnded    = record.StatusStreamEnded
	StatusTransportError = record.StatusTransportError
	StatusCancelled      = record.StatusCancelled
)

// StreamCounts are the bytes and lines of one stream; a last line without
// a newline counts as a line.
type StreamCounts struct {
	Bytes int64
	Lines int64
}

// Outcome is how what fed a recording ended, whoever fed it (rac run's
// child, a stream on stdin, a remote runner).
type Outcome struct {
	// Status is StatusExited, StatusSignaled, StatusTimedOut, StatusCancelled or
	// StatusFailedToStart.
	Status string
	// ExitCode is the code of an exited command (126 or 127 for one that
	// failed to start).
	ExitCode int
	// Signal names the signal that ended it (SIGTERM), "" for none.
	Signal string
	// Notes say what a reader should know (the recording redacts them).
	Notes []string
	// Received are the bytes and lines received per stream, before
	// redaction; nil: what the recording's Stream writers counted.
	Received map[string]StreamCounts
	// From says where the outcome came from when rac did not see the
	// command end itself ("--exit-code", "not stated", ...); "" for rac
	// run.
	From string

	// sig is the signal's number when rac saw it (rac run), for the
	// re-raise: a realtime signal has no name
	sig unix.Signal
}

// RecordingRequest is a recording about to start: what it is of, not who
// produces its bytes.
type RecordingRequest struct {
	// Argv is the command that produced the bytes; the recording keeps it
	// redacted (with redaction on) and bounded.
	Argv []string
	// Cwd is where it ran; "": rac's own working folder.
	Cwd string
	// Streams are the streams it will hold (StreamStdout and StreamStderr,
	// or StreamCombined); none keeps metadata only.
	Streams []string
	// Mode is how the command was connected (RecordPipes, ...); "": pipes
	// for two streams, combined for one, passthrough for none.
	Mode string
	// OneWorker redacts each stream on one goroutine (a stream that comes
	// slowly: workers would only add handoffs).
	OneWorker bool
	// Source is what feeds it when not rac run's child (record.SourceStdin,
	// record.SourceAPI); Slug names it instead of Argv (a plain word).
	Source, Slug string
}

// Recording is one recording's life: created and published (readers see
// it running), fed bytes per stream through the redactor, told how the
// command ended and finished, or left incomplete when its producer lost
// the source. rac run feeds it from its child; any other producer (a
// stream on stdin, a remote runner's chunks, an agent's transcript)
// writes to Stream or calls Feed. Its methods are for one producer; the
// writers of different streams may be used from different goroutines.
type Recording struct {
	a        *App
	w        *record.Writer
	store    string // the path of the store it is in
	reds     *streamRedactors
	warnings []string

	mu    sync.Mutex
	feeds map[string]*feed
	// feedOrder are the feeds' names in the order they were made
	feedOrder []string
	// before is what the parts before an append received and redacted
	// (nil for a recording made new): the footer counts the whole
	before *partsBefore
	// agent watches for an agent's transcript (agentrun.go)
	agent agentWatch
}

// CreateRecording creates the recording in the current session and
// publishes it. Creating it is rac's own business, so its errors are the
// store's or a bad setting (a usage error).
func (a *App) CreateRecording(ctx context.Context, req RecordingRequest) (*Recording, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if _, err := a.Redactor(); err != nil {
		return nil, err
	}
	id, err := a.Identify(false)
	if err != nil {
		return nil, err
	}
	if err := a.spaceForRecording(); err != nil {
		return nil, err
	}
	return a.createRecording(id, req)
}

func (a *App) createRecording(id session.Identity, req RecordingRequest) (*Recording, error) {
	red, err := a.Redactor()
	if err != nil {
		return nil, err
	}
	cwd := req.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	argv := req.Argv
	if a.set.RedactEnabled {
		argv, cwd = a.redactArgv(argv), a.redactString(cwd)
	}
	argv = boundArgv(argv, maxStoredArgv)
	streams := req.Streams
	if streams == nil {
		streams = []string{}
	}
	mode := req.Mode
	if mode == "" {
		mode = defaultMode(streams)
	}
	var w *record.Writer
	var note, storePath string
	withPrivateUmask(func() {
		var sd *store.Session
		sd, note, err = a.openSessionInPlaces(id, a.set.StoreWorkdir)
		if err != nil {
			return
		}
		defer sd.Close()
		defer sd.Store.Close()
		storePath = sd.Store.Path
		w, err = record.Create(record.CreateOptions{
			Session: sd, Argv: argv, Cwd: cwd, Mode: mode, Redact: a.set.RedactEnabled,
			Streams: streams, RacVersion: a.env.Version, Now: a.env.Now,
			MaxBytes: a.set.MaxBytes, HeadBytes: a.set.HeadBytes,
			Parent: parentRef(a.env.Getenv("RAC_REF")),
			Source: req.Source, Slug: req.Slug,
		})
	})
	if err != nil {
		return nil, err
	}
	r := &Recording{a: a, w: w, store: storePath, reds: &streamRedactors{red: red, oneWorker: req.OneWorker}}
	r.agent.argv = argv
	if note != "" {
		r.warnings = append(r.warnings, a.redactString(note))
	}
	return r, nil
}

func defaultMode(streams []string) string {
	switch len(streams) {
	case 0:
		return RecordPassthrough
	case 1:
		return RecordCombined
	}
	return RecordPipes
}

// Ref is the recording's qualified reference, SESSION/NAME.
func (r *Recording) Ref() string { return r.w.Ref() }

// Session is the session the recording is in.
func (r *Recording) Session() string { return r.w.Session }

// Name is the recording's name in its session.
func (r *Recording) Name() string { return r.w.Name }

// Warnings are what the user should know about where the recording went
// (a fallback store), redacted; the front end prints them when it likes
// (rac run: after its start line).
func (r *Recording) Warnings() []string { return r.warnings }

// filter wraps a stream's store sink in the redactor when redaction is
// on (nil: bytes are stored as received): capture's Filter.
func (r *Recording) filter() func(string, io.Writer) io.WriteCloser {
	if !r.a.set.RedactEnabled {
		return nil
	}
	return r.reds.filter
}

// Stream is the writer of one of the recording's streams for a producer
// other than rac run's capture: it counts what it receives and stores it
// redacted. Writes after Finish or Abandon are dropped. The error names a
// stream the recording does not hold.
func (r *Recording) Stream(name string) (io.Writer, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if f, ok := r.feeds[name]; ok {
		return f, nil
	}
	sink := r.w.Sink(name)
	if sink == nil {
		return nil, fmt.Errorf("recording %s has no stream %q", r.Ref(), name)
	}
	now := r.a.env.Now
	store := io.Writer(sink)
	if w := r.watcher(name); w != nil {
		store = io.MultiWriter(sink, w)
	}
	f := &feed{dst: nopCloser{store}, arrived: func() { sink.Arrived(now()) }}
	if fl := r.filter(); fl != nil {
		f.dst = fl(name, store)
	}
	if r.feeds == nil {
		r.feeds = map[string]*feed{}
	}
	r.feeds[name] = f
	r.feedOrder = append(r.feedOrder, name)
	return f, nil
}

// Feed copies src into the stream until src ends (nil) or fails, or ctx
// is done (its error): the seam of a producer that reads (stdin, a
// socket, a transcript file).
func (r *Recording) Feed(ctx context.Context, stream string, src io.Reader) error {
	w, err := r.Stream(stream)
	if err != nil {
		return err
	}
	buf := make([]byte, 32<<10)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, rerr := src.Read(buf)
		if n > 0 {
			if _, err := w.Write(buf[:n]); err != nil {
				return err
			}
		}
		if errors.Is(rerr, io.EOF) {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}

// Stopping writes down, at once, that sig is stopping the command: a
// recorder killed before Finish leaves a recording that says so. Best
// effort, like all recording.
func (r *Recording) Stopping(sig string) { _ = r.w.MarkStopping(sig) }

// closeFeeds flushes the Stream writers (a redactor holds back the end of
// a line it has not seen whole) and sums what they received.
func (r *Recording) closeFeeds() (map[string]StreamCounts, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var received map[string]StreamCounts
	var errs []error
	// in the order the streams were first written: what a redactor held
	// back reaches the recording in the order it arrived
	for _, name := range r.feedOrder {
		f := r.feeds[name]
		errs = append(errs, f.close())
		if received == nil {
			received = map[string]StreamCounts{}
		}
		received[name] = f.counts()
	}
	return received, errors.Join(errs...)
}

// Finish tells the recording how the command ended and writes its footer
// (the outcome, the counts, the notes redacted, what redaction replaced).
// The error says the recording broke off: what it holds is short.
func (r *Recording) Finish(out Outcome) error {
	received, ferr := r.closeFeeds()
	if out.Received != nil {
		received = out.Received
	}
	footer := record.Footer{
		Status: out.Status, EndedAt: r.a.env.Now().UTC(),
		Received: recordCounts(received), Redactions: r.reds.counts(),
		OutcomeFrom: out.From,
	}
	r.before.addTo(&footer)
	switch out.Status {
	case StatusExited:
		code := out.ExitCode
		footer.ExitCode = &code
	case StatusSignaled, StatusTimedOut, StatusCancelled:
		footer.Signal = out.Signal
	}
	for _, n := range out.Notes {
		footer.Notes = append(footer.Notes, r.a.redactString(n))
	}
	footer.Agent = r.agentNote(out.Status != StatusExited || out.ExitCode != 0)
	var err error
	withPrivateUmask(func() { err = r.w.Finish(footer) })
	// after the footer: the recording is measured as it stays (its
	// footer's reserve cut to the footer), and stays
	r.a.limitSession(r.store, r.w.Session, r.w.Name)
	return errors.Join(ferr, r.w.Err(), err)
}

// Abandon ends the recording without an outcome: what it holds stays
// readable and it reads as incomplete, as after a recorder that died. For
// a producer that lost its source before it knew how the command ended.
func (r *Recording) Abandon() error {
	_, ferr := r.closeFeeds()
	return errors.Join(ferr, r.w.Abandon())
}

func recordCounts(m map[string]StreamCounts) map[string]record.Counts {
	if m == nil {
		return nil
	}
	out := make(map[string]record.Counts, len(m))
	for k, c := range m {
		out[k] = record.Counts{Bytes: c.Bytes, Lines: c.Lines}
	}
	return out
}

func streamCounts(m map[string]record.Counts) map[string]StreamCounts {
	if m == nil {
		return nil
	}
	out := make(map[string]StreamCounts, len(m))
	for k, c := range m {
		out[k] = StreamCounts{Bytes: c.Bytes, Lines: c.Lines}
	}
	return out
}

// signalName is the name of sig (SIGTERM), "" for none.
func signalName(sig unix.Signal) string {
	if sig == 0 {
		return ""
	}
	return unix.SignalName(sig)
}

// feed is one stream's writer for Stream: it counts what it receives.
type feed struct {
	mu  sync.Mutex
	dst io.WriteCloser
	// arrived stamps the bytes of each write with their arrival time
	// before a redactor may hold them back (the sink's Arrived)
	arrived func()
	n       StreamCounts
	last    byte
	ended   bool
}

func (f *feed) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ended || len(p) == 0 {
		return len(p), nil
	}
	f.n.Bytes += int64(len(p))
	f.n.Lines += int64(bytes.Count(p, []byte{'\n'}))
	f.last = p[len(p)-1]
	if f.arrived != nil {
		f.arrived()
	}
	return f.dst.Write(p)
}

func (f *feed) close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ended {
		return nil
	}
	f.ended = true
	return f.dst.Close()
}

func (f *feed) counts() StreamCounts {
	c := f.n
	if c.Bytes > 0 && f.last != '\n' {
		c.Lines++
	}
	return c
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// streamRedactors makes one redacting writer per stream and sums their
// counts for the footer.
type streamRedactors struct {
	red *redact.Redactor
	// oneWorker: pty mode's one stream comes at the tty layer's pace
	// (55-70 MB/s), which one goroutine redacts with time to spare (about
	// 650 MB/s); workers would only add handoffs, and take CPU from the
	// command and the kernel's tty worker
	oneWorker bool
	mu        sync.Mutex
	ws        []*redact.Writer
}

func (s *streamRedactors) filter(_ string, sink io.Writer) io.WriteCloser {
	var opt redact.WriterOptions
	if s.oneWorker {
		opt.Workers = 1
	}
	w := s.red.NewWriterOptions(sink, opt)
	s.mu.Lock()
	s.ws = append(s.ws, w)
	s.mu.Unlock()
	return w
}

func (s *streamRedactors) counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out map[string]int
	for _, w := range s.ws {
		for k, n := range w.Counts() {
			if out == nil {
				out = map[string]int{}
			}
			out[k] += n
		}
	}
	return out
}
