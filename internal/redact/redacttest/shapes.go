package redacttest

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// CorpusShape is one shape of text MixedCorpus mixes, known by how every
// one of its blocks starts.
type CorpusShape struct{ Name, Start string }

// CorpusShapes are MixedCorpus's shapes. The corpus's sprinkled secrets
// start no shape of their own: each stays with the block before it, so
// every shape holds about the mix's share of them.
var CorpusShapes = []CorpusShape{
	{"git log -p", "commit "},
	{"JSON logs", `{"level":"`},
	{"go test -v", "=== RUN "},
	{"kubectl YAML", "apiVersion: v1\n"},
	{"env dump", "HOME=/home/dev\n"},
	{"curl -v trace", "*   Trying "},
}

// SplitCorpus returns up to want bytes of each of CorpusShapes, in its
// order, whole lines only, cut from MixedCorpus. It gives up after 128
// times want of corpus: a shape the corpus no longer makes is left short
// or empty, not waited for forever.
func SplitCorpus(want int64) [][]byte {
	out := make([][]byte, len(CorpusShapes))
	cur := -1 // lines before the first known start belong to no shape
	full := 0
	for seed, made := int64(1), int64(0); full < len(out) && made < 128*want; seed++ {
		corpus := MixedCorpus(16<<20, seed)
		made += int64(len(corpus))
		for len(corpus) > 0 {
			line := corpus
			if i := bytes.IndexByte(corpus, '\n'); i >= 0 {
				line = corpus[:i+1]
			}
			corpus = corpus[len(line):]
			for i, cs := range CorpusShapes {
				if bytes.HasPrefix(line, []byte(cs.Start)) {
					cur = i
					break
				}
			}
			if cur < 0 || int64(len(out[cur])) >= want {
				continue
			}
			out[cur] = append(out[cur], line...)
			if int64(len(out[cur])) >= want {
				full++
			}
		}
	}
	return out
}

// PlainLog writes size bytes of plain log lines (a timestamp, a counter
// and a dozen common words, nothing a rule looks for) to w: the bench's
// plain shape, the text redaction costs least on.
func PlainLog(w io.Writer, size int64) error {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("build test ok FAIL pkg module error warning compile link run go vet main internal record session store read write line byte file path the of and to in is for with")
	var n int64
	for i := 0; n < size; i++ {
		line := fmt.Sprintf("2026-11-30T10:%02d:%02d.%03dZ %5d", i/60%60, i%60, i%1000, i)
		for k := 0; k < 8+rng.IntN(8); k++ {
			line += " " + words[rng.IntN(len(words))]
		}
		line += "\n"
		if n+int64(len(line)) > size {
			line = line[:size-n]
		}
		m, err := io.WriteString(w, line)
		if err != nil {
			return err
		}
		n += int64(m)
	}
	return nil
}
