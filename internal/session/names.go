package session

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidName is returned for a session name given by the user
// (--session, RAC_SESSION) that does not match the valid form.
var ErrInvalidName = errors.New("invalid session name")

// NameForm is the valid form of a session name, shown in errors.
const NameForm = "[a-z0-9][a-z0-9._-]{0,63}"

// maxName is the longest valid session name, in bytes.
const maxName = 64

// ValidName reports whether s can be used as a session directory name:
// lower case only (two names never share a directory on a case-insensitive
// disk), no path separators, at most 64 bytes.
func ValidName(s string) bool {
	if len(s) == 0 || len(s) > maxName {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// checkUserName validates a name the user typed; it is never changed.
func checkUserName(s, from string) error {
	if ValidName(s) {
		return nil
	}
	return fmt.Errorf("%w \"%s\" from %s: use lower-case letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64 bytes (%s)",
		ErrInvalidName, quoteShort(s, maxName+1), from, NameForm)
}

// DerivedName turns an untrusted id found in the environment into a session
// name "SOURCE-ID". A UUID is kept (lower-cased: UUIDs are case-insensitive,
// so the upper- and lower-case spelling of one id are one session); anything
// else becomes a slug of at most 40 bytes plus 16 hex digits of
// sha256(source, raw id), so two different raw ids never share a name. The
// slug is cut shorter where SOURCE is long, so the result always passes
// ValidName.
func DerivedName(source, raw string) string {
	label := safeLabel(source)
	if isUUID(raw) {
		return label + "-" + strings.ToLower(raw)
	}
	sum := sha256.Sum256([]byte(source + "\x00" + raw))
	suffix := hex.EncodeToString(sum[:8])
	// label "-" slug "-" suffix must fit in maxName.
	room := min(40, maxName-len(label)-2-len(suffix))
	var b strings.Builder
	for i := 0; i < len(raw) && b.Len() < room; i++ {
		c := raw[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
			b.WriteByte(c)
		}
	}
	slug := strings.Trim(b.String(), ".-_")
	if slug == "" {
		return label + "-" + suffix
	}
	return label + "-" + slug + "-" + suffix
}

// maxLabel is the longest source label; it keeps every derived name within
// maxName whatever the id.
const maxLabel = 16

// validLabel reports whether s is a usable source label: [a-z0-9][a-z0-9-]*,
// at most maxLabel bytes.
func validLabel(s string) bool {
	if len(s) == 0 || len(s) > maxLabel {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case i > 0 && c == '-':
		default:
			return false
		}
	}
	return true
}

// safeLabel returns s when it is a valid label, else a label made from it,
// so a label passed in Options by hand can never break a name.
func safeLabel(s string) string {
	if validLabel(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < maxLabel; i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
			b.WriteByte(c)
		}
	}
	if l := strings.Trim(b.String(), "-"); l != "" {
		return l
	}
	return "id"
}

// keyName is the name of a session keyed by facts rac read itself (a
// harness process, a pane, a process session): "PREFIX-" and 16 hex digits
// of a sha256 over the parts. The parts are length-prefixed, so two
// different keys never hash alike by a shifted boundary.
func keyName(prefix string, parts ...string) string {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	var sum [sha256.Size]byte
	return prefix + "-" + hex.EncodeToString(h.Sum(sum[:0])[:8])
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// CheckName validates a session name the user gave through from (a flag
// or a variable): the one message for an invalid name, wherever it is
// given.
func CheckName(s, from string) error { return checkUserName(s, from) }
