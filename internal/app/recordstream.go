package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/rac-cli/rac/internal/outcome"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/store"
)

// Where a stated outcome came from (the footer's outcome_from), for rac
// record; a program through pkg/racrecord states its own.
const (
	FromNotStated      = "not stated"
	FromExitCode       = "--exit-code"
	FromTimedOut       = "--timed-out"
	FromTransportError = "--transport-error"
	FromStatusFrom     = "--status-from"
	// FromReadError: rac record's own reading of its stdin failed
	FromReadError = "rac record: reading stdin failed"
	// FromAPI: a program that captured the command itself (racrecord)
	FromAPI = "the program that captured it (racrecord)"
)

// What fed a recording rac did not see a command end in
// (RecordingRequest.Source).
const (
	SourceStdin = record.SourceStdin
	SourceAPI   = record.SourceAPI
)

// StatedOutcome is what a producer says about how the command behind a
// stream ended; the zero value says nothing ("stream ended").
type StatedOutcome struct {
	// ExitCode is the command's exit code, when the producer knows it.
	ExitCode *int
	// TimedOut: the producer gave up waiting for the command.
	TimedOut bool
	// TransportError is why the producer lost the command's stream (a
	// connection dropped): no exit status.
	TransportError string
	// StatusFrom is a file or a file descriptor number that holds the
	// exit code, read when the stream ends (rac record --status-from).
	StatusFrom string
}

// count is how many ways the outcome is stated (at most one is allowed).
func (s StatedOutcome) count() int {
	n := 0
	for _, set := range []bool{s.ExitCode != nil, s.TimedOut, s.TransportError != "", s.StatusFrom != ""} {
		if set {
			n++
		}
	}
	return n
}

// RecordRequest is rac record: a stream read from In into a recording of
// the current session, or appended to one (Append).
type RecordRequest struct {
	In io.Reader
	// Tee gets the stream as it is read; nil: --no-tee.
	Tee io.Writer
	// Name is the recording's name (a plain word); Cmd the described
	// command, stored like argv. Neither: the recording is named "stdin".
	Name, Cmd string
	// Append is the reference of a recording of the current session to
	// continue ("": a new recording).
	Append string
	Stated StatedOutcome
	// OnStart gets the reference before the first byte is read.
	OnStart func(ref string)
}

// RecordResult is how rac record went.
type RecordResult struct {
	// Ref is the recording's reference, "" when it was not recorded.
	Ref     string
	Outcome Outcome
	// Seam is where an append began (nil for a new recording).
	Seam *record.Seam
	// TeeErr is why the tee stopped early (its reader went away), nil
	// when it did not: the recording went on.
	TeeErr error
}

// recordName reports whether --name is a recording name's slug: up to
// 19 lower-case letters, digits and dashes, not starting with a dash.
func recordName(s string) bool {
	if s == "" || len(s) > 19 || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// checkRecordRequest refuses what cannot be recorded as asked, before
// anything is created.
func checkRecordRequest(req RecordRequest) error {
	if req.Stated.count() > 1 {
		return Usagef("state the outcome one way: --exit-code, --timed-out, --transport-error and --status-from exclude each other")
	}
	if c := req.Stated.ExitCode; c != nil && (*c < 0 || *c > 255) {
		return Usagef("invalid --exit-code %d: use an exit status from 0 to 255", *c)
	}
	if req.Append != "" && (req.Name != "" || req.Cmd != "") {
		return Usagef("--append continues a recording that has its name: leave out --name and --cmd")
	}
	if req.Name != "" && !recordName(req.Name) {
		return Usagef("invalid --name %q: use up to 19 lower-case letters, digits and dashes (e.g. --name ci-log)", req.Name)
	}
	if req.Stated.TransportError != "" && strings.TrimSpace(req.Stated.TransportError) == "" {
		return Usagef("--transport-error needs a reason (e.g. --transport-error 'connection reset')")
	}
	if f := req.Stated.StatusFrom; f != "" {
		if _, fd, err := statusSource(f); err != nil {
			return err
		} else if fd >= 0 && fd <= 2 {
			return Usagef("invalid --status-from %q: file descriptors 0, 1 and 2 are rac record's own streams", f)
		}
	}
	return nil
}

// Record reads req.In into a recording until it ends, teeing it, and
// finishes the recording with the stated outcome (none stated: "stream
// ended", never a success). A signal (SIGTERM, SIGINT, SIGHUP) ends rac
// record with the recording left incomplete; the error is then a
// SignalExit.
func (a *App) Record(ctx context.Context, req RecordRequest) (RecordResult, error) {
	if err := checkRecordRequest(req); err != nil {
		return RecordResult{}, err
	}
	r, seam, err := a.recordingFor(ctx, req)
	if err != nil {
		if req.Append != "" || a.set.Session != "" && IsUsage(err) || ctx.Err() != nil {
			// a refused append, a bad --session: the user's to fix
			return RecordResult{}, err
		}
		return a.copyUnrecorded(req, err)
	}
	res := RecordResult{Ref: r.Ref(), Seam: seam}
	// the reference is out before the first byte is read
	if req.OnStart != nil {
		req.OnStart(res.Ref)
	}
	for _, w := range r.Warnings() {
		a.Warn(w)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(sigs)
	// a tee whose reader went away fails its writes (EPIPE) instead of
	// killing rac: the recording goes on
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	defer signal.Reset(syscall.SIGPIPE)

	w, err := r.Stream(StreamCombined)
	if err != nil {
		return res, errors.Join(err, r.Abandon())
	}
	type copied struct{ readErr, teeErr error }
	done := make(chan copied, 1)
	go func() {
		rerr, terr := pump(req.In, w, req.Tee)
		done <- copied{rerr, terr}
	}()
	var c copied
	select {
	case c = <-done:
	case sig := <-sigs:
		// no stopping mark: rac run's words for it are about a command
		// rac stops, and rac record stops only itself
		s := sig.(syscall.Signal)
		return res, errors.Join(SignalExit{Sig: s}, r.Abandon())
	case <-ctx.Done():
		return res, errors.Join(ctx.Err(), r.Abandon())
	}
	res.TeeErr = c.teeErr
	out, serr := a.statedOutcome(req.Stated, c.readErr)
	if c.teeErr != nil {
		out.Notes = append(out.Notes, "the tee stopped early (its reader went away): "+FirstLine(c.teeErr))
	}
	res.Outcome = out
	if err := r.Finish(out); err != nil {
		return res, err
	}
	return res, serr
}

// copyUnrecorded is rac record without a recording (the store cannot be
// written, a bad RAC_SESSION): one warning, and the stream still goes
// through to the tee, as rac run still runs a command it cannot record.
func (a *App) copyUnrecorded(req RecordRequest, why error) (RecordResult, error) {
	a.warnf("not recording this stream: %v", FirstLine(why))
	readErr, teeErr := pump(req.In, io.Discard, req.Tee)
	out, err := a.statedOutcome(req.Stated, readErr)
	return RecordResult{Outcome: out, TeeErr: teeErr}, err
}

// recordingFor is the recording rac record feeds: a new one, or the one
// it appends to with its seam.
func (a *App) recordingFor(ctx context.Context, req RecordRequest) (*Recording, *record.Seam, error) {
	if req.Append != "" {
		r, seam, err := a.AppendRecording(ctx, req.Append)
		return r, &seam, err
	}
	r, err := a.CreateRecording(ctx, RecordingRequest{
		Argv: strings.Fields(req.Cmd), Streams: []string{StreamCombined}, Mode: RecordCombined,
		Source: SourceStdin, Slug: recordSlug(req.Name, req.Cmd),
	})
	return r, nil, err
}

// pump copies in to the recording and then to tee, until in ends (a nil
// read error) or fails. A tee that fails is dropped: the recording goes
// on to the end of the stream.
func pump(in io.Reader, rec, tee io.Writer) (readErr, teeErr error) {
	buf := make([]byte, 64<<10)
	for {
		n, err := in.Read(buf)
		if n > 0 {
			// the recording first: a recorder killed in a slow tee has it
			_, _ = rec.Write(buf[:n])
			if tee != nil {
				if _, werr := tee.Write(buf[:n]); werr != nil {
					tee, teeErr = nil, werr
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return nil, teeErr
		}
		if err != nil {
			return err, teeErr
		}
	}
}

// statedOutcome is the outcome the producer stated, read now that the
// stream ended; an error says --status-from held no status (the outcome
// then stays unstated).
func (a *App) statedOutcome(s StatedOutcome, readErr error) (Outcome, error) {
	if readErr != nil {
		return Outcome{Status: StatusTransportError, From: FromReadError,
			Notes: []string{"transport error: reading stdin: " + FirstLine(readErr)}}, nil
	}
	switch {
	case s.ExitCode != nil:
		return Outcome{Status: StatusExited, ExitCode: *s.ExitCode, From: FromExitCode}, nil
	case s.TimedOut:
		return Outcome{Status: StatusTimedOut, From: FromTimedOut}, nil
	case s.TransportError != "":
		return Outcome{Status: StatusTransportError, From: FromTransportError,
			Notes: []string{"transport error: " + s.TransportError}}, nil
	case s.StatusFrom != "":
		from := FromStatusFrom + " " + s.StatusFrom
		code, err := readStatus(s.StatusFrom)
		if err != nil {
			err = fmt.Errorf("read the exit status from --status-from %s: %w (the outcome stays unstated: stream ended)", s.StatusFrom, err)
			return Outcome{Status: StatusStreamEnded, From: FromNotStated,
				Notes: []string{a.redactString(FirstLine(err))}}, err
		}
		return Outcome{Status: StatusExited, ExitCode: code, From: from}, nil
	}
	return Outcome{Status: StatusStreamEnded, From: FromNotStated}, nil
}

// statusSource says whether --status-from names a file descriptor (its
// number, else -1) or a file.
func statusSource(s string) (path string, fd int, err error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 {
			return "", -1, Usagef("invalid --status-from %q: use a file or a file descriptor number", s)
		}
		return "", n, nil
	}
	return s, -1, nil
}

// readStatus reads an exit code (a whole number, 0 to 255, blanks around
// it) from a file or an inherited file descriptor.
func readStatus(s string) (int, error) {
	path, fd, err := statusSource(s)
	if err != nil {
		return 0, err
	}
	var f *os.File
	if fd >= 0 {
		f = os.NewFile(uintptr(fd), "fd "+s)
		if f == nil {
			return 0, fmt.Errorf("file descriptor %d is not open", fd)
		}
	} else if f, err = os.Open(path); err != nil {
		return 0, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 64))
	if err != nil {
		return 0, err
	}
	text := strings.TrimSpace(string(b))
	code, err := strconv.Atoi(text)
	if err != nil || code < 0 || code > 255 {
		return 0, fmt.Errorf("it holds %q, not an exit code from 0 to 255", ValidUTF8(text))
	}
	return code, nil
}

// recordSlug names a recording of rac record: --name, else what
// record.Name makes of the described command ("" here), else "stdin".
func recordSlug(name, cmd string) string {
	if name == "" && len(strings.Fields(cmd)) == 0 {
		return "stdin"
	}
	return name
}

// AppendRecording reopens ref, a recording of the current session whose
// outcome was never stated, for more output behind a seam. Only the
// session that made a recording may append to it; a recording whose
// outcome was stated is final. Refusals are usage errors that say why.
func (a *App) AppendRecording(ctx context.Context, ref string) (*Recording, record.Seam, error) {
	if err := ctx.Err(); err != nil {
		return nil, record.Seam{}, err
	}
	red, err := a.Redactor()
	if err != nil {
		return nil, record.Seam{}, err
	}
	id, err := a.Identify(false)
	if err != nil {
		return nil, record.Seam{}, err
	}
	stores, err := a.openStores(a.set.StoreWorkdir)
	if err != nil {
		return nil, record.Seam{}, err
	}
	defer stores.Close()
	t, err := resolve.Find(stores, id.Name, ref)
	if err != nil {
		return nil, record.Seam{}, a.redactExpired(err)
	}
	defer t.Dir.Close()
	if t.Dir.Name != id.Name {
		return nil, record.Seam{}, Usagef("cannot append to %s: it belongs to session %s, and only that session may append to it (this is session %s)", t.Ref(), t.Dir.Name, id.Name)
	}
	if err := appendable(t); err != nil {
		return nil, record.Seam{}, err
	}
	var re *record.Reopened
	withPrivateUmask(func() {
		re, err = record.Reopen(record.ReopenOptions{Session: t.Dir, Name: t.Name, Now: a.env.Now})
	})
	switch {
	case errors.Is(err, record.ErrFinal):
		return nil, record.Seam{}, Usagef("cannot append to %s: %s (%s); record into a new recording instead", t.Ref(), record.ErrFinal, a.finalOutcome(t.Dir, t.Name))
	case errors.Is(err, record.ErrStillOpen), errors.Is(err, record.ErrNotAppend):
		return nil, record.Seam{}, Usagef("cannot append to %s: %s", t.Ref(), FirstLine(err))
	case err != nil:
		return nil, record.Seam{}, err
	}
	r := &Recording{a: a, w: re.W, reds: &streamRedactors{red: red}}
	r.before = &partsBefore{received: streamCounts(re.Seam.Stored)}
	if f := re.Before; f != nil {
		r.before = &partsBefore{received: streamCounts(f.Received), redactions: f.Redactions, notes: f.Notes}
		r.agent.before = f.Agent
	}
	return r, re.Seam, nil
}

// appendable refuses, before anything changes, a recording that is not
// a recorded stream: a command rac ran belongs to its own run.
func appendable(t *resolve.Target) error {
	rec, err := record.Open(t.Dir, t.Name)
	if err != nil {
		return err
	}
	defer rec.Close()
	if rec.Meta.Source == "" || !slices.Equal(rec.Streams(), []string{StreamCombined}) {
		return Usagef("cannot append to %s: it records a command rac ran, not a stream (only what rac record or a racrecord program made takes appends)", t.Ref())
	}
	return nil
}

// finalOutcome words the stated outcome of a recording that refused an
// append.
func (a *App) finalOutcome(sd *store.Session, name string) string {
	rec, err := record.Open(sd, name)
	if err != nil || rec.Footer == nil {
		return "status unknown"
	}
	defer rec.Close()
	f := rec.Footer
	return outcome.Of(f.Status, f.ExitCode, f.Signal).Long()
}

// partsBefore is what the parts of an appended recording before this one
// received, redacted and noted: the last footer counts them all.
type partsBefore struct {
	received   map[string]StreamCounts
	redactions map[string]int
	notes      []string
}

func (p *partsBefore) addTo(f *record.Footer) {
	if p == nil {
		return
	}
	for k, c := range p.received {
		if f.Received == nil {
			f.Received = map[string]record.Counts{}
		}
		n := f.Received[k]
		f.Received[k] = record.Counts{Bytes: n.Bytes + c.Bytes, Lines: n.Lines + c.Lines}
	}
	for k, n := range p.redactions {
		if f.Redactions == nil {
			f.Redactions = map[string]int{}
		}
		f.Redactions[k] += n
	}
	f.Notes = append(append([]string{}, p.notes...), f.Notes...)
}

// RecordExit is rac record's exit status as an error (nil for 0): the
// stated exit code, 124 for a stated timeout, 1 for a transport error,
// and 0 for a stream whose outcome was not stated (rac record did its
// part; the recording does not read as a success).
func RecordExit(res RecordResult) error {
	switch res.Outcome.Status {
	case StatusExited:
		if res.Outcome.ExitCode == 0 {
			return nil
		}
		return ExitCode{Code: res.Outcome.ExitCode}
	case StatusTimedOut:
		return ExitCode{Code: ExitTimeout}
	case StatusTransportError, StatusCancelled:
		return ExitCode{Code: 1}
	}
	return nil
}

// provenance says, for a recording rac did not see a command end in (rac
// record, pkg/racrecord), what fed it, where its outcome came from and
// where it was appended to: explain's note, read's note, list --json.
type provenance struct {
	Source      string
	OutcomeFrom string
	Seams       []record.Seam
}

func provenanceOf(rec *record.Recording) provenance {
	p := provenance{Source: rec.Meta.Source}
	if f := rec.Footer; f != nil {
		p.OutcomeFrom = f.OutcomeFrom
	}
	p.Seams, _ = rec.Seams() // a damaged seams file only costs the note
	return p
}

// notes words the provenance, one phrase each; none for rac run's own.
func (p provenance) notes(red func(string) string) []string {
	var out []string
	switch p.Source {
	case record.SourceStdin:
		out = append(out, "recorded from a stream on stdin (rac record)")
	case record.SourceAPI:
		out = append(out, "recorded by a program that captured the command itself (racrecord)")
	case "":
	default:
		out = append(out, "recorded from "+ValidUTF8(red(p.Source)))
	}
	switch p.OutcomeFrom {
	case "":
	case FromNotStated:
		out = append(out, "no outcome was stated: it does not read as a success")
	default:
		out = append(out, "outcome stated by "+ValidUTF8(red(p.OutcomeFrom)))
	}
	if n := len(p.Seams); n > 0 {
		s := p.Seams[n-1]
		var bytes int64
		for _, c := range s.Stored {
			bytes += c.Bytes
		}
		what := fmt.Sprintf("appended to %d times", n)
		if n == 1 {
			what = "appended to once"
		}
		out = append(out, fmt.Sprintf("%s: the last part began at %s after %d bytes (the part before: %s)",
			what, s.At.UTC().Format("15:04:05"), bytes, outcome.Of(s.Before, nil, s.Stopping).Short()))
	}
	return out
}
