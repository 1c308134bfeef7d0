package record

import (
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// meta.json and footer.json are written by hand, in exactly the bytes
// json.MarshalIndent(v, "", "  ") gives (a test holds the two equal for
// every field): encoding/json builds its encoder for a type by reflection
// on first use, which on a fresh process costs a millisecond or more per
// recording, on the path of every rac run. Reading stays encoding/json.

// jsonObj appends one object, key by key, in MarshalIndent's layout.
type jsonObj struct {
	b     []byte
	depth int // of the object itself
	n     int // keys so far
}

func openObj(b []byte, depth int) jsonObj {
	return jsonObj{b: append(b, '{'), depth: depth}
}

func (o *jsonObj) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.b = appendNewline(o.b, o.depth+1)
	o.b = appendJSONString(o.b, k)
	o.b = append(o.b, ':', ' ')
	o.n++
}

func (o *jsonObj) close() []byte {
	if o.n > 0 {
		o.b = appendNewline(o.b, o.depth)
	}
	return append(o.b, '}')
}

func (o *jsonObj) str(k, v string) {
	o.key(k)
	o.b = appendJSONString(o.b, v)
}

func (o *jsonObj) int(k string, v int64) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

func (o *jsonObj) bool(k string, v bool) {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

func (o *jsonObj) time(k string, t time.Time) error {
	o.key(k)
	tb, err := t.MarshalJSON()
	o.b = append(o.b, tb...)
	return err
}

func (o *jsonObj) strings(k string, v []string) {
	o.key(k)
	if v == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = append(o.b, '[')
	for i, s := range v {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = appendNewline(o.b, o.depth+2)
		o.b = appendJSONString(o.b, s)
	}
	if len(v) > 0 {
		o.b = appendNewline(o.b, o.depth+1)
	}
	o.b = append(o.b, ']')
}

// object appends the value at k as an object whose keys are the map's,
// sorted, each value written by val.
func object[V any](o *jsonObj, k string, m map[string]V, val func(*jsonObj, string, V)) {
	o.key(k)
	if m == nil {
		o.b = append(o.b, "null"...)
		return
	}
	inner := openObj(o.b, o.depth+1)
	keys := make([]string, 0, len(m))
	for mk := range m {
		keys = append(keys, mk)
	}
	slices.Sort(keys)
	for _, mk := range keys {
		val(&inner, mk, m[mk])
	}
	o.b = inner.close()
}

func countsValue(o *jsonObj, k string, c Counts) {
	o.key(k)
	in := openObj(o.b, o.depth+1)
	in.int("bytes", c.Bytes)
	in.int("lines", c.Lines)
	o.b = in.close()
}

func intValue(o *jsonObj, k string, v int) { o.int(k, int64(v)) }

func cutValue(o *jsonObj, k string, c StreamCut) {
	o.key(k)
	in := openObj(o.b, o.depth+1)
	in.int("head_end", c.HeadEnd)
	in.int("kept_from", c.KeptFrom)
	in.int("dropped_bytes", c.DroppedBytes)
	in.int("dropped_lines", c.DroppedLines)
	in.int("head_newlines", c.HeadLines)
	o.b = in.close()
}

func appendNewline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for range depth {
		b = append(b, ' ', ' ')
	}
	return b
}

// encodeMeta is json.MarshalIndent(m, "", "  ").
func encodeMeta(m *Meta) ([]byte, error) {
	o := openObj(make([]byte, 0, 512), 0)
	o.int("format", int64(m.Format))
	o.str("session", m.Session)
	o.str("name", m.Name)
	o.int("seq", m.Seq)
	o.strings("argv", m.Argv)
	o.str("cwd", m.Cwd)
	err := o.time("started_at", m.StartedAt)
	o.str("rac_version", m.RacVersion)
	o.str("mode", m.Mode)
	o.strings("streams", m.Streams)
	o.bool("redact", m.Redact)
	o.int("pid", int64(m.PID))
	if m.MaxBytes != 0 {
		o.int("max_bytes", m.MaxBytes)
	}
	if m.HeadBytes != 0 {
		o.int("head_bytes", m.HeadBytes)
	}
	if m.Parent != "" {
		o.str("parent", m.Parent)
	}
	if m.Source != "" {
		o.str("source", m.Source)
	}
	return o.close(), err
}

// encodeFooter is json.MarshalIndent(f, "", "  ").
func encodeFooter(f *Footer) ([]byte, error) {
	o := openObj(make([]byte, 0, 768), 0)
	o.int("format", int64(f.Format))
	o.str("status", f.Status)
	if f.ExitCode == nil {
		o.key("exit_code")
		o.b = append(o.b, "null"...)
	} else {
		o.int("exit_code", int64(*f.ExitCode))
	}
	if f.Signal != "" {
		o.str("signal", f.Signal)
	}
	if f.OutcomeFrom != "" {
		o.str("outcome_from", f.OutcomeFrom)
	}
	err := o.time("ended_at", f.EndedAt)
	object(&o, "received", f.Received, countsValue)
	object(&o, "stored", f.Stored, countsValue)
	if len(f.Redactions) > 0 {
		object(&o, "redactions", f.Redactions, intValue)
	}
	if f.BrokenOff {
		o.bool("broken_off", true)
	}
	if len(f.Notes) > 0 {
		o.strings("notes", f.Notes)
	}
	if f.Truncated {
		o.bool("truncated", true)
	}
	if len(f.Cut) > 0 {
		object(&o, "cut", f.Cut, cutValue)
	}
	if f.Disk != nil {
		o.key("disk")
		in := openObj(o.b, 1)
		in.int("bytes", f.Disk.Bytes)
		if terr := in.time("newest", f.Disk.Newest); err == nil {
			err = terr
		}
		in.key("inode")
		in.b = strconv.AppendUint(in.b, f.Disk.Inode, 10)
		in.int("allocated", f.Disk.Allocated)
		o.b = in.close()
	}
	if f.Agent != nil {
		o.key("agent")
		o.b = agentValue(o.b, f.Agent)
	}
	return o.close(), err
}

// agentValue appends a footer's agent note, one level in.
func agentValue(b []byte, g *AgentNote) []byte {
	in := openObj(b, 1)
	in.str("kind", g.Kind)
	in.str("format", g.Format)
	if g.Version != "" {
		in.str("version", g.Version)
	}
	in.str("stream", g.Stream)
	if g.Model != "" {
		in.str("model", g.Model)
	}
	if g.Outcome != "" {
		in.str("outcome", g.Outcome)
	}
	in.int("frames", g.Frames)
	return in.close()
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as encoding/json does by default: HTML-safe
// (<, > and & escaped), invalid UTF-8 as U+FFFD, U+2028 and U+2029
// escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
