package agentinit

import (
	"bytes"
)

const (
	blockBegin = "<!-- rac:begin: added by 'rac agent-init'; '--remove' takes it out -->"
	blockEnd   = "<!-- rac:end -->"
)

// block is the instructions an agent reads: how to read a recording,
// explain first after a failure, never re-run to see output.
const block = blockBegin + `
## Recorded commands (rac)

Some commands run under ` + "`rac run`" + `: it prints ` + "`rac: recording SESSION/NAME`" + ` first and
` + "`rac: ref SESSION/NAME`" + ` last, and keeps the whole output.

- Read a recording: ` + "`rac out read REF --tail 80`" + ` (` + "`--stream stderr`" + `, ` + "`--lines 120:160`" + `);
  ` + "`rac out list`" + ` lists this conversation's recordings, ` + "`last`" + ` is the newest.
- After a failure, run ` + "`rac out explain REF`" + ` first: the cause in a few lines, with stream:line.
- Search what already ran: ` + "`rac out grep TEXT`" + ` (` + "`-i`" + `, ` + "`-C 2`" + `).
- Wrap a long or state-changing command yourself: ` + "`rac run -- CMD`" + `.
- Never re-run a state-changing command (git push, kubectl apply, a migration) to see its
  output again: read its recording.
` + blockEnd

// editBlock installs or removes the instructions block in a markdown
// file's text old.
func editBlock(old []byte, remove bool) []byte {
	return editDelimited(old, blockBegin, blockEnd, block, remove)
}

// editDelimited installs (or replaces) or removes text, which begins with
// the line begin and ends with the line end, in a file's text old. A file
// without a final newline gets the text after a blank line and no final
// newline of its own, so that removing it can tell the two apart and give
// the file back byte for byte. nil means the file goes.
func editDelimited(old []byte, begin, end, text string, remove bool) []byte {
	b := bytes.Index(old, []byte(begin))
	e := -1
	if b >= 0 {
		if i := bytes.Index(old[b:], []byte(end)); i >= 0 {
			e = b + i + len(end)
		}
	}
	if e < 0 { // not there (or its end marker was deleted: leave it)
		switch {
		case remove:
			return old
		case len(old) == 0:
			return []byte(text + "\n")
		case old[len(old)-1] == '\n':
			return append(append(bytes.Clone(old), '\n'), text+"\n"...)
		default:
			return append(append(bytes.Clone(old), "\n\n"...), text...)
		}
	}
	if !remove {
		return append(append(append([]byte{}, old[:b]...), text...), old[e:]...)
	}
	before, after := old[:b], old[e:]
	if len(after) > 0 && after[0] == '\n' {
		after = after[1:]
		before = bytes.TrimSuffix(before, []byte("\n")) // the blank line added before it
		if len(before) > 0 && before[len(before)-1] != '\n' {
			before = append(bytes.Clone(before), '\n') // it was text's own newline
		}
	} else {
		before = bytes.TrimSuffix(before, []byte("\n\n"))
	}
	out := append(bytes.Clone(before), after...)
	if len(out) == 0 {
		return nil
	}
	return out
}
