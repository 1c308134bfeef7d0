package redact

import "strings"

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
	var buf [16]string
	segs := nameSegments(name, buf[:0])
	if len(segs) == 0 {
		return false
	}
	last := segs[len(segs)-1]
	if nonSecretLast[last] {
		return false
	}
	secret := false
	for i, s := range segs {
		if nonSecretAny[s] {
			return false
		}
		switch {
		case secretSegments[s]:
			secret = true
		case s == "key" && i > 0 && isKeyQualifier(segs[i-1]):
			secret = true
		case i == len(segs)-1 && i > 0 && secretLastSegments[s]:
			secret = true
		case hasSecretSuffix(s):
			secret = true
		}
	}
	return secret
}

func isKeyQualifier(s string) bool {
	for _, q := range keyQualifiers {
		if s == q {
			return true
		}
	}
	return false
}

func hasSecretSuffix(s string) bool {
	for _, suf := range secretSuffixes {
		if len(s) > len(suf) && strings.HasSuffix(s, suf) {
			return true
		}
	}
	return false
}

// nameSegments splits a name into lower-case segments. Trailing digits are
// dropped from each segment so PASSWORD2 and OAUTH2 compare as their words.
func nameSegments(name string, segs []string) []string {
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		s := strings.TrimRight(name[start:end], "0123456789")
		if s != "" {
			segs = append(segs, strings.ToLower(s))
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
	n := strings.TrimLeft(string(name), "-.")
	if n == "" {
		return false
	}
	if dot := strings.LastIndexByte(n, '.'); dot > 0 && fileExtensions[strings.ToLower(n[dot+1:])] {
		return false
	}
	return IsSecretName(n)
}
