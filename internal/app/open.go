package app

import (
	"errors"
	"sort"
	"strings"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/store"
)

// openStores opens the stores every reader searches: each store place
// (store.Places, workdir the store.workdir setting) that exists. A refused
// (unsafe) main store is an error; a refused fallback is a warning and
// skipped, so one bad folder in /tmp or a repository cannot hide the
// store.
func (a *App) openStores(workdir bool) (Stores, error) {
	loc := store.Locate(a.env.Getenv)
	if loc.Err != nil {
		return nil, Usage(loc.Err)
	}
	var stores Stores
	for i, p := range store.Places(loc, workdirOf(workdir)) {
		st, err := store.OpenStore(p.Path)
		switch {
		case err == nil:
			stores = append(stores, st)
		case errors.Is(err, store.ErrStoreMissing):
		case i == 0:
			stores.Close()
			return nil, err
		default:
			a.warnf("skipping the store %s: %s", p.Path, FirstLine(err))
		}
	}
	return stores, nil
}

// openRef resolves a reference against the current session in every
// store and opens the recording. When the current session has recorded
// nothing and no store can be written here, the error says the sandbox
// is why (resolve.Unwritable), not the session.
func (a *App) openRef(ref string, workdir bool) (*record.Recording, error) {
	id, err := a.Identify(false)
	if err != nil {
		return nil, err
	}
	stores, err := a.openStores(workdir)
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
	rec, err := resolve.Open(stores, id.Name, ref)
	var nf *resolve.NotFoundError
	if errors.As(err, &nf) && nf.Reason == resolve.EmptySession && a.sandboxed(workdir) {
		return nil, &resolve.NotFoundError{Session: nf.Session, Ref: nf.Ref, Reason: resolve.Unwritable}
	}
	return rec, a.redactExpired(err)
}

// eachRecordingIn opens the recordings of the sessions, each session's
// folders in every store together in sequence order, and calls fn with
// each; one that cannot be opened, or a name found in two stores, is a
// warning, not the end. A session folder that is refused is handled as
// sessionDirs says.
func (a *App) eachRecordingIn(stores Stores, sessions []string, fn func(*store.Session, *record.Recording) error) error {
	var refused []*FolderError
	opened := 0
	for _, sname := range sessions {
		dirs, bad := sessionFolders(stores, sname)
		refused = append(refused, bad...)
		opened += len(dirs)
		err := a.eachInSessions(dirs, fn)
		for _, d := range dirs {
			d.Close()
		}
		if err != nil {
			return err
		}
	}
	return a.refusedFolders(refused, opened)
}

func (a *App) eachInSessions(dirs []*store.Session, fn func(*store.Session, *record.Recording) error) error {
	type item struct {
		seq  int64
		name string
		dir  *store.Session
	}
	var items []item
	where := map[string][]string{}
	for _, d := range dirs {
		names, err := record.ListNames(d)
		if err != nil {
			return err
		}
		for _, n := range names {
			seq, _ := record.ParseName(n)
			items = append(items, item{seq, n, d})
			where[n] = append(where[n], d.Store.Path)
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].seq < items[j].seq })
	for _, it := range items {
		if ps := where[it.name]; len(ps) > 1 {
			if ps[0] == it.dir.Store.Path {
				a.warnf("%v", &resolve.DuplicateError{Session: it.dir.Name, Name: it.name, Stores: ps})
			}
			continue
		}
		rec, err := record.Open(it.dir, it.name)
		if err != nil {
			a.warnf("skipping %s/%s: %s", it.dir.Name, it.name, FirstLine(err))
			continue
		}
		err = fn(it.dir, rec)
		rec.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// sessionDirs opens every store's folder of each session, for a search
// across them (grep). A session with no folder has recorded nothing yet.
// A folder that is refused (a symlink out of the store, a file where the
// folder belongs) is a warning naming it, and the other folders are still
// searched; when every folder of the scope is refused, that is the error:
// nothing could be looked at, so "no match" or "no recordings" would be
// wrong.
func (a *App) sessionDirs(stores Stores, sessions []string) ([]*store.Session, error) {
	var dirs []*store.Session
	var refused []*FolderError
	for _, name := range sessions {
		ds, bad := sessionFolders(stores, name)
		dirs = append(dirs, ds...)
		refused = append(refused, bad...)
	}
	return dirs, a.refusedFolders(refused, len(dirs))
}

// sessionFolders opens a session's folder in every store that has one,
// in the stores' order, and says why each refused one was.
func sessionFolders(stores Stores, name string) (dirs []*store.Session, refused []*FolderError) {
	for _, st := range stores {
		sd, err := st.Session(name, false)
		switch {
		case err == nil:
			dirs = append(dirs, sd)
		case errors.Is(err, store.ErrNoSession):
		default:
			refused = append(refused, &FolderError{Session: name, Store: st.Path, Err: err})
		}
	}
	return dirs, refused
}

// refusedFolders warns of each refused session folder when opened others
// were read; when none was, the first is the error (the rest warnings).
func (a *App) refusedFolders(refused []*FolderError, opened int) error {
	if len(refused) == 0 {
		return nil
	}
	first := 0
	if opened == 0 {
		first = 1
	}
	for _, e := range refused[first:] {
		a.warnf("skipping session %s in %s: %s", e.Session, e.Store, FirstLine(e.Err))
	}
	if opened == 0 {
		return refused[0]
	}
	return nil
}

// FolderError is a session folder that list and grep could not read: it
// is not a plain folder of the store (a symlink out of it, a file), or
// could not be opened. It wraps the store's error (store.ErrUnsafeFile).
type FolderError struct {
	Session string
	Store   string // the store's path
	Err     error
}

func (e *FolderError) Error() string {
	return "session " + e.Session + " in " + e.Store + " cannot be read: " + e.Err.Error()
}

func (e *FolderError) Unwrap() error { return e.Err }
