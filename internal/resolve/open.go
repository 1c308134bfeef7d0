package resolve

import (
	"errors"
	"fmt"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/session"
)

// Open resolves ref and opens the recording. current is the session of
// the shell asking; stores are searched in order (the store, then the
// fallback store) for the session, never for another session.
func Open(stores []*session.Store, current, ref string) (*record.Recording, error) {
	r, err := Parse(ref)
	if err != nil {
		return nil, err
	}
	sessName := r.Session
	if sessName == "" {
		sessName = current
	}
	sd, err := FindSession(stores, sessName)
	if err != nil {
		if r.Session == "" && errors.Is(err, ErrNotFound) {
			return nil, fmt.Errorf("%w: no recording %q in session %q (the session has no recordings yet)", ErrNotFound, r.Short, sessName)
		}
		return nil, err
	}
	defer sd.Close()
	names, err := record.ListNames(sd)
	if err != nil {
		return nil, err
	}
	name, err := InSession(sessName, names, r.Short)
	if err != nil {
		return nil, err
	}
	return record.Open(sd, name)
}

// FindSession opens a session's folder in the first store that has it.
func FindSession(stores []*session.Store, name string) (*session.SessionDir, error) {
	for _, st := range stores {
		sd, err := st.Session(name, false)
		if err == nil {
			return sd, nil
		}
		if !errors.Is(err, session.ErrNoSession) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%w: no session %q", ErrNotFound, name)
}
