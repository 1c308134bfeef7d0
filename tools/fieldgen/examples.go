package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rac-cli/rac/internal/redact/redacttest/regexgen"
	"github.com/zricethezav/gitleaks/v8/cmd/generate/config/utils"
)

// Example is a true- or false-positive example of a rule, as gitleaks'
// rule sources (cmd/generate/config/rules/*.go) hold them.
type Example struct {
	Rule string
	TP   bool
	Text string
	Path string // the file name the example is checked under, if any
}

// Examples reads the examples out of the rule sources under dir, the
// module's root. They are Go expressions inside the functions that build
// the rules; Examples evaluates the ones made of string literals, +,
// fmt.Sprintf, the sample and pattern helpers of gitleaks' utils package,
// and secrets.NewSecret (with regexgen, seeded per rule, in place of
// gitleaks' unseeded generator). It returns how many it could not read.
func Examples(dir string) ([]Example, int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "cmd", "generate", "config", "rules", "*.go"))
	if err != nil {
		return nil, 0, err
	}
	if len(files) == 0 {
		return nil, 0, fmt.Errorf("no rule sources under %s", dir)
	}
	sort.Strings(files)
	var out []Example
	unread := 0
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, 0, err
		}
		f, err := parser.ParseFile(fset, file, src, 0)
		if err != nil {
			return nil, 0, err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ex, n := funcExamples(fn)
			out = append(out, ex...)
			unread += n
		}
	}
	return out, unread, nil
}

// interp evaluates the few expressions the rule functions use. A value is
// a list of strings; nil means unreadable.
type interp struct {
	vars  map[string][]string
	paths map[string][]string // for a map of file name to text: the names
	rng   *rand.Rand
	bad   int
}

func funcExamples(fn *ast.FuncDecl) ([]Example, int) {
	id := ruleID(fn)
	if id == "" {
		return nil, 0
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	in := &interp{vars: map[string][]string{}, paths: map[string][]string{}, rng: rand.New(rand.NewPCG(h.Sum64(), 1))}
	var out []Example
	for _, st := range fn.Body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			in.assign(st)
		case *ast.ReturnStmt:
			out = append(out, in.validated(id, st)...)
		}
	}
	return out, in.bad
}

// assign records x := ... and x = ...; for a map of file name to text,
// the names too.
func (in *interp) assign(st *ast.AssignStmt) {
	if len(st.Lhs) != 1 || len(st.Rhs) != 1 {
		return
	}
	name, ok := st.Lhs[0].(*ast.Ident)
	if !ok {
		return
	}
	in.vars[name.Name] = in.eval(st.Rhs[0])
	cl, ok := st.Rhs[0].(*ast.CompositeLit)
	if !ok {
		return
	}
	if _, ok := cl.Type.(*ast.MapType); !ok {
		return
	}
	var keys []string
	for _, el := range cl.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if k := in.one(kv.Key); k != nil && in.one(kv.Value) != nil {
				keys = append(keys, *k)
			}
		}
	}
	in.paths[name.Name] = keys
}

// validated reads return utils.Validate(r, tps, fps): the examples.
func (in *interp) validated(id string, st *ast.ReturnStmt) []Example {
	if len(st.Results) != 1 {
		return nil
	}
	call, ok := st.Results[0].(*ast.CallExpr)
	if !ok || len(call.Args) != 3 || !isSel(call.Fun, "utils", "Validate", "ValidateWithPaths") {
		return nil
	}
	var out []Example
	for i, tp := range []bool{true, false} {
		arg, ok := call.Args[1+i].(*ast.Ident)
		if !ok || arg.Name == "nil" {
			continue
		}
		if in.vars[arg.Name] == nil {
			in.bad++
		}
		paths := in.paths[arg.Name]
		for j, t := range in.vars[arg.Name] {
			ex := Example{Rule: id, TP: tp, Text: t}
			if j < len(paths) {
				ex.Path = paths[j]
			}
			out = append(out, ex)
		}
	}
	return out
}

func ruleID(fn *ast.FuncDecl) string {
	id := ""
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if kv, ok := n.(*ast.KeyValueExpr); ok && id == "" {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "RuleID" {
				if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					id, _ = strconv.Unquote(lit.Value)
				}
			}
		}
		return id == ""
	})
	return id
}

func isSel(e ast.Expr, pkg string, names ...string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == pkg && slices.Contains(names, sel.Sel.Name)
}

func (in *interp) eval(e ast.Expr) []string {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			if err == nil {
				return []string{s}
			}
		}
	case *ast.ParenExpr:
		return in.eval(e.X)
	case *ast.Ident:
		if v, ok := in.vars[e.Name]; ok {
			return v
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			x, y := in.one(e.X), in.one(e.Y)
			if x != nil && y != nil {
				return []string{*x + *y}
			}
		}
	case *ast.CompositeLit:
		var out []string
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value // ValidateWithPaths: path -> text
			}
			v := in.eval(el)
			if v == nil {
				in.bad++
				continue
			}
			out = append(out, v...)
		}
		return nonNil(out)
	case *ast.CallExpr:
		return in.call(e)
	}
	return nil
}

// one evaluates an expression that must be a single string.
func (in *interp) one(e ast.Expr) *string {
	v := in.eval(e)
	if len(v) != 1 {
		return nil
	}
	return &v[0]
}

// patterns are gitleaks' pattern helpers, which take a size.
var patterns = map[string]func(string) string{
	"Hex":                       utils.Hex,
	"Numeric":                   utils.Numeric,
	"AlphaNumeric":              utils.AlphaNumeric,
	"AlphaNumericExtendedShort": utils.AlphaNumericExtendedShort,
	"AlphaNumericExtended":      utils.AlphaNumericExtended,
	"AlphaNumericExtendedLong":  utils.AlphaNumericExtendedLong,
}

func (in *interp) call(e *ast.CallExpr) []string {
	if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "append" && len(e.Args) >= 1 {
		out := slices.Clone(nonNil(in.eval(e.Args[0])))
		for _, a := range e.Args[1:] {
			v := in.eval(a)
			if v == nil {
				in.bad++
				continue
			}
			out = append(out, v...)
		}
		return out
	}
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		v := in.one(a)
		if v == nil {
			return nil
		}
		args[i] = *v
	}
	sel, _ := e.Fun.(*ast.SelectorExpr)
	switch {
	case isSel(e.Fun, "utils", "GenerateSampleSecrets") && len(args) == 2:
		// It ranges over a map: sorted, the examples stay put.
		return nonNil(slices.Sorted(slices.Values(utils.GenerateSampleSecrets(args[0], args[1]))))
	case isSel(e.Fun, "utils", "GenerateSampleSecret") && len(args) == 2:
		return []string{utils.GenerateSampleSecret(args[0], args[1])}
	case isSel(e.Fun, "secrets", "NewSecret") && len(args) == 1:
		return in.newSecret(args[0])
	case isSel(e.Fun, "utils", "Hex8_4_4_4_12") && len(args) == 0:
		return []string{utils.Hex8_4_4_4_12()}
	case sel != nil && isSel(e.Fun, "utils", sel.Sel.Name) && patterns[sel.Sel.Name] != nil && len(args) == 1:
		return []string{patterns[sel.Sel.Name](args[0])}
	case isSel(e.Fun, "fmt", "Sprintf") && len(args) >= 1:
		vals := make([]any, len(args)-1)
		for i, a := range args[1:] {
			vals[i] = a
		}
		return []string{fmt.Sprintf(args[0], vals...)}
	}
	return nil
}

// newSecret stands in for gitleaks' secrets.NewSecret, which draws from an
// unseeded source: the same examples every run.
func (in *interp) newSecret(expr string) []string {
	g, err := regexgen.New(expr, in.rng)
	if err != nil {
		return nil
	}
	for range 100 {
		if s, ok := g.Generate(); ok {
			return []string{s}
		}
	}
	return nil
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}
