package racrecord_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/pkg/racrecord"
)

func testEnv(t *testing.T) func(string) string {
	dir := t.TempDir()
	env := map[string]string{"RAC_HOME": filepath.Join(dir, "store"), "HOME": dir, "RAC_SESSION": "runner"}
	return func(k string) string { return env[k] }
}

// reader is an App that reads the store of getenv back, as rac out does.
func reader(getenv func(string) string) *app.App {
	a := app.New(app.Env{Getenv: getenv, Environ: os.Environ, Now: time.Now}, app.Settings{RedactEnabled: true})
	a.Warn, a.Note = func(string) {}, func(string) {}
	return a
}

func readBack(t *testing.T, getenv func(string) string, ref string) (*record.Recording, string) {
	rec, err := reader(getenv).Open(ref)
	require.NoError(t, err)
	t.Cleanup(func() { rec.Close() })
	var b strings.Builder
	_, err = rec.CopyRaw(&b, record.Combined)
	require.NoError(t, err)
	return rec, b.String()
}

// The runner publishes the reference before it connects: the builder
// finds the recording running when the connection arrives. The chunks
// are recorded as they came, and the footer carries the builder's exit
// code and says where it came from.
func TestRemoteBuilderOverTCP(t *testing.T) {
	getenv := testEnv(t)
	refs, atAccept := make(chan string, 1), make(chan string, 1)
	chunks := []string{"   Compiling demo v0.1.0\n", "warning: unused", " variable\n", "error: token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB\n"}
	addr := fakeBuilder(chunks, 3, false, func() {
		// the builder looks the reference up as another shell would
		rec, err := reader(getenv).Open(<-refs)
		if err != nil {
			atAccept <- err.Error()
			return
		}
		atAccept <- rec.Status
		rec.Close()
	})
	rec, err := racrecord.Open(context.Background(), racrecord.Options{Argv: []string{"cargo", "build", "--remote"}, Getenv: getenv})
	require.NoError(t, err)
	ref := rec.Ref()
	refs <- ref
	assert.Equal(t, "runner/0001-cargo-build", ref)
	code, err := runRemote(addr, rec)
	require.NoError(t, err)
	require.NoError(t, rec.Finish(racrecord.Exited(code)))
	assert.Equal(t, record.StatusRunning, <-atAccept, "the reference was published before the connection")

	got, text := readBack(t, getenv, ref)
	assert.Equal(t, record.StatusExited, got.Status)
	require.NotNil(t, got.Footer.ExitCode)
	assert.Equal(t, 3, *got.Footer.ExitCode)
	assert.Equal(t, app.FromAPI, got.Footer.OutcomeFrom)
	assert.Equal(t, record.SourceAPI, got.Meta.Source)
	assert.Equal(t, []string{"cargo", "build", "--remote"}, got.Meta.Argv)
	assert.Equal(t, "   Compiling demo v0.1.0\nwarning: unused variable\nerror: token [REDACTED:github-token]\n", text, "redacted as rac run does")
	_, err = rec.Write([]byte("late"))
	assert.ErrorIs(t, err, racrecord.ErrFinished)
	assert.ErrorIs(t, rec.Finish(racrecord.Exited(0)), racrecord.ErrFinished)
}

// A connection that drops in the middle of the stream records a
// transport error and no exit status: what arrived is kept, and it never
// reads as a success.
func TestRemoteBuilderDropsMidStream(t *testing.T) {
	getenv := testEnv(t)
	addr := fakeBuilder([]string{"partial output\n", "never sent\n"}, 0, true, nil)
	rec, err := racrecord.Open(context.Background(), racrecord.Options{Description: "cargo build --remote", Getenv: getenv})
	require.NoError(t, err)
	_, err = runRemote(addr, rec)
	require.Error(t, err)
	require.NoError(t, rec.Finish(racrecord.TransportError(err.Error())))

	got, text := readBack(t, getenv, rec.Ref())
	assert.Equal(t, record.StatusTransportError, got.Status)
	assert.Nil(t, got.Footer.ExitCode, "no exit status")
	assert.Equal(t, "partial output\n", text)
	require.NotEmpty(t, got.Footer.Notes)
	assert.Contains(t, got.Footer.Notes[0], "transport error: the builder's stream ended before its exit status")
}

// Abandon leaves the recording incomplete; the zero Outcome states
// nothing (stream ended); Cancelled and TimedOut carry no exit status.
func TestOutcomes(t *testing.T) {
	getenv := testEnv(t)
	for _, tc := range []struct {
		end    func(*racrecord.Recording) error
		status string
	}{
		{func(r *racrecord.Recording) error { return r.Abandon() }, record.StatusIncomplete},
		{func(r *racrecord.Recording) error { return r.Finish(racrecord.Outcome{}) }, record.StatusStreamEnded},
		{func(r *racrecord.Recording) error { return r.Finish(racrecord.Cancelled()) }, record.StatusCancelled},
		{func(r *racrecord.Recording) error { return r.Finish(racrecord.TimedOut()) }, record.StatusTimedOut},
	} {
		rec, err := racrecord.Open(context.Background(), racrecord.Options{Description: "job", Getenv: getenv})
		require.NoError(t, err)
		_, err = rec.Write([]byte("x\n"))
		require.NoError(t, err)
		require.NoError(t, tc.end(rec))
		got, text := readBack(t, getenv, rec.Ref())
		assert.Equal(t, tc.status, got.Status)
		assert.Equal(t, "x\n", text)
		if got.Footer != nil {
			assert.Nil(t, got.Footer.ExitCode, tc.status)
		}
	}
}
