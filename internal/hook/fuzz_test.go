package hook

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// calls lists every simple command of src, anywhere, as the source text of
// its assignments and of its words.
func calls(t *testing.T, src string) (assigns, words [][]string) {
	t.Helper()
	f, err := parse(src)
	if err != nil {
		t.Fatalf("%q does not parse: %v", src, err)
	}
	text := func(n syntax.Node) string { return src[n.Pos().Offset():n.End().Offset()] }
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			var as, ws []string
			for _, a := range c.Assigns {
				as = append(as, text(a))
			}
			for _, w := range c.Args {
				ws = append(ws, text(w))
			}
			assigns, words = append(assigns, as), append(words, ws)
		}
		return true
	})
	return assigns, words
}

// FuzzRewrite: the hook never panics, and a rewrite parses to the same
// commands with the same words as the original, with only "rac run --"
// (and, for Gemini, RAC_SESSION=NAME) inserted.
func FuzzRewrite(f *testing.F) {
	for _, s := range []string{
		"git status", "A=1 git log | head && make; (cd x && go test ./...)",
		"git commit -F - <<'EOF'\nx $(y)\nEOF\ngit push", "echo $(git status) `make` <(go env)",
		"{ npm test; } 2>&1 | tee log &", "rac out read last && docker build -t x .",
		"python -m pytest -k 'a or b'", "git rebase -i HEAD~2 || git status", "if make; then git push; fi",
		`git commit -m "caf\u00e9 \"q\""`, "x=$(make) git log", "! git diff --quiet",
	} {
		f.Add(s, false)
	}
	programs := ParsePrograms(append(slices.Clone(defaultWrap), "echo", "a", "x y"))
	f.Fuzz(func(t *testing.T, src string, gemini bool) {
		// rac by name, and by a path that needs quoting (Codex's hook)
		for _, rac := range []string{"", "/o p/rac"} {
			r := &Rewriter{Programs: programs, Rac: rac}
			if gemini {
				r.Session = "gemini-s"
			}
			out, changed := r.Rewrite(src)
			if !changed {
				if out != src {
					t.Fatalf("unchanged but different: %q -> %q", src, out)
				}
			} else {
				checkRewrite(t, src, out, wrapperFor(rac))
			}
		}
		// the adapters never panic and answer JSON or nothing
		in, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
			"permission_mode": "bypassPermissions", "tool_input": map[string]any{"command": src, "timeout": 5}})
		for _, h := range Harnesses {
			var b bytes.Buffer
			if _, err := Handle(h, bytes.NewReader(in), &b, Options{Wrap: defaultWrap, FS: mapFS{}}); err != nil && b.Len() > 0 {
				t.Fatalf("%s: an error and output", h)
			}
			if b.Len() > 0 && !json.Valid(b.Bytes()) {
				t.Fatalf("%s: not JSON: %q", h, b.String())
			}
		}
		// and neither does the raw input
		var b bytes.Buffer
		_, _ = Handle("claude", strings.NewReader(src), &b, Options{FS: mapFS{}})
	})
}

func checkRewrite(t *testing.T, src, out, wrapper string) {
	t.Helper()
	oa, ow := calls(t, src)
	ra, rw := calls(t, out)
	_, ww := calls(t, wrapper+"x")
	wrap := ww[0][:3] // rac run --, as source text
	if len(ow) != len(rw) {
		t.Fatalf("%q -> %q: %d commands, now %d", src, out, len(ow), len(rw))
	}
	for i := range ow {
		words := rw[i]
		if len(words) >= 3 && slices.Equal(words[:3], wrap) &&
			!(len(ow[i]) >= 3 && slices.Equal(ow[i][:3], words[:3])) {
			words = words[3:]
		}
		if !slices.Equal(words, ow[i]) {
			t.Fatalf("%q -> %q: words %q, now %q", src, out, ow[i], rw[i])
		}
		as := slices.DeleteFunc(slices.Clone(ra[i]), func(a string) bool { return a == "RAC_SESSION=gemini-s" })
		if !slices.Equal(as, slices.DeleteFunc(slices.Clone(oa[i]), func(a string) bool { return a == "RAC_SESSION=gemini-s" })) {
			t.Fatalf("%q -> %q: assignments %q, now %q", src, out, oa[i], ra[i])
		}
	}
	// only insertions: deleting them gives the original back
	back := strings.ReplaceAll(strings.ReplaceAll(out, "RAC_SESSION=gemini-s ", ""), wrapper, "")
	orig := strings.ReplaceAll(strings.ReplaceAll(src, "RAC_SESSION=gemini-s ", ""), wrapper, "")
	if back != orig {
		t.Fatalf("%q -> %q: not only insertions", src, out)
	}
}
