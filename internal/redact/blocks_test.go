package redact

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const assignMarker = "[REDACTED:secret-assignment]"

// writeAll runs in through a Writer with opt in writes of step bytes.
func writeAll(t *testing.T, r *Redactor, in string, step int, opt WriterOptions) (string, map[string]int) {
	t.Helper()
	var out bytes.Buffer
	w := r.NewWriterOptions(&out, opt)
	for i := 0; i < len(in); i += step {
		_, err := w.Write([]byte(in[i:min(i+step, len(in))]))
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	return out.String(), w.Counts()
}

func TestYAMLBlockKeepsLinesAndCounts(t *testing.T) {
	r := mustNew(t, Config{})
	in := "db:\n  password: |\n    k9Qx2LmPzT\n\n    Zt8wQ1vB\n  host: db.internal\n"
	want := "db:\n  password: |\n    " + assignMarker + "\n\n    " + assignMarker + "\n  host: db.internal\n"
	require.Equal(t, want, r.String(in))
	for _, opt := range []WriterOptions{{Workers: 1}, {Workers: 2, RegionSize: 8}, {Workers: 4, RegionSize: 1}} {
		got, counts := writeAll(t, r, in, 3, opt)
		require.Equal(t, want, got, "%+v", opt)
		require.Equal(t, 2, counts["secret-assignment"], "%+v", opt)
	}
}

// A block is bounded: past blockMaxLines lines the rest is ordinary output.
func TestYAMLBlockBound(t *testing.T) {
	r := mustNew(t, Config{})
	var b strings.Builder
	b.WriteString("token: |\n")
	for range blockMaxLines {
		b.WriteString("  k9Qx2LmPzT\n")
	}
	b.WriteString("  plain words after the bound\n")
	got := r.String(b.String())
	require.Equal(t, blockMaxLines, strings.Count(got, assignMarker))
	require.True(t, strings.HasSuffix(got, "  "+assignMarker+"\n  plain words after the bound\n"))
	require.Equal(t, strings.Count(b.String(), "\n"), strings.Count(got, "\n"))
}

// A value line longer than the long-line threshold goes through the
// long-line path; the block goes on after it, and what the Writer emits
// does not depend on the write sizes.
func TestYAMLBlockLongLine(t *testing.T) {
	r := mustNew(t, Config{})
	long := strings.Repeat("k9Qx2LmPzT", (longLineThreshold+4096)/10)
	in := "api_key: >-\n  " + long + "\n  Zt8wQ1vBn3\nnext: 1\n"
	want := "api_key: >-\n  " + assignMarker + "\n  " + assignMarker + "\nnext: 1\n"
	require.Equal(t, want, r.String(in))
	for _, step := range []int{1 << 10, 5000, 32 << 10, len(in)} {
		got, _ := writeAll(t, r, in, step, WriterOptions{Workers: 1})
		require.Equal(t, want, got, "step %d", step)
	}
}

func TestYAMLBlockStarts(t *testing.T) {
	r := mustNew(t, Config{})
	for _, tc := range []struct {
		in    string
		value bool // the line after it is redacted
	}{
		{"password: |", true},
		{"password: >", true},
		{"password: |-", true},
		{"password: >+", true},
		{"password: |2-", true},
		{"password: |  # comment", true},
		{"- client_secret: |", true},
		{"'client_secret': |", true},
		{"password: !!binary |", true},
		{"password: !vault |", false},
		{"password: |x", false},
		{"password: | x", false},
		{"description: |", false},
		{"level=info password: |", false},
		{"password= |", false},
	} {
		got := r.String(tc.in + "\n      k9Qx2LmPzT\n")
		require.Equal(t, tc.value, strings.Contains(got, assignMarker), "%q: %q", tc.in, got)
	}
}

func TestJSONValueAfterName(t *testing.T) {
	r := mustNew(t, Config{})
	for _, tc := range []struct {
		name  string
		value bool
	}{
		{`"Name": "/prod/db/password",`, true},
		{`"name": "GITHUB_TOKEN",`, true},
		{`"Key": "api_key",`, true},
		{`"keyName": "client-secret",`, true},
		{`"Name": "/prod/db/password"`, true},
		{`"Name": "/prod/db/password_file",`, false},
		{`"Title": "/prod/db/password",`, false},
		{`"Name": "token" , "x": 1`, false},
	} {
		in := "    {\n        " + tc.name + "\n        \"Type\": \"String\",\n        \"Value\": \"k9Qx2LmPzT\"\n    }\n"
		got := r.String(in)
		require.Equal(t, tc.value, strings.Contains(got, `"Value": "`+assignMarker+`"`), "%q: %q", tc.name, got)
	}
	// The state ends with the object: a later object's value stays.
	in := "{\n  \"name\": \"DB_PASSWORD\",\n  \"valueFrom\": {}\n},\n{\n  \"name\": \"LOG\",\n  \"value\": \"k9Qx2LmPzT\"\n}\n"
	require.Equal(t, in, r.String(in))
	// And it is bounded.
	in = "{\n  \"name\": \"DB_PASSWORD\",\n" + strings.Repeat("  \"x\": 1,\n", objMaxLines) + "  \"value\": \"k9Qx2LmPzT\"\n}\n"
	require.Equal(t, in, r.String(in))
}

// The SecureString rule's matcher and the state it starts, on an engine:
// the rule is not in the table yet.
func TestSecureStringState(t *testing.T) {
	r := mustNew(t, Config{})
	e := newEngine(r)
	ri := int32(-1)
	for i, cr := range r.rules {
		if cr.id == "secret-assignment" {
			ri = int32(i)
			break
		}
	}
	require.GreaterOrEqual(t, ri, int32(0))
	start := func(line string) (mlState, bool) {
		e.hasPending = false
		e.open = false
		hs := strings.Index(line, "SecureString")
		if hs < 0 {
			return mlState{}, false
		}
		rl := secureStringRule()
		require.Equal(t, []string{"securestring"}, rl.literals)
		rl.match(e, []byte(line), hs, hs+len("SecureString"), ri, 0)
		return e.pending, e.hasPending
	}
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{`        "Type": "SecureString",`, true},
		{`    "type": "SecureString"`, true},
		{`        "Type": "SecureString", "Value": "x"`, false},
		{`        "DataType": "SecureString",`, false},
		{`        "Type": "SecureStringList",`, false},
		{`Type: SecureString`, false},
	} {
		_, ok := start(tc.line)
		require.Equal(t, tc.ok, ok, "%q", tc.line)
	}
	st, _ := start(`        "Type": "SecureString",`)
	require.Equal(t, modeJSONValue, st.mode)
	lines := []string{`        "Value": "k9Qx2LmPzT",`, `        "Version": 3`}
	e.spans = e.spans[:0]
	e.jsonValueLine([]byte(lines[0]), &st)
	require.Len(t, e.spans, 1)
	require.Equal(t, "k9Qx2LmPzT", lines[0][e.spans[0].start:e.spans[0].end])
	require.Equal(t, modeIdle, st.mode)
}
