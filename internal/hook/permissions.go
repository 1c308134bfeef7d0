package hook

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Claude Code evaluates its permission rules on the command text it is
// about to run, so a rewritten command no longer matches the rules written
// for the original: a deny rule Bash(git push:*) stops matching
// "rac run -- git push". rac therefore rewrites only when it can see that
// Claude Code would run the original without asking, and then answers
// "allow" (the decision the original would have had). Every doubt falls on
// the side of answering nothing: an allow rule must match strictly, a deny
// or ask rule matches loosely, and a rule or file rac cannot read counts as
// a deny.

// claudeRules are the Bash rules of every settings file Claude Code reads
// that rac can see.
type claudeRules struct {
	allow, deny, ask []string // the text inside Bash(...); "*" for a bare Bash
	// broken names a settings file that exists but could not be read
	broken string
}

// claudeSettingsFiles are the settings files Claude Code reads, in the
// order it reads them (managed settings last: they win).
func claudeSettingsFiles(getenv func(string) string, project string) []string {
	user := getenv("CLAUDE_CONFIG_DIR")
	if user == "" && getenv("HOME") != "" {
		user = path.Join(getenv("HOME"), ".claude")
	}
	var files []string
	if user != "" {
		files = append(files, path.Join(user, "settings.json"))
	}
	if project != "" {
		files = append(files, path.Join(project, ".claude", "settings.json"),
			path.Join(project, ".claude", "settings.local.json"))
	}
	return append(files, "/etc/claude-code/managed-settings.json",
		"/Library/Application Support/ClaudeCode/managed-settings.json")
}

// readClaudeRules reads the Bash rules of files; a missing file has none.
func readClaudeRules(fsys FS, files []string) claudeRules {
	var rs claudeRules
	for _, name := range files {
		b, err := fsys.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		var s struct {
			Permissions struct {
				Allow, Deny, Ask []string
			} `json:"permissions"`
		}
		if err == nil {
			err = json.Unmarshal(b, &s)
		}
		if err != nil {
			rs.broken = name
			return rs
		}
		rs.allow = append(rs.allow, bashRules(s.Permissions.Allow)...)
		rs.deny = append(rs.deny, bashRules(s.Permissions.Deny)...)
		rs.ask = append(rs.ask, bashRules(s.Permissions.Ask)...)
	}
	return rs
}

// bashRules keeps the rules of the Bash tool, as the text in parentheses.
func bashRules(rules []string) []string {
	var out []string
	for _, r := range rules {
		r = strings.TrimSpace(r)
		switch {
		case r == "Bash":
			out = append(out, "*")
		case strings.HasPrefix(r, "Bash(") && strings.HasSuffix(r, ")"):
			out = append(out, strings.TrimSpace(r[len("Bash("):len(r)-1]))
		}
	}
	return out
}

// claudeAllows reports whether Claude Code would run src without asking in
// permission mode mode, as far as rules show, and why (for the answer's
// reason) or why not.
func claudeAllows(mode, src string, rs claudeRules) (bool, string) {
	if rs.broken != "" {
		return false, "cannot read " + rs.broken
	}
	f, err := parse(src)
	if err != nil {
		return false, "does not parse"
	}
	texts, cmds := looseTexts(src, f), looseCommands(f)
	for _, r := range []struct {
		rules []string
		kind  string
	}{{rs.deny, "a deny rule"}, {rs.ask, "an ask rule"}} {
		for _, p := range r.rules {
			if looseMatch(p, texts, cmds) {
				return false, r.kind + " Bash(" + p + ") matches"
			}
		}
	}
	switch mode {
	case "bypassPermissions":
		return true, "bypassPermissions mode"
	case "default", "acceptEdits", "dontAsk":
	default:
		return false, "permission mode " + mode
	}
	texts, ok := simpleTexts(src, f)
	if !ok {
		return false, "not only simple commands"
	}
	var used []string
	for _, text := range texts {
		matched := ""
		for _, p := range rs.allow {
			if matchStrict(p, text) {
				matched = p
				break
			}
		}
		if matched == "" {
			return false, "no allow rule matches " + text
		}
		used = append(used, "Bash("+matched+")")
	}
	return true, "allowed by " + strings.Join(used, ", ")
}

// looseTexts are every text a deny or ask rule might be matched against:
// the whole command and each simple command anywhere in it (also inside
// substitutions), with and without its assignments.
func looseTexts(src string, f *syntax.File) []string {
	texts := []string{strings.TrimSpace(src)}
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		end := c.Args[len(c.Args)-1].End().Offset()
		texts = append(texts, src[c.Args[0].Pos().Offset():end])
		if len(c.Assigns) > 0 {
			texts = append(texts, src[c.Assigns[0].Pos().Offset():end])
		}
		return true
	})
	return texts
}

// simpleTexts are the simple commands of src when src is only simple
// commands joined by &&, ||, ; and pipes, with no assignments, no
// substitutions and no redirection but to /dev/null or another descriptor;
// ok is false otherwise (then no allow rule is trusted to cover it).
func simpleTexts(src string, f *syntax.File) (texts []string, ok bool) {
	var walk func(st *syntax.Stmt) bool
	walk = func(st *syntax.Stmt) bool {
		if st.Background || st.Coprocess || st.Negated || !plainRedirs(st.Redirs) {
			return false
		}
		switch c := st.Cmd.(type) {
		case *syntax.BinaryCmd:
			return walk(c.X) && walk(c.Y)
		case *syntax.CallExpr:
			if len(c.Assigns) > 0 || len(c.Args) == 0 || hasSubst(c) {
				return false
			}
			texts = append(texts, src[c.Args[0].Pos().Offset():c.Args[len(c.Args)-1].End().Offset()])
			return true
		}
		return false
	}
	for _, st := range f.Stmts {
		if !walk(st) {
			return nil, false
		}
	}
	return texts, len(texts) > 0
}

func plainRedirs(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		switch r.Op {
		case syntax.DplOut, syntax.DplIn:
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrIn:
			if r.Word == nil || r.Word.Lit() != "/dev/null" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func hasSubst(c *syntax.CallExpr) bool {
	found := false
	syntax.Walk(c, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ParamExp:
			found = true
		}
		return !found
	})
	return found
}

// matchStrict matches an allow rule: "x:*" is x or x followed by a space
// and more; "*" anywhere stands for any text; anything else is the whole
// command.
func matchStrict(p, text string) bool {
	if prefix, ok := strings.CutSuffix(p, ":*"); ok {
		if strings.Contains(prefix, "*") {
			return false
		}
		return text == prefix || strings.HasPrefix(text, prefix+" ")
	}
	if strings.Contains(p, "*") {
		return globMatch(p, text)
	}
	return text == p
}

// matchLoose matches a deny or ask rule, on the safe side: everything the
// rule could match in any reading, and more.
func matchLoose(p, text string) bool {
	lit := p
	if i := strings.IndexAny(p, "*:"); i >= 0 {
		lit = p[:i]
	}
	lit = strings.TrimSpace(lit)
	if lit == "" {
		return true
	}
	return strings.HasPrefix(text, lit) || strings.Contains(text, " "+lit) ||
		strings.Contains(text, ";"+lit) || strings.Contains(text, "|"+lit) || strings.Contains(text, "&"+lit)
}

// looseMatch reports whether a deny or ask rule p could match the command
// in any reading: its text as written (texts), or the words of any of its
// simple commands as bash will see them (cmds).
func looseMatch(p string, texts []string, cmds [][]looseWord) bool {
	for _, text := range texts {
		if matchLoose(p, text) {
			return true
		}
	}
	lit := p
	if i := strings.IndexAny(p, "*:"); i >= 0 {
		lit = p[:i]
	}
	for _, words := range cmds {
		if matchWords(lit, words) {
			return true
		}
	}
	return false
}

// globMatch matches text against p, where each * stands for any text.
func globMatch(p, text string) bool {
	parts := strings.Split(p, "*")
	if !strings.HasPrefix(text, parts[0]) {
		return false
	}
	text = text[len(parts[0]):]
	for i, part := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(text, part)
		}
		j := strings.Index(text, part)
		if j < 0 {
			return false
		}
		text = text[j+len(part):]
	}
	return true
}

// codexRulesBlock names a Codex exec-policy rules file that forbids or
// prompts for some command: such a rule is matched on the command text,
// so rac does not hide a command behind "rac run --" while one exists.
func codexRulesBlock(fsys FS, dirs []string) string {
	for _, dir := range dirs {
		entries, err := fsys.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return dir
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".rules") {
				continue
			}
			name := path.Join(dir, e.Name())
			b, err := fsys.ReadFile(name)
			if err != nil || strings.Contains(string(b), "forbidden") || strings.Contains(string(b), "prompt") {
				return name
			}
		}
	}
	return ""
}
