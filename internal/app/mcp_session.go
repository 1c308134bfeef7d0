package app

import (
	"sort"
	"time"

	"github.com/rac-cli/rac/internal/store"
)

// WithSession returns a copy of the App whose --session is name ("" for
// rac run's rules), with Warn and Note discarding: a long-lived front end
// (the MCP server) chooses the session per call and collects the notes
// of each call itself. The copy shares the redactor once it is built.
func (a *App) WithSession(name string) *App {
	b := *a
	b.set.Session = name
	b.Warn, b.Note = func(string) {}, func(string) {}
	return &b
}

// HarnessSession returns the session the harness process pid (started at
// start, 0 if unknown) last announced through its SessionStart hook, as
// the first store that has a note for it says.
func (a *App) HarnessSession(pid int, start uint64) (store.HarnessNote, bool, error) {
	stores, err := a.Stores()
	if err != nil {
		return store.HarnessNote{}, false, err
	}
	defer stores.Close()
	for _, st := range stores {
		n, ok, err := st.HarnessSession(pid, start)
		if err != nil || ok {
			return n, ok, err
		}
	}
	return store.HarnessNote{}, false, nil
}

// RecentSessions returns up to n session names of every store, the most
// recently changed first: the candidates a front end lists when it cannot
// tell which session is meant.
func (a *App) RecentSessions(n int) ([]string, error) {
	stores, err := a.Stores()
	if err != nil {
		return nil, err
	}
	defer stores.Close()
	type cand struct {
		name string
		at   time.Time
	}
	seen := map[string]bool{}
	var cs []cand
	for _, st := range stores {
		names, err := st.Sessions()
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			if seen[name] {
				continue
			}
			seen[name] = true
			c := cand{name: name}
			if fi, err := st.Root().Lstat(store.SessionsDir + "/" + name); err == nil {
				c.at = fi.ModTime()
			}
			cs = append(cs, c)
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].at.After(cs[j].at) })
	out := make([]string, 0, min(n, len(cs)))
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out, nil
}
