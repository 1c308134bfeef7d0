package resolve

import (
	"errors"
	"fmt"
	"strings"
)

// NotFoundReason says which part of a reference was not found, so a front
// end can choose its advice without reading the message.
type NotFoundReason int

const (
	// NoRecording: the session exists but has no such recording.
	NoRecording NotFoundReason = iota
	// NoSession: a session named in the reference (or with --session)
	// does not exist in any store.
	NoSession
	// EmptySession: a short reference into the current session, which
	// has recorded nothing yet (often: this shell is in another session
	// than the one that ran the command).
	EmptySession
	// Removed: the recording went between listing and opening.
	Removed
	// Unwritable: the current session has recorded nothing, and no store
	// can be written here (a read-only sandbox): nothing was recorded, the
	// session is not to blame.
	Unwritable
)

// NotFoundError is a reference or session that names nothing. It matches
// ErrNotFound with errors.Is.
type NotFoundError struct {
	Session string
	Ref     string // the short form asked for; "" for a session alone
	Reason  NotFoundReason
}

func (e *NotFoundError) Error() string {
	switch e.Reason {
	case NoSession:
		return fmt.Sprintf("%v: no session %q", ErrNotFound, e.Session)
	case EmptySession:
		if e.Ref == "last" {
			return fmt.Sprintf("%v: session %q has no recordings", ErrNotFound, e.Session)
		}
		return fmt.Sprintf("%v: no recording %q in session %q (the session has no recordings yet)", ErrNotFound, e.Ref, e.Session)
	case Unwritable:
		return fmt.Sprintf("%v: session %q has no recordings: nothing can be recorded here, no store can be written (a read-only file system or an agent's sandbox)", ErrNotFound, e.Session)
	case Removed:
		return fmt.Sprintf("%v: recording %s/%s was removed while it was being opened", ErrNotFound, e.Session, e.Ref)
	}
	return fmt.Sprintf("%v: no recording %q in session %q", ErrNotFound, e.Ref, e.Session)
}

// Is makes errors.Is(err, ErrNotFound) hold.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// ErrDuplicate is a recording name found in two stores.
var ErrDuplicate = errors.New("recording in two stores")

// DuplicateError is a recording name that exists in more than one store
// (sequence numbers are allocated so it cannot happen; a copied or
// restored store can make it). Neither is picked: the error lists both.
type DuplicateError struct {
	Session, Name string
	Stores        []string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%v: %s/%s is in %d stores: %s; remove one copy", ErrDuplicate, e.Session, e.Name, len(e.Stores), strings.Join(e.Stores, " and "))
}

// Is makes errors.Is(err, ErrDuplicate) hold.
func (e *DuplicateError) Is(target error) bool { return target == ErrDuplicate }
