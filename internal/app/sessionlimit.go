package app

import (
	"time"

	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/store"
)

// trimBudget bounds the session trim at a recording's end, as autoBudget
// bounds automatic gc: a session too large to measure in it is left to
// the next full pass.
const trimBudget = 20 * time.Millisecond

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
	_, _ = gc.TrimSession(st, sess, keep, opts)
}
