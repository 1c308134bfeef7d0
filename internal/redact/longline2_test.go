package redact

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Long lines never turn block detection off: a key's header at the end of
// a line of any length starts the body state, whether or not its newline
// comes in a later write, and a body line longer than the long-line
// threshold is redacted however long it is.

// stepCuts cuts n bytes every step bytes.
func stepCuts(n, step int) []int {
	var cuts []int
	for k := step; k < n; k += step {
		cuts = append(cuts, k)
	}
	return cuts
}

// requireLongStreams checks that in comes out as want through writers of
// one and two workers, written whole, in steps, and with a cut at each of
// the offsets at.
func requireLongStreams(t *testing.T, r *Redactor, in, want string, at ...int) {
	t.Helper()
	for _, workers := range []int{1, 2} {
		opt := WriterOptions{Workers: workers}
		require.Equal(t, want, writeSplit(t, r, in, nil, opt), "whole, workers %d", workers)
		for _, k := range at {
			require.Equal(t, want, writeSplit(t, r, in, []int{k}, opt), "cut at %d, workers %d", k, workers)
		}
		for _, step := range []int{4093, 32 << 10, 100 << 10} {
			require.Equal(t, want, writeSplit(t, r, in, stepCuts(len(in), step), opt), "step %d, workers %d", step, workers)
		}
	}
}

func TestLongLinePEMHeaderAtEnd(t *testing.T) {
	r := mustNew(t, Config{})
	rng := rand.New(rand.NewPCG(31, 1))
	body := fakePEMBody(rng, 6)
	for _, n := range []int{70 << 10, 300 << 10, 1100 << 10, 3 << 20} {
		for _, tc := range []struct{ name, before, after string }{
			{name: "plain"},
			{name: "coloured", before: "\x1b[1;31m", after: "\x1b[0m"},
			{name: "trailing blanks", after: strings.Repeat(" ", 20<<10) + "\r"},
		} {
			pre := strings.Repeat("x", n) + " log: " + tc.before
			hdr := pemHeader("RSA") + tc.after
			in := pre + hdr + "\n" + strings.Join(body, "\n") + "\n" + pemFooter("RSA") + "\nafter\n"
			want := pre + hdr + "\n" + pemMarker + "\n" + pemFooter("RSA") + "\nafter\n"
			require.Equal(t, want, r.String(in), "%s, line of %d", tc.name, n)
			t.Run(tc.name, func(t *testing.T) {
				// The newline in the write after the header's, in the same
				// one, and the header cut in two.
				requireLongStreams(t, r, in, want, len(pre)+len(hdr), len(pre)+len(hdr)+1, len(pre)+7)
			})
		}
	}
}

// A header followed by more than the hold limit of blanks is emitted by
// force; the key on the next lines is still found.
func TestLongLinePEMHeaderForcedOut(t *testing.T) {
	r := mustNew(t, Config{})
	rng := rand.New(rand.NewPCG(31, 2))
	body := fakePEMBody(rng, 4)
	line := "key: " + pemHeader("EC") + strings.Repeat(" ", 2<<20)
	in := line + "\n" + strings.Join(body, "\n") + "\n" + pemFooter("EC") + "\n"
	want := line + "\n" + pemMarker + "\n" + pemFooter("EC") + "\n"
	require.Equal(t, want, r.String(in))
	for _, workers := range []int{1, 2} {
		got := writeSplit(t, r, in, stepCuts(len(in), 32<<10), WriterOptions{Workers: workers})
		require.Equal(t, want, got, "workers %d", workers)
	}
	// Text after the blanks: it was a mention, and the lines after it stay.
	in = line + "is the header\n" + strings.Join(body, "\n") + "\n"
	require.Equal(t, in, writeSplit(t, r, in, stepCuts(len(in), 32<<10), WriterOptions{Workers: 1}))
}

func TestLongLinePEMBody(t *testing.T) {
	r := mustNew(t, Config{})
	rng := rand.New(rand.NewPCG(31, 3))
	const b64 = alnum62 + "+/"
	for _, n := range []int{100 << 10, 1500 << 10} {
		long := rs(rng, b64, n)
		short := fakePEMBody(rng, 3)
		hdr, foot := pemHeader("RSA"), pemFooter("RSA")
		for _, tc := range []struct{ name, in, want string }{
			{
				name: "one long body line",
				in:   hdr + "\n" + long + "\n" + foot + "\nafter\n",
				want: hdr + "\n" + pemMarker + "\n" + foot + "\nafter\n",
			},
			{
				// Past pemBodyMax of body the block is over (the package
				// doc's bound): the long line is redacted all the same.
				name: "long line then short ones",
				in:   hdr + "\n" + long + "\n" + strings.Join(short, "\n") + "\n" + foot + "\n",
				want: hdr + "\n" + pemMarker + "\n" + map[bool]string{true: strings.Join(short, "\n") + "\n"}[n > pemBodyMax] + foot + "\n",
			},
			{
				// The long-line path cannot take back the newline of a line
				// it has started to write, so a later body line that is long
				// leaves an empty line.
				name: "short line then a long one",
				in:   hdr + "\n" + short[0] + "\n" + long + "\n" + foot + "\n",
				want: hdr + "\n" + pemMarker + "\n\n" + foot + "\n",
			},
			{
				name: "after a prefix, in a quote, coloured",
				in:   "key: \"" + hdr + "\n\x1b[33m" + long + "\x1b[0m\"\n" + foot + "\"\n",
				want: "key: \"" + hdr + "\n\x1b[33m" + pemMarker + "\x1b[0m\"\n" + foot + "\"\n",
			},
			{
				name: "text after the key material on the line",
				in:   hdr + "\n" + long + " token=" + short[0] + "\n" + foot + "\n",
				want: hdr + "\n" + pemMarker + " token=[REDACTED:secret-assignment]\n" + foot + "\n",
			},
			{
				name: "CRLF",
				in:   hdr + "\r\n" + long + "\r\n" + foot + "\r\n",
				want: hdr + "\r\n" + pemMarker + "\r\n" + foot + "\r\n",
			},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got := r.String(tc.in)
				require.Equal(t, tc.want, got)
				requireNoBodyLeft(t, got, []string{long}, tc.name)
				if n <= pemBodyMax {
					requireNoBodyLeft(t, got, short, tc.name)
				}
				requireLongStreams(t, r, tc.in, tc.want, len(hdr)+1, len(hdr)+2+longLineThreshold)
			})
		}
	}
}

// Colour codes sprinkled over a long line, inside the secrets too, wherever
// the long-line cuts and write boundaries fall: the output is the one-shot
// redaction, and no sequence is split.
func TestLongLineColourSeam(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 4))
	r := mustNew(t, Config{})
	var line strings.Builder
	var secrets []string
	for line.Len() < 500<<10 {
		line.WriteString(colourText(rng, strings.Repeat("word ", rng.IntN(2500)), rng.IntN(20)))
		tok := fakeGitHubToken(rng)
		v := rs(rng, alnum62, 24)
		secrets = append(secrets, tok, v)
		line.WriteString("token=" + colourText(rng, tok, 2) + " password: \x1b[1;31m" + colourText(rng, v, 1) + "\x1b[0m ")
	}
	in := line.String() + "\nnext line\n"
	want := r.String(in)
	for _, out := range []string{want, stripTerm(want)} {
		for _, s := range secrets {
			require.NotContains(t, out, s[len(s)/2-6:len(s)/2+6])
		}
	}
	require.True(t, isSubsequence(termSeqs(want), termSeqs(in)))
	for _, step := range []int{997, 4096, 32 << 10, 100 << 10} {
		for _, workers := range []int{1, 2} {
			got := writeSplit(t, r, in, stepCuts(len(in), step), WriterOptions{Workers: workers})
			require.Equal(t, want, got, "step %d workers %d", step, workers)
		}
	}
}

// A key in source code whose header literal ends a long line (a generated
// file on one line up to there): the body literals are found as on a short
// line.
func TestLongLinePEMLiteralHeader(t *testing.T) {
	r := mustNew(t, Config{})
	rng := rand.New(rand.NewPCG(31, 5))
	body := fakePEMBody(rng, 3)
	pre := "var blob = " + strings.Repeat("0x00, ", 20<<10) + "\nvar a, b, key = 1, 2, " + strings.Repeat("x", 80<<10) + " + \""
	head := pre + pemHeader("EC") + `\n" +`
	var in, want strings.Builder
	in.WriteString(head + "\n")
	want.WriteString(head + "\n")
	for _, b := range body {
		in.WriteString("\t\"" + b + `\n" +` + "\n")
	}
	want.WriteString("\t\"" + pemMarker + `\n" +` + "\n")
	in.WriteString("\t\"" + pemFooter("EC") + `\n"` + "\n")
	want.WriteString("\t\"" + pemFooter("EC") + `\n"` + "\n")
	require.Equal(t, want.String(), r.String(in.String()))
	requireLongStreams(t, r, in.String(), want.String(), len(head), len(head)+1)
}
