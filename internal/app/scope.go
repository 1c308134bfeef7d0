package app

import (
	"strings"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
)

// Scope is which sessions list and grep look at: the current one, one
// named with --session, or all of them.
type Scope struct {
	Session string // --session
	All     bool   // --all-sessions
}

// sessions resolves the scope. A session named with --session must exist;
// the current session may simply have recorded nothing yet.
func (a *App) sessions(stores Stores, sc Scope) ([]string, error) {
	switch {
	case sc.All:
		return allSessions(stores)
	case sc.Session != "":
		if err := session.CheckName(sc.Session, "--session"); err != nil {
			return nil, Usage(err)
		}
		sd, err := resolve.FindSession(stores, sc.Session)
		if err != nil {
			return nil, err
		}
		sd.Close()
		return []string{sc.Session}, nil
	}
	id, err := a.Identify(false)
	if err != nil {
		return nil, err
	}
	return []string{id.Name}, nil
}

func allSessions(stores Stores) ([]string, error) {
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
func (a *App) eachRecording(stores Stores, sessions []string, fn func(*record.Recording) error) error {
	for _, sname := range sessions {
		sd, err := resolve.FindSession(stores, sname)
		if err != nil {
			continue // the current session has recorded nothing yet
		}
		err = a.eachInSession(sd, fn)
		sd.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func (a *App) eachInSession(sd *store.Session, fn func(*record.Recording) error) error {
	names, err := record.ListNames(sd)
	if err != nil {
		return err
	}
	for _, n := range names {
		rec, err := record.Open(sd, n)
		if err != nil {
			a.warnf("skipping %s/%s: %s", sd.Name, n, FirstLine(err))
			continue
		}
		err = fn(rec)
		rec.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// Open resolves a reference against the current session and opens the
// recording.
func (a *App) Open(ref string) (*record.Recording, error) {
	id, err := a.Identify(false)
	if err != nil {
		return nil, err
	}
	stores, err := a.Stores()
	if err != nil {
		return nil, err
	}
	defer stores.Close()
	if a.set.Session != "" && !strings.Contains(ref, "/") {
		// a session the user named must exist: "not found" then says
		// so, not that the current session is empty
		sd, err := resolve.FindSession(stores, id.Name)
		if err != nil {
			return nil, err
		}
		sd.Close()
	}
	return resolve.Open(stores, id.Name, ref)
}
