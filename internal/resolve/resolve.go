// Package resolve turns a reference string into one recording, safely.
//
// A qualified reference SESSION/X resolves inside SESSION only; a short
// reference resolves inside the current session only. Nothing here ever
// falls back to another session, and every string that could name a path
// outside the store is refused before the disk is touched.
package resolve

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/session"
)

// Sentinel errors, mapped to exit statuses by the CLI.
var (
	ErrInvalid   = errors.New("invalid reference")
	ErrNotFound  = errors.New("not found")
	ErrAmbiguous = errors.New("ambiguous reference")
)

// MaxLen bounds a reference: longer input is refused unread.
const MaxLen = 128

// Ref is a parsed reference.
type Ref struct {
	Session string // "" for a short reference
	Short   string // number, name, name prefix or "last"
}

// String gives the reference back in its typed form.
func (r Ref) String() string {
	if r.Session == "" {
		return r.Short
	}
	return r.Session + "/" + r.Short
}

// Parse checks a reference without touching the disk.
func Parse(s string) (Ref, error) {
	bad := func(why string) (Ref, error) {
		return Ref{}, fmt.Errorf("%w %q: %s", ErrInvalid, quoteSafe(s), why)
	}
	if s == "" {
		return bad("empty")
	}
	if len(s) > MaxLen {
		return bad(fmt.Sprintf("longer than %d bytes", MaxLen))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '.', c == '_', c == '/':
		case c == '\\':
			return bad("backslashes are not allowed")
		case c < 0x20 || c == 0x7f:
			return bad("control bytes are not allowed")
		case c >= 'A' && c <= 'Z':
			return bad("references are lower case")
		default:
			// the whole character, not its first byte ("ｏ", not "ï")
			char := s[i : i+1] // a byte that starts no character: %q shows it as \xff
			if r, n := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || n > 1 {
				char = string(r)
			}
			return bad(fmt.Sprintf("%q is not allowed (use SESSION/NAME, a number, a name prefix or last)", char))
		}
	}
	if s[0] == '/' {
		return bad("absolute paths are not allowed")
	}
	parts := strings.Split(s, "/")
	if len(parts) > 2 {
		return bad("at most one '/' (SESSION/NAME)")
	}
	for _, p := range parts {
		if p == "" {
			return bad("empty part")
		}
		if p == "." || p == ".." || p[0] == '.' {
			return bad("'.' and '..' are not allowed")
		}
	}
	r := Ref{Short: parts[len(parts)-1]}
	if len(parts) == 2 {
		if !session.ValidName(parts[0]) {
			return bad("session names look like " + session.NameForm)
		}
		r.Session = parts[0]
	}
	return r, nil
}

// quoteSafe bounds a reference quoted in an error and keeps it valid
// UTF-8; control characters are escaped where the message is printed.
func quoteSafe(s string) string {
	if len(s) > MaxLen {
		s = s[:MaxLen] + "..."
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// InSession finds the recording a short form names among names (sorted by
// number): all digits is the number; "last" the highest number; otherwise
// the full name, or a unique prefix of a name or of the part of a name
// after its number ("git-p" for 0042-git-push).
func InSession(sessionName string, names []string, short string) (string, error) {
	notFound := func() (string, error) {
		return "", &NotFoundError{Session: sessionName, Ref: short, Reason: NoRecording}
	}
	if short == "last" {
		if len(names) == 0 {
			return "", &NotFoundError{Session: sessionName, Ref: short, Reason: EmptySession}
		}
		return names[len(names)-1], nil
	}
	if isDigits(short) {
		want, err := strconv.ParseInt(short, 10, 64)
		if err != nil {
			return notFound()
		}
		var same []string
		for _, n := range names {
			if seq, _ := record.ParseName(n); seq == want {
				same = append(same, n)
			}
		}
		switch len(same) {
		case 0:
			return notFound()
		case 1:
			return same[0], nil
		}
		// one number twice: two stores of the session raced for it
		return "", fmt.Errorf("%w %q in session %q: it matches %s", ErrAmbiguous, short, sessionName, strings.Join(same, ", "))
	}
	var cands []string
	for _, n := range names {
		if n == short {
			return n, nil
		}
		_, slug, _ := strings.Cut(n, "-")
		if strings.HasPrefix(n, short) || strings.HasPrefix(slug, short) {
			cands = append(cands, n)
		}
	}
	switch len(cands) {
	case 0:
		return notFound()
	case 1:
		return cands[0], nil
	}
	shown := cands
	if len(shown) > 8 {
		shown = append(shown[:8:8], fmt.Sprintf("and %d more", len(cands)-8))
	}
	return "", fmt.Errorf("%w %q in session %q: it matches %s", ErrAmbiguous, short, sessionName, strings.Join(shown, ", "))
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
