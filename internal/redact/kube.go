package redact

import (
	"bytes"
	"encoding/base64"
)

// Kubernetes Secret data, as kubectl prints it (see the package doc for why
// every data: block is treated as a Secret's).

// matchKubeData finds `data:` / `stringData:` alone on a YAML line and
// `"data": {` / `"stringData": {` in JSON, including the escaped JSON of the
// last-applied-configuration annotation.
func matchKubeData(e *engine, line []byte, hs, he int, ri, _ int32) {
	ks, stringData, ok := kubeKey(line, hs)
	if !ok {
		return
	}
	if line[he-1] == ':' {
		kubeYAMLData(e, line, ks, he, stringData)
		return
	}
	// JSON: "data" or, inside a JSON string, \"data\".
	escaped := line[he-2] == '\\'
	if escaped && !hasAt(line, ks-2, "\\\"") || !escaped && (ks < 1 || line[ks-1] != '"') {
		return
	}
	k, ok := colonAt(line, he)
	if !ok || k >= len(line) || line[k] != '{' {
		return
	}
	k++
	if blankOrComment(line[k:]) {
		if !e.open {
			col := ks - 1
			if escaped {
				col--
			}
			e.setPending(mlState{mode: modeKubeJSON, stringData: stringData, keyCol: col, entryIndent: -1})
		}
		return
	}
	// Inline object: "k":"v" pairs up to the closing brace. A compact JSON
	// line is only a Kubernetes object when apiVersion comes first (kubectl
	// and its last-applied annotation write it so); GraphQL and API
	// responses with a top-level "data" stay untouched.
	if e.apiVersionAt == -2 {
		e.apiVersionAt = bytes.Index(line, []byte("apiVersion")) // once per line
	}
	if e.apiVersionAt < 0 || e.apiVersionAt > ks {
		return
	}
	for k < len(line) {
		for k < len(line) && (isBlank(line[k]) || line[k] == ',') {
			k++
		}
		if k >= len(line) || line[k] == '}' {
			return
		}
		vs, ve, next, ok := jsonPair(line, k, escaped)
		if !ok {
			return
		}
		if kubeValueSecret(line[vs:ve], stringData) || (e.open && ve == len(line)) {
			e.add(line, vs, ve, ri)
		}
		k = next
	}
}

// kubeYAMLData starts a YAML data block when the key [ks, he) stands alone
// on its line (after the indent, or a list item's "- ") and the line is
// complete.
func kubeYAMLData(e *engine, line []byte, ks, he int, stringData bool) {
	i := 0
	for i < ks && line[i] == ' ' {
		i++
	}
	if i+1 < ks && line[i] == '-' && line[i+1] == ' ' {
		i += 2
		for i < ks && line[i] == ' ' {
			i++
		}
	}
	if i != ks || !blankOrComment(line[he:]) || e.open {
		return
	}
	e.setPending(mlState{mode: modeKubeYAML, stringData: stringData, keyCol: ks, entryIndent: -1})
}

// jsonPair reads a "key": "value" pair starting at the key's quote at k and
// returns the value's bounds and the index after it.
func jsonPair(line []byte, k int, escaped bool) (vs, ve, next int, ok bool) {
	if _, _, k, ok = jsonString(line, k, escaped); !ok {
		return 0, 0, 0, false
	}
	for k < len(line) && isBlank(line[k]) {
		k++
	}
	if k >= len(line) || line[k] != ':' {
		return 0, 0, 0, false
	}
	k++
	for k < len(line) && isBlank(line[k]) {
		k++
	}
	return jsonString(line, k, escaped)
}

// kubeKey checks that the literal at hs is the key data or stringData with
// exactly that case and returns where the key starts.
func kubeKey(line []byte, hs int) (int, bool, bool) {
	switch {
	case hasAt(line, hs, "data"):
		if hs > 0 && (wordSet[line[hs-1]]) {
			return 0, false, false // metadata:, userdata:
		}
		return hs, false, true
	case hasAt(line, hs, "Data") && hasAt(line, hs-6, "string"):
		if hs > 6 && wordSet[line[hs-7]] {
			return 0, false, false
		}
		return hs - 6, true, true
	}
	return 0, false, false
}

// jsonString reads a JSON string at k (with \" quotes when escaped) and
// returns its content bounds and the index after the closing quote. A string
// that runs to the end of the line is accepted, ending there.
func jsonString(line []byte, k int, escaped bool) (int, int, int, bool) {
	if escaped {
		if !hasAt(line, k, "\\\"") {
			return 0, 0, 0, false
		}
		k += 2
		vs := k
		for k < len(line) && !hasAt(line, k, "\\\"") {
			k++
		}
		return vs, k, min(k+2, len(line)), true
	}
	if k >= len(line) || line[k] != '"' {
		return 0, 0, 0, false
	}
	k++
	vs := k
	for k < len(line) && line[k] != '"' {
		if line[k] == '\\' {
			k++
		}
		k++
	}
	k = min(k, len(line))
	return vs, k, min(k+1, len(line)), true
}

func blankOrComment(rest []byte) bool {
	for i, c := range rest {
		if c == '#' {
			return i == 0 || isBlank(rest[i-1])
		}
		if !isBlank(c) {
			return false
		}
	}
	return true
}

func indentOf(line []byte) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}

// kubeYAMLLine handles a line inside a data:/stringData: block: entries are
// one level deeper than the key; a line at or left of the key ends the block.
func (e *engine) kubeYAMLLine(line []byte, st *mlState) {
	c, _, _ := trimSpaceBounds(line)
	if len(c) == 0 {
		return
	}
	ind := indentOf(line)
	if ind <= st.keyCol || (st.entryIndent >= 0 && ind < st.entryIndent) || c[0] == '-' {
		*st = mlState{}
		return
	}
	if st.entryIndent < 0 {
		st.entryIndent = ind
	}
	if ind > st.entryIndent {
		if st.scalar {
			e.add(line, ind, ind+len(c), e.r.kubeRule)
		}
		return
	}
	st.scalar = false
	k := ind
	if line[k] == '"' || line[k] == '\'' {
		q := line[k]
		k++
		for k < len(line) && line[k] != q {
			k++
		}
		k++
	} else {
		for k < len(line) && (nameSet[line[k]] || line[k] == '/') {
			k++
		}
	}
	if k >= len(line) || line[k] != ':' {
		return
	}
	k, _ = colonAt(line, k)
	vs, ve := k, len(line)
	for ve > vs && isBlank(line[ve-1]) {
		ve--
	}
	if vs == ve {
		return
	}
	if line[vs] == '|' || line[vs] == '>' {
		st.scalar = st.stringData
		return
	}
	if ve-vs >= 2 && (line[vs] == '"' || line[vs] == '\'') && line[ve-1] == line[vs] {
		vs++
		ve--
	}
	if kubeValueSecret(line[vs:ve], st.stringData) || (e.open && ve == len(line)) {
		e.add(line, vs, ve, e.r.kubeRule)
	}
}

// kubeJSONLine handles one `"key": "value",` line of a multi-line JSON data
// object; the closing brace (or any line left of the key) ends it.
func (e *engine) kubeJSONLine(line []byte, st *mlState) {
	c, _, _ := trimSpaceBounds(line)
	if len(c) == 0 {
		return
	}
	ind := indentOf(line)
	if c[0] == '}' || ind <= st.keyCol {
		*st = mlState{}
		return
	}
	if st.entryIndent < 0 {
		st.entryIndent = ind
	}
	if ind != st.entryIndent || c[0] != '"' {
		return
	}
	vs, ve, _, ok := jsonPair(line, ind, false)
	if !ok {
		return
	}
	if kubeValueSecret(line[vs:ve], st.stringData) || (e.open && ve == len(line)) {
		e.add(line, vs, ve, e.r.kubeRule)
	}
}

// kubeValueSecret decides whether a data value is a secret: every
// stringData value is; a data value is when it is well-formed standard base64
// that is not plain hex or digits and decodes to at least 8 bytes, carries
// padding, or decodes to printable text.
func kubeValueSecret(v []byte, stringData bool) bool {
	if stringData {
		return len(v) > 0
	}
	n := len(v)
	if n < 4 || n%4 != 0 {
		return false
	}
	pad := 0
	if v[n-1] == '=' {
		pad++
		if v[n-2] == '=' {
			pad++
		}
	}
	hex := true
	for _, c := range v[:n-pad] {
		if !b64Std[c] {
			return false
		}
		if !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) {
			hex = false
		}
	}
	if hex {
		return false
	}
	if n/4*3-pad >= 8 || pad > 0 {
		return true
	}
	var dec [6]byte
	m, err := base64.StdEncoding.Decode(dec[:], v)
	if err != nil {
		return false
	}
	for _, b := range dec[:m] {
		if b < 0x20 || b > 0x7e {
			return false
		}
	}
	return true
}
