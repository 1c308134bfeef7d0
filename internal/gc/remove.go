package gc

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/store"
)

// fsID says which mount a file is on: its device and, on Linux, the id of
// the mount. A bind mount of a folder of the store's own file system has
// the store's device; only the mount id tells it apart.
type fsID struct {
	dev uint64
	mnt uint64 // 0: not known (no statx mount id, or not Linux)
}

// same reports whether b is on the same mount as a, as far as both know.
func (a fsID) same(b fsID) bool {
	return a.dev == b.dev && (a.mnt == 0 || b.mnt == 0 || a.mnt == b.mnt)
}

// MountError is why gc keeps a folder: something in it (or the folder
// itself) is a mount point, and the store's promise is to touch nothing
// outside the store. Path is relative to the store root.
type MountError struct{ Path string }

func (e *MountError) Error() string {
	return e.Path + " is on another mount than the store"
}

// keepWhy is what the report says of a folder kept for a MountError: rel
// is the folder, relative to the store root.
func keepWhy(e *MountError, rel string) string {
	if e.Path == rel {
		return "it is a mount point: gc never removes across one (unmount it first)"
	}
	return fmt.Sprintf("it holds a mount point (%s): gc never removes across one (unmount it first)", e.Path)
}

// maxTreeDepth bounds the folders a removal enters: a recording is flat,
// and each level holds a descriptor.
const maxTreeDepth = 32

// rootFS is the mount of the store root, the one every removal stays on.
func rootFS(st *store.Store) (fsID, error) {
	f, err := st.Root().Open(".")
	if err != nil {
		return fsID{}, err
	}
	defer f.Close()
	id, _, err := statFS(int(f.Fd()), "")
	return id, err
}

// walker checks and removes trees of a session folder without leaving the
// store's mount and without following a symlink: every entry is stat'ed
// (not followed) and compared with the store root's mount before it is
// touched, and every folder is opened O_NOFOLLOW and compared again on its
// descriptor, so a folder swapped for a mount point in between is caught.
// (os.Root.RemoveAll never follows a symlink out of the root, but it does
// descend into a mount point.)
type walker struct {
	root fsID
	rel  string // the session folder, relative to the store root, for errors
}

// check walks name (relative to dirfd) and returns a *MountError for the
// first entry on another mount; it changes nothing.
func (w walker) check(dirfd int, name string) error {
	return w.tree(dirfd, name, name, 0, false)
}

// remove removes name (relative to dirfd) and everything under it. It
// stops at the first entry on another mount (a *MountError), leaving that
// entry and the folders above it in place.
func (w walker) remove(dirfd int, name string) error {
	return w.tree(dirfd, name, name, 0, true)
}

func (w walker) tree(dirfd int, name, rel string, depth int, remove bool) error {
	id, typ, err := statFS(dirfd, name)
	if err != nil {
		if remove && errors.Is(err, unix.ENOENT) {
			return nil
		}
		return &os.PathError{Op: "stat", Path: w.rel + rel, Err: err}
	}
	if !w.root.same(id) {
		return &MountError{Path: w.rel + rel}
	}
	if typ != unix.DT_DIR {
		if !remove {
			return nil
		}
		if err := unix.Unlinkat(dirfd, name, 0); err != nil && !errors.Is(err, unix.ENOENT) {
			return &os.PathError{Op: "remove", Path: w.rel + rel, Err: err}
		}
		return nil
	}
	if depth >= maxTreeDepth {
		return fmt.Errorf("%s: more than %d folders deep: left alone", w.rel+rel, maxTreeDepth)
	}
	fd, err := openDir(dirfd, name)
	if err != nil {
		return err
	}
	if err := w.walkDir(fd, rel, depth, remove); err != nil {
		unix.Close(fd)
		return err
	}
	if err := unix.Close(fd); err != nil {
		return err
	}
	if remove {
		if err := unix.Unlinkat(dirfd, name, unix.AT_REMOVEDIR); err != nil && !errors.Is(err, unix.ENOENT) {
			return &os.PathError{Op: "remove", Path: w.rel + rel, Err: err}
		}
	}
	return nil
}

// walkDir goes through an open folder's entries.
func (w walker) walkDir(fd int, rel string, depth int, remove bool) error {
	id, _, err := statFS(fd, "")
	if err != nil {
		return &os.PathError{Op: "stat", Path: w.rel + rel, Err: err}
	}
	if !w.root.same(id) {
		return &MountError{Path: w.rel + rel} // became a mount point since its stat
	}
	ents, err := readDirFd(fd)
	if err != nil {
		return &os.PathError{Op: "read", Path: w.rel + rel, Err: err}
	}
	for _, e := range ents {
		if err := w.tree(fd, e.name, rel+"/"+e.name, depth+1, remove); err != nil {
			return err
		}
	}
	return nil
}
