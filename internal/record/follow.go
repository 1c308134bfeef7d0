package record

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"time"
)

// FollowOptions control Follow.
type FollowOptions struct {
	Stream string // "" for every stream
	// Wait blocks until the recording may have changed (or a bound passes).
	Wait func() error
}

// Follow yields lines as a running recording writes them, like tail -f,
// and returns when the footer is written or the recorder is found dead
// (Status then says which). Lines already written are yielded first.
func (r *Recording) Follow(o FollowOptions, fn func(Line) error) error {
	vs, closeAll, err := r.views()
	if err != nil {
		return err
	}
	defer func() { closeAll() }()
	// the chunk index appears with the first output (and is chunks.zst
	// once gc compressed the finished recording)
	var idx dataFile
	defer func() {
		if idx != nil {
			idx.Close()
		}
	}()
	f := &follower{
		r: r, stream: o.Stream, vs: vs, emit: fn,
		st: map[string]*lineState{}, covered: map[string]int64{}, buf: make([]byte, readBlock),
	}
	idxOff := int64(len(chunksMagic))
	entry := make([]byte, 64*chunkSize)
	for {
		if idx == nil {
			file, _, err := r.openData(ChunksFile)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			idx = file
		}
		if idx != nil {
			if idxOff, err = f.readIndex(idx, idxOff, entry); err != nil {
				return err
			}
		}
		if r.Status != StatusRunning {
			break
		}
		if err := o.Wait(); err != nil {
			return err
		}
		if err := r.Refresh(); err != nil {
			return err
		}
		// after the footer, one more pass picks up the last entries
	}
	for _, name := range r.Meta.Streams {
		if s := f.st[name]; s != nil {
			if err := s.flush(fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// follower turns the chunks of a followed recording, in the order the
// index lists them, into the lines of their streams.
type follower struct {
	r       *Recording
	stream  string                 // "" for every stream
	vs      map[string]*streamView // Follow closes them
	st      map[string]*lineState  // each stream's line so far
	covered map[string]int64       // each stream's bytes fed
	buf     []byte
	emit    func(Line) error
}

// readIndex feeds the chunks of the index entries written since off and
// returns the offset after the last whole entry. The entry before off is
// read again: the writer extends the last entry in place while its stream
// writes on (Writer.addChunk), so what it covers beyond what was fed is
// fed now.
func (f *follower) readIndex(idx io.ReaderAt, off int64, entry []byte) (int64, error) {
	if off-chunkSize >= int64(len(chunksMagic)) {
		off -= chunkSize
	}
	for {
		n, err := idx.ReadAt(entry, off)
		n -= n % chunkSize
		for i := 0; i < n; i += chunkSize {
			c := decodeChunk(entry[i : i+chunkSize])
			done := f.covered[c.Stream]
			if c.Stream == "" || c.Off > done || c.Off+c.Len <= done {
				continue
			}
			c.Len -= done - c.Off
			c.Off = done
			f.covered[c.Stream] += c.Len
			if err := f.feed(c); err != nil {
				return off, err
			}
		}
		off += int64(n)
		if n < len(entry) {
			if err != nil && err != io.EOF {
				return off, err
			}
			return off, nil
		}
	}
}

// feed reads a chunk's bytes into its stream's lines, seeing the
// stream's files again when it grew (or was cut) since they were opened.
func (f *follower) feed(c Chunk) error {
	if f.stream != "" && c.Stream != f.stream {
		return nil
	}
	v := f.vs[c.Stream]
	if v == nil {
		return nil
	}
	s := f.st[c.Stream]
	if s == nil {
		s = &lineState{stream: c.Stream, cut: v.cut, n: 1}
		f.st[c.Stream] = s
	}
	if c.Off+c.Len > v.Size() || (v.cut == nil && f.r.Meta.MaxBytes > 0) {
		// the stream grew (or a capped stream was cut) since it was
		// opened: see its files again
		nv, err := f.r.openView(c.Stream)
		if err != nil {
			return err
		}
		v.Close()
		f.vs[c.Stream], v = nv, nv
		s.cut = v.cut
	}
	return v.each(c.Off, c.Len, f.buf, func(b []byte, at int64) error { return s.feed(b, at, f.emit) })
}

// WaitFunc returns a wait for Follow: inotify on the recording folder
// where there is one, so a quiet recording costs nothing, with a bound so
// a recorder that died (which writes nothing) is noticed; elsewhere a
// bounded poll.
func (r *Recording) WaitFunc(bound time.Duration) (wait func() error, done func()) {
	if w, err := newDirWatch(r.dir); err == nil {
		return func() error { return w.wait(bound) }, w.close
	}
	return func() error { time.Sleep(min(bound, 200*time.Millisecond)); return nil }, func() {}
}

// dirFile opens the recording folder itself (for a watch on it).
func dirFile(r *os.Root) (*os.File, error) {
	f, err := r.Open(".")
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil || !fi.IsDir() {
		f.Close()
		return nil, fs.ErrInvalid
	}
	return f, nil
}
