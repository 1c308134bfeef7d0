package search

import (
	"errors"
	"runtime"
	"sync"

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

// Result is one recording's search.
type Result struct {
	Job  Job
	Rec  *record.Recording // closed by now: its fields (Session, Name, Meta, Status) stay readable; nil when Open failed
	Hits []Hit
	// Err says why the recording could not be searched: it could not be
	// opened (Rec is nil), or a stream could not be read (Hits holds what
	// was found before). The walk goes on to the next recording; a caller
	// that wants to stop returns an error from its callback.
	Err error
}

// Walk searches the jobs' recordings on GOMAXPROCS workers and calls fn
// with each result in the jobs' order, as a sequential walk would. An
// error from fn stops the walk (the searches under way are abandoned) and
// is returned; ErrStop stops it with nil. Memory is bounded by the results
// in flight: a worker takes a job only while fewer than twice the number
// of workers are searched or waiting for their turn, however many jobs
// there are. Walk returns after every worker has finished.
func (s *Searcher) Walk(jobs []Job, fn func(Result) error) error {
	err := ordered(len(jobs), max(1, runtime.GOMAXPROCS(0)), func(i int, stop <-chan struct{}) Result {
		return s.job(jobs[i], stop)
	}, fn)
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}

func (s *Searcher) job(j Job, stop <-chan struct{}) Result {
	r := Result{Job: j}
	rec, err := record.Open(j.Session, j.Name)
	if err != nil {
		r.Err = err
		return r
	}
	defer rec.Close()
	r.Rec = rec
	r.Err = s.search(rec, stop, func(h Hit) error {
		r.Hits = append(r.Hits, h)
		return nil
	})
	return r
}

// ordered runs work(0..n-1) on workers goroutines and calls deliver with
// the results in index order. At most 2*workers results are in flight
// (taken by a worker and not yet delivered). When deliver fails, stop is
// closed, no more work starts, and ordered returns deliver's error once
// every worker is done.
func ordered[T any](n, workers int, work func(i int, stop <-chan struct{}) T, deliver func(T) error) error {
	window := 2 * workers
	slots := make([]chan T, n) // each delivered once, by the worker that did it
	for i := range slots {
		slots[i] = make(chan T, 1)
	}
	tokens := make(chan struct{}, window)
	stop := make(chan struct{})
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				slots[i] <- work(i, stop)
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range n {
			select {
			case tokens <- struct{}{}: // room in the window
			case <-stop:
				return
			}
			select {
			case next <- i:
			case <-stop:
				return
			}
		}
	}()
	var err error
	for i := range n {
		if err = deliver(<-slots[i]); err != nil {
			break
		}
		<-tokens // delivered: its room in the window is free
	}
	close(stop)
	wg.Wait()
	return err
}
