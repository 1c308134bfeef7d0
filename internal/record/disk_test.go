package record

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// folderTotals sums what a walk of dir finds, footer.json aside.
func folderTotals(t *testing.T, dir string) (size, alloc int64, newest time.Time) {
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range ents {
		if e.Name() == FooterFile || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		require.NoError(t, err)
		size += fi.Size()
		alloc += int64(fi.Sys().(*syscall.Stat_t).Blocks) * 512
		if fi.ModTime().After(newest) {
			newest = fi.ModTime()
		}
	}
	return size, alloc, newest
}

func readFooter(t *testing.T, dir string) Footer {
	b, err := os.ReadFile(filepath.Join(dir, FooterFile))
	require.NoError(t, err)
	var f Footer
	require.NoError(t, json.Unmarshal(b, &f))
	return f
}

func TestFooterSaysWhatTheFolderHolds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		maxBytes  int64
		headBytes int64
		out       string
	}{
		{"plain", 0, 0, strings.Repeat("line\n", 3000)},
		{"empty", 0, 0, ""},
		{"capped, with tail segments and cut.json", 8 << 10, 2 << 10, strings.Repeat("0123456789abcdef\n", 4000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sd := newSession(t)
			w, err := Create(CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{Stdout, Stderr}, MaxBytes: tc.maxBytes, HeadBytes: tc.headBytes})
			require.NoError(t, err)
			for i := 0; i < len(tc.out); i += 1000 {
				_, err := w.Sink(Stdout).Write([]byte(tc.out[i:min(i+1000, len(tc.out))]))
				require.NoError(t, err)
			}
			_, err = w.Sink(Stderr).Write([]byte("warning\n"))
			require.NoError(t, err)
			// a caller cannot make up a summary
			require.NoError(t, w.Finish(Footer{Status: StatusExited, Disk: &Disk{Bytes: 1}}))

			dir := filepath.Join(sd.Store.Path, "sessions", sd.Name, w.Name)
			f := readFooter(t, dir)
			require.NotNil(t, f.Disk)
			size, alloc, newest := folderTotals(t, dir)
			assert.Equal(t, size, f.Disk.Bytes)
			assert.Equal(t, alloc, f.Disk.Allocated, "the blocks of its files, as du counts them")
			assert.True(t, newest.Equal(f.Disk.Newest), "newest %v, footer says %v", newest, f.Disk.Newest)
			fi, err := os.Stat(dir)
			require.NoError(t, err)
			assert.Equal(t, fi.Sys().(*syscall.Stat_t).Ino, f.Disk.Inode)
			ffi, err := os.Stat(filepath.Join(dir, FooterFile))
			require.NoError(t, err)
			assert.False(t, f.Disk.Newest.After(ffi.ModTime()), "written before the footer")
			if tc.maxBytes > 0 {
				assert.True(t, f.Truncated)
				assert.FileExists(t, filepath.Join(dir, CutFile))
				segs, err := filepath.Glob(filepath.Join(dir, Stdout+tailInfix+"*"))
				require.NoError(t, err)
				assert.NotEmpty(t, segs)
			}
		})
	}
}

func TestMeasureDir(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"a": "12345", "lock": "", FooterFile: "left out", "unknown": "xy"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600))
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 6, time.UTC)
	newer := old.Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "a"), old, old))
	require.NoError(t, os.Chtimes(filepath.Join(dir, "lock"), old, old))
	require.NoError(t, os.Chtimes(filepath.Join(dir, "unknown"), newer, newer))
	require.NoError(t, os.Chtimes(filepath.Join(dir, FooterFile), newer.Add(time.Hour), newer.Add(time.Hour)))
	require.NoError(t, os.Symlink("a", filepath.Join(dir, "link")))
	measure := func() *Disk {
		r, err := os.OpenRoot(dir)
		require.NoError(t, err)
		defer r.Close()
		d, err := MeasureDir(r)
		require.NoError(t, err)
		return d
	}
	d := measure()
	require.NotNil(t, d)
	assert.EqualValues(t, 7, d.Bytes, "regular files but the footer; a symlink is not followed")
	assert.Equal(t, newer, d.Newest)

	// a file in a folder in there would change nothing GC looks at
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o700))
	assert.Nil(t, measure())
}
