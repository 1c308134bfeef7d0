package redact

import (
	"bytes"
	"encoding/binary"
	"strings"
)

// IsSecretName reports whether a variable, flag or field name names a secret
// value. It is the one classifier of names in rac: the environment scan, the
// NAME=VALUE rule of the redactor and any caller deciding whether to show an
// environment variable all use it, so they can never disagree.
//
// The name is split into segments on '_', '-', '.', other punctuation and
// camelCase boundaries. It is secret when a segment is a secret keyword
// (TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE, APIKEY, CREDENTIAL(S), AUTH,
// PAT, SSHPASS, REQUIREPASS, MASTERAUTH, PSK), a compound ending in one
// (PGPASSWORD), KEY after or glued
// to a qualifier (API, ACCESS, PRIVATE, SECRET, SIGNING, SESSION, CLIENT,
// MASTER, ENCRYPTION, LICENSE, WRITE, APP, SERVER, STORAGE, ACCOUNT,
// SUBSCRIPTION, HMAC, COOKIE, ... and service names: OPENAI_KEY,
// STRIPE_KEY), or PASS/PWD/SALT as the last of several segments; and it is
// not secret when the
// last segment only describes the secret (NAME, FILE, PATH, DIR, ID, URL,
// TYPE, SOCK, ...) or any segment is PUBLIC, TOKENS, TOKENIZER, AUTHOR, MAX
// or MIN.
func IsSecretName(name string) bool {
	var buf [128]byte
	if len(name) > len(buf) {
		return isSecretNameBytes([]byte(name))
	}
	return isSecretNameBytes(buf[:copy(buf[:], name)])
}

// isSecretNameBytes is IsSecretName on a scratch copy it may modify (it
// lower-cases it in place), so the hot path of the redactor does not allocate.
func isSecretNameBytes(name []byte) bool {
	var segBuf [24][2]int
	segs := nameSegments(name, segBuf[:0])
	if len(segs) == 0 {
		return false
	}
	for i := range name {
		name[i] = foldByte(name[i])
	}
	seg := func(i int) []byte { return name[segs[i][0]:segs[i][1]] }
	if isNonSecretLast(seg(len(segs) - 1)) {
		return false
	}
	secret := false
	for i := range segs {
		s := seg(i)
		if isNonSecretAny(s) {
			return false
		}
		switch {
		case isSecretSegment(s):
			secret = true
		case string(s) == "key" && i > 0 && isKeyQualifier(seg(i-1)):
			secret = true
		case i == len(segs)-1 && i > 0 && isSecretLastSegment(s):
			secret = true
		case hasSecretSuffix(s):
			secret = true
		}
	}
	return secret
}

func isKeyQualifier(s []byte) bool {
	for _, q := range keyQualifiers {
		if string(s) == q {
			return true
		}
	}
	for _, q := range keyVendors {
		if string(s) == q {
			return true
		}
	}
	return false
}

func hasSecretSuffix(s []byte) bool {
	for _, suf := range secretSuffixes {
		if len(s) > len(suf) && string(s[len(s)-len(suf):]) == suf {
			return true
		}
	}
	return false
}

// nameSegments splits a name into segments, returned as bounds. Trailing
// digits are dropped from each segment so PASSWORD2 and OAUTH2 compare as
// their words.
func nameSegments(name []byte, segs [][2]int) [][2]int {
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		for end > start && name[end-1] >= '0' && name[end-1] <= '9' {
			end--
		}
		if end > start {
			segs = append(segs, [2]int{start, end})
		}
		start = -1
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		isUpper := c >= 'A' && c <= 'Z'
		isLower := c >= 'a' && c <= 'z'
		isDigit := c >= '0' && c <= '9'
		if !isUpper && !isLower && !isDigit {
			flush(i)
			continue
		}
		if start >= 0 && isUpper {
			prev := name[i-1]
			prevLower := (prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9')
			// "clientSecret" splits before S; "APIKey" splits before K, the
			// last upper-case letter of a run that is followed by lower case.
			nextLower := i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z'
			prevUpper := prev >= 'A' && prev <= 'Z'
			if prevLower || (prevUpper && nextLower) {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(name))
	return segs
}

// isAssignmentName adds the checks that only make sense for a name found in
// text: a name ending in a file extension is a file (token.go:42:7:).
func isAssignmentName(name []byte) bool {
	for len(name) > 0 && (name[0] == '-' || name[0] == '.') {
		name = name[1:]
	}
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	if dot := bytes.LastIndexByte(name, '.'); dot > 0 {
		var ext [8]byte
		if e := name[dot+1:]; len(e) <= len(ext) {
			for i, c := range e {
				ext[i] = foldByte(c)
			}
			if isFileExtension(ext[:len(e)]) {
				return false
			}
		}
	}
	var buf [128]byte
	return isSecretNameBytes(buf[:copy(buf[:], name)])
}

// envNameRules makes the user's extra variable names (config
// redact.env_names) secret-like for the assignment rule too, not only for
// the environment rule: NAME=VALUE, NAME: VALUE and the other assignment
// forms of such a name are redacted wherever they are printed. A name is
// matched whole and case-insensitively; names shorter than two bytes
// cannot be prefilter literals and are left to the environment rule.
func envNameRules(names []string) []rule {
	var lits []string
	seen := map[string]bool{}
	for _, n := range names {
		f := strings.ToLower(strings.TrimSpace(n))
		if len(f) < 2 || len(f) > 128 || seen[f] {
			continue
		}
		seen[f] = true
		lits = append(lits, f)
	}
	if len(lits) == 0 {
		return nil
	}
	match := func(e *engine, line []byte, hs, he int, ri, _ int32) {
		ne, ok := nameEnd(line, hs)
		if !ok {
			return
		}
		ns := nameStart(line, hs)
		bare := line[ns:ne]
		for len(bare) > 0 && (bare[0] == '-' || bare[0] == '.') {
			bare = bare[1:]
		}
		var buf [128]byte
		if len(bare) > len(buf) {
			return
		}
		low := buf[:len(bare)]
		for i, c := range bare {
			low[i] = foldByte(c)
		}
		if !seen[string(low)] {
			return
		}
		assign(e, line, hs, ne, ri, true)
	}
	return []rule{{id: "secret-assignment", prio: prioAssignment, literals: lits, match: match}}
}

// nameCache remembers the verdicts of isAssignmentName, and of
// contextNameCandidate beside them, for the names an engine met last.
// Output repeats its names (every go test -v verdict line is PASS:, an
// environment dump's SSH_AUTH_SOCK= and PWD=), and classifying one
// (segments, folding, the word sets) costs several times a lookup; the
// verdicts are functions of the name's bytes alone, so cached ones are the
// same verdicts. Direct-mapped: a name evicts the one in its slot.
type nameCache [nameCacheSlots]nameCacheEntry

type nameCacheEntry struct {
	n      uint8 // 0: empty
	secret bool
	cand   bool // contextNameCandidate
	key    [nameCacheKey]byte
}

const (
	nameCacheBits  = 6
	nameCacheSlots = 1 << nameCacheBits
	nameCacheKey   = 32 // longer names are classified every time
)

// assignmentName is isAssignmentName, through e's name cache.
func (e *engine) assignmentName(name []byte) bool {
	secret, _ := e.nameKinds(name)
	return secret
}

// nameKinds is isAssignmentName and contextNameCandidate of name, through
// e's name cache: the quiet check and assign ask both of most names, and
// one lookup answers them.
func (e *engine) nameKinds(name []byte) (secret, cand bool) {
	if len(name) == 0 || len(name) > nameCacheKey {
		return isAssignmentName(name), contextNameCandidate(name)
	}
	ent := &e.names[nameSlot(name)]
	if int(ent.n) == len(name) && string(ent.key[:len(name)]) == string(name) {
		return ent.secret, ent.cand
	}
	secret, cand = isAssignmentName(name), contextNameCandidate(name)
	ent.n, ent.secret, ent.cand = uint8(len(name)), secret, cand
	copy(ent.key[:], name)
	return secret, cand
}

// nameSlot hashes a name of 1 to nameCacheKey bytes from its first and
// last eight bytes (overlapping, or packed when shorter) and its length:
// a few multiplications, not one a byte.
func nameSlot(name []byte) int {
	var a, b uint64
	if n := len(name); n >= 8 {
		a, b = binary.LittleEndian.Uint64(name), binary.LittleEndian.Uint64(name[n-8:])
	} else if cap(name) >= 8 {
		// The same packing from one load: name is a slice of a longer line.
		a = binary.LittleEndian.Uint64(name[:8]) & (1<<(8*n) - 1)
	} else {
		for i, c := range name {
			a |= uint64(c) << (8 * i)
		}
	}
	h := (a*0x9e3779b97f4a7c15 ^ b*0xc2b2ae3d27d4eb4f) + uint64(len(name))*0x165667b19e3779f9
	return int(h >> (64 - nameCacheBits))
}
