package session

// This file owns the store on disk: where it is, the checks that make it
// safe to use, the session directories inside it and their sequence
// counters. Every file in the store is reached through an os.Root; no path
// is ever built by joining a user-supplied string.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// Errors a caller maps to messages and exit statuses.
var (
	ErrUnsafeStore  = errors.New("unsafe store")
	ErrNoSession    = errors.New("no such session")
	ErrUnsafeFile   = errors.New("unsafe file in store")
	ErrStoreMissing = errors.New("store does not exist")
)

// SessionsDir is the folder of the store root that holds one folder per session.
const SessionsDir = "sessions"

// Location says where the store is and whether the user chose it.
type Location struct {
	Path     string // primary store root
	Explicit bool   // from RAC_HOME: never replaced by the fallback
	Fallback string // $TMPDIR/rac-UID, used when the default cannot be written
	Err      error  // RAC_HOME is not usable (relative): nothing may be read or written
}

// Locate finds the store root: $RAC_HOME; else $XDG_STATE_HOME/rac; else
// ~/.local/state/rac. The fallback is $TMPDIR/rac-UID (TMPDIR or /tmp).
func Locate(getenv func(string) string) Location {
	tmp := getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	fb := filepath.Join(tmp, "rac-"+strconv.Itoa(os.Geteuid()))
	if h := getenv("RAC_HOME"); h != "" {
		if !filepath.IsAbs(h) {
			// a relative store would move with the current directory
			return Location{Path: h, Explicit: true, Fallback: fb, Err: fmt.Errorf("RAC_HOME must be an absolute path, not %q", h)}
		}
		return Location{Path: h, Explicit: true, Fallback: fb}
	}
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return Location{Path: filepath.Join(x, "rac"), Fallback: fb}
	}
	home := getenv("HOME")
	if !filepath.IsAbs(home) {
		// no usable home (HOME unset or relative): the fallback, never a
		// store under the current directory
		return Location{Path: fb, Fallback: fb}
	}
	return Location{Path: filepath.Join(home, ".local", "state", "rac"), Fallback: fb}
}

// Store is an open store root.
type Store struct {
	Path string
	Root *os.Root
}

// Close releases the root handle.
func (s *Store) Close() error { return s.Root.Close() }

// CheckOwnedPrivate refuses, as ssh does with its keys, a path that is a
// symlink, not owned by the current user, or writable by group or others.
func CheckOwnedPrivate(path string, fi fs.FileInfo, what string) error {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%w: %s %s is a symlink; point %s at a real directory", ErrUnsafeStore, what, path, what)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%w: %s %s is owned by uid %d, not by you (uid %d)", ErrUnsafeStore, what, path, st.Uid, os.Geteuid())
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%w: %s %s is writable by group or others (mode %04o); fix it with: chmod go-w %s", ErrUnsafeStore, what, path, fi.Mode().Perm(), path)
	}
	return nil
}

// OpenStore opens an existing store root after checking it.
func OpenStore(path string) (*Store, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s", ErrStoreMissing, path)
		}
		return nil, err
	}
	if err := CheckOwnedPrivate(path, fi, "store root"); err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%w: store root %s is not a directory", ErrUnsafeStore, path)
	}
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &Store{Path: path, Root: r}, nil
}

// CreateStore opens the store root, creating it (0700) when missing.
func CreateStore(path string) (*Store, error) {
	s, err := OpenStore(path)
	if err == nil || !errors.Is(err, ErrStoreMissing) {
		return s, err
	}
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o700); err != nil {
		return nil, err
	}
	return OpenStore(path)
}

// IsUnwritable reports whether err means the location cannot be written
// (permission denied, read-only file system): the reason to fall back.
func IsUnwritable(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// SessionDir is one session's folder in a store.
type SessionDir struct {
	Name  string
	Root  *os.Root
	Store *Store
}

// Close releases the session's root handle.
func (d *SessionDir) Close() error { return d.Root.Close() }

// Session opens the folder of session name; with create it is made (0700)
// when missing. The name must already be valid: it is checked again here
// because it becomes a path component.
func (s *Store) Session(name string, create bool) (*SessionDir, error) {
	if !ValidName(name) {
		return nil, fmt.Errorf("%w %q", ErrInvalidName, name)
	}
	rel := SessionsDir + "/" + name
	fi, err := s.Root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = s.Root.Mkdir(SessionsDir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if err = s.Root.Mkdir(rel, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		fi, err = s.Root.Lstat(rel)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w %q", ErrNoSession, name)
	}
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%w: %s is not a directory", ErrUnsafeFile, rel)
	}
	r, err := s.Root.OpenRoot(rel)
	if err != nil {
		return nil, err
	}
	return &SessionDir{Name: name, Root: r, Store: s}, nil
}

// Sessions lists the session names in the store, sorted.
func (s *Store) Sessions() ([]string, error) {
	f, err := s.Root.Open(SessionsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() && ValidName(e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// Info is what a session directory says about where its name came from.
type Info struct {
	Rule   string `json:"rule"`
	Source string `json:"source"`
	RawID  string `json:"raw_id,omitempty"`
}

const (
	infoFile = "session.json"
	seqFile  = "seq"
	lockFile = "lock"
)

// WriteInfo records the raw id and its source once, for people reading the
// store; nothing ever builds a path from it.
func (d *SessionDir) WriteInfo(id Identity) error {
	if _, err := d.Root.Lstat(infoFile); err == nil {
		return nil
	}
	b, err := json.Marshal(Info{Rule: id.Rule, Source: id.Source, RawID: id.RawID})
	if err != nil {
		return err
	}
	return WriteFileAtomic(d.Root, infoFile, append(b, '\n'))
}

// NextSeq allocates the next sequence number under the session lock. The
// counter only grows, so numbers are never reused in a session, also after
// its recordings are removed.
func (d *SessionDir) NextSeq() (int64, error) {
	l, err := LockFile(d.Root, lockFile, true)
	if err != nil {
		return 0, err
	}
	defer l.Close()
	// one open for the read and the write: this is on the path of every
	// rac run
	f, err := d.Root.OpenFile(seqFile, os.O_RDWR|syscall.O_NOFOLLOW, 0)
	fresh := errors.Is(err, fs.ErrNotExist)
	if fresh {
		f, err = d.Root.OpenFile(seqFile, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	}
	if err != nil {
		if fi, lerr := d.Root.Lstat(seqFile); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return 0, fmt.Errorf("%w: %s is a symlink", ErrUnsafeFile, seqFile)
		}
		return 0, err
	}
	n, err := d.bumpSeq(f, fresh)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	return n, nil
}

// bumpSeq reads the counter in f (0 when fresh), writes it back one
// higher, in place and fixed width, and returns the new value.
func (d *SessionDir) bumpSeq(f *os.File, fresh bool) (int64, error) {
	if err := checkRegular(f, seqFile); err != nil {
		return 0, err
	}
	var buf [seqMax + 1]byte
	k, err := io.ReadFull(f, buf[:])
	switch {
	case err == nil:
		return 0, fmt.Errorf("%w: %s is larger than %d bytes", ErrUnsafeFile, seqFile, seqMax)
	case !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF):
		return 0, err
	}
	var n int64
	if !fresh {
		if n, err = parseSeq(buf[:k], d.Name); err != nil {
			return 0, err
		}
	}
	n++
	b := fmt.Appendf(nil, "%020d\n", n)
	if _, err := f.WriteAt(b, 0); err != nil {
		return 0, err
	}
	if k > len(b) {
		// a longer counter restored by hand
		if err := f.Truncate(int64(len(b))); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// seqMax is the largest counter file rac reads.
const seqMax = 64

// ReadSeq returns the last allocated sequence number (0 when none).
func (d *SessionDir) ReadSeq() (int64, error) {
	b, err := ReadSmallFile(d.Root, seqFile, seqMax)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return parseSeq(b, d.Name)
}

func parseSeq(b []byte, session string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%w: session %s has a damaged sequence counter", ErrUnsafeFile, session)
	}
	return n, nil
}
