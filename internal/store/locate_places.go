package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Kinds of Place.
const (
	PlaceStore   = "store"   // RAC_HOME, or the default under the state folder
	PlaceTemp    = "temp"    // ${TMPDIR:-/tmp}/rac-UID
	PlaceWorkdir = "workdir" // the working folder's .rac (store.workdir)
)

// WorkdirStore is the folder of the working folder that holds a store
// when store.workdir is on.
const WorkdirStore = ".rac"

// gitignore keeps a working-folder store out of the repository around it.
const gitignore = ".gitignore"

// Place is one location a store may have.
type Place struct {
	Path string
	Kind string
}

// Places are the stores in the fixed order a recording tries them, and
// every reader searches them all: loc.Path; then, unless the user chose it
// (RAC_HOME never falls back), the temporary folder's store; then, when
// workdir is not "" (store.workdir on: the caller passes the working
// folder), WORKDIR/.rac. A sandbox that forbids writes under the home
// (Codex workspace-write) allows the working folder and /tmp.
func Places(loc Location, workdir string) []Place {
	places := []Place{{Path: loc.Path, Kind: PlaceStore}}
	if loc.Explicit {
		return places
	}
	if loc.Fallback != "" && loc.Fallback != loc.Path {
		places = append(places, Place{Path: loc.Fallback, Kind: PlaceTemp})
	}
	if workdir != "" && filepath.IsAbs(workdir) {
		wd := filepath.Join(workdir, WorkdirStore)
		if wd != loc.Path && wd != loc.Fallback {
			places = append(places, Place{Path: wd, Kind: PlaceWorkdir})
		}
	}
	return places
}

// CreateAt opens (creating) the store of a place, with the checks of
// CreateStore. A working-folder store also gets a .gitignore holding "*",
// so its recordings never end up in a commit.
func CreateAt(p Place) (*Store, error) {
	s, err := CreateStore(p.Path)
	if err != nil || p.Kind != PlaceWorkdir {
		return s, err
	}
	if _, err := s.root.Lstat(gitignore); errors.Is(err, fs.ErrNotExist) {
		err = WriteFileAtomic(s.root, gitignore, []byte("*\n"))
		if err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Writable reports, without writing anything, why a store at path could
// not be created or written: nil when the folder (or, when it does not
// exist yet, the nearest folder above it that does) is writable. A
// sandbox's read-only mount gives EROFS, a folder of someone else EACCES;
// IsUnwritable holds for both.
func Writable(path string) error {
	p := filepath.Clean(path)
	for {
		_, err := os.Lstat(p)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return err
		}
		p = parent
	}
	if err := unix.Access(p, unix.W_OK|unix.X_OK); err != nil {
		return &fs.PathError{Op: "access", Path: p, Err: err}
	}
	return nil
}

// NoWritableError is every place refusing writes (a read-only sandbox):
// the command runs unrecorded.
type NoWritableError struct {
	Places []Place
	Errs   []error // one per place
}

func (e *NoWritableError) Error() string {
	s := "no store can be written:"
	for i, p := range e.Places {
		sep := ";"
		if i == 0 {
			sep = ""
		}
		s += fmt.Sprintf("%s %s (%v)", sep, p.Path, e.Errs[i])
	}
	return s
}

// Unwrap gives the places' errors (fs.ErrPermission, EROFS).
func (e *NoWritableError) Unwrap() []error { return e.Errs }

// Writable reports whether the session's folder can be written (nil) or
// why not, without writing: a store made before a sandbox started opens
// fine, and only the recording's first write would fail, too late to
// fall back.
func (d *Session) Writable() error {
	return Writable(filepath.Join(d.Store.Path, SessionsDir, d.Name))
}
