package redact

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFlagCorpus runs testdata/redact/flags.txt: one-shot, idempotent, and
// through a Writer split at every offset (one worker), at sixteen offsets
// (two workers) and a byte at a time, embedded in random safe text as the
// other corpora are.
func TestFlagCorpus(t *testing.T) {
	cases := loadCorpus(t, "flags.txt")
	require.GreaterOrEqual(t, len(cases), 40)
	redacted := 0
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newCaseRedactor(t, c)
			got := r.String(c.in)
			require.Equal(t, c.out, got, "%s", c.pos)
			require.Equal(t, got, r.String(got), "%s: markers are redacted again", c.pos)
			if c.out != c.in {
				redacted++
				require.Contains(t, got, "[REDACTED:", "%s", c.pos)
			} else {
				w := r.NewWriterOptions(&strings.Builder{}, WriterOptions{Workers: 1})
				_, err := w.Write([]byte(c.in))
				require.NoError(t, err)
				require.NoError(t, w.Close())
				require.Empty(t, w.Counts(), "%s: a clean case counted redactions", c.pos)
			}
			rng := rand.New(rand.NewPCG(uint64(i), 11))
			in, want := embed(c, rng)
			require.Equal(t, want, r.String(in), "%s: embedded", c.pos)
			for k := 0; k <= len(in); k++ {
				if got := writeSplit(t, r, in, []int{k}, WriterOptions{Workers: 1}); got != want {
					require.Equal(t, want, got, "%s: split at %d", c.pos, k)
				}
			}
			for k := 0; k <= len(in); k += 1 + len(in)/16 {
				opt := WriterOptions{Workers: 2, RegionSize: 1 + rng.IntN(len(in))}
				require.Equal(t, want, writeSplit(t, r, in, []int{k}, opt), "%s: parallel, split at %d", c.pos, k)
			}
			var ones []int
			for k := 1; k < len(in); k++ {
				ones = append(ones, k)
			}
			require.Equal(t, want, writeSplit(t, r, in, ones, WriterOptions{Workers: 1}), "%s: byte at a time", c.pos)
		})
	}
	require.GreaterOrEqual(t, redacted, 25, "the file must hold at least 25 command lines with secrets")
}

// The output rule reads a command line with the same grammar as argv: for
// every argv case, the line a set -x trace would print is redacted to the
// line of the redacted argv (words without blanks, so that joining them is
// the shell's quoting).
func TestFlagRulesMatchArgvGrammar(t *testing.T) {
	r, err := New(Config{})
	require.NoError(t, err)
	rules := DefaultArgvRules()
	watched := func(prog string) bool {
		for _, p := range outputPrograms {
			if strings.HasPrefix(prog, strings.Fields(p)[0]) {
				return true
			}
		}
		return false
	}
	// Where output knows less than argv: a program after options before its
	// subcommand (the literal is "docker login"), and a program name as an
	// argument of a program that is no runner (output cannot tell).
	differs := map[string]bool{
		"docker -H tcp://h:2375 login -p S3cret":                                true,
		"aws --profile prod configure set default.aws_secret_access_key S3cret": true,
		"echo mysql -pS3cret": true,
	}
	checked := 0
	for _, c := range argvCases {
		in := splitTestArgv(c.in)
		if strings.Contains(c.in, "|") || !watched(string(argBase([]byte(in[0])))) || differs[c.in] {
			continue // the output rule watches only outputPrograms
		}
		want := strings.Join(rules.Argv(in), " ")
		line := "+ " + strings.Join(in, " ")
		// Spans must agree; ids may not where the assignment rule also sees
		// NAME=VALUE (the corpus checks ids).
		got := markerIDs.ReplaceAllString(r.String(line), "[REDACTED]")
		require.Equal(t, "+ "+markerIDs.ReplaceAllString(want, "[REDACTED]"), got, "argv %q", c.in)
		checked++
	}
	require.Greater(t, checked, 40)
}

var markerIDs = regexp.MustCompile(`\[REDACTED:[a-z-]+\]`)

func TestOutputProgramsAreInTheTable(t *testing.T) {
	rules := DefaultArgvRules()
	for _, p := range outputPrograms {
		f := strings.Fields(p)
		found := false
		for prog, entries := range rules.byProg {
			if !strings.HasPrefix(prog, f[0]) {
				continue
			}
			// a name alone, or with a flag it takes (zip -p: zip alone
			// is in too much output)
			if len(f) == 1 || prog == f[0] && strings.HasPrefix(f[1], "-") {
				found = true
			}
			for _, e := range entries {
				found = found || (len(f) > 1 && prog == f[0] && len(e.words) > 0 && e.words[0] == f[1])
			}
		}
		require.True(t, found, "%q starts no table program (and word)", p)
	}
}

func TestLexCommand(t *testing.T) {
	for _, c := range []struct {
		line   string
		strict bool
		words  []string
	}{
		{`a b  c`, false, []string{"a", "b", "c"}},
		{`a b  c`, true, []string{"a", "b"}},
		{`a 'b c' "d \"e\" \$f" g\ h`, false, []string{"a", "b c", `d "e" $f`, "g h"}},
		{`a $'b\'c' d`, false, []string{"a", "b'c", "d"}},
		{`a;b`, false, []string{"a"}},
		{`a | b`, false, []string{"a"}},
		{`"x", "y","z"]`, true, []string{"x", "y", "z"}},
		{`"a"b "c"d`, false, []string{"ab", "cd"}},
		{`'unterminated b`, false, []string{"unterminated b"}},
		{`-p'x'"y"z`, false, []string{"-pxyz"}},
	} {
		lx := newCmdLexer(nil, nil)
		lx.lex([]byte(c.line), 0, 100, c.strict)
		var got []string
		for i := range lx.words {
			got = append(got, string(lx.text(i)))
		}
		require.Equal(t, c.words, got, "%q strict=%v", c.line, c.strict)
	}
	// rawSpan maps text offsets back to the line
	line := []byte(`x -p'ab'"cd" y`)
	lx := newCmdLexer(nil, nil)
	lx.lex(line, 2, 10, true)
	require.Equal(t, "-pabcd", string(lx.text(0)))
	s, e := lx.rawSpan(line, 0, 2, 6)
	require.Equal(t, `ab'"cd`, string(line[s:e]))
}
