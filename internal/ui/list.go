package ui

// rac out list's table: what a person sees of the recordings.

import (
	"io"
	"strings"
	"time"

	"github.com/rac-cli/rac/internal/outcome"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/termtext"
	"github.com/rac-cli/rac/internal/units"
)

// ListRow is one recording as rac out list shows it (the front end fills
// it from the application layer's view).
type ListRow struct {
	Ref, Session, Name string
	// Parent is the reference of the recorded command this one ran under
	// ("" for none): list --tree nests by it.
	Parent    string
	Argv      []string
	Status    string
	ExitCode  *int
	Signal    string
	StartedAt time.Time
	EndedAt   *time.Time
	Bytes     int64 // received, over every stream
	DiskBytes int64 // what its folder takes on disk (compressed or raw)
	Truncated bool  // capped: the middle was dropped
	// Agent, for a recording of an agent's transcript, is its model and
	// outcome ("claude-sonnet-4-5 success"), shown before the command
	Agent string
}

// ListOptions say how to lay the table out.
type ListOptions struct {
	Now   time.Time // for "3m ago" and a running command's duration
	Width int       // the terminal's columns; 0 never cuts (a pipe)
	// Session, when the listing is of one session, is shown once on a
	// line of its own; the rows then show names, not references.
	Session string
	Tree    bool // nest each recording under its parent
}

// ListTable writes rows, in the order given (the application layer's:
// by start time, newest last), as an aligned table under a header:
//
//	session test
//	NAME          STATUS   STARTED  TOOK      SIZE    DISK  COMMAND
//	0001-make     exit 2   3m ago   1.2s   2.9 KiB  16 KiB  make test
//	0002-sleep    running  just now 12s+       0 B  12 KiB  sleep 100
//
// The command is cut with "…" to fit Width. Nothing is written for no
// rows.
func ListTable(w io.Writer, c *Palette, rows []ListRow, o ListOptions) error {
	if len(rows) == 0 {
		return nil
	}
	first := "REF"
	if o.Session != "" {
		first = "NAME"
		if _, err := io.WriteString(w, c.Bold.Sprint("session "+termtext.Escape(o.Session))+"\n"); err != nil {
			return err
		}
	}
	t := NewTable(w, o.Width, Column{Header: first}, Column{Header: "STATUS"}, Column{Header: "STARTED"},
		Column{Header: "TOOK", Right: true}, Column{Header: "SIZE", Right: true}, Column{Header: "DISK", Right: true},
		Column{Header: "COMMAND", Cut: true})
	t.HeaderStyle = c.Bold
	depth := map[string]int{}
	if o.Tree {
		rows, depth = nest(rows)
	}
	for _, r := range rows {
		name := r.Ref
		if o.Session != "" {
			name = r.Name
		}
		if d := depth[r.Ref]; d > 0 {
			name = strings.Repeat("  ", d-1) + "└ " + name
		}
		t.Row(Plain(name), statusCell(c, r), c.Dim.Cell(units.Ago(r.StartedAt, o.Now)), Plain(took(r, o.Now)),
			c.Dim.Cell(Bytes(r.Bytes)), c.Dim.Cell(Bytes(r.DiskBytes)), Plain(agentPrefix(r)+Quote(r.Argv)))
	}
	return t.Render()
}

// statusCell is the outcome, coloured by how it went; a cut recording
// says so after it.
func statusCell(c *Palette, r ListRow) Cell {
	text := OutcomeShort(r.Status, r.ExitCode, r.Signal)
	style := c.Failed
	switch {
	case outcome.Of(r.Status, r.ExitCode, r.Signal).Succeeded():
		style = c.OK
	case r.Status == record.StatusRunning:
		style = c.Running
	case r.Status == record.StatusIncomplete, r.Status == record.StatusStreamEnded:
		// neither a success nor a failure: nobody said how it ended
		style = c.Marked
	}
	if r.Truncated {
		return Cell{Text: text + ", cut", Style: style}
	}
	return Cell{Text: text, Style: style}
}

// took is how long the command ran; for one still running, how long so
// far, with a "+"; "-" when it is not known (incomplete).
func took(r ListRow, now time.Time) string {
	switch {
	case r.EndedAt != nil:
		return units.Duration(r.EndedAt.Sub(r.StartedAt))
	case r.Status == record.StatusRunning:
		return units.Duration(now.Sub(r.StartedAt)) + "+"
	}
	return "-"
}

// nest orders rows as a tree: each row after its parent (or its parent's
// last descendant), siblings in the order given; a row whose parent is
// not listed is a root. It returns each row's depth by reference.
func nest(rows []ListRow) ([]ListRow, map[string]int) {
	listed := map[string]bool{}
	for _, r := range rows {
		listed[r.Ref] = true
	}
	children := map[string][]ListRow{}
	var roots []ListRow
	for _, r := range rows {
		if r.Parent != "" && r.Parent != r.Ref && listed[r.Parent] {
			children[r.Parent] = append(children[r.Parent], r)
		} else {
			roots = append(roots, r)
		}
	}
	out := make([]ListRow, 0, len(rows))
	depth := map[string]int{}
	var walk func(r ListRow, d int)
	walk = func(r ListRow, d int) {
		if _, seen := depth[r.Ref]; seen {
			return // a parent loop in a hostile store: each row once
		}
		depth[r.Ref] = d
		out = append(out, r)
		for _, ch := range children[r.Ref] {
			walk(ch, d+1)
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
	// rows in a loop of parents have no root: after the rest, flat
	for _, r := range rows {
		if _, seen := depth[r.Ref]; !seen {
			walk(r, 0)
		}
	}
	return out, depth
}

// agentPrefix is "[MODEL OUTCOME] " for a row of an agent's transcript.
func agentPrefix(r ListRow) string {
	if r.Agent == "" {
		return ""
	}
	return "[" + termtext.Escape(r.Agent) + "] "
}
