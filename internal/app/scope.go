package app

import (
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

// eachRecording opens the recordings of the sessions, in every store,
// in sequence order (open.go).
func (a *App) eachRecording(stores Stores, sessions []string, fn func(*store.Session, *record.Recording) error) error {
	return a.eachRecordingIn(stores, sessions, fn)
}

// Open resolves a reference against the current session, in every
// store, and opens the recording (open.go).
func (a *App) Open(ref string) (*record.Recording, error) { return a.openRef(ref, a.set.StoreWorkdir) }
