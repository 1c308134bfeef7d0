package explain

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzExplain asserts properties, not outputs: whatever the recording
// holds, explain does not fail, its text stays under 12 lines, its JSON is
// one valid object within MaxJSON, every shown line number exists, and
// where the read buffer splits the input changes nothing.
func FuzzExplain(f *testing.F) {
	for _, s := range []string{
		"",
		"error: x\n",
		"--- FAIL: TestX (0.00s)\n    x_test.go:3: got 1, want 2\nFAIL\n",
		"=== RUN   TestX\n    x_test.go:3: got 1\n--- FAIL: TestX\n",
		"Traceback (most recent call last):\n  File \"x\", line 1\nValueError: v\n",
		"thread 'main' panicked at src/main.rs:1:1:\nboom\n  left: 1\n right: 2\n",
		"\x1b[31merror\x1b[0m\r\nok\rfatal: y\n\n\nE   assert 1\n",
		"a\xffb error \xfe\n" + strings.Repeat("z", 5000) + " failed\n",
		"error: |-\n    message\n",
	} {
		f.Add([]byte(s), []byte("npm error x\n"))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr []byte) {
		explain := func() *Report {
			rep, err := Explain(Input{Meta: exited(1), Streams: []Stream{
				{Name: "stdout", R: bytes.NewReader(stdout)},
				{Name: "stderr", R: bytes.NewReader(stderr)},
			}})
			if err != nil {
				t.Fatal(err)
			}
			return rep
		}
		rep := explain()
		if n := strings.Count(rep.String(), "\n"); n >= 12 {
			t.Fatalf("%d lines of text:\n%s", n, rep)
		}
		js, err := rep.JSON()
		if err != nil || len(js) > MaxJSON || !json.Valid(js) {
			t.Fatalf("bad json (%v, %d bytes): %s", err, len(js), js)
		}
		for _, l := range rep.Lines {
			total := map[string]int{"stdout": bytes.Count(stdout, []byte{'\n'}) + 1, "stderr": bytes.Count(stderr, []byte{'\n'}) + 1}[l.Stream]
			if l.Line < 1 || l.Line > total {
				t.Fatalf("line %d of %s does not exist (%d lines)", l.Line, l.Stream, total)
			}
		}
		defer func(n int) { readSize = n }(readSize)
		readSize = 13
		if small := explain(); small.String() != rep.String() {
			t.Fatalf("buffer split changed the report:\n%s\nvs\n%s", rep, small)
		}
	})
}
