package hook

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

var denyPushAskReset = claudeRules{deny: []string{"git push:*"}, ask: []string{"git reset:*"}}

// The spellings an attack run found answered "allow" in bypassPermissions
// mode: bash runs each as git push or git reset.
func TestDenySpelledDifferently(t *testing.T) {
	for _, src := range []string{
		"git  push origin", "git\tpush", "git \\\npush origin", "git log && git  push",
		"git  reset --hard", "'git' push", `"git" "push"`, `g\it push`, `git pu\sh`, "git pu''sh",
		"command git  push", "env FOO=1 git \t push", "bash -c 'git  push'", `sh -c "git	push origin"`,
		"echo $(git  push)", "( git  push )", "{ git  push; }", "true;git  push", "git $SUB", "$GIT push",
		"{git,x} push", "gi? push", "git push", "git  push --force-with-lease",
	} {
		ok, why := claudeAllows("bypassPermissions", src, denyPushAskReset)
		assert.False(t, ok, "%q: allowed (%s)", src, why)
	}
	for _, src := range []string{"git status", "git log --oneline", "git  log", "echo push", "git pull", "ls -la"} {
		ok, why := claudeAllows("bypassPermissions", src, denyPushAskReset)
		assert.True(t, ok, "%q: not allowed (%s)", src, why)
	}
}

// bashWords are the words of each simple command of src as mvdan.cc/sh
// expands them (quotes and escapes removed); ok is false when src does
// not parse.
func bashWords(src string) (cmds [][]string, ok bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, false
	}
	ok = true
	cfg := &expand.Config{}
	syntax.Walk(f, func(n syntax.Node) bool {
		c, isCall := n.(*syntax.CallExpr)
		if !isCall || len(c.Args) == 0 {
			return true
		}
		// a word that needs a command run ($(...)) is left out; the
		// commands inside it are walked on their own
		if fields, err := expand.Fields(cfg, c.Args...); err == nil {
			cmds = append(cmds, fields)
		}
		return true
	})
	return cmds, ok
}

// spell writes the words as a random bash spelling of the same command:
// blanks, tabs and line continuations between words, each word plain,
// quoted in part, or escaped, behind a random prefix and in a random
// construct.
func spell(rng *rand.Rand, words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteString([]string{" ", "  ", "\t", " \\\n", "\t \\\n  "}[rng.IntN(5)])
		}
		// a backslash goes before a byte of the word, never before the blank after it
		switch cut := rng.IntN(len(w)); rng.IntN(5) {
		case 0:
			b.WriteString(w)
		case 1:
			b.WriteString(w[:cut] + "'" + w[cut:] + "'")
		case 2:
			b.WriteString(`"` + w[:cut] + `"` + w[cut:])
		case 3:
			b.WriteString(w[:cut] + `\` + w[cut:])
		default:
			b.WriteString(w[:cut] + "''" + w[cut:])
		}
	}
	cmd := b.String() + []string{"", " origin", " --force main", " 2>/dev/null"}[rng.IntN(4)]
	prefix := []string{"", "git log && ", "true; ", "false || ", "env A=1 ", "command ", "FOO=bar ", "cd /tmp && "}[rng.IntN(8)]
	switch rng.IntN(5) {
	case 0:
		return "( " + prefix + cmd + " )"
	case 1:
		return "{ " + prefix + cmd + "; }"
	case 2:
		return "echo $(" + prefix + cmd + ")"
	case 3:
		return prefix + cmd + " | cat"
	}
	return prefix + cmd
}

// containsCommand reports whether a simple command of cmds runs words
// (after a runner such as env or command: at any place in it).
func containsCommand(cmds [][]string, words []string) bool {
	for _, c := range cmds {
		for i := range c {
			if len(c)-i >= len(words) && slices.Equal(c[i:i+len(words)], words) {
				return true
			}
		}
	}
	return false
}

// FuzzDenySpellings: whatever the spelling, when bash's parse (mvdan.cc/sh,
// with its own expansion) shows the denied or asked command, the hook does
// not allow it.
func FuzzDenySpellings(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(20261207), uint64(0))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		rng := rand.New(rand.NewPCG(a, b))
		for range 50 {
			words := [][]string{{"git", "push"}, {"git", "reset"}}[rng.IntN(2)]
			src := spell(rng, words)
			cmds, ok := bashWords(src)
			if !ok || !containsCommand(cmds, words) {
				t.Fatalf("the generator's %q does not run %q: %q", src, words, cmds)
			}
			if allowed, why := claudeAllows("bypassPermissions", src, denyPushAskReset); allowed {
				t.Fatalf("%q runs %q and is allowed (%s)", src, words, why)
			}
		}
	})
}

// The same spellings, run by the real bash: each runs git push, and the
// hook allows none of them.
func TestDenySpellingsInRealBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "git"), []byte("#!/bin/sh\necho \"GIT $*\"\n"), 0o755))
	rng := rand.New(rand.NewPCG(7, 7))
	for range 40 {
		src := spell(rng, []string{"git", "push"})
		cmd := exec.CommandContext(context.Background(), bash, "-c", src)
		cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin"}
		cmd.Dir = dir
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), "GIT push") {
			continue // inside echo $(...), the output is echo's
		}
		allowed, why := claudeAllows("bypassPermissions", src, denyPushAskReset)
		assert.False(t, allowed, "bash runs git push for %q and the hook allows it (%s)", src, why)
	}
}
