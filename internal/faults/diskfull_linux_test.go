package faults

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDiskFull runs rac run with its store on a small tmpfs, filled to a
// chosen or random point first, so the disk fills before the recording
// is made, in its metadata, or in the middle of the output. The terminal
// gets every byte, rac exits as the command did, and a recording that was
// made says how the command ended (the footer's room was reserved).
func TestDiskFull(t *testing.T) {
	sc := newScenario(t, "disk full at chosen offsets", true)
	if os.Geteuid() != 0 {
		t.Skip("disk full: needs root to mount a small tmpfs")
	}
	probe := t.TempDir()
	if err := syscall.Mount("tmpfs", probe, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("disk full: cannot mount a tmpfs: %v", err)
	}
	require.NoError(t, syscall.Unmount(probe, 0))
	const size = 1 << 20
	// free bytes left before rac starts: none, less than a folder, about
	// the metadata, mid-output, and random points
	free := []int{0, 1 << 10, 6 << 10, 12 << 10, 64 << 10, 300 << 10}
	for range iterations(24, 4) {
		free = append(free, sc.rng.IntN(size))
	}
	recorded := 0
	for _, f := range free {
		sc.iter()
		out := sc.rng.IntN(3 << 20)
		rec, err := diskFullOnce(t, size, f, out)
		if err != nil {
			sc.fail("%d bytes free, %d bytes of output: %v", f, out, err)
		}
		if rec {
			recorded++
		}
	}
	t.Logf("%d of %d runs on a full disk left a recording", recorded, len(free))
}

// diskFullOnce says whether a recording was made.
func diskFullOnce(t *testing.T, size, free, out int) (bool, error) {
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size="+strconv.Itoa(size)+",mode=0700"); err != nil {
		return false, err
	}
	// detached: the automatic gc rac run may hand to a background process
	// (which compresses finished recordings) can still hold a file of the
	// store open when the test is done with the mount
	defer func() { require.NoError(t, syscall.Unmount(mnt, syscall.MNT_DETACH)) }()
	if err := fill(filepath.Join(mnt, "filler"), size-free); err != nil {
		return false, err
	}
	st := newStore(t, "RAC_GC_MIN_FREE_BYTES=0")
	st.home = filepath.Join(mnt, "store")
	st.env = append(st.env, "RAC_HOME="+st.home)
	r := st.rac(time.Minute, "run", "--announce", "end", "--", "sh", "-c", `yes 'a line of output' | head -c "$1"; exit 3`, "sh", strconv.Itoa(out))
	switch {
	case r.timedOut:
		return false, fmt.Errorf("rac run hung")
	case r.code != 3:
		return false, fmt.Errorf("rac run exited %d, the command 3: %.300s", r.code, r.stderr)
	case len(r.stdout) != out:
		return false, fmt.Errorf("the terminal got %d of %d bytes", len(r.stdout), out)
	}
	if !strings.Contains(r.stderr, "rac: ref ") {
		if !strings.Contains(r.stderr, "not record") {
			return false, fmt.Errorf("no reference, and nothing says it was not recorded: %.300q", r.stderr)
		}
		return false, nil // nothing could be recorded; rac said so
	}
	es, err := st.list()
	if err != nil {
		return false, err
	}
	if len(es) != 1 {
		return true, fmt.Errorf("%d recordings listed, want 1", len(es))
	}
	if e := es[0]; e.Status != "exited" || e.ExitCode == nil || *e.ExitCode != 3 {
		return false, fmt.Errorf("%s lists as %s (exit %v), the command exited 3: %v", e.Ref, e.Status, e.ExitCode, e.Notes)
	}
	if rd := st.rac(time.Minute, "out", "read", "last"); rd.code != 0 || !strings.HasPrefix(r.stdout+"\n", rd.stdout) { // read ends a last line
		return false, fmt.Errorf("read: exit %d, %d bytes not a prefix of the output: %.300s", rd.code, len(rd.stdout), rd.stderr)
	}
	return true, nil
}

// fill writes n bytes (real blocks, not a hole) to p, as far as they fit.
func fill(p string, n int) error {
	if n <= 0 {
		return nil
	}
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	_, werr := f.Write(make([]byte, n))
	if err := f.Close(); err != nil && werr == nil {
		return err
	}
	if werr != nil && !strings.Contains(werr.Error(), "no space") {
		return werr
	}
	return nil
}
