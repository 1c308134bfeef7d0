package redact

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A short string (argv, cwd, a summary line) with a colour code inside a
// name is redacted as the stream redacts it: the short-string path must
// not take its literals from the raw bytes alone.
func TestStringSeesThroughColour(t *testing.T) {
	r := mustNew(t, Config{})
	value := "Xk35aQ9vLm2Rt7Wp"
	for _, s := range []string{
		"TO\x1b[1mKEN=" + value,
		"\x1b[31mpassword\x1b[m: " + value,
		"api_key=\x1b[32m" + value + "\x1b[0m",
	} {
		got := r.String(s)
		require.NotContains(t, got, value, "%q -> %q", s, got)
		var sb strings.Builder
		w := r.NewWriterOptions(&sb, WriterOptions{Workers: 1})
		_, err := w.Write([]byte(s + "\n"))
		require.NoError(t, err)
		require.NoError(t, w.Close())
		require.Equal(t, sb.String(), got+"\n", "String and the Writer agree on %q", s)
	}
}
