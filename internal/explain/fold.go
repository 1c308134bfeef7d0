package explain

// maxKey bounds a fold key: two lines that agree on their first maxKey
// bytes of shape are the same line for counting purposes.
const maxKey = 256

// appendKey appends to dst the shape of line t that similar lines share:
// lines that differ only in numbers, hex ids, paths or timestamps get the
// same key. A path is a word holding '/' or '\', or a file name with a
// extension; a number is a run of digits; a hex id is a word
// made of hex digits holding at least one digit. Runs of spaces fold to one.
//
// Every candidate line is keyed: this reads each byte once, by its class,
// to find its token and what the token holds, and again only in a token
// that holds a digit or may be a file name.
func appendKey(dst, t []byte) []byte {
	start := len(dst)
	for i := 0; i < len(t) && len(dst)-start < maxKey; {
		if class[t[i]]&clsSpace != 0 {
			for i < len(t) && class[t[i]]&clsSpace != 0 {
				i++
			}
			dst = append(dst, ' ')
			continue
		}
		// One whitespace-separated token.
		j := i
		var has uint8
		for j < len(t) && class[t[j]]&clsSpace == 0 {
			has |= class[t[j]]
			j++
		}
		tok := t[i:j]
		switch {
		case has&clsSep != 0 || has&clsDot != 0 && isFileName(tok): // a path (a file name holds a dot)
			dst = append(dst, '/')
		case has&clsDigit == 0:
			dst = append(dst, tok...) // appendWords would copy it: no number, no hex id
		default:
			dst = appendWords(dst, tok)
		}
		i = j
	}
	return dst
}

// appendWords folds the numbers and hex ids inside one token.
func appendWords(dst, tok []byte) []byte {
	const word = clsDigit | clsLetter
	for i := 0; i < len(tok); {
		if class[tok[i]]&word == 0 {
			dst = append(dst, tok[i])
			i++
			continue
		}
		j := i
		hex, digits := true, false
		for j < len(tok) && class[tok[j]]&word != 0 {
			k := class[tok[j]]
			digits = digits || k&clsDigit != 0
			hex = hex && k&(clsDigit|clsHex) != 0
			j++
		}
		switch {
		case !digits: // most words: neither a number nor a hex id
			dst = append(dst, tok[i:j]...)
			i = j
			continue
		case hex || j-i > 2 && tok[i] == '0' && lower[tok[i+1]] == 'x' && isHex(tok[i+2:j]):
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

// isFileName reports a token without a path separator that names a file:
// a file name with an extension (optionally followed by a position, as in
// "main.c:3:5:"). With a separator a token is a path whatever it holds.
func isFileName(tok []byte) bool {
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
