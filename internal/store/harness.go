package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rac-cli/rac/internal/procfs"
	"github.com/rac-cli/rac/internal/session"
)

// HarnessDir is the folder of the store root that holds one note per
// harness process: which rac session that process last announced (its
// SessionStart hook). An MCP server the harness starts reads the note of
// its parent, because the server's own environment lacks the
// conversation id and /clear or /resume change it under a running server.
const HarnessDir = "harness"

// harnessLock serialises writers of the folder, so "newest wins" holds
// when two hooks of one harness run at once.
const harnessLock = HarnessDir + "/lock"

// harnessNoteMax bounds the read of a note: a few hundred bytes are written.
const harnessNoteMax = 4096

// HarnessNote says which session a harness process last announced.
type HarnessNote struct {
	PID     int       `json:"pid"`
	Start   uint64    `json:"start"`   // the process's start time in clock ticks since boot (/proc/PID/stat field 22), 0 if unknown
	Harness string    `json:"harness"` // "claude", "codex", "gemini"
	Session string    `json:"session"` // the rac session name
	At      time.Time `json:"at"`
}

// ErrBadHarnessNote is returned for a note that cannot be written as
// given (no pid, an invalid session name).
var ErrBadHarnessNote = errors.New("bad harness note")

func harnessName(pid int) string { return HarnessDir + "/" + strconv.Itoa(pid) + ".json" }

// NoteHarness records n as the latest session of process n.PID, atomically
// and owner-only. A note already there for the same process (same start
// time) with a later At is kept: the newest announcement wins, whatever
// order two hooks finish in. Notes of processes that are gone (or whose
// pid now belongs to another process) are removed on the way, so the
// folder holds about one file per live harness.
func (s *Store) NoteHarness(n HarnessNote) error {
	if n.PID <= 0 {
		return fmt.Errorf("%w: pid %d", ErrBadHarnessNote, n.PID)
	}
	if !session.ValidName(n.Session) {
		return fmt.Errorf("%w: %w %q", ErrBadHarnessNote, session.ErrInvalidName, n.Session)
	}
	if err := s.harnessDir(); err != nil {
		return err
	}
	l, err := LockFile(s.root, harnessLock, true)
	if err != nil {
		return err
	}
	defer l.Close()
	if old, ok, err := s.readHarness(n.PID); err == nil && ok && sameProcess(old.Start, n.Start) && old.At.After(n.At) {
		return nil
	}
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	if err := WriteFileAtomic(s.root, harnessName(n.PID), append(b, '\n')); err != nil {
		return err
	}
	s.pruneHarness(func(old HarnessNote) bool {
		if old.PID == n.PID {
			return false
		}
		start, err := ProcStart(old.PID)
		if errors.Is(err, fs.ErrNotExist) {
			return true // the process is gone
		}
		return err == nil && !sameProcess(old.Start, start)
	})
	return nil
}

// HarnessSession returns the note of process pid. With a start time
// (non-zero, from ProcStart) a note written for another process that had
// the same pid never matches, and is removed.
func (s *Store) HarnessSession(pid int, start uint64) (HarnessNote, bool, error) {
	if pid <= 0 {
		return HarnessNote{}, false, nil
	}
	n, ok, err := s.readHarness(pid)
	if err != nil || !ok {
		return HarnessNote{}, false, err
	}
	if !sameProcess(n.Start, start) {
		_ = s.root.Remove(harnessName(pid))
		return HarnessNote{}, false, nil
	}
	return n, true, nil
}

// PruneHarness removes the notes written before before (gc passes now
// minus gc.max_age) and returns how many it removed.
func (s *Store) PruneHarness(before time.Time) (int, error) {
	if _, err := s.root.Lstat(HarnessDir); errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	l, err := LockFile(s.root, harnessLock, true)
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return s.pruneHarness(func(n HarnessNote) bool { return n.At.Before(before) }), nil
}

// pruneHarness removes each note drop says to; the caller holds the lock.
// A note that cannot be read or parsed is removed too: nobody could use it.
func (s *Store) pruneHarness(drop func(HarnessNote) bool) int {
	f, err := s.root.Open(HarnessDir)
	if err != nil {
		return 0
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return 0
	}
	removed := 0
	for _, name := range names {
		pid, err := strconv.Atoi(strings.TrimSuffix(name, ".json"))
		if err != nil || !strings.HasSuffix(name, ".json") || pid <= 0 {
			continue // the lock, a temporary file being renamed
		}
		n, ok, err := s.readHarness(pid)
		if err == nil && ok && !drop(n) {
			continue
		}
		if s.root.Remove(HarnessDir+"/"+name) == nil {
			removed++
		}
	}
	return removed
}

// readHarness reads and parses the note of pid; a missing note is not an
// error, a damaged one (or one naming another pid) is ErrUnsafeFile.
func (s *Store) readHarness(pid int) (HarnessNote, bool, error) {
	b, err := ReadSmallFile(s.root, harnessName(pid), harnessNoteMax)
	if errors.Is(err, fs.ErrNotExist) {
		return HarnessNote{}, false, nil
	}
	if err != nil {
		return HarnessNote{}, false, err
	}
	var n HarnessNote
	if err := json.Unmarshal(b, &n); err != nil || n.PID != pid || !session.ValidName(n.Session) {
		return HarnessNote{}, false, fmt.Errorf("%w: %s is damaged", ErrUnsafeFile, harnessName(pid))
	}
	return n, true, nil
}

// harnessDir makes the folder (0700) when missing and refuses anything
// but a real directory there.
func (s *Store) harnessDir() error {
	if err := s.root.Mkdir(HarnessDir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	fi, err := s.root.Lstat(HarnessDir)
	if err != nil {
		return err
	}
	if !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%w: %s is not a directory", ErrUnsafeFile, HarnessDir)
	}
	return nil
}

// sameProcess compares two start times; 0 means unknown (no /proc), and
// an unknown start matches, as the pid alone is all there is.
func sameProcess(a, b uint64) bool { return a == 0 || b == 0 || a == b }

// ProcStart returns the start time of process pid in clock ticks since
// boot (field 22 of /proc/PID/stat), the value that tells a process from
// a later one given the same pid. Without /proc (macOS) it returns an
// error that is not fs.ErrNotExist, and callers use 0.
func ProcStart(pid int) (uint64, error) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return 0, fmt.Errorf("no /proc: %w", errors.ErrUnsupported)
	}
	st, err := procfs.ReadStat(pid)
	return st.Start, err
}
