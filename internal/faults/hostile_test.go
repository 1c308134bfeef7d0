package faults

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// secretOutside is what the files outside the store hold: no reader may
// ever print it.
const secretOutside = "OUTSIDE-THE-STORE-7f3a"

// A hostile set-up changes a store behind rac's back. victim is the
// folder of a finished recording (seq 1 1000), sess its session folder,
// outside a folder outside the store holding secretOutside.
type hostile struct {
	name   string
	tamper func(t *testing.T, victim, sess, outside string)
	root   bool // needs root (chown)
}

func replaceWith(t *testing.T, p string, make func(string) error) {
	require.NoError(t, os.RemoveAll(p))
	require.NoError(t, make(p))
}

func symlinkTo(target string) func(string) error {
	return func(p string) error { return os.Symlink(target, p) }
}

func fifo(p string) error { return syscall.Mkfifo(p, 0o600) }

func sparse(size int64) func(string) error {
	return func(p string) error {
		f, err := os.Create(p)
		if err != nil {
			return err
		}
		if err := f.Truncate(size); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
}

func cutToHalf(t *testing.T, p string) {
	fi, err := os.Stat(p)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(p, fi.Size()/2))
}

func hostiles() []hostile {
	var hs []hostile
	for _, file := range []string{"stdout", "chunks", "lines-stdout", "meta.json", "footer.json"} {
		hs = append(hs,
			hostile{file + " is a symlink out of the store", func(t *testing.T, v, _, out string) {
				replaceWith(t, filepath.Join(v, file), symlinkTo(filepath.Join(out, "secret")))
			}, false},
			hostile{file + " is a FIFO", func(t *testing.T, v, _, _ string) { replaceWith(t, filepath.Join(v, file), fifo) }, false},
			hostile{file + " is a 2 GiB sparse file", func(t *testing.T, v, _, _ string) {
				replaceWith(t, filepath.Join(v, file), sparse(2<<30))
			}, false},
			hostile{file + " is cut to half", func(t *testing.T, v, _, _ string) { cutToHalf(t, filepath.Join(v, file)) }, false},
			hostile{file + " is a hard link to a file outside", func(t *testing.T, v, _, out string) {
				replaceWith(t, filepath.Join(v, file), func(p string) error { return os.Link(filepath.Join(out, "secret"), p) })
			}, false},
			hostile{file + " belongs to someone else", func(t *testing.T, v, _, _ string) {
				require.NoError(t, os.Lchown(filepath.Join(v, file), 12345, 12345))
			}, true},
			hostile{file + " is a folder", func(t *testing.T, v, _, _ string) {
				replaceWith(t, filepath.Join(v, file), func(p string) error { return os.Mkdir(p, 0o700) })
			}, false},
		)
	}
	return append(hs,
		hostile{"stdout grows past the footer's count (appended)", func(t *testing.T, v, _, _ string) {
			f, err := os.OpenFile(filepath.Join(v, "stdout"), os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.WriteString(strings.Repeat("appended line\n", 1000))
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}, false},
		hostile{"the recording folder is a symlink out of the store", func(t *testing.T, v, _, out string) {
			require.NoError(t, os.Rename(v, filepath.Join(out, "rec")))
			require.NoError(t, os.Symlink(filepath.Join(out, "rec"), v))
		}, false},
		hostile{"the session folder is a symlink out of the store", func(t *testing.T, _, s, out string) {
			require.NoError(t, os.Rename(s, filepath.Join(out, "sess")))
			require.NoError(t, os.Symlink(filepath.Join(out, "sess"), s))
		}, false},
		hostile{"the recording folder is writable by others", func(t *testing.T, v, _, _ string) {
			require.NoError(t, os.Chmod(v, 0o777))
		}, false},
		hostile{"the session folder belongs to someone else", func(t *testing.T, _, s, _ string) {
			require.NoError(t, os.Lchown(s, 12345, 12345))
		}, true},
		hostile{"the session counter is garbage", func(t *testing.T, _, s, _ string) {
			require.NoError(t, os.WriteFile(filepath.Join(s, "seq"), []byte("9223372036854775807\x00junk"), 0o600))
		}, false},
		hostile{"the lock is a FIFO", func(t *testing.T, v, _, _ string) { replaceWith(t, filepath.Join(v, "lock"), fifo) }, false},
		hostile{"a stray FIFO in the session", func(t *testing.T, _, s, _ string) { require.NoError(t, fifo(filepath.Join(s, "0099-x"))) }, false},
	)
}

// readers are the commands run against each hostile store.
var readers = [][]string{
	{"out", "list"},
	{"out", "list", "--json"},
	{"out", "read", "faults/0001-seq-1"},
	{"out", "read", "faults/0001-seq-1", "--tail", "5"},
	{"out", "read", "faults/0001-seq-1", "--stream", "stdout", "--lines", "500:502"},
	{"out", "read", "faults/0001-seq-1", "--raw"},
	{"out", "explain", "faults/0001-seq-1"},
	{"out", "grep", "good-line"},
	{"out", "grep", "-C", "1", "999"},
	{"out", "gc"},
	{"run", "--", "echo", "after"},
}

// TestHostileStores: every reader gives its output or a bounded clear
// error (one rac: line, a hint) in bounded time and memory; none prints
// what is outside the store, changes it, or hangs.
func TestHostileStores(t *testing.T) {
	sc := newScenario(t, "hostile stores", false)
	for _, h := range hostiles() {
		if h.root && os.Geteuid() != 0 {
			t.Logf("%s: skipped (needs root to chown)", h.name)
			continue
		}
		st := newStore(t)
		r := st.rac(time.Minute, "run", "--", "seq", "1", "1000")
		require.Equal(t, 0, r.code, r.stderr)
		r = st.rac(time.Minute, "run", "--", "echo", "good-line")
		require.Equal(t, 0, r.code, r.stderr)
		outside := filepath.Join(st.dir, "outside")
		require.NoError(t, os.MkdirAll(outside, 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(outside, "secret"), []byte(secretOutside+"\n"), 0o600))
		sess := filepath.Join(st.home, "sessions", "faults")
		base := map[string]string{}
		for _, args := range readers {
			if args[1] == "read" {
				base[strings.Join(args, " ")] = st.rac(time.Minute, args...).stdout
			}
		}
		h.tamper(t, filepath.Join(sess, "0001-seq-1"), sess, outside)
		before := snapshot(t, outside)
		for _, args := range readers {
			sc.iter()
			what := fmt.Sprintf("%s: rac %s", h.name, strings.Join(args, " "))
			r := st.rac(20*time.Second, args...)
			switch {
			case r.timedOut:
				sc.fail("%s: hung (killed after 20s)", what)
			case r.code < 0 || r.code > 2:
				sc.fail("%s: exit %d: %.300s", what, r.code, r.stderr)
			case r.code != 0 && !oneLine(r.stderr) && !(args[1] == "grep" && r.code == 1 && r.stderr == ""):
				sc.fail("%s: exit %d and not one clear line: %.500q", what, r.code, r.stderr)
			case args[1] == "read" && r.code == 0 && r.stdout != base[strings.Join(args, " ")]:
				sc.fail("%s: read gives other output than before, and no error: %.100q", what, r.stdout)
			case r.elapsed > 10*time.Second:
				sc.fail("%s: took %v", what, r.elapsed)
			case r.maxRSS > 256<<20:
				sc.fail("%s: used %d MiB", what, r.maxRSS>>20)
			case strings.Contains(r.stdout+r.stderr, secretOutside):
				sc.fail("%s: printed what is outside the store", what)
			}
			// one bad recording never hides the others' hits, and is never
			// skipped in silence
			if args[1] == "grep" && !strings.Contains(r.stdout, map[string]string{"good-line": ":1:good-line", "-C": ":999:999"}[args[2]]) && r.stderr == "" {
				sc.fail("%s: a hit is missing and nothing says why (exit %d)", what, r.code)
			}
			if args[1] == "list" && !strings.Contains(r.stdout, "0001-seq-1") && r.stderr == "" {
				sc.fail("%s: the recording is missing and nothing says why (exit %d)", what, r.code)
			}
		}
		if after := snapshot(t, outside); after != before {
			sc.fail("%s: the folder outside the store changed:\n%s\nwas\n%s", h.name, after, before)
		}
	}
}

// snapshot describes a folder tree: names, modes, sizes, times.
func snapshot(t *testing.T, dir string) string {
	var b strings.Builder
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d %d\n", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		return nil
	}))
	return b.String()
}

// TestHostileReferences: references that try to leave the session or the
// store, or are huge or odd, give exit 1 or 2 with one clear line.
func TestHostileReferences(t *testing.T) {
	sc := newScenario(t, "hostile references and argv", false)
	st := newStore(t)
	require.Equal(t, 0, st.rac(time.Minute, "run", "--", "echo", "hi").code)
	outside := filepath.Join(st.dir, "secret")
	require.NoError(t, os.WriteFile(outside, []byte(secretOutside+"\n"), 0o600))
	refs := []string{
		"../secret", "../../secret", "/etc/passwd", outside, "faults/../../secret", "faults/../faults/0001-echo-hi",
		"./0001", "faults/.", "faults/..", "..", ".", "", "faults/", "/", "faults//0001-echo-hi",
		"faults/0001-echo-hi/../../../secret", "%2e%2e/secret", "x\ny", "\x1b[31mred",
		strings.Repeat("a", 100000), strings.Repeat("../", 5000), "-1", "0", "99999999999999999999999",
		"9223372036854775807", "last/..", "faults/last",
	}
	for _, ref := range refs {
		for _, verb := range []string{"read", "explain", "path"} {
			sc.iter()
			r := st.rac(20*time.Second, "out", verb, "--", ref)
			what := fmt.Sprintf("rac out %s %.60q", verb, ref)
			switch {
			case r.timedOut:
				sc.fail("%s: hung", what)
			case strings.Contains(r.stdout+r.stderr, secretOutside):
				sc.fail("%s: printed what is outside the store", what)
			case r.code == 0 && !strings.Contains(ref, "0001-echo-hi") && ref != "faults/last":
				sc.fail("%s: resolved: %q", what, r.stdout)
			case r.code != 0 && (r.code > 2 || !oneLine(r.stderr)):
				sc.fail("%s: exit %d: %.300q", what, r.code, r.stderr)
			}
		}
	}
	// argv of every shape is recorded and reads back as a listable recording
	for _, argv := range [][]string{
		append([]string{"echo"}, slices.Repeat([]string{strings.Repeat("x", 100<<10)}, 12)...), // 1.2 MiB of argv
		{"echo", "\x1b]0;title\x07", "\xc2\x9b31m", "\u202eevil"},
		{"echo", strings.Repeat("../", 1000)},
	} {
		sc.iter()
		r := st.rac(time.Minute, append([]string{"run", "--"}, argv...)...)
		if r.code != 0 {
			sc.fail("run %.40q: exit %d: %.300s", argv, r.code, r.stderr)
			continue
		}
		if l := st.rac(20*time.Second, "out", "read", "last"); l.code != 0 {
			sc.fail("read of run %.40q: exit %d: %.300s", argv, l.code, l.stderr)
		}
		if l := st.rac(20*time.Second, "out", "list"); l.code != 0 || strings.ContainsAny(l.stdout, "\x1b\u009b\u202e") {
			sc.fail("list after run %.40q: exit %d, raw escapes %v: %.300q", argv, l.code, strings.ContainsAny(l.stdout, "\x1b\u009b"), l.stderr)
		}
	}
}
