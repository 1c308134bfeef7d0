package capture

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// countSink is a store's sink that notes how each write came.
type countSink struct {
	buf     bytes.Buffer
	counted []int64 // the count of each counted write
	plain   int     // writes without a count
	err     error
}

func (s *countSink) Write(p []byte) (int, error) {
	s.plain++
	if s.err != nil {
		return 0, s.err
	}
	return s.buf.Write(p)
}

func (s *countSink) WriteCounted(p []byte, nl int64) (int, error) {
	s.counted = append(s.counted, nl)
	if s.err != nil {
		return 0, s.err
	}
	return s.buf.Write(p)
}

func TestTeeWriterPassesTheCountToTheSink(t *testing.T) {
	sink, tee := &countSink{}, &bytes.Buffer{}
	w := teeWriter{sink, tee}
	n, err := w.WriteCounted([]byte("a\nb\nc"), 2)
	require.NoError(t, err)
	require.Equal(t, 5, n)
	n, err = w.Write([]byte("d\n"))
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.Equal(t, []int64{2}, sink.counted, "a counted write reaches the sink with its count")
	require.Equal(t, 1, sink.plain, "an uncounted one without")
	require.Equal(t, "a\nb\ncd\n", sink.buf.String())
	require.Equal(t, "a\nb\ncd\n", tee.String())
}

func TestTeeWriterStopsAtTheSinksError(t *testing.T) {
	boom := errors.New("boom")
	sink, tee := &countSink{err: boom}, &bytes.Buffer{}
	_, err := teeWriter{sink, tee}.WriteCounted([]byte("a\n"), 1)
	require.ErrorIs(t, err, boom)
	require.Zero(t, tee.Len(), "as io.MultiWriter: the tee gets nothing after the sink failed")
	_, err = teeWriter{&countSink{}, shortWriter{}}.Write([]byte("a\n"))
	require.ErrorIs(t, err, io.ErrShortWrite)
}

type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) - 1, nil }

// handSink takes buffers over (as the redactor does), failing from its
// second write on.
type handSink struct {
	buf    bytes.Buffer
	writes int
}

func (h *handSink) Write(p []byte) (int, error) { return h.buf.Write(p) }

func (h *handSink) WriteOwned(p []byte, done func()) (int64, error) {
	defer done()
	h.writes++
	if h.writes > 1 {
		return int64(bytes.Count(p, []byte{'\n'})), errors.New("store full")
	}
	h.buf.Write(p)
	return int64(bytes.Count(p, []byte{'\n'})), nil
}

// A stage in front of a filter that takes buffers over counts their
// newlines for the pump, also those it no longer stores after an error.
func TestStageCountsWhatItHandsOver(t *testing.T) {
	h := &handSink{}
	s := newStage(h, nil, func(time.Time) {}, false)
	require.True(t, s.counts(), "the pump leaves the count to the stage")
	for _, chunk := range []string{"a\nb\n", "c\nd", "\ne\nf\n", "g"} {
		b := s.get(bufStart)
		s.put(b[:copy(b, chunk)], time.Time{}, -1)
	}
	require.EqualError(t, s.close(), "store full")
	require.Equal(t, int64(6), s.nl)
	require.Equal(t, "a\nb\n", h.buf.String())
	require.Len(t, s.free, s.made, "every buffer came back")
	require.False(t, newStage(&handSink{}, nil, nil, true).counts(), "a synchronous stage stores what the pump counted")
}
