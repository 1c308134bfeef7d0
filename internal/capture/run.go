// Package capture runs the command and captures what it writes: starting the
// child, signals, the pumps that copy its output to rac's own streams and
// into the recording, and the bounded stage between them. It owns process
// supervision and must never decide policy (which store, what to redact,
// what to print): the caller passes those in.
package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/runspec"
	"golang.org/x/sys/unix"
)

// RunOptions describe one execution.
type RunOptions struct {
	Argv         []string
	Env          []string
	Dir          string
	Stdin        *os.File
	Stdout       *os.File
	Stderr       *os.File
	Timeout      time.Duration // 0: none
	KillAfter    time.Duration // after the timeout's SIGTERM, SIGKILL
	DrainTimeout time.Duration // after the child exits, how long to wait for its pipes

	// Rec is the recording to tee into; nil runs the command unrecorded.
	Rec *record.Writer
	// Filter wraps a stream's store sink (the redactor); nil stores bytes as received.
	Filter func(stream string, sink io.Writer) io.WriteCloser
	// Tee, when set, also gets a stream's bytes as stored (after Filter),
	// recording or not: the summary reads the redacted output.
	Tee func(stream string) io.Writer
	// NoForward keeps the child's output off rac's own stdout and stderr
	// (the summary replaces it).
	NoForward bool
	// Shape, when set, is what a pipe stream's output is forwarded
	// through on its way to rac's stdout or stderr (fwd): a writer that
	// may hold some of it back (the agent view). Its errors are fwd's.
	Shape func(stream string, fwd io.Writer) io.Writer
	// Combined gives the command one pipe for both fd 1 and fd 2, forwarded
	// to Stdout and stored as the one stream record.Combined: the order of
	// its writes across the two is kept exactly (see SameDescription).
	Combined bool
	// SignalSettle is how long a signal that reached rac's pid may take to
	// show that it also reached rac's process group (and so the command,
	// from the kernel) before rac passes it on itself; 0: 20ms.
	SignalSettle time.Duration
	// OnStopping, when set, is called once, as soon as the first SIGTERM,
	// SIGHUP or SIGINT reaches rac (before it is passed on), in a goroutine
	// of its own; Run returns only after it has returned.
	OnStopping func(sig syscall.Signal)
	// Signals, when set, are already being caught for this Run's mode
	// (CatchSignals; the caller stops them); a signal already in them is
	// taken as sent before the child existed. nil: Run catches its own.
	Signals *Signals
	// Warn prints one line for the user (rac's own stderr).
	Warn func(msg string)
	Now  func() time.Time
	Mode runspec.Mode // how the command is connected; "": runspec.ModePipe

	// Contain: rac is a child subreaper, and kills every process left
	// below it when the command has ended, and the whole tree on SIGTERM
	// (see containStart); rac-mcp's run tool.
	Contain bool

	// timer starts the --timeout and --kill-after timers (newTimer when
	// nil): a test fires them once the command's tree is in place, since
	// a timer that fires while the command still forks races the walk of
	// its tree (the limit signalTree states).
	timer timerFunc
}

// defaultSignalSettle is RunOptions.SignalSettle's default: a sender that
// kills a process tree pid by pid reaches them all within microseconds.
const defaultSignalSettle = 20 * time.Millisecond

// Outcome is how the child ended and what rac saw of it.
type Outcome struct {
	Status   string // exited, signaled, timed_out, failed_to_start
	ExitCode int    // exited: the code; failed_to_start: 126 or 127
	Signal   syscall.Signal
	StartErr error
	Received map[string]record.Counts
	Notes    []string
	// ForwardErr holds, per stream, the error that made a write to rac's
	// own stdout or stderr fail (not a closed reader: EPIPE is the
	// reader's choice, as without rac). rac then closed that stream's
	// pipe, so the command's next write to it failed with EPIPE.
	ForwardErr map[string]error

	// what was forwarded last: whether it ended a line, per stream and
	// over both (by the order of the forwarding writes)
	lastOpen  map[string]bool
	lastWrote string
}

// OpenLine reports whether the forwarded output left a line open on
// stderr, or on either stream when both go to one place: rac then starts
// its own lines on a new line.
func (o Outcome) OpenLine(shared bool) bool {
	if shared || o.lastWrote == record.Combined {
		return o.lastWrote != "" && o.lastOpen[o.lastWrote]
	}
	return o.lastOpen[record.Stderr]
}

// Errors for a command that could not be started.
var (
	ErrNotFound      = errors.New("command not found")
	ErrNotExecutable = errors.New("permission denied")
	ErrIsDirectory   = errors.New("is a directory")
	// ErrExecFormat is a file the kernel cannot run (no #! line, another
	// architecture): bash says "cannot execute binary file: Exec format
	// error" and exits 126, as rac does.
	ErrExecFormat = errors.New("exec format error")
)

const (
	bufSize  = 1 << 20  // the largest read: the pipe holds 1 MiB on Linux
	bufStart = 32 << 10 // the first buffers: most commands print little
	bufCount = 4
)

// Run starts the child, forwards its output as it arrives, tees it into
// o.Rec and returns how the child ended. It never fails because of the
// store: recording is best effort, forwarding is not.
func Run(o RunOptions) Outcome {
	o.setDefaults()
	containStart(o)
	if o.Contain {
		defer killLeft()
	}
	switch o.Mode {
	case runspec.ModePTY:
		return runPTY(o)
	case runspec.ModePassthrough:
		return runPassthrough(o)
	}
	return runPipe(o)
}

func (o *RunOptions) setDefaults() {
	if o.Now == nil {
		o.Now = monotonicClock()
	}
	if o.Warn == nil {
		o.Warn = func(string) {}
	}
	if o.SignalSettle <= 0 {
		o.SignalSettle = defaultSignalSettle
	}
}

func newOutcome() Outcome {
	return Outcome{Received: map[string]record.Counts{}, lastOpen: map[string]bool{}}
}

// pipeStream is one of the command's output pipes and where rac forwards
// what comes out of it.
type pipeStream struct {
	name string
	fwd  *os.File
	r, w *os.File
}

// runPipe runs the command in pipe mode: pipes for its stdout and stderr
// (or one for both), read by pumps that forward and store.
func runPipe(o RunOptions) Outcome {
	out := newOutcome()
	path, err := lookPath(o.Argv[0])
	if err != nil {
		return failedToStart(out, err, startErrCode(err))
	}
	// Catch signals before the child exists so none is missed; caught (not
	// ignored) signals are reset to the default in the child by exec.
	sigs, stop := caughtFor(o, false)
	defer stop()
	stdin, closeStdin, err := stdinOrNull(o.Stdin)
	if err != nil {
		return failedToStart(out, err, 126)
	}
	defer closeStdin()
	streams, err := openStreams(o)
	if err != nil {
		return failedToStart(out, err, 126)
	}
	// The witness is started beside the child, not before it: its fork
	// and exec would otherwise be on the path of every command's start
	// (about a millisecond here). A signal in the first moments, before
	// it has joined rac's group, is passed on as one sent to rac alone.
	wit := startWitnessAsync()
	defer wit.close()
	early := takeEarly(sigs)
	p := &process{}
	follower := newStopFollower(p)
	files := []uintptr{stdin.Fd(), streams[0].w.Fd(), streams[len(streams)-1].w.Fd()}
	err = startProcess(path, o.Argv, &syscall.ProcAttr{Dir: o.Dir, Env: o.Env, Files: files}, p)
	for _, s := range streams {
		s.w.Close()
	}
	if err != nil {
		for _, s := range streams {
			s.r.Close()
		}
		return startFailed(out, o.Argv[0], path, err)
	}
	stopping := &stopNotice{fn: o.OnStopping}
	defer stopping.wait()
	// a signal that came before the child existed reached no one else
	for _, sig := range early {
		stopping.saw(sig)
		p.signal(sig)
	}
	pumps, running := startPumps(o, streams, &out)
	stopsCaught := catchStops(sigs)
	defer func() { <-stopsCaught }() // before the catching ends
	rel := &relay{wit: wit, settle: o.SignalSettle, proc: p, stops: follower}
	sup := &supervisor{
		proc: p, relay: rel.handle, stopped: follower.stopped, onStopped: follower.follow,
		timeout: o.Timeout, killAfter: o.KillAfter, timer: o.timer, stopping: stopping, contain: o.Contain,
	}
	timedOut := sup.run(sigs)
	finishPumps(o, pumps, running, streams, &out)
	ws, werr := p.result()
	outcomeOf(&out, ws, werr, timedOut)
	return out
}

// stdinOrNull is the command's stdin: f, or /dev/null (as with os/exec)
// with the function that closes it.
func stdinOrNull(f *os.File) (*os.File, func(), error) {
	if f != nil {
		return f, func() {}, nil
	}
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		return nil, nil, err
	}
	return devNull, func() { devNull.Close() }, nil
}

// openStreams makes the command's output pipes: one for stdout and one
// for stderr, or one on both fds when they are one description.
func openStreams(o RunOptions) ([]pipeStream, error) {
	streams := []pipeStream{{name: record.Stdout, fwd: o.Stdout}, {name: record.Stderr, fwd: o.Stderr}}
	if o.Combined {
		// one pipe on both fds: the kernel keeps the order of the writes
		streams = []pipeStream{{name: record.Combined, fwd: o.Stdout}}
	}
	for i := range streams {
		r, w, err := os.Pipe()
		if err != nil {
			for _, s := range streams[:i] {
				s.r.Close()
				s.w.Close()
			}
			return nil, err
		}
		growPipe(r)
		streams[i].r, streams[i].w = r, w
	}
	return streams, nil
}

// takeEarly takes the signals caught before the command existed (SIGPIPE
// aside: no pump has written yet).
func takeEarly(sigs chan os.Signal) []syscall.Signal {
	var early []syscall.Signal
	for {
		select {
		case s := <-sigs:
			if s != syscall.SIGPIPE {
				early = append(early, s.(syscall.Signal))
			}
		default:
			return early
		}
	}
}

// startPumps starts a pump on each stream; the wait group counts those
// still running.
func startPumps(o RunOptions, streams []pipeStream, out *Outcome) ([]*pump, *sync.WaitGroup) {
	var running sync.WaitGroup
	var fwdMu sync.Mutex
	pumps := make([]*pump, len(streams))
	for i, s := range streams {
		p := &pump{name: s.name, src: s.r, fwd: s.fwd, warn: o.Warn, now: o.Now, target: -1, childRead: make(chan struct{})}
		p.forwarded = func(last byte) {
			fwdMu.Lock()
			out.lastOpen[p.name] = last != '\n'
			out.lastWrote = p.name
			fwdMu.Unlock()
		}
		if o.NoForward {
			p.fwd = nil
		}
		if p.fwd != nil {
			p.out = p.fwd
			if o.Shape != nil {
				p.out = o.Shape(s.name, p.fwd)
			}
		}
		p.store = storeStage(o, s.name)
		pumps[i] = p
		running.Add(1)
		go func() { defer running.Done(); p.run() }()
	}
	return pumps, &running
}

// storeStage is where a stream goes to be stored: the bounded stage, the
// caller's filter (the redactor), then the recording and the tee; nil
// when nothing stores it.
func storeStage(o RunOptions, name string) *stage {
	store, mark := storeSink(o, name)
	if store == nil {
		return nil
	}
	dst, closer := store, io.Closer(nil)
	if o.Filter != nil {
		fw := o.Filter(name, store)
		dst, closer = fw, fw
	}
	return newStage(dst, closer, mark, o.Filter == nil)
}

// storeSink is the recording's sink for stream name and the tee, together,
// with the function that marks a chunk's arrival; nil when neither is
// there.
func storeSink(o RunOptions, name string) (io.Writer, func(time.Time)) {
	var store io.Writer
	mark := func(time.Time) {}
	if o.Rec != nil {
		if sink := o.Rec.Sink(name); sink != nil {
			store, mark = sink, sink.Arrived
		}
	}
	if o.Tee != nil {
		if tee := o.Tee(name); tee != nil {
			if store == nil {
				store = tee
			} else {
				store = teeWriter{store, tee}
			}
		}
	}
	return store, mark
}

// teeWriter is io.MultiWriter of the store's sink and the tee (every run
// has one on stdout: the agent transcript watcher) that passes a counted
// write on to the sink with its count: behind io.MultiWriter the sink
// counted the newlines of every byte again (a 64 MiB cat spent about 1.7%
// of rac's CPU on it).
type teeWriter struct{ store, tee io.Writer }

func (t teeWriter) Write(p []byte) (int, error) { return t.WriteCounted(p, -1) }

// WriteCounted writes p, holding nl newlines (-1: not counted), to the
// sink and then to the tee, stopping at the first error as io.MultiWriter
// does.
func (t teeWriter) WriteCounted(p []byte, nl int64) (int, error) {
	n, err := writeCounted(t.store, p, nl)
	if err == nil && n != len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return n, err
	}
	n, err = t.tee.Write(p)
	if err == nil && n != len(p) {
		err = io.ErrShortWrite
	}
	return n, err
}

// finishPumps waits for the pumps once the child is gone. What it wrote is
// read whole, however long rac takes (a slow store, a loaded machine);
// only then may a process it left behind, still holding the pipes, be cut
// off. Then each pump's counts, notes and errors go into out.
func finishPumps(o RunOptions, pumps []*pump, running *sync.WaitGroup, streams []pipeStream, out *Outcome) {
	for _, p := range pumps {
		p.markChildGone()
	}
	for _, p := range pumps {
		<-p.childRead
	}
	drained := make(chan struct{})
	go func() { running.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(o.DrainTimeout):
		out.Notes = append(out.Notes, handOver(pumps, drained, o.DrainTimeout, o.NoForward)...)
	}
	for _, s := range streams {
		s.r.Close()
	}
	for _, p := range pumps {
		p.finish()
		out.Received[p.name] = p.counts()
		out.Notes = append(out.Notes, p.notes...)
		if p.fwdErr != nil {
			if out.ForwardErr == nil {
				out.ForwardErr = map[string]error{}
			}
			out.ForwardErr[p.name] = p.fwdErr
		}
	}
}

// errCause is the system's error under a write's *fs.PathError (its path
// is rac's /dev/stdout, which says nothing).
func errCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// failedToStart is out for a command that could not be started.
func failedToStart(out Outcome, err error, code int) Outcome {
	out.Status, out.StartErr, out.ExitCode = record.StatusFailedToStart, err, code
	return out
}

// startFailed is out for a command whose exec failed.
func startFailed(out Outcome, name, path string, err error) Outcome {
	err = fmt.Errorf("%s: %w", name, classifyStartErr(&fs.PathError{Op: "exec", Path: path, Err: err}))
	return failedToStart(out, err, startErrCode(err))
}

// outcomeOf fills in how the command ended.
func outcomeOf(out *Outcome, ws syscall.WaitStatus, waitErr error, timedOut bool) {
	switch {
	case waitErr != nil:
		out.Status = record.StatusExited
		out.ExitCode = 1
		out.Notes = append(out.Notes, "the command's exit status could not be read ("+waitErr.Error()+"); taken as 1")
	case timedOut:
		out.Status = record.StatusTimedOut
		out.ExitCode = 124
		if ws.Signaled() {
			out.Signal = ws.Signal()
		}
	case ws.Signaled():
		out.Status = record.StatusSignaled
		out.Signal = ws.Signal()
	default:
		out.Status = record.StatusExited
		out.ExitCode = ws.ExitStatus()
	}
}

// pump moves one stream from the child's pipe to rac's own stream and, in
// order, to the store. Forwarding happens first and never waits for the
// store by more than the bounded buffer between them.
type pump struct {
	name  string
	src   *os.File
	fwd   *os.File
	out   io.Writer // fwd, or what shapes it (RunOptions.Shape)
	store *stage
	warn  func(string)
	now   func() time.Time
	// forwarded is told the last byte of each forwarded write
	forwarded func(last byte)

	bytes  int64
	nl     int64
	last   byte
	notes  []string
	noFwd  bool
	closed bool
	fwdErr error // forwarding failed other than by a closed reader

	// What the child left in the pipe when it ended: mu makes a read and
	// its count one step, so markChildGone sees the pipe's content and the
	// count at one instant; childRead is closed once that much is read
	// (or the pump has stopped).
	mu        sync.Mutex
	taken     int64
	target    int64 // -1 until the child is gone
	childRead chan struct{}
	readOnce  sync.Once
	detached  bool // the pipe was handed over (see handOver): read no more
	eof       bool // the pipe's end was read: every writer is gone
}

// read reads from the pipe into buf, counting what it takes under mu.
func (p *pump) read(buf []byte) (int, error) {
	rc, err := p.src.SyscallConn()
	if err != nil {
		return p.src.Read(buf)
	}
	var n int
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.detached {
			return true // n == 0: the end of this pump's stream
		}
		n, rerr = unix.Read(int(fd), buf)
		if rerr == unix.EAGAIN {
			return false // wait until the pipe is readable
		}
		if n == 0 && rerr == nil {
			p.eof = true
		}
		if n > 0 {
			p.taken += int64(n)
			if p.target >= 0 && p.taken >= p.target {
				p.readOnce.Do(func() { close(p.childRead) })
			}
		}
		return true
	})
	switch {
	case err != nil:
		return 0, err
	case rerr == unix.EINTR:
		return 0, nil
	case rerr != nil:
		return 0, rerr
	case n <= 0:
		return 0, io.EOF
	}
	return n, nil
}

// markChildGone notes what is left in the pipe now that the child has
// ended: the pump's work that no drain timeout may cut short.
func (p *pump) markChildGone() {
	p.mu.Lock()
	defer p.mu.Unlock()
	pending := 0
	if rc, err := p.src.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) {
			if v, err := unix.IoctlGetInt(int(fd), fionread); err == nil {
				pending = v
			}
		})
	}
	p.target = p.taken + int64(pending)
	if pending == 0 {
		p.readOnce.Do(func() { close(p.childRead) })
	}
}

func (p *pump) run() {
	defer p.readOnce.Do(func() { close(p.childRead) })
	var own []byte
	size := bufStart
	for {
		var buf []byte
		if p.store != nil {
			buf = p.store.get(size)
		} else {
			if len(own) < size {
				own = make([]byte, size)
			}
			buf = own
		}
		n, err := p.read(buf)
		if n == len(buf) && size < bufSize {
			// a full read: the command writes fast, read more at once
			size *= 2
		}
		if n > 0 {
			b := buf[:n]
			nl := p.count(b, p.store == nil || !p.store.counts())
			if !p.noFwd && p.out != nil {
				_, werr := p.out.Write(b)
				if werr == nil {
					p.forwarded(b[len(b)-1])
				}
				if werr != nil {
					// As without rac, the child's next write gets EPIPE (or
					// SIGPIPE): rac closes its pipe, the only failure rac
					// can hand on.
					p.noFwd, p.closed = true, true
					if errors.Is(werr, syscall.EPIPE) {
						// the reader's choice (| head): nothing to warn about
						p.notes = append(p.notes, p.name+" closed by the reader (broken pipe); the command's later output was not read")
					} else {
						p.fwdErr = errCause(werr)
						p.warn(fmt.Sprintf("%s: %v", p.name, p.fwdErr))
						p.notes = append(p.notes, fmt.Sprintf("writing %s failed: %v; the command's later output was not read", p.name, p.fwdErr))
					}
				}
			}
			if p.store != nil {
				p.store.put(b, p.now(), nl)
			}
			if p.closed {
				p.src.Close()
				return
			}
		} else if p.store != nil {
			p.store.recycle(buf)
		}
		if err != nil {
			return
		}
	}
}

// count adds b to the pump's counts and returns its newlines; with lines
// false it leaves them to the stage (-1), which counts them on the way.
func (p *pump) count(b []byte, lines bool) int64 {
	p.bytes += int64(len(b))
	p.last = b[len(b)-1]
	if !lines {
		return -1
	}
	nl := int64(bytes.Count(b, []byte{'\n'}))
	p.nl += nl
	return nl
}

func (p *pump) counts() record.Counts {
	c := record.Counts{Bytes: p.bytes, Lines: p.nl}
	if p.bytes > 0 && p.last != '\n' {
		c.Lines++
	}
	return c
}

func (p *pump) finish() {
	if p.store != nil {
		if err := p.store.close(); err != nil {
			p.notes = append(p.notes, fmt.Sprintf("storing %s failed: %v", p.name, err))
		}
		p.nl += p.store.nl
	}
}

// stage is the bounded buffer between a pump and the store: a fixed set of
// buffers circulates, so a slow store slows the child instead of growing
// memory, and never drops output.
//
// A stage in front of a filter (redaction) runs it on a goroutine of its
// own, so forwarding does not wait for redaction. A stage straight in
// front of the store (redaction off) is synchronous: the pump stores each
// buffer itself after forwarding it. A page-cache write needs no second
// goroutine, and handing every buffer to one cost about a tenth of rac
// run's time on 512 MiB through cat (two cores: rac run --no-redact --
// cat, medians of seven interleaved runs, 386 ms with the handoff and
// 350 ms without).
//
// A filter that takes buffers over (handoffWriter: the redactor) is handed
// each buffer instead of lent it: it redacts the lines where they lie and
// writes the unchanged ones to the store from there, and gives the buffer
// back to free once it is written, so no byte is copied between the pump's
// read and the store's write. It counts the newlines as it cuts the buffer
// into regions, so the pump does not count them (nl < 0): each byte is
// counted once, where three counts and a copy were (a 64 MiB cat through
// the redactor spent 4-5% of rac's CPU counting and 2-3% copying).
type stage struct {
	free   chan []byte
	full   chan arrival
	done   chan struct{}
	dst    io.Writer
	closer io.Closer
	mark   func(time.Time)
	err    error
	made   int // buffers made so far (by the pump's goroutine only)

	hand handoffWriter // dst, when it takes buffers over
	nl   int64         // newlines of the buffers put uncounted (the stage's goroutine; read after done)

	sync bool   // store in put, on the pump's goroutine
	own  []byte // a synchronous stage's one buffer
}

// arrival is a buffer and the time rac read it from the child: the chunk
// index keeps arrival times, which order the two streams when read back.
// nl is the pump's count of its newlines.
type arrival struct {
	b  []byte
	t  time.Time
	nl int64
}

// countedWriter takes bytes whose newlines are counted already (the
// store's sink): with no filter between, the pump's count is the store's.
type countedWriter interface {
	WriteCounted(p []byte, nl int64) (int, error)
}

// writeCounted writes p, holding nl newlines (-1: not counted), with its
// count where w takes one.
func writeCounted(w io.Writer, p []byte, nl int64) (int, error) {
	if cw, ok := w.(countedWriter); ok && nl >= 0 {
		return cw.WriteCounted(p, nl)
	}
	return w.Write(p)
}

// handoffWriter takes p over until it calls done, and returns the
// newlines of p (redact.Writer.WriteOwned).
type handoffWriter interface {
	WriteOwned(p []byte, done func()) (nl int64, err error)
}

func newStage(dst io.Writer, closer io.Closer, mark func(time.Time), sync bool) *stage {
	s := &stage{dst: dst, closer: closer, mark: mark, sync: sync, done: make(chan struct{})}
	if sync {
		close(s.done)
		return s
	}
	s.free, s.full = make(chan []byte, bufCount), make(chan arrival, bufCount)
	s.hand, _ = dst.(handoffWriter)
	go s.loop()
	return s
}

// counts says whether the stage counts the newlines of what is put in it
// (put with nl -1), which the pump then need not count.
func (s *stage) counts() bool { return s.hand != nil }

func (s *stage) loop() {
	defer close(s.done)
	for a := range s.full {
		if a.nl < 0 {
			s.handOver(a)
			continue
		}
		s.store(a)
		s.free <- a.b[:cap(a.b)]
	}
}

// handOver hands a's buffer to the filter, which gives it back to free
// (at most bufCount buffers circulate, so that send never blocks).
func (s *stage) handOver(a arrival) {
	b := a.b
	back := func() { s.free <- b[:cap(b)] }
	if s.err != nil {
		s.nl += int64(bytes.Count(b, []byte{'\n'}))
		back()
		return
	}
	s.mark(a.t)
	nl, err := s.hand.WriteOwned(b, back)
	s.nl += nl
	if err != nil {
		s.err = err
	}
}

func (s *stage) store(a arrival) {
	if s.err != nil {
		return
	}
	s.mark(a.t)
	if _, err := writeCounted(s.dst, a.b, a.nl); err != nil {
		s.err = err
	}
}

// get returns a free buffer of at least size bytes. Buffers are made on
// demand, at most bufCount of them, so a quiet command allocates little.
func (s *stage) get(size int) []byte {
	if s.sync {
		if len(s.own) < size {
			s.own = make([]byte, size)
		}
		return s.own
	}
	var b []byte
	if s.made < bufCount {
		select {
		case b = <-s.free:
		default:
			s.made++
			return make([]byte, size)
		}
	} else {
		b = <-s.free
	}
	if len(b) < size {
		b = make([]byte, size)
	}
	return b
}

func (s *stage) put(b []byte, t time.Time, nl int64) {
	if s.sync {
		s.store(arrival{b, t, nl})
		return
	}
	s.full <- arrival{b, t, nl}
}

func (s *stage) recycle(b []byte) {
	if !s.sync {
		s.free <- b[:cap(b)]
	}
}

func (s *stage) close() error {
	if !s.sync {
		close(s.full)
	}
	<-s.done
	if s.closer != nil {
		if err := s.closer.Close(); err != nil && s.err == nil {
			s.err = err
		}
	}
	return s.err
}

// lookPath finds the program as a shell would, with the shell's two errors.
func lookPath(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err == nil {
		return p, nil
	}
	if errors.Is(err, exec.ErrDot) {
		return "", fmt.Errorf("%s: %w", name, ErrNotFound)
	}
	if fi, serr := os.Stat(name); serr == nil && fi.IsDir() && strings.Contains(name, "/") {
		return "", fmt.Errorf("%s: %w", name, ErrIsDirectory)
	}
	return "", fmt.Errorf("%s: %w", name, classifyStartErr(err))
}

func classifyStartErr(err error) error {
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return ErrNotFound
	case errors.Is(err, syscall.ENOEXEC):
		return ErrExecFormat
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EISDIR):
		return ErrNotExecutable
	}
	return err
}

func startErrCode(err error) int {
	if errors.Is(err, ErrNotFound) {
		return 127
	}
	return 126
}

// monotonicClock never goes backwards: arrival times order chunks.
func monotonicClock() func() time.Time {
	t0 := time.Now()
	return func() time.Time { return t0.Add(time.Since(t0)) }
}
