package gc

import (
	"github.com/rac-cli/rac/internal/store"
)

// TrimSession is the session size rule of a pass for one session alone:
// while the session is over o.MaxSessionBytes its oldest finished
// recordings, by number, are removed (with their tombstones), except
// keep, the recording whose end asked for the trim (it is new: its
// reference was just given out). Running recordings count toward the
// size and are never removed. A recorder calls it as its recording ends,
// so a session stays under its limit give or take the recordings running
// at the time, not only after the next full pass. The caller holds Lock.
func TrimSession(st *store.Store, sessName, keep string, o Options) (*Result, error) {
	o.MaxAge, o.MaxStoreBytes = 0, 0
	p := newPass(st, o)
	s := p.scanSession(sessName)
	p.res.Errors = append(p.res.Errors, s.errs...)
	if s.err != nil {
		return p.res, s.err
	}
	p.sessions = []*sessInfo{s}
	s.temps = nil // temporaries are the full pass's
	for _, r := range s.recs {
		if r.name == keep {
			r.running = true // never a victim: verify says "running"
		}
	}
	p.planTombs(s)
	p.planSessions()
	err := p.apply()
	p.finish()
	return p.res, err
}
