package resolve

import (
	"errors"
	"io/fs"

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
// (the store, then the fallback store) for the session, never for another
// session. A reference to a removed recording, or into a removed session,
// is an error wrapping ErrExpired.
func Find(stores []*store.Store, current, ref string) (*Target, error) {
	r, err := Parse(ref)
	if err != nil {
		return nil, err
	}
	sessName := r.Session
	if sessName == "" {
		sessName = current
	}
	st, sd, err := findSession(stores, sessName)
	if err != nil {
		if r.Session == "" && errors.Is(err, ErrNotFound) {
			return nil, &NotFoundError{Session: sessName, Ref: r.Short, Reason: EmptySession}
		}
		return nil, err
	}
	names, err := record.ListNames(sd)
	if err != nil {
		sd.Close()
		return nil, err
	}
	name, err := InSession(sessName, names, r.Short)
	if errors.Is(err, ErrNotFound) {
		if exp := expired(sd, r.Short); exp != nil {
			err = exp
		}
	}
	if err != nil {
		sd.Close()
		return nil, err
	}
	return &Target{Store: st, Dir: sd, Name: name}, nil
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
