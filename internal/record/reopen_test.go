package record

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A recording whose outcome was not stated goes on where it ended: both
// parts read back in order with their line numbers, the seam says where
// and how the first part ended, and the footer counts everything stored.
func TestReopenContinuesAnUnstatedRecording(t *testing.T) {
	for _, tc := range []struct {
		name  string
		first func(*Writer) error
		want  string
	}{
		{"stream ended", func(w *Writer) error { return w.Finish(Footer{Status: StatusStreamEnded}) }, StatusStreamEnded},
		{"incomplete", func(w *Writer) error {
			require.NoError(t, w.MarkStopping("SIGTERM"))
			return w.Abandon()
		}, StatusIncomplete},
		{"capped, all head", nil, StatusStreamEnded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sd := newSession(t)
			opts := CreateOptions{Session: sd, Slug: "ci-log", Source: SourceStdin, Streams: []string{Combined}}
			if tc.first == nil {
				opts.MaxBytes, opts.HeadBytes = 1<<20, 64<<10
				tc.first = func(w *Writer) error { return w.Finish(Footer{Status: StatusStreamEnded}) }
			}
			w, err := Create(opts)
			require.NoError(t, err)
			assert.Equal(t, "0001-ci-log", w.Name)
			_, err = w.Sink(Combined).Write([]byte("one\ntw"))
			require.NoError(t, err)
			require.NoError(t, tc.first(w))

			re, err := Reopen(ReopenOptions{Session: sd, Name: w.Name})
			require.NoError(t, err)
			assert.Equal(t, tc.want, re.Seam.Before)
			assert.Equal(t, Counts{Bytes: 6, Lines: 2}, re.Seam.Stored[Combined])
			assert.Equal(t, tc.want == StatusStreamEnded, re.Before != nil)
			if tc.want == StatusIncomplete {
				assert.Equal(t, "SIGTERM", re.Seam.Stopping)
			}
			// while it is open again it reads as running
			r, err := Open(sd, w.Name)
			require.NoError(t, err)
			assert.Equal(t, StatusRunning, r.Status)
			require.NoError(t, r.Close())
			_, err = Reopen(ReopenOptions{Session: sd, Name: w.Name})
			require.ErrorIs(t, err, ErrStillOpen)

			_, err = re.W.Sink(Combined).Write([]byte("o\nthree\n"))
			require.NoError(t, err)
			code := 3
			require.NoError(t, re.W.Finish(Footer{Status: StatusExited, ExitCode: &code, OutcomeFrom: "--exit-code"}))

			r, err = Open(sd, w.Name)
			require.NoError(t, err)
			defer r.Close()
			assert.Equal(t, StatusExited, r.Status)
			assert.Equal(t, "--exit-code", r.Footer.OutcomeFrom)
			assert.Equal(t, Counts{Bytes: 14, Lines: 3}, r.Footer.Stored[Combined])
			assert.Equal(t, "combined:1:one\ncombined:2:two\ncombined:3:three\n", collect(t, r, LineOptions{}))
			seams, err := r.Seams()
			require.NoError(t, err)
			require.Len(t, seams, 1)
			assert.Equal(t, tc.want, seams[0].Before)
			chunks, err := r.Chunks()
			require.NoError(t, err)
			require.Len(t, chunks, 2, "the seam starts a chunk of its own")
			assert.Equal(t, int64(6), chunks[1].Off)
			dir := filepath.Join(sd.Store.Path, "sessions", sd.Name, w.Name)
			assert.NoFileExists(t, filepath.Join(dir, StoppingFile))

			// a stated outcome is final
			_, err = Reopen(ReopenOptions{Session: sd, Name: w.Name})
			require.ErrorIs(t, err, ErrFinal)
		})
	}
}

// Bytes a killed recorder stored without their chunk entry are covered
// before the next part, so the index has no hole.
func TestReopenCoversUnindexedBytes(t *testing.T) {
	sd := newSession(t)
	w, err := Create(CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{Stdout}})
	require.NoError(t, err)
	_, err = w.Sink(Stdout).Write([]byte("a\n"))
	require.NoError(t, err)
	_, err = w.Sink(Stdout).data.Write([]byte("b\n")) // no index entry
	require.NoError(t, err)
	require.NoError(t, w.Abandon())
	later := time.Now().Add(time.Hour)
	tick := later
	re, err := Reopen(ReopenOptions{Session: sd, Name: w.Name, Now: func() time.Time { tick = tick.Add(time.Second); return tick }})
	require.NoError(t, err)
	assert.Equal(t, Counts{Bytes: 4, Lines: 2}, re.Seam.Stored[Stdout])
	_, err = re.W.Sink(Stdout).Write([]byte("c\n"))
	require.NoError(t, err)
	require.NoError(t, re.W.Finish(Footer{Status: StatusStreamEnded}))
	r, err := Open(sd, w.Name)
	require.NoError(t, err)
	defer r.Close()
	chunks, err := r.Chunks()
	require.NoError(t, err)
	require.Len(t, chunks, 3)
	assert.Equal(t, Stdout, chunks[1].Stream)
	assert.Equal(t, [2]int64{2, 2}, [2]int64{chunks[1].Off, chunks[1].Len}, "the bytes without an entry")
	assert.True(t, chunks[1].Time.After(later))
	assert.Equal(t, "stdout:1:a\nstdout:2:b\nstdout:3:c\n", collect(t, r, LineOptions{}))
}

// A capped recording continued after its rolling tail began reads as
// the same recording written in one go: the same lines, cut markers and
// line numbers, the same cut and stored counts, whatever the point it was
// cut off at (a whole footer, or a recorder that died).
func TestReopenCappedSameAsInOneGo(t *testing.T) {
	var data strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&data, "line %d %s\n", i, strings.Repeat("x", i%37))
	}
	all := []byte(data.String())
	opts := func(sd *store.Session) CreateOptions {
		return CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{Combined}, MaxBytes: 16 << 10, HeadBytes: 4 << 10}
	}
	one := newSession(t)
	w, err := Create(opts(one))
	require.NoError(t, err)
	_, err = w.Sink(Combined).Write(all)
	require.NoError(t, err)
	require.NoError(t, w.Finish(Footer{Status: StatusStreamEnded}))
	want, err := Open(one, w.Name)
	require.NoError(t, err)
	defer want.Close()
	require.NotEmpty(t, want.Footer.Cut, "the test cuts")

	for _, split := range []int{100, 5000, 20000, len(all) - 3} {
		for _, abandon := range []bool{false, true} {
			sd := newSession(t)
			w, err := Create(opts(sd))
			require.NoError(t, err)
			_, err = w.Sink(Combined).Write(all[:split])
			require.NoError(t, err)
			if abandon {
				require.NoError(t, w.Abandon())
			} else {
				require.NoError(t, w.Finish(Footer{Status: StatusStreamEnded}))
			}
			re, err := Reopen(ReopenOptions{Session: sd, Name: w.Name})
			require.NoError(t, err, "split at %d", split)
			assert.Equal(t, int64(split), re.Seam.Stored[Combined].Bytes)
			_, err = re.W.Sink(Combined).Write(all[split:])
			require.NoError(t, err)
			require.NoError(t, re.W.Finish(Footer{Status: StatusStreamEnded}))
			got, err := Open(sd, w.Name)
			require.NoError(t, err)
			assert.Equal(t, want.Footer.Cut, got.Footer.Cut, "split at %d", split)
			assert.Equal(t, want.Footer.Stored, got.Footer.Stored, "split at %d", split)
			assert.Equal(t, collect(t, want, LineOptions{}), collect(t, got, LineOptions{}), "split at %d", split)
			assert.Equal(t, collect(t, want, LineOptions{Tail: 50}), collect(t, got, LineOptions{Tail: 50}), "split at %d", split)
			assert.LessOrEqual(t, got.KeptBytes(), int64(16<<10)+16<<10/8, "the cap holds")
			require.NoError(t, got.Close())
		}
	}
}

// A missing recording is refused, and so is a damaged chunk index.
func TestReopenRefuses(t *testing.T) {
	sd := newSession(t)
	_, err := Reopen(ReopenOptions{Session: sd, Name: "0009-none"})
	require.ErrorIs(t, err, os.ErrNotExist)

	w, err := Create(CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{Stdout}})
	require.NoError(t, err)
	_, err = w.Sink(Stdout).Write([]byte("a\n"))
	require.NoError(t, err)
	require.NoError(t, w.Finish(Footer{Status: StatusStreamEnded}))
	dir := filepath.Join(sd.Store.Path, "sessions", sd.Name, w.Name)
	require.NoError(t, os.WriteFile(filepath.Join(dir, ChunksFile), []byte("garbage"), 0o600))
	_, err = Reopen(ReopenOptions{Session: sd, Name: w.Name})
	require.ErrorIs(t, err, ErrNotAppend)
	r, err := Open(sd, w.Name)
	require.NoError(t, err)
	assert.Equal(t, StatusStreamEnded, r.Status, "a refusal changes nothing")
	require.NoError(t, r.Close())
}
