package store

import (
	"errors"
	"fmt"
	"io/fs"
)

// RaiseSeq makes the session's counter at least floor, under the session
// lock, so the next number it gives out is above every number the same
// session has given out in another store: a name never exists in two
// stores. It never lowers the counter.
func (d *Session) RaiseSeq(floor int64) error {
	if floor <= 0 {
		return nil
	}
	if floor > MaxSeq {
		return fmt.Errorf("%w: session %s", ErrSeqExhausted, d.Name)
	}
	l, err := LockFile(d.root, SessionLockFile, true)
	if err != nil {
		return err
	}
	defer l.Close()
	cur, err := d.ReadSeq()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if cur >= floor {
		return nil
	}
	// the width NextSeq writes, so its in-place update fits
	return WriteFileAtomic(d.root, SeqFile, fmt.Appendf(nil, "%020d\n", floor))
}
