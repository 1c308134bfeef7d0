package gc

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
)

// scanWith scans the store as a pass with o does (CacheFile included).
func scanWith(t *testing.T, f *fixture, o Options) *pass {
	p := newPass(f.st, o)
	var err error
	p.cache, err = loadCache(f.st, p.late)
	require.NoError(t, err)
	require.NoError(t, p.scan())
	return p
}

// rec finds a scanned recording.
func rec(t *testing.T, p *pass, sess, name string) *recInfo {
	for _, s := range p.sessions {
		for _, r := range s.recs {
			if s.name == sess && r.name == name {
				return r
			}
		}
	}
	t.Fatalf("%s/%s not scanned", sess, name)
	return nil
}

// fullScan measures a recording folder file by file.
func fullScan(t *testing.T, f *fixture, sess, name string) (int64, time.Time) {
	fd, err := syscall.Open(f.path(sess), syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	require.NoError(t, err)
	defer syscall.Close(fd)
	u, err := tree(fd, name, 0)
	require.NoError(t, err)
	require.True(t, u.footer)
	return u.bytes, u.newest
}

func (f *fixture) capped(sess string) string {
	sd := f.session(sess)
	defer sd.Close()
	w, err := record.Create(record.CreateOptions{Session: sd, Argv: []string{"make"}, Streams: []string{record.Stdout, record.Stderr}, MaxBytes: 8 << 10, HeadBytes: 2 << 10})
	require.NoError(f.t, err)
	for range 50 {
		_, err = w.Sink(record.Stdout).Write([]byte(strings.Repeat("build output\n", 80)))
		require.NoError(f.t, err)
	}
	code := 2
	require.NoError(f.t, w.Finish(record.Footer{Status: record.StatusExited, ExitCode: &code, EndedAt: time.Now()}))
	return w.Name
}

func TestSummaryEqualsFullScan(t *testing.T) {
	f := newFixture(t)
	recs := []string{f.record("s", ""), f.record("s", strings.Repeat("x", 70000)), f.capped("s"), f.record("s", "last\n")}
	require.NoError(t, os.WriteFile(f.path("s", "seq"), []byte("4\n"), 0o600)) // the session's files change, not the recordings'
	p := scanWith(t, f, Options{})
	assert.EqualValues(t, len(recs), p.summaryHits.Load())
	for _, name := range recs {
		size, newest := fullScan(t, f, "s", name)
		r := rec(t, p, "s", name)
		assert.Equal(t, size, r.bytes, name)
		assert.Equal(t, onDisk(t, f.path("s", name)), r.bytes, name)
		assert.True(t, newest.Equal(r.newest), "%s: newest %v, summary %v", name, newest, r.newest)
		assert.True(t, r.footer)
		assert.False(t, r.cacheable, "not settled")
	}
	assert.Equal(t, onDisk(t, f.root), p.rootBytes+sumSessions(p))
}

// A summary read by the first pass fills CacheFile as a full scan does:
// later passes find the same folder state with one stat.
func TestSummaryFillsCache(t *testing.T) {
	f := newFixture(t)
	recs := []string{f.record("s", "a\n"), f.record("s", "b\n"), f.record("s", "c\n")}
	later := func() time.Time { return time.Now().Add(2 * time.Hour) } // all settled
	p := scanWith(t, f, Options{Now: later})
	assert.EqualValues(t, 3, p.summaryHits.Load())
	res := f.run(Options{Now: later})
	assert.Equal(t, onDisk(t, f.root), res.Stores[0].BytesAfter)

	p = scanWith(t, f, Options{Now: later})
	assert.EqualValues(t, 3, p.cacheHits.Load(), "the folder's state from statx is the one stat gives")
	assert.Zero(t, p.summaryHits.Load())

	// a folder whose change time moved (chmod) misses the cache; its
	// summary still holds, read with the stat already made
	require.NoError(t, os.Chmod(f.path("s", recs[1]), 0o700))
	p = scanWith(t, f, Options{Now: later})
	assert.EqualValues(t, 2, p.cacheHits.Load())
	assert.EqualValues(t, 1, p.summaryHits.Load())
	assert.Equal(t, onDisk(t, f.path("s", recs[1])), rec(t, p, "s", recs[1]).bytes)
}

// setFooter rewrites a recording's footer in place (its folder's times
// stay) with b, dated like the old one.
func (f *fixture) setFooter(sess, name string, b []byte) {
	p := f.path(sess, name, record.FooterFile)
	fi, err := os.Stat(p)
	require.NoError(f.t, err)
	require.NoError(f.t, os.WriteFile(p, b, 0o600))
	require.NoError(f.t, os.Chtimes(p, fi.ModTime(), fi.ModTime()))
}

func (f *fixture) footer(sess, name string) record.Footer {
	b, err := os.ReadFile(f.path(sess, name, record.FooterFile))
	require.NoError(f.t, err)
	var ft record.Footer
	require.NoError(f.t, json.Unmarshal(b, &ft))
	return ft
}

func TestSummaryFallsBackToFullScan(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(f *fixture, name string)
	}{
		{"a file added after the footer", func(f *fixture, name string) {
			require.NoError(f.t, os.WriteFile(f.path("s", name, "extra"), []byte("12345"), 0o600))
			// the folder's time says so (set, not waited for: a coarse
			// clock may give the footer and the file the same time)
			fi, err := os.Stat(f.path("s", name, record.FooterFile))
			require.NoError(f.t, err)
			later := fi.ModTime().Add(time.Second)
			require.NoError(f.t, os.Chtimes(f.path("s", name), later, later))
		}},
		{"a footer without a summary (an older rac)", func(f *fixture, name string) {
			ft := f.footer("s", name)
			ft.Disk = nil
			b, err := json.MarshalIndent(ft, "", "  ")
			require.NoError(f.t, err)
			f.setFooter("s", name, b)
		}},
		{"a footer cut short", func(f *fixture, name string) {
			b, err := os.ReadFile(f.path("s", name, record.FooterFile))
			require.NoError(f.t, err)
			f.setFooter("s", name, b[:len(b)-3])
		}},
		{"a footer that is not JSON", func(f *fixture, name string) {
			f.setFooter("s", name, []byte("garbage\n"))
		}},
		{"a footer too big to read for its summary", func(f *fixture, name string) {
			ft := f.footer("s", name)
			ft.Notes = []string{strings.Repeat("n", maxFooter)}
			ft.Disk.Bytes = 1 // would be wrong
			b, err := json.Marshal(ft)
			require.NoError(f.t, err)
			f.setFooter("s", name, b)
		}},
		{"a summary of another folder", func(f *fixture, name string) {
			ft := f.footer("s", name)
			ft.Disk.Inode++
			ft.Disk.Bytes = 1
			b, err := json.Marshal(ft)
			require.NoError(f.t, err)
			f.setFooter("s", name, b)
		}},
		{"a recording backdated", func(f *fixture, name string) {
			f.backdate(8*24*time.Hour, "s", name)
		}},
		{"a footer with two links", func(f *fixture, name string) {
			require.NoError(f.t, os.Link(f.path("s", name, record.FooterFile), filepath.Join(f.dir, "footer-link")))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			name := f.record("s", strings.Repeat("x", 3000))
			tc.change(f, name)
			p := scanWith(t, f, Options{})
			assert.Zero(t, p.summaryHits.Load())
			r := rec(t, p, "s", name)
			size, newest := fullScan(t, f, "s", name)
			assert.Equal(t, size, r.bytes)
			assert.Equal(t, onDisk(t, f.path("s", name)), r.bytes)
			assert.True(t, newest.Equal(r.newest))
			assert.True(t, r.footer)
		})
	}
}

// A footer that is not a regular file is neither followed nor opened for
// long: the recording is measured as it is, as one without a footer.
func TestSummaryNeverFollowsOrBlocks(t *testing.T) {
	f := newFixture(t)
	link := f.record("s", "x\n")
	fifo := f.record("s", "y\n")
	// footer.json a symlink to a file beside it, whose summary would hold
	// (and count 1 GB) if it were read
	require.NoError(t, os.Remove(f.path("s", link, record.FooterFile)))
	require.NoError(t, os.Symlink("decoy", f.path("s", link, record.FooterFile)))
	fi, err := os.Stat(f.path("s", link))
	require.NoError(t, err)
	decoy := f.path("s", link, "decoy")
	require.NoError(t, os.WriteFile(decoy, fmt.Appendf(nil, `{"disk": {"bytes": 1000000000, "newest": "2020-01-01T00:00:00Z", "inode": %d}}`, fi.Sys().(*syscall.Stat_t).Ino), 0o600))
	future := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(decoy, future, future))
	require.NoError(t, os.Remove(f.path("s", fifo, record.FooterFile)))
	require.NoError(t, syscall.Mkfifo(f.path("s", fifo, record.FooterFile), 0o600))

	done := make(chan *pass)
	go func() { done <- scanWith(t, f, Options{}) }()
	var p *pass
	select {
	case p = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the scan blocked on a FIFO")
	}
	assert.Zero(t, p.summaryHits.Load())
	for _, name := range []string{link, fifo} {
		r := rec(t, p, "s", name)
		assert.False(t, r.footer, name)
		assert.Equal(t, onDisk(t, f.path("s", name)), r.bytes, name)
	}
}

// After maxSummaryMisses footers without a summary a session's other
// recordings go straight to the full scan.
func TestSummaryMissesStopTrying(t *testing.T) {
	f := newFixture(t)
	for range 5 {
		name := f.record("old", "x\n")
		ft := f.footer("old", name)
		ft.Disk = nil
		b, err := json.Marshal(ft)
		require.NoError(t, err)
		f.setFooter("old", name, b)
	}
	f.record("new", "x\n")
	p := scanWith(t, f, Options{})
	assert.EqualValues(t, 1, p.summaryHits.Load())
	for _, s := range p.sessions {
		if s.name == "old" {
			assert.Equal(t, maxSummaryMisses, s.summaryMisses)
		}
	}
	assert.Equal(t, onDisk(t, f.root), p.rootBytes+sumSessions(p))
}

func TestSettle(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 500, time.UTC)
	body := func(d string) []byte { return []byte(`{"status": "exited", "disk": ` + d + "}\n") }
	good := body(`{"bytes": 1000, "newest": "2026-05-01T12:00:00.0000005Z", "inode": 42, "allocated": 8192}`)
	for _, tc := range []struct {
		name   string
		b      []byte
		folder time.Time
		footer footerStat
		ok     bool
	}{
		{"holds", good, t0, footerStat{mode: syscall.S_IFREG, nlink: 1, mtime: t0}, true},
		{"footer later than all", good, t0, footerStat{mode: syscall.S_IFREG, nlink: 1, mtime: t0.Add(time.Hour)}, true},
		{"folder changed after the footer", good, t0.Add(time.Nanosecond), footerStat{mode: syscall.S_IFREG, nlink: 1, mtime: t0}, false},
		{"footer backdated", good, t0.Add(-time.Hour), footerStat{mode: syscall.S_IFREG, nlink: 1, mtime: t0.Add(-time.Hour)}, false},
		{"another folder's", body(`{"bytes": 1000, "newest": "2026-05-01T12:00:00.0000005Z", "inode": 43, "allocated": 8192}`), t0, footerStat{mode: syscall.S_IFREG, nlink: 1, mtime: t0}, false},
		{"an older rac's, without what its files take on disk", body(`{"bytes": 1000, "newest": "2026-05-01T12:00:00.0000005Z", "inode": 42}`), t0, footerStat{mode: syscall.S_IFREG, nlink: 1, mtime: t0}, false},
		{"not a file", good, t0, footerStat{mode: syscall.S_IFIFO, nlink: 1, mtime: t0}, false},
		{"two links", good, t0, footerStat{mode: syscall.S_IFREG, nlink: 2, mtime: t0}, false},
	} {
		s := summary{id: dirID{ino: 42, mtime: tc.folder.UnixNano()}, dirDisk: 4096}
		tc.footer.size, tc.footer.disk = int64(len(tc.b)), 4096
		s.settle(tc.b, len(tc.b), tc.footer)
		assert.Equal(t, tc.ok, s.ok, tc.name)
		if tc.ok {
			assert.EqualValues(t, 4096+8192+4096, s.size, tc.name, "on disk: the folder, its files, the footer")
			assert.Equal(t, tc.footer.mtime, s.newest, tc.name)
		}
	}
	s := summary{id: dirID{ino: 42, mtime: t0.UnixNano()}}
	s.settle(good, len(good)-1, footerStat{mode: syscall.S_IFREG, nlink: 1, size: int64(len(good)), mtime: t0})
	assert.False(t, s.ok, "a short read")
}
