// Package tomb owns the tombstones of removed recordings: one small file
// per session folder that says which recordings were removed, when, by
// whom and why, so a reference to one answers "expired" instead of "not
// found". Package gc writes it; package resolve only reads it.
//
// The file is never a recording: record.ListNames lists folders whose
// name starts with a number, and this is a file named tombstones.jsonl.
// It must never hold anything a recording's name would not: commands are
// redacted by the writer and cut to MaxCommand bytes.
package tomb

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/termtext"
)

// File is the tombstone file of a session folder: JSON lines, oldest first.
const File = store.TombFile

// TTL is how long a tombstone is kept: after it, a reference to the
// recording answers "not found" again (its number is still never reused).
const TTL = 30 * 24 * time.Hour

// MaxFile bounds what is read of a tombstone file: a longer one is not a
// file rac wrote (a session removes at most one recording per number).
const MaxFile = store.MaxTombFile

// MaxCommand bounds the command kept in a tombstone, in bytes.
const MaxCommand = 200

// Kinds of entries.
const (
	KindRecording = "recording" // one recording was removed
	KindSession   = "session"   // every recording of the session up to Seq was removed
)

// Who removed a recording.
const (
	ByGC   = "gc"
	ByUser = "user"
)

// Entry is one line of a tombstone file.
type Entry struct {
	Kind string `json:"kind"`
	// Name is the recording's name (recording entries removed by gc).
	// A removal by the user keeps only NameSHA256, the hex SHA-256 of the
	// name: a name holds argv's first plain word, which may be the very
	// secret the user removes, yet the full reference must still answer.
	Name       string `json:"name,omitempty"`
	NameSHA256 string `json:"name_sha256,omitempty"`
	// Seq is the recording's number; for a session entry the highest
	// number it removed: references up to it are expired.
	Seq int64 `json:"seq"`
	// Command is the recorded argv, redacted, shell-joined and cut to
	// MaxCommand bytes; empty for removals by the user (a secret in argv is
	// a reason to remove a recording).
	Command   string    `json:"command,omitempty"`
	RemovedAt time.Time `json:"removed_at"`
	By        string    `json:"by"`
	Reason    string    `json:"reason,omitempty"`
	// Bytes freed by the removal; Recordings removed (session entries).
	Bytes      int64 `json:"bytes"`
	Recordings int   `json:"recordings,omitempty"`
}

// Line encodes an entry as its line in the file, newline included.
func Line(e Entry) []byte {
	b, err := json.Marshal(e)
	if err != nil { // only plain strings, numbers and a time: cannot fail
		panic(err)
	}
	return append(b, '\n')
}

// Load reads the tombstones of a session folder (none when it has no
// file). Lines it does not understand are skipped: a newer rac may add
// kinds. Duplicates (a file written by an older rac after a killed pass)
// are dropped as Dedupe does.
func Load(r *os.Root) ([]Entry, error) {
	b, err := store.ReadSmallFile(r, File, MaxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return Dedupe(parse(b)), nil
}

func parse(b []byte) []Entry {
	var out []Entry
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		var e Entry
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		if e.Kind == KindRecording && (e.Name != "" || e.NameSHA256 != "") || e.Kind == KindSession {
			out = append(out, e)
		}
	}
	return out
}

// Oldest returns when the oldest tombstone of a session was made, from
// the first line only (Write keeps them oldest first): a pass checks it
// to know whether any is due to be dropped without reading them all.
func Oldest(r *os.Root) (time.Time, error) {
	f, err := store.OpenSafe(r, File)
	if err != nil {
		return time.Time{}, err
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 4096).ReadSlice('\n')
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: first line: %w", File, err)
	}
	var e Entry
	if err := json.Unmarshal(line, &e); err != nil {
		return time.Time{}, fmt.Errorf("%s: first line: %w", File, err)
	}
	return e.RemovedAt, nil
}

// Write replaces a session's tombstones atomically (readers see the old
// or the new file, never a part); no entries removes the file. Entries are
// de-duplicated first (Dedupe), so writing again what a killed pass
// already wrote changes nothing.
func Write(r *os.Root, entries []Entry) error {
	entries = Dedupe(entries)
	if len(entries) == 0 {
		err := r.Remove(File)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].RemovedAt.Before(entries[j].RemovedAt) })
	var buf bytes.Buffer
	for _, e := range entries {
		buf.Write(Line(e))
	}
	return store.WriteFileAtomic(r, File, buf.Bytes())
}

// Dedupe keeps one entry per recording (by its name's hash: an entry of
// gc keeps the name, one of the user only the hash) and one session entry
// per number, in the order given. A pass killed after it wrote the
// tombstones and before the recordings went writes them again; the first
// entry stays, since the recording was removed once. One exception: an
// entry by the user replaces one by gc, as the user's removal keeps no
// name or command and the name may be the secret removed. The result is
// a new slice; entries is left alone.
func Dedupe(entries []Entry) []Entry {
	out := make([]Entry, 0, len(entries))
	seen := make(map[string]int, len(entries))
	for _, e := range entries {
		var key string
		switch {
		case e.Kind == KindSession:
			key = "session " + strconv.FormatInt(e.Seq, 10)
		case e.Name != "":
			key = "recording " + NameHash(e.Name)
		case e.NameSHA256 != "":
			key = "recording " + e.NameSHA256
		default:
			out = append(out, e) // nothing names it: nothing to match
			continue
		}
		i, dup := seen[key]
		switch {
		case !dup:
			seen[key] = len(out)
			out = append(out, e)
		case e.By == ByUser && out[i].By != ByUser:
			out[i] = e
		}
	}
	return out
}

// Prune drops the entries removed more than ttl before now.
func Prune(entries []Entry, now time.Time, ttl time.Duration) []Entry {
	out := entries[:0:0]
	for _, e := range entries {
		if now.Sub(e.RemovedAt) <= ttl {
			out = append(out, e)
		}
	}
	return out
}

// NameHash is the NameSHA256 of a recording name.
func NameHash(name string) string {
	h := sha256.Sum256([]byte(name))
	return hex.EncodeToString(h[:])
}

// Command renders argv for a tombstone: redact (nil: none) applied to the
// shell-joined words, cut to MaxCommand bytes at a character boundary. A
// word with a blank, a quote or a backslash is shell-quoted, so that the
// line reads back as the same words: the redactor reads it with shell word
// splitting (--password 'two words' loses both).
func Command(argv []string, redact func(string) string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = a
		if strings.ContainsAny(a, " \t'\"\\") {
			words[i] = termtext.ShellQuote(a)
		}
	}
	s := strings.Join(words, " ")
	if redact != nil {
		s = redact(s)
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= MaxCommand {
		return s
	}
	cut := MaxCommand - len("...")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
