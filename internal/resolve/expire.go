package resolve

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/store/tomb"
)

// ErrExpired is wrapped by the error for a reference to a recording that
// was removed (by gc or by the user), or into a session whose recordings
// were removed: the recording existed and will not come back.
var ErrExpired = errors.New("expired")

// ExpiredError says what expired, when, by whom and why.
type ExpiredError struct {
	Session string
	// Name is the recording's name when known: a tombstone of a removal
	// by the user keeps only its number and a hash of its name.
	Name    string
	Seq     int64  // the recording's number; 0 when only the session's removal is known
	Short   string // the reference as given, inside the session
	Command string // redacted command, when the tombstone kept it
	By      string // tomb.ByGC or tomb.ByUser
	Reason  string
	At      time.Time
}

func (e *ExpiredError) Error() string {
	what, removed := e.Name, "removed"
	switch {
	case e.Seq == 0:
		what, removed = e.Short, "session removed"
	case what == "":
		what = fmt.Sprintf("%04d", e.Seq)
	}
	s := fmt.Sprintf("recording %s/%s expired (%s by %s on %s", e.Session, what, removed, e.By, e.At.Local().Format("2006-01-02"))
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s + ")"
}

// Is makes errors.Is(err, ErrExpired) true.
func (e *ExpiredError) Is(target error) bool { return target == ErrExpired }

// expired looks a short reference up among the tombstones of a session:
// a removed recording by number, full name, unique prefix (of a name gc
// kept) or "last", or any reference into a session whose recordings were
// all removed (up to the number the session had reached then). nil means
// nothing says it expired.
func expired(sd *store.Session, short string) error {
	entries, err := tomb.Load(sd.Root())
	if err != nil || len(entries) == 0 {
		return nil // a damaged tombstone file only loses the nicer message
	}
	recs, sess := tombsOf(entries)
	found := func(e tomb.Entry, name string) error {
		return &ExpiredError{Session: sd.Name, Name: name, Seq: e.Seq, Short: short, Command: e.Command, By: e.By, Reason: e.Reason, At: e.RemovedAt}
	}
	if match, name := removedAs(recs, short); match != nil {
		return found(*match, name)
	}
	if !isDigits(short) && short != "last" {
		// a prefix, among the names gc kept
		name, e, err := removedByPrefix(sd.Name, recs, short)
		switch {
		case err == nil:
			return found(e, name)
		case errors.Is(err, ErrAmbiguous):
			return fmt.Errorf("%w; all of them expired", err)
		}
	}
	if sess == nil {
		return nil
	}
	// a number (or a full name) past the counter the session had reached
	// when it was removed belongs to a later recording, not to it
	if isDigits(short) {
		if n, err := strconv.ParseInt(short, 10, 64); err != nil || n > sess.Seq {
			return nil
		}
	} else if n, ok := record.ParseName(short); ok && n > sess.Seq {
		return nil
	}
	return &ExpiredError{Session: sd.Name, Short: short, By: sess.By, Reason: sess.Reason, At: sess.RemovedAt}
}

// tombsOf splits a session's tombstones: its removed recordings (by
// number) and the latest entry that removed the whole session (nil if
// none).
func tombsOf(entries []tomb.Entry) (recs []tomb.Entry, sess *tomb.Entry) {
	for i, e := range entries {
		switch e.Kind {
		case tomb.KindRecording:
			if e.Seq > 0 {
				recs = append(recs, e)
			}
		case tomb.KindSession:
			if sess == nil || e.Seq >= sess.Seq {
				sess = &entries[i]
			}
		}
	}
	return recs, sess
}

// removedAs finds the removed recording short names exactly: "last", a
// number or a full name; nil when none.
func removedAs(recs []tomb.Entry, short string) (match *tomb.Entry, name string) {
	// later entries win: a number is removed once, but be safe
	switch n, full := record.ParseName(short); {
	case short == "last":
		for i := range recs {
			if match == nil || recs[i].Seq >= match.Seq {
				match, name = &recs[i], recs[i].Name
			}
		}
	case isDigits(short):
		want, err := strconv.ParseInt(short, 10, 64)
		for i := range recs {
			if err == nil && recs[i].Seq == want {
				match, name = &recs[i], recs[i].Name
			}
		}
	case full:
		h := tomb.NameHash(short)
		for i := range recs {
			if recs[i].Seq == n && (recs[i].Name == short || recs[i].NameSHA256 == h) {
				match, name = &recs[i], short
			}
		}
	}
	return match, name
}

// removedByPrefix finds the removed recording whose name (one gc kept)
// short is a unique prefix of, as InSession does among the living.
func removedByPrefix(session string, recs []tomb.Entry, short string) (string, tomb.Entry, error) {
	byName := map[string]tomb.Entry{}
	for _, e := range recs {
		if _, ok := record.ParseName(e.Name); ok {
			byName[e.Name] = e
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return byName[names[i]].Seq < byName[names[j]].Seq })
	name, err := InSession(session, names, short)
	return name, byName[name], err
}
