package explain

// maxKey bounds a fold key: two lines that agree on their first maxKey
// bytes of shape are the same line for counting purposes.
const maxKey = 256

// appendKey appends to dst the shape of line t that similar lines share:
// lines that differ only in numbers, hex ids, paths or timestamps get the
// same key. A path is a word holding '/' or '\', or a file name with a
// extension; a number is a run of digits; a hex id is a word
// made of hex digits holding at least one digit. Runs of spaces fold to one.
func appendKey(dst, t []byte) []byte {
	start := len(dst)
	for i := 0; i < len(t) && len(dst)-start < maxKey; {
		c := t[i]
		if c == ' ' || c == '\t' {
			for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
				i++
			}
			dst = append(dst, ' ')
			continue
		}
		// One whitespace-separated token.
		j := i
		for j < len(t) && t[j] != ' ' && t[j] != '\t' {
			j++
		}
		tok := t[i:j]
		if isPath(tok) {
			dst = append(dst, '/')
		} else {
			dst = appendWords(dst, tok)
		}
		i = j
	}
	return dst
}

// appendWords folds the numbers and hex ids inside one token.
func appendWords(dst, tok []byte) []byte {
	for i := 0; i < len(tok); {
		if !isWord(tok[i]) {
			dst = append(dst, tok[i])
			i++
			continue
		}
		j := i
		hex, digits := true, false
		for j < len(tok) && isWord(tok[j]) {
			c := tok[j]
			if isDigit(c) {
				digits = true
			} else if !('a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				hex = false
			}
			j++
		}
		if hex && digits || j-i > 2 && tok[i] == '0' && lower[tok[i+1]] == 'x' && isHex(tok[i+2:j]) {
			dst = append(dst, '#')
			i = j
			continue
		}
		for ; i < j; i++ {
			if isDigit(tok[i]) {
				for i+1 < j && isDigit(tok[i+1]) {
					i++
				}
				dst = append(dst, '#')
				continue
			}
			dst = append(dst, tok[i])
		}
	}
	return dst
}

// isPath reports a token that names a file: it holds a path separator, or
// is a file name with an extension (optionally followed by a position, as
// in "main.c:3:5:").
func isPath(tok []byte) bool {
	for _, c := range tok {
		if c == '/' || c == '\\' {
			return true
		}
	}
	// Strip quotes, a trailing position and punctuation: 'main.c:3:5:' -> main.c
	for len(tok) > 0 && (tok[0] == '\'' || tok[0] == '"' || tok[0] == '`' || tok[0] == '(') {
		tok = tok[1:]
	}
	end := len(tok)
	for end > 0 && (isDigit(tok[end-1]) || tok[end-1] == ':' || tok[end-1] == '\'' || tok[end-1] == '"' ||
		tok[end-1] == '`' || tok[end-1] == ')' || tok[end-1] == ',' || tok[end-1] == '.') {
		end--
	}
	tok = tok[:end]
	dot := -1
	for i := len(tok) - 1; i > 0; i-- {
		if tok[i] == '.' {
			dot = i
			break
		}
	}
	if dot <= 0 {
		return false
	}
	return isExtension(tok[dot+1:])
}

// isExtension reports the shape of a file extension: one to five
// lower-case letters and digits, a letter first ("c", "go", "json",
// "mjs"), which a version ("1.2.3") or a sentence ("Done. Next") is not.
func isExtension(e []byte) bool {
	if len(e) == 0 || len(e) > 5 || e[0] < 'a' || e[0] > 'z' {
		return false
	}
	for _, c := range e {
		if !('a' <= c && c <= 'z' || isDigit(c)) {
			return false
		}
	}
	return true
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !(isDigit(c) || 'a' <= lower[c] && lower[c] <= 'f') {
			return false
		}
	}
	return true
}
