package app

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rac-cli/rac/internal/outcome"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/termtext"
)

// ReadRequest is one rac out read.
type ReadRequest struct {
	Ref    string
	Stream string // "" for both, in arrival order
	// Head and Tail count lines; HeadSet/TailSet tell a given 0 (print
	// nothing, as head -n 0) from no flag.
	Head, Tail       int64
	HeadSet, TailSet bool
	Lines            string // A:B, A:, :B or A
	Raw              bool
	JSON             bool
	Follow           bool
	// Colour keeps the recording's own colours (SGR sequences) in the
	// cleaned text: the front end's choice for a coloured terminal.
	Colour bool
	// NoPager is --no-pager (see Pager).
	NoPager bool
}

// ReadLine is the JSON shape of one line of rac out read --json.
type ReadLine struct {
	Stream string `json:"stream"`
	Line   int64  `json:"line"`
	Text   string `json:"text"`
	Marker bool   `json:"marker,omitempty"`
	// Cut: the line has no newline and the recording is incomplete: it may
	// be the start of a longer line the recorder's end cut short.
	Cut bool `json:"cut,omitempty"`
}

// Ended says how a followed recording ended, for the front end to say.
type Ended struct {
	Ref      string
	Status   string
	ExitCode *int
	Signal   string
}

// Read writes the recording's output, as the request asks, to w. Notes
// for the reader (running, incomplete, cut, never started) go to Note.
// With Follow, the returned Ended says how the recording ended.
func (a *App) Read(ctx context.Context, req ReadRequest, w io.Writer) (*Ended, error) {
	var ended *Ended
	err := a.read(ctx, req, w, &ended)
	return ended, err
}

func (a *App) read(ctx context.Context, req ReadRequest, w io.Writer, ended **Ended) error {
	lo, err := lineOptions(req, flagWords)
	if err != nil {
		return err
	}
	rec, err := a.Open(req.Ref)
	if err != nil {
		return err
	}
	defer rec.Close()
	if (req.HeadSet && req.Head == 0) || (req.TailSet && req.Tail == 0) {
		return nil // as head -n 0: nothing, but the reference was checked
	}
	if err := hasStream(rec, req.Stream, "--stream"); err != nil {
		return err
	}
	if req.Lines != "" && lo.Stream == "" {
		if lo.Stream, err = onlyStream(rec, flagWords); err != nil {
			return err
		}
	}
	if !req.Follow {
		a.noteStatus(rec, flagWords)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	defer func() { _ = bw.Flush() }() // on early errors; the normal path checks it
	if req.Raw && req.Head == 0 && req.Tail == 0 && req.Lines == "" && !req.Follow {
		return a.copyRaw(rec, req.Stream, bw)
	}
	print := untilCanceled(ctx, linePrinter(req, bw))
	if req.Follow {
		return a.follow(ctx, rec, req.Stream, bw, print, ended)
	}
	printed := 0
	if err := rec.Lines(lo, func(l record.Line) error { printed++; return print(l) }); err != nil {
		return err
	}
	if printed == 0 && lo.From > 0 {
		// say why nothing came, instead of a silent empty answer
		a.Note(fmt.Sprintf("%s: %s has no lines %s (it has %d lines)", rec.Ref(), lo.Stream, req.Lines, rec.StreamLines(lo.Stream)))
	}
	return bw.Flush()
}

// words name a request's parameters in messages, in the words of the
// front end that asked: the command line's flags (--lines 120:160) or the
// MCP tools' parameters (lines=120:160).
type words struct{ tool bool }

var (
	flagWords = words{}
	toolWords = words{tool: true}
)

// name is parameter p as the front end spells it: --p or p.
func (w words) name(p string) string {
	if w.tool {
		return p
	}
	return "--" + p
}

// set is parameter p given the value v: --p v or p=v.
func (w words) set(p, v string) string {
	if w.tool {
		return p + "=" + v
	}
	return "--" + p + " " + v
}

// lineOptions checks a read request's stream and range and turns them
// into the options record.Lines takes; its errors are in w's words.
func lineOptions(req ReadRequest, w words) (record.LineOptions, error) {
	if err := checkStream(req.Stream, w); err != nil {
		return record.LineOptions{}, err
	}
	if req.Head < 0 || req.Tail < 0 {
		return record.LineOptions{}, Usagef("%s and %s take a number of lines from 0", w.name("head"), w.name("tail"))
	}
	lo := record.LineOptions{Stream: req.Stream, Head: req.Head, Tail: req.Tail}
	if req.Lines != "" {
		var err error
		if lo.From, lo.To, err = parseLines(req.Lines, w); err != nil {
			return record.LineOptions{}, err
		}
	}
	return lo, nil
}

// hasStream checks that rec has the stream asked for ("" is every
// stream); without is how the front end asks for no stream.
func hasStream(rec *record.Recording, stream, without string) error {
	if stream == "" || slices.Contains(rec.Streams(), stream) {
		return nil
	}
	if slices.Contains(rec.Streams(), record.Combined) {
		return Usagef("%s holds one combined stream (stdout and stderr as they reached the terminal or one file): read it without %s", rec.Ref(), without)
	}
	return Usagef("%s has no %s stream", rec.Ref(), stream)
}

// copyRaw writes the recorded bytes as they came (--raw with no range)
// and notes where a stream was cut.
func (a *App) copyRaw(rec *record.Recording, stream string, bw *bufio.Writer) error {
	cuts, err := rec.CopyRaw(bw, stream)
	for stream, c := range cuts {
		a.Note(fmt.Sprintf("%s: %s (at byte %d of what --raw prints)", rec.Ref(), record.CutMarker(stream, c), c.HeadEnd))
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// untilCanceled is print that stops at the first line after ctx is done.
func untilCanceled(ctx context.Context, print func(record.Line) error) func(record.Line) error {
	return func(l record.Line) error {
		if err := canceled(ctx); err != nil {
			return err
		}
		return print(l)
	}
}

// linePrinter writes one line as the request asks: cleaned as a terminal
// shows it, raw, or as JSON.
func linePrinter(req ReadRequest, w *bufio.Writer) func(record.Line) error {
	enc := json.NewEncoder(termtext.JSONWriter(w))
	var colour colours
	return func(l record.Line) error {
		text := l.Text
		switch {
		case l.Marker || req.Raw:
		case req.Colour && !req.JSON:
			text = colour.line(cleanKeepingSGR(text))
		default:
			// as a terminal shows it, and never a raw C1 byte (an 8-bit
			// terminal's CSI)
			text = termtext.Defuse(termtext.CleanLine(text))
		}
		if req.JSON {
			return enc.Encode(ReadLine{Stream: l.Stream, Line: l.N, Text: ValidUTF8(string(text)), Marker: l.Marker, Cut: l.Cut})
		}
		if _, err := w.Write(text); err != nil {
			return err // the reader is gone (a pager quit): stop reading
		}
		if l.NL || !req.Raw || l.Marker {
			w.WriteByte('\n')
		}
		if l.Cut && !req.Raw {
			fmt.Fprintf(w, "%s\n", CutLineMarker(l.N, l.Stream))
		}
		if req.Follow {
			return w.Flush()
		}
		return nil
	}
}

func (a *App) follow(ctx context.Context, rec *record.Recording, stream string, w *bufio.Writer, print func(record.Line) error, ended **Ended) error {
	bounded, done := rec.WaitFunc(500 * time.Millisecond)
	defer done()
	// a cancelled ctx ends the wait for more within its bound
	wait := func() error {
		if err := canceled(ctx); err != nil {
			return err
		}
		if a.followWait != nil {
			a.followWait()
		}
		return bounded()
	}
	if err := rec.Follow(record.FollowOptions{Stream: stream, Wait: wait}, print); err != nil {
		if gone := a.goneWhileFollowed(rec); gone != nil {
			_ = w.Flush()
			return gone
		}
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if rec.Status == record.StatusIncomplete {
		if gone := a.goneWhileFollowed(rec); gone != nil {
			return gone
		}
	}
	e := &Ended{Ref: rec.Ref(), Status: rec.Status}
	if f := rec.Footer; f != nil && rec.Status != record.StatusRunning && rec.Status != record.StatusIncomplete {
		e.Status, e.ExitCode, e.Signal = f.Status, f.ExitCode, f.Signal
	}
	*ended = e
	return nil
}

// ParseLines reads A:B, A: (to the end), :B (from the start) or A.
func ParseLines(s string) (from, to int64, err error) { return parseLines(s, flagWords) }

func parseLines(s string, w words) (from, to int64, err error) {
	a, b, colon := strings.Cut(s, ":")
	bad := Usagef("invalid %s %q: use A:B with line numbers from 1 (e.g. %s)", w.name("lines"), s, w.set("lines", "120:160"))
	if a != "" {
		if from, err = strconv.ParseInt(a, 10, 64); err != nil || from < 1 {
			return 0, 0, bad
		}
	} else {
		from = 1
	}
	switch {
	case !colon:
		to = from
	case b != "":
		if to, err = strconv.ParseInt(b, 10, 64); err != nil || to < from {
			return 0, 0, bad
		}
	}
	return from, to, nil
}

// onlyStream picks the stream for --lines when none was named: the only
// stream with output.
func onlyStream(rec *record.Recording, w words) (string, error) {
	var with []string
	for _, s := range rec.Streams() {
		if rec.StreamSize(s) > 0 {
			with = append(with, s)
		}
	}
	switch len(with) {
	case 0:
		return record.Stdout, nil
	case 1:
		return with[0], nil
	}
	return "", Usagef("%s has output on both streams: add %s or %s to %s", rec.Ref(), w.set("stream", "stdout"), w.set("stream", "stderr"), w.name("lines"))
}

// noteStatus tells what the reader should know about a recording that is
// not simply finished.
func (a *App) noteStatus(rec *record.Recording, w words) {
	switch rec.Status {
	case record.StatusRunning:
		more := "add --follow to wait for the rest"
		if w.tool {
			more = "read it again later for the rest"
		}
		a.Note(rec.Ref() + " is still running; this is its output so far (" + more + ")")
	case record.StatusIncomplete:
		if rec.Stopping != "" {
			a.Note(rec.Ref() + " is incomplete: rac was killed while stopping the command after " + rec.Stopping + "; this is the output it kept")
			break
		}
		a.Note(rec.Ref() + " is incomplete: the recorder stopped before the command ended; this is the output it kept")
	default:
		f := rec.Footer
		if p := provenanceOf(rec); f != nil && p.OutcomeFrom != "" {
			// where the outcome came from: rac saw no command end
			a.Note(rec.Ref() + " " + outcome.Of(f.Status, f.ExitCode, f.Signal).Long() + ": " +
				strings.Join(p.notes(a.redactString), "; "))
		}
		switch {
		case rec.MetadataOnly():
			a.Note(rec.Ref() + " is metadata only: the command ran on the terminal itself (passthrough mode), so rac kept no output")
		case f == nil:
		case f.BrokenOff:
			a.Note(rec.Ref() + " was broken off (the store failed while recording); this is the output it kept")
		case f.Status == record.StatusFailedToStart:
			// it printed nothing: say why instead of an empty answer
			why := "the command could not be started"
			if len(f.Notes) > 0 {
				why = a.redactString(f.Notes[0])
			}
			a.Note(fmt.Sprintf("%s never started: %s", rec.Ref(), why))
		}
	}
}

// CutLineMarker is the marker after a line an incomplete recording ends in
// without its newline: what a reader must know before trusting it whole.
func CutLineMarker(n int64, stream string) string { return record.CutLineMarker(n, stream) }
