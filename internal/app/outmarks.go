package app

import (
	"io/fs"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/rac-cli/rac/internal/record"
)

// outMarks remembers, for the streams of --no-redact recordings this
// process has redacted on their way out (outLines), the lines before
// which that pass found nothing open: no block a later line depends on
// (redact.Lines.Settled). A window's pass may start at the last such line
// before it, with a new redact.Lines, instead of at the stream's start:
// what it hands out is then exactly what the pass from the start would
// have, and a tail of a 512 MiB recording costs the lines from the mark
// (at most markEvery bytes, and the window) instead of 512 MiB.
//
// The marks live in the memory of the process that found them, with the
// redactor that found them (copies of an App share both), and are never
// written down: nothing another process, another redactor (a changed
// redact.* setting, another build of rac) or a changed file could make
// stale is ever trusted. The first outbound read of a stream in a process
// pays the pass from the start, as every read did before; rac mcp, which
// serves a conversation's reads from one process, pays it once.
//
// A mark is only as good as the stream it was found in, so each stream's
// marks are held against what can change under a running server:
//
//   - the recording folder (its device and inode) and its metadata's start
//     time, pid and number: a recording removed and another made under
//     the same path gets marks of its own;
//   - the stream's size, which only grows (a recorder appends, rac record
//     --append appends, gc compresses without changing a byte as read): a
//     smaller size drops the marks;
//   - for marks after a cut, the cut itself: a running capped recorder
//     moves it, and the pass after the cut starts from the first kept line
//     (redact.NewLinesAfterCut), so marks found for one cut say nothing of
//     another. Marks before the cut stay: the head never changes.
//
// A pass whose redaction failed drops the stream's marks and notes none
// again, so every later read fails closed as the pass from the start does.
// A walk that meets a marker it did not expect (a cut that was made while
// it ran) notes no more marks.
type outMarks struct {
	mu      sync.Mutex
	streams map[markKey]*markedStream
	order   []markKey // oldest first, to bound the map
}

// markEvery is how many bytes of skipped lines a pass feeds between two
// looks for a mark: each look writes the lines held (redact.Lines batches
// them), and a window's pass costs at most this much more than its lines.
const markEvery = 64 << 10

// maxMarkedStreams bounds the streams marks are kept for (a few bytes a
// mark, one mark at most every markEvery bytes).
const maxMarkedStreams = 64

type markKey struct {
	dir, stream string
}

type markedStream struct {
	folder  fs.FileInfo
	started time.Time
	pid     int
	seq     int64
	size    int64 // the stream's size when last held against it
	head    *markList
	tail    *markList // marks after tailCut
	tailCut record.StreamCut
}

// markList is one segment's marks, in increasing order; failed: a pass
// over the stream failed, and no mark is given out or taken.
type markList struct {
	lines  []int64
	failed bool
}

func newOutMarks() *outMarks {
	return &outMarks{streams: map[markKey]*markedStream{}}
}

// lists returns the mark lists of one stream of rec for a pass made now:
// before the cut (or of the whole stream) and after it. They are new
// lists when rec is not the recording the marks were found in, or its
// stream shrank, or, for the tail's, its cut moved; nil, nil when the
// recording cannot be held against its marks (no folder identity).
func (m *outMarks) lists(rec *record.Recording, stream string, cut *record.StreamCut) (head, tail *markList) {
	if m == nil {
		return nil, nil
	}
	folder, err := rec.DirStat()
	if err != nil || folder.Sys() == nil {
		return nil, nil
	}
	size := rec.StreamSize(stream)
	var c record.StreamCut
	if cut != nil {
		c = *cut
	}
	key := markKey{dir: rec.Dir(), stream: stream}
	m.mu.Lock()
	defer m.mu.Unlock()
	ms := m.streams[key]
	if ms == nil || !os.SameFile(ms.folder, folder) || !ms.started.Equal(rec.Meta.StartedAt) ||
		ms.pid != rec.Meta.PID || ms.seq != rec.Meta.Seq || size < ms.size {
		if ms == nil {
			if len(m.order) >= maxMarkedStreams {
				delete(m.streams, m.order[0])
				m.order = m.order[1:]
			}
			m.order = append(m.order, key)
		}
		ms = &markedStream{folder: folder, started: rec.Meta.StartedAt, pid: rec.Meta.PID, seq: rec.Meta.Seq,
			head: &markList{}, tail: &markList{}, tailCut: c}
		m.streams[key] = ms
	}
	ms.size = size
	if ms.tailCut != c {
		ms.tail, ms.tailCut = &markList{}, c
		if ms.head.failed {
			ms.tail.failed = true
		}
	}
	return ms.head, ms.tail
}

// before returns the last mark of l at or before line n, 0 when none.
func (m *outMarks) before(l *markList, n int64) int64 {
	if l == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if l.failed {
		return 0
	}
	i, found := slices.BinarySearch(l.lines, n)
	if found {
		return n
	}
	if i == 0 {
		return 0
	}
	return l.lines[i-1]
}

// add notes line n as a mark of l.
func (m *outMarks) add(l *markList, n int64) {
	if l == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if l.failed {
		return
	}
	if i, found := slices.BinarySearch(l.lines, n); !found {
		l.lines = slices.Insert(l.lines, i, n)
	}
}

// fail drops the marks of a stream whose pass failed, and takes none
// again.
func (m *outMarks) fail(lists ...*markList) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, l := range lists {
		if l != nil {
			l.lines, l.failed = nil, true
		}
	}
}
