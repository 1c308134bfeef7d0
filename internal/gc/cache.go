package gc

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/rac-cli/rac/internal/store"
	"golang.org/x/sys/unix"
)

// CacheFile remembers, for each finished recording, its folder's identity
// and times and what a full scan of it found (bytes on disk, newest
// modification time of its files). A finished recording never changes:
// while its folder keeps the same device, inode, modification and change
// time, one stat of the folder stands for a stat of each of its files,
// which is most of a pass's cost. Anything that adds, removes or renames
// a file in the folder, or sets its times (backdate), changes them.
const CacheFile = "gc.cache"

// cacheMagic heads CacheFile (see also cacheMagicZ). A file of an older
// rac ("racgc-cache 1", apparent sizes) is read as none: its sizes are
// not what a pass counts.
const cacheMagic = "racgc-cache 2\n"

// cacheSettle is how long a footer must have been written before its
// recording is cached: the recorder writes the footer in place, so a
// footer seen at once may still be growing.
const cacheSettle = time.Minute

// maxCache bounds what is read of the cache (about 80 bytes a recording).
const maxCache = 64 << 20

// dirID is what identifies a recording folder's state.
type dirID struct {
	dev, ino     uint64
	mtime, ctime int64
}

func dirIDOf(st *unix.Stat_t) dirID {
	ms, mn := st.Mtim.Unix()
	cs, cn := st.Ctim.Unix()
	return dirID{dev: uint64(st.Dev), ino: uint64(st.Ino), mtime: ms*1e9 + mn, ctime: cs*1e9 + cn}
}

type cacheEntry struct {
	id     dirID
	size   int64
	newest int64 // Unix nanoseconds
}

// cacheKey identifies a recording in the cache: a 64-bit FNV-1a hash of
// SESSION/NAME keeps the table small (a collision would also need the
// same folder identity and times to mislead, and then only about a size).
func cacheKey(sess, name string) uint64 {
	h := uint64(14695981039346656037)
	for _, part := range [...]string{sess, "/", name} {
		for i := 0; i < len(part); i++ {
			h ^= uint64(part[i])
			h *= 1099511628211
		}
	}
	return h
}

// loadCache reads the cache, streaming; a missing, damaged or foreign
// one is empty: the pass then stats everything, as without it. It stops
// with ErrDeadline once late says so.
func loadCache(st *store.Store, late func() bool) (map[uint64]cacheEntry, error) {
	f, err := store.OpenSafe(st.Root(), CacheFile)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	br := bufio.NewReaderSize(io.LimitReader(f, maxCache), 64<<10)
	if magic, err := br.ReadString('\n'); err != nil || magic != cacheMagic && magic != cacheMagicZ {
		return nil, nil
	}
	m := map[uint64]cacheEntry{}
	for i := 0; ; i++ {
		if i%4096 == 0 && late() {
			return nil, ErrDeadline
		}
		line, err := br.ReadSlice('\n')
		if err != nil {
			return m, nil // the end, or a last line cut short
		}
		sp := bytes.IndexByte(line, ' ')
		slash := bytes.IndexByte(line, '/')
		if sp <= 0 || slash <= 0 || slash > sp {
			continue
		}
		key := cacheKey(string(line[:slash]), string(line[slash+1:sp]))
		var n [6]int64
		rest, ok := line[sp:len(line)-1], true
		for i := range n {
			if n[i], rest, ok = nextInt(rest); !ok {
				break
			}
		}
		if ok && len(rest) == 0 {
			m[key] = cacheEntry{
				id:   dirID{dev: uint64(n[0]), ino: uint64(n[1]), mtime: n[2], ctime: n[3]},
				size: n[4], newest: n[5],
			}
		}
	}
}

// nextInt parses " 123" off the front of b.
func nextInt(b []byte) (int64, []byte, bool) {
	if len(b) < 2 || b[0] != ' ' {
		return 0, b, false
	}
	b = b[1:]
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	var v int64
	i := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9' && i < 19; i++ {
		v = v*10 + int64(b[i]-'0')
	}
	if i == 0 || i < len(b) && b[i] != ' ' {
		return 0, b, false
	}
	if neg {
		v = -v
	}
	return v, b[i:], true
}

// writeCache replaces the cache atomically (a temporary file renamed over
// it) with the finished recordings the pass keeps, streaming.
func (p *pass) writeCache() error {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := CacheFile + tmpInfix + hex.EncodeToString(rnd[:])
	f, err := store.CreateExcl(p.st.Root(), tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	_, _ = w.WriteString(p.writeMagic())
	var num []byte
	for _, s := range p.sessions {
		if s.err != nil {
			continue
		}
		for _, r := range s.recs {
			if !r.cacheable || r.gone {
				continue
			}
			_, _ = w.WriteString(s.name)
			_ = w.WriteByte('/')
			_, _ = w.WriteString(r.name)
			for _, v := range [...]int64{int64(r.id.dev), int64(r.id.ino), r.id.mtime, r.id.ctime, r.bytes, r.newest.UnixNano()} {
				num = strconv.AppendInt(num[:0], v, 10)
				_ = w.WriteByte(' ')
				_, _ = w.Write(num)
			}
			_ = w.WriteByte('\n')
		}
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		_ = p.st.Root().Remove(tmp)
		return err
	}
	if err := p.st.Root().Rename(tmp, CacheFile); err != nil {
		_ = p.st.Root().Remove(tmp)
		return err
	}
	return nil
}
