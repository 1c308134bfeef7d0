// Package store owns the store on disk: where it is, the checks that make
// it safe to use, the session folders inside it and their sequence
// counters, locks, safe opens and atomic writes, and (in tomb) the
// tombstones of removed recordings. Every file in the store is reached
// through an os.Root held here; it must never build a path by joining a
// user-supplied string, and never decide policy (which store, when to gc).
package store

import (
	"bufio"
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

	"github.com/rac-cli/rac/internal/session"
)

// Errors a caller maps to messages and exit statuses.
var (
	ErrUnsafeStore  = errors.New("unsafe store")
	ErrNoSession    = errors.New("no such session")
	ErrUnsafeFile   = errors.New("unsafe file in store")
	ErrStoreMissing = errors.New("store does not exist")
	ErrSeqExhausted = errors.New("sequence numbers used up")
)

// MaxSeq is the highest sequence number a session gives out: the largest
// number of 18 digits, the most record.ParseName reads back from a
// recording's name (record.Name writes the number in full). The counter
// file could hold more, but a reference printed for a larger number could
// never be resolved.
const MaxSeq int64 = 999_999_999_999_999_999

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
// Every path it returns is cleaned (filepath.Clean).
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
		// cleaned, so the path checked, printed and opened is one
		// spelling: "l/" or "l/." would make a check of l follow it
		return Location{Path: filepath.Clean(h), Explicit: true, Fallback: fb}
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
	root *os.Root
}

// Close releases the root handle.
func (s *Store) Close() error { return s.root.Close() }

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

// OpenStore opens an existing store root after checking it. The path is
// cleaned first (a trailing "/", "/." or "//" would make the check of its
// last component follow a symlink there). The root itself must not be a
// symlink; a symlink in a parent component is followed when it is the
// user's own or root's (/home -> /data/home, macOS's /tmp -> private/tmp)
// and refused when another user owns it, the rule the kernel's
// protected_symlinks applies in sticky directories. The folder opened is
// checked to be the one examined, so a symlink swapped in between is
// caught too.
func OpenStore(path string) (*Store, error) {
	path = filepath.Clean(path)
	fi, err := checkRoot(path)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	if opened, err := r.Stat("."); err != nil || !os.SameFile(fi, opened) {
		r.Close()
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: store root %s changed while it was opened (a symlink swapped in?)", ErrUnsafeStore, path)
	}
	return &Store{Path: path, root: r}, nil
}

// checkRoot makes OpenStore's checks of a (clean) store root path: the
// symlinks above it, and the root itself a private folder of the user's.
// A root that does not exist is ErrStoreMissing.
func checkRoot(path string) (fs.FileInfo, error) {
	if err := checkParents(path); err != nil {
		return nil, err
	}
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
	return fi, nil
}

// Inspect makes, without creating or changing anything, the checks
// CreateStore and a recording's first write would make of the store at
// path and of session's folder in it ("" for none): nil when rac run can
// record there. A store or session that does not exist yet passes when
// the nearest folder above it can be written. rac doctor reports this, so
// it says what rac run will do.
func Inspect(path, session string) error {
	path = filepath.Clean(path)
	if _, err := checkRoot(path); err != nil {
		if errors.Is(err, ErrStoreMissing) {
			return Writable(path)
		}
		return err
	}
	if session == "" {
		return Writable(path)
	}
	s, err := OpenStore(path)
	if err != nil {
		return err
	}
	defer s.Close()
	d, err := s.Session(session, false)
	if errors.Is(err, ErrNoSession) {
		return Writable(filepath.Join(path, SessionsDir, session))
	}
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Writable()
}

// checkParents refuses a symlink above the store root that belongs to
// neither the user nor root: whoever owns it decides where the store is.
// Components that do not exist yet end the walk (CreateStore makes them,
// then OpenStore checks again).
func checkParents(path string) error {
	for p := filepath.Dir(path); ; p = filepath.Dir(p) {
		fi, err := os.Lstat(p)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid != 0 && int(st.Uid) != os.Geteuid() {
				return fmt.Errorf("%w: %s, above the store root %s, is a symlink owned by uid %d, neither you (uid %d) nor root; point the store at a real directory", ErrUnsafeStore, p, path, st.Uid, os.Geteuid())
			}
		}
		if parent := filepath.Dir(p); parent == p {
			return nil
		}
	}
}

// CreateStore opens the store root, creating it (0700) when missing. The
// path is cleaned and checked as by OpenStore.
func CreateStore(path string) (*Store, error) {
	path = filepath.Clean(path)
	s, err := OpenStore(path)
	if err == nil || !errors.Is(err, ErrStoreMissing) {
		return s, err
	}
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, err
	}
	if s, err = OpenStore(path); err != nil {
		return nil, err
	}
	// through the handle just checked, never by path: a chmod by path
	// follows a symlink
	if err := s.root.Chmod(".", 0o700); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// IsUnwritable reports whether err means the location cannot be written
// (permission denied, read-only file system): the reason to fall back.
func IsUnwritable(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// Session is one session's folder in a store.
type Session struct {
	Name  string
	root  *os.Root
	Store *Store
}

// Close releases the session's root handle.
func (d *Session) Close() error { return d.root.Close() }

// Session opens the folder of session name; with create it is made (0700)
// when missing. The name must already be valid: it is checked again here
// because it becomes a path component.
func (s *Store) Session(name string, create bool) (*Session, error) {
	if !session.ValidName(name) {
		return nil, fmt.Errorf("%w %q", session.ErrInvalidName, name)
	}
	rel := SessionsDir + "/" + name
	fi, err := s.root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = s.root.Mkdir(SessionsDir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if err = s.root.Mkdir(rel, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		fi, err = s.root.Lstat(rel)
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
	r, err := s.root.OpenRoot(rel)
	if err != nil {
		return nil, err
	}
	return &Session{Name: name, root: r, Store: s}, nil
}

// Sessions lists the session names in the store, sorted.
func (s *Store) Sessions() ([]string, error) {
	f, err := s.root.Open(SessionsDir)
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
		if e.IsDir() && session.ValidName(e.Name()) {
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
	InfoFile        = "session.json"
	SeqFile         = "seq"
	SessionLockFile = "lock"
)

// WriteInfo records the raw id and its source once, for people reading the
// store; nothing ever builds a path from it.
func (d *Session) WriteInfo(id session.Identity) error {
	if _, err := d.root.Lstat(InfoFile); err == nil {
		return nil
	}
	b, err := json.Marshal(Info{Rule: id.Rule, Source: id.Source, RawID: id.RawID})
	if err != nil {
		return err
	}
	return WriteFileAtomic(d.root, InfoFile, append(b, '\n'))
}

// NextSeq allocates the next sequence number under the session lock. The
// counter only grows, so numbers are never reused in a session, also after
// its recordings are removed. It stops at MaxSeq (ErrSeqExhausted): it
// never gives out a number a recording name cannot carry.
func (d *Session) NextSeq() (int64, error) {
	l, err := LockFile(d.root, SessionLockFile, true)
	if err != nil {
		return 0, err
	}
	defer l.Close()
	// one open for the read and the write: this is on the path of every
	// rac run
	f, err := d.root.OpenFile(SeqFile, os.O_RDWR|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, fs.ErrNotExist) {
		// a new session, or a counter removed by hand: written whole,
		// by rename, so a recorder killed here never leaves an empty
		// counter, and above every number a recording folder holds
		n := d.highestUsed() + 1
		if n > MaxSeq {
			return 0, fmt.Errorf("%w: session %s", ErrSeqExhausted, d.Name)
		}
		if err := WriteFileAtomic(d.root, SeqFile, fmt.Appendf(nil, "%020d\n", n)); err != nil {
			return 0, err
		}
		return n, nil
	}
	if err != nil {
		if fi, lerr := d.root.Lstat(SeqFile); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return 0, fmt.Errorf("%w: %s is a symlink", ErrUnsafeFile, SeqFile)
		}
		return 0, err
	}
	n, err := d.bumpSeq(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	return n, nil
}

// bumpSeq reads the counter in f, writes it back one higher, in place and
// fixed width, and returns the new value. An empty counter (an earlier rac
// killed between creating the file and writing it) counts from the
// highest number a recording folder holds: it must not stop the session
// from recording, nor give out a number again.
func (d *Session) bumpSeq(f *os.File) (int64, error) {
	if err := checkRegular(f, SeqFile); err != nil {
		return 0, err
	}
	var buf [seqMax + 1]byte
	k, err := io.ReadFull(f, buf[:])
	switch {
	case err == nil:
		return 0, fmt.Errorf("%w: %s is larger than %d bytes", ErrUnsafeFile, SeqFile, seqMax)
	case !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF):
		return 0, err
	}
	var n int64
	if k > 0 {
		if n, err = parseSeq(buf[:k], d.Name); err != nil {
			return 0, err
		}
	}
	// The folder names and the tombstones are the truth: a counter
	// emptied, rolled back or restored by hand never gives out a number
	// a recording, or a removed one whose reference must answer
	// "expired", already has.
	n = max(n, d.highestUsed())
	if n >= MaxSeq {
		// refused before anything is written: one more would be a number
		// no reference can name (or, at the int64 maximum, negative)
		return 0, fmt.Errorf("%w: session %s has given out every recording number up to %d; start another session (--session NAME or RAC_SESSION)", ErrSeqExhausted, d.Name, MaxSeq)
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

// highestNamed is the largest number an entry of the session folder
// starts with (NNNN-name: a recording, or one being made), 0 when none
// does. A name's digits run at most to MaxSeq's width; a longer run is no
// recording's.
func (d *Session) highestNamed() int64 {
	f, err := d.root.Open(".")
	if err != nil {
		return 0
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return 0
	}
	var most int64
	for _, name := range names {
		digits, _, ok := strings.Cut(name, "-")
		if !ok || digits == "" || len(digits) > 19 || strings.TrimLeft(digits, "0123456789") != "" {
			continue
		}
		if n, err := strconv.ParseInt(digits, 10, 64); err == nil && n <= MaxSeq && n > most {
			most = n
		}
	}
	return most
}

// highestUsed is the largest number a recording folder or a tombstone of
// the session holds, 0 when none.
func (d *Session) highestUsed() int64 {
	return max(d.highestNamed(), d.highestTombstone())
}

// TombFile is the session's tombstone file (package tomb owns its format;
// the counter reads only each line's seq).
const TombFile = "tombstones.jsonl"

// highestTombstone is the largest seq in the session's tombstones: a
// removed recording's number, or the highest of a session-wide removal.
func (d *Session) highestTombstone() int64 {
	f, err := d.root.OpenFile(TombFile, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return 0
	}
	defer f.Close()
	if checkRegular(f, TombFile) != nil {
		return 0
	}
	var most int64
	sc := bufio.NewScanner(io.LimitReader(f, MaxTombFile))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		var e struct {
			Seq int64 `json:"seq"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Seq <= MaxSeq && e.Seq > most {
			most = e.Seq
		}
	}
	return most
}

// MaxTombFile bounds what is read of a tombstone file: a longer one is
// not a file rac wrote (a session removes at most one recording per
// number).
const MaxTombFile = 32 << 20

// seqMax is the largest counter file rac reads.
const seqMax = 64

// ReadSeq returns the last allocated sequence number (0 when none).
func (d *Session) ReadSeq() (int64, error) {
	b, err := ReadSmallFile(d.root, SeqFile, seqMax)
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

// Root is the store root's handle, for the domain packages that lay out
// files inside it (gc). It is never replaced, and paths under it are
// built from validated names only.
func (s *Store) Root() *os.Root { return s.root }

// Root is the session folder's handle, for the packages that lay out
// recordings inside it (record, gc, resolve).
func (d *Session) Root() *os.Root { return d.root }
