package app

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
)

// A second producer (a stream on stdin, a remote runner, an agent's
// transcript) records through the lifecycle with no child process: the
// recording is published as running, fed from a reader through the
// redactor, told the outcome, and read back by the services rac out uses.
func TestRecordingFedFromReader(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a := f.app()
	rec, err := a.CreateRecording(ctx, RecordingRequest{
		Argv: []string{"transcript", "--token", testSecret}, Cwd: "/work/" + testSecret,
		Streams: []string{StreamCombined},
	})
	require.NoError(t, err)
	assert.Equal(t, "test/0001-transcript", rec.Ref())
	assert.Equal(t, "test", rec.Session())
	assert.Empty(t, rec.Warnings())

	list, err := f.app().List(ctx, Scope{Session: "test"})
	require.NoError(t, err)
	require.Len(t, list.Entries, 1)
	assert.Equal(t, record.StatusRunning, list.Entries[0].Status, "published before the first byte")
	assert.Equal(t, RecordCombined, list.Entries[0].Mode, "one stream: combined")

	src := "first line\nthe key is " + testSecret + "\nno newline at the end"
	// one byte per read: the redactor sees the secret split across writes
	require.NoError(t, rec.Feed(ctx, StreamCombined, iotest.OneByteReader(strings.NewReader(src))))
	require.NoError(t, rec.Finish(Outcome{Status: StatusExited, ExitCode: 3, Notes: []string{"upstream said " + testSecret}}))

	got := f.read(ReadRequest{Ref: rec.Ref()})
	assert.Contains(t, got, "first line\n")
	assert.Contains(t, got, "no newline at the end\n")
	assert.NotContains(t, got, testSecret)
	assert.Contains(t, got, "the key is [REDACTED:")

	list, err = f.app().List(ctx, Scope{Session: "test"})
	require.NoError(t, err)
	e := list.Entries[0]
	assert.Equal(t, StatusExited, e.Status)
	require.NotNil(t, e.ExitCode)
	assert.Equal(t, 3, *e.ExitCode)
	assert.Equal(t, int64(len(src)), e.CombinedBytes, "received: the bytes as fed, before redaction")
	assert.Equal(t, 1, e.Redactions)
	assert.Equal(t, []string{"transcript", "--token", e.Argv[2]}, e.Argv)
	assert.NotContains(t, strings.Join(e.Argv, " ")+e.Cwd+strings.Join(e.Notes, " "), testSecret, "argv, cwd and notes are redacted")
	assert.Len(t, e.Notes, 1)

	rep, err := f.app().Explain(ctx, rec.Ref())
	require.NoError(t, err)
	assert.Equal(t, StatusExited, rep.Meta.Status)
}

// A producer that loses its source before it knows the outcome leaves the
// recording incomplete: what arrived is kept and readable, with the
// signal that was stopping it, and a later Finish is refused by nothing
// (the writers are closed and drop what comes).
func TestRecordingAbandoned(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rec, err := f.app().CreateRecording(ctx, RecordingRequest{Argv: []string{"remote", "job"}, Streams: []string{StreamStdout, StreamStderr}})
	require.NoError(t, err)
	cut := errors.New("connection reset")
	err = rec.Feed(ctx, StreamStdout, io.MultiReader(strings.NewReader("partial\nline"), iotest.ErrReader(cut)))
	require.ErrorIs(t, err, cut)
	w, err := rec.Stream(StreamStderr)
	require.NoError(t, err)
	_, err = w.Write([]byte("warn\n"))
	require.NoError(t, err)
	rec.Stopping("SIGHUP")
	require.NoError(t, rec.Abandon())
	n, err := w.Write([]byte("after the end\n"))
	assert.NoError(t, err, "a late write is dropped, not an error")
	assert.Equal(t, 14, n)

	list, err := f.app().List(ctx, Scope{Session: "test"})
	require.NoError(t, err)
	require.Len(t, list.Entries, 1)
	e := list.Entries[0]
	assert.Equal(t, record.StatusIncomplete, e.Status)
	assert.Equal(t, RecordPipes, e.Mode)
	assert.Nil(t, e.ExitCode)
	assert.Equal(t, int64(len("partial\nline")), e.StdoutBytes, "what was stored so far")
	assert.Contains(t, e.Notes, "rac was killed while stopping the command after SIGHUP")
	assert.Equal(t, "partial\nline\n[rac: line 2 of stdout may be cut: the recorder was killed before its newline]\n", f.read(ReadRequest{Ref: rec.Ref(), Stream: StreamStdout}))
	assert.Equal(t, "warn\n", f.read(ReadRequest{Ref: rec.Ref(), Stream: StreamStderr}))
	assert.NotContains(t, f.read(ReadRequest{Ref: rec.Ref()}), "after the end")
}

func TestRecordingStreams(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rec, err := f.app().CreateRecording(ctx, RecordingRequest{Argv: []string{"x"}, Streams: []string{StreamStdout, StreamStderr}})
	require.NoError(t, err)
	_, err = rec.Stream(StreamCombined)
	assert.ErrorContains(t, err, `has no stream "combined"`)
	w1, err := rec.Stream(StreamStdout)
	require.NoError(t, err)
	w2, err := rec.Stream(StreamStdout)
	require.NoError(t, err)
	assert.Same(t, w1, w2, "one writer per stream")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	assert.ErrorIs(t, rec.Feed(cancelled, StreamStdout, strings.NewReader("x")), context.Canceled)
	require.NoError(t, rec.Finish(Outcome{Status: StatusSignaled, Signal: "SIGINT"}))

	list, err := f.app().List(ctx, Scope{Session: "test"})
	require.NoError(t, err)
	require.NotNil(t, list.Entries[0].Signal)
	assert.Equal(t, "SIGINT", *list.Entries[0].Signal)
	assert.Equal(t, RecordPipes, list.Entries[0].Mode)

	_, err = f.app().CreateRecording(cancelled, RecordingRequest{Argv: []string{"x"}})
	assert.ErrorIs(t, err, context.Canceled)
}

// Without redaction the bytes are stored as received; with no streams a
// recording holds metadata only.
func TestRecordingUnredactedAndMetadataOnly(t *testing.T) {
	f := newFixture(t)
	f.set.RedactEnabled = false
	ctx := context.Background()
	ref := f.record([]string{"echo"}, map[string]string{StreamStdout: "key " + testSecret + "\n"}, Outcome{Status: StatusExited})
	assert.Equal(t, "key "+testSecret+"\n", f.read(ReadRequest{Ref: ref, Raw: true}))

	rec, err := f.app().CreateRecording(ctx, RecordingRequest{Argv: []string{"vim"}})
	require.NoError(t, err)
	require.NoError(t, rec.Finish(Outcome{Status: StatusExited}))
	list, err := f.app().List(ctx, Scope{Session: "test"})
	require.NoError(t, err)
	require.Len(t, list.Entries, 2)
	assert.Equal(t, RecordPassthrough, list.Entries[1].Mode)
	assert.Equal(t, RecordCombined, defaultMode([]string{StreamCombined}))
}

// A bad session name or a full disk stops a second producer with an
// error of its own (rac run makes that a warning).
func TestCreateRecordingRefused(t *testing.T) {
	f := newFixture(t)
	f.set.Session = "Not A Name"
	_, err := f.app().CreateRecording(context.Background(), RecordingRequest{Argv: []string{"x"}})
	assert.True(t, IsUsage(err), "%v", err)

	f = newFixture(t)
	f.set.GC.MinFreeBytes = 1 << 62
	_, err = f.app().CreateRecording(context.Background(), RecordingRequest{Argv: []string{"x"}})
	assert.ErrorContains(t, err, "gc.min_free_bytes")
}
