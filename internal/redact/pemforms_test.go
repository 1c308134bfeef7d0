package redact

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Keys written as source code, one string literal per line: the header and
// footer literals stay, the first body literal's base64 becomes the marker
// and the later body lines go.
func TestPEMStringLiterals(t *testing.T) {
	r := mustNew(t, Config{})
	hdr, foot := pemHeader("RSA"), pemFooter("RSA")
	for _, tc := range []struct {
		name string
		// each format's lines, with %s for the header, the body lines and
		// the footer
		head, body, tail string
		lead             string // before the head line
	}{
		{name: "Go", lead: "const testKey = ", head: `"%s\n" +`, body: "\t" + `"%s\n" +`, tail: "\t" + `"%s\n"`},
		{name: "Go, in a git diff", lead: "+const testKey = ", head: `"%s\n" +`, body: "+\t" + `"%s\n" +`, tail: "+\t" + `"%s\n"`},
		{name: "C macro", lead: "#define KEY ", head: `"%s\n" \`, body: `    "%s\n" \`, tail: `    "%s\n"`},
		{name: "C adjacent literals", lead: "    ", head: `"%s\n"`, body: `    "%s\n"`, tail: `    "%s\n";`},
		{name: "no escapes", lead: "  ", head: `"%s" +`, body: `  "%s" +`, tail: `  "%s"`},
		{name: "JSON array of lines", lead: "  ", head: `"%s",`, body: `  "%s",`, tail: `  "%s"`},
		{name: "Python, single quotes", lead: "KEY = (", head: `'%s\n'`, body: `       '%s\n'`, tail: `       '%s\n')`},
		{name: "PHP", lead: "$key = ", head: `"%s\n" .`, body: `    "%s\n" .`, tail: `    "%s\n";`},
		{name: "CRLF escapes", lead: "k = ", head: `"%s\r\n" +`, body: `    "%s\r\n" +`, tail: `    "%s\r\n"`},
		{name: "JSON in a string", lead: "  ", head: `"%s\\n",`, body: `  "%s\\n",`, tail: `  "%s\\n"`},
		{name: "coloured by a highlighter", lead: "\x1b[38;5;81mconst\x1b[0m k = ", head: "\x1b[38;5;186m\"%s\\n\"\x1b[0m +", body: "\t\x1b[38;5;186m\"%s\\n\"\x1b[0m +", tail: "\t\x1b[38;5;186m\"%s\\n\"\x1b[0m"},
	} {
		for _, eol := range []string{"\n", "\r\n"} {
			rng := rand.New(rand.NewPCG(uint64(len(tc.name)), 13))
			body := fakePEMBody(rng, 4)
			var in, want strings.Builder
			in.WriteString("// a key for tests" + eol + tc.lead + fmt.Sprintf(tc.head, hdr) + eol)
			want.WriteString("// a key for tests" + eol + tc.lead + fmt.Sprintf(tc.head, hdr) + eol)
			for _, b := range body {
				in.WriteString(fmt.Sprintf(tc.body, b) + eol)
			}
			want.WriteString(fmt.Sprintf(tc.body, pemMarker) + eol)
			in.WriteString(fmt.Sprintf(tc.tail, foot) + eol + "func f() {}" + eol)
			want.WriteString(fmt.Sprintf(tc.tail, foot) + eol + "func f() {}" + eol)
			name := fmt.Sprintf("%s eol %q", tc.name, eol)
			got := r.String(in.String())
			requireNoBodyLeft(t, got, body, name)
			require.Equal(t, want.String(), got, name)
			requireStreams(t, r, in.String(), want.String(), name)
		}
	}
}

// A header literal with no body literals after it, or one mentioned in
// code, leaves the next lines alone.
func TestPEMStringLiteralsStayQuiet(t *testing.T) {
	r := mustNew(t, Config{})
	for _, in := range []string{
		"if strings.HasPrefix(s, \"" + pemHeader("RSA") + "\") {\n\t\"aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ=\",\n}\n",
		"var hdr = \"" + pemHeader("RSA") + "\"\nvar x = \"aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ=\"\n",
		"headers := []string{\n\t\"" + pemHeader("RSA") + "\",\n\t\"" + pemHeader("EC") + "\",\n}\n",
		"fmt.Println(\"" + pemHeader("RSA") + "\" + x)\n\"YWJjZGVmZ2hpamtsbW5vcA==\" +\n",
	} {
		require.Equal(t, in, r.String(in))
		requireStreams(t, r, in, in, "quiet")
	}
}

// ppkRedactor returns a Redactor whose table has the PuTTY row (ppkRule).
// The row belongs in builtinRules; until it is there, it is added here the
// way New adds a row.
func ppkRedactor(t testing.TB) *Redactor {
	t.Helper()
	r := mustNew(t, Config{})
	if slices.Contains(r.pats, "private-lines:") {
		return r
	}
	ri := int32(len(r.rules))
	r.rules = append(r.rules, compiledRule{rule: ppkRule()})
	r.markers = append(r.markers, []byte("[REDACTED:private-key]"))
	r.pats = append(r.pats, "private-lines:")
	r.patRules = append(r.patRules, []int32{ri})
	r.patLens = append(r.patLens, int32(len("private-lines:")))
	r.folded = append(r.folded, "private-lines:")
	return r
}

// PuTTY keys (.ppk): the N lines after "Private-Lines: N" are the private
// key; the public lines and the MAC stay.
func TestPuTTYPrivateLines(t *testing.T) {
	r := ppkRedactor(t)
	rng := rand.New(rand.NewPCG(41, 1))
	const b64 = alnum62 + "+/"
	pub := []string{rs(rng, b64, 64), rs(rng, b64, 40) + "=="}
	priv := []string{rs(rng, b64, 64), rs(rng, b64, 64), rs(rng, b64, 24) + "="}
	for _, tc := range []struct{ name, prefix, eol string }{
		{name: "file", eol: "\n"},
		{name: "grep", prefix: "id_rsa.ppk:", eol: "\n"},
		{name: "pty", eol: "\r\n"},
		{name: "coloured", prefix: "\x1b[35mid_rsa.ppk\x1b[m\x1b[36m:\x1b[m", eol: "\n"},
	} {
		var in, want strings.Builder
		line := func(s string, w bool) {
			in.WriteString(tc.prefix + s + tc.eol)
			if w {
				want.WriteString(tc.prefix + s + tc.eol)
			}
		}
		line("PuTTY-User-Key-File-3: ssh-rsa", true)
		line("Encryption: none", true)
		line("Comment: rsa-key-20260101", true)
		line("Public-Lines: 2", true)
		for _, p := range pub {
			line(p, true)
		}
		line("Private-Lines: 3", true)
		line(priv[0], false)
		want.WriteString(tc.prefix + pemMarker + tc.eol)
		line(priv[1], false)
		line(priv[2], false)
		line("Private-MAC: "+rs(rng, "0123456789abcdef", 64), true)
		got := r.String(in.String())
		require.Equal(t, want.String(), got, tc.name)
		requireNoBodyLeft(t, got, priv, tc.name)
		requireStreams(t, r, in.String(), want.String(), tc.name)
	}
	// The count is the end: a base64 line after the key stays.
	in := "Private-Lines: 1\n" + priv[0] + "\n" + pub[0] + "\n"
	require.Equal(t, "Private-Lines: 1\n"+pemMarker+"\n"+pub[0]+"\n", r.String(in))
	// Prose that names the field starts nothing a non-base64 line ends.
	in = "Private-Lines: 4\nis the count of the lines that follow\n"
	require.Equal(t, in, r.String(in))
}
