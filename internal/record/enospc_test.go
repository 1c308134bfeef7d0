package record

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rac-cli/rac/internal/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallFS mounts a tmpfs of size bytes for the test, or skips saying why.
func smallFS(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipped: mounting the small tmpfs this test fills needs root; TestFooterFitsItsReserve covers the reserve without it")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("skipped: cannot mount a tmpfs here (%v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
	return mnt
}

// A file system filling up in the middle of a run breaks the recording
// off, but the recorder lives and knows the command's status: the footer
// still says it, with the exit code, and what was stored reads back.
func TestFullDiskKeepsOutcome(t *testing.T) {
	for _, tc := range []struct {
		name           string
		maxBytes, head int64
	}{{"plain", 0, 0}, {"capped", 1 << 20, 64 << 10}} {
		t.Run(tc.name, func(t *testing.T) {
			mnt := smallFS(t, "256k")
			st, err := store.CreateStore(filepath.Join(mnt, "store"))
			require.NoError(t, err)
			defer st.Close()
			sd, err := st.Session("s", true)
			require.NoError(t, err)
			defer sd.Close()
			w, err := Create(CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{Stdout, Stderr}, MaxBytes: tc.maxBytes, HeadBytes: tc.head})
			require.NoError(t, err)
			line := []byte(strings.Repeat("x", 99) + "\n")
			for i := 0; i < 10000 && w.Err() == nil; i++ {
				_, err := w.Sink(Stdout).Write(line)
				require.NoError(t, err, "the sink never fails the command")
			}
			require.ErrorIs(t, w.Err(), syscall.ENOSPC)
			code := 3
			require.NoError(t, w.Finish(Footer{Status: StatusExited, ExitCode: &code, Notes: []string{"drained"}}))

			r, err := Open(sd, w.Name)
			require.NoError(t, err)
			defer r.Close()
			assert.Equal(t, StatusExited, r.Status, "the recorder lived")
			require.NotNil(t, r.Footer)
			require.NotNil(t, r.Footer.ExitCode)
			assert.Equal(t, 3, *r.Footer.ExitCode)
			assert.True(t, r.Footer.BrokenOff)
			assert.Contains(t, strings.Join(r.Footer.Notes, "; "), "no space left on device")
			assert.Contains(t, r.Footer.Notes, "drained")
			n := 0
			require.NoError(t, r.Lines(LineOptions{Stream: Stdout}, func(l Line) error {
				if !l.Marker {
					n++
					assert.Equal(t, line[:len(line)-1], l.Text)
				}
				return nil
			}))
			assert.Positive(t, n)
		})
	}
}

// The footer's room is taken when the recording starts, and the footer
// never outgrows it, however many notes and redaction rules it is given.
func TestFooterFitsItsReserve(t *testing.T) {
	sd := newSession(t)
	w, err := Create(CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{Stdout, Stderr}, MaxBytes: 8 << 10, HeadBytes: 2 << 10})
	require.NoError(t, err)
	dir := filepath.Join(sd.Store.Path, "sessions", sd.Name, w.Name)
	fi, err := os.Stat(filepath.Join(dir, footerReserveFile))
	require.NoError(t, err, "reserved at the start")
	assert.EqualValues(t, footerReserve, fi.Size())
	for i := 0; i < 100; i++ {
		_, err := w.Sink(Stdout).Write([]byte(strings.Repeat("y", 199) + "\n"))
		require.NoError(t, err)
	}
	notes := []string{}
	red := map[string]int{}
	total := 0
	for i := 0; i < 500; i++ {
		notes = append(notes, fmt.Sprintf("note %d <%s>", i, strings.Repeat("\x01é", 100)))
		red[fmt.Sprintf("env:SECRET_TOKEN_%04d", i)] = i + 1
		total += i + 1
	}
	code := 1
	w.setErr(fmt.Errorf("write stdout: %s", strings.Repeat("long reason ", 1000)))
	require.NoError(t, w.Finish(Footer{Status: StatusExited, ExitCode: &code, Notes: notes, Redactions: red, Signal: strings.Repeat("S", 5000), OutcomeFrom: strings.Repeat("\x01", 5000)}))

	b, err := os.ReadFile(filepath.Join(dir, FooterFile))
	require.NoError(t, err)
	assert.LessOrEqual(t, len(b), footerReserve)
	assert.NoFileExists(t, filepath.Join(dir, footerReserveFile))
	f := readFooter(t, dir)
	require.NotNil(t, f.ExitCode)
	assert.Equal(t, 1, *f.ExitCode)
	sum := 0
	for _, n := range f.Redactions {
		sum += n
	}
	assert.Equal(t, total, sum, "rules left out are counted under other")
	assert.Contains(t, f.Redactions, "other")
	require.NotEmpty(t, f.Notes)
	assert.Equal(t, notes[0], f.Notes[0])
	assert.True(t, strings.HasPrefix(f.Notes[len(f.Notes)-1], "recording broken off: write stdout: long reason"), "the broken-off note is kept")
	// gc trusts a footer's summary only if the folder is not newer
	dfi, err := os.Stat(dir)
	require.NoError(t, err)
	ffi, err := os.Stat(filepath.Join(dir, FooterFile))
	require.NoError(t, err)
	assert.False(t, dfi.ModTime().After(ffi.ModTime()), "folder %v, footer %v", dfi.ModTime(), ffi.ModTime())
	size, _, _ := folderTotals(t, dir)
	assert.Equal(t, size, f.Disk.Bytes)

	r, err := Open(sd, w.Name)
	require.NoError(t, err)
	defer r.Close()
	assert.Equal(t, StatusExited, r.Status)
}

// Escaping can make a bounded string six times its length: a footer whose
// notes, signal and broken-off reason are all control bytes still fits its
// reserve, giving up its notes before anything else.
func TestFooterOfEscapesFitsItsReserve(t *testing.T) {
	sd := newSession(t)
	w, err := Create(CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{Stdout, Stderr}, MaxBytes: 8 << 10, HeadBytes: 2 << 10})
	require.NoError(t, err)
	for _, s := range []string{Stdout, Stderr} {
		for i := 0; i < 100; i++ {
			_, err := w.Sink(s).Write([]byte(strings.Repeat("y", 199) + "\n"))
			require.NoError(t, err)
		}
	}
	ctl := strings.Repeat("\x01", 5000)
	notes := []string{"first", ctl, ctl}
	red := map[string]int{}
	for i := 0; i < 300; i++ {
		red[fmt.Sprintf("rule-\x01\x02-%04d", i)] = 1 << 40
	}
	w.setErr(errors.New(ctl))
	code := 1 << 30
	require.NoError(t, w.Finish(Footer{Status: StatusExited, ExitCode: &code, Notes: notes, Redactions: red, Signal: ctl,
		Received: map[string]Counts{Stdout: {Bytes: 1 << 50, Lines: 1 << 50}, Stderr: {Bytes: 1 << 50, Lines: 1 << 50}}}))
	dir := filepath.Join(sd.Store.Path, "sessions", sd.Name, w.Name)
	b, err := os.ReadFile(filepath.Join(dir, FooterFile))
	require.NoError(t, err)
	assert.LessOrEqual(t, len(b), footerReserve)
	f := readFooter(t, dir)
	assert.True(t, f.BrokenOff, "broken_off stays when its note had to go")
	require.NotNil(t, f.ExitCode)
	assert.Equal(t, code, *f.ExitCode)
	assert.NotEmpty(t, f.Cut, "the cut information is kept")
}
