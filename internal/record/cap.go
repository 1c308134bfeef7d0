package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/rac-cli/rac/internal/store"
)

// A capped recording keeps its first HeadBytes whole (over all streams
// together, in arrival order) and then a rolling tail in fixed-size
// segment files, dropping the oldest whole segment when the tail exceeds
// MaxBytes-HeadBytes: memory stays constant and no file is rewritten, so
// the end of a 5 GiB build log is always there. Every cut is recorded in
// cut.json (before the segment goes, so a killed recorder leaves a
// readable head + tail) and in the footer.

// CutFile holds the per-stream cut of a capped recording.
const CutFile = "cut.json"

const tailInfix = ".tail."

// StreamCut says where a stream was cut. Offsets are in the stream as
// received (after redaction): the bytes [HeadEnd, KeptFrom) are gone.
type StreamCut struct {
	HeadEnd      int64 `json:"head_end"`
	KeptFrom     int64 `json:"kept_from"`
	DroppedBytes int64 `json:"dropped_bytes"`
	DroppedLines int64 `json:"dropped_lines"` // newlines in the dropped bytes
	HeadLines    int64 `json:"head_newlines"` // newlines before HeadEnd
}

// LinesBefore is the number of newlines before KeptFrom: line numbers
// after the cut continue from there.
func (c StreamCut) LinesBefore() int64 { return c.HeadLines + c.DroppedLines }

type segment struct {
	sink  *StreamSink
	name  string
	start int64
	size  int64
	nl    int64
}

// capper is shared by the streams of one capped recording.
type capper struct {
	max, head, segSize int64

	mu        sync.Mutex
	headUsed  int64
	tailBytes int64
	closed    []*segment // full segments, oldest first
	cuts      map[string]*StreamCut
}

func newCapper(maxBytes, headBytes int64) *capper {
	if headBytes >= maxBytes {
		// a head as big as the cap would leave no tail, and the end of the
		// output is what matters most: keep a quarter for the head
		headBytes = maxBytes / 4
	}
	// Segments of an eighth of the tail: the open segments (one a stream)
	// fit in the budget beside the closed ones, so the cap holds, and a
	// rotation (a few file operations) comes rarely enough to cost nothing
	// next to the bytes.
	seg := (maxBytes - headBytes) / 8
	seg = max(1<<10, min(seg, 8<<20))
	return &capper{max: maxBytes, head: headBytes, segSize: seg, cuts: map[string]*StreamCut{}}
}

// takeHead reserves up to n bytes of the head budget.
func (c *capper) takeHead(n int64) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := min(n, c.head-c.headUsed)
	c.headUsed += room
	return room
}

// store writes p, which starts at stream offset off with nlBefore
// newlines before it and holds nl, into the head file and then into tail
// segments.
func (s *StreamSink) storeCapped(p []byte, off, nlBefore, nl int64) error {
	c := s.w.cap
	if !s.inTail {
		room := c.takeHead(int64(len(p)))
		if room < int64(len(p)) {
			// end the head on a line end when there is one near, so the
			// head is whole lines
			if nl := bytes.LastIndexByte(p[:room], '\n'); nl >= 0 && room-int64(nl) <= 64<<10 {
				room = int64(nl) + 1
			}
		}
		if room > 0 {
			if _, err := s.data.Write(p[:room]); err != nil {
				return err
			}
		}
		if room == int64(len(p)) {
			return nil
		}
		s.inTail = true
		headNL := nlBefore + int64(bytes.Count(p[:room], []byte{'\n'}))
		c.mu.Lock()
		c.cuts[s.stream] = &StreamCut{HeadEnd: off + room, KeptFrom: off + room, HeadLines: headNL}
		c.mu.Unlock()
		p, off = p[room:], off+room
		nl -= headNL - nlBefore
	}
	for len(p) > 0 {
		if s.seg == nil || s.segInfo.size >= c.segSize {
			if err := s.rotate(off); err != nil {
				return err
			}
		}
		n := min(int64(len(p)), c.segSize-s.segInfo.size)
		if _, err := s.seg.Write(p[:n]); err != nil {
			return err
		}
		s.segInfo.size += n
		if n == int64(len(p)) {
			s.segInfo.nl += nl // the rest of p: counted already
		} else {
			k := int64(bytes.Count(p[:n], []byte{'\n'}))
			s.segInfo.nl += k
			nl -= k
		}
		p, off = p[n:], off+n
		if err := c.grow(s.w, n); err != nil {
			return err
		}
	}
	return nil
}

// rotate closes the current segment (it becomes droppable) and opens the
// next one, named by the stream offset it starts at.
func (s *StreamSink) rotate(off int64) error {
	c := s.w.cap
	if s.seg != nil {
		if err := s.seg.Close(); err != nil {
			return err
		}
		s.seg = nil
		c.mu.Lock()
		c.closed = append(c.closed, s.segInfo)
		c.mu.Unlock()
	}
	name := fmt.Sprintf("%s%s%016x", s.stream, tailInfix, off)
	f, err := store.CreateExcl(s.w.dir, name)
	if err != nil {
		return err
	}
	s.seg = f
	s.segInfo = &segment{sink: s, name: name, start: off}
	return nil
}

// grow accounts n more tail bytes and drops the oldest full segments
// while the recording is over its cap.
func (c *capper) grow(w *Writer, n int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tailBytes += n
	var pruned []*StreamSink
	for c.tailBytes > c.tailBudget() && len(c.closed) > 0 {
		seg := c.closed[0]
		c.closed = c.closed[1:]
		cut := c.cuts[seg.sink.stream]
		cut.KeptFrom = seg.start + seg.size
		cut.DroppedBytes += seg.size
		cut.DroppedLines += seg.nl
		// the cut is on disk before the bytes go
		b, err := json.Marshal(c.cuts)
		if err != nil {
			return err
		}
		if err := store.WriteFileAtomic(w.dir, CutFile, b); err != nil {
			return err
		}
		if err := w.dir.Remove(seg.name); err != nil && !os.IsNotExist(err) {
			return err
		}
		c.tailBytes -= seg.size
		if !slices.Contains(pruned, seg.sink) {
			pruned = append(pruned, seg.sink)
		}
	}
	for _, s := range pruned {
		// a prune that fails (a full disk) leaves the old index, which
		// reads as well: the bytes matter, so the recording goes on
		_ = s.pruneLines(c.cuts[s.stream])
	}
	return nil
}

// cutsCopy returns the cuts that dropped bytes (nil when none did).
func (c *capper) cutsCopy() map[string]StreamCut {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out map[string]StreamCut
	for name, cut := range c.cuts {
		if cut.DroppedBytes > 0 {
			if out == nil {
				out = map[string]StreamCut{}
			}
			out[name] = *cut
		}
	}
	return out
}
