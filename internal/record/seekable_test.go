package record

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// everything is what every reader of r shows, as one text.
func everything(t *testing.T, r *Recording, opts ...LineOptions) string {
	t.Helper()
	var b strings.Builder
	if len(opts) == 0 {
		opts = []LineOptions{
			{}, {Tail: 3}, {Head: 5}, {Stream: Stdout}, {Stream: Stdout, Tail: 80},
			{Stream: Stdout, From: 2000, To: 2010}, {Stream: Stderr, Tail: 2},
		}
	}
	for _, o := range opts {
		fmt.Fprintf(&b, "== %+v\n", o)
		err := r.Lines(o, func(l Line) error {
			fmt.Fprintf(&b, "%s:%d:%v:%s\n", l.Stream, l.N, l.Marker, l.Text)
			return nil
		})
		fmt.Fprintf(&b, "err %v\n", err)
	}
	for _, s := range []string{"", Stdout} {
		var raw bytes.Buffer
		_, err := r.CopyRaw(&raw, s)
		fmt.Fprintf(&b, "== raw %q %v\n%s\n", s, err, raw.String())
	}
	ps, closeFn, err := r.Pieces(Stdout)
	require.NoError(t, err)
	for _, p := range ps {
		body, err := io.ReadAll(p.R)
		fmt.Fprintf(&b, "== piece %d %v\n%s\n", p.FirstLine, err, body)
	}
	closeFn()
	for _, stream := range []string{"", Stdout} {
		fmt.Fprintf(&b, "== follow %q\n", stream)
		err := r.Follow(FollowOptions{Stream: stream, Wait: func() error { return fmt.Errorf("waited") }}, func(l Line) error {
			fmt.Fprintf(&b, "%s:%d:%v:%s\n", l.Stream, l.N, l.Marker, l.Text)
			return nil
		})
		fmt.Fprintf(&b, "err %v\n", err)
	}
	chunks, err := r.Chunks()
	fmt.Fprintf(&b, "== chunks %v %d\n", err, len(chunks))
	for _, c := range chunks {
		fmt.Fprintf(&b, "%s %d %d %d\n", c.Stream, c.Off, c.Len, c.Time.UnixNano())
	}
	return b.String()
}

func reopen(t *testing.T, r *Recording) *Recording {
	t.Helper()
	sd := newSessionAt(t, r)
	r2, err := Open(sd, r.Name)
	require.NoError(t, err)
	t.Cleanup(func() { r2.Close() })
	return r2
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func TestCompressedReadsAsRaw(t *testing.T) {
	sd := newSession(t)
	var writes [][2]string
	for i := range 3000 {
		writes = append(writes, [2]string{Stdout, fmt.Sprintf("=== RUN   TestThing%d\n--- PASS: TestThing%d (0.00s)\n", i, i)})
		if i%100 == 0 {
			writes = append(writes, [2]string{Stderr, fmt.Sprintf("warning %d\n", i)})
		}
	}
	writes = append(writes, [2]string{Stdout, "no newline at the end"})
	r := write(t, sd, writes...)
	before := everything(t, r)
	st, err := r.Compress(CompressOptions{FrameSize: 4 << 10, MinSize: 1})
	require.NoError(t, err)
	assert.True(t, st.Done)
	assert.Equal(t, 3, st.Files) // stdout, stderr, chunks
	assert.Less(t, st.ZstBytes*4, st.RawBytes)
	got := names(t, r.Dir())
	assert.Contains(t, got, "stdout.zst")
	assert.Contains(t, got, "chunks.zst")
	assert.NotContains(t, got, "stdout")
	assert.NotContains(t, got, "chunks")
	assert.Equal(t, before, everything(t, r))
	assert.Equal(t, before, everything(t, reopen(t, r)))
	// a second pass finds nothing left raw
	st, err = r.Compress(CompressOptions{})
	require.NoError(t, err)
	assert.True(t, st.Done)
	assert.Zero(t, st.Files)
}

func TestCompressedCappedReadsAsRaw(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "line %d of a capped run\n", i)
	}
	r, _ := capped(t, b.String(), 100, true)
	opts := []LineOptions{{}, {Stream: Stdout}, {Stream: Stdout, Tail: 5}, {Stream: Stdout, From: 1, To: 3}, {Stream: Stdout, From: 1990, To: 1999}}
	before := everything(t, r, opts...)
	st, err := r.Compress(CompressOptions{FrameSize: 512, MinSize: 1})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, st.Files, 3) // head, a tail segment, chunks
	for _, n := range names(t, r.Dir()) {
		assert.False(t, strings.HasPrefix(n, "stdout") && !strings.HasSuffix(n, ".zst"), n)
	}
	assert.Equal(t, before, everything(t, reopen(t, r), opts...))
}

func TestCompressLeavesRunningAlone(t *testing.T) {
	sd := newSession(t)
	w, err := Create(CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{Stdout}})
	require.NoError(t, err)
	_, err = w.Sink(Stdout).Write([]byte("still going\n"))
	require.NoError(t, err)
	r, err := Open(sd, w.Name)
	require.NoError(t, err)
	defer r.Close()
	require.Equal(t, StatusRunning, r.Status)
	st, err := r.Compress(CompressOptions{})
	require.NoError(t, err)
	assert.Zero(t, st.Files)
	assert.Contains(t, names(t, r.Dir()), "stdout")
	require.NoError(t, w.Finish(Footer{Status: StatusExited}))
}

// numberedZst is numbered(t, n) compressed in frames of frame bytes.
func numberedZst(t *testing.T, n, frame int) (*Recording, string) {
	t.Helper()
	r, _ := numbered(t, n)
	_, err := r.Compress(CompressOptions{FrameSize: frame})
	require.NoError(t, err)
	return reopen(t, r), r.Dir()
}

func TestCorruptFrameIsDamage(t *testing.T) {
	r, dir := numberedZst(t, 30000, 8<<10)
	p := filepath.Join(dir, "stdout.zst")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	// a byte in the middle of the frames: the frame's checksum or its
	// coding no longer holds
	b[len(b)/2] ^= 0x55
	require.NoError(t, os.WriteFile(p, b, 0o600))
	damagedFast(t, r, "stdout.zst", "merged", "stream", "raw", "pieces")
}

func TestTruncatedSeekTableIsDamage(t *testing.T) {
	r, dir := numberedZst(t, 30000, 8<<10)
	p := filepath.Join(dir, "stdout.zst")
	fi, err := os.Stat(p)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(p, fi.Size()-3))
	damagedFast(t, r, "stdout.zst")
}

func TestSeekTableClaimingTooMuchIsDamage(t *testing.T) {
	r, dir := numberedZst(t, 30000, 8<<10)
	p := filepath.Join(dir, "stdout.zst")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	// the frame count: billions of frames in a file of kilobytes
	copy(b[len(b)-seekFooterLen:], []byte{0xff, 0xff, 0xff, 0x7f})
	require.NoError(t, os.WriteFile(p, b, 0o600))
	damagedFast(t, r, "stdout.zst")
}

// A compression killed before its rename leaves a temporary file no
// reader opens; one killed after it leaves both forms, either whole.
func TestInterruptedCompressionStates(t *testing.T) {
	r, _ := numbered(t, 20000)
	dir := r.Dir()
	before := everything(t, r)
	raw, err := os.ReadFile(filepath.Join(dir, "stdout"))
	require.NoError(t, err)
	// half a frame file under the temporary name
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stdout.zst.ztmp-0123456789ab"), []byte{0x28, 0xb5, 0x2f, 0xfd, 1, 2}, 0o600))
	assert.Equal(t, before, everything(t, reopen(t, r)))
	_, err = r.Compress(CompressOptions{})
	require.NoError(t, err)
	for _, n := range names(t, dir) {
		assert.False(t, isCompressTemp(n), n)
	}
	// killed between the rename and the removal of the raw file
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stdout"), raw, 0o600))
	assert.Equal(t, before, everything(t, reopen(t, r)))
	st, err := r.Compress(CompressOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, st.Files)
	assert.NotContains(t, names(t, dir), "stdout")
	assert.Equal(t, before, everything(t, reopen(t, r)))
}

func TestCompressStopsWhenLate(t *testing.T) {
	r, _ := numbered(t, 20000)
	dir := r.Dir()
	before := everything(t, r)
	calls := 0
	_, err := r.Compress(CompressOptions{FrameSize: 4 << 10, Late: func() bool { calls++; return calls > 3 }})
	require.ErrorIs(t, err, ErrLate)
	for _, n := range names(t, dir) {
		assert.False(t, isCompressTemp(n), n)
	}
	assert.Contains(t, names(t, dir), "stdout")
	assert.Equal(t, before, everything(t, reopen(t, r)))
}

// FuzzCompressedLines: for any content and frame size, every line range
// read from the compressed form is what the raw form gives.
func FuzzCompressedLines(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), uint16(1), uint8(1), uint8(0), uint8(2))
	f.Add(bytes.Repeat([]byte("line\n"), 500), uint16(7), uint8(3), uint8(10), uint8(20))
	f.Add([]byte("no newline"), uint16(3), uint8(1), uint8(1), uint8(1))
	f.Add(bytes.Repeat([]byte{'\n'}, 300), uint16(64), uint8(5), uint8(100), uint8(255))
	f.Fuzz(func(t *testing.T, data []byte, frame uint16, tail, from, to uint8) {
		sd := newSession(t)
		var writes [][2]string
		for i := 0; i < len(data); i += 97 {
			s := Stdout
			if i%3 == 1 {
				s = Stderr
			}
			writes = append(writes, [2]string{s, string(data[i:min(i+97, len(data))])})
		}
		r := write(t, sd, writes...)
		opts := []LineOptions{
			{}, {Tail: int64(tail)}, {Head: int64(tail)},
			{Stream: Stdout, Tail: int64(tail)}, {Stream: Stderr, Head: int64(tail)},
			{Stream: Stdout, From: int64(from), To: int64(to)},
			{Stream: Stderr, From: int64(from)},
		}
		before := everything(t, r, opts...)
		_, err := r.Compress(CompressOptions{FrameSize: 1 + int(frame), MinSize: -1})
		require.NoError(t, err)
		assert.Equal(t, before, everything(t, reopen(t, r), opts...))
	})
}

func TestSeekFileReadAtAnyRange(t *testing.T) {
	var b bytes.Buffer
	for i := range 5000 {
		fmt.Fprintf(&b, "%d ", i*i)
	}
	raw := b.Bytes()
	dir := t.TempDir()
	zf, err := os.Create(filepath.Join(dir, "x.zst"))
	require.NoError(t, err)
	_, err = writeSeekable(zf, bytes.NewReader(raw), int64(len(raw)), CompressOptions{FrameSize: 1000})
	require.NoError(t, err)
	require.NoError(t, zf.Close())
	zf, err = os.Open(filepath.Join(dir, "x.zst"))
	require.NoError(t, err)
	s, err := openSeekFile(zf, "s/0001-x/x.zst")
	require.NoError(t, err)
	defer s.Close()
	require.Equal(t, int64(len(raw)), s.Size())
	start := time.Now()
	for _, c := range [][2]int{{0, 10}, {995, 10}, {999, 2002}, {len(raw) - 5, 5}, {len(raw) - 5, 50}, {0, len(raw)}, {len(raw), 3}} {
		p := make([]byte, c[1])
		n, err := s.ReadAt(p, int64(c[0]))
		end := min(c[0]+c[1], len(raw))
		assert.Equal(t, raw[c[0]:end], p[:n], "%v", c)
		if end < c[0]+c[1] {
			assert.Equal(t, io.EOF, err)
		} else {
			assert.NoError(t, err)
		}
	}
	// forwards through the file, prefetching
	got, err := io.ReadAll(io.NewSectionReader(s, 0, s.Size()))
	require.NoError(t, err)
	assert.Equal(t, raw, got)
	_ = start
}

// newSessionAt opens r's session again, from its folder's path.
func newSessionAt(t *testing.T, r *Recording) *store.Session {
	t.Helper()
	storePath := filepath.Dir(filepath.Dir(filepath.Dir(r.Dir())))
	st, err := store.OpenStore(storePath)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	sd, err := st.Session(r.Session, false)
	require.NoError(t, err)
	t.Cleanup(func() { sd.Close() })
	return sd
}

// Compression writes the line index anew with an entry at every frame
// (at least a stride apart), so a reader counts newlines in one frame.
func TestCompressedLineIndexAtFrames(t *testing.T) {
	sd := newSession(t)
	var writes [][2]string
	line := strings.Repeat("x", 99) + "\n"
	for range 40 {
		writes = append(writes, [2]string{Stdout, strings.Repeat(line, 10000)}) // 1 MB writes
	}
	r := write(t, sd, writes...)
	before, err := r.LineIndex(Stdout)
	require.NoError(t, err)
	require.Less(t, len(before), 50)
	want := everything(t, r)
	_, err = r.Compress(CompressOptions{FrameSize: 128 << 10})
	require.NoError(t, err)
	r2 := reopen(t, r)
	after, err := r2.LineIndex(Stdout)
	require.NoError(t, err)
	// frames of 128 KiB, then the last 64 KiB in two of 32 KiB (a
	// quarter of the frame size): the second is under a stride from the
	// first, so it has no entry of its own
	const frame, last = 128 << 10, 40*1000000 - 64<<10
	var offs []int64
	for off := int64(0); off < last; off += frame {
		offs = append(offs, off)
	}
	offs = append(offs, last)
	require.Len(t, after, len(offs))
	for i, m := range after {
		assert.Equal(t, offs[i], m.Off)
		assert.Equal(t, m.Off/100, m.Newlines)
	}
	assert.Equal(t, want, everything(t, r2))
}

// A damaged chunk index stays as it is, so readers still say so.
func TestDamagedChunksStayRaw(t *testing.T) {
	r, _ := numbered(t, 20000)
	sparse(t, r.Dir(), ChunksFile, 1<<20)
	st, err := r.Compress(CompressOptions{})
	require.NoError(t, err)
	assert.Zero(t, st.Files)
	assert.Contains(t, names(t, r.Dir()), ChunksFile)
	damagedFast(t, reopen(t, r), "chunks", "merged", "raw")
}

// A file is cut in frames of the frame size but for its last two, of a
// quarter of it at most (128 KiB at most), which a tail decodes.
func TestFrameLenPlan(t *testing.T) {
	for _, c := range []struct {
		size  int64
		frame int
		want  []int64
	}{
		{10, 1 << 20, []int64{10}},
		{200 << 10, 1 << 20, []int64{128 << 10, 72 << 10}},
		{256 << 10, 1 << 20, []int64{128 << 10, 128 << 10}},
		{300 << 10, 1 << 20, []int64{44 << 10, 128 << 10, 128 << 10}},
		{3<<20 + 1, 1 << 20, []int64{1 << 20, 1 << 20, 768<<10 + 1, 128 << 10, 128 << 10}},
		{4 << 20, 4 << 20, []int64{3<<20 + 768<<10, 128 << 10, 128 << 10}},
		{10, 4, []int64{4, 4, 1, 1}},
		{5, 1, []int64{1, 1, 1, 1, 1}},
	} {
		var got []int64
		for off := int64(0); off < c.size; {
			n := frameLen(c.size-off, c.frame, true)
			require.Positive(t, n)
			got = append(got, n)
			off += n
		}
		assert.Equal(t, c.want, got, "size %d, frame %d", c.size, c.frame)
	}
	// a file before a stream's last: frames of the frame size to its end
	var got []int64
	for off := int64(0); off < 3<<20+1; {
		n := frameLen(3<<20+1-off, 1<<20, false)
		got = append(got, n)
		off += n
	}
	assert.Equal(t, []int64{1 << 20, 1 << 20, 1 << 20, 1}, got)
}

// A capped stream's line index is written anew too, its kept tail counted
// from the lines before it, so a tail of a capped recording decodes a
// frame or two, not the megabyte between the recorder's entries.
func TestCompressedCappedLineIndexAtFrames(t *testing.T) {
	sd := newSession(t)
	w, err := Create(CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{Stdout}, MaxBytes: 1 << 20, HeadBytes: 256 << 10})
	require.NoError(t, err)
	var b strings.Builder
	for i := range 120000 {
		fmt.Fprintf(&b, "line %d of a long capped run\n", i+1)
	}
	data := b.String()
	for i := 0; i < len(data); i += 10000 {
		_, err := w.Sink(Stdout).Write([]byte(data[i:min(i+10000, len(data))]))
		require.NoError(t, err)
	}
	require.NoError(t, w.Finish(Footer{Status: StatusExited}))
	r, err := Open(sd, w.Name)
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	require.NotNil(t, r.Footer.Cut[Stdout].DroppedBytes)
	require.Positive(t, r.Footer.Cut[Stdout].DroppedBytes)
	opts := []LineOptions{{Stream: Stdout, Tail: 80}, {Stream: Stdout, Tail: 3000}, {Stream: Stdout, From: 5000, To: 5010},
		{Stream: Stdout, From: 119000, To: 119005}, {Stream: Stdout, Head: 3}}
	before := everything(t, r, opts...)
	_, err = r.Compress(CompressOptions{FrameSize: 128 << 10})
	require.NoError(t, err)
	r2 := reopen(t, r)
	marks, err := r2.LineIndex(Stdout)
	require.NoError(t, err)
	kept := r2.Footer.Cut[Stdout].KeptFrom
	var inTail []int64
	for _, m := range marks {
		if m.Off >= kept {
			inTail = append(inTail, m.Off)
		}
	}
	require.NotEmpty(t, inTail)
	assert.Equal(t, kept, inTail[0])
	for i := 1; i < len(inTail); i++ {
		assert.LessOrEqual(t, inTail[i]-inTail[i-1], int64(128<<10), "entries a frame apart")
	}
	assert.Greater(t, len(inTail), 5)
	assert.Equal(t, before, everything(t, r2, opts...))
}

// The files of a capped stream end in small frames where a tail reads:
// the last, and the one before when the last holds less than two small
// frames.
func TestEndsStream(t *testing.T) {
	ps := func(sizes ...int64) []part {
		var out []part
		for _, s := range sizes {
			out = append(out, part{size: s})
		}
		return out
	}
	assert.Equal(t, []bool{true}, endsStream(ps(10), 1<<20))
	assert.Equal(t, []bool{false, false, true}, endsStream(ps(1<<20, 8<<20, 8<<20), 1<<20))
	assert.Equal(t, []bool{false, true, true}, endsStream(ps(1<<20, 8<<20, 8), 1<<20))
	assert.Equal(t, []bool{false, true, true, true}, endsStream(ps(1<<20, 8<<20, 100<<10, 100<<10), 1<<20))
}

// Files read forwards decode ahead only while a core is spare: with as
// many read forwards as GOMAXPROCS, none decodes ahead, and each keeps
// only the frame it is on; closing them gives the cores back.
func TestForwardReadersShareCores(t *testing.T) {
	procs := runtime.GOMAXPROCS(2)
	t.Cleanup(func() { runtime.GOMAXPROCS(procs) })
	raw := bytes.Repeat([]byte("a line of output\n"), 2000)
	dir := t.TempDir()
	open := func(name string) *seekFile {
		zf, err := os.Create(filepath.Join(dir, name))
		require.NoError(t, err)
		_, err = writeSeekable(zf, bytes.NewReader(raw), int64(len(raw)), CompressOptions{FrameSize: 1000})
		require.NoError(t, err)
		require.NoError(t, zf.Close())
		zf, err = os.Open(filepath.Join(dir, name))
		require.NoError(t, err)
		s, err := openSeekFile(zf, "s/0001-x/"+name)
		require.NoError(t, err)
		return s
	}
	forwards := func(s *seekFile, frames int) {
		p := make([]byte, 1000)
		for i := range frames {
			_, err := s.ReadAt(p, int64(i*1000))
			require.NoError(t, err)
		}
	}
	before := forwardReaders.Load()
	a, b := open("a.zst"), open("b.zst")
	forwards(a, forwardRun+2)
	assert.Equal(t, before+1, forwardReaders.Load())
	assert.NotEmpty(t, a.ahead, "one reader, a core spare: it decodes ahead")
	forwards(b, forwardRun+2)
	assert.Equal(t, before+2, forwardReaders.Load())
	b.mu.Lock()
	ahead := 0
	for i := range b.ahead {
		if i > b.last {
			ahead++
		}
	}
	kept := len(b.kept)
	b.mu.Unlock()
	assert.Zero(t, ahead, "two readers on two cores: the second decodes nothing ahead")
	assert.Equal(t, 1, kept, "read forwards, only the frame it is on is kept")
	require.NoError(t, a.Close())
	require.NoError(t, b.Close())
	assert.Equal(t, before, forwardReaders.Load())
	_ = a.Close() // a second close (an error) changes no count
	assert.Equal(t, before, forwardReaders.Load())
}

// TestFramesKeepNothingAfter: a stream of a capped recording is several
// files, all open until the whole stream is read; a file read to its end
// frame by frame keeps none of its frames while the next is read (they
// were 5 MiB of grep's peak memory on a session of capped recordings).
func TestFramesKeepNothingAfter(t *testing.T) {
	raw := bytes.Repeat([]byte("a line of output\n"), 2000)
	zf, err := os.Create(filepath.Join(t.TempDir(), "a.zst"))
	require.NoError(t, err)
	_, err = writeSeekable(zf, bytes.NewReader(raw), int64(len(raw)), CompressOptions{FrameSize: 1000})
	require.NoError(t, err)
	_, err = zf.Seek(0, io.SeekStart)
	require.NoError(t, err)
	s, err := openSeekFile(zf, "s/0001-x/a.zst")
	require.NoError(t, err)
	defer s.Close()
	before := forwardReaders.Load()
	var got []byte
	require.NoError(t, s.frames(int64(len(raw)), func(b []byte) error {
		s.mu.Lock()
		kept := len(s.kept)
		s.mu.Unlock()
		assert.True(t, kept >= 1 && kept <= keptFrames, "the frame fn is given is kept while fn runs, and at most keptFrames: %d", kept)
		got = append(got, b...)
		return nil
	}))
	assert.Equal(t, raw, got)
	s.mu.Lock()
	defer s.mu.Unlock()
	assert.Empty(t, s.kept, "read to its end, the file keeps no frame")
	assert.Equal(t, before, forwardReaders.Load(), "nor counts as a file read forwards")
}

// TestFrameFreeListBounded: put frames are given out again, and the free
// list never holds more than maxFreeFrames, nor a buffer too big for a
// frame.
func TestFrameFreeListBounded(t *testing.T) {
	frameFree.mu.Lock()
	saved := frameFree.bufs
	frameFree.bufs = nil
	frameFree.mu.Unlock()
	t.Cleanup(func() {
		frameFree.mu.Lock()
		frameFree.bufs = saved
		frameFree.mu.Unlock()
	})
	for range maxFreeFrames + 5 {
		putFrame(make([]byte, 10, 4096))
	}
	putFrame(make([]byte, 0, maxFrameIn+decodeSlack+1))
	frameFree.mu.Lock()
	held := len(frameFree.bufs)
	frameFree.mu.Unlock()
	assert.Equal(t, maxFreeFrames, held)
	for range maxFreeFrames {
		b := getFrame()
		assert.Equal(t, 0, len(b))
		assert.Equal(t, 4096, cap(b))
	}
	assert.Nil(t, getFrame(), "the list is empty: a new buffer is the decoder's to make")
}
