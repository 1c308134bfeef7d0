package agentrun

import (
	"bytes"
	"testing"
)

// FuzzDigest: whatever a stream holds, decoding never panics, the digest
// fits MaxJSON, and the observer cut at any point makes the digest the
// reader makes.
func FuzzDigest(f *testing.F) {
	for _, name := range []string{"claude-pass.jsonl", "codex-pass.jsonl", "gemini-pass.jsonl"} {
		f.Add(fixture(f, name), uint16(100))
	}
	f.Add([]byte(`{"type":"thread.started","thread_id":"t"}`+"\n"+`{"type":"item.completed","item":{"type":"file_change","changes":[{"path":"a"}]}}`), uint16(3))
	f.Fuzz(func(t *testing.T, stream []byte, at uint16) {
		fm, ok := Sniff(stream)
		if !ok {
			return
		}
		dec := NewDecoder(fm, Options{})
		if _, _, err := dec.Read(bytes.NewReader(stream), 0); err != nil {
			t.Fatal(err)
		}
		want, err := dec.Digest("", true).JSON()
		if err != nil {
			t.Fatal(err)
		}
		if len(want) > MaxJSON {
			t.Fatalf("digest of %d bytes", len(want))
		}
		o := NewObserver(Options{})
		cut := min(int(at), len(stream))
		_, _ = o.Write(stream[:cut])
		_, _ = o.Write(stream[cut:])
		d := o.Digest(true)
		if d == nil {
			t.Fatalf("the observer did not see a transcript")
		}
		got, err := d.JSON()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("observer and reader differ: %v\n%s\n%s", err, got, want)
		}
	})
}
