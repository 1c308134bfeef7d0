package hook

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash runs "git  push", "git<TAB>push", "git \<newline>push", "'git' push"
// and "g\it push" all as git push, so a deny or ask rule is also matched
// against each simple command's words as bash will see them: quotes and
// escapes removed, line continuations joined, runs of blanks one space.
// A word rac cannot know before bash runs it (a $VAR, a $(...), a glob, a
// brace expansion) may be anything, so it matches whatever a rule asks
// for at its place and after it.

// looseWord is one word of a simple command as bash will see it; wild
// means its value is only known when bash runs it.
type looseWord struct {
	text string
	wild bool
}

// looseCommands are the words of every simple command of f (also inside
// substitutions, subshells and groups), each word that holds blanks after
// its quotes are removed split at them ("bash -c 'git  push'" gives bash,
// -c, git, push).
func looseCommands(f *syntax.File) [][]looseWord {
	var cmds [][]looseWord
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		var words []looseWord
		for _, w := range c.Args {
			text, wild := unquote(w)
			if wild {
				words = append(words, looseWord{wild: true})
				continue
			}
			for _, f := range strings.Fields(text) {
				words = append(words, looseWord{text: f})
			}
		}
		cmds = append(cmds, words)
		return true
	})
	return cmds
}

// unquote is w's value once bash has removed its quotes and escapes, or
// wild when bash decides it (expansions, globs, braces).
func unquote(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[{") {
				return "", true
			}
			b.WriteString(unescape(p.Value, ""))
		case *syntax.SglQuoted:
			if p.Dollar && strings.Contains(p.Value, `\`) {
				return "", true
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", true
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", true
				}
				b.WriteString(unescape(l.Value, "$`\"\\\n"))
			}
		default:
			return "", true
		}
	}
	return b.String(), false
}

// unescape removes bash's backslashes from s: outside quotes (only "")
// every backslash escapes the next byte; inside double quotes only those
// before a byte of only. A backslash before a newline joins the lines.
func unescape(s, only string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (only == "" || strings.IndexByte(only, s[i+1]) >= 0) {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// matchWords reports whether a deny or ask rule's literal (the text before
// its first * or :) could match the simple command words, starting at any
// word of it (behind command, env, sudo, xargs, bash -c ...): each rule word
// equal to the command's word at its place, the last one a prefix of it
// (Bash(git pu*) takes git push), and a wild word matching the rest.
func matchWords(lit string, words []looseWord) bool {
	rule := strings.Fields(lit)
	if len(rule) == 0 {
		return true
	}
	for start := range words {
		if matchAt(rule, words[start:]) {
			return true
		}
	}
	return false
}

func matchAt(rule []string, words []looseWord) bool {
	for j, r := range rule {
		if j >= len(words) {
			return false
		}
		w := words[j]
		switch {
		case w.wild:
			return true
		case j == len(rule)-1:
			return strings.HasPrefix(w.text, r)
		case w.text != r:
			return false
		}
	}
	return true
}
