package main

// Script commands for retention tests, and the free-space guard on a real
// full file system (a small tmpfs, root only).

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/gc/gctest"
	"github.com/rogpeppe/go-internal/testscript"
)

// backdate DUR PATH...: set the access and modification times of PATH and
// everything under it to DUR ago (DUR: a Go duration or whole days, 8d),
// so retention by age is tested without sleeping. Symlinks are skipped.
func cmdBackdate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: backdate DUR PATH...")
	}
	d, err := config.ParseAge(args[0])
	ts.Check(err)
	t := time.Now().Add(-d)
	for _, p := range args[1:] {
		ts.Check(filepath.WalkDir(ts.MkAbs(p), func(q string, e fs.DirEntry, err error) error {
			if err != nil || e.Type()&fs.ModeSymlink != 0 {
				return err
			}
			return os.Chtimes(q, t, t)
		}))
	}
}

// treesize is what a path takes on disk, as du -s and gc count it: the
// allocated blocks of the regular files and folders under it, its own
// included.
func treesize(ts *testscript.TestScript, p string) int64 {
	var n int64
	ts.Check(filepath.WalkDir(ts.MkAbs(p), func(_ string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() && !e.IsDir() {
			return err
		}
		fi, err := e.Info()
		if err == nil {
			n += fi.Sys().(*syscall.Stat_t).Blocks * 512
		}
		return err
	}))
	return n
}

// sizeatmost SIZE PATH: PATH takes at most SIZE bytes on disk (treesize;
// 256MiB-style sizes); with ! more.
func cmdSizeAtMost(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: sizeatmost SIZE PATH")
	}
	limit, err := config.ParseSize(args[0])
	ts.Check(err)
	n := treesize(ts, args[1])
	ts.Logf("sizeatmost: %s holds %d bytes (limit %d)", args[1], n, limit)
	if (n <= limit) == neg {
		ts.Fatalf("%s holds %d bytes; limit %d (negated: %v)", args[1], n, limit, neg)
	}
}

// snapshot PATH FILE: write every entry under PATH with its type, size,
// mode and modification time to FILE, to compare before and after.
func cmdSnapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: snapshot PATH FILE")
	}
	root := ts.MkAbs(args[0])
	var lines []string
	ts.Check(filepath.WalkDir(root, func(q string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, q)
		lines = append(lines, fmt.Sprintf("%s %v %d %d", rel, fi.Mode(), fi.Size(), fi.ModTime().UnixNano()))
		return nil
	}))
	sort.Strings(lines)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(strings.Join(lines, "\n")+"\n"), 0o600))
}

// waitgone PATH...: wait until no PATH exists (bounded: a minute), for
// work a detached process finishes.
func cmdWaitgone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: waitgone PATH...")
	}
	deadline := time.Now().Add(time.Minute)
	for _, p := range args {
		for {
			if _, err := os.Lstat(ts.MkAbs(p)); err != nil {
				break
			}
			if time.Now().After(deadline) {
				ts.Fatalf("waitgone: %s is still there", p)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// benchstore DIR SESSIONS PER: build a synthetic store (gctest.BenchStore).
func cmdBenchstore(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: benchstore DIR SESSIONS PER")
	}
	s, err := strconv.Atoi(args[1])
	ts.Check(err)
	n, err := strconv.Atoi(args[2])
	ts.Check(err)
	ts.Check(gctest.BenchStore(ts.MkAbs(args[0]), s, n))
}

// freeSpaceScript runs on a store in an 8 MiB tmpfs ($SMALLFS).
const freeSpaceScript = `
env RAC_RUN_ANNOUNCE=end
env RAC_HOME=$SMALLFS/store
env RAC_GC_MIN_FREE_BYTES=1MiB
env RAC_GC_INTERVAL=1000h

# room enough: recorded
exec rac run -- echo first
stdout '^first$'
stderr '^rac: ref test/0001-echo-first$'
env RAC_SESSION=old
exec rac run -- echo old-one
backdate 8d $SMALLFS/store/sessions/old
env RAC_SESSION=test
backdate 2m $SMALLFS/store/gc.stamp

# fill the file system to under 1 MiB free: the command runs, its output
# is forwarded and its status kept, nothing is recorded, one warning says why
exec dd if=/dev/zero of=$SMALLFS/filler bs=1048576 count=7
exitcode 3 rac run -- sh -c 'echo out; echo err >&2; exit 3'
stdout '^out$'
stderr '^err$'
stderr -count=1 '^rac: warning: not recording this command: only [0-9.]+ (B|KiB) free on the file system of the store .* \(gc.min_free_bytes is 1 MiB\); gc runs after the command$'
! stderr 'rac: ref'
exec rac out list
stdout '^session test$'
stdout -count=1 '^000[0-9]-'

# and gc ran, although gc.interval had not passed since the last pass
waitgone $SMALLFS/store/sessions/old/0001-echo-old-one
exitcode 1 rac out read old/1
stderr 'expired \(removed by gc on .*: session older than 7 days\)'

# room again: recorded again, numbering continues
rm $SMALLFS/filler
exec rac run -- echo again
stderr '^rac: ref test/0002-echo-again$'
`

// TestFreeSpaceGuardTmpfs fills a small tmpfs for real. It needs root to
// mount; gc_free_space.txtar tests the same guard everywhere with a
// threshold above the free space.
func TestFreeSpaceGuardTmpfs(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipped: mounting the 8 MiB tmpfs this test fills needs root; gc_free_space.txtar covers the guard without it")
	}
	mnt := filepath.Join(t.TempDir(), "small")
	if err := os.Mkdir(mnt, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("skipped: cannot mount a tmpfs here (%v: %s); gc_free_space.txtar covers the guard without it", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		// lazily (-l): a detached gc may still hold a descriptor in it
		if out, err := exec.Command("umount", "-l", mnt).CombinedOutput(); err != nil {
			t.Errorf("unmount %s: %v: %s", mnt, err, out)
		}
	})
	script := filepath.Join(t.TempDir(), "free_space_tmpfs.txtar")
	if err := os.WriteFile(script, []byte(freeSpaceScript), 0o600); err != nil {
		t.Fatal(err)
	}
	p := scriptParams(t, "testdata/script")
	p.Dir, p.Files = "", []string{script}
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		env.Setenv("SMALLFS", mnt)
		return setup(env)
	}
	testscript.Run(t, p)
}

// TestReadOnlyHomeFallback: a store on a read-only file system (a
// sandbox's home, mounted read-only as Codex does) makes rac record in
// the fallback store, whatever free space the read-only one reports; under
// an agent the start line is still rac's first line, the note after it.
func TestReadOnlyHomeFallback(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipped: mounting a read-only tmpfs needs root; sandbox_fallback.txtar covers the fallback without it")
	}
	mnt := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(mnt, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "ro,size=64k,mode=0700", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("skipped: cannot mount a tmpfs here (%v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", "-l", mnt).CombinedOutput(); err != nil {
			t.Errorf("unmount %s: %v: %s", mnt, err, out)
		}
	})
	script := filepath.Join(t.TempDir(), "read_only_home.txtar")
	if err := os.WriteFile(script, []byte(readOnlyHomeScript), 0o600); err != nil {
		t.Fatal(err)
	}
	p := scriptParams(t, "testdata/script")
	p.Dir, p.Files = "", []string{script}
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		env.Setenv("ROFS", mnt)
		return setup(env)
	}
	testscript.Run(t, p)
}

const readOnlyHomeScript = `
env RAC_HOME=
env XDG_STATE_HOME=$ROFS/state
env RAC_SESSION=
env CLAUDE_CODE_SESSION_ID=5a0b7e6f-1c2d-4e5f-8a9b-0c1d2e3f4a5b
exec rac run -- echo hello
stdout '^hello$'
stderr '\Arac: recording claude-5a0b7e6f-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0001-echo-hello \(cut\? rac out explain claude-5a0b7e6f-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0001-echo-hello\)\nrac: warning: cannot write .*/ro/state/rac \(.*read-only file system\); recording in .*/tmp/rac-[0-9]+ instead'
exec rac out read last
stdout '^hello$'
`
