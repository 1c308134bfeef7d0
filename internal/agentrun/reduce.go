package agentrun

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Reduced marks a frame Reduce shortened to its whitelist.
const Reduced = "rac_reduced"

// initKeys is the init frame's whitelist (tools and mcp_servers become
// their counts).
var initKeys = []string{"type", "subtype", "model", "claude_code_version", "permissionMode", "session_id", "tools", "mcp_servers"}

// Reduce is a frame as the views show it: every string leaf longer than
// MaxLeaf cut with a suffix saying how many bytes went (CutLeaf), and
// Claude Code's init frame reduced to a whitelist (type, subtype, model,
// claude_code_version, permissionMode, session_id, tools_count,
// mcp_servers_count) marked "rac_reduced": true. A line that is not a
// JSON object comes back as it was.
func Reduce(frame []byte) []byte {
	v, ok := decodeFrame(frame)
	if !ok {
		return frame
	}
	m := v.(map[string]any)
	if str(m, "type") == "system" && str(m, "subtype") == "init" {
		r := map[string]any{Reduced: true}
		for _, k := range initKeys {
			switch x := m[k].(type) {
			case nil:
			case []any:
				r[k+"_count"] = len(x)
			default:
				r[k] = x
			}
		}
		v = r
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(cutLeaves(v)) != nil {
		return frame
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
}

func decodeFrame(frame []byte) (any, bool) {
	frame = bytes.TrimSpace(frame)
	if len(frame) == 0 || frame[0] != '{' {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(frame))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	return v, true
}

func cutLeaves(v any) any {
	switch x := v.(type) {
	case string:
		return CutLeaf(x)
	case map[string]any:
		for k, e := range x {
			x[k] = cutLeaves(e)
		}
	case []any:
		for i, e := range x {
			x[i] = cutLeaves(e)
		}
	}
	return v
}

// Decoded calls fn for each line of each string value of a frame, reduced
// as Reduce reduces it: the decoded view grep searches, without JSON's
// syntax (keys, quotes, escapes). path is the value's place in the frame,
// its keys joined by dots with list positions left out
// (message.content.input.command). It reports false for a line that is
// not a JSON object.
func Decoded(frame []byte, fn func(path, line string)) bool {
	v, ok := decodeFrame(Reduce(frame))
	if !ok {
		return false
	}
	walk("", v, fn)
	return true
}

func walk(path string, v any, fn func(path, line string)) {
	switch x := v.(type) {
	case string:
		for l := range strings.SplitSeq(x, "\n") {
			fn(path, l)
		}
	case json.Number, bool:
		if path == Reduced || strings.HasSuffix(path, "_count") {
			fn(path, toString(x))
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		// the frame's own order is lost in a map: type first, then by name
		slices.SortFunc(keys, func(a, b string) int {
			switch {
			case a == b:
				return 0
			case a == "type":
				return -1
			case b == "type":
				return 1
			}
			return strings.Compare(a, b)
		})
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			walk(p, x[k], fn)
		}
	case []any:
		for _, e := range x {
			walk(path, e, fn)
		}
	}
}

func toString(v any) string {
	switch x := v.(type) {
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}
