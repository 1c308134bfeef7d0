package record

import (
	"encoding/binary"
	"os"
	"syscall"

	"github.com/rac-cli/rac/internal/store"
)

// A capped recording's folder stays under its cap plus CappedOverhead
// (meta.json aside, which holds the command line) whatever the command
// writes, because each of its files is bounded:
//
//   - the kept bytes (head and tail segments) and the line indexes share
//     the cap: the line index of a capped stream is pruned with the tail
//     segments (entries inside dropped bytes go when they do), so it holds
//     about one entry per lineStride of the kept bytes, and that room
//     (linesRoom) is taken from the tail's budget;
//   - the chunk index stops at CappedChunkIndex (a chunk entry is per
//     switch between streams, not per write; past it readers give the
//     rest stream by stream, as past MaxChunkIndex);
//   - the footer (its reserve), cut.json, stopping and lock are small and
//     fixed.
//
// TestCappedFolderBound checks it for random and worst-case write patterns.

// CappedChunkIndex bounds the chunk index of a capped recording: 43,690
// switches between stdout and stderr keep their order.
const CappedChunkIndex = 1 << 20

// CappedOverhead is what a capped recording's folder holds beyond
// record.max_bytes at most, meta.json aside: the chunk index and 64 KiB
// for the footer's reserve (4 KiB), cut.json and the line indexes' fixed
// part.
const CappedOverhead = CappedChunkIndex + 64<<10

// chunkLimit is the size the chunk index stops at.
func (w *Writer) chunkLimit() int64 {
	if w.cap != nil {
		return CappedChunkIndex
	}
	return MaxChunkIndex
}

// linesRoom is the room the pruned line indexes of a capped recording
// take inside its cap: an entry per lineStride of the kept bytes, and per
// stream the entry at offset 0, the one at the head's end and the one a
// write notes before its bytes count, on both sides of the cut.
func linesRoom(maxBytes int64) int64 {
	const streams = 2 // stdout and stderr; combined is alone
	return lineEntry*(maxBytes/lineStride+3*2*streams) + streams*int64(len(linesMagic))
}

// tailBudget is the bytes the tail segments may hold: the cap less the
// head and the line indexes' room.
func (c *capper) tailBudget() int64 {
	return c.max - c.head - min(linesRoom(c.max), (c.max-c.head)/4)
}

// noteLine writes a line index entry (newlines nl before offset off) and
// remembers the first one past the head, which pruneLines may drop.
func (s *StreamSink) noteLine(nl, off int64) error {
	s.linesMu.Lock()
	defer s.linesMu.Unlock()
	var e [lineEntry]byte
	binary.LittleEndian.PutUint64(e[0:], uint64(nl))
	binary.LittleEndian.PutUint64(e[8:], uint64(off))
	if _, err := s.lines.Write(e[:]); err != nil {
		return err
	}
	if s.inTail && s.firstTailMark < 0 {
		s.firstTailMark = off
	}
	return nil
}

// pruneLines drops the line index entries inside the bytes cut dropped
// (after the head's end, before the kept tail), which no reader uses,
// by writing the rest anew and putting it in place atomically: a reader
// sees the old index or the new one, each valid. The sink writes on to
// the new file. Caller holds the capper's lock.
func (s *StreamSink) pruneLines(cut *StreamCut) error {
	s.linesMu.Lock()
	defer s.linesMu.Unlock()
	if s.lines == nil || s.firstTailMark < 0 || s.firstTailMark >= cut.KeptFrom {
		return nil // nothing of it in the dropped bytes
	}
	name := linesPfx + s.stream
	b, err := store.ReadSmallFile(s.w.dir, name, 1<<30)
	if err != nil {
		return err
	}
	if len(b) < len(linesMagic) {
		return nil
	}
	out := append([]byte(nil), b[:len(linesMagic)]...)
	s.firstTailMark = -1
	for e := b[len(linesMagic):]; len(e) >= lineEntry; e = e[lineEntry:] {
		off := int64(binary.LittleEndian.Uint64(e[8:]))
		if off > cut.HeadEnd && off < cut.KeptFrom {
			continue
		}
		if off > cut.HeadEnd && s.firstTailMark < 0 {
			s.firstTailMark = off
		}
		out = append(out, e[:lineEntry]...)
	}
	if err := store.WriteFileAtomic(s.w.dir, name, out); err != nil {
		return err
	}
	f, err := s.w.dir.OpenFile(name, os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	old := s.lines
	s.lines = f
	return old.Close()
}
