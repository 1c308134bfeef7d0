package record

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recDir is the folder of a recording, for tests that damage it.
func recDir(r *Recording) string { return r.Dir() }

// numbered writes n lines "line I" to stdout in writes of about 100 KB.
func numbered(t *testing.T, n int) (*Recording, string) {
	t.Helper()
	sd := newSession(t)
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	data := b.String()
	var writes [][2]string
	for rest := data; len(rest) > 0; {
		k := min(len(rest), 100000)
		writes = append(writes, [2]string{Stdout, rest[:k]}, [2]string{Stderr, "e\n"})
		rest = rest[k:]
	}
	return write(t, sd, writes...), data
}

// sparse makes name in dir a sparse file of size bytes (fast: no data).
func sparse(t *testing.T, dir, name string, size int64) {
	t.Helper()
	require.NoError(t, os.Truncate(filepath.Join(dir, name), size))
}

// every reader of a recording, each returning its first error
func readers(r *Recording) map[string]func() error {
	discard := func(Line) error { return nil }
	return map[string]func() error{
		"merged":      func() error { return r.Lines(LineOptions{}, discard) },
		"merged tail": func() error { return r.Lines(LineOptions{Tail: 3}, discard) },
		"stream":      func() error { return r.Lines(LineOptions{Stream: Stdout}, discard) },
		"tail":        func() error { return r.Lines(LineOptions{Stream: Stdout, Tail: 3}, discard) },
		"lines":       func() error { return r.Lines(LineOptions{Stream: Stdout, From: 20000, To: 20002}, discard) },
		"raw":         func() error { _, err := r.CopyRaw(io.Discard, ""); return err },
		"pieces": func() error {
			ps, closeFn, err := r.Pieces(Stdout)
			if err != nil {
				return err
			}
			defer closeFn()
			for _, p := range ps {
				if _, err := io.Copy(io.Discard, p.R); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// damagedFast asserts every reader reports damage naming what, quickly.
func damagedFast(t *testing.T, r *Recording, what string, only ...string) {
	t.Helper()
	for name, read := range readers(r) {
		if len(only) > 0 && !contains(only, name) {
			continue
		}
		start := time.Now()
		err := read()
		assert.Less(t, time.Since(start), 500*time.Millisecond, name)
		require.Error(t, err, name)
		assert.ErrorIs(t, err, ErrDamaged, name)
		assert.False(t, errors.Is(err, ErrNewerFormat), name)
		assert.Contains(t, err.Error(), "recording s/"+r.Name+" is damaged: ", name)
		assert.Contains(t, err.Error(), what, name)
		assert.NotContains(t, err.Error(), "\n", name)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestSparseChunksIsDamage(t *testing.T) {
	r, _ := numbered(t, 30000)
	sparse(t, recDir(r), ChunksFile, 2<<30)
	damagedFast(t, r, ChunksFile, "merged", "merged tail", "raw")
}

func TestChunksNotAnIndex(t *testing.T) {
	for _, tc := range []struct {
		magic string
		newer bool
	}{
		{"RACCHK2\n", true},
		{"RACCHK9\n", true},
		{"XXXXXXXX", false},
		{"RACCHK0\n", false},
		{"\x00\x00\x00\x00\x00\x00\x00\x00", false},
	} {
		r, _ := numbered(t, 10)
		f, err := os.OpenFile(filepath.Join(recDir(r), ChunksFile), os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = f.WriteAt([]byte(tc.magic), 0)
		require.NoError(t, err)
		require.NoError(t, f.Close())
		_, err = r.Chunks()
		if tc.newer {
			assert.ErrorIs(t, err, ErrNewerFormat, "%q", tc.magic)
		} else {
			assert.ErrorIs(t, err, ErrDamaged, "%q", tc.magic)
			assert.Contains(t, err.Error(), "chunks is not an index rac wrote")
		}
	}
}

func TestChunksLargerThanOutputIsDamage(t *testing.T) {
	r, _ := numbered(t, 10)
	f, err := os.OpenFile(filepath.Join(recDir(r), ChunksFile), os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.Write(make([]byte, 64<<10)) // real zeros, no hole
	require.NoError(t, err)
	require.NoError(t, f.Close())
	damagedFast(t, r, "chunks is", "merged", "raw")
}

// A stream file larger than its footer counts shows what the footer
// counts, however large and sparse the rest.
func TestSparseStdoutBoundedByFooter(t *testing.T) {
	r, data := numbered(t, 30000)
	all := 0
	require.NoError(t, r.Lines(LineOptions{}, func(l Line) error { all++; return nil }))
	sparse(t, recDir(r), Stdout, 2<<30)
	start := time.Now()
	var raw strings.Builder
	_, err := r.CopyRaw(&raw, Stdout)
	require.NoError(t, err)
	assert.Equal(t, data, raw.String())
	assert.Equal(t, "stdout:30000:line 30000\n", collect(t, r, LineOptions{Stream: Stdout, Tail: 1}))
	assert.Equal(t, "stdout:20000:line 20000\n", collect(t, r, LineOptions{Stream: Stdout, From: 20000, To: 20000}))
	n := 0
	require.NoError(t, r.Lines(LineOptions{}, func(l Line) error { n++; return nil }))
	assert.Equal(t, all, n)
	ps, closeFn, err := r.Pieces(Stdout)
	require.NoError(t, err)
	defer closeFn()
	require.Len(t, ps, 1)
	b, err := io.ReadAll(ps[0].R)
	require.NoError(t, err)
	assert.Equal(t, len(data), len(b))
	assert.Less(t, time.Since(start), 500*time.Millisecond)
}

// A stream file replaced by a sparse file at least as large as its footer
// counts: the footer's bound holds, but what it bounds is a hole, which
// would read as NULs where the output was (the fault suite's finding: read,
// --tail and --raw printed NULs and exited 0, grep -C missed its hit).
func TestSparseStdoutReplacedIsDamage(t *testing.T) {
	for name, extra := range map[string]int64{"as large as counted": 0, "larger": 2 << 30} {
		t.Run(name, func(t *testing.T) {
			r, data := numbered(t, 30000)
			p := filepath.Join(recDir(r), Stdout)
			require.NoError(t, os.Remove(p))
			f, err := os.Create(p)
			require.NoError(t, err)
			require.NoError(t, f.Close())
			sparse(t, recDir(r), Stdout, int64(len(data))+extra)
			damagedFast(t, r, "stdout has a hole at byte 0, which no recorder writes")
		})
	}
}

// Output that is NULs, written, is output: only a hole is damage.
func TestWrittenZerosAreNotDamage(t *testing.T) {
	sd := newSession(t)
	zeros := string(make([]byte, 1<<20))
	r := write(t, sd, [2]string{Stdout, zeros}, [2]string{Stdout, "end\n"})
	var raw strings.Builder
	_, err := r.CopyRaw(&raw, Stdout)
	require.NoError(t, err)
	assert.Equal(t, zeros+"end\n", raw.String())
	for name, read := range readers(r) {
		assert.NoError(t, read(), name)
	}
}

// A kept tail segment of a capped stream replaced by a hole of its size.
func TestCappedSparseSegmentIsDamage(t *testing.T) {
	data := cutInputs()["numbers"]
	r, _ := capped(t, data, 700, true)
	dir := recDir(r)
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var seg string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), Stdout+tailInfix) {
			seg = e.Name()
		}
	}
	require.NotEmpty(t, seg)
	fi, err := os.Stat(filepath.Join(dir, seg))
	require.NoError(t, err)
	require.Positive(t, fi.Size())
	require.NoError(t, os.Remove(filepath.Join(dir, seg)))
	f, err := os.Create(filepath.Join(dir, seg))
	require.NoError(t, err)
	require.NoError(t, f.Close())
	sparse(t, dir, seg, fi.Size())
	damagedFast(t, r, seg+" has a hole at byte 0", "stream", "tail", "pieces", "merged", "raw")
}

// Without a footer nothing bounds a stream but its file: a hole, which no
// recorder writes, is damage.
func TestSparseStdoutWithoutFooterIsDamage(t *testing.T) {
	r, _ := numbered(t, 30000)
	require.NoError(t, os.Remove(filepath.Join(recDir(r), FooterFile)))
	require.NoError(t, r.Refresh())
	require.Equal(t, StatusIncomplete, r.Status)
	sparse(t, recDir(r), Stdout, 2<<30)
	damagedFast(t, r, "stdout has a hole at byte")
}

func TestStdoutShorterThanFooterIsDamage(t *testing.T) {
	r, data := numbered(t, 30000)
	sparse(t, recDir(r), Stdout, int64(len(data)-5))
	damagedFast(t, r, fmt.Sprintf("stdout holds %d bytes, its footer says %d", len(data)-5, len(data)))
}

// setMark rewrites entry i of the stdout line index.
func setMark(t *testing.T, r *Recording, i int, m LineMark) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(recDir(r), linesPfx+Stdout), os.O_WRONLY, 0)
	require.NoError(t, err)
	var e [lineEntry]byte
	binary.LittleEndian.PutUint64(e[0:], uint64(m.Newlines))
	binary.LittleEndian.PutUint64(e[8:], uint64(m.Off))
	_, err = f.WriteAt(e[:], int64(len(linesMagic)+i*lineEntry))
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

func TestTamperedLineIndexIsDamage(t *testing.T) {
	base, _ := numbered(t, 200000)
	marks, err := base.LineIndex(Stdout)
	require.NoError(t, err)
	require.Greater(t, len(marks), 4)
	// the entry --lines 20000 starts from
	k := 0
	for i, m := range marks {
		if m.Newlines < 20000-1 {
			k = i
		}
	}
	require.Positive(t, k)
	for name, tc := range map[string]struct {
		tamper func(r *Recording)
		what   string
		only   []string // the readers that use what was changed
	}{
		"count lowered": {func(r *Recording) {
			setMark(t, r, k, LineMark{Newlines: marks[k].Newlines - 35, Off: marks[k].Off})
		}, fmt.Sprintf("lines-stdout does not match stdout (entry %d)", k), []string{"lines"}},
		"offset moved": {func(r *Recording) {
			setMark(t, r, k, LineMark{Newlines: marks[k].Newlines, Off: marks[k].Off + 300})
		}, "lines-stdout does not match stdout (entry", []string{"lines"}},
		"every later count lowered": {func(r *Recording) {
			for i := k; i < len(marks); i++ {
				setMark(t, r, i, LineMark{Newlines: marks[i].Newlines - 35, Off: marks[i].Off})
			}
		}, "lines-stdout does not match stdout (entry", nil},
		"beyond the stream": {func(r *Recording) {
			setMark(t, r, len(marks)-1, LineMark{Newlines: marks[len(marks)-1].Newlines, Off: 1 << 40})
		}, fmt.Sprintf("lines-stdout does not match stdout (entry %d)", len(marks)-1), nil},
		"closer than a stride": {func(r *Recording) {
			setMark(t, r, 2, LineMark{Newlines: marks[1].Newlines + 1, Off: marks[1].Off + 10})
		}, "lines-stdout does not match stdout (entry 2)", nil},
		"first not at 0": {func(r *Recording) {
			setMark(t, r, 0, LineMark{Newlines: 0, Off: 1})
		}, "lines-stdout does not match stdout (entry 0)", nil},
		"sparse": {func(r *Recording) {
			sparse(t, recDir(r), linesPfx+Stdout, 2<<30)
		}, "lines-stdout is", nil},
	} {
		t.Run(name, func(t *testing.T) {
			r, _ := numbered(t, 200000)
			tc.tamper(r)
			if tc.only == nil {
				tc.only = []string{"lines", "tail"}
			}
			damagedFast(t, r, tc.what, tc.only...)
		})
	}
}

// The tampering the attack run found: --lines printed other lines than
// asked, without a word.
func TestLinesNeverWrong(t *testing.T) {
	r, _ := numbered(t, 200000)
	marks, err := r.LineIndex(Stdout)
	require.NoError(t, err)
	for i := 1; i < len(marks); i++ {
		setMark(t, r, i, LineMark{Newlines: marks[i].Newlines - 35, Off: marks[i].Off})
	}
	var got []string
	err = r.Lines(LineOptions{Stream: Stdout, From: 20000, To: 20002}, func(l Line) error {
		got = append(got, fmt.Sprintf("%d:%s", l.N, l.Text))
		return nil
	})
	if err == nil {
		assert.Equal(t, []string{"20000:line 20000", "20001:line 20001", "20002:line 20002"}, got)
	} else {
		assert.ErrorIs(t, err, ErrDamaged)
	}
}

func TestCappedMissingSegmentIsDamage(t *testing.T) {
	data := cutInputs()["numbers"]
	r, c := capped(t, data, 700, true)
	dir := recDir(r)
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var segs []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), Stdout+tailInfix) {
			segs = append(segs, e.Name())
		}
	}
	require.Greater(t, len(segs), 2, "cut at %d", c.KeptFrom)
	require.NoError(t, os.Remove(filepath.Join(dir, segs[1])))
	damagedFast(t, r, "does not follow on from byte", "stream", "tail", "pieces", "merged")
}

func TestCappedGapWithoutCutIsDamage(t *testing.T) {
	data := cutInputs()["numbers"]
	r, _ := capped(t, data, 700, false)
	require.NoError(t, os.Remove(filepath.Join(recDir(r), CutFile)))
	damagedFast(t, r, "stdout.tail.", "stream", "tail", "pieces", "merged")
}

// A line longer than MaxLineText is yielded up to it, and a marker says
// how much more there was: memory does not grow with a line.
func TestLongLineBounded(t *testing.T) {
	sd := newSession(t)
	long := strings.Repeat("x", MaxLineText+12345)
	r := write(t, sd, [2]string{Stdout, "a\n" + long[:100]}, [2]string{Stdout, long[100:] + "\nb\n" + long})
	for _, o := range []LineOptions{{}, {Stream: Stdout}, {Stream: Stdout, From: 2}} {
		var got []string
		require.NoError(t, r.Lines(o, func(l Line) error {
			got = append(got, fmt.Sprintf("%d:%d:%v:%s", l.N, len(l.Text), l.Marker, short(string(l.Text))))
			return nil
		}))
		note := func(n int) string {
			m := fmt.Sprintf("[rac: line %d of stdout goes on for 12345 more bytes, not shown: rac out read --raw copies every byte]", n)
			return fmt.Sprintf("0:%d:true:%s", len(m), short(m))
		}
		want := []string{
			"1:1:false:a",
			fmt.Sprintf("2:%d:false:%s", MaxLineText, short(long[:MaxLineText])),
			note(2),
			"3:1:false:b",
			fmt.Sprintf("4:%d:false:%s", MaxLineText, short(long[:MaxLineText])),
			note(4),
		}
		if o.From == 2 {
			want = want[1:]
		}
		assert.Equal(t, want, got, "%+v", o)
	}
	assert.Equal(t, "stdout:4:"+long[:MaxLineText]+"\nstdout:0:[rac: line 4 of stdout goes on for 12345 more bytes, not shown: rac out read --raw copies every byte]\n",
		collect(t, r, LineOptions{Stream: Stdout, Tail: 1}))
}
