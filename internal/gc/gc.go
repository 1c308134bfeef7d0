// Package gc owns retention. A pass removes, in this order, the sessions
// whose newest recording file is older than MaxAge, the oldest finished
// recordings of each session over MaxSessionBytes, and the oldest finished
// recordings of the store while it is over MaxStoreBytes; Remove and Purge
// remove recordings on the user's demand. Every removal leaves a tombstone
// (package tomb), so a reference to it answers "expired", and a session
// folder keeps its counter, so its numbers are never reused. Sizes are
// bytes on disk, as du counts them (store.OnDisk; DiskUsage measures one
// recording, for rac out list too).
//
// It must never remove a running recording, never follow a symlink (the
// store is reached through os.Root and descriptors opened O_NOFOLLOW),
// never remove across a mount point (a folder holding one is kept and
// reported: see walker), never delete what it does not recognise (it
// reports it), and never touch a recording being created (its temporary
// name) unless it is clearly stale. Callers hold the store's GC lock
// (Lock) around Run, Remove and Purge, so two passes never interleave.
package gc

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/store/tomb"
	"github.com/rac-cli/rac/internal/units"
)

// ErrDeadline is returned by a pass that stopped at Options.Deadline; what
// it removed until then is removed completely, and a later pass goes on.
var ErrDeadline = errors.New("gc deadline reached")

// ErrTooLarge is returned by a pass over a session folder that holds more
// than Options.MaxEntries entries: nothing was changed, and the next full
// pass applies the same rules.
var ErrTooLarge = errors.New("gc: session too large for this pass")

// Files of the store root that GC owns.
const (
	StampFile = "gc.stamp" // when the last pass started (RFC 3339)
	LockName  = "gc.lock"  // flock held by the pass, rm and purge
)

// DefaultStaleAfter is how long a temporary entry (a recording being
// created, an atomic write) must be left unchanged before GC removes it.
const DefaultStaleAfter = 24 * time.Hour

// Options configure a pass.
type Options struct {
	MaxAge          time.Duration // remove sessions older than this; 0: no limit
	MaxSessionBytes int64         // 0: no limit
	MaxStoreBytes   int64         // 0: no limit
	TombstoneTTL    time.Duration // 0: tomb.TTL (30 days)
	StaleAfter      time.Duration // 0: DefaultStaleAfter
	DryRun          bool          // plan and report, change nothing
	Now             func() time.Time
	// Redact is applied to a command before it goes into a tombstone
	// (nil: the command as recorded, which the recorder already redacted).
	Redact func(string) string
	// Deadline, when set, stops the pass at the next safe point after it
	// (ErrDeadline): automatic GC hands the rest to a detached process.
	Deadline time.Time
	// MaxEntries, when set, bounds a session's scan by work instead of
	// time: a session folder with more entries is not scanned
	// (ErrTooLarge). The trim at a recording's end uses it, so that what
	// it does depends on the session, not on how busy the machine is.
	MaxEntries int
	// Compress rewrites finished recordings' data in compressed form
	// before the pass plans (see compress.go), in frames of FrameSize
	// bytes (0: record.DefaultFrameSize).
	Compress  bool
	FrameSize int
}

// Removal is one recording removed (or, in a dry run, to be removed).
type Removal struct {
	Store   string `json:"store"`
	Ref     string `json:"ref"`
	Session string `json:"session"`
	Name    string `json:"name"`
	Seq     int64  `json:"seq"`
	Bytes   int64  `json:"bytes"`
	By      string `json:"by"`
	Reason  string `json:"reason"`
}

// SessionRemoval is a session all of whose recordings were removed. Its
// folder stays with its counter and tombstones.
type SessionRemoval struct {
	Store      string `json:"store"`
	Session    string `json:"session"`
	Recordings int    `json:"recordings"`
	Bytes      int64  `json:"bytes"`
	By         string `json:"by"`
	Reason     string `json:"reason"`
}

// Kept is something a rule wanted removed and GC left alone, with why.
type Kept struct {
	Store string `json:"store"`
	Ref   string `json:"ref"` // SESSION/NAME, a session name, or "" for the store
	Why   string `json:"why"`
}

// StoreSize is a store's size on disk before and after the pass.
type StoreSize struct {
	Path        string `json:"path"`
	BytesBefore int64  `json:"bytes_before"`
	BytesAfter  int64  `json:"bytes_after"`
}

// Result is what a pass did (or, dry, would do). It is also the JSON of
// rac out gc --json; docs/retention.md documents the shape.
type Result struct {
	DryRun            bool             `json:"dry_run"`
	RemovedSessions   int              `json:"removed_sessions"`
	RemovedRecordings int              `json:"removed_recordings"`
	FreedBytes        int64            `json:"freed_bytes"`
	Stores            []StoreSize      `json:"stores"`
	Sessions          []SessionRemoval `json:"sessions"`
	Recordings        []Removal        `json:"recordings"`
	Temporaries       []string         `json:"temporaries"`
	Kept              []Kept           `json:"kept"`
	Unrecognised      []string         `json:"unrecognised"`
	Errors            []string         `json:"errors"`
}

// Merge adds another store's result to r.
func (r *Result) Merge(o *Result) {
	if o == nil {
		return
	}
	r.DryRun = r.DryRun || o.DryRun
	r.RemovedSessions += o.RemovedSessions
	r.RemovedRecordings += o.RemovedRecordings
	r.FreedBytes += o.FreedBytes
	r.Stores = append(r.Stores, o.Stores...)
	r.Sessions = append(r.Sessions, o.Sessions...)
	r.Recordings = append(r.Recordings, o.Recordings...)
	r.Temporaries = append(r.Temporaries, o.Temporaries...)
	r.Kept = append(r.Kept, o.Kept...)
	r.Unrecognised = append(r.Unrecognised, o.Unrecognised...)
	r.Errors = append(r.Errors, o.Errors...)
}

// NewResult is an empty result (lists empty, not null, in JSON).
func NewResult(dry bool) *Result {
	return &Result{DryRun: dry, Stores: []StoreSize{}, Sessions: []SessionRemoval{}, Recordings: []Removal{},
		Temporaries: []string{}, Kept: []Kept{}, Unrecognised: []string{}, Errors: []string{}}
}

// victim is a recording planned for removal, with its tombstone.
type victim struct {
	rec   *recInfo
	entry tomb.Entry
	done  bool
}

// plan is what a pass will do in one session.
type plan struct {
	victims   []*victim
	sessEntry *tomb.Entry  // all its recordings go
	tombs     []tomb.Entry // the file's entries, when loaded
	tombRead  bool         // tombs holds them (or there is no file)
	tombDirty bool         // entries were pruned, or the file is unreadable
	tombSize  int64        // projected apparent size of the tombstone file
	tombDisk  int64        // and what it counts in projected (see tombTo)
	projected int64        // projected size of the session, on disk
}

// pass is one run over one store.
type pass struct {
	st        *store.Store
	o         Options
	now       time.Time
	res       *Result
	mu        sync.Mutex // guards res.Errors during the parallel scan
	rootBytes int64
	rootTemps []tempInfo
	sessions  []*sessInfo
	plans     map[*sessInfo]*plan
	total     int64 // projected store size

	cache         map[uint64]cacheEntry
	cacheKnown    int // recordings CacheFile remembered
	cacheHits     atomic.Int64
	cacheMisses   atomic.Int64
	cacheFileSize int64 // size of CacheFile when scanned
	cacheFileDisk int64 // and on disk
	cacheBytes    int64 // projected size of CacheFile
	cacheDisk     int64 // and what it counts in total (see cacheTo)
	cacheWrite    bool  // CacheFile is written after the pass
	useCache      bool  // a full pass (rm and purge leave CacheFile to it)

	summaryHits atomic.Int64 // recordings measured from their footer's summary
	cacheZ      bool         // CacheFile was written by a pass that compressed

	rootFS fsID // the store root's mount: removals never leave it
}

func newPass(st *store.Store, o Options) *pass {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.TombstoneTTL <= 0 {
		o.TombstoneTTL = tomb.TTL
	}
	if o.StaleAfter <= 0 {
		o.StaleAfter = DefaultStaleAfter
	}
	return &pass{st: st, o: o, now: o.Now(), res: NewResult(o.DryRun), plans: map[*sessInfo]*plan{}}
}

// stamp is a tombstone's time: whole seconds, so a tombstone's size does
// not depend on the clock's digits and a dry run frees what the pass does.
func (p *pass) stamp() time.Time { return p.now.UTC().Truncate(time.Second) }

func (p *pass) late() bool { return !p.o.Deadline.IsZero() && time.Now().After(p.o.Deadline) }

func (p *pass) errorf(format string, a ...any) {
	p.mu.Lock()
	p.res.Errors = append(p.res.Errors, fmt.Sprintf(format, a...))
	p.mu.Unlock()
}

func (p *pass) keep(ref, why string) {
	p.res.Kept = append(p.res.Kept, Kept{Store: p.st.Path, Ref: ref, Why: why})
}

// Run makes one pass over a store. The caller holds Lock. A dry run only
// reads. The result is complete also when an error is returned.
func Run(st *store.Store, o Options) (*Result, error) {
	p := newPass(st, o)
	p.useCache = true
	var err error
	if p.cache, err = loadCache(st, p.late); err != nil {
		return p.res, err
	}
	p.cacheZ = cacheCompressed(st)
	if err := p.scan(); err != nil {
		return p.res, err
	}
	if err := p.compress(); err != nil {
		return p.res, err
	}
	p.cacheKnown, p.cache = len(p.cache), nil // counted; no longer needed
	p.planCache()
	for _, s := range p.sessions {
		if s.err == nil {
			p.planTombs(s)
		}
	}
	p.planAge()
	p.planSessions()
	p.planStore()
	err = p.apply()
	p.saveCache()
	p.finish()
	return p.res, err
}

// planCache counts CacheFile, as it will be after the pass, in the
// projected store size in place of its present size.
func (p *pass) planCache() {
	p.cacheBytes, p.cacheDisk = p.cacheFileSize, p.cacheFileDisk
	if p.cacheMisses.Load() > 0 || int64(p.cacheKnown) != p.cacheHits.Load() {
		p.rewriteCache() // measured anew, or one it remembers is gone
	}
}

// rewriteCache notes that CacheFile will be written, with a line for
// every cacheable recording not planned for removal.
func (p *pass) rewriteCache() {
	if p.cacheWrite {
		return
	}
	n := int64(len(cacheMagic))
	for _, s := range p.sessions {
		for _, r := range s.recs {
			if r.cacheable && !r.victim {
				n += cacheLineLen(s.name, r)
			}
		}
	}
	if n == int64(len(cacheMagic)) && p.cacheFileSize == 0 {
		return // nothing to remember, and no file to correct
	}
	p.cacheWrite = true
	p.cacheTo(n)
}

// Sizes are counted on disk (store.OnDisk), but a pass plans the files it
// writes itself, CacheFile and the tombstone files, by their contents:
// cacheTo and tombTo count a file of n bytes about to be written as n
// rounded up to a block (store.RoundBlock), and a stat of it once it is
// written corrects that (cacheWritten, tombWritten), so a pass's final
// size is what it left on disk, and a dry run's what the pass would.

// cacheTo projects CacheFile at n bytes.
func (p *pass) cacheTo(n int64) {
	d := store.RoundBlock(n)
	p.total += d - p.cacheDisk
	p.cacheBytes, p.cacheDisk = n, d
}

// cacheWritten counts CacheFile as a stat finds it.
func (p *pass) cacheWritten() {
	if fi, err := p.st.Root().Lstat(CacheFile); err == nil {
		d := store.FileOnDisk(fi)
		p.total += d - p.cacheDisk
		p.cacheDisk = d
	}
}

// tombTo projects the session's tombstone file at n bytes.
func (p *pass) tombTo(pl *plan, n int64) {
	d := store.RoundBlock(n)
	pl.projected += d - pl.tombDisk
	p.total += d - pl.tombDisk
	pl.tombSize, pl.tombDisk = n, d
}

// tombWritten counts the session's tombstone file, n bytes long, as a
// stat finds it.
func (p *pass) tombWritten(pl *plan, sd *store.Session, n int64) {
	p.tombTo(pl, n)
	if fi, err := sd.Root().Lstat(tomb.File); err == nil && fi.Mode().IsRegular() {
		d := store.FileOnDisk(fi)
		pl.projected += d - pl.tombDisk
		p.total += d - pl.tombDisk
		pl.tombDisk = d
	}
}

func cacheLineLen(sess string, r *recInfo) int64 {
	n := len(sess) + 1 + len(r.name) + 1 // key, newline
	for _, v := range []int64{int64(r.id.dev), int64(r.id.ino), r.id.mtime, r.id.ctime, r.bytes, r.newest.UnixNano()} {
		n += 1 + len(strconv.FormatInt(v, 10))
	}
	return int64(n)
}

// saveCache writes CacheFile after a pass that changed what it knows.
func (p *pass) saveCache() {
	if p.o.DryRun || !p.cacheWrite {
		return
	}
	if err := p.writeCache(); err != nil {
		p.errorf("%s: %v", CacheFile, err)
		p.total += p.cacheFileDisk - p.cacheDisk // as it was
		p.cacheBytes, p.cacheDisk = p.cacheFileSize, p.cacheFileDisk
		return
	}
	p.cacheWritten()
}

// planTombs reads a session's tombstones and drops those past their time.
func (p *pass) planTombs(s *sessInfo) {
	pl := &plan{projected: s.bytes, tombRead: !s.hasTomb, tombSize: s.tombLen, tombDisk: s.tombDisk}
	p.plans[s] = pl
	for _, t := range s.temps {
		pl.projected -= t.bytes
	}
	p.total += pl.projected
	if !s.hasTomb {
		return
	}
	sd, err := p.st.Session(s.name, false)
	if err != nil {
		p.errorf("%s/%s: %v", sessionsDir, s.name, err)
		return
	}
	defer sd.Close()
	if oldest, err := tomb.Oldest(sd.Root()); err == nil && p.now.Sub(oldest) <= p.o.TombstoneTTL {
		return // none due: read them only if the pass adds some
	}
	pl.tombRead = true
	entries, err := tomb.Load(sd.Root())
	if err != nil {
		// GC's own file, unreadable: it is replaced by the next write,
		// since removing must not wait on a nicer message
		p.errorf("%s/%s/%s: %v (it will be replaced)", sessionsDir, s.name, tomb.File, err)
		pl.tombDirty = true
		p.tombTo(pl, 0)
		return
	}
	kept := tomb.Prune(entries, p.now, p.o.TombstoneTTL)
	pl.tombs = kept
	if len(kept) != len(entries) {
		pl.tombDirty = true
		var n int64
		for _, e := range kept {
			n += int64(len(tomb.Line(e)))
		}
		p.tombTo(pl, n)
	}
}

// verify says why a recording cannot be removed by a size rule ("" when
// it can), and its command. It is what record.Open would decide, read
// more cheaply (a pass may verify many): running while its lock is held
// (also with a footer: the recorder writes it in place before it lets go),
// left alone when its metadata is of a newer format or unreadable.
func verify(sd *store.Session, r *recInfo) (argv []string, why string) {
	if r.running || locked(sd, r) {
		return nil, "running"
	}
	b, err := store.ReadSmallFile(sd.Root(), r.name+"/"+record.MetaFile, 1<<20)
	var m struct {
		Format int      `json:"format"`
		Argv   []string `json:"argv"`
	}
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	switch {
	case err != nil:
		return nil, "unreadable (" + err.Error() + "); removed only by age"
	case m.Format > record.FormatVersion:
		return nil, fmt.Sprintf("written by a newer rac (format %d, this rac reads up to %d); removed only by age", m.Format, record.FormatVersion)
	}
	return m.Argv, ""
}

// locked reports whether a recorder still holds a recording's lock: it
// writes its footer in place before it lets go, so a footer alone does
// not yet mean finished.
func locked(sd *store.Session, r *recInfo) bool {
	l, err := store.IsLocked(sd.Root(), r.name+"/"+record.LockFile)
	if l {
		r.running = true
	}
	return l || err != nil && !errors.Is(err, fs.ErrNotExist)
}

// argvOf reads a recording's command for its tombstone, if it can.
func argvOf(sd *store.Session, name string) []string {
	b, err := store.ReadSmallFile(sd.Root(), name+"/"+record.MetaFile, 1<<20)
	if err != nil {
		return nil
	}
	var m struct {
		Argv []string `json:"argv"`
	}
	_ = json.Unmarshal(b, &m)
	return m.Argv
}

func (p *pass) addVictim(s *sessInfo, r *recInfo, by, reason string, argv []string) {
	pl := p.plans[s]
	e := tomb.Entry{Kind: tomb.KindRecording, Seq: r.seq, RemovedAt: p.stamp(), By: by, Reason: reason, Bytes: r.bytes}
	if by == tomb.ByGC {
		e.Name, e.Command = r.name, tomb.Command(argv, p.o.Redact)
	} else {
		e.NameSHA256 = tomb.NameHash(r.name) // see tomb.Entry
	}
	line := int64(len(tomb.Line(e)))
	pl.victims = append(pl.victims, &victim{rec: r, entry: e})
	r.victim = true
	pl.projected -= r.bytes
	p.total -= r.bytes
	p.tombTo(pl, pl.tombSize+line)
	if r.cacheable && p.useCache {
		// its line leaves CacheFile, which is then written
		if p.cacheWrite {
			p.cacheTo(p.cacheBytes - cacheLineLen(s.name, r))
		} else {
			p.rewriteCache() // counts the lines of what stays
		}
	}
}

// removeAll plans the removal of every recording of a session that is
// not running, and the session tombstone that keeps its counter.
func (p *pass) removeAll(s *sessInfo, sd *store.Session, by, reason string) {
	pl := p.plans[s]
	var n int
	var bytes, seq int64
	for _, r := range s.recs {
		if r.victim {
			continue
		}
		if r.running || locked(sd, r) {
			p.keep(s.name+"/"+r.name, "running")
			continue
		}
		var argv []string
		if by == tomb.ByGC {
			argv = argvOf(sd, r.name)
		}
		p.addVictim(s, r, by, reason, argv)
		n++
		bytes += r.bytes
		seq = max(seq, r.seq)
	}
	if n == 0 {
		return // all running: nothing to say expired
	}
	// the highest number removed, not the counter: a recording being
	// created now has a number above it and must not read as expired
	e := tomb.Entry{Kind: tomb.KindSession, Seq: seq, RemovedAt: p.stamp(), By: by, Reason: reason, Bytes: bytes, Recordings: n}
	pl.sessEntry = &e
	p.tombTo(pl, pl.tombSize+int64(len(tomb.Line(e))))
}

func (p *pass) planAge() {
	if p.o.MaxAge <= 0 {
		return
	}
	reason := "session older than " + FormatAge(p.o.MaxAge)
	for _, s := range p.sessions {
		if s.err != nil || s.newest.IsZero() || p.now.Sub(s.newest) <= p.o.MaxAge || len(s.recs) == 0 {
			continue
		}
		sd, err := p.st.Session(s.name, false)
		if err != nil {
			p.errorf("%s/%s: %v", sessionsDir, s.name, err)
			continue
		}
		p.removeAll(s, sd, tomb.ByGC, reason)
		sd.Close()
	}
}

func (p *pass) planSessions() {
	limit := p.o.MaxSessionBytes
	if limit <= 0 {
		return
	}
	reason := "session over " + units.Bytes(limit)
	for _, s := range p.sessions {
		pl := p.plans[s]
		if s.err != nil || pl.sessEntry != nil || pl.projected <= limit {
			continue
		}
		sd, err := p.st.Session(s.name, false)
		if err != nil {
			p.errorf("%s/%s: %v", sessionsDir, s.name, err)
			continue
		}
		for _, r := range s.recs {
			if pl.projected <= limit {
				break
			}
			if r.victim {
				continue
			}
			argv, why := verify(sd, r)
			if why != "" {
				p.keep(s.name+"/"+r.name, why)
				continue
			}
			p.addVictim(s, r, tomb.ByGC, reason, argv)
		}
		sd.Close()
		if pl.projected > limit {
			p.keep(s.name, fmt.Sprintf("still %s, over %s: what is left cannot be removed", units.Bytes(pl.projected), units.Bytes(limit)))
		}
	}
}

func (p *pass) planStore() {
	limit := p.o.MaxStoreBytes
	p.total += p.rootBytes
	for _, t := range p.rootTemps {
		p.total -= t.bytes
	}
	if limit <= 0 || p.total <= limit {
		return
	}
	reason := "store over " + units.Bytes(limit)
	type cand struct {
		s *sessInfo
		r *recInfo
	}
	var cands []cand
	for _, s := range p.sessions {
		if s.err != nil {
			continue
		}
		for _, r := range s.recs {
			if !r.victim && !r.running {
				cands = append(cands, cand{s, r})
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if !a.r.newest.Equal(b.r.newest) {
			return a.r.newest.Before(b.r.newest)
		}
		if a.s.name != b.s.name {
			return a.s.name < b.s.name
		}
		return a.r.seq < b.r.seq
	})
	for _, c := range cands {
		if p.total <= limit {
			break
		}
		sd, err := p.st.Session(c.s.name, false)
		if err != nil {
			p.errorf("%s/%s: %v", sessionsDir, c.s.name, err)
			continue
		}
		argv, why := verify(sd, c.r)
		sd.Close()
		if why != "" {
			p.keep(c.s.name+"/"+c.r.name, why)
			continue
		}
		p.addVictim(c.s, c.r, tomb.ByGC, reason, argv)
	}
	if p.total > limit {
		p.keep("", fmt.Sprintf("still %s, over %s: what is left is running, newer or unreadable", units.Bytes(p.total), units.Bytes(limit)))
	}
}

// apply carries the plans out, session by session: the recordings that
// hold a mount point are kept (also in a dry run, which says so), then
// tombstones are written (so a removal is never silent), then each
// recording is renamed out of sight and removed, then stale temporaries go.
func (p *pass) apply() error {
	var err error
	if p.rootFS, err = rootFS(p.st); err != nil {
		// without the store's mount nothing can be checked: nothing goes
		for _, pl := range p.plans {
			p.unplan(pl)
		}
		return fmt.Errorf("stat the store root: %w", err)
	}
	if p.o.DryRun {
		for _, s := range p.sessions {
			pl := p.plans[s]
			if pl == nil || len(pl.victims) == 0 && len(s.temps) == 0 {
				continue
			}
			if sd, err := p.st.Session(s.name, false); err == nil {
				p.screen(s, pl, sd)
				sd.Close()
			}
			for _, v := range pl.victims {
				v.done = true
			}
		}
		return nil
	}
	for _, s := range p.sessions {
		pl := p.plans[s]
		if pl == nil || len(pl.victims) == 0 && len(s.temps) == 0 && !pl.tombDirty {
			continue
		}
		if p.late() {
			return ErrDeadline
		}
		p.applySession(s, pl)
	}
	for _, t := range p.rootTemps {
		if err := p.st.Root().Remove(t.name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			p.errorf("%s: %v", t.name, err)
		} else {
			p.res.Temporaries = append(p.res.Temporaries, t.name)
		}
	}
	return nil
}

func (p *pass) applySession(s *sessInfo, pl *plan) {
	sd, err := p.st.Session(s.name, false)
	if err != nil {
		p.errorf("%s/%s: %v", sessionsDir, s.name, err)
		p.unplan(pl)
		return
	}
	defer sd.Close()
	dir, err := sd.Root().Open(".")
	if err != nil {
		p.errorf("%s/%s: %v", sessionsDir, s.name, err)
		p.unplan(pl)
		return
	}
	defer dir.Close()
	w := p.walker(s)
	p.screenWith(s, pl, int(dir.Fd()), w)
	entries := p.tombsAfter(s, pl, sd)
	werr := error(nil)
	switch {
	case s.tombOther:
		p.errorf("%s/%s/%s is not a regular file: left alone, so no tombstones were written (references to what was removed will say not found)", sessionsDir, s.name, tomb.File)
		p.tombTo(pl, 0)
	case len(pl.victims) > 0 || pl.sessEntry != nil || pl.tombDirty:
		if werr = tomb.Write(sd.Root(), entries); werr == nil {
			p.tombWritten(pl, sd, tombBytes(entries))
		}
	}
	p.removeVictims(s, pl, sd, int(dir.Fd()), w)
	if werr != nil {
		// a full disk is when GC matters most: the recordings went
		// anyway, and their space may now hold the tombstones
		if err := tomb.Write(sd.Root(), entries); err != nil {
			p.errorf("%s/%s/%s: %v (references to what was removed will say not found)", sessionsDir, s.name, tomb.File, errors.Join(werr, err))
			p.tombWritten(pl, sd, s.tombLen) // the old file, as it was
		} else {
			p.tombWritten(pl, sd, tombBytes(entries))
		}
	}
	p.removeTemps(s, pl, int(dir.Fd()), w)
}

// removeVictims removes the plan's recordings from the session folder
// dirfd; one that stays (now on another mount, or that failed) counts in
// the projected total again.
func (p *pass) removeVictims(s *sessInfo, pl *plan, sd *store.Session, dirfd int, w walker) {
	for _, v := range pl.victims {
		if err := removeRecording(sd, dirfd, w, v.rec.name); err != nil {
			var me *MountError
			switch {
			case errors.As(err, &me):
				// mounted since screen looked: its tombstone is written
				// already, and the recording still answers first
				p.keep(s.name+"/"+v.rec.name, keepWhy(me, w.rel+v.rec.name))
			case !errors.Is(err, fs.ErrNotExist):
				p.errorf("remove %s/%s: %v", s.name, v.rec.name, err)
			}
			pl.projected += v.rec.bytes
			p.total += v.rec.bytes
			if v.rec.cacheable && p.useCache {
				p.cacheTo(p.cacheBytes + cacheLineLen(s.name, v.rec)) // still there, still cached
			}
			continue
		}
		v.done = true
		v.rec.gone = true
	}
}

// removeTemps removes the session's stale temporaries from its folder
// dirfd, each checked first for another mount inside it.
func (p *pass) removeTemps(s *sessInfo, pl *plan, dirfd int, w walker) {
	for _, t := range s.temps {
		err := w.check(dirfd, t.name)
		if err == nil {
			err = w.remove(dirfd, t.name)
		}
		if err != nil {
			if me := (*MountError)(nil); errors.As(err, &me) {
				p.keep(s.name+"/"+t.name, keepWhy(me, w.rel+t.name))
			} else {
				p.errorf("remove %s/%s/%s: %v", sessionsDir, s.name, t.name, err)
			}
			pl.projected += t.bytes
			p.total += t.bytes
			continue
		}
		p.res.Temporaries = append(p.res.Temporaries, sessionsDir+"/"+s.name+"/"+t.name)
	}
}

// tombsAfter is the session's tombstone file as the pass writes it: what
// it holds (loaded now when the plan did not need to), the planned
// entries, one entry per recording (tomb.Dedupe: a killed pass may have
// written some of them already).
func (p *pass) tombsAfter(s *sessInfo, pl *plan, sd *store.Session) []tomb.Entry {
	if !pl.tombRead && (len(pl.victims) > 0 || pl.sessEntry != nil) {
		old, err := tomb.Load(sd.Root())
		if err != nil {
			p.errorf("%s/%s/%s: %v (it is replaced)", sessionsDir, s.name, tomb.File, err)
		}
		pl.tombs, pl.tombRead = old, true
	}
	entries := append([]tomb.Entry(nil), pl.tombs...)
	for _, v := range pl.victims {
		entries = append(entries, v.entry)
	}
	if pl.sessEntry != nil {
		entries = append(entries, *pl.sessEntry)
	}
	return tomb.Dedupe(entries)
}

func tombBytes(entries []tomb.Entry) int64 {
	var n int64
	for _, e := range entries {
		n += int64(len(tomb.Line(e)))
	}
	return n
}

// walker is the remover of one session's folder.
func (p *pass) walker(s *sessInfo) walker {
	return walker{root: p.rootFS, rel: sessionsDir + "/" + s.name + "/"}
}

// screen is screenWith for a dry run, which also says which temporaries
// the pass would keep (a pass checks each as it removes it) and projects
// the tombstone file as the pass would write it.
func (p *pass) screen(s *sessInfo, pl *plan, sd *store.Session) {
	dir, err := sd.Root().Open(".")
	if err != nil {
		p.errorf("%s/%s: %v", sessionsDir, s.name, err)
		return
	}
	defer dir.Close()
	w := p.walker(s)
	p.screenWith(s, pl, int(dir.Fd()), w)
	if len(pl.victims) > 0 || pl.sessEntry != nil {
		size := tombBytes(p.tombsAfter(s, pl, sd))
		if s.tombOther {
			size = 0
		}
		// the tombstone file's real size (duplicates dropped, lines
		// not understood left out)
		p.tombTo(pl, size)
	}
	temps := s.temps[:0]
	for _, t := range s.temps {
		if me := (*MountError)(nil); errors.As(w.check(int(dir.Fd()), t.name), &me) {
			p.keep(s.name+"/"+t.name, keepWhy(me, w.rel+t.name))
			continue
		}
		temps = append(temps, t)
	}
	s.temps = temps
}

// screenWith keeps, before anything of a session is removed or a
// tombstone written, the planned recordings that hold a mount point.
func (p *pass) screenWith(s *sessInfo, pl *plan, dirfd int, w walker) {
	kept := 0
	for i, v := range pl.victims {
		err := w.check(dirfd, v.rec.name)
		var me *MountError
		if !errors.As(err, &me) {
			// anything else is for the removal to report
			pl.victims[i-kept] = v
			continue
		}
		p.keep(s.name+"/"+v.rec.name, keepWhy(me, w.rel+v.rec.name))
		kept++
		p.unvictim(s, pl, v)
	}
	if kept == 0 {
		return
	}
	pl.victims = pl.victims[:len(pl.victims)-kept]
	if e := pl.sessEntry; e != nil {
		// it says what was removed: recount without what is kept
		old := int64(len(tomb.Line(*e)))
		e.Recordings, e.Bytes, e.Seq = 0, 0, 0
		for _, v := range pl.victims {
			e.Recordings++
			e.Bytes += v.rec.bytes
			e.Seq = max(e.Seq, v.rec.seq)
		}
		var n int64
		if e.Recordings == 0 {
			pl.sessEntry = nil
		} else {
			n = int64(len(tomb.Line(*e)))
		}
		p.tombTo(pl, pl.tombSize+n-old)
	}
}

// unvictim takes a planned removal back (the reverse of addVictim).
func (p *pass) unvictim(s *sessInfo, pl *plan, v *victim) {
	r := v.rec
	r.victim = false
	pl.projected += r.bytes
	p.total += r.bytes
	p.tombTo(pl, pl.tombSize-int64(len(tomb.Line(v.entry))))
	if r.cacheable && p.useCache && p.cacheWrite {
		p.cacheTo(p.cacheBytes + cacheLineLen(s.name, r)) // it stays, and so does its line
	}
}

// unplan puts a session's planned removals back: they did not happen.
func (p *pass) unplan(pl *plan) {
	for _, v := range pl.victims {
		pl.projected += v.rec.bytes
		p.total += v.rec.bytes
	}
}

// removeRecording renames a recording to a temporary name first, so that
// no reader ever sees a half-removed recording, then removes it. A crash
// in between leaves a .gc- folder the next pass removes. screenWith has
// kept the recordings that hold a mount point; the removal still checks
// every entry and stops at one mounted since (a *MountError).
func removeRecording(sd *store.Session, dirfd int, w walker, name string) error {
	if _, ok := record.ParseName(name); !ok {
		return fmt.Errorf("%w: %q is not a recording name", store.ErrUnsafeFile, name)
	}
	fi, err := sd.Root().Lstat(name)
	if err != nil {
		return err
	}
	if !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%w: %s is not a directory", store.ErrUnsafeFile, name)
	}
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	tmp := gcPrefix + name + "-" + hex.EncodeToString(rnd[:])
	if err := sd.Root().Rename(name, tmp); err != nil {
		return err
	}
	return w.remove(dirfd, tmp)
}

// finish fills the result from the plans.
func (p *pass) finish() {
	before := p.rootBytes
	for _, s := range p.sessions {
		before += s.bytes
		pl := p.plans[s]
		if pl == nil {
			continue
		}
		for _, v := range pl.victims {
			if !v.done {
				continue
			}
			p.res.RemovedRecordings++
			p.res.Recordings = append(p.res.Recordings, Removal{
				Store: p.st.Path, Ref: s.name + "/" + v.rec.name, Session: s.name, Name: v.rec.name, Seq: v.rec.seq,
				Bytes: v.rec.bytes, By: v.entry.By, Reason: v.entry.Reason,
			})
		}
		if e := pl.sessEntry; e != nil {
			p.res.RemovedSessions++
			p.res.Sessions = append(p.res.Sessions, SessionRemoval{
				Store: p.st.Path, Session: s.name, Recordings: e.Recordings, Bytes: e.Bytes, By: e.By, Reason: e.Reason,
			})
		}
	}
	if p.o.DryRun {
		for _, s := range p.sessions {
			for _, t := range s.temps {
				p.res.Temporaries = append(p.res.Temporaries, sessionsDir+"/"+s.name+"/"+t.name)
			}
		}
		for _, t := range p.rootTemps {
			p.res.Temporaries = append(p.res.Temporaries, t.name)
		}
	}
	p.res.Stores = append(p.res.Stores, StoreSize{Path: p.st.Path, BytesBefore: before, BytesAfter: p.total})
	p.res.FreedBytes = before - p.total
}

// Remove removes the named recordings of one session now, leaving
// tombstones that say "removed by user". A running recording is not
// removed (it is reported in Kept). The caller holds Lock.
func Remove(st *store.Store, sessName string, names []string, o Options) (*Result, error) {
	return userRemove(st, sessName, names, false, o)
}

// Purge removes every recording of a session that is not running, and
// leaves a session tombstone by the user. The caller holds Lock.
func Purge(st *store.Store, sessName string, o Options) (*Result, error) {
	return userRemove(st, sessName, nil, true, o)
}

func userRemove(st *store.Store, sessName string, names []string, all bool, o Options) (*Result, error) {
	o.MaxAge, o.MaxSessionBytes, o.MaxStoreBytes = 0, 0, 0
	p := newPass(st, o)
	s := p.scanSession(sessName)
	p.res.Errors = append(p.res.Errors, s.errs...)
	if s.err != nil {
		return p.res, s.err
	}
	p.sessions = []*sessInfo{s}
	p.res.Unrecognised = append(p.res.Unrecognised, s.unknown...)
	s.temps = nil // a user's rm is about recordings; temporaries are GC's
	p.planTombs(s)
	p.total += p.rootBytes
	sd, err := st.Session(sessName, false)
	if err != nil {
		return p.res, err
	}
	defer sd.Close()
	if all {
		p.removeAll(s, sd, tomb.ByUser, "")
	} else {
		want := map[string]bool{}
		for _, n := range names {
			want[n] = true
		}
		for _, r := range s.recs {
			if !want[r.name] {
				continue
			}
			delete(want, r.name)
			if r.running || locked(sd, r) {
				p.keep(s.name+"/"+r.name, "running")
				continue
			}
			p.addVictim(s, r, tomb.ByUser, "", nil)
		}
		for n := range want {
			p.errorf("no recording %q in session %q", n, sessName)
		}
	}
	err = p.apply()
	p.finish()
	return p.res, err
}

// Lock takes the store's GC lock, waiting for it when wait is true; a lock
// held elsewhere without wait is store.ErrLocked.
func Lock(st *store.Store, wait bool) (*store.Lock, error) {
	return store.LockFile(st.Root(), LockName, wait)
}

// Due reports whether the last pass started interval or more before now
// (or there was none, or the clock went back). The stamp's modification
// time is when; its content is the same time, for people.
func Due(st *store.Store, interval time.Duration, now time.Time) bool {
	fi, err := st.Root().Lstat(StampFile)
	if err != nil || !fi.Mode().IsRegular() {
		return true
	}
	t := fi.ModTime()
	if t.After(now.Add(time.Minute)) {
		return true
	}
	return now.Sub(t) >= interval
}

// MarkRun records that a pass starts now.
func MarkRun(st *store.Store, now time.Time) error {
	if err := store.WriteFileAtomic(st.Root(), StampFile, []byte(now.UTC().Format(time.RFC3339Nano)+"\n")); err != nil {
		return err
	}
	return st.Root().Chtimes(StampFile, now, now)
}

// Large reports whether a pass over the store is sure to take longer than
// automatic GC may spend inside rac run: CacheFile remembers thousands of
// recordings. Such a pass goes to a detached process at once.
func Large(st *store.Store) bool {
	fi, err := st.Root().Lstat(CacheFile)
	return err == nil && fi.Size() > largeCache
}

// largeCache is the CacheFile size of a store of about 3,000 recordings.
const largeCache = 256 << 10

// FreeBytes is the space an unprivileged user can still write on the file
// system that holds path (or would hold it: its nearest existing parent).
func FreeBytes(path string) (int64, error) {
	p := filepath.Clean(path)
	for {
		var st unix.Statfs_t
		err := unix.Statfs(p, &st)
		if err == nil {
			free := uint64(st.Bavail) * uint64(st.Bsize)
			if free > 1<<62 {
				free = 1 << 62
			}
			return int64(free), nil
		}
		parent := filepath.Dir(p)
		if !errors.Is(err, unix.ENOENT) || parent == p {
			return 0, &fs.PathError{Op: "statfs", Path: p, Err: err}
		}
		p = parent
	}
}

// FormatAge renders a duration of whole days as "7 days", else as a Go
// duration without trailing zero units ("36h", "90m").
func FormatAge(d time.Duration) string {
	const day = 24 * time.Hour
	if d >= day && d%day == 0 {
		if d == day {
			return "1 day"
		}
		return fmt.Sprintf("%d days", d/day)
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
