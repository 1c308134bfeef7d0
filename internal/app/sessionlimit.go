package app

import (
	"time"

	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/store"
)

// The session trim at a recording's end is bounded by work, not time: a
// session of more than trimMaxEntries entries (recordings, about ten
// microseconds each to measure: some 20 ms on an idle machine) is left to
// the next full pass. A 20 ms deadline did that before, and on a loaded
// machine it cut short the trims of sessions of a dozen recordings, which
// then stayed over their limit until the next recording ended (make
// faults' TestSessionBurst caught it at a load of ten). trimBudget only
// guards against a file system that answers very slowly (a network one),
// where rac run's exit should not wait on it.
const (
	trimMaxEntries = 2000
	trimBudget     = time.Second
)

// limitSession holds a session to gc.max_session_bytes as each of its
// recordings ends (gc.TrimSession): the hourly pass alone let a burst of
// capped recordings take a session far over its limit. Its oldest
// finished recordings go, never the one that just ended (whose reference
// was just given out), so at any moment the session holds at most its
// limit plus what its running recordings hold and the one that ended
// last (each at most its cap). It waits for no lock: a gc, rm or purge
// running now is left to finish (a full pass applies the same rule),
// and it reports nothing (a removal leaves its tombstone).
func (a *App) limitSession(storePath, sess, keep string) {
	if a.set.GC.Off || a.set.GC.MaxSessionBytes <= 0 || storePath == "" {
		return
	}
	st, err := store.OpenStore(storePath)
	if err != nil {
		return
	}
	defer st.Close()
	l, err := gc.Lock(st, false)
	if err != nil {
		return
	}
	defer l.Close()
	opts := a.gcOptions()
	opts.MaxAge, opts.MaxStoreBytes = 0, 0
	opts.Deadline = time.Now().Add(trimBudget)
	opts.MaxEntries = trimMaxEntries
	_, _ = gc.TrimSession(st, sess, keep, opts)
}
