package search

import (
	"errors"
	"runtime"
	"sync"
	"unsafe"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
)

// Job is one recording to search: a session folder and a recording name
// in it (record.ListNames order is sequence order).
type Job struct {
	Session *store.Session
	Name    string
}

// Jobs lists the recordings of the sessions, session by session, each in
// sequence order: the order of a sequential walk.
func Jobs(sessions []*store.Session) ([]Job, error) {
	var jobs []Job
	for _, sd := range sessions {
		names, err := record.ListNames(sd)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			jobs = append(jobs, Job{Session: sd, Name: n})
		}
	}
	return jobs, nil
}

// Result is one recording's search, or a part of it: Walk hands a
// recording with many hits over in parts, each with the next hits in
// order, so that memory stays bounded however many lines match.
type Result struct {
	Job  Job
	Rec  *record.Recording // its fields (Session, Name, Meta, Status) are readable; nil when Open failed
	Hits []Hit
	// More: further parts of the same recording follow; the last part of
	// a recording has More false (and may hold no hits).
	More bool
	// Err, on the last part, says why the recording could not be
	// searched: it could not be opened (Rec is nil), or a stream could not
	// be read (the parts before hold what was found). The walk goes on to
	// the next recording; a caller that wants to stop returns an error
	// from its callback.
	Err error
}

// The bounds of the hits Walk holds (their text and context lines, as
// hitBytes counts them). The recording being handed over is passed on in
// parts of at least partBytes, and its search waits while frontBytes are
// waiting for the caller; the recordings searched ahead of it wait while
// the hits held, its own included, come to aheadBytes. Measured: 185,794 hits of 8
// recordings held whole took grep to 66-84 MiB of peak RSS.
const (
	partBytes  = 128 << 10
	frontBytes = 512 << 10
	aheadBytes = 2 << 20
)

// Walk searches the jobs' recordings on GOMAXPROCS workers and calls fn
// with each result in the jobs' order, as a sequential walk would: the
// parts of one recording in a row, then the next recording's. An error
// from fn stops the walk (the searches under way are abandoned) and is
// returned; ErrStop stops it with nil. Memory is bounded: a worker takes a
// job only while fewer than twice the number of workers are searched or
// waiting for their turn, and the hits held are bounded by bytes (see
// aheadBytes), however many jobs and hits there are. Walk returns after
// every worker has finished.
func (s *Searcher) Walk(jobs []Job, fn func(Result) error) error {
	recs := make([]*record.Recording, len(jobs))
	errs := make([]error, len(jobs))
	err := streamOrdered(len(jobs), max(1, runtime.GOMAXPROCS(0)), hitBytes,
		func(i int, emit func(Hit) error, stop <-chan struct{}) {
			rec, err := record.Open(jobs[i].Session, jobs[i].Name)
			if err != nil {
				errs[i] = err
				return
			}
			defer rec.Close()
			recs[i] = rec
			errs[i] = s.search(rec, stop, emit)
		},
		func(i int, hits []Hit, last bool) error {
			r := Result{Job: jobs[i], Rec: recs[i], Hits: hits, More: !last}
			if last {
				r.Err = errs[i]
				if errors.Is(r.Err, errStopped) {
					r.Err = nil // never seen: the walk is over
				}
			}
			return fn(r)
		})
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}

// hitBytes is what a hit holds in memory, roughly: its texts, its spans
// and a fixed cost per line. The fixed cost of the hit is the Hit itself
// (128 bytes on 64-bit platforms, in the slice of a part) and what the
// allocator rounds its texts up to: with it counted too low (64), hits of
// short lines held twice the bytes the bounds say.
func hitBytes(h Hit) int {
	n := len(h.Text) + hitOverhead + 16*len(h.Matches)
	for _, l := range h.Before {
		n += len(l.Text) + lineOverhead
	}
	for _, l := range h.After {
		n += len(l.Text) + lineOverhead
	}
	return n
}

// The fixed costs hitBytes counts: a Hit and a Line, and the allocator's
// rounding of their texts and spans.
const (
	hitOverhead  = int(unsafe.Sizeof(Hit{})) + 32
	lineOverhead = int(unsafe.Sizeof(Line{})) + 16
)

// streamOrdered runs work(0..n-1) on workers goroutines; each emits its
// items in order, and deliver gets them in index order, in parts, last
// true on a job's final part (called once per job even when it emitted
// nothing). At most 2*workers jobs are in flight (taken by a worker and
// not yet wholly delivered). The items held are bounded by size: the job
// being delivered (the front) waits while frontBytes of its items are
// waiting; a job behind it waits while all the jobs together hold
// aheadBytes. The front never waits on the others, and they move to the
// front in turn, so the walk always progresses. When deliver fails, stop
// is closed, emit returns errStopped, no more work starts, and
// streamOrdered returns deliver's error once every worker is done. The
// writes a job makes before it emits, or before it returns, are seen by
// deliver's call for that job.
func streamOrdered[T any](n, workers int, size func(T) int, work func(i int, emit func(T) error, stop <-chan struct{}), deliver func(i int, items []T, last bool) error) error {
	w := &walker[T]{slots: make([]wslot[T], n), stop: make(chan struct{})}
	w.cond = sync.NewCond(&w.mu)
	tokens := make(chan struct{}, 2*workers)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				work(i, func(v T) error { return w.emit(i, v, size(v)) }, w.stop)
				w.finish(i)
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range n {
			select {
			case tokens <- struct{}{}: // room in the window
			case <-w.stop:
				return
			}
			select {
			case next <- i:
			case <-w.stop:
				return
			}
		}
	}()
	var err error
	for i := 0; i < n && err == nil; i++ {
		w.advance(i)
		for {
			items, last := w.take(i)
			if err = deliver(i, items, last); err != nil || last {
				break
			}
		}
		<-tokens // delivered: its room in the window is free
	}
	w.halt()
	wg.Wait()
	return err
}

// walker is streamOrdered's shared state, guarded by mu.
type walker[T any] struct {
	mu      sync.Mutex
	cond    *sync.Cond // broadcast on every change below
	slots   []wslot[T]
	front   int // the job being delivered
	held    int // bytes held by every job, the front's included
	stopped bool
	stop    chan struct{}
}

type wslot[T any] struct {
	items []T
	bytes int
	done  bool
}

func (w *walker[T]) emit(i int, v T, n int) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	sl := &w.slots[i]
	for !w.stopped {
		if i == w.front && sl.bytes < frontBytes || i != w.front && w.held < aheadBytes {
			break
		}
		w.cond.Wait()
	}
	if w.stopped {
		return errStopped
	}
	sl.items = append(sl.items, v)
	sl.bytes += n
	w.held += n
	if i == w.front && sl.bytes >= partBytes {
		// take waits for nothing else of an emit (the emits that wait
		// are woken by take): a broadcast for every hit woke the
		// printer millions of times for nothing with millions of hits
		w.cond.Broadcast()
	}
	return nil
}

func (w *walker[T]) finish(i int) {
	w.mu.Lock()
	w.slots[i].done = true
	w.cond.Broadcast()
	w.mu.Unlock()
}

// advance makes job i the front.
func (w *walker[T]) advance(i int) {
	w.mu.Lock()
	w.front = i
	w.cond.Broadcast()
	w.mu.Unlock()
}

// take waits for a part of the front job i: partBytes of items, or its
// end; last says the job is done and these are its final items.
func (w *walker[T]) take(i int) (items []T, last bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	sl := &w.slots[i]
	for !sl.done && sl.bytes < partBytes {
		w.cond.Wait()
	}
	items, last = sl.items, sl.done
	w.held -= sl.bytes
	sl.items, sl.bytes = nil, 0
	w.cond.Broadcast()
	return items, last
}

func (w *walker[T]) halt() {
	w.mu.Lock()
	if !w.stopped {
		w.stopped = true
		close(w.stop)
	}
	w.cond.Broadcast()
	w.mu.Unlock()
}
