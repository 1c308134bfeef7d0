package agentinit

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// A settings file is edited as text, never re-encoded: rac inserts its own
// entry where it belongs and deletes exactly that text again, so every
// other byte (key order, spacing, the user's own hooks) stays as it was,
// and installing then removing gives the file back byte for byte.

// node is one JSON value and where it lies in the text.
type node struct {
	kind       byte // '{', '[', '"', or 'v' for a number, true, false or null
	start, end int  // the value's bytes
	keys       []string
	keyStart   []int   // of each member, for objects
	elems      []*node // members' values or array elements
	str        string  // a string's value
}

func (n *node) get(key string) (*node, int) {
	if n == nil || n.kind != '{' {
		return nil, -1
	}
	for i, k := range n.keys {
		if k == key {
			return n.elems[i], i
		}
	}
	return nil, -1
}

type parser struct {
	b []byte
	i int
}

var errSyntax = errors.New("not valid JSON")

// parseJSON parses b, which json.Valid has accepted.
func parseJSON(b []byte) (*node, error) {
	if !json.Valid(b) {
		return nil, errSyntax
	}
	p := &parser{b: b}
	return p.value()
}

func (p *parser) ws() {
	for p.i < len(p.b) && strings.IndexByte(" \t\r\n", p.b[p.i]) >= 0 {
		p.i++
	}
}

func (p *parser) value() (*node, error) {
	p.ws()
	if p.i >= len(p.b) {
		return nil, errSyntax
	}
	n := &node{start: p.i}
	switch c := p.b[p.i]; c {
	case '{', '[':
		n.kind = c
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		p.i++
		for {
			p.ws()
			if p.b[p.i] == closing {
				p.i++
				break
			}
			if p.b[p.i] == ',' {
				p.i++
				p.ws()
			}
			if c == '{' {
				k, err := p.value()
				if err != nil {
					return nil, err
				}
				n.keys, n.keyStart = append(n.keys, k.str), append(n.keyStart, k.start)
				p.ws()
				p.i++ // the colon
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, v)
		}
	case '"':
		n.kind = '"'
		p.i++
		for p.b[p.i] != '"' {
			if p.b[p.i] == '\\' {
				p.i++
			}
			p.i++
		}
		p.i++
		if err := json.Unmarshal(p.b[n.start:p.i], &n.str); err != nil {
			return nil, err
		}
	default:
		n.kind = 'v'
		for p.i < len(p.b) && strings.IndexByte(",}] \t\r\n", p.b[p.i]) < 0 {
			p.i++
		}
	}
	n.end = p.i
	return n, nil
}

// elemStart is where element i of container n begins (a member's key).
func (n *node) elemStart(i int) int {
	if n.kind == '{' {
		return n.keyStart[i]
	}
	return n.elems[i].start
}

// lineIndent is the white space that begins the line holding pos.
func lineIndent(b []byte, pos int) string {
	start := bytes.LastIndexByte(b[:pos], '\n') + 1
	end := start
	for end < len(b) && (b[end] == ' ' || b[end] == '\t') {
		end++
	}
	return string(b[start:end])
}

// indentUnit is the file's indentation step (two spaces when it has none).
func indentUnit(b []byte) string {
	for _, line := range bytes.Split(b, []byte("\n"))[1:] {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) < len(line) && len(trimmed) > 0 {
			if line[0] == '\t' {
				return "\t"
			}
			return string(line[:len(line)-len(trimmed)])
		}
	}
	return "  "
}

// insert adds v to container n (as member key when n is an object) after
// its last element, in the file's layout.
func insert(b []byte, n *node, key string, v any) ([]byte, error) {
	unit := indentUnit(b)
	outer := lineIndent(b, n.start)
	inner := outer + unit
	text := n.kind == '{'
	compact := len(n.elems) > 0 && !bytes.Contains(b[n.start:n.end], []byte("\n"))
	var val []byte
	var err error
	if compact {
		val, err = marshal(v, "", "")
	} else {
		val, err = marshal(v, inner, unit)
	}
	if err != nil {
		return nil, err
	}
	var elem []byte
	if text {
		k, _ := marshal(key, "", "")
		sep := ": "
		if compact && !bytes.Contains(b[n.start:n.end], []byte(": ")) {
			sep = ":"
		}
		elem = append(append(k, sep...), val...)
	} else {
		elem = val
	}
	var out bytes.Buffer
	switch {
	case len(n.elems) == 0:
		out.Write(b[:n.start+1])
		out.WriteString("\n" + inner)
		out.Write(elem)
		out.WriteString("\n" + outer)
		out.Write(b[n.end-1:])
	default:
		last := n.elems[len(n.elems)-1].end
		out.Write(b[:last])
		if compact {
			sep := ","
			if bytes.Contains(b[n.start:n.end], []byte(", ")) {
				sep = ", "
			}
			out.WriteString(sep)
		} else {
			out.WriteString(",\n" + inner)
		}
		out.Write(elem)
		out.Write(b[last:])
	}
	return out.Bytes(), nil
}

// remove deletes element i of container n, and the separator insert added.
func remove(b []byte, n *node, i int) []byte {
	var out bytes.Buffer
	switch {
	case len(n.elems) == 1:
		out.Write(b[:n.start+1])
		out.Write(b[n.end-1:])
	case i > 0:
		out.Write(b[:n.elems[i-1].end])
		out.Write(b[n.elems[i].end:])
	default:
		out.Write(b[:n.elemStart(0)])
		out.Write(b[n.elemStart(1):])
	}
	return out.Bytes()
}

func marshal(v any, prefix, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
