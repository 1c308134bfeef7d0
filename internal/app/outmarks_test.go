package app

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/redact"
)

// blockPieces are pieces of output whose secrets only the block state
// marks: PEM keys (plain, indented under a YAML key, with a log prefix on
// every line, coloured, as string literals), Kubernetes data blocks in
// YAML and JSON, a YAML block scalar under a secret name, an SSM
// parameter's Value and a Terraform random_password, and plain lines
// between them that look like their insides.
var blockPieces = []string{
	"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4UbaDzY2ZjG5aR1ERNGs1V5tYvGFrbH2d0c0Ixz7nY3pzQE\nhm2Pz5PWYQ0fsdR1gOPa5fg5Te4Y7aKj0XYSb0pFg6QJ2vRk0iA1p3D8T3k9Y0Ts\nabcdefghij0123456789==\n-----END RSA PRIVATE KEY-----\n",
	"  key: |\n    -----BEGIN OPENSSH PRIVATE KEY-----\n    b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n    QyNTUxOQAAACDdmN0dW1teWtleWZvcnRlc3Rpbmdvbmx5AAAAAAAAAAAAAAAAAAAAAAAAAA\n    -----END OPENSSH PRIVATE KEY-----\n",
	"2026-01-02 build: -----BEGIN EC PRIVATE KEY-----\n2026-01-02 build: MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oRHCo5PUWjl6oAoGCCqGSM49\n2026-01-02 build: AwEHoUQDQgAEpHHPVWIn7ijtLJjXsdsNkMn5QdNSwfXqtB9kA5rOUOTnD9hXQLwM\n2026-01-02 build: -----END EC PRIVATE KEY-----\n",
	"\x1b[33m-----BEGIN PRIVATE KEY-----\x1b[0m\n\x1b[33mMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\x1b[0m\n\x1b[33m-----END PRIVATE KEY-----\x1b[0m\n",
	"const key = \"-----BEGIN RSA PRIVATE KEY-----\\n\" +\n\t\"MIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\\n\" +\n\t\"-----END RSA PRIVATE KEY-----\\n\"\n",
	"apiVersion: v1\ndata:\n  dbhost: ZGIuaW50ZXJuYWwuZXhhbXBsZS5jb20=\n  settings.json: eyJyZXRyaWVzIjozLCJtb2RlIjoiZmFzdCJ9\nkind: Secret\n",
	"- apiVersion: v1\n  stringData:\n    password: hunter2-but-longer\n    token: abc.def.ghi\n  kind: Secret\n",
	"{\n  \"data\": {\n    \"dbhost\": \"ZGIuaW50ZXJuYWwuZXhhbXBsZS5jb20=\",\n    \"settings.json\": \"eyJyZXRyaWVzIjozLCJtb2RlIjoiZmFzdCJ9\"\n  },\n  \"kind\": \"Secret\"\n}\n",
	"db_password: |\n  correct-horse-battery-staple\n  second-line-of-it\nnext: value\n",
	"{\n  \"Parameter\": {\n    \"Name\": \"/prod/db/password\",\n    \"Type\": \"SecureString\",\n    \"Value\": \"pa55w0rd-from-ssm-9\"\n  }\n}\n",
	"  # random_password.db will be created\n  + resource \"random_password\" \"db\" {\n      + length = 24\n      + result = \"Tf-generated-pa55word-1\"\n    }\n",
	"  dbhost: ZGIuaW50ZXJuYWwuZXhhbXBsZS5jb20=\n",
	"MIIEowIBAAKCAQEAx4UbaDzY2ZjG5aR1ERNGs1V5tYvGFrbH2d0c0Ixz7nY3pzQE\n",
	"    \"dbhost\": \"ZGIuaW50ZXJuYWwuZXhhbXBsZS5jb20=\",\n",
	"ok  \texample.com/x\t0.4s\n",
	"\n",
	"step done\n",
}

// blockOutput is n pieces of blockPieces and filler lines in an order
// seed picks.
func blockOutput(seed uint64, n int) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for i := range n {
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "line %d of the build, nothing to see\n", i)
			continue
		}
		b.WriteString(blockPieces[rng.IntN(len(blockPieces))])
	}
	return b.String()
}

// shown is one line a walk through outLines hands out.
type shown struct {
	n      int64
	marker bool
	text   string
}

// walk reads o's recording with lo, as ReadLines does, through o.
func walk(t *testing.T, o *outLines, lo record.LineOptions) []shown {
	t.Helper()
	var got []shown
	require.NoError(t, o.rec.Lines(lo, func(l record.Line) error {
		if l.Marker {
			o.marker(l)
			got = append(got, shown{marker: true, text: string(l.Text)})
			return nil
		}
		out, err := o.line(l.Stream, l.N, l.Text)
		require.NoError(t, err)
		got = append(got, shown{n: l.N, text: string(out)})
		return nil
	}))
	return got
}

// markedOut is outLines over ref with the marks m, looking for one after
// every line.
func markedOut(t *testing.T, a *App, ref string, m *outMarks) *outLines {
	t.Helper()
	rec, err := a.Open(ref)
	require.NoError(t, err)
	t.Cleanup(func() { _ = rec.Close() })
	red, err := a.Redactor()
	require.NoError(t, err)
	o, err := newOutLines(red, rec, m)
	require.NoError(t, err)
	o.markEvery = 1
	t.Cleanup(o.close)
	return o
}

// Every window and tail of a --no-redact recording, and every set of
// grep lines, comes out the same from a pass started at a mark as from
// the pass from the start: streams full of keys and data blocks, whole
// and capped (the marks of the kept tail too), windows starting inside
// blocks and on every side of a mark.
func TestMarksGiveWhatTheFullPassGives(t *testing.T) {
	for _, c := range []struct {
		name        string
		max, head   int64
		seed        uint64
		pieces      int
		wantTailCut bool
		compress    bool // gc compresses it once the marks are noted
	}{
		{"whole", 1 << 30, 1 << 20, 1, 300, false, false},
		{"capped", 24 << 10, 6 << 10, 2, 400, true, false},
		{"compressed", 24 << 10, 6 << 10, 4, 400, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.set.RedactEnabled = false
			f.set.MaxBytes, f.set.HeadBytes = c.max, c.head
			ref := f.record([]string{"build"}, map[string]string{StreamStdout: blockOutput(c.seed, c.pieces)}, Outcome{Status: StatusExited})
			a := f.app()
			m := a.red.marks
			stream := record.LineOptions{Stream: StreamStdout}

			// the reference: every line through the pass from the start
			full := walk(t, markedOut(t, a, ref, nil), stream)
			var last int64
			for _, l := range full {
				last = max(last, l.n)
			}
			// a grep of the last line walks the whole stream, before the
			// cut and after it, and notes the marks
			warm := markedOut(t, a, ref, m)
			_, err := warm.lookup(StreamStdout, map[int64]bool{last: true}, last)
			require.NoError(t, err)
			st := warm.streams[StreamStdout]
			require.Greater(t, len(st.head.lines), 20, "marks noted before the cut")
			if c.wantTailCut {
				require.NotNil(t, st.cut, "the recording is capped")
				require.Greater(t, len(st.tailMarks.lines), 20, "marks noted after the cut")
			}
			if c.compress {
				rec, err := a.Open(ref)
				require.NoError(t, err)
				stats, err := rec.Compress(record.CompressOptions{FrameSize: 4 << 10, MinSize: 1})
				require.NoError(t, err)
				require.Positive(t, stats.Files, "compressed")
				require.NoError(t, rec.Close())
				marked := len(st.head.lines)
				o := markedOut(t, a, ref, m)
				require.Len(t, o.streams[StreamStdout].head.lines, marked, "compression keeps the marks: no line changed")
			}
			require.Equal(t, full, walk(t, markedOut(t, a, ref, m), stream))
			requireWindowsAgree(t, a, ref, m, last, c.seed)
		})
	}
}

// requireWindowsAgree reads windows, tails and grep lines of ref's
// stdout, which has last lines, with the marks m and without, and
// requires the same lines.
func requireWindowsAgree(t *testing.T, a *App, ref string, m *outMarks, last int64, seed uint64) {
	t.Helper()
	pick := func(lo record.LineOptions) []shown {
		return walk(t, markedOut(t, a, ref, nil), lo)
	}
	rng := rand.New(rand.NewPCG(seed, 9))
	for range 150 {
		from := 1 + rng.Int64N(last)
		to := from + rng.Int64N(40)
		lo := record.LineOptions{Stream: StreamStdout, From: from, To: to}
		require.Equal(t, pick(lo), walk(t, markedOut(t, a, ref, m), lo), "lines %d:%d", from, to)
		lo = record.LineOptions{Stream: StreamStdout, Tail: last - from + 1}
		require.Equal(t, pick(lo), walk(t, markedOut(t, a, ref, m), lo), "tail %d", lo.Tail)

		want := map[int64]bool{}
		for range 1 + rng.IntN(4) {
			want[min(last, from+rng.Int64N(60))] = true
		}
		top := int64(0)
		for n := range want {
			top = max(top, n)
		}
		slow, err := markedOut(t, a, ref, nil).lookup(StreamStdout, want, top)
		require.NoError(t, err)
		fast, err := markedOut(t, a, ref, m).lookup(StreamStdout, want, top)
		require.NoError(t, err)
		require.Equal(t, slow, fast, "grep lines %v", want)
	}
}

// A recording still being written keeps its marks as it grows (its
// recorder only appends), also when what it writes next goes on with a
// key or a data block its last marked lines began; the reads after it
// grew agree with the pass from the start.
func TestMarksOnARunningRecording(t *testing.T) {
	f := newFixture(t)
	f.set.RedactEnabled = false
	ctx := t.Context()
	rec, err := f.app().CreateRecording(ctx, RecordingRequest{Argv: []string{"build"}, Streams: []string{StreamStdout}})
	require.NoError(t, err)
	defer func() { _ = rec.Abandon() }()
	w, err := rec.Stream(StreamStdout)
	require.NoError(t, err)
	a := f.app()
	m := a.red.marks
	out := blockOutput(5, 200)
	// the first part ends inside a key: its header and a body line
	_, err = w.Write([]byte(out + "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4UbaDzY2ZjG5aR1ERNGs1V5tYvGFrbH2d0c0Ixz7nY3pzQE\n"))
	require.NoError(t, err)
	o := markedOut(t, a, rec.Ref(), m)
	last := o.rec.StreamLines(StreamStdout)
	_, err = o.lookup(StreamStdout, map[int64]bool{last: true}, last)
	require.NoError(t, err)
	marked := len(o.streams[StreamStdout].head.lines)
	require.Positive(t, marked)

	_, err = w.Write([]byte("hm2Pz5PWYQ0fsdR1gOPa5fg5Te4Y7aKj0XYSb0pFg6QJ2vRk0iA1p3D8T3k9Y0Ts\n-----END RSA PRIVATE KEY-----\n" + blockOutput(6, 200)))
	require.NoError(t, err)
	o = markedOut(t, a, rec.Ref(), m)
	require.Equal(t, record.StatusRunning, o.rec.Status)
	require.GreaterOrEqual(t, len(o.streams[StreamStdout].head.lines), marked, "the marks stay as the stream grows")
	requireWindowsAgree(t, a, rec.Ref(), m, o.rec.StreamLines(StreamStdout), 5)
}

// A mark that does not hold for the recording as it is now is never
// taken: another folder at the same path, another start, a stream
// shorter than when it was marked, a tail cut that moved, a pass that
// failed. Each case puts a false mark inside a key (where a pass started
// there hands out the key's body) and shows it is used while it holds,
// so the test would see it used when stale.
func TestStaleMarksAreNotTaken(t *testing.T) {
	body := "MIIEowIBAAKCAQEAx4UbaDzY2ZjG5aR1ERNGs1V5tYvGFrbH2d0c0Ixz7nY3pzQE"
	text := "start\n-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n" + body[1:] + "\n" + body[2:] + "\n-----END RSA PRIVATE KEY-----\nend\n"
	f := newFixture(t)
	f.set.RedactEnabled = false
	ref := f.record([]string{"build"}, map[string]string{StreamStdout: text}, Outcome{Status: StatusExited})
	a := f.app()
	lo := record.LineOptions{Stream: StreamStdout, From: 5, To: 6}
	want := []shown{{n: 5, text: redact.DroppedLine}, {n: 6, text: "-----END RSA PRIVATE KEY-----"}}

	other, err := os.Stat(t.TempDir())
	require.NoError(t, err)
	for _, c := range []struct {
		name  string
		stale func(ms *markedStream)
	}{
		{"another folder", func(ms *markedStream) { ms.folder = other }},
		{"another start", func(ms *markedStream) { ms.started = ms.started.Add(time.Second) }},
		{"another pid", func(ms *markedStream) { ms.pid++ }},
		{"another number", func(ms *markedStream) { ms.seq++ }},
		{"a shorter stream", func(ms *markedStream) { ms.size++ }},
		{"a failed pass", func(ms *markedStream) { ms.head.failed = true }},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newOutMarks()
			o := markedOut(t, a, ref, m)
			m.add(o.streams[StreamStdout].head, 5) // false: line 5 is inside the key
			require.Equal(t, []shown{{n: 5, text: body[2:]}, want[1]}, walk(t, markedOut(t, a, ref, m), lo),
				"the false mark is taken while it holds (it leaks the body)")
			c.stale(m.streams[markKey{dir: o.rec.Dir(), stream: StreamStdout}])
			require.Equal(t, want, walk(t, markedOut(t, a, ref, m), lo), "the stale mark is not taken")
		})
	}
}

// The marks after a cut are for that cut: when it moves (a running capped
// recorder drops a segment), they are dropped and the marks before the
// cut stay.
func TestTailMarksFollowTheCut(t *testing.T) {
	f := newFixture(t)
	f.set.RedactEnabled = false
	f.set.MaxBytes, f.set.HeadBytes = 24<<10, 6<<10
	ref := f.record([]string{"build"}, map[string]string{StreamStdout: blockOutput(3, 400)}, Outcome{Status: StatusExited})
	a := f.app()
	m := a.red.marks
	o := markedOut(t, a, ref, m)
	last := o.rec.StreamLines(StreamStdout)
	_, err := o.lookup(StreamStdout, map[int64]bool{last: true}, last)
	require.NoError(t, err)
	st := o.streams[StreamStdout]
	require.NotNil(t, st.cut)
	heads, tails := len(st.head.lines), len(st.tailMarks.lines)
	require.Positive(t, heads)
	require.Positive(t, tails)

	ms := m.streams[markKey{dir: o.rec.Dir(), stream: StreamStdout}]
	ms.tailCut.KeptFrom-- // as if marked for an earlier cut
	o2 := markedOut(t, a, ref, nil)
	head, tail := m.lists(o2.rec, StreamStdout, o2.streams[StreamStdout].cut)
	require.Len(t, head.lines, heads, "the marks before the cut stay")
	require.Empty(t, tail.lines, "the marks for another cut go")
}
