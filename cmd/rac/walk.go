package main

import (
	"fmt"
	"runtime"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
)

// sessionScope is which sessions list and grep look at: the current one,
// one named with --session, or all of them.
type sessionScope struct {
	name string // --session
	all  bool   // --all-sessions
}

// sessions resolves the scope. A session named with --session must exist;
// the current session may simply have recorded nothing yet.
func (a *app) sessions(stores []*store.Store, sc sessionScope) ([]string, error) {
	switch {
	case sc.all:
		return allSessions(stores)
	case sc.name != "":
		if !session.ValidName(sc.name) {
			return nil, usagef("invalid session name %q: names look like %s", sc.name, session.NameForm)
		}
		sd, err := resolve.FindSession(stores, sc.name)
		if err != nil {
			return nil, fmt.Errorf("%w (run 'rac out list --all-sessions' to see every session)", err)
		}
		sd.Close()
		return []string{sc.name}, nil
	}
	id, err := a.identify()
	if err != nil {
		return nil, err
	}
	return []string{id.Name}, nil
}

func allSessions(stores []*store.Store) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, st := range stores {
		names, err := st.Sessions()
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// eachRecording opens the recordings of the sessions in sequence order and
// calls fn with each; one that cannot be opened is a warning, not the end.
func (a *app) eachRecording(stores []*store.Store, sessions []string, fn func(*record.Recording) error) error {
	for _, sname := range sessions {
		sd, err := resolve.FindSession(stores, sname)
		if err != nil {
			continue // the current session has recorded nothing yet
		}
		err = func() error {
			defer sd.Close()
			names, err := record.ListNames(sd)
			if err != nil {
				return err
			}
			for _, n := range names {
				rec, err := record.Open(sd, n)
				if err != nil {
					fmt.Fprintf(a.streams.Err, "rac: warning: skipping %s/%s: %s\n", sname, n, escapeControl(firstLineOf(err)))
					continue
				}
				err = fn(rec)
				rec.Close()
				if err != nil {
					return err
				}
			}
			return nil
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

// grepJob is one recording's search, done by a worker, printed in order.
type grepJob struct {
	sd   *store.Session
	name string
	out  []byte
	hits int
	err  error
	done chan struct{}
}

// eachRecordingParallel runs fn over the recordings of the sessions on
// several goroutines (one per core) and hands their outputs to emit in
// sequence order, so the result is the same as a sequential walk.
func (a *app) eachRecordingParallel(stores []*store.Store, sessions []string, fn func(*record.Recording) ([]byte, int, error), emit func([]byte, int) error) error {
	var jobs []*grepJob
	var dirs []*store.Session
	defer func() {
		for _, d := range dirs {
			d.Close()
		}
	}()
	for _, sname := range sessions {
		sd, err := resolve.FindSession(stores, sname)
		if err != nil {
			continue // the current session has recorded nothing yet
		}
		dirs = append(dirs, sd)
		names, err := record.ListNames(sd)
		if err != nil {
			return err
		}
		for _, n := range names {
			jobs = append(jobs, &grepJob{sd: sd, name: n, done: make(chan struct{})})
		}
	}
	next := make(chan *grepJob)
	stop := make(chan struct{})
	defer close(stop)
	for range max(1, runtime.GOMAXPROCS(0)) {
		go func() {
			for j := range next {
				rec, err := record.Open(j.sd, j.name)
				if err != nil {
					j.out = fmt.Appendf(nil, "rac: warning: skipping %s/%s: %s\n", j.sd.Name, j.name, escapeControl(firstLineOf(err)))
					j.hits = -1 // a warning, for stderr
				} else {
					j.out, j.hits, j.err = fn(rec)
					rec.Close()
				}
				close(j.done)
			}
		}()
	}
	go func() {
		defer close(next)
		for _, j := range jobs {
			select {
			case next <- j:
			case <-stop:
				return
			}
		}
	}()
	for _, j := range jobs {
		<-j.done
		if j.err != nil {
			return j.err
		}
		if j.hits < 0 {
			fmt.Fprint(a.streams.Err, string(j.out))
			continue
		}
		if err := emit(j.out, j.hits); err != nil {
			return err
		}
		j.out = nil
	}
	return nil
}
