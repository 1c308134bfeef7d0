package resolve

import (
	"errors"
	"io/fs"
	"sort"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
)

// Target is the recording folder a reference names, in the store that
// holds its session. The caller closes it.
type Target struct {
	Store *store.Store
	Dir   *store.Session
	Name  string
}

// Ref is the qualified reference SESSION/NAME of the target.
func (t *Target) Ref() string { return t.Dir.Name + "/" + t.Name }

// Close releases the session folder (the store stays the caller's).
func (t *Target) Close() error { return t.Dir.Close() }

// Find resolves ref to a recording folder without opening the recording.
// current is the session of the shell asking; stores are searched in order
// (the store, then the fallback stores) for the session, never for another
// session. A session may have folders in several stores (a sandbox made
// some recordings in a fallback): their recordings are resolved together,
// and a name found in two stores is a DuplicateError naming both. A
// reference to a removed recording, or into a removed session, is an
// error wrapping ErrExpired.
func Find(stores []*store.Store, current, ref string) (*Target, error) {
	r, err := Parse(ref)
	if err != nil {
		return nil, err
	}
	sessName := r.Session
	if sessName == "" {
		sessName = current
	}
	dirs, err := FindSessions(stores, sessName)
	if err != nil {
		if r.Session == "" && errors.Is(err, ErrNotFound) {
			return nil, &NotFoundError{Session: sessName, Ref: r.Short, Reason: EmptySession}
		}
		return nil, err
	}
	keep := -1
	defer func() {
		for i, d := range dirs {
			if i != keep {
				d.Close()
			}
		}
	}()
	names, where, err := mergedNames(dirs)
	if err != nil {
		return nil, err
	}
	name, err := InSession(sessName, names, r.Short)
	if errors.Is(err, ErrNotFound) {
		for _, d := range dirs {
			if exp := expired(d, r.Short); exp != nil {
				return nil, exp
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if ds := where[name]; len(ds) > 1 {
		dup := &DuplicateError{Session: sessName, Name: name}
		for _, i := range ds {
			dup.Stores = append(dup.Stores, dirs[i].Store.Path)
		}
		return nil, dup
	}
	keep = where[name][0]
	return &Target{Store: dirs[keep].Store, Dir: dirs[keep], Name: name}, nil
}

// mergedNames lists the recordings of a session's folders together, by
// number, and which folders (indexes into dirs) hold each name.
func mergedNames(dirs []*store.Session) ([]string, map[string][]int, error) {
	where := map[string][]int{}
	var names []string
	for i, d := range dirs {
		ns, err := record.ListNames(d)
		if err != nil {
			return nil, nil, err
		}
		for _, n := range ns {
			if len(where[n]) == 0 {
				names = append(names, n)
			}
			where[n] = append(where[n], i)
		}
	}
	if len(dirs) > 1 {
		sort.SliceStable(names, func(i, j int) bool {
			a, _ := record.ParseName(names[i])
			b, _ := record.ParseName(names[j])
			return a < b
		})
	}
	return names, where, nil
}

// Open resolves ref (as Find does) and opens the recording.
func Open(stores []*store.Store, current, ref string) (*record.Recording, error) {
	t, err := Find(stores, current, ref)
	if err != nil {
		return nil, err
	}
	defer t.Dir.Close()
	rec, err := record.Open(t.Dir, t.Name)
	if errors.Is(err, fs.ErrNotExist) {
		// removed between listing and opening: say so when it was GC
		if exp := expired(t.Dir, t.Name); exp != nil {
			return nil, exp
		}
		return nil, &NotFoundError{Session: t.Dir.Name, Ref: t.Name, Reason: Removed}
	}
	return rec, err
}

// FindSession opens a session's folder in the first store that has it.
func FindSession(stores []*store.Store, name string) (*store.Session, error) {
	_, sd, err := findSession(stores, name)
	return sd, err
}

// FindSessions opens the session's folder in every store that has one,
// in the stores' order; none is a NotFoundError (NoSession). The caller
// closes them.
func FindSessions(stores []*store.Store, name string) ([]*store.Session, error) {
	var dirs []*store.Session
	for _, st := range stores {
		sd, err := st.Session(name, false)
		if err == nil {
			dirs = append(dirs, sd)
			continue
		}
		if !errors.Is(err, store.ErrNoSession) {
			for _, d := range dirs {
				d.Close()
			}
			return nil, err
		}
	}
	if len(dirs) == 0 {
		return nil, &NotFoundError{Session: name, Reason: NoSession}
	}
	return dirs, nil
}

func findSession(stores []*store.Store, name string) (*store.Store, *store.Session, error) {
	for _, st := range stores {
		sd, err := st.Session(name, false)
		if err == nil {
			return st, sd, nil
		}
		if !errors.Is(err, store.ErrNoSession) {
			return nil, nil, err
		}
	}
	return nil, nil, &NotFoundError{Session: name, Reason: NoSession}
}
