package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// OpenSafe opens an existing file of the store for reading. It never
// follows a symlink, never blocks on (or reads) a FIFO or device: the type
// is checked on the open descriptor, so a file swapped after a check is
// still caught. Files with more than one hard link are refused: a link to a
// file outside the store would otherwise be read as a recording.
func OpenSafe(r *os.Root, name string) (*os.File, error) { return openSafe(r, name, os.O_RDONLY) }

func openSafe(r *os.Root, name string, flag int) (*os.File, error) {
	f, err := r.OpenFile(name, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if fi, lerr := r.Lstat(name); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%w: %s is a symlink", ErrUnsafeFile, name)
		}
		return nil, err
	}
	if err := checkRegular(f, name); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func checkRegular(f *os.File, name string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is not a regular file", ErrUnsafeFile, name)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return fmt.Errorf("%w: %s has %d hard links", ErrUnsafeFile, name, st.Nlink)
	}
	return nil
}

// CreateExcl creates a new file (0600) that must not exist yet.
func CreateExcl(r *os.Root, name string) (*os.File, error) {
	return r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
}

// ReadSmallFile reads a store file of at most limit bytes.
func ReadSmallFile(r *os.Root, name string, limit int64) ([]byte, error) {
	f, err := OpenSafe(r, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrUnsafeFile, name, limit)
	}
	return b, nil
}

// WriteFileAtomic writes data to a temporary file and renames it over name,
// so readers see the old or the new content, never a part.
func WriteFileAtomic(r *os.Root, name string, data []byte) error {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := name + ".tmp-" + hex.EncodeToString(rnd[:])
	f, err := CreateExcl(r, tmp)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = r.Remove(tmp)
		return err
	}
	if err := r.Rename(tmp, name); err != nil {
		_ = r.Remove(tmp)
		return err
	}
	return nil
}

// Lock is a held flock on a file of the store.
type Lock struct{ f *os.File }

// ErrLocked is returned by a non-blocking lock attempt that found the lock held.
var ErrLocked = errors.New("locked")

// LockFile opens (creating it when missing) name and takes an exclusive
// flock on it, waiting when wait is true and failing with ErrLocked otherwise.
func LockFile(r *os.Root, name string, wait bool) (*Lock, error) {
	f, err := r.OpenFile(name, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	how := unix.LOCK_EX
	if !wait {
		how |= unix.LOCK_NB
	}
	if err := flock(f, how); err != nil {
		f.Close()
		return nil, err
	}
	return &Lock{f: f}, nil
}

func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EWOULDBLOCK {
			return ErrLocked
		}
		return err
	}
}

// NewLock takes an exclusive, non-blocking flock on an open file.
func NewLock(f *os.File) (*Lock, error) {
	if err := flock(f, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return nil, err
	}
	return &Lock{f: f}, nil
}

// Close releases the lock.
func (l *Lock) Close() error { return l.f.Close() }

// IsLocked reports whether another process holds the lock on name (an
// exclusive lock it cannot share). A missing file is not locked.
func IsLocked(r *os.Root, name string) (bool, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	if err := checkRegular(f, name); err != nil {
		return false, err
	}
	err = flock(f, unix.LOCK_SH|unix.LOCK_NB)
	if err == ErrLocked {
		return true, nil
	}
	return false, err
}
