package redact

import "bytes"

// IsSecretName reports whether a variable, flag or field name names a secret
// value. It is the one classifier of names in rac: the environment scan, the
// NAME=VALUE rule of the redactor and any caller deciding whether to show an
// environment variable all use it, so they can never disagree.
//
// The name is split into segments on '_', '-', '.', other punctuation and
// camelCase boundaries. It is secret when a segment is a secret keyword
// (TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE, APIKEY, CREDENTIAL(S), AUTH,
// PAT), a compound ending in one (PGPASSWORD), KEY after a qualifier (API,
// ACCESS, PRIVATE, SECRET, SIGNING, SESSION, CLIENT, MASTER, ENCRYPTION), or
// PASS/PWD as the last of several segments; and it is not secret when the
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
