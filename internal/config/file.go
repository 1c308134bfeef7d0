package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"go.yaml.in/yaml/v3"
)

// MaxFileSize is the largest config file rac reads. A settings file is a
// few hundred bytes; a bound keeps a mistaken path from costing start-up.
const MaxFileSize = 1 << 20

// Path is the config file rac reads: $XDG_CONFIG_HOME/rac/config.yaml when
// XDG_CONFIG_HOME is absolute (the XDG spec ignores a relative one), else
// ~/.config/rac/config.yaml; "" when neither says where.
func Path(getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "rac", "config.yaml")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "rac", "config.yaml")
	}
	return ""
}

// readFile returns the config file's bytes, or nil when there is no file.
// The file can turn redaction off, so it is checked on the descriptor
// (no window between check and read): a regular file, the current user's,
// not writable by group or others. A symlink (from a dotfile manager) is
// fine when its target passes. O_NONBLOCK: opening a FIFO must not wait
// for a writer; it is refused once opened.
func readFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, fileError(path, "%s", causeOf(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fileError(path, "%s", causeOf(err))
	}
	if err := checkOwned(path, fi); err != nil {
		return nil, err
	}
	if fi.Size() > MaxFileSize {
		return nil, tooBig(path, fi.Size())
	}
	// The size can change after fstat: read at most one byte past the limit.
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fileError(path, "%s", causeOf(err))
	}
	if len(b) > MaxFileSize {
		return nil, tooBig(path, int64(len(b)))
	}
	return b, nil
}

func tooBig(path string, n int64) *Error {
	return fileError(path, "%d bytes is over the limit of %d bytes (1 MiB): a settings file is a few lines", n, MaxFileSize)
}

// causeOf drops the "open PATH: " of a *PathError: the message names the
// path already.
func causeOf(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func checkOwned(path string, fi fs.FileInfo) error {
	unsafe := func(format string, a ...any) error {
		e := fileError(path, format, a...)
		e.Unsafe = true
		return e
	}
	if !fi.Mode().IsRegular() {
		return unsafe("not a regular file (%s)", fileType(fi.Mode()))
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return unsafe("owned by uid %d, not by you (uid %d)", st.Uid, os.Geteuid())
	}
	perm := fi.Mode().Perm()
	if perm&0o002 != 0 {
		return unsafe("writable by others (mode %04o); fix it with: chmod go-w %s", perm, path)
	}
	if perm&0o020 != 0 {
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return unsafe("writable by its group (mode %04o); fix it with: chmod g-w %s", perm, path)
		}
		switch private, known := privateGroup(st.Gid, st.Uid, groupFile, passwdFile); {
		case !known:
			return unsafe("writable by its group (gid %d), which rac cannot tell is yours alone (mode %04o); fix it with: chmod g-w %s", st.Gid, perm, path)
		case !private:
			return unsafe("writable by its group (gid %d), which is not your private group (mode %04o); fix it with: chmod g-w %s", st.Gid, perm, path)
		}
		// a user's private group (umask 002, Debian's and Ubuntu's
		// default): only its owner can write
	}
	return nil
}

func fileType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// fileKeys is what the YAML tree of the config file says about its keys.
type fileKeys struct {
	path  string
	set   []bool          // by table index: the file gives the setting a value
	where map[int]spelled // by table index: how and where it was written
	warn  []Warning
}

type spelled struct {
	text string // run.announce, or "run: announce" when nested
	line int
}

// checkTree walks the config file's YAML tree, which viper would flatten
// without a word: one key given twice in any spelling (Run: and run:, or
// run.announce: at the top and run: announce:) is an error naming both,
// a value of the wrong shape (a mapping where a duration belongs) is an
// error naming the key, and a key rac does not know is a warning.
func checkTree(b []byte, path string) (*fileKeys, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, &Error{Path: path, Err: err} // "yaml: line 1: ..." says what it is
	}
	fk := &fileKeys{path: path, set: make([]bool, len(table))}
	if len(doc.Content) == 0 {
		return fk, nil // empty, or comments only
	}
	root := deref(doc.Content[0])
	switch {
	case isNull(root):
		return fk, nil
	case root.Kind != yaml.MappingNode:
		return nil, fileError(path, "use a mapping of sections (run:, redact:, ...), not a %s", kindName(root))
	}
	if err := fk.walk(root, "", ""); err != nil {
		return nil, err
	}
	slices.SortFunc(fk.warn, func(a, b Warning) int { return strings.Compare(a.Key, b.Key) })
	return fk, nil
}

// walk checks one mapping whose keys start with prefix (lower case; as
// written: spelledPrefix).
func (fk *fileKeys) walk(m *yaml.Node, prefix, spelledPrefix string) error {
	seen := map[string]spelled{} // at this level, lower case key -> first spelling
	for pair := range pairs(m) {
		k, val := pair[0], deref(pair[1])
		if k.Kind != yaml.ScalarNode {
			return fileError(fk.path, "line %d: use a name as a key, not a %s", k.Line, kindName(k))
		}
		name := strings.ToLower(k.Value)
		full, sp := name, k.Value
		if prefix != "" {
			full, sp = prefix+"."+name, spelledPrefix+": "+k.Value
		}
		here := spelled{text: sp, line: k.Line}
		if first, dup := seen[name]; dup {
			return twice(fk.path, full, first, here)
		}
		seen[name] = here
		i := lookup(full)
		switch {
		case i >= 0:
			if isNull(val) {
				continue // a key with no value is not set
			}
			if err := fk.leaf(i, val); err != nil {
				return err
			}
			if first, dup := fk.where[i]; dup {
				return twice(fk.path, full, first, here)
			}
			if fk.where == nil {
				fk.where = map[int]spelled{}
			}
			fk.where[i] = here
			fk.set[i] = true
		case val.Kind == yaml.MappingNode:
			if err := fk.walk(val, full, sp); err != nil {
				return err
			}
		case isSection(full):
			// viper would hide every default of the section behind it
			if !isNull(val) {
				return &Error{Name: full, Path: fk.path, Hint: "use a mapping of settings (keys indented under " + k.Value + ":)"}
			}
		default:
			fk.warn = append(fk.warn, Warning{Key: full, Path: fk.path})
		}
	}
	return nil
}

func twice(path, key string, a, b spelled) error {
	return fileError(path, "%s is set twice (%q on line %d and %q on line %d)", key, a.text, a.line, b.text, b.line)
}

// leaf checks the shape of the value of setting i.
func (fk *fileKeys) leaf(i int, val *yaml.Node) error {
	d := &table[i]
	bad := func(hint string) error { return &Error{Name: d.Key, Path: fk.path, Hint: hint} }
	switch d.Kind {
	case List:
		if val.Kind == yaml.ScalarNode {
			return nil // one entry
		}
		if val.Kind != yaml.SequenceNode {
			return bad(hintList)
		}
		for _, e := range val.Content {
			if e = deref(e); e.Kind != yaml.ScalarNode || isNull(e) {
				return bad(hintList)
			}
		}
	case Rules:
		if val.Kind != yaml.SequenceNode {
			return bad(hintRules)
		}
		for n, e := range val.Content {
			if err := fk.rule(d.Key, n, deref(e)); err != nil {
				return err
			}
		}
	default:
		if val.Kind != yaml.ScalarNode {
			return bad("use one value, not a " + kindName(val))
		}
	}
	return nil
}

const hintRules = "use a list of {name, prefix, pattern}"

// rule checks one entry of redact.rules: a mapping of name, prefix and
// pattern (case-insensitive, each once), all text.
func (fk *fileKeys) rule(key string, n int, e *yaml.Node) error {
	name := fmt.Sprintf("%s[%d]", key, n)
	if e.Kind != yaml.MappingNode {
		return &Error{Name: name, Path: fk.path, Hint: hintRules}
	}
	seen := map[string]spelled{}
	for pair := range pairs(e) {
		k, v := pair[0], deref(pair[1])
		f := strings.ToLower(k.Value)
		switch f {
		case "name", "prefix", "pattern":
		default:
			return &Error{Name: name, Path: fk.path, Hint: fmt.Sprintf("unknown field %q: use name, prefix and pattern", k.Value)}
		}
		here := spelled{text: k.Value, line: k.Line}
		if first, dup := seen[f]; dup {
			return twice(fk.path, name+"."+f, first, here)
		}
		seen[f] = here
		if v.Kind != yaml.ScalarNode || isNull(v) {
			return &Error{Name: name + "." + f, Path: fk.path, Hint: "use a string"}
		}
	}
	return nil
}

// pairs yields the key and value nodes of a mapping; a merge key (<<:
// *base) yields the pairs of the mappings it merges, so that what they set
// counts as set here.
func pairs(m *yaml.Node) func(yield func([2]*yaml.Node) bool) {
	return func(yield func([2]*yaml.Node) bool) {
		var each func(m *yaml.Node) bool
		each = func(m *yaml.Node) bool {
			for i := 0; i+1 < len(m.Content); i += 2 {
				k, v := m.Content[i], m.Content[i+1]
				if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
					for _, src := range mergeSources(deref(v)) {
						if !each(src) {
							return false
						}
					}
					continue
				}
				if !yield([2]*yaml.Node{k, v}) {
					return false
				}
			}
			return true
		}
		each(m)
	}
}

func mergeSources(v *yaml.Node) []*yaml.Node {
	switch v.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{v}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, e := range v.Content {
			if e = deref(e); e.Kind == yaml.MappingNode {
				out = append(out, e)
			}
		}
		return out
	}
	return nil
}

// deref follows an alias (*name) to its anchored node.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "single value"
	}
	return "YAML node"
}
