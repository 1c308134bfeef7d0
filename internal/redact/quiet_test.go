package redact

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// noQuietShortcut is the redactor and the same without quietName (the
// Author shortcut stays in both: TestAuthorShortcutLosesNothing has it).
func noQuietShortcut(t testing.TB, cfg Config) (*Redactor, *Redactor) {
	t.Helper()
	fast := mustNew(t, cfg)
	slow := mustNew(t, cfg)
	require.Contains(t, fast.nameLit, true)
	clear(slow.nameLit)
	return fast, slow
}

// quietLine reports whether every hit of line is quiet.
func quietLine(r *Redactor, line string) bool {
	e := r.getEngine()
	defer r.putEngine(e)
	b := []byte(line)
	hits := r.auto().scan(b, nil)
	for _, h := range hits {
		if !e.quietHit(b, h) {
			return false
		}
	}
	return len(hits) > 0
}

func TestQuietName(t *testing.T) {
	r := mustNew(t, Config{})
	for _, tc := range []struct {
		line  string
		quiet bool
	}{
		{"--- PASS: TestsessionID (0.08s)", true},
		{"    --- PASS: TestX/sub_case (0.00s)", true},
		{"SSH_AUTH_SOCK=/tmp/ssh-XXXX/agent.1", true},
		{"TOKENIZERS_PARALLELISM=false", true},
		{"PWD=/home/dev/src/app", true},
		{"OLDPWD=/home/dev", true},
		{"kind: Secret", false}, // no hit of a name literal
		{"GH_TOKEN=ghp_x", false},
		{"pass = hunter2hunter2", false},
		{"pass=hunter2hunter2", false},
		{"x?pwd=hunter2hunter2", false},
		{"Uid=sa;Pwd=hunter2hunter2;", false},
		{"Pwd=hunter2hunter2;Uid=sa", true}, // the word ends in a, not ;: not a connection string to contextName
		{"--password=hunter2hunter2", false},
		{"PASS:=hunter2hunter2", false},
		{"${PWD:-hunter2hunter2}", false},
		{"PASS hunter2hunter2", false}, // a name and blanks: assign's column and keyword forms
		{"=== RUN   TesttokenSource", true},
		{"\tToken: cfg.Token,", false}, // Token: is secret-like
		{"\toffset := ctx.tokenSource(ctx)", true},
		{"--token", false},
		{"api_token", true},
		{"x api_token y", true}, // a name and a word, not at the line's start: no column form
		{"api_token y", false},  // at the line's start: assign's column form
		{"+ api_token y", false},
		{"a.env:3: api_token y", false}, // after grep -n's prefix
		{"--- PASS: TesttokenSource (0.06s)", true},
		{"--- FAIL: TestauthHeader (0.08s)", true},
		{"    auth loader server", false},
		{"x db_password y", false}, // assignKeyword's
		{"x api_token = y", false},
		{"x api_token -> y", true}, // the column form again, not at the line's start
		{"api_token -> y", false},
		{"npm config set //host/:_authToken x", false},
		{"x api_token ", true},
		{"x --api_token y", false},
		{`{"max_tokens":1024,"token_count": 1301}`, true},
		{`{"token_count":"1301"}`, false},
		{`{"token_count":0x1c,"a":1}`, true},
		{`{"token_count":1301`, true}, // the end of the input ends the line, and the number
		{`{"api_token":12ab}`, false},
		{`{"api_token"::1}`, false},
		{`{"api_token":=1}`, false},
		{`{api_token":1}`, true}, // assign reads a quoted name by the quote after it
		{`{"api_token"]:1}`, false},
		{"api_token|", false},
		{"api_token>", false},
		{"\"api_token\"", false},
		{"{\\\"api_token\\\": 1}", false},
		{"db_password: hunter2hunter2", false},
	} {
		require.Equal(t, tc.quiet, quietLine(r, tc.line), "%q", tc.line)
	}
}

// An arrow with nothing after it, after an npmrc key, is no value: assign
// read past the line's end there (index out of range, and the Writer's
// stream failed with ErrRedactorFailed); so is a blank and ; after =.
func TestArrowWithoutValue(t *testing.T) {
	r := mustNew(t, Config{})
	for _, in := range []string{"npm config set //h/:api_token -> ", "npm config set //h/:api_token ->", "//h/:_authToken -> \n",
		"!TOKEN= ;0000000;"} { // a connection string's empty value: wordValueEnd ended it before its start
		require.Equal(t, in, r.String(in))
	}
	require.Equal(t, "//h/:_authToken -> [REDACTED:secret-assignment]", r.String("//h/:_authToken -> Xk35pQ9zLm2vBq7R"))
}

// TestQuietHitLosesNothing compares the redactor with and without quietName
// on every shape of the bench's corpus and on names of every kind quietName
// reads, before the operators and values assignSeparated tells apart.
func TestQuietHitLosesNothing(t *testing.T) {
	fast, slow := noQuietShortcut(t, Config{EnvNames: []string{"MY_PWD_VAR"}})
	for _, sample := range redacttest.SplitCorpus(256 << 10) {
		for line := range bytes.Lines(sample) {
			// line by line: a whole shape in a failure message is unreadable
			require.Equal(t, string(slow.Bytes(line)), string(fast.Bytes(line)))
		}
		require.Equal(t, len(slow.Bytes(sample)), len(fast.Bytes(sample)))
	}
	names := []string{"PASS", "pass", "Pass", "PWD", "pwd", "OLDPWD", "pw", "PW", "sig", "SIG", "x_signature", "SSH_AUTH_SOCK",
		"TOKENIZERS_PARALLELISM", "GIT_AUTHOR_NAME", "api_token", "DB_PASSWORD", "my_pwd_var", "MY_PWD_VAR", "secretKeyRef", "key", "keys", "token"}
	values := []string{"", "hunter2hunter2", "hunter2hunter2;", "Xk35pQ9zLm2v;Uid=sa", "TestX (0.08s)", "\"Xk35pQ9zLm2v\"", "1024", "{Xk35;pQ9}", "/home/dev", "|", "correct horse battery staple"}
	// Two products, each small enough for -race: the bytes before and
	// after a name that assignSeparated tells apart, and those of the forms
	// quietBlank and quietQuoted read (a name and blanks; a quoted name).
	products := []struct{ before, names, seps, values []string }{{
		before: []string{"", " ", "<", "--- ", "-", "--", "?", "&", "#", ";", "; ", "x;", "//", "${", "\"", "'", "export "},
		names:  names,
		seps: []string{"=", ":", ": ", " = ", "==", "=~", "=>", ":=", "::", ":-", ":?", ":+", "= ", "=\t", "\":\"", "='",
			"", " ", "\t", "(", ")", ",", ";", "/", "||=", "?=", ">", "'", "\\\"", " -> ", "  ", "\r", "!", "@", "[", "]"},
		values: values,
	}, {
		before: []string{"", "x ", "+ ", "--- PASS: ", "a.env:3: ", "a.env: ", "//h/:", "npm config set //h/:", "{\"a\":1,\"", "\"", "['", "x '", "<"},
		names:  append(names[:len(names):len(names)], "password", "PASSWORD", "Password"),
		seps: []string{" ", " (", " x ", " :", " =", " ||=", " ?=", " >", " -", " -> ", "\t",
			"\":", "\": ", "\" : ", "\"::", "\":=", "\"]:", "\",", "':", "\"\t:", "\"="},
		values: append(values[:len(values):len(values)], "1024,", "0x1c}", "12:30 x", "3.5s", "'Xk35pQ9zLm2v'", "Xk35pQ9zLm2v Uid"),
	}}
	var all strings.Builder
	n := 0
	for _, p := range products {
		for _, b := range p.before {
			for _, nm := range p.names {
				for _, sep := range p.seps {
					for _, v := range p.values {
						in := b + nm + sep + v + "\n"
						all.WriteString(in)
						got := fast.String(in)
						require.Equal(t, slow.String(in), got, "%q", in)
						last := in[:len(in)-1] // the name at the end of the input
						require.Equal(t, slow.String(last), fast.String(last), "%q", last)
						if quietLine(fast, in) {
							n++
						}
					}
				}
			}
		}
	}
	require.Positive(t, n, "no line was quiet: the test compares nothing")
	// the same lines as one stream, through the Writer's regions
	var fo, so bytes.Buffer
	for _, p := range []struct {
		r *Redactor
		b *bytes.Buffer
	}{{fast, &fo}, {slow, &so}} {
		w := p.r.NewWriterOptions(p.b, WriterOptions{Workers: 2})
		_, err := w.Write([]byte(all.String()))
		require.NoError(t, err)
		require.NoError(t, w.Close())
	}
	require.Equal(t, so.String(), fo.String())
}

// FuzzQuietHit: quietName never changes what is redacted.
func FuzzQuietHit(f *testing.F) {
	for _, s := range []string{"--- PASS: TestX (0.08s)\n", "PWD=/home\n", "a?pwd=x;\n", "pass = x\n", "Pwd=abcdef;\n", "SSH_AUTH_SOCK=/x\nGH_TOKEN=ghp_abc\n"} {
		f.Add(s)
	}
	fast, slow := noQuietShortcut(f, Config{})
	f.Fuzz(func(t *testing.T, in string) {
		require.Equal(t, slow.String(in), fast.String(in), "%q", in)
	})
}

// TestNameSkipIsNameBytes: quietName steps over nameSkip bytes of a hit's
// literal without looking at them, which is right only when every one of
// them is a name byte and the literal is shorter than the longest name
// nameEnd takes: with the skip, nameEnd's answer is the same.
func TestNameSkipIsNameBytes(t *testing.T) {
	r := devRedactor(t)
	skipped := 0
	for i, p := range r.pats {
		n := int(r.nameSkip[i])
		if n == 0 {
			continue
		}
		skipped++
		if n != len(p) || n >= 128 {
			t.Fatalf("literal %q: nameSkip %d", p, n)
		}
		for j := 0; j < len(p); j++ {
			if !nameSet[p[j]] {
				t.Fatalf("literal %q: byte %q is not a name byte, nameSkip %d", p, p[j], n)
			}
		}
		for _, line := range []string{p, p + "=x", "A_" + p + "_B: y", "-" + p + " z", p + strings.Repeat("x", 140), strings.Repeat("y", 125) + p + "=v"} {
			hs := strings.Index(line, p)
			ne, ok := nameEnd([]byte(line), hs)
			ne2, ok2 := nameEndFrom([]byte(line), hs, hs+n)
			if ne != ne2 || ok != ok2 {
				t.Fatalf("%q at %d: nameEnd %d %v, from the literal's end %d %v", line, hs, ne, ok, ne2, ok2)
			}
		}
	}
	if skipped < 20 {
		t.Fatalf("only %d literals are skipped: the name literals (pass, token, auth) should be", skipped)
	}
}

// TestWordEndMatchesBytes compares wordEnd's eight-byte steps with the
// byte-by-byte walk at every start of words that end at each blank, at
// control bytes that are not blanks, at bytes of 0x80 and above, and at
// the end of the slice, across step boundaries.
func TestWordEndMatchesBytes(t *testing.T) {
	var ends = []byte{' ', '\t', '\r', '\n', '\v', '\f', 0, 1, 0x1b, 0x1f, '!', 0x7f, 0x80, 0xa0, 0xff}
	for _, c := range ends {
		for n := 0; n <= 20; n++ {
			for tail := 0; tail <= 9; tail++ {
				b := append(bytes.Repeat([]byte{'x'}, n), c)
				b = append(b, bytes.Repeat([]byte{'y'}, tail)...)
				for k := 0; k <= len(b); k++ {
					if got, want := wordEnd(b, k), wordEndBytes(b, k); got != want {
						t.Fatalf("wordEnd(%q, %d) = %d, want %d", b, k, got, want)
					}
				}
			}
		}
	}
}

// FuzzWordEnd compares wordEnd with wordEndBytes on any bytes.
func FuzzWordEnd(f *testing.F) {
	f.Add([]byte("PASS: TestsessionID (0.08s)"), 6)
	f.Add([]byte("PWD=/home/dev/src/app\n"), 4)
	f.Add([]byte("x\x01y\x1bz\xa0\xff w"), 0)
	f.Fuzz(func(t *testing.T, b []byte, k int) {
		if k < 0 || k > len(b) {
			return
		}
		if got, want := wordEnd(b, k), wordEndBytes(b, k); got != want {
			t.Fatalf("wordEnd(%q, %d) = %d, want %d", b, k, got, want)
		}
	})
}

// quietRun takes quietHit's steps in its own loop (a call a hit less on
// region's hot path): every hit of the bench's corpus and of the quiet
// cases above gets the same verdict from both, so the copy quietRun runs
// cannot drift from the one the tests above hold.
func TestQuietRunIsQuietHit(t *testing.T) {
	r := mustNew(t, Config{EnvNames: []string{"MY_PWD_VAR"}})
	e := r.getEngine()
	defer r.putEngine(e)
	var extra strings.Builder
	for _, b := range []string{"", "--- PASS: ", "x ", "a.env:3: ", "//h/:", "Author: ", "export "} {
		for _, nm := range []string{"PASS", "pwd", "api_token", "SSH_AUTH_SOCK", "DB_PASSWORD", "auth", "token"} {
			for _, sep := range []string{"", "=", ": ", " ", " -> ", "\":", "(", "\t"} {
				extra.WriteString(b + nm + sep + "TestX (0.08s)\n")
			}
		}
	}
	samples := append(redacttest.SplitCorpus(256<<10), []byte(extra.String()))
	quiet := 0
	for _, sample := range samples {
		src := sample[:bytes.LastIndexByte(sample, '\n')+1] // whole lines, as region has them
		hits := r.auto().scan(src, nil)
		for i, h := range hits {
			want := r.mayQuiet[h.pat] && !notQuietAfter(src, h.end) && e.quietHit(src, h)
			got := e.quietRun(src, hits[i:i+1]) == 1
			require.Equal(t, want, got, "hit %q at %d", r.pats[h.pat], h.end)
			if want {
				quiet++
			}
		}
	}
	require.Greater(t, quiet, 1000, "the corpus holds quiet hits")
}
