package redact

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/rac-cli/rac/internal/redact/redacttest"
)

// benchColour is 16 MiB of the mixed corpus with two or three colour codes
// on every line, as grep --color or a coloured log would print it: every
// line goes through its terminal view.
var benchColour = sync.OnceValue(func() []byte {
	rng := rand.New(rand.NewPCG(3, 3))
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(redacttest.MixedCorpus(16<<20, 3), []byte("\n")) {
		out.WriteString(colourText(rng, string(line[:len(line)-min(len(line), 1)]), 3))
		if len(line) > 0 && line[len(line)-1] == '\n' {
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
})

// BenchmarkWriterColour is BenchmarkWriter/single on coloured text.
func BenchmarkWriterColour(b *testing.B) {
	data := benchColour()
	r := devRedactor(b)
	benchWrites(b, r, data, 1)
}
