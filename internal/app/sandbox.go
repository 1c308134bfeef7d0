package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
)

// SandboxError is a recording no store could take because every place
// refuses writes (a read-only file system, Codex's read-only sandbox): the
// command runs as without rac, and the message says how to allow writes,
// in the words of whoever reads it.
type SandboxError struct {
	Err *store.NoWritableError
	// AgentVar is the harness variable that says an agent runs the
	// command ("" for a person): only then is the cause a sandbox.
	AgentVar string
}

func (e *SandboxError) Error() string {
	paths := make([]string, len(e.Err.Places))
	for i, p := range e.Err.Places {
		paths[i] = p.Path
	}
	where := strings.Join(paths, ", ") + ": " + errText(e.Err.Errs[0])
	switch {
	case e.AgentVar == "":
		return fmt.Sprintf("no store can be written (%s); to record, make one writable or set RAC_HOME to a writable folder", where)
	case strings.HasPrefix(e.AgentVar, "CODEX_"):
		return fmt.Sprintf("the sandbox forbids writes to every store (%s); to record, allow writes (codex: -s workspace-write) or set RAC_HOME to a writable folder", where)
	}
	return fmt.Sprintf("the sandbox forbids writes to every store (%s); to record, allow writes in the agent's sandbox or set RAC_HOME to a writable folder", where)
}

func (e *SandboxError) Unwrap() error { return e.Err }

// errText is the reason of a file-system error without its path (the
// message names the paths once).
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return FirstLine(err)
}

// workdirOf is the working folder when store.workdir is on, else "".
func workdirOf(on bool) string {
	if !on {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
}

// openSessionInPlaces opens (creating) the session folder in the first
// store place that can be written, in store.Places' fixed order; workdir
// is the store.workdir setting. Only a place that cannot be written
// (EROFS, EACCES) passes on to the next: an unsafe store is an error, as
// is any other failure. When every place refuses writes the error is a
// SandboxError. The session's sequence counter is raised above what its
// folders in the other stores gave out, so a name never exists twice.
// note says when a fallback was made (for the user to read, once).
func (a *App) openSessionInPlaces(id session.Identity, workdir bool) (*store.Session, string, error) {
	loc := store.Locate(a.env.Getenv)
	if loc.Err != nil {
		return nil, "", loc.Err
	}
	places := store.Places(loc, workdirOf(workdir))
	nw := &store.NoWritableError{}
	for i, p := range places {
		_, statErr := os.Lstat(p.Path)
		sd, err := openSessionAtPlace(p, id)
		if err == nil {
			// a store that exists opens read-only too (a sandbox's
			// read-only mount): writable is known only by asking
			if err = sd.Writable(); err != nil {
				sd.Close()
				sd.Store.Close()
			}
		}
		if err != nil {
			if !store.IsUnwritable(err) {
				if i == 0 {
					return nil, "", err
				}
				return nil, "", fmt.Errorf("cannot write %s (%v); fallback %s: %w", places[0].Path, FirstLine(nw.Errs[0]), p.Path, err)
			}
			nw.Places, nw.Errs = append(nw.Places, p), append(nw.Errs, err)
			continue
		}
		if err := raiseSeq(sd, places, i); err != nil {
			sd.Close()
			sd.Store.Close()
			return nil, "", err
		}
		var note string
		if i > 0 && errors.Is(statErr, fs.ErrNotExist) {
			// said once, when the fallback is made
			note = fmt.Sprintf("cannot write %s (%v); recording in %s instead ('rac out' searches both)", places[0].Path, FirstLine(nw.Errs[0]), p.Path)
		}
		return sd, note, nil
	}
	return nil, "", &SandboxError{Err: nw, AgentVar: a.agentVar()}
}

// agentVar is the harness variable that says an agent runs this command,
// "" for none (or harness tables that do not parse: a person's words).
func (a *App) agentVar() string {
	ids, markers, err := a.harnessVars()
	if err != nil {
		return ""
	}
	_, v := session.AgentPresent(a.env.Getenv, ids, markers)
	return v
}

func openSessionAtPlace(p store.Place, id session.Identity) (*store.Session, error) {
	st, err := store.CreateAt(p)
	if err != nil {
		return nil, err
	}
	sd, err := st.Session(id.Name, true)
	if err == nil {
		err = sd.WriteInfo(id)
	}
	if err != nil {
		if sd != nil {
			sd.Close()
		}
		st.Close()
		return nil, err
	}
	return sd, nil
}

// raiseSeq raises sd's counter to the highest number the same session
// gave out in the other places (only those that exist are opened: on the
// usual path one Lstat each).
func raiseSeq(sd *store.Session, places []store.Place, self int) error {
	var floor int64
	for i, p := range places {
		if i == self {
			continue
		}
		st, err := store.OpenStore(p.Path)
		if err != nil {
			continue // missing, or refused: nothing rac could have numbered there
		}
		if other, err := st.Session(sd.Name, false); err == nil {
			if n, err := other.ReadSeq(); err == nil {
				floor = max(floor, n)
			}
			other.Close()
		}
		st.Close()
	}
	return sd.RaiseSeq(floor)
}

// sandboxed reports whether no store place can be written here, checked
// without writing (store.Writable): a "not found" is then the sandbox's
// doing, not the session's.
func (a *App) sandboxed(workdir bool) bool {
	loc := store.Locate(a.env.Getenv)
	if loc.Err != nil {
		return false
	}
	for _, p := range store.Places(loc, workdirOf(workdir)) {
		if err := store.Writable(p.Path); err == nil || !store.IsUnwritable(err) {
			return false
		}
	}
	return true
}
