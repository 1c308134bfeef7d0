package resolve

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/rac-cli/rac/internal/gc/tomb"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/session"
)

// ErrExpired is wrapped by the error for a reference to a recording that
// was removed (by gc or by the user), or into a session whose recordings
// were removed: the recording existed and will not come back.
var ErrExpired = errors.New("expired")

// ExpiredError says what expired, when, by whom and why.
type ExpiredError struct {
	Session string
	Name    string // the recording's name; "" when only the session's removal is known
	Short   string // the reference as given, inside the session
	Command string // redacted command, when the tombstone kept it
	By      string // tomb.ByGC or tomb.ByUser
	Reason  string
	At      time.Time
}

func (e *ExpiredError) Error() string {
	what, removed := e.Session+"/"+e.Name, "removed"
	if e.Name == "" {
		what, removed = e.Session+"/"+e.Short, "session removed"
	}
	s := fmt.Sprintf("recording %s expired (%s by %s on %s", what, removed, e.By, e.At.Local().Format("2006-01-02"))
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s + ")"
}

// Is makes errors.Is(err, ErrExpired) true.
func (e *ExpiredError) Is(target error) bool { return target == ErrExpired }

// expired looks a short reference up among the tombstones of a session:
// a recording removed by name, number or unique prefix, or any reference
// into a session whose recordings were all removed (up to the number the
// session had reached then). nil means nothing says it expired.
func expired(sd *session.SessionDir, short string) error {
	entries, err := tomb.Load(sd.Root)
	if err != nil || len(entries) == 0 {
		return nil // a damaged tombstone file only loses the nicer message
	}
	byName := map[string]tomb.Entry{}
	var sess *tomb.Entry
	for i, e := range entries {
		switch e.Kind {
		case tomb.KindRecording:
			if _, ok := record.ParseName(e.Name); ok {
				byName[e.Name] = e
			}
		case tomb.KindSession:
			if sess == nil || e.Seq >= sess.Seq {
				sess = &entries[i]
			}
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, _ := record.ParseName(names[i])
		b, _ := record.ParseName(names[j])
		return a < b
	})
	name, err := InSession(sd.Name, names, short)
	switch {
	case err == nil:
		e := byName[name]
		return &ExpiredError{Session: sd.Name, Name: name, Short: short, Command: e.Command, By: e.By, Reason: e.Reason, At: e.RemovedAt}
	case errors.Is(err, ErrAmbiguous):
		return fmt.Errorf("%w; all of them expired", err)
	case sess == nil:
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
