package hook

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/rac-cli/rac/internal/interactive"
	"github.com/rac-cli/rac/internal/termtext"
)

// Wrapper is the text inserted before a wrapped command's first word when
// rac is named rac (Rewriter.Rac "").
const Wrapper = "rac run -- "

// wrapperFor is the text inserted for rac named rac: the name, or a path
// quoted for the shell when it needs it.
func wrapperFor(rac string) string {
	if rac == "" || rac == "rac" {
		return Wrapper
	}
	return termtext.ShellQuote(rac) + " run -- "
}

// Program is one hook.wrap entry: a program and the words that must
// follow it ("git"; "python -m pytest"; "docker build").
type Program []string

// ParsePrograms turns hook.wrap entries into programs; empty entries are
// skipped.
func ParsePrograms(entries []string) []Program {
	var ps []Program
	for _, e := range entries {
		if f := strings.Fields(e); len(f) > 0 {
			ps = append(ps, f)
		}
	}
	return ps
}

// neverWrap are the programs no setting makes rac wrap: Claude Code reads
// the exit status of grep and diff by their names (1 is "no match" or
// "differ", not an error), test and [ are conditions, cd and the builtins
// act on the shell itself, and rac or command mean the model chose.
var neverWrap = []string{
	"grep", "egrep", "fgrep", "zgrep", "rg", "diff", "cmp", "test", "[", "[[",
	"cd", "pushd", "popd", "source", ".", "eval", "exec", "export", "set", "unset",
	"alias", "builtin", "command", "rac", "time", "nohup", "env", "sudo", "xargs",
}

// Rewriter inserts Wrapper before each simple command of a list or
// pipeline that runs one of Programs.
type Rewriter struct {
	Programs []Program
	// Getenv gives $EDITOR and $VISUAL, whose programs are interactive.
	Getenv func(string) string
	// Interactive names more programs that are all terminal (run.interactive).
	Interactive []string
	// Session, when not empty, is a session name: every wrapped command and
	// every command the model runs with rac itself gets RAC_SESSION=Session
	// (Gemini CLI exports no conversation id to its shells).
	Session string
	// Rac is how the inserted text names rac: "rac" (or "") where the
	// shell finds this rac by that name, else an absolute path (Codex's
	// login shell resets PATH). A path is quoted when it needs it.
	Rac string
}

type insertion struct {
	off  int
	text string
}

// parse parses src as Bash. A fresh parser per call: nothing at package init.
func parse(src string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

// Rewrite returns src with Wrapper inserted at the byte offset of each
// wrapped command's first word, and whether it changed anything. A command
// that does not parse is returned unchanged. Nothing of src is re-printed:
// the result is src with insertions only.
func (r *Rewriter) Rewrite(src string) (string, bool) {
	f, err := parse(src)
	if err != nil {
		return src, false
	}
	var ins []insertion
	for _, st := range f.Stmts {
		r.stmt(st, &ins)
	}
	if len(ins) == 0 {
		return src, false
	}
	slices.SortStableFunc(ins, func(a, b insertion) int { return a.off - b.off })
	var b strings.Builder
	last := 0
	for _, in := range ins {
		b.WriteString(src[last:in.off])
		b.WriteString(in.text)
		last = in.off
	}
	b.WriteString(src[last:])
	return b.String(), true
}

// stmt looks into lists, pipelines, subshells and { } groups, where a
// command's output goes where the model reads it; never into $(...), <(...)
// or backquotes (their output is data), nor into if, for, while or case.
func (r *Rewriter) stmt(st *syntax.Stmt, ins *[]insertion) {
	if st == nil {
		return
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if text := r.call(c); text != "" {
			*ins = append(*ins, insertion{int(c.Args[0].Pos().Offset()), text})
		}
	case *syntax.BinaryCmd:
		r.stmt(c.X, ins)
		r.stmt(c.Y, ins)
	case *syntax.Subshell:
		for _, s := range c.Stmts {
			r.stmt(s, ins)
		}
	case *syntax.Block:
		for _, s := range c.Stmts {
			r.stmt(s, ins)
		}
	}
}

// call returns the text to insert before c's first word, or "".
func (r *Rewriter) call(c *syntax.CallExpr) string {
	if len(c.Args) == 0 {
		return ""
	}
	first := literal(c.Args[0])
	session := ""
	if r.Session != "" && !assigns(c, "RAC_SESSION") {
		session = "RAC_SESSION=" + r.Session + " "
	}
	if first == "rac" || path.Base(first) == "rac" {
		// already wrapped (by name or by path), or the model's own rac
		// commands, which read the same session
		return session
	}
	if first == "" || slices.Contains(neverWrap, first) || !r.wrapped(c.Args) {
		return ""
	}
	argv := make([]string, len(c.Args))
	for i, w := range c.Args {
		argv[i] = literal(w)
	}
	getenv := r.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if interactive.Is(argv, getenv, r.Interactive) {
		return ""
	}
	return session + wrapperFor(r.Rac)
}

// wrapped reports whether args start with one of the programs.
func (r *Rewriter) wrapped(args []*syntax.Word) bool {
	for _, p := range r.Programs {
		if len(args) < len(p) {
			continue
		}
		ok := true
		for i, w := range p {
			if literal(args[i]) != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// literal is w's text when w is one plain word (no quotes, expansions or
// backslashes), else "".
func literal(w *syntax.Word) string {
	s := w.Lit()
	if strings.ContainsAny(s, "\\*?[") {
		return ""
	}
	return s
}

func assigns(c *syntax.CallExpr, name string) bool {
	for _, a := range c.Assigns {
		if a.Name != nil && a.Name.Value == name {
			return true
		}
	}
	return false
}
