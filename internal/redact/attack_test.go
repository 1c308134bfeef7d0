package redact

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Regressions for the holes an attack run found: private-key bodies after
// anything that precedes the header on its line, PEM in escaped one-line
// forms, and tokens after percent-encoded or backslash-escaped separators.
// All key and token text is assembled here at run time.

const (
	pemDashes = "-----"
	pemMarker = "[REDACTED:private-key]"
)

func pemHeader(label string) string {
	return pemDashes + "BEGIN " + label + " PRIVATE" + " KEY" + pemDashes
}
func pemFooter(label string) string {
	return pemDashes + "END " + label + " PRIVATE" + " KEY" + pemDashes
}

// fakePEMBody returns n base64 lines of a fake key, the last one short and
// padded, as a PEM encoder wraps them.
func fakePEMBody(rng *rand.Rand, n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = rs(rng, alnum62+"+/", 64)
	}
	lines[n-1] = lines[n-1][:30] + "=="
	return lines
}

// requireNoBodyLeft checks that no body line's central 12 bytes (nor their
// JSON or percent encodings) reach out.
func requireNoBodyLeft(t *testing.T, out string, body []string, msg string) {
	t.Helper()
	for _, l := range body {
		for _, f := range survivalForms(l) {
			require.NotContains(t, out, f, "%s: key material survived", msg)
		}
	}
}

// requireStreams checks that the Writer gives want for in at every split
// offset, byte at a time, and with parallel workers on tiny regions.
func requireStreams(t *testing.T, r *Redactor, in, want, msg string) {
	t.Helper()
	for k := 0; k <= len(in); k++ {
		if got := writeSplit(t, r, in, []int{k}, WriterOptions{Workers: 1}); got != want {
			require.Equal(t, want, got, "%s: split at %d", msg, k)
		}
	}
	ones := make([]int, 0, len(in))
	for k := 1; k < len(in); k++ {
		ones = append(ones, k)
	}
	require.Equal(t, want, writeSplit(t, r, in, ones, WriterOptions{Workers: 1}), "%s: byte at a time", msg)
	for _, size := range []int{1, 16, 100} {
		require.Equal(t, want, writeSplit(t, r, in, ones, WriterOptions{Workers: 2, RegionSize: size}), "%s: parallel, region %d", msg, size)
	}
}

// TestPEMBodyAfterAnyPrefix: whatever precedes the header on its line, and
// whether or not the body lines repeat it (exactly, with other digits, in
// part or not at all), the body is redacted and the rest stays.
func TestPEMBodyAfterAnyPrefix(t *testing.T) {
	stamp := func(i int) string { // kubectl logs --timestamps trims trailing zeros
		return "2026-01-01T10:00:0" + fmt.Sprint(i%10) + "." + "123456789"[:1+i%9] + "Z stdout F "
	}
	for _, tc := range []struct {
		name string
		hdr  string             // before the header
		line func(i int) string // before body line i; i == len(body) is the footer
		tail string             // after the header, every body line and the footer
		end  string             // after the footer
		eol  string
	}{
		{name: "shell export", hdr: `export SSH_PRIVATE_KEY="`, end: `"`},
		{name: "dotenv", hdr: "KEY="},
		{name: "yaml plain scalar", hdr: "key: ", line: func(int) string { return "  " }},
		{name: "opening quote", hdr: `"`, end: `"`},
		{name: "log prefix", hdr: "2026-01-01 INFO key="},
		{name: "colour code", hdr: "\x1b[32m", end: "\x1b[0m"},
		{name: "colour per line", hdr: "\x1b[32m", line: func(int) string { return "\x1b[32m" }, tail: "\x1b[0m"},
		{name: "yaml block scalar", hdr: "    ", line: func(int) string { return "    " }},
		{name: "tab indent", hdr: "\t", line: func(int) string { return "\t" }},
		{name: "git diff", hdr: "+", line: func(int) string { return "+" }},
		{name: "shell comment", hdr: "# ", line: func(int) string { return "# " }},
		{name: "log line per key line", hdr: stamp(0), line: func(i int) string { return stamp(i + 1) }},
		{name: "journald per line", hdr: "Jan 01 10:00:00 host app[812]: ", line: func(int) string { return "Jan 01 10:00:00 host app[812]: " }},
		{name: "grep of a dotenv file", hdr: ".env:KEY=", line: func(int) string { return ".env:" }},
		{name: "crlf", eol: "\r\n"},
		{name: "crlf after a prefix", hdr: "key: ", eol: "\r\n"},
		{name: "crlf log per line", hdr: stamp(0), line: func(i int) string { return stamp(i + 1) }, eol: "\r\n"},
		{name: "long prefix", hdr: strings.Repeat("x", 300) + " "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(tc.name)), 11))
			body := fakePEMBody(rng, 5)
			eol := tc.eol
			if eol == "" {
				eol = "\n"
			}
			line := tc.line
			if line == nil {
				line = func(int) string { return "" }
			}
			var in, want strings.Builder
			in.WriteString("before" + eol + tc.hdr + pemHeader("RSA") + tc.tail + eol)
			want.WriteString("before" + eol + tc.hdr + pemHeader("RSA") + tc.tail + eol)
			for i, b := range body {
				in.WriteString(line(i) + b + tc.tail + eol)
			}
			want.WriteString(line(0) + pemMarker + tc.tail + eol)
			foot := line(len(body)) + pemFooter("RSA") + tc.tail + tc.end + eol + "after" + eol
			in.WriteString(foot)
			want.WriteString(foot)
			r := mustNew(t, Config{})
			got := r.String(in.String())
			requireNoBodyLeft(t, got, body, tc.name)
			require.Equal(t, want.String(), got)
			requireStreams(t, r, in.String(), want.String(), tc.name)

			// Without a footer the whole body that follows goes.
			noFoot := strings.TrimSuffix(in.String(), foot) + "$ ls" + eol
			wantNoFoot := strings.TrimSuffix(want.String(), foot) + "$ ls" + eol
			got = r.String(noFoot)
			requireNoBodyLeft(t, got, body, tc.name+", no footer")
			require.Equal(t, wantNoFoot, got, "no footer")
		})
	}
}

// TestPEMEscapedOneLine: the one-line forms of a key inside a string, with
// JSON escapes and with the escapes escaped again, footer or not.
func TestPEMEscapedOneLine(t *testing.T) {
	r := mustNew(t, Config{})
	for _, esc := range []string{`\n`, `\\n`, `\r\n`, `\\r\\n`, `\\\\n`} {
		for _, footer := range []bool{true, false} {
			name := fmt.Sprintf("%s footer=%v", esc, footer)
			rng := rand.New(rand.NewPCG(uint64(len(esc)), 12))
			body := fakePEMBody(rng, 4)
			lead := `{"type": "service_account", "private_key": "` + pemHeader("RSA")
			in := lead + esc + strings.Join(body, esc) + esc
			want := lead + pemMarker
			if footer {
				in += pemFooter("RSA") + esc
				want += pemFooter("RSA") + esc
			} else {
				want = lead + esc + pemMarker
			}
			in += `", "client_email": "ci@acme.iam.gserviceaccount.com"}` + "\n"
			want += `", "client_email": "ci@acme.iam.gserviceaccount.com"}` + "\n"
			got := r.String(in)
			requireNoBodyLeft(t, got, body, name)
			require.Equal(t, want, got, name)
			requireStreams(t, r, in, want, name)
		}
	}
}

// TestPEMMentionStaysQuiet: a header that is quoted in code starts no body,
// so the lines after it stay, even when they look like base64.
func TestPEMMentionStaysQuiet(t *testing.T) {
	r := mustNew(t, Config{})
	for _, in := range []string{
		"if (line == \"" + pemHeader("RSA") + "\") {\n\treturn\n}\n",
		"grep '" + pemHeader("EC") + "' *.pem\nnothing\n",
		"strings.HasPrefix(s, `" + pemHeader("RSA") + "`)\nreturn\n",
	} {
		require.Equal(t, in, r.String(in))
	}
}

// TestTokenAfterEscapedSeparator: a token right after a percent-encoded
// byte or a backslash escape is redacted; one glued to a real letter or
// digit, or after something that only looks like an escape, is not.
func TestTokenAfterEscapedSeparator(t *testing.T) {
	r := mustNew(t, Config{})
	seps := []string{"%20", "%3D", "%3d", "%2F", "%22", "%3A", "%253D", `\n`, `\t`, `\r`, `\"`, `\\`, `\u0022`, `\\n`}
	glued := []string{"", "x", "%2", "%G0", "%zz", `\q`, `\u00`, "0"}
	rng := rand.New(rand.NewPCG(13, 14))
	tested := 0
	for _, row := range diffRows {
		if row.lb != "" {
			continue // rules without a word boundary on the left
		}
		for _, sep := range seps {
			// Some examples are near misses on purpose: the same token after
			// a space says what a real separator gives.
			tok := row.example(rng)
			const open = `{"msg":"a `
			spaced := r.String(open + tok + ` b"}`)
			if !strings.HasPrefix(spaced, open+"[REDACTED:") {
				continue
			}
			in := `{"msg":"a` + sep + tok + ` b"}`
			want := `{"msg":"a` + sep + spaced[len(open):]
			require.Equal(t, want, r.String(in), "%s after %s", row.name, sep)
			tested++
			for _, g := range glued {
				in := "a" + g + tok + " b"
				require.Equal(t, in, r.String(in), "%s glued to %q", row.name, g)
			}
		}
	}
	require.Greater(t, tested, 15*len(seps), "too few token examples were tokens")
}
