package main

import (
	"fmt"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
)

// sessionScope is which sessions list and grep look at: the current one,
// one named with --session, or all of them.
type sessionScope struct {
	name string // --session
	all  bool   // --all-sessions
}

// sessions resolves the scope. A session named with --session must exist;
// the current session may simply have recorded nothing yet.
func (a *app) sessions(stores []*session.Store, sc sessionScope) ([]string, error) {
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

func allSessions(stores []*session.Store) ([]string, error) {
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
func (a *app) eachRecording(stores []*session.Store, sessions []string, fn func(*record.Recording) error) error {
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
