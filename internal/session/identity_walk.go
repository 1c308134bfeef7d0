package session

import (
	"fmt"
	"math"
)

// maxAncestors bounds the walk up the process tree; real chains are a
// handful deep, and a fake or corrupt table cannot loop for ever.
const maxAncestors = 64

// far is the injection depth of a variable found in every ancestor rac
// could read: it was not injected anywhere below the top of what rac sees.
const far = math.MaxInt32

// walker reads rac's ancestors lazily, one at a time, and only as far as a
// question needs: most runs read none.
type walker struct {
	p       Proc
	self    ProcStat
	selfOK  bool
	selfErr error
	chain   []link // chain[k-1] is the ancestor k levels up
	done    bool   // no ancestor beyond the end of chain
}

type link struct {
	st      ProcStat
	env     []byte
	envErr  error
	envRead bool
}

func newWalker(p Proc) *walker {
	w := &walker{p: p}
	w.self, w.selfErr = p.Stat(p.Self())
	w.selfOK = w.selfErr == nil
	if !w.selfOK {
		w.done = true
	}
	return w
}

// ancestor returns the process k levels up (1 is the parent), or false past
// the top of what can be read.
func (w *walker) ancestor(k int) (ProcStat, bool) {
	for len(w.chain) < k && !w.done {
		ppid := w.self.PPID
		if n := len(w.chain); n > 0 {
			ppid = w.chain[n-1].st.PPID
		}
		if ppid <= 0 || len(w.chain) >= maxAncestors {
			w.done = true
			break
		}
		st, err := w.p.Stat(ppid)
		if err != nil {
			w.done = true
			break
		}
		w.chain = append(w.chain, link{st: st})
	}
	if k < 1 || k > len(w.chain) {
		return ProcStat{}, false
	}
	return w.chain[k-1].st, true
}

// environ is the exec-time environment of the ancestor k levels up.
func (w *walker) environ(k int) ([]byte, error) {
	l := &w.chain[k-1]
	if !l.envRead {
		l.env, l.envErr = w.p.Environ(l.st.PID)
		l.envRead = true
	}
	return l.env, l.envErr
}

// injectedAt is how many levels up name=value was injected: the depth of
// the nearest ancestor whose exec-time environment lacks it (or cannot be
// read, which counts as a boundary). It is far when every readable
// ancestor has it, and far for everything when there is no process table,
// so comparisons fall back to table order.
func (w *walker) injectedAt(name, value string) int {
	for k := 1; ; k++ {
		if _, ok := w.ancestor(k); !ok {
			return far
		}
		env, err := w.environ(k)
		if err != nil || !envHas(env, name, value) {
			return k
		}
	}
}

// unreadable reports whether the boundary at depth is an ancestor whose
// environment rac could not read: there, "injected here" only means "first
// seen here", and a tie says nothing about which variable came first.
func (w *walker) unreadable(depth int) bool {
	if depth < 1 || depth > len(w.chain) {
		return false
	}
	_, err := w.environ(depth)
	return err != nil
}

// where describes an injection depth for the explain output.
func (w *walker) where(depth int) string {
	switch {
	case !w.selfOK:
		return "injection point unknown: no process table"
	case depth == far:
		return "inherited from above every ancestor rac can read"
	}
	st, _ := w.ancestor(depth)
	how := "started without it"
	if _, err := w.environ(depth); err != nil {
		how = "environment unreadable: a boundary"
	}
	return fmt.Sprintf("injected by pid %d, %d %s up (%s)", st.PID, depth, plural(depth, "level", "levels"), how)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
