package app

// What rac out read needs for a person at a terminal: the pager decision
// and the recording's own colours.

import (
	"bytes"
	"cmp"
	"strings"

	"github.com/rac-cli/rac/internal/termtext"
)

// DefaultPager is the pager when no setting or variable names one, as
// git's.
const DefaultPager = "less -R"

// Pager decides, as git does, whether rac out read pages and through
// what: only when stdout is a terminal, never with --no-pager, --raw
// (exact bytes) or --follow (a live stream), and never under an agent,
// whose terminal has nobody to press q. The command is the read.pager
// setting, else $RAC_PAGER, else $PAGER, else less -R; "cat" is no pager.
// env is rac's environment with LESS=FRX and LV=-c added when unset, as
// git adds them: less quits on a short text, keeps colours and leaves the
// text on the screen. It returns "" for no pager.
func (a *App) Pager(req ReadRequest, setting string, terminal bool) (cmd string, env []string) {
	if !terminal || req.NoPager || req.Raw || req.Follow {
		return "", nil
	}
	if a.agentPresent() {
		return "", nil
	}
	cmd = cmp.Or(strings.TrimSpace(setting), strings.TrimSpace(a.env.Getenv("RAC_PAGER")),
		strings.TrimSpace(a.env.Getenv("PAGER")), DefaultPager)
	if cmd == "cat" {
		return "", nil
	}
	if a.env.Environ != nil {
		env = a.env.Environ()
	}
	if a.env.Getenv("LESS") == "" {
		env = append(env, "LESS=FRX")
	}
	if a.env.Getenv("LV") == "" {
		env = append(env, "LV=-c")
	}
	return cmd, env
}

// cleanKeepingSGR is termtext.CleanLine that keeps the line's SGR
// sequences (ESC [ digits m: colour, bold, reset) where they stood.
// Everything else is cleaned as always. A
// line that overwrites itself (a carriage return or backspace inside it)
// is cleaned plain: its colours would land on other characters.
func cleanKeepingSGR(line []byte) []byte {
	body := bytes.TrimSuffix(line, []byte{'\r'})
	if bytes.IndexByte(body, 0x1b) < 0 || bytes.ContainsAny(body, "\r\b") {
		return termtext.Defuse(termtext.CleanLine(line))
	}
	// without overwrites, cleaning is position-free: the pieces between
	// the SGRs clean the same apart as together
	var out []byte
	at := 0
	for i := 0; i < len(body); i++ {
		if body[i] != 0x1b {
			continue
		}
		if n := sgrLen(body[i:]); n > 0 {
			out = append(out, termtext.Defuse(termtext.CleanLine(body[at:i]))...)
			out = append(out, body[i:i+n]...)
			at = i + n
			i += n - 1
		}
	}
	return append(out, termtext.Defuse(termtext.CleanLine(body[at:]))...)
}

// colours carries the recording's colours from line to line. Each line
// printed is whole in itself: it starts with the colours still on from
// the lines before and ends with a reset when it leaves any on, so that a
// line read alone (--tail, a pager's screen), the end of the output and
// rac's own lines after it are never painted by accident.
type colours struct{ open []byte }

// line returns text (cleaned, holding only SGR sequences) made whole.
func (c *colours) line(text []byte) []byte {
	if len(c.open) == 0 && bytes.IndexByte(text, 0x1b) < 0 {
		return text
	}
	out := append(append([]byte{}, c.open...), text...)
	for i := 0; i < len(text); i++ {
		n := sgrLen(text[i:])
		if n == 0 {
			continue
		}
		seq := text[i : i+n]
		params := string(seq[2 : n-1])
		if first, _, _ := strings.Cut(params, ";"); first == "" || first == "0" {
			c.open = c.open[:0] // a reset: what follows it in seq is on again
			if strings.Contains(params, ";") {
				c.open = append(c.open, seq...)
			}
		} else if len(c.open) < 256 {
			c.open = append(c.open, seq...)
		}
		i += n - 1
	}
	if len(c.open) > 0 {
		out = append(out, "\x1b[m"...)
	}
	return out
}

// sgrLen is the length of the SGR sequence b starts with, 0 for none:
// ESC [, parameters of digits, ';' and ':', then 'm'.
func sgrLen(b []byte) int {
	if len(b) < 3 || b[0] != 0x1b || b[1] != '[' {
		return 0
	}
	for i := 2; i < len(b) && i < 64; i++ {
		switch c := b[i]; {
		case c == 'm':
			return i + 1
		case c >= '0' && c <= '9', c == ';', c == ':':
		default:
			return 0
		}
	}
	return 0
}
