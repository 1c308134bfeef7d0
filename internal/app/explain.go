package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rac-cli/rac/internal/explain"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/redact"
)

// Explain opens ref and returns explain's report on it; everything in the
// report has passed through the redactor. A recording made with
// --no-redact is read through outLines, so the lines explain picks carry
// the block state (a key's body line, a Secret's data value) as if it had
// been redacted on the way in.
func (a *App) Explain(ctx context.Context, ref string) (*explain.Report, error) {
	red, rec, err := a.openToExplain(ctx, ref)
	if err != nil {
		return nil, err
	}
	defer rec.Close()
	out, err := newOutLines(red, rec, nil) // explain reads every line: no window to start near
	if err != nil {
		return nil, err
	}
	defer out.close()
	in := explain.Input{Meta: explainMeta(rec), Redact: red.String, Now: a.env.Now}
	// the argv grammar here; explain runs the redactor over each element
	in.Meta.Argv = a.argvGrammar(in.Meta.Argv)
	stored := map[string]*int64{} // bytes read per stream, as stored
	for _, s := range rec.Streams() {
		pieces, closeFn, err := rec.Pieces(s)
		if err != nil {
			return nil, err
		}
		defer closeFn()
		stored[s] = new(int64)
		for i, p := range pieces {
			r := p.R
			if out.carry {
				r = out.reader(r, i > 0 || out.headless(s), stored[s])
			}
			in.Streams = append(in.Streams, explain.Stream{Name: s, R: r, FirstLine: int(p.FirstLine)})
		}
	}
	rep, err := explain.Explain(in)
	if err == nil && out.carry {
		// what was read is the stream as stored, not its redacted form
		for i := range rep.Streams {
			if n := stored[rep.Streams[i].Name]; n != nil {
				rep.Streams[i].Bytes = *n
			}
		}
	}
	return rep, err
}

func explainMeta(rec *record.Recording) explain.Meta {
	m := explain.Meta{
		Ref: rec.Ref(), Argv: rec.Meta.Argv, Cwd: rec.Meta.Cwd, Status: rec.Status,
		StartedAt: rec.Meta.StartedAt,
	}
	var notes []string
	if cuts, err := rec.Cuts(); err == nil {
		for _, s := range rec.Streams() {
			if c, ok := cuts[s]; ok {
				m.Truncated = true
				notes = append(notes, fmt.Sprintf("%d bytes (%d lines) of %s cut, head and tail kept", c.DroppedBytes, c.DroppedLines, s))
			}
		}
	}
	if rec.Stopping != "" {
		notes = append(notes, "rac was killed while stopping the command after "+rec.Stopping)
	}
	if rec.MetadataOnly() {
		notes = append(notes, "metadata only: the command ran on the terminal (passthrough mode)")
	}
	if f := rec.Footer; f != nil {
		m.ExitCode = f.ExitCode
		m.Signal = f.Signal
		t := f.EndedAt
		m.EndedAt = &t
		for _, n := range f.Redactions {
			m.Redactions += n
		}
		// why it failed to start, a drain that timed out, a broken pipe
		notes = append(notes, f.Notes...)
	}
	notes = append(notes, provenanceOf(rec).notes(func(s string) string { return s })...)
	m.Note = strings.Join(notes, "; ")
	return m
}

// Path returns the folder of the recording ref names, or with stream the
// file holding that stream's bytes.
func (a *App) Path(ctx context.Context, ref, stream string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if err := checkStream(stream, flagWords); err != nil {
		return "", err
	}
	rec, err := a.Open(ref)
	if err != nil {
		return "", err
	}
	defer rec.Close()
	p := rec.Dir()
	if stream != "" {
		// a finished recording gc compressed has no file of the stream's
		// raw bytes; a path to the compressed one would mislead a tool
		// that reads it as text (docs/reading.md)
		if err := rec.RawFile(stream); err != nil {
			return "", err
		}
		p = filepath.Join(p, stream)
	}
	return p, nil
}

func checkStream(s string, w words) error {
	if s != "" && s != record.Stdout && s != record.Stderr && s != record.Combined {
		return Usagef("invalid %s %q: use stdout, stderr or combined", w.name("stream"), s)
	}
	return nil
}

// openToExplain is what explain and the agent digest start from: the
// redactor and the argv rules (whose errors are the settings'), then the
// recording ref names. The caller closes it.
func (a *App) openToExplain(ctx context.Context, ref string) (*redact.Redactor, *record.Recording, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	red, err := a.Redactor()
	if err == nil {
		_, err = a.ArgvRules()
	}
	if err != nil {
		return nil, nil, err
	}
	rec, err := a.Open(ref)
	if err != nil {
		return nil, nil, err
	}
	return red, rec, nil
}
