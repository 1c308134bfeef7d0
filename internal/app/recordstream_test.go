package app

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
)

// firstRead is a stream whose first read checks, through check, what
// another shell sees before any byte was read.
type firstRead struct {
	r     io.Reader
	check func()
	done  bool
}

func (f *firstRead) Read(p []byte) (int, error) {
	if !f.done {
		f.done = true
		f.check()
	}
	return f.r.Read(p)
}

// rac record publishes the reference, and the recording lists as
// running, before it reads the first byte.
func TestRecordPublishesBeforeFirstByte(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	var started string
	var statusAtFirstRead string
	in := &firstRead{r: strings.NewReader("one\n"), check: func() {
		list, err := f.app().List(ctx, Scope{Session: "test"})
		require.NoError(t, err)
		require.Len(t, list.Entries, 1)
		statusAtFirstRead = list.Entries[0].Status
	}}
	var tee bytes.Buffer
	res, err := f.app().Record(ctx, RecordRequest{In: in, Tee: &tee, Name: "ci-log",
		OnStart: func(ref string) { started = ref }})
	require.NoError(t, err)
	assert.Equal(t, "test/0001-ci-log", started)
	assert.Equal(t, record.StatusRunning, statusAtFirstRead)
	assert.Equal(t, "one\n", tee.String())
	assert.Equal(t, StatusStreamEnded, res.Outcome.Status)
	assert.NoError(t, RecordExit(res), "rac record did its part")
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("broken pipe")
}

// Each way of stating the outcome is what the recording says, and its
// footer says where it came from; a tee that fails stops, the recording
// goes on.
func TestRecordStatedOutcomes(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	dir := t.TempDir()
	status := filepath.Join(dir, "status")
	require.NoError(t, os.WriteFile(status, []byte(" 3\n"), 0o600))
	bad := filepath.Join(dir, "bad")
	require.NoError(t, os.WriteFile(bad, []byte("three"), 0o600))
	code, three := 7, 3
	for _, tc := range []struct {
		stated StatedOutcome
		status string
		code   *int
		from   string
		exit   error
		err    bool
	}{
		{StatedOutcome{}, StatusStreamEnded, nil, FromNotStated, nil, false},
		{StatedOutcome{ExitCode: &code}, StatusExited, &code, FromExitCode, ExitCode{Code: 7}, false},
		{StatedOutcome{TimedOut: true}, StatusTimedOut, nil, FromTimedOut, ExitCode{Code: ExitTimeout}, false},
		{StatedOutcome{TransportError: "reset"}, StatusTransportError, nil, FromTransportError, ExitCode{Code: 1}, false},
		{StatedOutcome{StatusFrom: status}, StatusExited, &three, FromStatusFrom + " " + status, ExitCode{Code: 3}, false},
		{StatedOutcome{StatusFrom: bad}, StatusStreamEnded, nil, FromNotStated, nil, true},
	} {
		tee := &failingWriter{}
		res, err := f.app().Record(ctx, RecordRequest{In: strings.NewReader("a\nb\n"), Tee: tee, Stated: tc.stated})
		if tc.err {
			require.Error(t, err)
			assert.Contains(t, err.Error(), `it holds "three", not an exit code`)
		} else {
			require.NoError(t, err)
			assert.Equal(t, tc.exit, RecordExit(res))
		}
		assert.Equal(t, 1, tee.n, "the tee stops at its first failure")
		assert.Error(t, res.TeeErr)
		rec, err := f.app().Open(res.Ref)
		require.NoError(t, err)
		assert.Equal(t, tc.status, rec.Status)
		assert.Equal(t, tc.code, rec.Footer.ExitCode)
		assert.Equal(t, tc.from, rec.Footer.OutcomeFrom)
		assert.Equal(t, int64(4), rec.Footer.Stored[StreamCombined].Bytes, "the recording went on")
		rec.Close()
	}
}

// Asking for two outcomes, a bad name or rac's own streams as the status
// is a usage error before anything is recorded.
func TestRecordRequestChecked(t *testing.T) {
	code := 1
	for _, req := range []RecordRequest{
		{Stated: StatedOutcome{ExitCode: &code, TimedOut: true}},
		{Name: "Has Spaces"},
		{Name: "-dash"},
		{Append: "0001", Name: "x"},
		{Stated: StatedOutcome{StatusFrom: "1"}},
		{Stated: StatedOutcome{StatusFrom: "-3"}},
		{Stated: StatedOutcome{TransportError: "  "}},
		{Stated: StatedOutcome{ExitCode: func() *int { n := 256; return &n }()}},
	} {
		assert.True(t, IsUsage(checkRecordRequest(req)), "%+v", req)
	}
	assert.NoError(t, checkRecordRequest(RecordRequest{Name: "ci-log-2", Stated: StatedOutcome{StatusFrom: "3"}}))
}

// An append continues the recording; the footer counts both parts.
func TestRecordAppendCountsBothParts(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	res, err := f.app().Record(ctx, RecordRequest{In: strings.NewReader("one\n"), Cmd: "kubectl logs -f job/x"})
	require.NoError(t, err)
	assert.Equal(t, "test/0001-kubectl-logs", res.Ref)
	code := 0
	res2, err := f.app().Record(ctx, RecordRequest{In: strings.NewReader("two\n"), Append: "0001", Stated: StatedOutcome{ExitCode: &code}})
	require.NoError(t, err)
	assert.Equal(t, res.Ref, res2.Ref)
	require.NotNil(t, res2.Seam)
	assert.Equal(t, record.StatusStreamEnded, res2.Seam.Before)
	rec, err := f.app().Open(res.Ref)
	require.NoError(t, err)
	defer rec.Close()
	assert.Equal(t, int64(8), rec.Footer.Received[StreamCombined].Bytes)
	assert.Equal(t, "one\ntwo\n", f.read(ReadRequest{Ref: res.Ref}))
	_, err = f.app().Record(ctx, RecordRequest{In: strings.NewReader("three\n"), Append: "0001"})
	assert.True(t, IsUsage(err))
	assert.Contains(t, err.Error(), "its outcome was stated, so it is final (exited with code 0)")
}

// A stream rac cannot record (a bad RAC_SESSION) still goes through to
// stdout, with one warning, and rac record exits as stated; a bad
// --session is the user's usage error.
func TestRecordUnrecordedStillCopies(t *testing.T) {
	f := newFixture(t)
	f.set.Session = ""
	f.env["RAC_SESSION"] = "Bad Name"
	var tee bytes.Buffer
	code := 4
	res, err := f.app().Record(context.Background(), RecordRequest{In: strings.NewReader("through\n"), Tee: &tee,
		Stated: StatedOutcome{ExitCode: &code}, OnStart: func(string) { t.Error("no reference to publish") }})
	require.NoError(t, err)
	assert.Empty(t, res.Ref)
	assert.Equal(t, "through\n", tee.String())
	assert.Equal(t, ExitCode{Code: 4}, RecordExit(res))
	require.Len(t, f.warnings(), 1)
	assert.Contains(t, f.warnings()[0], "not recording this stream")

	f = newFixture(t)
	f.set.Session = "Bad Name"
	_, err = f.app().Record(context.Background(), RecordRequest{In: strings.NewReader("x\n"), Tee: &tee})
	assert.True(t, IsUsage(err))
}
