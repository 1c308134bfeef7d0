package gc

import (
	"errors"
	"io"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
)

// Compression: a full pass (rac out gc, or the detached rest of an
// automatic one) first rewrites the data files of finished recordings
// that are still raw in their compressed form (record.Compress), then
// measures them again, so that every limit counts what the compressed
// recordings hold on disk. It catches up with whatever an earlier pass
// left raw (a pass killed, stopped, or run with compression off): nothing
// depends on a pass having run, since readers read either form.
//
// A pass with a deadline (the part of automatic GC that runs inside rac
// run) compresses nothing, so it never delays the command's return: when
// it finds a recording to compress it stops before planning (a plan made
// on raw sizes would remove recordings that compressed would fit) with
// ErrDeadline, and the caller hands the pass to a detached process.

// rawNames are the files whose presence, raw and over
// record.MinCompressSize, makes a finished recording one to compress:
// every data file but a capped stream's tail segments, which are
// compressed with their head (record.Compress does a recording's
// streams first and the chunk index last).
var rawNames = []string{record.Stdout, record.Stderr, record.Combined, record.ChunksFile}

// hasRaw reports whether the finished recording name (in the session
// folder dirfd) holds a raw file worth compressing.
func hasRaw(dirfd int, name string) bool {
	for _, f := range rawNames {
		var st unix.Stat_t
		if unix.Fstatat(dirfd, name+"/"+f, &st, unix.AT_SYMLINK_NOFOLLOW) == nil &&
			st.Mode&unix.S_IFMT == unix.S_IFREG && st.Size > record.MinCompressSize {
			return true
		}
	}
	return false
}

// compress compresses the finished recordings that hold raw data, or with
// a deadline stops the pass when there are any (see above).
func (p *pass) compress() error {
	if !p.o.Compress || p.o.DryRun {
		return nil
	}
	if !p.cacheZ {
		// the recordings CacheFile remembers may be raw: each was looked
		// at, and the file is written again with cacheMagicZ
		p.cacheMisses.Add(1)
	}
	for _, s := range p.sessions {
		if s.err != nil {
			continue
		}
		if err := p.compressSession(s); err != nil {
			return err
		}
	}
	return nil
}

func (p *pass) compressSession(s *sessInfo) error {
	sd, err := p.st.Session(s.name, false)
	if err != nil {
		return nil // the scan reported it
	}
	defer sd.Close()
	dir, err := sd.Root().Open(".")
	if err != nil {
		return nil
	}
	defer dir.Close()
	fd := int(dir.Fd())
	for _, r := range s.recs {
		if !r.footer || r.cached && p.cacheZ || !hasRaw(fd, r.name) {
			continue
		}
		if !p.o.Deadline.IsZero() {
			return ErrDeadline
		}
		err := p.compressRecording(sd, r)
		if rerr := p.remeasure(s, fd, r); rerr != nil && err == nil {
			err = rerr
		}
		if errors.Is(err, record.ErrLate) {
			return ErrDeadline
		}
		if err != nil {
			p.errorf("compress %s/%s/%s: %v", sessionsDir, s.name, r.name, err)
		}
	}
	return nil
}

// compressRecording compresses one recording; it stays out of CacheFile
// until a pass finds nothing left to compress in it.
func (p *pass) compressRecording(sd *store.Session, r *recInfo) error {
	r.cacheable = false
	rec, err := record.Open(sd, r.name)
	if err != nil {
		return err
	}
	defer rec.Close()
	_, err = rec.Compress(record.CompressOptions{FrameSize: p.o.FrameSize, Late: p.late})
	return err
}

// remeasure measures a recording's folder again after compression.
func (p *pass) remeasure(s *sessInfo, dirfd int, r *recInfo) error {
	fd, err := openDir(dirfd, r.name)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	u, id, err := measureFd(fd, 0)
	if err != nil {
		return err
	}
	s.bytes += u.bytes - r.bytes
	r.id, r.bytes, r.newest = id, u.bytes, u.newest
	return nil
}

// cacheMagicZ heads a CacheFile written by a pass that compressed: each
// recording it remembers had nothing left raw. One written without
// compression (cacheMagic) may remember raw recordings, so a pass that
// compresses looks into those once. (Before sizes were counted on disk,
// "racgc-cache z": such a file is read as none.)
const cacheMagicZ = "racgc-cache Z\n"

func (p *pass) writeMagic() string {
	if p.o.Compress {
		return cacheMagicZ
	}
	return cacheMagic
}

// cacheCompressed reports whether CacheFile starts with cacheMagicZ.
func cacheCompressed(st *store.Store) bool {
	f, err := store.OpenSafe(st.Root(), CacheFile)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, len(cacheMagicZ))
	_, err = io.ReadFull(f, b)
	return err == nil && string(b) == cacheMagicZ
}
