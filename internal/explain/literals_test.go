package explain

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// TestNoCaseLiterals: no string literal of explain's own code occurs in
// the output of exactly one corpus case (tuning or held-out): a rule that
// matches one run's words names that run instead of a shape that
// generalises. Literals of one or two characters (a typographic quote is one
// character of three bytes) are punctuation, not words;
// imports and constants (the kind names a report prints) are not rules;
// render.go and json.go only write text. The test is strict: a rule
// whose words one run alone prints is rewritten by shape, or is backed by a
// second real run of another tool that prints them.
func TestNoCaseLiterals(t *testing.T) {
	var outputs [][]byte
	for _, set := range corpusSets {
		for _, c := range set.cases() {
			run, ok := readCorpusRun(t, set.dir, corpusSlug(c.name))
			if !ok {
				continue
			}
			outputs = append(outputs, bytes.ToLower(append(append([]byte{}, run.stdout...), run.stderr...)))
		}
	}
	require.NotEmpty(t, outputs)

	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "render.go" || name == "json.go" {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			if d, ok := n.(*ast.GenDecl); ok && (d.Tok == token.CONST || d.Tok == token.IMPORT) {
				return false
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || utf8.RuneCountInString(strings.TrimSpace(s)) < 3 {
				return true
			}
			checked++
			needle := []byte(strings.ToLower(s))
			in := 0
			for _, o := range outputs {
				if bytes.Contains(o, needle) {
					in++
				}
			}
			if in == 1 {
				t.Errorf("%s: literal %q occurs in the output of one corpus case only", fset.Position(lit.Pos()), s)
			}
			return true
		})
	}
	require.Greater(t, checked, 50, "the literals of explain's code were not found")
}
