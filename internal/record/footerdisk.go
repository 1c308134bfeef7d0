package record

import "math"

// FooterDisk finds the "disk" member of a footer's top-level object
// without decoding the rest (a pass may read 100,000 footers: a scan of
// their bytes costs a sixth of what encoding/json does). It is strict
// where that is cheap: any key at the top level or in "disk" other than
// plain lower-case ASCII, a "disk" or a member of it given twice, a number
// that is not a non-negative integer or a time that is not RFC 3339 (as
// encoding/json reads one) makes it give up, and the folder is measured
// file by file. What it does return for a footer encoding/json accepts is
// what encoding/json reads there. It is the read half of the footer's
// codec (encodeFooter writes it; gc reads every finished recording's
// summary through it).
func FooterDisk(b []byte) (d Disk, ok bool) {
	s := jscan{b: b}
	s.ws()
	found := false
	if !s.object(func(key []byte) bool {
		if string(key) != "disk" {
			return s.skip()
		}
		if found {
			return false
		}
		d, found = s.disk()
		return found
	}) {
		return d, false
	}
	s.ws()
	return d, found && s.i == len(s.b)
}

// disk reads the "disk" object: bytes, newest and inode, each once, and
// allocated at most once (-1 without it); members added later are skipped.
func (s *jscan) disk() (d Disk, ok bool) {
	var seen [4]bool
	d.Allocated = -1
	if !s.object(func(key []byte) bool {
		var i int
		ok := false
		switch string(key) {
		case "bytes":
			var v uint64
			v, ok = s.uint()
			i, d.Bytes, ok = 0, int64(v), ok && v <= math.MaxInt64
		case "newest":
			// the very parser encoding/json uses for a time.Time
			start := s.i
			_, ok = s.str()
			i, ok = 1, ok && d.Newest.UnmarshalJSON(s.b[start:s.i]) == nil
		case "inode":
			i = 2
			d.Inode, ok = s.uint()
		case "allocated":
			var v uint64
			v, ok = s.uint()
			i, d.Allocated, ok = 3, int64(v), ok && v <= math.MaxInt64
		default:
			return s.skip()
		}
		if !ok || seen[i] {
			return false
		}
		seen[i] = true
		return true
	}) {
		return d, false
	}
	return d, seen[0] && seen[1] && seen[2]
}

// object walks an object, calling member with each key and the scanner
// at its value, which member reads; false from member stops the walk.
func (s *jscan) object(member func(key []byte) bool) bool {
	if !s.eat('{') {
		return false
	}
	for first := true; ; first = false {
		s.ws()
		if s.eat('}') {
			return true
		}
		if !first && !s.eat(',') {
			return false
		}
		s.ws()
		key, ok := s.key()
		if !ok {
			return false
		}
		s.ws()
		if !member(key) {
			return false
		}
	}
}

// jscan walks JSON bytes.
type jscan struct {
	b []byte
	i int
}

func (s *jscan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *jscan) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// key reads a member name and its colon; only [a-z_] names are taken
// (encoding/json would also match "Disk" or an escaped "disk" to the
// field, which rac never writes).
func (s *jscan) key() ([]byte, bool) {
	k, ok := s.str()
	if !ok || len(k) == 0 {
		return nil, false
	}
	for _, c := range k {
		if (c < 'a' || c > 'z') && c != '_' {
			return nil, false
		}
	}
	s.ws()
	return k, s.eat(':')
}

// str reads a string and returns its bytes between the quotes, escapes
// left as they are.
func (s *jscan) str() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '\\':
			s.i++
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// uint reads a JSON integer without a sign (no leading zero, fraction or
// exponent) that fits 64 bits.
func (s *jscan) uint() (uint64, bool) {
	start := s.i
	var v uint64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		d := uint64(s.b[s.i] - '0')
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
		s.i++
	}
	switch {
	case s.i == start, s.b[start] == '0' && s.i-start > 1:
		return 0, false
	case s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E'):
		return 0, false
	}
	return v, true
}

// skip passes over one value: a string, an object or array (strings in it
// skipped as strings, so their brackets do not count), or a number or
// literal. It checks structure only as far as finding the value's end.
func (s *jscan) skip() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		_, ok := s.str()
		return ok
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if _, ok := s.str(); !ok {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					s.i++
					return true
				}
			}
			s.i++
		}
		return false
	}
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return s.i > start
		}
		s.i++
	}
	return false
}
