package capture

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/record"
)

func TestSameDescription(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	open := func(t *testing.T) *os.File {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o600)
		require.NoError(t, err)
		t.Cleanup(func() { f.Close() })
		return f
	}
	dup := func(t *testing.T, f *os.File) *os.File {
		fd, err := dupFd(f)
		require.NoError(t, err)
		d := os.NewFile(uintptr(fd), f.Name())
		t.Cleanup(func() { d.Close() })
		return d
	}
	for _, tc := range []struct {
		name  string
		files func(t *testing.T) (a, b *os.File)
		same  bool
	}{
		{"one pipe", func(t *testing.T) (*os.File, *os.File) {
			r, w, err := os.Pipe()
			require.NoError(t, err)
			t.Cleanup(func() { r.Close(); w.Close() })
			return w, dup(t, w)
		}, true},
		{"two pipes", func(t *testing.T) (*os.File, *os.File) {
			r1, w1, err := os.Pipe()
			require.NoError(t, err)
			r2, w2, err := os.Pipe()
			require.NoError(t, err)
			t.Cleanup(func() { r1.Close(); w1.Close(); r2.Close(); w2.Close() })
			return w1, w2
		}, false},
		{"a file and its dup (2>&1)", func(t *testing.T) (*os.File, *os.File) {
			f := open(t)
			return f, dup(t, f)
		}, true},
		{"one file opened twice (>f 2>f)", func(t *testing.T) (*os.File, *os.File) {
			return open(t), open(t)
		}, false},
		{"one terminal opened twice", func(t *testing.T) (*os.File, *os.File) {
			ptm, tty, err := pty.Open()
			require.NoError(t, err)
			again, err := os.OpenFile(tty.Name(), os.O_WRONLY, 0)
			require.NoError(t, err)
			t.Cleanup(func() { ptm.Close(); tty.Close(); again.Close() })
			return tty, again
		}, true},
		{"nil", func(t *testing.T) (*os.File, *os.File) { return open(t), nil }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := tc.files(t)
			require.Equal(t, tc.same, SameDescription(a, b))
			if a != nil && b != nil {
				require.Equal(t, tc.same, SameDescription(b, a))
			}
		})
	}
}

// Without kcmp, status flags tell one description from two.
func TestSharesFlags(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	f1, err := os.Create(name)
	require.NoError(t, err)
	defer f1.Close()
	f2, err := os.OpenFile(name, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer f2.Close()
	fd, err := dupFd(f1)
	require.NoError(t, err)
	d := os.NewFile(uintptr(fd), name)
	defer d.Close()
	require.True(t, sharesFlags(rawFd(f1), rawFd(d)))
	require.False(t, sharesFlags(rawFd(f1), rawFd(f2)))
}

// With Combined, the command's writes to fd 1 and fd 2 keep their exact
// order, forwarded and stored as one stream.
func TestRunCombinedKeepsOrder(t *testing.T) {
	outFile, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer outFile.Close()
	var stored strings.Builder
	script := `i=0; while [ $i -lt 200 ]; do echo out$i; echo err$i >&2; i=$((i+1)); done`
	out := Run(RunOptions{
		Argv: []string{"sh", "-c", script}, Stdout: outFile, Stderr: devNullOut(t), Combined: true,
		Tee: func(stream string) io.Writer {
			require.Equal(t, record.Combined, stream)
			return &stored
		},
	})
	require.Equal(t, record.StatusExited, out.Status)
	var want strings.Builder
	for i := range 200 {
		fmt.Fprintf(&want, "out%d\nerr%d\n", i, i)
	}
	b, err := os.ReadFile(outFile.Name())
	require.NoError(t, err)
	require.Equal(t, want.String(), string(b))
	require.Equal(t, want.String(), stored.String())
	require.Equal(t, map[string]record.Counts{record.Combined: {Bytes: int64(want.Len()), Lines: 400}}, out.Received)
}

// A process the command left running holds the pipes: Run returns after
// the drain timeout, names it, and hands the pipe to a forwarder, so its
// later writes neither fail nor go unseen.
func TestRunHandsOverALeftRunningProcess(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, unix.Mkfifo(fifo, 0o600))
	out := Run(RunOptions{
		Argv:   []string{"sh", "-c", `(read x < "$1"; exec echo late) & echo done`, "sh", fifo},
		Stdout: w, Stderr: devNullOut(t), DrainTimeout: 50 * time.Millisecond,
	})
	require.NoError(t, w.Close())
	require.Equal(t, record.StatusExited, out.Status)
	require.Len(t, out.Notes, 1)
	require.Regexp(t, `^pid \d+ \(sh\) still held the output after 50ms; its later output is not recorded$`, out.Notes[0])
	require.NoError(t, os.WriteFile(fifo, []byte("go\n"), 0o600))
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, "done\nlate\n", string(b))
}

// A failed write to rac's stdout closes the command's pipe and says so;
// a reader that went away (EPIPE) is the reader's choice and no warning.
func TestRunForwardFailure(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	var warned []string
	out := Run(RunOptions{
		Argv: []string{"sh", "-c", "while echo y; do :; done"}, Stdout: full, Stderr: devNullOut(t),
		Warn: func(m string) { warned = append(warned, m) },
	})
	require.Equal(t, record.StatusSignaled, out.Status)
	require.Equal(t, syscall.SIGPIPE, out.Signal)
	require.Equal(t, []string{"stdout: no space left on device"}, warned)
	require.Equal(t, map[string]error{record.Stdout: syscall.ENOSPC}, out.ForwardErr)

	r, w, err := os.Pipe()
	require.NoError(t, err)
	require.NoError(t, r.Close())
	warned = nil
	out = Run(RunOptions{
		Argv: []string{"sh", "-c", "while echo y; do :; done"}, Stdout: w, Stderr: devNullOut(t),
		Warn: func(m string) { warned = append(warned, m) },
	})
	w.Close()
	require.Equal(t, syscall.SIGPIPE, out.Signal)
	require.Empty(t, warned)
	require.Empty(t, out.ForwardErr)
}

// dupFd duplicates f's descriptor (close-on-exec).
func dupFd(f *os.File) (int, error) {
	fd := rawFd(f)
	if fd < 0 {
		return -1, os.ErrClosed
	}
	return unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
}
