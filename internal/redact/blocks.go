package redact

import "bytes"

// Values that follow their secret-like name on later lines (see the package
// doc): a YAML block scalar (password: |), the "Value" of a pretty-printed
// JSON object whose "Name" is secret-like (aws ssm get-parameter, container
// env lists) and the result of a Terraform random_password resource. The
// assignment rule starts each state at a name it has already found, so a
// line that cannot start one pays nothing for them.

// Bounds of the states here: a block longer than this is not one value, and
// what follows it is redacted by the ordinary rules again.
const (
	blockMaxLines = 10000   // YAML block scalar lines
	blockMaxBytes = 1 << 20 // YAML block scalar content
	objMaxLines   = 64      // lines from a JSON "Name" to its "Value"
	tfMaxLines    = 1000    // lines of a Terraform resource block
)

// yamlBlockStart starts the block-scalar state after `name: |` (or >, |-,
// >+, |2-, after a tag such as !!binary): ns is where the name starts, tag
// what precedes the indicator after the colon. The name must start its
// line, after indentation or a list dash, so the block's lines can be told
// by their indentation. An Ansible vault (!vault |) is ciphertext and stays.
func yamlBlockStart(e *engine, line []byte, ns int, tag []byte, ri int32) {
	if hasAt(tag, 0, "!vault") || e.open {
		return
	}
	col := ns
	if col > 0 && (line[col-1] == '"' || line[col-1] == '\'') {
		col--
	}
	i := indentOf(line)
	if i+1 < col && line[i] == '-' && line[i+1] == ' ' {
		i = skipSpaces(line, i+2)
	}
	if i != col {
		return
	}
	e.setPending(mlState{mode: modeYAMLBlock, keyCol: col, rule: ri})
}

// blockIndicator reports a YAML block scalar indicator at vs: | or >, at
// most two of the chomping (+ -) and indentation (1-9) indicators, then
// nothing but blanks or a comment.
func blockIndicator(line []byte, vs int) bool {
	k := vs + 1
	for n := 0; n < 2 && k < len(line) && (line[k] == '+' || line[k] == '-' || (line[k] >= '1' && line[k] <= '9')); n++ {
		k++
	}
	return blankOrComment(line[k:])
}

func skipSpaces(line []byte, k int) int {
	for k < len(line) && line[k] == ' ' {
		k++
	}
	return k
}

// yamlBlockLine handles a line while a block scalar is open: a line
// indented past the key's column is the value's, a blank line continues
// it, anything else ends it and is an ordinary line. Each value line keeps
// its indentation and its line end, and its content becomes the marker, so
// the output has as many lines as the input. A key's PEM header ends the
// state, so the private-key machine keeps the header and footer as it does
// everywhere else; a placeholder line (${{ secrets.X }}, {{ .Values.x }})
// stays.
func (e *engine) yamlBlockLine(line []byte, st *mlState) (lineAction, bool) {
	ind := indentOf(line)
	c, lead, _ := trimSpaceBounds(line[ind:])
	if len(c) == 0 {
		if e.open {
			return actWait, true // only blanks so far: the indentation is not known yet
		}
		st.lines++
		return actSpans, true
	}
	if ind <= st.keyCol || st.lines >= blockMaxLines || st.body+len(c) > blockMaxBytes || hasAt(c, 0, "-----BEGIN") {
		*st = mlState{}
		return actSpans, false
	}
	st.lines++
	st.body += len(c)
	cs := ind + lead
	ce := cs + len(c)
	if e.open {
		ce = len(line) // more of the value may follow
	} else if isPlaceholder(c) {
		return actSpans, true
	}
	e.add(line, cs, ce, st.rule)
	e.merge()
	return actSpans, true
}

// jsonNameMember starts the object-value state at a line that is only a
// "Name", "Key" or "keyName" member whose string value is secret-like:
//
//	"Name": "/prod/db/password",
//
// The hit is a literal of the assignment rule inside that value, ending at
// ne, its closing quote. The "Value" member of the same object, on a later
// line at the same indentation, is the secret.
func jsonNameMember(e *engine, line []byte, hs, ne int, ri int32) bool {
	if ne >= len(line) || line[ne] != '"' {
		return false
	}
	ns := nameStart(line, hs)
	lo := max(0, ns-256)
	q := bytes.LastIndexByte(line[lo:ns], '"')
	if q < 0 {
		return false
	}
	q += lo
	p := skipBlanksBack(line, q)
	if p == 0 || line[p-1] != ':' {
		return false
	}
	p = skipBlanksBack(line, p-1)
	if p < 2 || line[p-1] != '"' {
		return false
	}
	kq := bytes.LastIndexByte(line[:p-1], '"')
	if kq < 0 || indentOf(line) != kq {
		return false
	}
	switch key := line[kq+1 : p-1]; {
	case len(key) == 4 && hasFoldAt(key, 0, "name"),
		len(key) == 3 && hasFoldAt(key, 0, "key"),
		len(key) == 7 && hasFoldAt(key, 0, "keyname"):
	default:
		return false
	}
	t := ne + 1
	if t < len(line) && line[t] == ',' {
		t++
	}
	if skipBlanks(line, t) != len(line) || !e.assignmentName(line[q+1:ne]) {
		return false
	}
	if !e.open {
		e.setPending(mlState{mode: modeJSONValue, keyCol: kq, rule: ri})
	}
	return true
}

// jsonValueLine handles a line of an object whose name is secret-like:
// its "Value" member (any case) at the name's indentation is redacted and
// ends the state, as does the end of the object, a line left of the
// members, or objMaxLines lines without a value.
func (e *engine) jsonValueLine(line []byte, st *mlState) {
	c, _, _ := trimSpaceBounds(line)
	if len(c) == 0 {
		return
	}
	ind := indentOf(line)
	st.lines++
	if ind < st.keyCol || st.lines > objMaxLines || (ind == st.keyCol && c[0] != '"') {
		*st = mlState{}
		return
	}
	if ind > st.keyCol || !hasFoldAt(line, ind+1, "value\"") {
		return // a nested object or another member
	}
	rule := st.rule
	*st = mlState{}
	vs, ve, _, ok := jsonPair(line, ind, false)
	if ok && ve > vs && (e.open || !isPlaceholder(line[vs:ve])) {
		e.add(line, vs, ve, rule)
	}
}

// tfResourceStart starts the Terraform state at the header of a
// random_password resource, as terraform plan and terraform state show
// print it (resource "random_password" "db" {, after a change marker):
// its result and bcrypt_hash attributes are the password. ns and ne bound
// the resource type's name.
func tfResourceStart(e *engine, line []byte, ns, ne int, ri int32) bool {
	if string(line[ns:ne]) != "random_password" || ns < 1 || line[ns-1] != '"' || e.open {
		return false
	}
	p := skipBlanksBack(line, ns-1)
	if p < len("resource") || !hasAt(line, p-len("resource"), "resource") || p == ns-1 {
		return false
	}
	col := p - len("resource")
	if tfMarkerEnd(line, skipBlanks(line, 0)) != col {
		return false
	}
	// The label and the opening brace end the line.
	k := skipBlanks(line, ne+1)
	_, _, k, ok := jsonString(line, k, false)
	if !ok || k >= len(line) {
		return false
	}
	if k = skipBlanks(line, k); k >= len(line) || line[k] != '{' || !blankOrComment(line[k+1:]) {
		return false
	}
	e.setPending(mlState{mode: modeTFResource, keyCol: col, rule: ri})
	return true
}

// tfMarkerEnd steps over a plan's change marker (+, -, ~, -/+, +/-) and
// the blanks after it at k.
func tfMarkerEnd(line []byte, k int) int {
	for _, m := range []string{"-/+", "+/-", "+", "-", "~"} {
		if hasAt(line, k, m) && k+len(m) < len(line) && isBlank(line[k+len(m)]) {
			return skipBlanks(line, k+len(m))
		}
	}
	return k
}

// tfResourceLine handles a line of a random_password resource: the quoted
// strings after result = or bcrypt_hash = (both sides of an update's ->)
// are redacted; (sensitive value) stays. A line whose content starts at or
// left of the resource keyword's column (its closing brace) ends the state.
func (e *engine) tfResourceLine(line []byte, st *mlState) {
	c, _, _ := trimSpaceBounds(line)
	if len(c) == 0 {
		return
	}
	st.lines++
	first := skipBlanks(line, 0)
	if first <= st.keyCol || st.lines > tfMaxLines {
		*st = mlState{}
		return
	}
	ns := tfMarkerEnd(line, first)
	ne := runOf(line, ns, &wordSet)
	if name := string(line[ns:ne]); name != "result" && name != "bcrypt_hash" {
		return
	}
	k := skipBlanks(line, ne)
	if k >= len(line) || line[k] != '=' {
		return
	}
	for k = skipBlanks(line, k+1); k < len(line); {
		vs, ve, next, ok := jsonString(line, k, false)
		if !ok {
			return
		}
		if ve > vs {
			e.add(line, vs, ve, st.rule)
		}
		k = skipBlanks(line, next)
		if !hasAt(line, k, "->") {
			return
		}
		k = skipBlanks(line, k+2)
	}
}

// secureStringRule starts the object-value state at an AWS SSM parameter's
// "Type": "SecureString" line, for parameters whose name says nothing
// (/prod/app/dsn): the "Value" below it is the decrypted secret. Its
// literal is new to the prefilter, so it is a rule of its own; it is not in
// the table yet (see builtinRules).
func secureStringRule() rule {
	return rule{id: "secret-assignment", prio: prioAssignment, literals: []string{"securestring"}, match: matchSecureString}
}

// matchSecureString accepts "Type": "SecureString" alone on its line (a
// comma may follow).
func matchSecureString(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasAt(line, hs, "SecureString") || hs < 1 || line[hs-1] != '"' || he >= len(line) || line[he] != '"' {
		return
	}
	p := skipBlanksBack(line, hs-1)
	if p == 0 || line[p-1] != ':' {
		return
	}
	p = skipBlanksBack(line, p-1)
	kq := indentOf(line)
	if p != kq+6 || line[kq] != '"' || !hasFoldAt(line, kq+1, "type\"") {
		return
	}
	t := he + 1
	if t < len(line) && line[t] == ',' {
		t++
	}
	if skipBlanks(line, t) != len(line) || e.open {
		return
	}
	e.setPending(mlState{mode: modeJSONValue, keyCol: kq, rule: ri})
}
