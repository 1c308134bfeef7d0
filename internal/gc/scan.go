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

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/store/tomb"
)

// Names GC knows in a session folder besides recordings.
const (
	newPrefix   = ".new-" // a recording being created (record.Create)
	gcPrefix    = ".gc-"  // a recording GC renamed away and is removing
	tmpInfix    = ".tmp-" // store.WriteFileAtomic's temporary files
	sessionsDir = store.SessionsDir
)

// recInfo is what a scan learns about one recording folder.
type recInfo struct {
	name    string
	seq     int64
	bytes   int64     // on disk: the folder and everything in it
	newest  time.Time // newest modification time of its files
	footer  bool      // finished (footer.json present)
	running bool      // no footer and its lock is held
	victim  bool      // planned for removal
	cached  bool      // measured from CacheFile: compressed if it could be
	gone    bool      // removed

	id        dirID // the folder's state when scanned
	cacheable bool  // finished and settled: CacheFile may remember it
}

// tempInfo is a temporary entry of a session folder that may be removed.
type tempInfo struct {
	name  string
	bytes int64
}

// sessInfo is what a scan learns about one session folder.
type sessInfo struct {
	name      string
	bytes     int64     // on disk: the folder and everything in it
	newest    time.Time // newest modification time among its recordings' files
	recs      []*recInfo
	temps     []tempInfo // stale temporaries and leftovers of an earlier GC
	hasTomb   bool
	tombOther bool     // tomb.File is there but not a regular file
	tombLen   int64    // apparent size of tomb.File
	tombDisk  int64    // and on disk
	unknown   []string // store-relative paths left alone
	errs      []string // what the scan could not read, in its order
	err       error

	summaryMisses int // footers whose summary did not hold (see maxSummaryMisses)
}

// errorf notes an error of the session's scan; the pass reports them
// session by session, so the parallel scan words them as a sequential one.
func (s *sessInfo) errorf(format string, a ...any) {
	s.errs = append(s.errs, fmt.Sprintf(format, a...))
}

// dirent is one entry of a folder: its name and its type as the file
// system reports it (unix.DT_*; DT_UNKNOWN until a stat says).
type dirent struct {
	name string
	typ  uint8
}

// typeOf maps a stat mode to a dirent type.
func typeOf(mode uint32) uint8 {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return unix.DT_REG
	case unix.S_IFDIR:
		return unix.DT_DIR
	case unix.S_IFLNK:
		return unix.DT_LNK
	}
	return unix.DT_FIFO // any other kind: never opened
}

// statEntry stats a regular (or not yet known) entry without following a
// symlink and settles its type; ok is false when it vanished meanwhile.
func statEntry(dirfd int, e *dirent, st *unix.Stat_t) (ok bool, err error) {
	if e.typ != unix.DT_REG && e.typ != unix.DT_UNKNOWN {
		return true, nil
	}
	if err := unix.Fstatat(dirfd, e.name, st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return false, nil
		}
		return false, &fs.PathError{Op: "stat", Path: e.name, Err: err}
	}
	e.typ = typeOf(uint32(st.Mode))
	return true, nil
}

// usage is what a walk of a folder found.
type usage struct {
	bytes  int64     // on disk (store.OnDisk): regular files and folders
	newest time.Time // newest modification time of its regular files
	footer bool      // the top folder holds footer.json
	zst    bool      // the top folder holds a compressed file
}

// zstSuffix ends the name of a file record.Compress wrote.
const zstSuffix = ".zst"

// file counts a regular file found depth folders below the walk's top.
func (u *usage) file(name string, depth int, disk int64, mt time.Time) {
	u.bytes += disk
	if mt.After(u.newest) {
		u.newest = mt
	}
	if depth == 0 {
		u.footer = u.footer || name == record.FooterFile
		u.zst = u.zst || strings.HasSuffix(name, zstSuffix)
	}
}

// add counts a folder below the walk's top.
func (u *usage) add(sub usage) {
	u.bytes += sub.bytes
	if sub.newest.After(u.newest) {
		u.newest = sub.newest
	}
}

// tree measures a directory, itself included, and what is under it
// (never following a symlink: it is opened O_NOFOLLOW relative to its
// parent's descriptor): what it takes on disk, and the newest
// modification time of its regular files.
func tree(dirfd int, name string, depth int) (usage, error) {
	fd, err := openDir(dirfd, name)
	if err != nil {
		return usage{}, err
	}
	defer unix.Close(fd)
	u, _, err := measureFd(fd, depth)
	return u, err
}

// measureFd measures the open directory fd, itself included (treeFd and
// a stat of it), and gives its identity as of that stat. It is how a
// pass measures a recording it cannot take from CacheFile or its footer,
// and what DiskUsage gives rac out list: one measure of a recording.
func measureFd(fd, depth int) (usage, dirID, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return usage{}, dirID{}, err
	}
	u, err := treeFd(fd, depth)
	if err != nil {
		return usage{}, dirID{}, err
	}
	u.bytes += statDisk(&st)
	return u, dirIDOf(&st), nil
}

// DiskUsage is what the recording name of a session takes on disk, as
// every size limit counts it (the folder, and every file and folder in
// it: see store.OnDisk), and whether gc stored some of it compressed.
func DiskUsage(sd *store.Session, name string) (bytes int64, compressed bool, err error) {
	dir, err := sd.Root().Open(".")
	if err != nil {
		return 0, false, err
	}
	defer dir.Close()
	fd, err := openDir(int(dir.Fd()), name)
	if err != nil {
		return 0, false, err
	}
	defer unix.Close(fd)
	u, _, err := measureFd(fd, 0)
	return u.bytes, u.zst, err
}

// openDir opens a directory relative to dirfd, never following a symlink.
func openDir(dirfd int, name string) (int, error) {
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return fd, nil
}

// isTempFile reports whether name is a temporary file of an atomic write
// of one of the files rac keeps in a session folder or the store root.
func isTempFile(name string) bool {
	base, _, ok := strings.Cut(name, tmpInfix)
	if !ok {
		return false
	}
	switch base {
	case store.SeqFile, store.InfoFile, tomb.File, StampFile, CacheFile:
		return true
	}
	return false
}

// scanRecording measures one recording folder: from CacheFile when the
// folder is unchanged since a pass saw it finished, else from its
// footer's summary when that holds (see summary.go), else by a stat of
// every file. nil when it vanished meanwhile (an error is reported).
func (p *pass) scanRecording(dirfd int, s *sessInfo, name string, seq int64) *recInfo {
	sess := s.name
	r := &recInfo{name: name, seq: seq}
	var known *unix.Stat_t // the folder, when a stat just took it
	if e, ok := p.cache[cacheKey(sess, name)]; ok {
		// known: one stat of the folder may stand for its files
		var st unix.Stat_t
		if err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			if !errors.Is(err, unix.ENOENT) {
				s.errorf("%s/%s/%s: %v", sessionsDir, sess, name, err)
			}
			return nil
		}
		if typeOf(uint32(st.Mode)) != unix.DT_DIR {
			return nil // swapped since the listing; the next pass sees what it is
		}
		if r.id = dirIDOf(&st); e.id == r.id {
			r.bytes, r.newest, r.footer, r.cacheable, r.cached = e.size, time.Unix(0, e.newest), true, true, true
			p.cacheHits.Add(1)
			return r
		}
		known = &st
	}
	if s.summaryMisses < maxSummaryMisses {
		sum := footerSummary(dirfd, name, known)
		if sum.ok {
			r.id, r.bytes, r.newest, r.footer = sum.id, sum.size, sum.newest, true
			p.settled(r)
			p.summaryHits.Add(1)
			return r
		}
		if sum.footer {
			s.summaryMisses++
		}
	}
	// measured: the folder is opened and its identity taken from the
	// descriptor (fstat, no lookup), so it is that of what is read
	fd, err := openDir(dirfd, name)
	if err != nil {
		// a symlink or a file swapped in since the listing: the next
		// pass sees what it is
		if !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.ELOOP) && !errors.Is(err, unix.ENOTDIR) {
			s.errorf("%s/%s/%s: %v", sessionsDir, sess, name, err)
		}
		return nil
	}
	defer unix.Close(fd)
	u, id, err := measureFd(fd, 0)
	if err != nil {
		if !errors.Is(err, unix.ENOENT) {
			s.errorf("%s/%s/%s: %v", sessionsDir, sess, name, err)
		}
		return nil
	}
	r.id, r.bytes, r.newest, r.footer = id, u.bytes, u.newest, u.footer
	p.settled(r)
	return r
}

// settled decides whether CacheFile may remember a measured recording:
// the footer is written last and in place, so once it has settled the
// folder changes no more.
func (p *pass) settled(r *recInfo) {
	r.cacheable = r.footer && p.now.Sub(r.newest) > cacheSettle
	if r.cacheable {
		p.cacheMisses.Add(1) // new to the cache: worth writing it
	}
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
	dir, err := sd.Root().Open(".")
	if err != nil {
		s.err = err
		return s
	}
	defer dir.Close()
	fd := int(dir.Fd())
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		s.err = err
		return s
	}
	s.bytes = statDisk(&st) // the session folder itself
	ents, err := readDirFd(fd)
	if err != nil {
		s.err = err
		return s
	}
	if p.o.MaxEntries > 0 && len(ents) > p.o.MaxEntries {
		s.err = ErrTooLarge
		return s
	}
	rel := sessionsDir + "/" + name + "/"
	for i := range ents {
		if p.late() {
			s.err = ErrDeadline
			return s
		}
		var st unix.Stat_t
		if ok, err := statEntry(fd, &ents[i], &st); err != nil {
			s.errorf("%s%s: %v", rel, ents[i].name, err)
			continue
		} else if !ok {
			continue
		}
		n := ents[i].name
		switch ents[i].typ {
		case unix.DT_DIR:
			p.scanSessionDir(s, sd, fd, n)
		case unix.DT_REG:
			p.scanSessionFile(s, n, &st)
		default: // symlinks, FIFOs, devices, sockets: never followed or opened
			s.unknown = append(s.unknown, rel+n)
			if n == tomb.File {
				s.tombOther = true
			}
		}
	}
	sort.Slice(s.recs, func(i, j int) bool { return s.recs[i].seq < s.recs[j].seq })
	return s
}

// scanSessionDir takes in the folder n of session s (its folder fd): a
// recording, a temporary (gc's, or a recording being created that was
// left behind) or something unknown.
func (p *pass) scanSessionDir(s *sessInfo, sd *store.Session, fd int, n string) {
	rel := sessionsDir + "/" + s.name + "/"
	if seq, ok := record.ParseName(n); ok {
		if r := p.scanRecording(fd, s, n, seq); r != nil {
			if r.newest.After(p.now) {
				r.newest = p.now
				if t, ok := trustedNewest(fd, n, p.now); ok {
					r.newest = t
				}
				r.cacheable = false
			}
			s.bytes += r.bytes
			newest := r.newest
			if !r.footer {
				r.running, _ = store.IsLocked(sd.Root(), n+"/"+record.LockFile)
			}
			if r.running {
				newest = p.now // a running recording keeps its session alive
			}
			if newest.After(s.newest) {
				s.newest = newest
			}
			s.recs = append(s.recs, r)
		}
		return
	}
	u, err := tree(fd, n, 0)
	size, newest := u.bytes, u.newest
	if errors.Is(err, unix.ENOENT) {
		return // removed since the listing (a temporary renamed into place)
	}
	if err != nil {
		s.errorf("%s%s: %v", rel, n, err)
		return
	}
	s.bytes += size
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
			if locked, err := store.IsLocked(sd.Root(), n+"/"+record.LockFile); err == nil && !locked {
				s.temps = append(s.temps, tempInfo{n, size})
			}
		}
	default:
		s.unknown = append(s.unknown, rel+n)
	}
}

// scanSessionFile takes in the regular file n of session s: the
// session's bookkeeping, its tombstones, a temporary or something unknown.
func (p *pass) scanSessionFile(s *sessInfo, n string, st *unix.Stat_t) {
	disk := statDisk(st)
	s.bytes += disk
	switch {
	case n == store.SeqFile, n == store.SessionLockFile, n == store.InfoFile:
	case n == tomb.File:
		s.hasTomb, s.tombLen, s.tombDisk = true, st.Size, disk
	case isTempFile(n):
		if p.now.Sub(mtime(st)) > p.o.StaleAfter {
			s.temps = append(s.temps, tempInfo{n, disk})
		}
	default:
		s.unknown = append(s.unknown, sessionsDir+"/"+s.name+"/"+n)
	}
}

// scan reads the whole store: the root's own files, then every session
// folder, several at a time.
func (p *pass) scan() error {
	hasSessions, err := p.scanRoot()
	if err != nil || !hasSessions {
		return err
	}
	names, err := p.sessionNames()
	if err != nil {
		return err
	}
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
		p.res.Errors = append(p.res.Errors, s.errs...)
		if s.err != nil {
			p.errorf("%s/%s: %v", sessionsDir, s.name, s.err)
		}
		p.res.Unrecognised = append(p.res.Unrecognised, s.unknown...)
	}
	return nil
}

// scanRoot reads the store root's own files (the cache, the stamp, the
// lock, temporaries) and says whether it holds the sessions folder.
func (p *pass) scanRoot() (hasSessions bool, err error) {
	dir, err := p.st.Root().Open(".")
	if err != nil {
		return false, err
	}
	defer dir.Close()
	fd := int(dir.Fd())
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return false, err
	}
	p.rootBytes = statDisk(&st) // the root folder itself
	ents, err := readDirFd(fd)
	if err != nil {
		return false, err
	}
	for i := range ents {
		var st unix.Stat_t
		if ok, err := statEntry(fd, &ents[i], &st); err != nil || !ok {
			continue
		}
		n, t := ents[i].name, ents[i].typ
		switch {
		case n == sessionsDir && t == unix.DT_DIR:
			hasSessions = true
			if unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
				p.rootBytes += statDisk(&st) // the sessions folder itself
			}
		case t == unix.DT_REG:
			disk := statDisk(&st)
			p.rootBytes += disk
			switch {
			case n == CacheFile:
				p.cacheFileSize, p.cacheFileDisk = st.Size, disk
			case n == StampFile, n == LockName:
			case isTempFile(n):
				if p.now.Sub(mtime(&st)) > p.o.StaleAfter {
					p.rootTemps = append(p.rootTemps, tempInfo{n, disk})
				}
			default:
				p.res.Unrecognised = append(p.res.Unrecognised, n)
			}
		default:
			p.res.Unrecognised = append(p.res.Unrecognised, n)
		}
	}
	return hasSessions, nil
}

// sessionNames lists the session folders, sorted; anything else in the
// sessions folder is unrecognised.
func (p *pass) sessionNames() ([]string, error) {
	sdir, err := p.st.Root().OpenFile(sessionsDir, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", sessionsDir, err)
	}
	defer sdir.Close()
	sfd := int(sdir.Fd())
	ents, err := readDirFd(sfd)
	if err != nil {
		return nil, err
	}
	var names []string
	for i := range ents {
		e := &ents[i]
		if e.typ == unix.DT_UNKNOWN {
			var st unix.Stat_t
			if unix.Fstatat(sfd, e.name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
				e.typ = typeOf(uint32(st.Mode))
			}
		}
		if e.typ == unix.DT_DIR && session.ValidName(e.name) {
			names = append(names, e.name)
		} else {
			p.res.Unrecognised = append(p.res.Unrecognised, sessionsDir+"/"+e.name)
		}
	}
	sort.Strings(names)
	return names, nil
}
