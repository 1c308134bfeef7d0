package gc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/gc/tomb"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/session"
)

// Names GC knows in a session folder besides recordings.
const (
	seqFile     = "seq"
	lockFile    = "lock"
	infoFile    = "session.json"
	newPrefix   = ".new-" // a recording being created (record.Create)
	gcPrefix    = ".gc-"  // a recording GC renamed away and is removing
	tmpInfix    = ".tmp-" // session.WriteFileAtomic's temporary files
	sessionsDir = session.SessionsDir
)

// recInfo is what a scan learns about one recording folder.
type recInfo struct {
	name    string
	seq     int64
	bytes   int64     // apparent size of every file in it
	newest  time.Time // newest modification time of its files
	footer  bool      // finished (footer.json present)
	running bool      // no footer and its lock is held
	victim  bool      // planned for removal
}

// tempInfo is a temporary entry of a session folder that may be removed.
type tempInfo struct {
	name  string
	bytes int64
}

// sessInfo is what a scan learns about one session folder.
type sessInfo struct {
	name    string
	bytes   int64     // apparent size of every file in the folder
	newest  time.Time // newest modification time among its recordings' files
	recs    []*recInfo
	temps   []tempInfo // stale temporaries and leftovers of an earlier GC
	hasTomb bool
	tombLen int64
	unknown []string // store-relative paths left alone
	err     error
}

// nofollowDir opens a directory relative to a descriptor, refusing a
// symlink in its place.
func nofollowDir(dirfd int, name string) (*os.File, error) {
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// tree sums the apparent size of the regular files under a directory
// (never following a symlink) and finds their newest modification time;
// footer reports whether the top folder holds a footer.
func tree(dirfd int, name string, depth int) (size int64, newest time.Time, footer bool, err error) {
	f, err := nofollowDir(dirfd, name)
	if err != nil {
		return 0, time.Time{}, false, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return 0, time.Time{}, false, err
	}
	fd := int(f.Fd())
	for _, e := range ents {
		switch {
		case e.Type().IsRegular():
			var st unix.Stat_t
			if err := unix.Fstatat(fd, e.Name(), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				if errors.Is(err, unix.ENOENT) {
					continue
				}
				return 0, time.Time{}, false, err
			}
			size += st.Size
			if t := mtime(&st); t.After(newest) {
				newest = t
			}
			if depth == 0 && e.Name() == record.FooterFile {
				footer = true
			}
		case e.IsDir() && depth < 8:
			s, t, _, err := tree(fd, e.Name(), depth+1)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return 0, time.Time{}, false, err
			}
			size += s
			if t.After(newest) {
				newest = t
			}
		}
	}
	return size, newest, footer, nil
}

// isTempFile reports whether name is a temporary file of an atomic write
// of one of the files rac keeps in a session folder or the store root.
func isTempFile(name string) bool {
	base, _, ok := strings.Cut(name, tmpInfix)
	if !ok {
		return false
	}
	switch base {
	case seqFile, infoFile, tomb.File, StampFile:
		return true
	}
	return false
}

// scanSession reads one session folder: recordings, bookkeeping files,
// temporaries and anything it does not recognise (reported, left alone).
func (p *pass) scanSession(name string) *sessInfo {
	s := &sessInfo{name: name}
	sd, err := p.st.Session(name, false)
	if err != nil {
		s.err = err
		return s
	}
	defer sd.Close()
	dir, err := sd.Root.Open(".")
	if err != nil {
		s.err = err
		return s
	}
	defer dir.Close()
	ents, err := dir.ReadDir(-1)
	if err != nil {
		s.err = err
		return s
	}
	fd := int(dir.Fd())
	rel := sessionsDir + "/" + name + "/"
	for _, e := range ents {
		if p.late() {
			s.err = ErrDeadline
			return s
		}
		n, t := e.Name(), e.Type()
		switch {
		case t.IsDir():
			size, newest, footer, err := tree(fd, n, 0)
			if errors.Is(err, fs.ErrNotExist) {
				continue // removed since the listing (a temporary renamed into place)
			}
			if err != nil {
				p.errorf("%s%s: %v", rel, n, err)
				continue
			}
			s.bytes += size
			if seq, ok := record.ParseName(n); ok {
				r := &recInfo{name: n, seq: seq, bytes: size, newest: newest, footer: footer}
				if !footer {
					r.running, _ = session.IsLocked(sd.Root, n+"/"+record.LockFile)
				}
				if r.running {
					newest = p.now // a running recording keeps its session alive
				}
				if newest.After(s.newest) {
					s.newest = newest
				}
				s.recs = append(s.recs, r)
				continue
			}
			switch {
			case strings.HasPrefix(n, gcPrefix):
				s.temps = append(s.temps, tempInfo{n, size})
			case strings.HasPrefix(n, newPrefix):
				// being created, unless nothing in it (nor the folder
				// itself: a recorder may not have made its lock yet) moved
				// for a day and no recorder holds its lock
				var st unix.Stat_t
				if unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && mtime(&st).After(newest) {
					newest = mtime(&st)
				}
				if p.now.Sub(newest) > p.o.StaleAfter {
					if locked, err := session.IsLocked(sd.Root, n+"/"+record.LockFile); err == nil && !locked {
						s.temps = append(s.temps, tempInfo{n, size})
					}
				}
			default:
				s.unknown = append(s.unknown, rel+n)
			}
		case t.IsRegular():
			var st unix.Stat_t
			if err := unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				if !errors.Is(err, unix.ENOENT) {
					p.errorf("%s%s: %v", rel, n, err)
				}
				continue
			}
			s.bytes += st.Size
			switch {
			case n == seqFile, n == lockFile, n == infoFile:
			case n == tomb.File:
				s.hasTomb, s.tombLen = true, st.Size
			case isTempFile(n):
				if p.now.Sub(mtime(&st)) > p.o.StaleAfter {
					s.temps = append(s.temps, tempInfo{n, st.Size})
				}
			default:
				s.unknown = append(s.unknown, rel+n)
			}
		default: // symlinks, FIFOs, devices, sockets: never followed or opened
			s.unknown = append(s.unknown, rel+n)
		}
	}
	sort.Slice(s.recs, func(i, j int) bool { return s.recs[i].seq < s.recs[j].seq })
	return s
}

// scan reads the whole store: the root's own files, then every session
// folder, several at a time.
func (p *pass) scan() error {
	dir, err := p.st.Root.Open(".")
	if err != nil {
		return err
	}
	ents, err := dir.ReadDir(-1)
	if err != nil {
		dir.Close()
		return err
	}
	fd := int(dir.Fd())
	hasSessions := false
	for _, e := range ents {
		n, t := e.Name(), e.Type()
		switch {
		case n == sessionsDir && t.IsDir():
			hasSessions = true
		case t.IsRegular():
			var st unix.Stat_t
			if err := unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				continue
			}
			p.rootBytes += st.Size
			switch {
			case n == StampFile, n == LockName:
			case isTempFile(n):
				if p.now.Sub(mtime(&st)) > p.o.StaleAfter {
					p.rootTemps = append(p.rootTemps, tempInfo{n, st.Size})
				}
			default:
				p.res.Unrecognised = append(p.res.Unrecognised, n)
			}
		default:
			p.res.Unrecognised = append(p.res.Unrecognised, n)
		}
	}
	dir.Close()
	if !hasSessions {
		return nil
	}
	sdir, err := p.st.Root.OpenFile(sessionsDir, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_DIRECTORY, 0)
	if err != nil {
		return fmt.Errorf("open %s: %w", sessionsDir, err)
	}
	ents, err = sdir.ReadDir(-1)
	sdir.Close()
	if err != nil {
		return err
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() && session.ValidName(e.Name()) {
			names = append(names, e.Name())
		} else {
			p.res.Unrecognised = append(p.res.Unrecognised, sessionsDir+"/"+e.Name())
		}
	}
	sort.Strings(names)
	p.sessions = make([]*sessInfo, len(names))
	workers := min(runtime.GOMAXPROCS(0), 8, len(names))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				p.sessions[i] = p.scanSession(names[i])
			}
		})
	}
	for i := range names {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, s := range p.sessions {
		if errors.Is(s.err, ErrDeadline) {
			return ErrDeadline
		}
		if s.err != nil {
			p.errorf("%s/%s: %v", sessionsDir, s.name, s.err)
		}
		p.res.Unrecognised = append(p.res.Unrecognised, s.unknown...)
	}
	return nil
}
