package app

import (
	"errors"
	"fmt"
	"os"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
)

// ErrRemovedWhileFollowed is what a follow ends with when the recording
// was removed under it (gc, rac out rm or purge, or by hand) rather than
// left by a recorder that died: the two read alike from inside the
// recording's folder (no footer, no lock), so the folder is looked up
// again by its reference.
var ErrRemovedWhileFollowed = errors.New("removed while it was followed")

// RemovedError says a followed recording was removed under the reader,
// with the tombstone's word (who removed it, when and why) when there
// is one.
type RemovedError struct {
	Ref     string
	Expired *resolve.ExpiredError // nil: removed without a tombstone
}

func (e *RemovedError) Error() string {
	if e.Expired != nil {
		return fmt.Sprintf("%s was removed while it was followed: %v", e.Ref, e.Expired)
	}
	return fmt.Sprintf("%s was removed while it was followed (its folder is gone)", e.Ref)
}

// Unwrap gives the tombstone's error, so its hint and exit status apply.
func (e *RemovedError) Unwrap() error {
	if e.Expired == nil {
		return nil
	}
	return e.Expired
}

// Is makes errors.Is(err, ErrRemovedWhileFollowed) hold.
func (e *RemovedError) Is(target error) bool { return target == ErrRemovedWhileFollowed }

// goneWhileFollowed reports whether a followed recording that ended
// without an outcome (or whose follow failed) was removed under the
// reader: its reference now names no folder, or another one. nil when it
// is still there: its recorder stopped.
func (a *App) goneWhileFollowed(rec *record.Recording) error {
	was, err := rec.DirStat()
	if err != nil {
		return nil
	}
	now, err := a.Open(rec.Ref())
	var exp *resolve.ExpiredError
	switch {
	case err == nil:
		fi, serr := now.DirStat()
		now.Close()
		if serr != nil || os.SameFile(was, fi) {
			return nil
		}
		return &RemovedError{Ref: rec.Ref()} // a new folder by its name
	case errors.As(err, &exp):
		return &RemovedError{Ref: rec.Ref(), Expired: exp}
	case errors.Is(err, resolve.ErrNotFound):
		return &RemovedError{Ref: rec.Ref()}
	}
	return nil
}
